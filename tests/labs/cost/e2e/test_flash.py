"""FlashAttention's blocks as a student uses them (`flash`): the table's numbers are the state's, a
new block size is typed in the view, the blocks are reached one at a time from the keyboard and
the live region says each one's numbers, the last line's o/l is the row's output, and the view
is clean under axe at 1280 and 360 px in both languages (one shared page per language)."""

import re

import numpy as np
import pytest

from tests.e2e.conftest import SHOTS, axe_violations, get_state, language_page, wait_state

SENTENCE = {"it": "Il gatto seduto sul tappeto dormiva", "en": "The cat sat on the mat"}  # (six words each: three blocks of 2)


@pytest.fixture(scope="module", params=["it", "en"])
def lab(request, browser, base_url):
    lang = request.param
    query = f"s={SENTENCE[lang].replace(' ', '+')}&focus=5&flash=2&flash_step=1"
    yield from language_page(browser, base_url, lang, query)


def numbers(text):
    """The numbers of a cell as the page writes them in either language ([0,5; −1] or [0.5, −1])."""
    text = text.replace("−", "-")
    if ";" in text or re.search(r"\d,\d", text) and "." not in text:
        text = text.replace(",", ".").replace(";", ",")
    return [float(x) for x in re.findall(r"-?\d+(?:\.\d+)?", text)]


def reached_rows(page):
    """The table's lines of the blocks reached: {column: numbers} each."""
    rows = page.locator("#view-flash tbody tr:not(.flash-later)")
    return [{col: numbers(rows.nth(i).locator(f"td[data-col='{col}']").inner_text()) for col in ("m", "l", "o")}
            for i in range(rows.count())]


def test_the_table_shows_the_states_blocks_and_steps_by_keyboard(lab):
    """One line reached at first; Enter on "next" reaches the next block, whose m, l and o are the
    state's (to the digits shown), and the live region says that block's numbers."""
    page = lab
    state = get_state(page)
    steps = state["flash"]["steps"]
    assert len(steps) == 3 and state["flash"]["block"] == 2
    assert len(reached_rows(page)) == 1 and page.locator("#view-flash tr.flash-later").count() == 2
    page.locator("#flash-next").focus()
    page.keyboard.press("Enter")
    page.wait_for_function("document.querySelectorAll('#view-flash tr.flash-later').length === 1")
    for line, step in zip(reached_rows(page), steps):
        assert line["m"] == pytest.approx([step["m"]], abs=6e-4)
        assert line["l"] == pytest.approx([step["l"]], abs=6e-4)
        assert np.allclose(line["o"], step["o"], atol=6e-3)
    said = page.locator("#announce").inner_text()
    assert ("Blocco 2 di 3" if page.lang == "it" else "Block 2 of 3") in said
    assert page.evaluate("document.activeElement.id") in ("flash-next", "flash-prev")


def test_all_blocks_end_at_the_rows_output(lab):
    """"All blocks" reaches the end: the last line says o/l, and it is the row's output."""
    page = lab
    page.locator("#flash-all").click()
    page.wait_for_selector("#view-flash .flash-end")
    state = get_state(page)
    last = state["flash"]["steps"][-1]
    expected = np.array(last["o"]) / last["l"]
    assert np.allclose(state["flash"]["output"], state["matrix"]["output"][state["focus"]], rtol=1e-12)
    end = numbers(page.locator("#view-flash .flash-end").inner_text())
    assert np.allclose(end[:4], expected, atol=6e-3) and np.allclose(end[4:8], expected, atol=6e-3)


def test_a_block_size_typed_in_the_view_redraws_the_table(lab):
    """Typing 4 in the view's field: two blocks of keys, the state says block 4."""
    page = lab
    page.locator("#flash-block").fill("4")
    page.locator("#flash-block").dispatch_event("change")
    state = wait_state(page, "s.flash && s.flash.block === 4")
    assert [s["keys"] for s in state["flash"]["steps"]] == [[0, 4], [4, len(state["tokens"])]]
    assert page.locator("#view-flash tbody tr").count() == 2


@pytest.mark.parametrize("width", [1280, 360])
def test_the_view_is_clean_under_axe(lab, width):
    """No WCAG A/AA violation with the table on screen, at 1280 and 360 px."""
    page = lab
    page.set_viewport_size({"width": width, "height": 900})
    page.locator("#view-flash").scroll_into_view_if_needed()
    assert axe_violations(page) == []
    SHOTS.mkdir(exist_ok=True)
    page.locator("#view-flash").screenshot(path=str(SHOTS / f"flash-{page.lang}-{width}.png"))
    page.set_viewport_size({"width": 1280, "height": 900})
