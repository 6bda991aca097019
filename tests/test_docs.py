"""The documentation a reader relies on: the parameter tables are the settings schema's (and drift
fails here), the command line says what each option does, and every link between the documents
leads to a file of this repository."""

import re
import subprocess
import sys
from pathlib import Path
from urllib.parse import unquote_plus

import pytest

from app import settings as schema
from tools import docs

ROOT = Path(__file__).resolve().parent.parent
LINKED = ["README.md", *sorted(str(p.relative_to(ROOT)) for p in (ROOT / "docs").glob("*.md"))]


def test_the_parameter_tables_are_written_from_the_settings():
    """docs/parameters.md is exactly what app/settings.py says (run `python -m tools.docs` after a change)."""
    assert (ROOT / "docs" / "parameters.md").read_text(encoding="utf-8") == docs.parameters_markdown()


def test_a_new_setting_appears_in_the_tables(monkeypatch):
    """A setting declared in the schema gets its row (link, host key, what it does) with no other edit."""
    made = schema.Setting(attr="made", url="made", host="made", control=None, kind="flag", default=False,
                          help="a made-up switch for this test", example="1")
    monkeypatch.setattr(schema, "SCHEMA", schema.SCHEMA + (made,))
    text = docs.parameters_markdown()
    assert "| `made` | `made` | a made-up switch for this test |" in text and "questions, made" in text


@pytest.mark.parametrize("setting", [s for s in schema.SCHEMA if s.url], ids=lambda s: s.url)
def test_every_parameter_says_what_it_does_with_an_example_that_works(setting):
    """Each link parameter has a line of help and an example value that the page accepts as it is."""
    assert len(setting.help) > 20 and setting.example
    setting.from_text(unquote_plus(setting.example))  # raises Bad if the example were wrong


def test_the_command_line_help_says_what_each_option_does():
    """python -m app --help carries each option's own words and an example, not its internal name."""
    out = subprocess.run([sys.executable, "-m", "app", "--help"], capture_output=True, text=True, cwd=ROOT,
                         check=True).stdout
    flat = " ".join(out.split())
    for setting in schema.SCHEMA:
        if setting.url and setting.attr != "sentence":
            assert " ".join(setting.help.split()) in flat, setting.url
            assert f"Example: --{setting.url}" in flat or f"Example: --no-{setting.url}" in flat, setting.url
    assert "limit (1–500" not in flat  # (the old help: a name, not what it limits)


def links(path):
    text = (ROOT / path).read_text(encoding="utf-8")
    return re.findall(r"\]\(([^)#\s]+)(?:#[^)]*)?\)", text)


@pytest.mark.parametrize("path", LINKED)
def test_every_relative_link_leads_to_a_file_of_the_repository(path):
    """A link in README.md or docs/ to a file names one that a fresh clone has, inside the repository."""
    for target in links(path):
        if re.match(r"[a-z]+:", target):
            continue
        resolved = ((ROOT / path).parent / target).resolve()
        assert resolved.is_relative_to(ROOT) and resolved.exists(), f"{path}: {target}"
