"""Steps 4–6 of the generation path as a student does them: multi-query by keyboard shrinks the cache
(the view's table equals the state), the first head's keys changed reach its group's bars, the
latent's weights follow a word click, and a window of 3 typed in model mode breaks the copy.
Screenshots of each at 1280 and 360 px in both languages (the path's axe check is
tests/labs/generation/e2e/test_generation.py's, on every step)."""

import re

import pytest

from tests.e2e.conftest import SHOTS, axe_violations, get_state, language_page, step_at_two_widths, wait_state
from tests.e2e.conftest import go_step

NOUN = {"it": "gatto", "en": "cat"}


@pytest.fixture(scope="module", params=["it", "en"])
def lab(request, browser, base_url):
    yield from language_page(browser, base_url, request.param, "path=generation&step=4")


def accessible(page, where, width):
    assert axe_violations(page) == [], f"{where}, {width} px"
    assert page.evaluate("document.documentElement.scrollWidth") <= width, f"{where}: no sideways scroll"


def cache_rows(page):
    """{g: numbers a token} as the view's cache table shows them."""
    return {row.get_attribute("data-kv"): int(row.locator("td").inner_text())
            for row in page.locator("#view-shared-keys table.kv-cache tbody tr").all()}


def click_word(page, word):
    i = [t["text"] for t in get_state(page)["tokens"]].index(word)
    page.locator(f'label.word[data-index="{i}"]').click()
    return wait_state(page, f"s.focus === {i}")


def test_multi_query_by_keyboard_shrinks_the_cache_to_a_quarter(lab):
    """Arrow keys on the key/value radios: 2 then 1; the state's kv_heads, cache_per_token and the
    heads' W_K follow, the view's cache row equals the state, the focus stays on the radio."""
    page = lab
    go_step(page, 4)
    page.locator("#kv-4").focus()
    page.keyboard.press("ArrowDown")
    state = wait_state(page, "s.kv_heads === 2")
    assert state["cache_per_token"] == 16 and page.evaluate("document.activeElement.id") == "kv-2"
    page.keyboard.press("ArrowDown")
    state = wait_state(page, "s.kv_heads === 1")
    assert state["cache_per_token"] == 8 == cache_rows(page)["1"]
    assert cache_rows(page) == {"4": 32, "2": 16, "1": 8, "latent": 3}
    assert page.locator("#view-shared-keys tr.kv-current").get_attribute("data-kv") == "1"
    assert page.evaluate("document.activeElement.id") == "kv-1"
    sources = page.locator("#view-shared-keys table.kv-table tbody tr td:first-of-type").all_inner_texts()
    assert len(set(sources)) == 1 and sources[0] == state["heads"][0]["name"]


def test_the_first_heads_own_keys_reach_its_group(lab):
    """Enter on the button: the first head's W_K loses the pointer feature; with 2 key/value heads
    the pointers head looks at every other word alike from a noun, and the table says its largest change."""
    page, lang = lab, lab.lang
    go_step(page, 4)
    page.locator("#kv-2").check()
    wait_state(page, "s.kv_heads === 2")
    click_word(page, NOUN[lang])
    page.locator("#kv-own").focus()
    page.keyboard.press("Enter")
    state = wait_state(page, "s.heads[1].w_k[3][3] === 0")
    assert state["heads"][0]["w_k"] == state["heads"][1]["w_k"] and state["heads"][2]["w_k"][3][3] == 1
    assert page.evaluate("document.activeElement.id") == "kv-own"
    assert page.locator("#kv-own").get_attribute("aria-pressed") == "true"
    change = page.locator("#view-shared-keys tr[data-head='1'] td").last.inner_text()
    assert int(re.match(r"\d+", change).group(0)) >= 5
    assert page.locator("#view-shared-keys tr[data-head='3'] td").last.inner_text().startswith("0")
    SHOTS.mkdir(exist_ok=True)
    step_at_two_widths(page, lambda width: accessible(page, "shared keys, own keys", width),
                       str(SHOTS / f"shared-keys-{lang}-{{width}}.png"))
    page.locator("#kv-own").click()
    wait_state(page, "s.heads[1].w_k[3][3] === 1")
    page.locator("#kv-4").check()
    wait_state(page, "s.kv_heads === 4")


def test_the_latent_weights_follow_the_clicked_word(lab):
    """Step 5: clicking a word redraws the latent's table for it; the exact column equals the state's weights."""
    page, lang = lab, lab.lang
    go_step(page, 5)
    state = click_word(page, NOUN[lang])
    caption = page.locator("#view-latent table.latent-bars caption").inner_text()
    assert NOUN[lang] in caption
    exact = page.locator("#view-latent table.latent-bars tbody tr td:nth-of-type(1)").all_inner_texts()
    shown = [row["percent"] for row in state["rows"]]
    assert [e for e in exact] == [p if p is not None else "—" for p in shown]
    step_at_two_widths(page, lambda width: accessible(page, "latent", width), str(SHOTS / f"latent-{lang}-{{width}}.png"))


def test_a_window_of_3_typed_in_model_mode_breaks_the_copy(lab):
    """Step 6, «a … h a … h»: 3 typed in the window box makes every copy out of reach, the windowed
    column all ✗ and the full one all ✓; the heads' tables show × outside the window; emptying it brings none."""
    page, lang = lab, lab.lang
    go_step(page, 6)
    page.fill("#sentence-input", "a b c d e f g h a b c d e f g h")
    page.press("#sentence-input", "Enter")
    wait_state(page, "s.model && s.model.tokens.length === 17")
    page.locator("#model-window-w").fill("3")
    page.locator("#model-window-w").dispatch_event("change")
    page.wait_for_function("document.querySelectorAll('#view-model-window table.mw-table tbody tr').length === 7")
    assert page.evaluate("document.activeElement.id") == "model-window-w"
    rows = page.locator("#view-model-window table.mw-table tbody tr")
    full = rows.locator("td:nth-of-type(5)").all_inner_texts()
    windowed = rows.locator("td:nth-of-type(6)").all_inner_texts()
    assert all(t.endswith("✓") for t in full) and all(t.endswith("✗") for t in windowed)
    # (off screen a head's table is not drawn: content-visibility)
    page.wait_for_function("!!document.querySelector('#view-heatmap .model-head td.skipped')")
    page.evaluate("document.querySelector('#view-heatmap .model-head td.skipped').scrollIntoView()")
    page.wait_for_function("document.querySelector('#view-heatmap .model-head td.skipped').getClientRects().length > 0")
    page.locator('label.word[data-index="11"]').click()
    wait_state(page, "s.focus === 11")
    assert ("si spezza" if lang == "it" else "the path breaks") in page.locator("#circuit-text").inner_text()
    step_at_two_widths(page, lambda width: accessible(page, "model window", width),
                       str(SHOTS / f"model-window-{lang}-{{width}}.png"))
    page.locator("#model-window-w").fill("")
    page.locator("#model-window-w").dispatch_event("change")
    page.wait_for_function("!document.querySelector('#view-model-window table.mw-table td:nth-of-type(6)')")
    assert page.locator("#view-heatmap td.skipped").count() == 0


def test_the_multi_query_model_writes_the_copy_with_a_quarter_of_the_cache(lab):
    """Step 3, five letters written: arrow keys to "1: multi-query" among the model's key/value heads; the
    variant still writes «d e f g h», the state's cache numbers are a quarter, one cache table a layer."""
    page = lab
    go_step(page, 3)
    page.fill("#sentence-input", "a b c d e f g h a b c")
    page.press("#sentence-input", "Enter")
    wait_state(page, "s.model && s.model.tokens.length === 12")
    for n in range(1, 6):
        page.locator("#gen-step").click()
        wait_state(page, f"s.model.generated.length === {n}")
    before = get_state(page)
    page.locator("#kv-4").focus()
    page.keyboard.press("ArrowDown")
    page.keyboard.press("ArrowDown")
    state = wait_state(page, "s.kv_heads === 1 && s.model && s.model.generated.length === 5")
    assert page.evaluate("document.activeElement.id") == "kv-1"
    assert state["model"]["generated"] == list("defgh") == before["model"]["generated"]
    assert state["model"]["cache"]["numbers"] * 4 == before["model"]["cache"]["numbers"]
    assert state["cache_per_token"] == 16 and before["cache_per_token"] == 64
    assert page.locator("details.gen-cache").count() == 2
    numbers = page.locator("#view-generation-cost tr[data-counter='numbers'] td").inner_text()
    assert int(re.sub(r"[.,\s]", "", numbers)) == state["model"]["cache"]["numbers"]
    step_at_two_widths(page, lambda width: accessible(page, "multi-query model", width),
                       str(SHOTS / f"model-kv1-{page.lang}-{{width}}.png"))
    page.locator("#kv-4").check()
    wait_state(page, "s.kv_heads === 4")
