"""Word clicks change the views in place: after any clicks the page shows exactly what a
fresh page at its address draws, with numpy's numbers; the disclosures the student opened
stay open; a long text's grid draws the rows its box shows and follows a new setting."""

import random

from app import render
from app.views import registry
from tests.contract_check import assert_valid_state
from tests.e2e.conftest import get_state, open_page, wait_ready, wait_state
from tests.e2e.views.test_formula import heatmap_texts, numpy_state
from tests.reference import rule_percent, shown

WORDS12 = "Il gatto seduto sul tappeto dormiva e il cane guardava la luna".split()
# Everything that shows the selected word (the row parts of the views that follow it, from the
# view registry) and the grid with its highlighted row.
# (the explorer's: a view only a path's step shows, explorer=False, is checked on its steps)
VIEWS = tuple("#" + element for name, element in render.ROW_PARTS.items()  # (a lab's joins only when asked for)
              if registry.view(name).explorer and registry.lab_of(name) is None) + ("#view-heatmap",)


def views_html(page):
    """The views' HTML as drawn (without the mark of the word under the pointer: a class of the
    page's thread, static/page.js)."""
    return page.evaluate("""sels => sels.map(s => { const copy = document.querySelector(s).cloneNode(true);
        copy.querySelectorAll('.linked').forEach(e => { e.classList.remove('linked');
            if (!e.classList.length) e.removeAttribute('class'); });
        return copy.innerHTML; })""", list(VIEWS))


def query(page):
    return "?" + page.url.split("?", 1)[1]


def grid_seen(page):
    """The page with its grid brought on screen, as the page it is compared with: a long grid's gap
    rows are sized to its rows' height once the browser lays them out (static/page.js, gridFit)."""
    page.locator("#view-heatmap").evaluate("e => e.scrollIntoView()")
    page.evaluate(FRAME)
    return page


def check_row_against_numpy(page, s):
    """The table's weights and percentages and the bars' values are numpy's for the selected row
    (`s` from conftest.wait_state, which waits for the views left for when the browser is idle)."""
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
    fresh_context = fresh = None  # (one browser context, a page loaded anew at each address)
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
        if fresh is None:
            fresh_context, fresh = open_page(browser, base_url, query(page))
        else:
            fresh.goto(base_url + query(page))
        wait_ready(fresh)
        assert get_state(fresh) == s
        assert views_html(page) == views_html(fresh), f"after {switch}: a view differs from a fresh page's"
    fresh_context.close()
    assert page.errors == [] and page.console_errors == []
    context.close()


BUSY = "[...document.querySelectorAll('#analysis [aria-busy]')].map(e => e.id)"
CAPTION = "document.querySelector('table.steps caption').textContent"
FRAME = "new Promise(ok => requestAnimationFrame(() => requestAnimationFrame(() => setTimeout(ok))))"
GRID_TOP = "document.getElementById('view-heatmap').getBoundingClientRect().top"
# What the engine's answers left on the page, each as it was applied (the engine answers in its
# worker, so a burst's marks are seen as they come, not within the clicks' own task): the row
# views marked busy, with the height each held, and the heatmap's selected row.
WATCH = """() => { window.__seen = {busy: {}, selected: []};
  new MutationObserver(() => {
    document.querySelectorAll('#analysis [aria-busy]').forEach(e => { window.__seen.busy[e.id] = e.style.minHeight; });
    const tr = document.querySelector('table.heatmap tr.selected'); if (tr) window.__seen.selected.push(tr.dataset.row);
  }).observe(document.getElementById('analysis'), {subtree: true, childList: true, attributes: true}); }"""
SEEN_BUSY = "(() => { const b = window.__seen.busy; window.__seen.busy = {}; return b; })()"


def test_a_long_texts_views_off_screen_catch_up_with_a_burst_of_clicks(browser, base_url):
    """40 words, the grid on screen: words clicked in a burst leave the bars and the table
    (off screen) marked busy, then brought up to date as a fresh page draws them; a tab that
    shows them, or printing, brings them up to date as soon as the engine answers."""
    words = (WORDS12 * 4)[:40]
    context, page = open_page(browser, base_url, "?limit=40&s=" + "+".join(words) + "&focus=1")
    wait_ready(page)
    page.locator("#view-heatmap").evaluate("e => e.scrollIntoView()")
    page.evaluate(FRAME)  # the views' positions observed
    assert abs(page.evaluate(GRID_TOP)) <= 2
    page.evaluate(WATCH)
    page.evaluate("""() => {
        for (const i of [5, 17, 3, 26]) document.querySelector(`input[name="word"][value="${i}"]`).click(); }""")
    s = wait_state(page, "s.focus === 26")
    seen = page.evaluate("window.__seen")
    assert {"view-bars", "view-table"} <= set(seen["busy"])  # marked busy, then brought up to date
    assert seen["selected"][-1] == "26" and page.evaluate(SEEN_BUSY)  # the grid, on screen, with the last word
    check_row_against_numpy(page, s)
    assert abs(page.evaluate(GRID_TOP)) <= 2  # the views drawn above it did not move the grid away
    page.wait_for_url(lambda url: "focus=26&" in url)
    fresh_context, fresh = open_page(browser, base_url, query(page))
    wait_ready(fresh)
    assert views_html(page) == views_html(grid_seen(fresh)), "a view caught up differs from a fresh page's"
    fresh_context.close()
    page.evaluate("document.getElementById('mask').click()")
    s = wait_state(page, "s.mask === true")
    busy = page.evaluate(SEEN_BUSY)
    held = [busy.get("view-bars", ""), busy.get("view-table", "")]
    assert {"view-bars", "view-table"} <= set(busy)  # a setting change draws them when idle,
    assert all(h.endswith("px") and float(h[:-2]) > 100 for h in held)  # holding their height meanwhile
    check_row_against_numpy(page, s)
    assert abs(page.evaluate(GRID_TOP)) <= 2  # drawn empty, then whole: the grid stayed where it was
    page.wait_for_url(lambda url: "mask=1" in url)
    fresh_context, fresh = open_page(browser, base_url, query(page))
    wait_ready(fresh)
    assert views_html(page) == views_html(grid_seen(fresh)), "a view drawn later differs from a fresh page's"
    assert page.evaluate("['view-bars', 'view-table'].map(id => document.getElementById(id).style.minHeight)") \
        == ["", ""]  # the height held while empty is let go
    fresh_context.close()
    page.evaluate("""() => { window.requestIdleCallback = () => 0;  /* the browser not idle yet */
                             document.querySelector('input[name="word"][value="5"]').click(); }""")
    page.wait_for_function(f"JSON.parse(document.getElementById('attention-state').textContent).focus === 5")
    assert "view-table" in page.evaluate(SEEN_BUSY)
    page.evaluate("dispatchEvent(new Event('beforeprint'))")
    page.wait_for_function(f"!({BUSY}).length")
    assert f"«{words[5]}»" in page.evaluate(CAPTION)  # printing brings it up to date
    page.evaluate("dispatchEvent(new Event('afterprint'))")
    page.evaluate("""() => {
        document.querySelector('#view-layer2 .table-wrap').focus({ preventScroll: true });  // Tab reached it
        document.querySelector('input[name="word"][value="6"]').click(); }""")
    page.wait_for_function(f"JSON.parse(document.getElementById('attention-state').textContent).focus === 6")
    assert "view-layer2" in page.evaluate(SEEN_BUSY)
    page.evaluate("dispatchEvent(new Event('beforeprint'))")
    page.wait_for_function(f"!({BUSY}).length")
    focused = page.evaluate("[document.activeElement.closest('#view-layer2') !== null, document.activeElement.className]")
    assert focused == [True, "table-wrap"]  # drawn anew under the focus, which stays
    page.evaluate("dispatchEvent(new Event('afterprint'))")
    page.evaluate("""() => document.querySelector('input[name="word"][value="9"]').click()""")
    page.wait_for_function("JSON.parse(document.getElementById('attention-state').textContent).focus === 9")
    page.evaluate("document.querySelector('#view-table').scrollIntoView()")
    page.wait_for_function(f"!({BUSY}).length")  # scrolled to: up to date without idle time
    assert f"«{words[9]}»" in page.evaluate(CAPTION)
    context.close()

    context, page = open_page(browser, base_url, "?embed=1&view=heatmap&limit=40&focus=2&s=" + "+".join(words))
    wait_ready(page)
    page.evaluate(FRAME)
    page.evaluate(WATCH)
    page.evaluate("""() => { window.requestIdleCallback = () => 0;  /* the browser not idle yet */
                             document.querySelector('input[name="word"][value="7"]').click(); }""")
    page.wait_for_function("JSON.parse(document.getElementById('attention-state').textContent).focus === 7")
    assert "view-table" in page.evaluate(SEEN_BUSY)
    page.evaluate("document.querySelector('input[name=\"view\"][value=\"table\"]').click()")  # the table's tab
    page.wait_for_function(f"!({BUSY}).length")
    assert f"«{words[7]}»" in page.evaluate(CAPTION)  # hidden, then shown up to date
    assert page.evaluate(BUSY) == []
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


def drawn_grid(page):
    """{row index: {column index: its cell's text}} for the cells a long grid has drawn, and the
    table's row count."""
    rows = page.evaluate("""[...document.querySelector('table.heatmap').tBodies[0].rows]
        .map(tr => [tr.className === 'gap' ? -1 : +tr.dataset.row, +tr.getAttribute('aria-rowindex'),
                    [...tr.querySelectorAll('td:not(.skip)')].map((td, k) =>
                        [td.hasAttribute('aria-colindex') ? +td.getAttribute('aria-colindex') - 2 : k, td.textContent])])""")
    assert rows[0][0] == rows[-1][0] == -1  # a gap row before and after the window
    rows = rows[1:-1]
    numbers = [i for i, _, _ in rows]
    assert numbers == list(range(numbers[0], numbers[0] + len(numbers)))  # in order, none twice
    assert all(index == i + 2 for i, index, _ in rows)  # "row 57 of 91" for a screen reader
    for _, _, cells in rows:  # "column 57 of 91": the drawn columns in order, none twice
        assert [j for j, _ in cells] == list(range(cells[0][0], cells[0][0] + len(cells)))
    return {i: dict(cells) for i, _, cells in rows}, int(page.locator("table.heatmap").get_attribute("aria-rowcount"))


SEEN = """() => {
    const w = document.querySelector('.heatmap-wrap'), box = w.getBoundingClientRect();
    return [...w.querySelectorAll('tr[data-row]')].filter(tr => {
        const r = tr.getBoundingClientRect(); return r.bottom > box.top + 60 && r.top < box.bottom; })
        .map(tr => +tr.dataset.row); }"""

# The columns the grid's box shows, right of the row names (their headers are all drawn).
SEEN_COLUMNS = """() => {
    const w = document.querySelector('.heatmap-wrap'), box = w.getBoundingClientRect();
    const names = w.querySelector('td.corner').getBoundingClientRect().right;
    return [...w.querySelectorAll('thead th')].map((th, j) => [j, th.getBoundingClientRect()])
        .filter(([j, r]) => r.right > names + 1 && r.left < box.right - 1).map(([j]) => j); }"""


def scroll_grid(page, top):
    """Scroll the grid's box as a student does, and wait until the rows it shows are drawn."""
    page.locator(".heatmap-wrap").evaluate("(w, top) => { w.scrollTop = top; }", top)
    page.wait_for_function(f"({SEEN})().length >= 10")
    return page.evaluate(SEEN)


def scroll_grid_across(page, left):
    """Scroll the grid's box sideways, and wait until the cells it shows are drawn: the columns shown."""
    page.locator(".heatmap-wrap").evaluate("(w, left) => { w.scrollLeft = left; }", left)
    page.wait_for_function(f"""(() => {{ const cols = ({SEEN_COLUMNS})();
        const tr = document.querySelector('.heatmap-wrap tr[data-row]');
        return cols.length > 5 && cols.every(j => tr.querySelector(`td[aria-colindex="${{j + 2}}"]`)); }})()""")
    return page.evaluate(SEEN_COLUMNS)


def test_a_long_texts_grid_draws_the_rows_its_box_shows_and_follows_the_mask(browser, base_url):
    """90 words (8,100 cells): the grid draws a window of rows and columns, which follows its box's
    scroll and Tab through the row names, each drawn cell equal to numpy's; a setting change
    redraws it where the student was looking; a late row selects its word; printing draws all
    90 rows and columns."""
    words = (WORDS12 * 8)[:90]
    context, page = open_page(browser, base_url, "?limit=90&s=" + "+".join(words) + "&focus=2")
    wait_ready(page)
    page.locator(".heatmap-wrap").scroll_into_view_if_needed()

    def check(mask):
        s = get_state(page)
        assert s["mask"] is mask
        ref = numpy_state(s)
        drawn, count = drawn_grid(page)
        assert count == 91 and 20 <= len(drawn) < 90  # a window, not the 8,100 cells
        shown = page.evaluate(SEEN_COLUMNS)
        for i, row in drawn.items():
            assert set(shown) <= set(row) and len(row) < 90  # the columns the box shows, not all 90
            for j, cell in row.items():
                if ref["allowed"][i][j]:
                    assert cell == rule_percent(ref["weights"][i][j], 0, "it")[:-1]
                else:
                    assert cell == ("·" if j > i else "—")
        return drawn

    assert 0 in check(False) and 89 not in drawn_grid(page)[0]
    scroll_grid(page, 10 ** 6)  # to the last row
    drawn = check(False)
    assert 89 in drawn and 0 not in drawn
    seen = scroll_grid(page, 1500)  # the middle: rows about 35…50 shown
    assert 30 < seen[0] < 50
    check(False)
    page.locator("#mask").evaluate("box => box.click()")  # (a click that does not scroll the page)
    wait_state(page, "s.mask === true")
    page.wait_for_function(f"({SEEN})().length >= 10")
    assert page.evaluate(SEEN) == seen  # the student still sees the rows they were reading
    check(True)
    page.locator("#mask").evaluate("box => { box.click(); box.click(); }")  # two redraws, one frame
    wait_state(page, "s.mask === true")
    page.wait_for_function(f"({SEEN})().length >= 10")
    assert page.evaluate(SEEN) == seen
    across = scroll_grid_across(page, 10 ** 6)  # to the last column
    assert across[-1] == 89 and 0 not in next(iter(drawn_grid(page)[0].values()))
    check(True)
    across = scroll_grid_across(page, 1500)  # the middle, across
    assert 20 < across[0] < 60
    check(True)
    page.locator("#mask").evaluate("box => box.click()")
    wait_state(page, "s.mask === false")
    page.wait_for_function(f"({SEEN})().length >= 10")
    assert page.evaluate(SEEN) == seen and page.evaluate(SEEN_COLUMNS) == across  # still where they were
    check(False)
    page.locator("#mask").evaluate("box => box.click()")
    wait_state(page, "s.mask === true")
    scroll_grid_across(page, 0)
    last = int(page.locator(".row-pick").last.get_attribute("data-row"))  # the window's last row
    page.locator(f'.row-pick[data-row="{last}"]').focus()
    following = last + 1
    page.wait_for_selector(f'.row-pick[data-row="{following}"]', state="attached")  # asked for on focus
    page.keyboard.press("Tab")  # Tab goes on to the next row name, drawn just in time
    assert page.evaluate("document.activeElement.dataset.row") == str(following)
    page.locator('.row-pick[data-row="%d"]' % following).click()
    s = wait_state(page, f"s.focus === {following}")
    assert page.locator("table.heatmap tr.selected").get_attribute("data-row") == str(following)
    assert page.locator(f'.row-pick[data-row="{following}"]').get_attribute("aria-pressed") == "true"
    check_row_against_numpy(page, s)
    page.keyboard.press("PageUp")  # a keyboard user scrolls the box away from the focused row name
    seen = scroll_grid(page, 0)
    assert page.locator("table.heatmap tr.selected").count() == 0  # off the window: no stale mark
    assert page.evaluate("document.activeElement.className") == "heatmap-wrap"  # focus stays in the grid
    page.locator(f'.row-pick[data-row="{seen[3]}"]').focus()
    page.evaluate("dispatchEvent(new Event('beforeprint'))")
    page.wait_for_function("document.querySelectorAll('table.heatmap tr[data-row]').length === 90")  # the engine's answer
    printed = drawn_grid(page)[0]
    assert sorted(printed) == list(range(90)) and all(sorted(row) == list(range(90)) for row in printed.values())
    page.evaluate("dispatchEvent(new Event('afterprint'))")
    page.wait_for_function("document.querySelectorAll('table.heatmap tr[data-row]').length < 90")
    assert len(drawn_grid(page)[0]) < 90 and page.evaluate(SEEN) == seen  # printing moved nothing
    assert page.evaluate("document.activeElement.dataset.row") == str(seen[3])
    context.close()
