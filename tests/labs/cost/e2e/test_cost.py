"""The cost lab as a student walks it (path=cost): a window of 2 on nine words leaves the cells the
definition leaves and the grid shows them as the state says, a global word is picked by click and
by keyboard, and every step fits a phone in both languages (one shared page per language; axe on
every step: tests/e2e/views/test_every_path.py)."""

import numpy as np
import pytest

from tests.e2e.conftest import SHOTS, get_state, go_step, language_page, wait_state

NINE = {"it": "Il gatto seduto sul tappeto dormiva e la luna", "en": "The cat sat on the mat and then slept"}


@pytest.fixture(scope="module", params=["it", "en"])
def lab(request, browser, base_url):
    lang = request.param
    yield from language_page(browser, base_url, lang, f"s={NINE[lang].replace(' ', '+')}&focus=4&path=cost&step=3")




def grid(page):
    """The heatmap's cells as text, row by row."""
    return page.locator("#view-heatmap table.heatmap tbody tr").evaluate_all(
        "rows => rows.map(r => [...r.querySelectorAll('td')].map(td => td.textContent.trim()))")


def test_a_window_of_two_leaves_39_cells_and_the_grid_shows_the_states_cells(lab):
    """Window chosen, w = 2, the word itself on: 39 of 81 cells; each grid cell is the state's
    whole percentage where allowed, × where the window leaves it out; the bars follow."""
    page = lab
    go_step(page, 3)
    page.locator("#pattern-window").check()
    wait_state(page, "s.matrix.allowed !== null")
    page.locator("#window").fill("2")
    page.locator("#window").dispatch_event("change")
    page.locator("#self").check()
    state = wait_state(page, "s.include_self && s.cost.cells === 39")
    assert state["cost"] == {"pattern": "window", "window": 2, "global": [], "random": None, "cells": 39, "full": 81}
    allowed = np.array(state["matrix"]["allowed"])
    i, j = np.indices((9, 9))
    assert np.array_equal(allowed, np.abs(i - j) <= 2)
    for r, row in enumerate(grid(page)):
        for c, shown in enumerate(row):
            assert shown == ("×" if not allowed[r, c] else f"{round(100 * state['matrix']['weights'][r][c])}"), (r, c)
    bars = page.locator("#view-bars .bar-row.skipped").count()
    assert bars == int((~allowed[4]).sum())


def test_a_global_word_is_picked_by_click_and_by_keyboard(lab):
    """Step 4, local + global: clicking the first word's box makes its row and column whole; Space
    on the last word's box does the same for it, and the focus stays on that box. (The word itself
    is step 3's switch, set back here: each global word's own cell stays out.)"""
    page = lab
    go_step(page, 4)
    assert get_state(page)["include_self"] is False
    page.locator("#pattern-local_global").check()
    wait_state(page, "s.matrix.allowed !== null")
    page.locator('label.cost-global:has(#global-0)').click()
    state = wait_state(page, "s.matrix.allowed.every((r, i) => r[0] || i === 0) "
                             "&& s.matrix.allowed[0].every((a, j) => a || j === 0)")
    page.wait_for_function("location.search.includes('global=0')")  # (the link keeps it: written just after)
    page.locator("#global-8").focus()
    page.keyboard.press("Space")
    state = wait_state(page, "s.matrix.allowed.every((r, i) => r[8] || i === 8)")
    assert page.evaluate("document.activeElement.id") == "global-8"
    assert all(state["matrix"]["allowed"][k][8] for k in range(8))


def test_every_step_fits_a_phone(lab):
    """Steps 1…7 at 1280 and 360 px: no sideways scroll on the phone; a screenshot of each. (Axe on
    every step: tests/e2e/views/test_every_path.py.)"""
    page = lab
    SHOTS.mkdir(exist_ok=True)
    for n in range(1, 8):
        go_step(page, n)
        for width in (1280, 360):
            page.set_viewport_size({"width": width, "height": 900})
            assert page.evaluate("document.documentElement.scrollWidth") <= width, (n, width)
            page.screenshot(path=str(SHOTS / f"cost-{n}-{page.lang}-{width}.png"), full_page=True)
        page.set_viewport_size({"width": 1280, "height": 900})
