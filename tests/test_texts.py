"""What the student reads beside the numbers says what the numbers show: a flat row is called
flat only when it is, a tie is said as a tie, the head cards' "more" line says what it stands
for, the bars say when their shown parts do not add up to 100, and a dozen words."""

import re
from types import SimpleNamespace

import pytest

from app import contract, i18n
from app import settings as schema
from app.render import explain
from app.views.heads import TOP, head_summary, render_heads

LANGS = ("it", "en")


def row(weights, focus=0):
    """A row of the focus word looking at every other word with these weights (its own: 0)."""
    weights = [0.0] + list(weights) if focus == 0 else list(weights)
    return SimpleNamespace(focus=focus, n=len(weights), weights=weights,
                           candidates=[j != focus for j in range(len(weights))])


def words(n):
    return [SimpleNamespace(text=w) for w in ("Il", "gatto", "seduto", "sul", "tappeto", "dormiva", "qui")[:n]]


@pytest.mark.parametrize("lang", LANGS)
def test_a_row_is_called_flat_only_when_its_weights_are_close(lang):
    """55% / 45% reads "more or less the same"; 56% / 44% (step 6's word itself) does not."""
    flat = i18n.text(lang, "flat", word="Il")
    assert explain(row([0.55, 0.45]), words(3), lang) == flat
    assert explain(row([0.56, 0.44]), words(3), lang) == ""
    assert explain(row([0.2] * 5), words(6), lang) == flat  # (five words at 20% each)
    assert explain(row([0.3, 0.2, 0.2, 0.15, 0.15]), words(6), lang) == ""


@pytest.mark.parametrize("lang", LANGS)
def test_a_tie_is_said_as_a_tie(lang):
    """Five words at 20% each: "splits evenly over 5 words", never "looks mostly at «Il»"; two
    words sharing the top are both named; a single top word is named alone."""
    even = head_summary(row([0.2] * 5), words(6), lang)
    assert even == i18n.text(lang, "heads_even", n=5, pct="20%")
    two = head_summary(row([0.4, 0.4, 0.2]), words(4), lang)
    assert "gatto" in two and "seduto" in two and two == i18n.text(
        lang, "heads_top_tie", words=i18n.join_words(
            [("«{}»" if lang == "it" else "“{}”").format(w) for w in ("gatto", "seduto")], lang), pct="40%")
    one = head_summary(row([0.5, 0.3, 0.2]), words(4), lang)
    assert one == i18n.text(lang, "heads_top", word="gatto", pct="50%")


@pytest.mark.parametrize("lang", LANGS)
def test_the_head_cards_say_what_their_more_line_stands_for(lang, lexicons):
    """A card of more than five words ends with "… and 3 more words, with less weight", not "… 3"."""
    sentence = i18n.PRESETS[lang][1][0]
    settings = schema.default_settings(lang).copy(sentence=sentence, text=sentence, focus=0)
    tokens, _ = schema.check_sentence(sentence, lexicons[lang])
    record = contract.compute(settings, tokens)
    html = render_heads(record, 0, tokens, lang)
    rest = len(tokens) - 1 - TOP
    key = "heads_more_one" if rest == 1 else "heads_more"
    assert rest >= 1 and i18n.text(lang, key, n=rest) in html.replace("&#x27;", "'")
    assert f">… {rest}<" not in html


def example_rows(lang, lexicons):
    settings = schema.default_settings(lang)
    tokens, _ = schema.check_sentence(settings.sentence, lexicons[lang])
    return contract.compute(settings, tokens), tokens


def test_the_table_says_when_e_to_the_shown_logit_is_not_the_shown_e_logit(lexicons):
    """«sul» → «gatto»: e^0,998 is 2,713 (numpy), the table's 2,711 is e^0,9975: one line says each
    column comes from the full value; «Il», whose logits are exact, gets no line."""
    from app.views.steps import exp_note
    import numpy as np
    from tests.reference import shown
    record, tokens = example_rows("it", lexicons)
    line = exp_note(record.row(3), tokens, "it")
    assert shown(np.exp(0.998), 3, "it") == "2,713" and shown(np.exp(0.9975), 3, "it") == "2,711"
    assert "«gatto»" in line and "e^0,998" in line and "2,713" in line and "0,9975" in line and "2,711" in line
    assert exp_note(record.row(0), tokens, "it") == ""


@pytest.mark.parametrize("lang", LANGS)
def test_the_bars_say_when_their_percentages_do_not_add_up_to_100(lang, lexicons):
    """Each row of the example: a line with the shown sum exactly when the whole percentages,
    rounded one by one (numpy and the design's rule), do not make 100."""
    from app.views.bars import rounding_line
    import numpy as np
    from tests.reference import rule_percent
    record, tokens = example_rows(lang, lexicons)
    seen = set()
    for i in range(len(tokens)):
        row = record.row(i)
        total = sum(int(rule_percent(w, 0, lang)[:-1]) for w, c in zip(np.array(row.weights), row.candidates) if c)
        line = rounding_line(row, lang)
        assert (line == "") == (total == 100), (i, line)
        if line:
            assert f"{total}%" in line
        seen.add(total == 100)
    assert seen == {True, False}  # (both sides met in the example)


def every_string(lang):
    """Every text of a language, flattened (tuples and dicts of texts included)."""
    for key, value in i18n.STRINGS[lang].items():
        values = value.values() if isinstance(value, dict) else value if isinstance(value, tuple) else [value]
        for v in values:
            yield key, v


@pytest.mark.parametrize("lang", LANGS)
def test_no_text_repeats_a_word_or_says_a_printer_head(lang):
    """No string says a word twice in a row ("step step"), nor «testina» for a head."""
    import re
    for key, value in every_string(lang):
        assert not re.search(r"\b(\w+) \1\b", value, re.IGNORECASE), (key, value)
        assert "testina" not in value, key


@pytest.mark.parametrize("lang", LANGS)
def test_the_training_slider_says_step_once(lang):
    """The slider reads "Training step 3000 of 3000", never "Training step step 3000 of 3000"."""
    import re
    from app.views.controls import checkpoint_value
    said = f'{i18n.text(lang, "checkpoint")} {checkpoint_value(3000, lang)}'
    assert not re.search(r"\b(\w+) \1\b", said, re.IGNORECASE), said
    assert "3000" in said


@pytest.mark.parametrize("lang", LANGS)
def test_model_modes_note_says_which_line_drops_where(lang):
    """The note names the dashed in-context line's fall between the kept steps around it, with
    model.json's scores, and the loss's smaller step; the x axis marks 0, 1000, 2000 and 3000 (with
    the language's thousands mark)."""
    import json
    from pathlib import Path
    from app.numbers import THOUSANDS
    from app.views import model as view
    config = json.loads((Path(__file__).resolve().parent.parent / "model" / "model.json").read_text())
    kept = {c["step"]: c for c in config["checkpoints"]}
    said = view.jump_text(config["checkpoints"], view.jump_step(config["curve"]), lang)
    icl = {s: i18n.num(kept[s]["icl"], lang, 2) for s in (700, 900)}
    loss = {s: i18n.num(kept[s]["loss"], lang, 2) for s in (700, 900)}
    assert "700" in said and "900" in said and icl[700] in said and icl[900] in said
    assert said.index(icl[700]) < said.index(loss[700])  # (the in-context line first, then the loss)
    assert abs(kept[900]["icl"] - kept[700]["icl"]) > 4 * abs(kept[900]["loss"] - kept[700]["loss"])
    curve = view.render_curve(config, 790, lang)
    ticks = re.findall(r'class="tick"[^>]*>([^<]*)</text>', curve)
    marks = [m.replace(",", THOUSANDS[lang]) for m in ("0", "1,000", "2,000", "3,000")]
    assert [t for t in ticks if t in marks][-4:] == marks  # (after the 0 beside the y axis)
