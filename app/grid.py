"""The windowed grid: a long text's heatmap draws the rows its box shows (views/heatmap.py), moved
as the box scrolls or Tab reaches a row header near the window's edge, whole for printing.

The browser-side halves (static/page.js: gridFit, gridMove, gridWatch, gridShown) each do in
one call what would cost a call per row from Python; this keeps the widget's side of it: which
rows to draw, and where the box was.
"""

from app import render
from app.views import heatmap

MARGIN = 8  # rows drawn above and below what the box shows


class Grid:
    """One widget's long grid (`page`: its app.page.Page)."""

    def __init__(self, page):
        self.page = page
        self.key = None  # the grid's sentence: its scroll position is kept while this stays
        self.scroll = 0  # the box's scroll position (px) when the analysis was last redrawn
        self.row_px = 38.0  # a row's height as last measured (px)
        self.printed = None  # the box's scroll position while the whole grid is out for printing

    def before_redraw(self, analysis):
        """The analysis is about to be drawn anew: the first row to draw (a setting change keeps
        the box where the student was looking while the sentence stays)."""
        page = self.page
        key = (page.settings.mode, page.settings.text, page.record.n_q if page.record is not None else 0)
        grid = page.screen.context.grid  # (the box's scroll as the event found it: static/page.js)
        self.scroll = grid["scroll"] if grid and key == self.key else 0
        self.key = key
        return self.first(self.scroll)

    def after_redraw(self, analysis):
        """Size the drawn window's gaps to the rows left out, and scroll the box back."""
        # (a grid drawn whole, with no gap rows, is left as it is: static/page.js)
        self.page.helpers.gridFit(analysis.querySelector("table.heatmap"), self.row_px, self.scroll)

    def first(self, scroll):
        """The first row of the window for the box scrolled to `scroll` (px)."""
        return max(0, int(scroll / self.row_px) - MARGIN)

    def move(self, table, start, stop):
        """Draw rows start…stop of `table`: the drawn rows that stay are kept, the missing ones
        drawn above and below them (or all anew when none stays)."""
        page = self.page
        grid = page.screen.context.grid
        drawn = grid["start"], grid["stop"]
        if (start, stop) == drawn:
            return
        if start >= drawn[1] or stop <= drawn[0]:  # no row stays
            head, tail = (start, stop), (stop, stop)
        else:
            head, tail = (start, max(start, drawn[0])), (min(stop, drawn[1]), stop)
        rows = [render.heatmap_more(page.settings, page.tokens, page.record, a, b) if b > a else ""
                for a, b in (head, tail)]
        page.helpers.gridMove(table, start, stop, rows[0], rows[1], self.row_px)

    def rows_needed(self, first, count, row_px):
        """The box shows rows first…first+count (static/page.js, gridWatch): draw the window around them."""
        page = self.page
        table = page.region("analysis").querySelector("table.heatmap")
        if page.screen.context.grid is None or page.record is None:
            return
        self.row_px = float(row_px)
        size = max(heatmap.WINDOW, int(count) + 2 * MARGIN)
        self.move(table, *heatmap.window_of(page.record.n_q, int(first) - MARGIN, size))

    def printing(self, whole):
        """Printing shows the grid whole (the rows drawn stay, the others are added around them);
        afterwards (`whole` False), the window the box shows again."""
        page = self.page
        if whole:  # the row views left for later are printed up to date
            page.parts.catch_up()
        table = page.region("analysis").querySelector("table.heatmap")
        grid = page.screen.context.grid
        if grid is None or page.record is None or not grid["gap"]:
            return
        n = page.record.n_q
        if whole:
            self.printed = grid["scroll"]
            self.move(table, 0, n)
        elif self.printed is not None and grid["stop"] == n and grid["start"] == 0:
            self.move(table, *heatmap.window_of(n, self.first(self.printed)))
            table.parentElement.scrollTop = self.printed
            self.printed = None

    def mark_row(self, i, selected):
        """Highlight row i (or not), and say so on its row header button (a row outside the
        window is drawn with its mark when it comes in)."""
        # (a row outside the drawn window is not on the page: its ops then do nothing)
        tr = self.page.element("view-heatmap").querySelector(f'table.heatmap tr[data-row="{i}"]')
        if selected:  # (as drawn: a row has no other class)
            tr.setAttribute("class", "selected")
        else:
            tr.removeAttribute("class")
        tr.cells[0].firstElementChild.setAttribute("aria-pressed", "true" if selected else "false")
