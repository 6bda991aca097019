"""How a number is written is decided in one place, app/numbers.py: change the digits of one kind
there and every output of that kind follows (the steps table, the bars, the CSV, the state JSON,
the picture, the terminal), while the default digits give today's text."""

import contextlib
import io
import json

import pytest

from app import contract, export, numbers, picture
from app.__main__ import main
from app.views.bars import render_bars
from app.views.steps import render_table
from tests.reference import W_Q, attention_row, lexicon_cards, rule_percent, shown

# Each language's first example and its last word (the page opens on them).
WORDS = {"it": ["Il", "gatto", "seduto", "sul", "tappeto", "dormiva"],
         "en": ["The", "cat", "sat", "on", "the", "mat", "and", "slept"]}


def weights(lang):
    """numpy's weights of the last word's row (no mask, not itself), from the lexicon files."""
    words = WORDS[lang]
    return list(attention_row([lexicon_cards(lang)[w.lower()] for w in words], W_Q, len(words) - 1)[2])


def outputs(lang):
    """Every output of the selected row, as text: (table HTML, bars HTML, CSV, state JSON, picture, terminal)."""
    words, focus = WORDS[lang], len(WORDS[lang]) - 1
    settings, tokens, record, _ = contract.from_link({"s": [" ".join(words)], "focus": [str(focus)], "lang": [lang]})
    row = contract.selected_row(settings, record)
    state = contract.state_json(contract.build_state(settings, tokens, record))
    svg = picture.picture_svg(settings, tokens, record, row, [t.text for t in tokens], lang)
    printed = io.StringIO()
    with contextlib.redirect_stdout(printed):
        main([" ".join(words), "--focus", str(focus), "--lang", lang])
    return (render_table(row, tokens, lang), render_bars(row, tokens, lang), export.steps_csv(row, tokens, lang),
            state, svg, printed.getvalue())


@pytest.mark.parametrize("lang", ["it", "en"])
def test_the_default_digits_are_the_pages_rule(lang):
    """With today's digits: the table, CSV and state say 42,4%-style percentages, the bars and the
    picture whole ones, each by the README's rule from numpy's weights."""
    table, bars, csv, state, svg, printed = outputs(lang)
    w = max(weights(lang))
    assert rule_percent(w, 1, lang) in table and rule_percent(w, 1, lang) in csv and rule_percent(w, 1, lang) in printed
    assert rule_percent(w, 0, lang) in bars and rule_percent(w, 0, lang) in svg
    assert max(json.loads(state)["rows"], key=lambda r: r["weight"])["percent"] == rule_percent(w, 1, lang)


@pytest.mark.parametrize("lang", ["it", "en"])
def test_changing_one_kinds_digits_in_one_place_changes_every_output_of_it(lang, monkeypatch):
    """Two digits for the table's percentages, one for the bars' and four for values, changed in
    app/numbers.py alone: the table, the CSV, the state JSON and the terminal follow the first,
    the bars and the picture the second, the table's weights the third."""
    monkeypatch.setitem(numbers.DIGITS, "table", 2)
    monkeypatch.setitem(numbers.DIGITS, "bar", 1)
    monkeypatch.setitem(numbers.DIGITS, "value", 4)
    table, bars, csv, state, svg, printed = outputs(lang)
    w = max(weights(lang))
    for text in (table, csv, printed):
        assert rule_percent(w, 2, lang) in text
    assert max(json.loads(state)["rows"], key=lambda r: r["weight"])["percent"] == rule_percent(w, 2, lang)
    assert rule_percent(w, 1, lang) in bars and rule_percent(w, 1, lang) in svg
    assert shown(w, 4, lang) in table and shown(w, 4, lang) in printed
    assert rule_percent(w, 1, lang) not in table  # (the table's own digits, not the bars')


@pytest.mark.parametrize("x, it, en", [
    (0.0, "0", "0"), (-0.0, "0", "0"), (1.0, "1", "1"), (-2.5, "−2,5", "−2.5"),
    (0.1 + 0.2, "0,30000000000000004", "0.30000000000000004"),
    (3.2686241359674123e-17, "3,2686241359674123 × 10⁻¹⁷", "3.2686241359674123 × 10⁻¹⁷"),
    (1e22, "1 × 10²²", "1 × 10²²"),
])
def test_every_digit_of_a_float_in_each_language(x, it, en):
    """`exact` writes every digit a float holds (0.1 + 0.2 is not 0.3), with the language's decimal
    mark, a true minus, no ".0" on a whole value and a power of ten written out."""
    assert (numbers.exact(x, "it"), numbers.exact(x, "en")) == (it, en)


def test_a_whole_number_has_the_languages_thousands_mark():
    """1843200 is 1.843.200 in Italian and 1,843,200 in English; below a thousand, no mark."""
    assert [numbers.whole(n, "it") for n in (0, 999, 1000, 1_843_200)] == ["0", "999", "1.000", "1.843.200"]
    assert [numbers.whole(n, "en") for n in (999, 1000, 1_843_200)] == ["999", "1,000", "1,843,200"]
