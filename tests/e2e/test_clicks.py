"""Word clicks change the views in place: after any clicks the page shows exactly what a
fresh page at its address draws, with numpy's numbers; the disclosures the student opened
stay open; a long text's grid arrives whole, row by row, and follows a new setting."""

import random

from tests.contract_check import assert_valid_state
from tests.e2e.conftest import get_state, open_page, wait_ready, wait_state
from tests.e2e.test_formula import heatmap_texts, numpy_state
from tests.reference import rule_percent, shown

WORDS12 = "Il gatto seduto sul tappeto dormiva e il cane guardava la luna".split()
# Everything that shows the selected word (and the grid with its highlighted row).
VIEWS = ("#query-row", "#view-bars", "#view-table", "#view-heatmap", "#view-output", "#view-heads",
         "#multi-row", "#view-layer2")


def views_html(page):
    return page.evaluate("sels => sels.map(s => document.querySelector(s).innerHTML)", list(VIEWS))


def query(page):
    return "?" + page.url.split("?", 1)[1]


def check_row_against_numpy(page, s):
    """The table's weights and percentages and the bars' values are numpy's for the selected row."""
    ref = numpy_state(s)
    i = s["focus"]
    for j, r in enumerate(s["rows"]):
        assert abs(r["weight"] - ref["weights"][i][j]) <= 1e-12
        if ref["allowed"][i][j]:
            w = ref["weights"][i][j]
            row = f'table.steps tr[data-index="{j}"]'
            assert page.locator(f'{row} [data-col="weight"]').text_content() == shown(w, 3, "it")
            assert page.locator(f'{row} [data-col="percent"]').text_content() == rule_percent(w, 1, "it")
            bar = page.locator(f'#view-bars li[data-index="{j}"] svg')
            assert bar.get_attribute("aria-valuenow") == shown(100 * w, 1, "en")


def test_clicks_in_any_order_leave_the_views_a_fresh_page_draws(browser, base_url):
    """Words clicked in shuffled orders, with the mask, self and distance switches changed in
    between: every row view equals a fresh page's at the same address, the numbers numpy's."""
    context, page = open_page(browser, base_url, "?s=" + "+".join(WORDS12) + "&focus=1")
    wait_ready(page)
    rng = random.Random(9)
    for switch in (None, "#mask", "#self", "#mask"):
        if switch:
            page.locator(switch).click()
            wait_state(page, "true")
        order = list(range(len(WORDS12)))
        rng.shuffle(order)
        for n, i in enumerate(order):
            page.locator(f'label.word[data-index="{i}"]').click()
            s = wait_state(page, f"s.focus === {i}")
            if n % 4 == 0:
                check_row_against_numpy(page, s)
        assert_valid_state(s)
        page.wait_for_url(lambda url: f"focus={order[-1]}&" in url)
        fresh_context, fresh = open_page(browser, base_url, query(page))
        wait_ready(fresh)
        assert get_state(fresh) == s
        assert views_html(page) == views_html(fresh), f"after {switch}: a view differs from a fresh page's"
        fresh_context.close()
    assert page.errors == [] and page.console_errors == []
    context.close()


def test_disclosures_the_student_opened_stay_open_while_picking_words(browser, base_url):
    """W_Q under the question and W_O under the heads, opened, stay open as other words are picked."""
    context, page = open_page(browser, base_url, "?lang=en")
    wait_ready(page)
    for summary in ("details.w-q summary", "details.w-o summary"):
        page.locator(summary).click()
    for i in (1, 3, 0, 4):
        page.locator(f'label.word[data-index="{i}"]').click()
        wait_state(page, f"s.focus === {i}")
        assert page.evaluate("[...document.querySelectorAll('details.w-q, details.w-o')].map(d => d.open)") \
            == [True, True]
    context.close()


def test_a_long_texts_grid_arrives_whole_and_follows_the_mask(browser, base_url):
    """90 words (8,100 cells, drawn a batch at a time): the grid fills to 90 rows equal to
    numpy's, says aria-busy only while filling, follows the mask, and a late row selects its word."""
    words = (WORDS12 * 8)[:90]
    context, page = open_page(browser, base_url, "?limit=90&s=" + "+".join(words) + "&focus=2")
    wait_ready(page)
    for mask in (False, True):
        if mask:
            page.locator("#mask").check()
            wait_state(page, "s.mask === true")
        page.wait_for_function("document.querySelectorAll('table.heatmap tbody tr').length === 90"
                               " && !document.querySelector('table.heatmap').hasAttribute('aria-busy')")
        s = get_state(page)
        ref = numpy_state(s)
        texts = heatmap_texts(page)
        assert len(texts) == 90 and all(len(row) == 90 for row in texts)
        for i, row in enumerate(texts):
            for j, cell in enumerate(row):
                if ref["allowed"][i][j]:
                    assert cell == rule_percent(ref["weights"][i][j], 0, "it")[:-1]
                else:
                    assert cell == ("·" if j > i else "—")
        assert page.locator("table.heatmap tr.selected").get_attribute("data-row") == "2"
    page.locator('.row-pick[data-row="88"]').click()
    s = wait_state(page, "s.focus === 88")
    assert page.locator("table.heatmap tr.selected").get_attribute("data-row") == "88"
    assert page.locator('.row-pick[data-row="88"]').get_attribute("aria-pressed") == "true"
    check_row_against_numpy(page, s)
    context.close()
