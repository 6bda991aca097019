"""Every number of the steps table, checked against something that is not the page.

The cards come from the lexicon files (tests/reference.py reads them with its own parser),
W_Q from the design, the maths from numpy, and the expected texts from the design's display
rule written with `decimal`. The page's state JSON is used only to know a render finished.
The percentages are left to their own check.
"""

import math
import re

import numpy as np
import pytest

from tests.e2e.conftest import wait_state
from tests.reference import W_Q, attention_row, lexicon_cards, shown, shown_short

DECIMALS = 3  # the table shows dots, logits, exponentials and weights to three decimals

# Sentences whose every word is in the lexicon files, each split by its spaces.
SENTENCES = {
    "it": ["Il gatto seduto sul tappeto dormiva", "La bambina mangia una mela",
           "Luca legge il libro della nonna"],
    "en": ["The cat sat on the mat and slept", "The child eats an apple",
           "She reads the book of her grandmother"],
}
SWITCHES = [(False, False), (True, False), (False, True), (True, True)]  # (mask, self)

# What the page shows, read in one go: the query vector, then per table row its class and cells.
READ_PAGE = """() => {
  const cell = (tr, col) => { const c = tr.querySelector(`[data-col="${col}"]`); return c && c.textContent; };
  const vectors = [...document.querySelectorAll('#view-query .vector')].map(p => p.textContent);
  const rows = [...document.querySelectorAll('#analysis table.steps tbody tr[data-index]')].map(tr => ({
    index: +tr.dataset.index, status: tr.className, card: cell(tr, 'card'), dot: cell(tr, 'dot'),
    logit: cell(tr, 'logit'), exp: cell(tr, 'exp'), weight: cell(tr, 'weight')}));
  const words = [...document.querySelectorAll('#sentence label.word')].map(
    l => ({text: l.querySelector('.w').firstChild.textContent, guessed: l.classList.contains('guessed')}));
  return {vectors, rows, words, expSum: document.querySelector('[data-col="exp-sum"]')?.textContent,
          weightSum: document.querySelector('[data-col="weight-sum"]')?.textContent};
}"""


def vector_text(values, lang):
    """A vector as the page writes it: [2,85; 0; 2,1; 0] in Italian, [2.85, 0, 2.1, 0] in English."""
    return "[" + ("; " if lang == "it" else ", ").join(shown_short(v, DECIMALS, lang) for v in values) + "]"


def number(text):
    return float(text.replace("−", "-").replace(",", "."))


def set_sentence(page, lang, sentence):
    """Language, then the sentence typed in the box and sent (no word selected yet), read with that
    language's lexicon (the page's switch keeps the lexicon of the sentence typed before: chosen
    again beside the box, as a student does)."""
    page.locator(f'input[name="lang"][value="{lang}"]').check()
    wait_state(page, f"s.lang === '{lang}'")
    if page.locator("#lexicon").input_value() != lang:
        page.select_option("#lexicon", lang)
        wait_state(page, f"(s.lexicon || s.lang) === '{lang}'")
    page.fill("#sentence-input", sentence)
    page.press("#sentence-input", "Enter")
    wait_state(page, f"s.sentence === {sentence!r}")


def set_switch(page, box, on):
    page.locator(box).set_checked(on)


def check_row_of_word(page, lang, words, cards, focus, mask, include_self):
    """The query, every cell and the totals the page shows for `focus` equal numpy's, as text."""
    q, scores, weights, allowed = attention_row(cards, W_Q, focus, mask, include_self)
    exps = np.where(allowed, np.exp(np.where(allowed, scores, 0.0)), 0.0)
    seen = page.evaluate(READ_PAGE)
    where = f"{lang} {' '.join(words)!r}, word {focus}, mask={mask}, self={include_self}"
    assert seen["vectors"][-1].endswith(vector_text(q, lang)), where
    assert [r["index"] for r in seen["rows"]] == list(range(len(words))), where
    for row in seen["rows"]:
        j = row["index"]
        assert row["card"] == vector_text(cards[j], lang), where
        if allowed[j]:
            assert "candidate" in row["status"], where
            assert row["dot"] == shown(float(np.dot(q, cards[j])), DECIMALS, lang), where
            assert row["logit"] == shown(scores[j], DECIMALS, lang), where
            assert row["exp"] == shown(exps[j], DECIMALS, lang), where
            assert row["weight"] == shown(weights[j], DECIMALS, lang), where
        else:
            assert "candidate" not in row["status"], where
            if mask and j > focus:  # hidden by the mask: shown with weight 0
                assert "∞" in row["logit"] and number(row["weight"]) == 0, where
    if allowed.any():
        assert seen["expSum"].endswith(shown(exps.sum(), DECIMALS, lang)), where
        assert seen["weightSum"] == shown(weights.sum(), DECIMALS, lang), where
        assert math.isclose(weights.sum(), 1.0)
    else:
        assert seen["expSum"] is None, where  # nobody to look at: no totals


@pytest.mark.parametrize("lang,sentence,switches", [
    (lang, s, SWITCHES[2 * k % 4:2 * k % 4 + 2]) for lang, ss in SENTENCES.items() for k, s in enumerate(ss)])
def test_table_numbers_equal_numpy_on_lexicon_cards(app, lang, sentence, switches):
    """Every word of the sentence, with two of the four settings of the mask and the word itself
    (each language's sentences take all four): the query, dots, logits, exponentials, their sum and
    the weights shown equal numpy on the lexicon's cards."""
    lexicon = lexicon_cards(lang)
    words = sentence.split()
    cards = [lexicon[w.lower()] for w in words]
    set_sentence(app, lang, sentence)
    shown_words = app.evaluate(READ_PAGE)["words"]
    assert [w["text"] for w in shown_words] == words and not any(w["guessed"] for w in shown_words)
    for mask, include_self in switches:
        set_switch(app, "#mask", mask)
        set_switch(app, "#self", include_self)
        for focus in range(len(words)):
            app.locator(f'label.word[data-index="{focus}"]').click()
            wait_state(app, f"s.focus === {focus} && s.mask === {str(mask).lower()} "
                            f"&& s.include_self === {str(include_self).lower()}")
            check_row_of_word(app, lang, words, cards, focus, mask, include_self)


def test_display_rule_rounds_the_written_decimal_half_up():
    """The reference display rule itself, on hand-worked cases: 0,9975 → 0,998 (binary 0.99749…),
    28.75 → 28.8 with one decimal, −0.0004 → 0.000 (no minus zero), decimal mark per language."""
    assert shown(0.9975, 3, "it") == "0,998"
    assert shown(1.995 / 2, 3, "en") == "0.998"
    assert shown(28.75, 1, "en") == "28.8"
    assert shown(0.2875 * 100, 1, "it") == "28,8"
    assert shown(-0.0004, 3, "en") == "0.000"
    assert shown(-1.5, 3, "it") == "−1,500"
    assert shown(4.4816890703380645, 3, "it") == "4,482"
    assert re.fullmatch(r"\[2,85; 0; 2,1; 0\]", vector_text([2.85, 0.0, 2.1, 0.0], "it"))
