"""The whole formula in a real Chromium: heatmap, row choice, scale and temperature, output,
embedded views, every state valid against the contract, axe in the new states."""

import numpy as np
import pytest

from tests.contract_check import assert_valid_state
from tests.e2e.conftest import get_state, more_settings, open_host, open_page, wait_ready, wait_state
from tests.e2e.conftest import SHOTS, axe_violations
from tests.reference import attention_matrix, rule_percent, shown, shown_short

# Version 1's state for the default example (before contract version 2): dots, logits, weights.
V1_DOTS = [0.0, 3.05, 0.7000000000000001, 0.2, 2.0]
V1_LOGITS = [0.0, 1.525, 0.35000000000000003, 0.1, 1.0]
V1_WEIGHTS = [0.09227080785201733, 0.42399760933593045, 0.1309385091052817, 0.10197501342539568,
              0.2508180602813749]


def numpy_state(s):
    """numpy's whole matrix for the cards, matrices and switches the state reports."""
    x = np.asarray([t["card"] for t in s["tokens"]])
    return attention_matrix(x @ np.asarray(s["w_q"]), x @ np.asarray(s["w_k"]), x @ np.asarray(s["w_v"]),
                            s["mask"], s["include_self"], s["scaled"], s["temperature"])


def heatmap_texts(page):
    return page.evaluate("""[...document.querySelectorAll('table.heatmap tbody tr[data-row]')]
        .map(tr => [...tr.querySelectorAll('td')].map(td => td.textContent))""")


def set_temperature(page, log2_value):
    """Move the slider as a student does (input events while dragging, change at the end)."""
    page.evaluate("""v => { const r = document.getElementById('temp'); r.value = v;
        r.dispatchEvent(new Event('input', {bubbles: true}));
        r.dispatchEvent(new Event('change', {bubbles: true})); }""", str(log2_value))


@pytest.fixture()
def page(browser, base_url):
    context, page = open_page(browser, base_url, "?lang=it")
    wait_ready(page)
    yield page
    assert page.errors == []
    context.close()


def test_default_state_keeps_version_1_numbers_and_validates(page):
    """Defaults: dots, logits and weights are exactly version 1's; the state follows contract v2."""
    s = get_state(page)
    assert_valid_state(s)
    assert [r["dot"] for r in s["rows"][:5]] == V1_DOTS
    assert [r["logit"] for r in s["rows"][:5]] == V1_LOGITS
    assert [r["weight"] for r in s["rows"][:5]] == V1_WEIGHTS


def test_heatmap_cells_equal_the_state_and_numpy(page):
    """Every cell shows 100 × weight rounded on its own; the weights are numpy's; · marks masked cells."""
    page.locator("#mask").check()
    s = wait_state(page, "s.mask === true")
    assert_valid_state(s)
    ref = numpy_state(s)
    texts = heatmap_texts(page)
    for i, row in enumerate(texts):
        for j, shown in enumerate(row):
            np.testing.assert_allclose(s["matrix"]["weights"][i][j], ref["weights"][i][j], atol=1e-12)
            if ref["allowed"][i][j]:
                assert shown == rule_percent(ref["weights"][i][j], 0, "it")[:-1]
            else:
                assert shown == ("·" if j > i else "—")
    assert "6 parole → 36 punteggi" in page.locator(".heatmap-cost").text_content()


def test_choosing_a_row_selects_the_word_everywhere(page):
    """Click a row header, then Enter on another: the word, the bars, the table and the state follow."""
    page.locator('.row-pick[data-row="1"]').click()
    s = wait_state(page, "s.focus === 1")
    assert page.locator('input[name="word"][value="1"]').is_checked()
    assert "«gatto»" in page.locator("#view-bars h2").text_content()
    assert page.locator('table.heatmap tr.selected').get_attribute("data-row") == "1"
    assert [r["weight"] for r in s["rows"]] == s["matrix"]["weights"][1]
    page.locator('.row-pick[data-row="4"]').focus()
    page.keyboard.press("Enter")
    wait_state(page, "s.focus === 4")
    assert page.locator('.row-pick[data-row="4"]').get_attribute("aria-pressed") == "true"
    assert page.locator('.row-pick[data-row="1"]').get_attribute("aria-pressed") == "false"
    assert page.locator("table.steps caption").text_content().startswith("Passaggi per «tappeto»")


def test_scale_switch_and_temperature_change_the_numbers_as_numpy_says(page):
    """Scale off: divisor 1 (÷ 1 on the page); T = 2 with the scale: ÷ 4; weights follow numpy."""
    more_settings(page)
    page.locator("#scaled").uncheck()
    s = wait_state(page, "s.scaled === false")
    assert s["scale"] == 1.0 and "÷ 1" in page.locator(".formula").text_content()
    for seen, want in zip([r["weight"] for r in s["rows"]], numpy_state(s)["weights"][5]):
        assert abs(seen - want) <= 1e-12
    page.locator("#scaled").check()
    set_temperature(page, 1)  # log₂ T = 1: T = 2
    s = wait_state(page, "s.temperature === 2 && s.scaled")
    assert s["scale"] == 4.0 and "÷ 4" in page.locator(".formula").text_content()
    assert page.locator("#temp-value").inner_text() == "T = 2"
    ref = numpy_state(s)
    for j, r in enumerate(s["rows"]):
        assert abs(r["weight"] - ref["weights"][5][j]) <= 1e-12
        if r["candidate"]:
            cell = page.locator(f'table.steps tr[data-index="{j}"] [data-col="percent"]').text_content()
            assert cell == rule_percent(ref["weights"][5][j], 1, "it")
    page.wait_for_url(lambda url: "temp=2" in url)  # the address follows (written after the change)


def test_low_temperature_saturates_and_says_why(page):
    """Scale off and the slider at its lowest (T = ⅛): ≥ 99% on one word and a saturation note."""
    more_settings(page)
    page.locator("#scaled").uncheck()
    set_temperature(page, -3)
    s = wait_state(page, "s.temperature === 0.125 && !s.scaled")
    assert max(r["weight"] for r in s["rows"]) >= 0.99
    assert "satura" in page.locator(".explain").text_content()


def test_output_card_is_the_weighted_sum_of_the_values(page):
    """The new card shows Σ w·v (numpy) to two decimals; the written sum uses the table's weights."""
    s = get_state(page)
    ref = numpy_state(s)
    out = s["matrix"]["output"][5]
    np.testing.assert_allclose(out, ref["output"][5], atol=1e-12)
    shown = page.locator(".output-card.new .card .v").all_text_contents()
    assert shown == [shown_short(v, 2, "it") for v in out]
    assert page.locator(".output-sum").text_content().startswith("nuovo «dormiva» = 0,424 × gatto + 0,251 × tappeto")


@pytest.mark.parametrize("lang", ["it", "en"])
def test_axe_finds_nothing_in_heatmap_saturated_and_scale_off_states(browser, base_url, lang):
    """Heatmap on screen with a row chosen, saturated weights, scale off, embedded heatmap and
    output views, a long text's grid scrolled to its middle (a window of rows): 0 violations, in
    the light and the dark scheme (the dark one in Italian: the colours are the same in English)."""
    long_text = "+".join(("Il gatto seduto sul tappeto dormiva e il cane guardava la luna ".split() * 5)[:60])
    states = ((f"?lang={lang}&focus=2", [None]), (f"?lang={lang}&scaled=0&temp=0.125", [None]),
              (f"?lang={lang}&embed=1&view=heatmap", [None, "output"]),
              (f"?lang={lang}&limit=60&s={long_text}&focus=30", [None]))
    for n, (query, views) in enumerate(states):
        if n == 0:  # (one context, each state loaded anew in its page)
            context, page = open_page(browser, base_url, query, color_scheme="light")
        else:
            page.emulate_media(color_scheme="light")
            page.goto(base_url + query)
        wait_ready(page)
        if "limit=60" in query:
            page.locator(".heatmap-wrap").evaluate("w => { w.scrollIntoView(); w.scrollTop = 700; }")
            page.wait_for_function("+document.querySelector('table.heatmap').dataset.start > 0")
        for view in views:  # the embedded widget: its other view chosen on the same page
            if view is not None:
                page.locator(f'input[name="view"][value="{view}"]').check()
                page.wait_for_function(f"document.querySelector('#analysis .view[data-view={view}]')"
                                       ".offsetParent !== null")
            assert_valid_state(get_state(page))
            for scheme in ("light", "dark") if lang == "it" else ("light",):
                page.emulate_media(color_scheme=scheme)
                assert page.evaluate("matchMedia('(prefers-color-scheme: dark)').matches") == (scheme == "dark")
                assert axe_violations(page) == [], (query, view, scheme)
    context.close()


@pytest.mark.parametrize("view", ["bars", "table", "heatmap", "output"])
def test_embedded_widget_opens_with_the_teachers_view_and_fits_1000_px(browser, base_url, view):
    """?embed=1&view=…: only that view is visible and the widget is at most 1,000 px tall at 1280 px."""
    context, page = open_page(browser, base_url, f"?embed=1&view={view}", viewport={"width": 1280, "height": 900})
    wait_ready(page)
    visible = page.evaluate("""[...document.querySelectorAll('#analysis .view')]
        .filter(v => v.offsetParent !== null).map(v => v.dataset.view)""")
    assert visible == [view]
    assert page.locator(".page").evaluate("p => p.getBoundingClientRect().height") <= 1000
    other = "heatmap" if view != "heatmap" else "output"
    page.locator(f'input[name="view"][value="{other}"]').check()
    s = wait_state(page, "true")
    assert s["focus"] == 5
    page.wait_for_url(lambda url: f"view={other}" in url)
    context.close()


def test_host_message_sets_view_scale_and_temperature(browser, base_url):
    """attention:set {view, scaled, temp} applies in order and the state answers."""
    context, page = open_host(browser, base_url, "./?embed=1")
    page.evaluate("""document.querySelector('iframe').contentWindow.postMessage(
        {type: 'attention:set', view: 'heatmap', scaled: false, temp: 0.5}, '*')""")
    page.wait_for_function("window.got.some(m => m.type === 'attention:state' && m.state.temperature === 0.5)")
    state = page.evaluate("window.got.filter(m => m.type === 'attention:state').pop().state")
    assert_valid_state(state)
    assert state["scaled"] is False and state["scale"] == 0.5
    frame = page.frame_locator("iframe")
    assert frame.locator("#view-heatmap").is_visible() and not frame.locator("#view-table").is_visible()
    context.close()


@pytest.mark.parametrize("lang", ["it", "en"])
def test_heatmap_scrolls_in_its_box_and_screenshots(browser, base_url, lang):
    """At 360 px the page does not scroll sideways (the grid scrolls in its own box); screenshots saved."""
    words = "+".join(("Il gatto seduto sul tappeto dormiva mentre il cane rincorreva la palla nel giardino "
                      "e la maestra leggeva una storia").split())
    context, page = open_page(browser, base_url, f"?lang={lang}&s={words}&focus=5",
                              viewport={"width": 1280, "height": 800})
    wait_ready(page)
    SHOTS.mkdir(exist_ok=True)
    for width in (1280, 360):  # one page, resized (the layout follows the viewport)
        page.set_viewport_size({"width": width, "height": 800})
        assert page.evaluate("document.documentElement.scrollWidth") <= width, width
        wrap = page.locator(".heatmap-wrap")
        if width == 360:
            assert wrap.evaluate("w => w.scrollWidth > w.clientWidth")
        page.screenshot(path=str(SHOTS / f"formula-{lang}-{width}.png"), full_page=True)
    context.close()
