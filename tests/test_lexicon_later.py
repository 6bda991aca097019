"""A language's lexicon files come when a message first needs them (the browser's engine): the page,
driven on CPython as static/page.js drives it, asks for the files it lacks and is left as it was;
the same message sent again once they are there answers as if they had been there from the start."""

import json
import shutil
import tomllib

import pytest

from app import lexicon
from app.lexicon import GENERATED, LEXICON_DIR, Lexicons
from app.page import Page
from app.remote import Screen
from tests.reference import ROOT, lexicon_cards
from tests.test_engine_page import Timers

START = {"type": "start", "framed": False, "address": {"base": "http://x/", "pairs": []},
         "early": None, "state": "", "queue": []}
ENGLISH = {"type": "change", "context": {"target": {"name": "lang", "value": "en", "type": "radio", "checked": True},
                                         "checked": {"lang": "en"}, "ids": [], "off": []}}


def files_of(lang):
    """A language's two files, relative to lexicon/ (the generated one, the teacher's CSV)."""
    return [GENERATED[lang], f"{lang}.csv"]


def folder_with(tmp_path, langs):
    """A lexicon folder holding the files of `langs` only."""
    for lang in langs:
        for name in files_of(lang):
            (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy(f"{LEXICON_DIR}/{name}", tmp_path / name)
    return tmp_path


def state_of(ops):
    """The state JSON a batch of ops publishes."""
    return json.loads(next(op[3] for op in json.loads(ops) if op[:3] == ["set", [{"id": "attention-state"}], "textContent"]))


def test_a_switch_to_a_language_whose_files_are_not_here_waits_for_them(tmp_path):
    """An Italian page whose folder has no English files yet: the switch to English answers
    {"later": ["en"]} and writes nothing; with the files come, the same message shows the English
    example with the cards of the English files, all known."""
    folder = folder_with(tmp_path, ["it"])
    page = Page(Screen(lambda ops: None), Lexicons(later=True, directory=str(folder)), Timers())
    page.receive(START)
    assert page.settings.lang == "it"
    assert json.loads(page.receive(ENGLISH)) == {"later": ["en"]}
    assert page.settings.lang == "it" and "en" not in page.lexicons
    folder_with(tmp_path, ["en"])
    state = state_of(page.receive(ENGLISH))
    cards = lexicon_cards("en")
    assert state["lang"] == "en" and state["sentence"] == "The cat sat on the mat and slept"
    assert [t["card"] for t in state["tokens"]] == [cards[t["text"].lower()] for t in state["tokens"]]
    assert all(t["known"] for t in state["tokens"])


def test_a_language_whose_files_cannot_come_is_made_from_what_came_and_says_so(tmp_path, monkeypatch):
    """The engine could fetch the generated English file but not en.csv (`Engine.without`): the
    page switches to English and says on the page that en.csv cannot be found."""
    folder = folder_with(tmp_path, ["it"])
    (folder / GENERATED["en"]).parent.mkdir(parents=True, exist_ok=True)
    shutil.copy(f"{LEXICON_DIR}/{GENERATED['en']}", folder / GENERATED["en"])
    page = Page(Screen(lambda ops: None), Lexicons(later=True, directory=str(folder)), Timers())
    page.receive(START)
    assert json.loads(page.receive(ENGLISH)) == {"later": ["en"]}
    monkeypatch.setattr(lexicon, "UNAVAILABLE", {"en"})
    ops = page.receive(ENGLISH)
    assert state_of(ops)["lang"] == "en"
    assert "Lexicon en.csv, line 0: the file cannot be found" in ops


def test_without_later_files_every_language_is_read_at_once():
    """On CPython (the terminal, the notebook, the tests) the lexicons are read as before: the
    folder has every file, nothing waits."""
    lexicons = Lexicons()
    assert len(lexicons["en"]) > 1000 and len(lexicons["it"]) > 1000


@pytest.mark.parametrize("lang", sorted(GENERATED))
def test_pyscript_toml_lists_each_languages_files_in_its_own_later_table(lang):
    """pyscript.toml's [later.<lang>] names exactly the two files app/lexicon.py reads for the
    language, each written where it reads it; the first visit's [files] names no lexicon file."""
    config = tomllib.loads((ROOT / "pyscript.toml").read_text(encoding="utf-8"))
    table = config["later"][lang]
    assert sorted(table) == sorted(f"./lexicon/{name}" for name in files_of(lang))
    assert all(src == dst for src, dst in table.items())
    assert not any("lexicon/" in src for src in config["files"])
