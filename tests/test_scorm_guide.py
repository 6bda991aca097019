"""The teachers' guides (docs/teachers.md, docs/teachers.en.md) name Moodle's SCORM settings as
Moodle shows them, in Italian as Moodle's Italian language pack does, recommend settings that do
not cancel each other, and say what to ask the site's admin when the upload limit is too low."""

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent

# What Moodle shows, string by string (component/key: text).
# English: moodle/moodle, https://github.com/moodle/moodle/blob/main/mod/scorm/lang/en/scorm.php and
# https://github.com/moodle/moodle/blob/main/lang/en/completion.php ("activitycompletion" is
# "Completion conditions" since Moodle 4.3; "Activity completion" before); the site's upload limit,
# admin/maxbytes, as Moodle's docs name it: https://docs.moodle.org/23/en/Site_policies ("Maximum
# uploaded file size"), see also https://docs.moodle.org/en/File_upload_size.
EN = {
    "scorm/package": "Package file",
    "scorm/display": "Display package",
    "scorm/currentwindow": "Current window",
    "scorm/popup": "New window",
    "scorm/height": "Height",
    "scorm/skipview": "Student skip content structure page",
    "scorm/grademethod": "Grading method",
    "scorm/gradehighest": "Highest grade",
    "scorm/attemptsmanagement": "Attempts management",
    "scorm/maximumattempts": "Number of attempts",
    "scorm/nolimit": "Unlimited attempts",
    "scorm/whatgrade": "Attempts grading",
    "scorm/highestattempt": "Highest attempt",
    "scorm/forcenewattempts": "Force new attempt",
    "scorm/forceattemptoncomplete": "When previous attempt completed, passed or failed",
    "scorm/newattempt": "Start a new attempt",
    "scorm/completionstatusrequired": "Require status",
    "scorm/completionscorerequired": "Require minimum score",
    "completion/activitycompletion": "Completion conditions",
    "admin/maxbytes": "Maximum uploaded file size",
}
# Italian: Moodle's Italian language pack, kept in AMOS (https://lang.moodle.org) and shipped as
# https://download.moodle.org/langpack/<version>/it.zip, not in moodle/moodle. Read from a copy of
# its MOODLE_39_STABLE export, https://github.com/synteejol/hirulearning/blob/fe83ae9b8f85f25011e8b9e992b892d13b1dac30/lang/it/scorm.php
# (and lang/it/admin.php there), and from an export of its 4.1 pack ("Strings for component
# 'scorm', language 'it', version '4.1'"), whose strings here are the same. completion/activitycompletion
# is the 4.1 pack's; the Italian of 4.3's new "Completion conditions" was not found, so the guide
# gives the English beside it.
IT = {
    "scorm/package": "File del pacchetto",
    "scorm/display": "Visualizzazione pacchetto",
    "scorm/currentwindow": "Stessa finestra",
    "scorm/popup": "Nuova finestra",
    "scorm/height": "Altezza",
    "scorm/skipview": "Gli studenti saltano la pagina con la struttura del pacchetto",
    "scorm/grademethod": "Metodo di valutazione",
    "scorm/gradehighest": "Voto migliore",
    "scorm/attemptsmanagement": "Gestione tentativi",
    "scorm/maximumattempts": "Numero massimo di tentativi",
    "scorm/nolimit": "Senza limite",
    "scorm/whatgrade": "Valutazione tentativi",
    "scorm/highestattempt": "Tentativo migliore",
    "scorm/forcenewattempts": "Forza un nuovo tentativo",
    "scorm/forceattemptoncomplete": "Se il tentativo precedente è completed, passed o failed",
    "scorm/newattempt": "Avvia un nuovo tentativo",
    "scorm/completionstatusrequired": "Stato richiesto",
    "scorm/completionscorerequired": "Punteggio minimo richiesto",
    "completion/activitycompletion": "Completamento attività",
    "admin/maxbytes": "Dimensione massima file caricabili",
}
# What the guides said before, and Moodle does not (issue #51's table; "Activity completion" is
# Moodle 4.2's and older, "Unlimited" alone is no option's name).
WRONG = {
    "it": ["Visualizza pacchetto", "Finestra corrente", "Voto più alto", "Numero di tentativi", "Illimitati",
           "Tentativo più alto", "Forza nuovo tentativo", "Salta la pagina della struttura"],
    "en": ["**Activity completion**", "*Unlimited* ", "*Unlimited*;"],
}
GUIDES = {"it": "docs/teachers.md", "en": "docs/teachers.en.md"}
NAMES = {"it": IT, "en": EN}


def scorm_section(lang):
    """The guide's section on the graded exercise, from its heading to the next one of its level."""
    text = (ROOT / GUIDES[lang]).read_text(encoding="utf-8")
    heading = {"it": "### Un esercizio con voto: il pacchetto SCORM", "en": "### A graded exercise: a SCORM package"}[lang]
    start = text.index(heading)
    end = re.compile(r"^#{2,3} ", re.M).search(text, start + len(heading))
    return " ".join(text[start:end.start() if end else len(text)].split())  # (one line: names broken across lines)


@pytest.mark.parametrize("lang", ["it", "en"])
def test_the_guide_names_moodles_settings_as_moodle_shows_them(lang):
    """Every setting and option the guide's Moodle paragraph names is Moodle's own string in the
    guide's language, and none of the names Moodle does not use is left."""
    section = scorm_section(lang)
    missing = [f"{key}: {name}" for key, name in NAMES[lang].items() if name not in section]
    assert missing == []
    left = [name for name in WRONG[lang] if name in section]
    assert left == []


@pytest.mark.parametrize("lang", ["it", "en"])
def test_the_recommended_attempts_do_not_cancel_each_other(lang):
    """With the structure page skipped, "Start a new attempt" is never seen: the guide recommends
    unlimited attempts with "Force new attempt: when the previous attempt is completed", and keeps
    "Force new attempt: No" for one attempt only."""
    names, section = NAMES[lang], scorm_section(lang)
    assert f"**{names['scorm/skipview']}**: *" in section
    assert f"**{names['scorm/maximumattempts']}** *{names['scorm/nolimit']}*" in section
    assert f"**{names['scorm/forcenewattempts']}** *{names['scorm/forceattemptoncomplete']}*" in section
    assert f"*{names['scorm/highestattempt']}*" in section
    forced_no = f"**{names['scorm/forcenewattempts']}** *No*"
    if forced_no in section:  # (only beside one attempt)
        one = f"**{names['scorm/maximumattempts']}** *1*"
        assert one in section and section.index(one) < section.index(forced_no) < section.index(one) + 120


@pytest.mark.parametrize("lang", ["it", "en"])
def test_the_guide_says_what_to_ask_the_admin_when_the_upload_limit_is_lower(lang):
    """The guide gives the package's size (at most 6 MB) and names PHP's two limits and Moodle's
    site setting, for the teacher to ask the site's admin."""
    section = scorm_section(lang)
    assert "`upload_max_filesize`" in section and "`post_max_size`" in section
    assert NAMES[lang]["admin/maxbytes"] in section
    assert ("6 MB" in section) and ("5,6 MB" if lang == "it" else "5.6 MB") in section
    assert ("11 MB" not in section) and ("circa 11" not in section)
