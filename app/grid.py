"""The windowed grid: a long text's heatmap draws the rows and columns its box shows
(views/heatmap.py), moved as the box scrolls or Tab reaches a row header near the window's edge,
whole for printing.

The browser-side halves (static/page.js: gridFit, gridMove, gridWatch, gridShown) each do in
one call what would cost a call per row from Python; this keeps the widget's side of it: which
rows to draw, and where the box was.
"""

from app import render
from app.views import heatmap

MARGIN = 8  # rows drawn above and below what the box shows, columns before and after it


class Grid:
    """One widget's long grid (`page`: its app.page.Page)."""

    def __init__(self, page):
        self.page = page
        self.key = None  # the grid's sentence: its scroll position is kept while this stays
        self.scroll = 0  # the box's scroll position (px) when the analysis was last redrawn
        self.left = 0  # the same, across (px)
        self.column = 0  # the first column the box showed then
        self.row_px = 38.0  # a row's height as last measured (px)
        self.printed = None  # the box's scroll position while the whole grid is out for printing

    def before_redraw(self, analysis):
        """The analysis is about to be drawn anew: the first row and column to draw (a setting
        change keeps the box where the student was looking while the sentence stays)."""
        page = self.page
        key = (page.settings.mode, page.settings.text, page.record.n_q if page.record is not None else 0)
        grid = page.screen.context.grid  # (the box's scroll as the event found it: static/page.js)
        kept = grid and key == self.key
        self.scroll, self.left, self.column = (grid["scroll"], grid["left"], grid["col"]) if kept else (0, 0, 0)
        self.key = key
        return self.first(self.scroll), max(0, self.column - MARGIN)

    def after_redraw(self, analysis):
        """Size the drawn window's gaps to the rows left out, and scroll the box back."""
        # (a grid drawn whole, with no gap rows, is left as it is: static/page.js)
        self.page.helpers.gridFit(analysis.querySelector("table.heatmap"), self.row_px, self.scroll,
                                  self.left, self.column)

    def first(self, scroll):
        """The first row of the window for the box scrolled to `scroll` (px)."""
        return max(0, int(scroll / self.row_px) - MARGIN)

    def move(self, table, start, stop, columns=None):
        """Draw rows start…stop of `table` (of a wide grid, `columns` (c0, c1)): the drawn rows
        that stay are kept, the missing ones drawn above and below them (or all anew when none
        stays, or the columns change)."""
        page = self.page
        grid = page.screen.context.grid
        drawn = grid["start"], grid["stop"]
        same = columns is None or tuple(columns) == (grid["cstart"], grid["cstop"])
        if (start, stop) == drawn and same:
            return
        if not same or start >= drawn[1] or stop <= drawn[0]:  # no row stays
            head, tail = (start, stop), (stop, stop)
        else:
            head, tail = (start, max(start, drawn[0])), (min(stop, drawn[1]), stop)
        rows = [render.heatmap_more(page.settings, page.tokens, page.record, a, b, columns) if b > a else ""
                for a, b in (head, tail)]
        page.helpers.gridMove(table, start, stop, rows[0], rows[1], self.row_px, list(columns) if columns else None)

    def columns_for(self, column, count):
        """A wide grid's columns to draw: the window around column…column+count, or those drawn
        when `column` is None (static/page.js asks for columns only near the drawn ones' edge);
        None for a grid drawn whole across."""
        grid, n = self.page.screen.context.grid, len(self.page.tokens)
        if grid["cstart"] is None:
            return None
        if column is None:
            return grid["cstart"], grid["cstop"]
        return heatmap.window_of(n, int(column) - MARGIN, max(heatmap.COLUMNS, int(count) + 2 * MARGIN))

    def rows_needed(self, first, count, row_px, column=None, columns=None):
        """The box shows rows first…first+count and columns column…column+columns (static/page.js,
        gridWatch; column None: the columns stay): draw the window around them."""
        page = self.page
        table = page.region("analysis").querySelector("table.heatmap")
        if page.screen.context.grid is None or page.record is None:
            return
        self.row_px = float(row_px)
        size = max(heatmap.WINDOW, int(count) + 2 * MARGIN)
        self.move(table, *heatmap.window_of(page.record.n_q, int(first) - MARGIN, size),
                  self.columns_for(column, columns))

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
        n, n_k, wide = page.record.n_q, len(page.tokens), grid["cstart"] is not None
        if whole:
            self.printed = grid["scroll"], grid["col"]
            self.move(table, 0, n, (0, n_k) if wide else None)
        elif self.printed is not None and grid["stop"] == n and grid["start"] == 0:
            scroll, column = self.printed
            self.move(table, *heatmap.window_of(n, self.first(scroll)),
                      heatmap.window_of(n_k, column - MARGIN, heatmap.COLUMNS) if wide else None)
            table.parentElement.scrollTop = scroll
            self.printed = None

    def move_mark(self, before, i):
        """The highlight moves from row `before` to row i, said on their row header buttons too
        (static/page.js, pickRow; a row outside the drawn window is drawn with its mark when it
        comes in)."""
        grid = self.page.element("view-heatmap").querySelector("table.heatmap")
        self.page.helpers.pickRow(grid, before, i)
