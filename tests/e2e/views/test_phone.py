"""Every step of every guided path on a 390 px phone, in Italian (the paths read from the registry
when the tests are collected, so a new lab's path is walked with no edit): each visible table of
the step's text and views shows every row to its last cell with nothing to scroll sideways, and no
block keeps empty room it reserved for content drawn later (a section as tall as its content). At
1280 px the same tables are tables (rows laid out as table rows).

One framed widget walks every path: each path's first step comes as an `attention:set` message
(every setting its link sets, tests/path_reference.py `fresh_message`), the next ones by its own
Next button; the frame is made 390 and then 1280 px wide on each step. Axe (WCAG A and AA) looks at
each step at 390 px, where the tables are cards."""

import json

import pytest

from app import settings as schema
from app.lexicon import Lexicons
from app.views import registry
from tests.e2e.conftest import FRAME_POLL_MS, open_host, post, settle, told
from tests.path_reference import fresh_message, step_link

PATHS = {way.id: len(way.steps) for way in registry.paths().values()}
LEXICONS = Lexicons()
PHONE, DESKTOP = 390, 1280
RESERVED = 150  # px a block may be taller than its content (its margins, a border, a line of slack)
# Left out: model mode's grids, one a head, a row and a column for each of the letters (up to 40),
# and the transformer lab's encoder, decoder and alignment grids (a row and a column a word): read in
# their own box, which scrolls both ways with the row names kept at its left.
GRIDS = "table.model-table, table.encdec-table, table.cross-table"

# Every visible table of the step's text (#path) and views (#analysis, #editor), with each section's
# height as the page shows it and as its content makes it. A section skipping its layout while off
# screen (`content-visibility: auto`, static/style.css) is first measured as it is, then laid out.
LOOK = """() => {
    const seen = e => !!e && e.getClientRects().length > 0;
    const width = document.documentElement.clientWidth;
    const blocks = [...document.querySelectorAll('#app section, #analysis [id], #editor, #app *')]
        .filter(e => e.matches('section, [id]') || getComputedStyle(e).contentVisibility === 'auto')
        .filter(seen).filter(e => getComputedStyle(e).display !== 'contents');
    const before = blocks.map(e => e.getBoundingClientRect().height);
    const skipping = [...document.querySelectorAll('#app *')].filter(e => getComputedStyle(e).contentVisibility === 'auto');
    skipping.forEach(e => { e.style.contentVisibility = 'visible'; });
    try {
        const reserved = blocks.map((e, k) => ({name: e.id || e.className, shown: before[k],
                                                 content: e.getBoundingClientRect().height}))
            .filter(b => b.shown > b.content + RESERVED);
        const tables = [...document.querySelectorAll('#path table, #analysis table, #editor table')].filter(seen)
            .filter(t => !t.matches(GRIDS));
        const wide = [], rows = [];
        for (const table of tables) {
            const name = (table.closest('section[id]') || {}).id + ' ' + table.className;
            const wrap = table.closest('.table-wrap, .heatmap-wrap');
            if (wrap && wrap.scrollWidth > wrap.clientWidth + 1)
                wide.push(`${name}: its box scrolls ${wrap.scrollWidth} px in ${wrap.clientWidth}`);
            for (const row of table.rows) {
                const cells = [...row.cells].filter(seen);
                if (!cells.length) continue;
                const right = Math.max(...cells.map(c => c.getBoundingClientRect().right));
                if (right > width + 1)
                    wide.push(`${name}, row «${row.textContent.trim().slice(0, 30)}»: its last cell ends at ${Math.round(right)} px`);
                rows.push(getComputedStyle(row).display);
            }
        }
        return {width, page: document.documentElement.scrollWidth, reserved, wide, tables: tables.length, rows};
    } finally { skipping.forEach(e => { e.style.contentVisibility = ''; }); }
}""".replace("RESERVED", str(RESERVED)).replace("GRIDS", json.dumps(GRIDS))


def at_width(page, frame, width):
    page.evaluate(f"document.querySelector('iframe').width = {width}")
    # (the frame's own width, less a scrollbar's)
    frame.wait_for_function(f"(w => w <= {width} && w > {width - 30})(document.documentElement.clientWidth)",
                            polling=FRAME_POLL_MS)
    frame.wait_for_function("new Promise(r => requestAnimationFrame(() => requestAnimationFrame(() => r(true))))")


@pytest.fixture(scope="module")
def widget(browser, base_url):
    """One framed widget in Italian, 844 px tall, for every path's walk."""
    context, page = open_host(browser, base_url, "./?lang=it", viewport={"width": 1320, "height": 900})
    page.errors = []
    page.on("pageerror", lambda e: page.errors.append(str(e)))
    page.evaluate("document.querySelector('iframe').height = 844")
    yield page, page.frames[1]
    assert page.errors == [] and context.outside.urls == []
    context.close()


@pytest.mark.parametrize("name", list(PATHS))
def test_on_a_phone_every_table_shows_its_rows_whole_and_no_view_holds_empty_room(widget, name):
    """390 px, Italian, each step of the path: every row of every visible table ends inside the
    screen with no box to scroll sideways, no section is more than 150 px taller than what it holds;
    at 1280 px its tables are still laid out as tables. (Axe at 390 px on every step:
    tests/e2e/views/test_every_path.py.)"""
    page, frame = widget
    params = {key: [raw] for key, raw in step_link(name, 1, "it", registry.paths()[name].steps[0].mode)}
    linked, _ = schema.parse_params(params, LEXICONS)
    post(page, frame, json.loads(json.dumps(fresh_message(linked, schema))), 1)
    tables = 0
    for number in range(1, PATHS[name] + 1):
        where = f"{name}, step {number}"
        at_width(page, frame, PHONE)
        seen = frame.evaluate(LOOK)
        assert seen["width"] <= PHONE and seen["page"] <= seen["width"], f"{where}: the page scrolls sideways"
        assert seen["wide"] == [], f"{where}: {seen['wide']}"
        assert seen["reserved"] == [], f"{where}: empty room held: {seen['reserved']}"
        tables += seen["tables"]
        at_width(page, frame, DESKTOP)
        wide = frame.evaluate(LOOK)
        assert set(wide["rows"]) <= {"table-row"}, f"{where}, {DESKTOP} px: rows laid out as {set(wide['rows'])}"
        if number < PATHS[name]:
            sent = told(page)
            frame.locator("#step-next").click()
            settle(page, frame, sent, number + 1)
    assert tables > 0, f"{name}: no table seen on any step"  # (the walk looked at tables)
