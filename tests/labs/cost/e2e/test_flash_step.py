"""FlashAttention's step on the cost path (step 6) as a student meets it, in both languages: Next
from step 5 opens block 1 of the selected row with "Next block" on, the next block brings a real
rescale (α strictly between 0 and 1, numpy's from the lexicon's cards), and a sentence typed there
selects its last word so that the block field is on screen; screenshots at 1280 and 390 px."""

import re

import numpy as np
import pytest

from tests.e2e.conftest import SHOTS, get_state, language_page, wait_state
from tests.reference import W_Q, attention_row, lexicon_cards

TYPED = {"it": "Il cane guarda la palla", "en": "The dog sees the ball"}


@pytest.fixture(scope="module", params=["it", "en"])
def step5(request, browser, base_url):
    yield from language_page(browser, base_url, request.param, "path=cost&step=5&pattern=bigbird")


def alphas(state, lang):
    """α of each block for the state's row and block size, worked in numpy from the lexicon's cards
    (None: a block with no candidate key; 0: the first that has one, as m starts at −∞)."""
    cards = lexicon_cards(lang)
    x = [cards[t["text"].lower()] for t in state["tokens"]]
    _, scores, _, allowed = attention_row(x, W_Q, state["focus"], state["mask"], state["include_self"])
    block, m, out = state["flash"]["block"], None, []
    for start in range(0, len(scores), block):
        met = [scores[j] for j in range(start, min(start + block, len(scores))) if allowed[j]]
        if not met:
            out.append(None)
            continue
        new = max(met) if m is None else max(m, max(met))
        out.append(0.0 if m is None else float(np.exp(m - new)))
        m = new
    return out


def number(text):
    return float(text.strip().replace("−", "-").replace(",", "."))


def test_next_from_step_5_opens_block_one_and_the_next_block_rescales(step5):
    """Next from step 5: block 1 alone, "Next block" enabled; Enter on it reaches block 2, whose α
    on screen is numpy's and strictly between 0 and 1 (a new maximum shrinks the earlier sums)."""
    page = step5
    page.locator("#step-next").click()
    state = wait_state(page, "s.step === 6 && s.flash !== null")
    count = len(state["flash"]["steps"])
    assert page.locator("#view-flash tbody tr:not(.flash-later)").count() == 1
    assert page.locator("#view-flash tr.flash-later").count() == count - 1
    assert page.locator("#flash-next").is_enabled() and page.locator("#flash-prev").is_disabled()
    page.locator("#flash-next").focus()
    page.keyboard.press("Enter")
    page.wait_for_function("document.querySelectorAll('#view-flash tbody tr:not(.flash-later)').length === 2")
    worked = alphas(get_state(page), page.lang)
    shown = number(page.locator("#view-flash tr[data-block='2'] td[data-col='alpha']").inner_text())
    assert 0 < worked[1] < 1 and abs(shown - worked[1]) <= 0.0005
    assert re.search(r"α = 0[.,]\d+", page.locator("#announce").inner_text())
    for width in (1280, 390):
        page.set_viewport_size({"width": width, "height": 900})
        page.locator("#view-flash").scroll_into_view_if_needed()
        SHOTS.mkdir(exist_ok=True)
        page.locator("#view-flash").screenshot(path=str(SHOTS / f"flash-step-{page.lang}-{width}.png"))
    page.set_viewport_size({"width": 1280, "height": 900})


def test_a_sentence_typed_on_the_step_selects_its_last_word_and_shows_the_block_field(step5):
    """On step 6, a typed sentence (no example, so no word of its own) selects its last word: its
    radio is checked, the view names it, the B field and its table (a line a block) are on screen."""
    page = step5
    if get_state(page)["step"] != 6:
        page.locator("#step-next").click()
        wait_state(page, "s.step === 6")
    sentence = TYPED[page.lang]
    page.fill("#sentence-input", sentence)
    page.press("#sentence-input", "Enter")
    state = wait_state(page, f"s.sentence === {sentence!r} && s.focus !== null && s.flash !== null")
    last = len(sentence.split()) - 1
    assert state["focus"] == last and page.locator(f"input[name='word'][value='{last}']").is_checked()
    assert page.locator("#flash-block").is_visible()
    assert sentence.split()[-1] in page.locator("#view-flash h2").inner_text()
    assert page.locator("#view-flash tbody tr").count() == len(state["flash"]["steps"]) == len(sentence.split())
