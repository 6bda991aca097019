"""Settings are declared once, for real: a made-up setting declared by one `Setting(...)` line in
a copy of app/settings.py is read from links and written back into them, taken from host
messages, offered by the command line and published in the state JSON, with no other change."""

import json
import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
MADE_UP = ('    Setting(attr="made_up", url="made", host="made", control="made", kind="flag", default=False,\n'
           '            note="link_flag_bad", state="made_up", recompute=False),\n')

# Run by the copy's own Python: every way a setting reaches the page, and back out.
PROBE = r"""
import json, sys
from app import contract, settings as schema
from app.lexicon import load_lexicon
lexicons = {lang: load_lexicon(lang) for lang in ("it", "en")}
settings, notes = schema.parse_params("?made=1&focus=2", lexicons)
tokens, _ = schema.check_sentence(settings.sentence, lexicons["it"])
bad, bad_notes = schema.parse_params("?made=maybe", lexicons)
host, _, warnings, _ = schema.host_update(settings, tokens, {"type": "attention:set", "made": False}, lexicons)
_, _, host_bad, _ = schema.host_update(settings, tokens, {"made": "yes please"}, lexicons)
state = contract.build_state(settings, tokens, contract.compute(settings, tokens))
print(json.dumps({"link": settings.made_up, "notes": [n.key for n in notes], "focus": settings.focus,
                  "query": schema.page_query(settings), "bad": bad.made_up, "bad_notes": [n.key for n in bad_notes],
                  "host": host.made_up, "warnings": warnings, "host_bad": host_bad, "state": state["made_up"],
                  "control": schema.BY_CONTROL["made"].attr, "boot_params": "made" in schema.URL_KEYS}))
"""


def test_a_setting_declared_in_one_line_reaches_links_host_messages_the_command_line_and_the_state(tmp_path):
    """One line in SCHEMA: ?made=1 reads it (a bad value falls back with a note), the address
    writes it, attention:set takes it (a wrong type warns), `python -m app --made --json` has
    it in the state JSON, and the page's control named "made" changes it."""
    for folder in ("app", "lexicon"):
        shutil.copytree(ROOT / folder, tmp_path / folder, ignore=shutil.ignore_patterns("__pycache__", "*.zip"))
    source = (tmp_path / "app" / "settings.py").read_text(encoding="utf-8")
    end = "\n)\nSCHEMA = SCHEMA + labs.settings()"
    assert source.count(end) == 1
    (tmp_path / "app" / "settings.py").write_text(source.replace(end, "\n" + MADE_UP.rstrip("\n") + end),
                                                  encoding="utf-8")

    def run(*args):
        done = subprocess.run([sys.executable, *args], cwd=tmp_path, capture_output=True, text=True, timeout=120)
        assert done.returncode == 0, done.stderr
        return done.stdout

    seen = json.loads(run("-c", PROBE))
    assert seen["link"] is True and seen["notes"] == [] and seen["focus"] == 2
    assert "made=1" in seen["query"].split("&")
    assert seen["bad"] is False and seen["bad_notes"] == ["link_flag_bad"]
    assert seen["host"] is False and seen["warnings"] == []
    assert len(seen["host_bad"]) == 1 and "made" in seen["host_bad"][0]
    assert seen["state"] is True and seen["control"] == "made_up" and seen["boot_params"]
    assert "--made" in run("-m", "app", "--help")
    assert json.loads(run("-m", "app", "--made", "--json"))["made_up"] is True
    assert json.loads(run("-m", "app", "--json"))["made_up"] is False
