"""The same numbers outside the page: `python -m app` (terminal) and app.notebook (Jupyter)."""

import json
import re
import shutil
import subprocess
import sys
import xml.etree.ElementTree as ET
from html.parser import HTMLParser

import numpy as np
import pytest
from hypothesis import assume, given, settings as hsettings, strategies as st

from app import __main__ as cli, contract, settings as schema
from app.notebook import explore
from app.plain_text import width
from app.views.html import esc
from app.views.steps import render_table
from tests.conftest import ROOT
from tests.contract_check import assert_valid_state
from tests.reference import attention_matrix, rule_percent, shown

# Plain CPython from the system when there is one (no venv, no numpy): what a clone gets.
PLAIN_PYTHON = "/usr/bin/python3" if shutil.which("/usr/bin/python3") else sys.executable


def run_cli(*args):
    """`python -m app ARGS` from the clone, ignoring the environment and user site packages."""
    return subprocess.run([PLAIN_PYTHON, "-E", "-s", "-m", "app", *args], cwd=ROOT, capture_output=True,
                          text=True, encoding="utf-8", timeout=60)


def table_texts(html):
    """Each row's cell texts of the page's steps table, read with an XML parser (not the
    terminal's own reader); empty cells left out."""
    table = ET.fromstring(re.search(r"<table.*</table>", html, re.S).group(0))
    return [[" ".join("".join(cell.itertext()).split()) for cell in tr if "".join(cell.itertext()).strip()]
            for tr in table.iter("tr")]


CASES = [
    ("Il gatto seduto sul tappeto dormiva", "5", "it", []),
    ("Il gatto seduto sul tappeto dormiva", "3", "it", ["--mask", "--temp", "0.5"]),
    ("The cat sat on the mat and slept", "7", "en", ["--self", "--no-scaled"]),
    ("Lucia & <Zorro> dormiva", "3", "it", []),
]


@pytest.mark.parametrize("sentence, focus, lang, extra", CASES)
def test_terminal_table_is_the_page_table_aligned(sentence, focus, lang, extra):
    """The terminal prints the page's steps table for the same settings: the same cell texts
    row by row (words, rounding, decimal mark), every row as wide, and the weights and
    percentages as numpy and the rounding rule give them."""
    out = run_cli(sentence, "--focus", focus, "--lang", lang, *extra)
    assert out.returncode == 0, out.stderr
    params = {"s": [sentence], "focus": [focus], "lang": [lang]}
    for flag, value in zip(extra, extra[1:] + [""]):
        if flag in ("--mask", "--self"):
            params[flag[2:]] = ["1"]
        elif flag == "--no-scaled":
            params["scaled"] = ["0"]
        elif flag == "--temp":
            params["temp"] = [value]
    settings, tokens, record, notes = contract.from_link(params)
    row = contract.selected_row(settings, record)
    page_rows = table_texts(render_table(row, tokens, lang))
    lines = out.stdout.splitlines()
    start = next(i for i, line in enumerate(lines) if line.startswith(page_rows[0][0]))
    printed = lines[start:start + len(page_rows)]
    assert [re.split(r"\s{2,}", line.strip()) for line in printed] == page_rows
    candidates = [printed[1 + j] for j in range(row.n) if row.candidates[j]]
    assert len({width(line) for line in candidates}) == 1  # right-aligned numbers end together
    ref = attention_matrix(np.array([t.card for t in tokens]) @ np.array(record.w_q), [t.card for t in tokens],
                           [t.card for t in tokens], mask=settings.mask, include_self=settings.include_self,
                           scaled=settings.scaled, temperature=settings.temperature)
    for j in range(row.n):
        if row.candidates[j]:
            cells = re.split(r"\s{2,}", printed[1 + j].strip())
            assert cells[-2:] == [shown(ref["weights"][row.focus][j], 3, lang),
                                  rule_percent(ref["weights"][row.focus][j], 1, lang)]


def test_terminal_json_is_the_state_of_the_same_link():
    """--json prints contract version 2 with numpy's weights for those options, quiz included."""
    out = run_cli("Il gatto seduto sul tappeto dormiva", "--focus", "2", "--mask", "--temp", "2", "--quiz", "--json")
    assert out.returncode == 0, out.stderr
    state = json.loads(out.stdout)
    assert_valid_state(state)
    assert (state["focus"], state["mask"], state["temperature"], state["scale"]) == (2, True, 2.0, 4.0)
    cards = [t["card"] for t in state["tokens"]]
    ref = attention_matrix(np.array(cards) @ np.array(state["w_q"]), cards, cards, mask=True, temperature=2.0)
    assert [r["weight"] for r in state["rows"]] == pytest.approx(list(ref["weights"][2]), abs=1e-12)
    assert state["quiz"] == {"guess": None, "winners": [1], "correct": None, "right": 0, "tried": 0}


def test_a_bad_option_is_refused_with_the_page_note():
    """--temp 0 prints the page's note and a line saying nothing was printed; exit status 2."""
    out = run_cli("--temp", "0", "--lang", "en")
    assert out.returncode == 2 and out.stdout == ""
    assert "temp=0" in out.stderr and "0.05–20" in out.stderr


def test_no_word_selected_lists_the_words_with_their_index():
    """A sentence with no --focus prints its words numbered and how to pick one."""
    out = run_cli("Il cane abbaia")
    assert out.returncode == 0 and "0 Il  1 cane  2 abbaia" in out.stdout and "--focus N" in out.stdout


def test_every_setting_with_a_link_key_is_an_option_even_one_declared_later(monkeypatch):
    """The options come from the schema: each URL key is --key (--head among them), and a
    setting added to the schema later (here a made-up 'layers' count) is an option at once,
    read as its link parameter."""
    text = cli.build_parser().format_help()
    for setting in schema.SCHEMA:
        if setting.url and setting.attr != "sentence":
            assert f"--{setting.url}" in text
    args = cli.build_parser().parse_args(["Il cane dorme", "--head", "2", "--no-mask"])
    assert cli.link_params(args) == {"s": ["Il cane dorme"], "head": ["2"], "mask": ["0"]}
    later = schema.Setting(attr="layers", url="layers", host="layers", control="layers", kind="integer", default=1,
                           low=1, high=3)
    monkeypatch.setattr(schema, "SCHEMA", schema.SCHEMA + (later,))
    args = cli.build_parser().parse_args(["Il cane dorme", "--layers", "2"])
    assert cli.link_params(args) == {"s": ["Il cane dorme"], "layers": ["2"]}


# --- the notebook -------------------------------------------------------------------------

ALLOWED_TAGS = {"div", "fieldset", "legend", "label", "span", "p", "br", "h2", "ul", "li", "svg", "rect",
                "table", "caption", "thead", "tbody", "tfoot", "tr", "th", "td"}
ALLOWED_ATTRS = {"class", "style", "lang", "data-index", "data-col", "colspan", "scope", "title", "role",
                 "aria-label", "aria-hidden", "aria-valuenow", "aria-valuemin", "aria-valuemax",
                 "aria-valuetext", "viewbox", "preserveaspectratio", "focusable", "width", "height", "tabindex",
                 "data-label", "data-cards",  # (a table's cells name their column: cards on a phone)
                 "data-plain"}  # (the bars: no glossary link in them)


class Tags(HTMLParser):
    def __init__(self):
        super().__init__()
        self.tags, self.attrs, self.values, self.text = set(), set(), [], []

    def handle_starttag(self, tag, attrs):
        self.tags.add(tag)
        self.attrs.update(name for name, _ in attrs)
        self.values += [value or "" for _, value in attrs]

    def handle_data(self, data):
        self.text.append(data)


@hsettings(max_examples=120, deadline=None)
@given(st.text(min_size=1, max_size=40), st.booleans())
def test_notebook_html_has_no_script_and_escapes_every_user_string(sentence, mask):
    """Whatever the sentence, the notebook HTML holds only the views' own tags and attributes
    (no script, no event handler), and every word appears escaped."""
    try:
        x = explore(sentence, focus=0, mask=mask)
    except ValueError:  # blank or too long: refused with the page's note
        assume(False)
    html = x._repr_html_()
    assert "<script" not in html.lower()
    tags = Tags()
    tags.feed(html)
    assert tags.tags <= ALLOWED_TAGS and tags.attrs <= ALLOWED_ATTRS
    # (a word may well be "JAVASCRIPT:" in the text; never in an attribute, where it could run)
    assert not any("javascript:" in value.lower() for value in tags.values)
    for token in x.tokens:
        assert f'<span class="w" style="' in html and esc(token.text) in html
        assert token.text in "".join(tags.text)


def test_notebook_exposes_the_record_and_the_state():
    """explore(…, focus=5) gives .record with numpy's weights, .state valid against the
    contract, inline-styled bars (no stylesheet needed), and the terminal's text as repr."""
    x = explore("Il gatto seduto sul tappeto dormiva", focus=5, temp=2, self=True)
    cards = [t.card for t in x.tokens]
    ref = attention_matrix(np.array(cards) @ np.array(x.record.w_q), cards, cards, include_self=True, temperature=2)
    assert np.allclose(x.record.weights, ref["weights"], atol=1e-12)
    assert_valid_state(x.state)
    assert x.state["focus"] == 5 and x.state["include_self"] and x.state["temperature"] == 2.0
    html = x._repr_html_()
    assert 'class="bar-fill" width="' in html and "fill:#1f5fbf" in html and "<style" not in html
    assert "Parola" in repr(x) and "dormiva" in repr(x)
    assert explore("Il gatto", include_self=True).state == explore("Il gatto", self=True).state


def test_notebook_refuses_unknown_settings_and_bad_values():
    """A setting the schema does not have is a TypeError; a value the page would replace, a ValueError."""
    with pytest.raises(TypeError, match="head|mask"):
        explore("Il gatto", colour=1)
    with pytest.raises(ValueError, match="temp=0"):
        explore("Il gatto", temp=0)
