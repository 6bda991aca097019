"""End to end: heads, editable cells, matrix mode with seed 003's matrices, bad cells, links,
keyboard-only editing, axe in each new state (both languages) and phones."""

import numpy as np
import pytest
from playwright.sync_api import expect

from tests.e2e.conftest import get_state, more_settings, open_page, wait_ready, wait_state
from tests.e2e.conftest import axe_violations
from tests.reference import attention_matrix

SCREENSHOTS = "test-results"


@pytest.fixture
def page_at(browser, base_url):
    opened = []

    def at(query, **kwargs):
        context, page = open_page(browser, base_url, query, **kwargs)
        opened.append(context)
        wait_ready(page)
        return page

    yield at
    for context in opened:
        assert context.outside.urls == []
        context.close()


def favourite(state):
    weights = [r["weight"] for r in state["rows"]]
    return state["tokens"][int(np.argmax(weights))]["text"]


def test_switching_heads_moves_the_pattern_and_the_side_by_side_view_shows_all(page_at):
    """Choosing another head makes «dormiva» look elsewhere; every head's card names its favourite."""
    page = page_at("?lang=it")
    assert favourite(get_state(page)) == "gatto"
    cards = page.locator(".head-card")
    assert cards.count() == 4
    cards.nth(0).scroll_into_view_if_needed()  # (drawn once near the screen: style.css)
    expect(cards.nth(0)).to_contain_text("gatto")
    expect(cards.nth(2)).to_contain_text("tappeto")
    more_settings(page)
    page.select_option("#head", "2")
    state = wait_state(page, "s.head === 2")
    assert favourite(state) == "tappeto"
    page.wait_for_url(lambda url: "head=2" in url)  # the address follows (written after the change)
    assert page.locator(".head-card.active h3").inner_text().startswith("Che cosa e dove")


def test_editing_one_cell_of_w_q_moves_the_pattern_and_survives_a_reload(page_at):
    """W_Q row «azione»: 3 → 0 for alive, 0 → 3 for thing; the verb now looks at tappeto; the link keeps it."""
    page = page_at("?lang=it")
    for cell, value in (("#cell-w_q-1-0", "0"), ("#cell-w_q-1-2", "3")):
        page.fill(cell, value)
        page.press(cell, "Enter")
    state = wait_state(page, "s.w_q[1][2] === 3")
    assert state["w_q"][1] == [0.0, 0.0, 3.0, 0.0] and favourite(state) == "tappeto"
    assert "edited" in page.locator("#cell-w_q-1-2").get_attribute("class")
    cards = np.asarray([t["card"] for t in state["tokens"]])
    ref = attention_matrix(cards @ np.asarray(state["w_q"]), cards, cards)
    np.testing.assert_allclose([r["weight"] for r in state["rows"]], ref["weights"][5], atol=1e-12)
    page.wait_for_url(lambda url: "wq=0%2C3%2C0.5%2C0%3B0%2C0%2C3%2C0%3B" in url)  # both edits in the address
    again = page_at("?" + page.url.split("?", 1)[1])
    assert get_state(again)["w_q"] == state["w_q"] and favourite(get_state(again)) == "tappeto"
    assert "edited" in again.locator("#cell-w_q-1-2").get_attribute("class")
    again.click("#reset-edits")
    assert wait_state(again, "s.w_q[1][0] === 3")["w_q"][1] == [3.0, 0.0, 2.0, 0.0]


BAD_CELLS = ["abc", "1,2,3", "NaN", "inf", "-Infinity", "1e308", ""]


def test_a_bad_cell_keeps_its_text_says_why_and_recomputes_nothing(page_at):
    """Letters, lists, NaN, ±∞, a huge number or nothing: the text stays, a message says why, the state does not move."""
    page = page_at("?lang=en")
    before = get_state(page)
    for typed in BAD_CELLS:  # one page; Escape puts the cell back before the next
        page.fill("#cell-w_q-1-0", typed)
        page.press("#cell-w_q-1-0", "Enter")
        page.wait_for_function("document.getElementById('edit-message').textContent.length > 0")
        message = page.inner_text("#edit-message")
        assert "stays 3" in message and page.input_value("#cell-w_q-1-0") == typed, typed
        assert page.get_attribute("#cell-w_q-1-0", "aria-invalid") == "true", typed
        assert get_state(page)["rows"] == before["rows"], typed
        page.press("#cell-w_q-1-0", "Escape")
        wait_state(page, "true")  # (the engine puts the cell back)
        assert page.input_value("#cell-w_q-1-0") == "3" and page.inner_text("#edit-message") == "", typed
        assert page.get_attribute("#cell-w_q-1-0", "aria-invalid") != "true", typed


def test_keyboard_alone_edits_a_card_with_tab_and_enter(page_at):
    """Tab into the cards, type, Tab commits and moves on; the word's card and the weights follow."""
    page = page_at("?lang=en")
    page.locator(".edit-matrix").nth(3).locator("summary").focus()
    page.keyboard.press("Enter")  # open the cards
    page.keyboard.press("Tab")
    assert page.evaluate("document.activeElement.id") == "cell-cards-0-0"
    page.keyboard.press("Control+a")
    page.keyboard.type("1")
    page.keyboard.press("Tab")
    state = wait_state(page, "s.tokens[0].card[0] === 1")
    assert page.evaluate("document.activeElement.id") == "cell-cards-0-1"
    page.wait_for_url(lambda url: "cards=" in url)
    assert state["tokens"][0]["card"] == [1.0, 0.0, 0.0, 1.0]


def test_matrix_mode_with_seed_003s_matrices_shows_the_correct_rows(page_at):
    """Typed in, the lesson's Q, K, V give [0,40; 0,20; 0,40] and out₁ ≈ [6,02; 3,98]; the compare field marks the slip."""
    page = page_at("?lang=it&mode=matrix")
    page.fill("#mm-q", "1 0\n0 1\n1 1")
    page.fill("#mm-k", "[[1, 0], [0, 1], [1, 1]]")
    page.fill("#mm-v", "10 0\n0 10\n5 5")
    page.click("#mm-apply")
    state = wait_state(page, "s.mode === 'matrix' && s.matrix.values[0][0] === 10")
    assert [round(w, 2) for w in state["matrix"]["weights"][0]] == [0.40, 0.20, 0.40]
    assert [round(x, 2) for x in state["matrix"]["output"][0]] == [6.02, 3.98]
    assert "Q (3×2) · Kᵀ (2×3) = QKᵀ (3×3)" in page.inner_text("#view-steps")
    page.fill("#cmp-text", "0,36 0,18 0,46\n0,18 0,36 0,46\n0,25 0,25 0,50")
    page.click("#cmp-go")
    page.wait_for_function("document.getElementById('compare-result').textContent.length > 0")
    assert "6 celle su 9 non coincidono" in page.inner_text("#compare-result")
    assert page.locator("#compare-result .cmp-bad").count() == 6
    page.check('input[name="mask"]')
    wait_state(page, "s.mask === true")
    assert "−∞" in page.inner_text("#view-steps")
    assert page.locator("#compare-result .cmp-bad").count() >= 1  # the comparison follows the new numbers


def test_matrix_mode_refuses_bad_boxes_and_offers_no_mask_across(page_at):
    """A letter in Q keeps the text with a message; Q 2×2 against K 3×2 is cross-attention with no mask."""
    page = page_at("?lang=en&mode=matrix")
    page.fill("#mm-q", "1 0\nx 1")
    page.click("#mm-apply")
    page.wait_for_function("document.getElementById('mm-q-message').textContent.length > 0")
    assert "Row 2" in page.inner_text("#mm-q-message") and page.input_value("#mm-q") == "1 0\nx 1"
    page.fill("#mm-q", "2 0\n0 2")
    page.fill("#mm-k", "1 0\n0 1\n1 1")
    page.fill("#mm-v", "")
    page.click("#mm-apply")
    state = wait_state(page, "s.matrix.weights.length === 2")
    assert len(state["matrix"]["weights"][0]) == 3 and state["mask"] is False
    assert "cross-attention" in page.inner_text("#view-steps")
    assert page.is_disabled("#mask")  # the mask is offered only when n_q = n_k
    page.fill("#mm-q", "\n".join(["1 0"] * 17))
    page.click("#mm-apply")
    page.wait_for_function("document.getElementById('mm-q-message').textContent.length > 0")
    assert "at most 16" in page.inner_text("#mm-q-message")


def test_the_random_example_comes_back_from_its_link(page_at):
    """'Random' writes a seed in the link; the same link gives the same 8×4 matrices."""
    page = page_at("?lang=en&mode=matrix")
    page.click("#mm-random")
    state = wait_state(page, "s.matrix.queries.length === 8")
    page.wait_for_url(lambda url: "seed=" in url)
    assert "whole number from −2 to 2" in page.inner_text("#sentence")
    again = page_at("?" + page.url.split("?", 1)[1])
    assert get_state(again)["matrix"]["queries"] == state["matrix"]["queries"]


@pytest.mark.parametrize("lang", ["it", "en"])
def test_axe_finds_nothing_in_the_new_states(page_at, lang):
    """Heads, an edited and a bad cell, the bias on, matrix mode with mask and a comparison: axe clean."""
    page = page_at(f"?lang={lang}&head=1&pos=0.5")
    assert axe_violations(page) == [], "head 1, bias"
    page.fill("#cell-w_q-0-0", "2")
    page.press("#cell-w_q-0-0", "Enter")
    page.fill("#cell-w_q-0-1", "abc")
    page.press("#cell-w_q-0-1", "Enter")
    assert axe_violations(page) == [], "edited and bad cells"
    page = page_at(f"?lang={lang}&mode=matrix&mask=1")
    page.fill("#cmp-text", "0,5 0,5 0\n1 0 0\n0 0 1")
    page.click("#cmp-go")
    page.wait_for_function("document.getElementById('compare-result').textContent.length > 0")
    assert axe_violations(page) == [], "matrix mode"
    page.fill("#mm-q", "a")
    page.click("#mm-apply")
    page.wait_for_function("document.getElementById('mm-q-message').textContent.length > 0")
    assert axe_violations(page) == [], "matrix mode, bad box"


@pytest.mark.parametrize("query", ["?lang=it&head=2", "?lang=en&mode=matrix&seed=3"])
def test_new_views_fit_a_phone(page_at, query):
    """At 360 px the page does not scroll sideways with the heads, the editor or matrix mode."""
    page = page_at(query, viewport={"width": 360, "height": 780})
    assert page.evaluate("document.documentElement.scrollWidth") <= 360
    name = query.replace("?", "").replace("&", "_").replace("=", "-")
    page.screenshot(path=f"{SCREENSHOTS}/heads-360-{name}.png", full_page=True)


def test_swapping_two_words_moves_the_weights_unless_the_mask_knows_positions(page_at):
    """gatto ↔ tappeto: with the mask off the message says the weights moved with the words; with it on, that they changed."""
    page = page_at("?lang=it")
    before = get_state(page)
    page.select_option("#swap-a", "1")
    page.select_option("#swap-b", "4")
    page.click("#swap")
    state = wait_state(page, "s.tokens[1].text === 'tappeto'")
    page.wait_for_function("document.getElementById('order-result').textContent.length > 0")
    assert "si è spostato con le sue parole" in page.inner_text("#order-result")
    perm = [0, 4, 2, 3, 1, 5]
    assert [round(state["rows"][j]["weight"], 12) for j in range(6)] == \
        [round(before["rows"][perm[j]]["weight"], 12) for j in range(6)]
    page.check('input[name="mask"]')
    wait_state(page, "s.mask === true")
    page.click("#swap")
    # (the first verdict also names the mask: "senza maschera"; wait for the new one)
    page.wait_for_function("document.getElementById('order-result').textContent.includes('con la maschera')")
    assert "cambiati" in page.inner_text("#order-result")


def test_host_message_sets_a_tuned_head_and_matrix_mode(browser, base_url):
    """attention:set {head, wq, pos} tunes a head; {mode, q, v, focus} opens matrix mode with those rows."""
    from tests.contract_check import assert_valid_state
    from tests.e2e.conftest import open_host
    context, page = open_host(browser, base_url, "./?lang=en")
    eye = [[1 if i == j else 0 for j in range(4)] for i in range(4)]
    page.evaluate("""eye => document.querySelector('iframe').contentWindow.postMessage(
        {type: 'attention:set', head: 1, wq: eye, pos: 0.5}, '*')""", eye)
    page.wait_for_function("window.got.some(m => m.type === 'attention:state' && m.state.head === 1)")
    state = page.evaluate("window.got.filter(m => m.type === 'attention:state').pop().state")
    assert_valid_state(state)
    assert state["w_q"] == eye and state["position_bias"] == 0.5 and state["heads"][1]["name"] == "Pointers"
    page.evaluate("""document.querySelector('iframe').contentWindow.postMessage(
        {type: 'attention:set', mode: 'matrix', q: [[1, 0], [0, 1], [1, 1]], v: [[10, 0], [0, 10], [5, 5]], pos: 0,
         focus: 0}, '*')""")
    page.wait_for_function("window.got.some(m => m.type === 'attention:state' && m.state.mode === 'matrix')")
    state = page.evaluate("window.got.filter(m => m.type === 'attention:state').pop().state")
    assert_valid_state(state)
    assert [round(x, 2) for x in state["matrix"]["output"][0]] == [6.02, 3.98] and state["heads"] is None
    context.close()
