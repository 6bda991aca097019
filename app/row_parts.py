"""The row views (render.ROW_PARTS: query, bars, table, output, heads…) brought up to the selected
row: those the student sees at once, those off screen once the student pauses.

A word click updates at once the row views on screen, and leaves those off screen (or on a
hidden tab of an embedded widget) for when the student has paused (300 ms without a click,
key or input) and the browser is idle: at 200 words the bars and the steps table are ~2,000
numbers, most of the click's work, and drawing them (a 10,000-px table laid out) would hold
up the next click of a burst. A setting change on a long text likewise draws those two empty
when they are off screen (`later_on_redraw`). They are marked aria-busy until then; they are
brought up to date sooner when they come on screen, when a tab shows them, and before
printing (`catch_up`). The clicks of a burst leave them to be updated once, after it. The browser-side halves are static/page.js's
(watchParts, partHeights, holdParts, redrawPart, place, keepPlace, releasePart, idle,
idleCancel, patch); which parts are off screen comes with each event (app/remote.py).
"""

import json

from app import render
from app.views.path import prose_terms
from app.views import heatmap, registry

LATER_FROM = heatmap.WINDOW  # a text of more words: a setting change draws its bars and table off screen later


class RowParts:
    """Which row each of one widget's row views shows (`page`: its app.page.Page)."""

    def __init__(self, page):
        self.page = page
        self.drawn = {}  # row part -> the row its element shows (None: drawn empty)
        self.later = None  # the pending idle call of `catch_up` (its id), if any
        self.busy = set()  # row parts marked aria-busy (behind the selected row)
        self.caught_up = page.task(self.catch_up)
        self.patch_refused = page.task(self.redraw_whole)

    def track(self, analysis, later=()):
        """The analysis was just drawn: every row part shows the selected row, but those in
        `later` (drawn empty, to be drawn whole when the browser is idle); watch which are on
        screen."""
        row = self.page.row
        self.drawn.clear()
        self.busy.clear()
        self.drawn.update(dict.fromkeys(render.ROW_PARTS, row))
        self.drawn.update(dict.fromkeys(later))
        self.page.helpers.watchParts(analysis, list(render.ROW_PARTS.values()), self.caught_up)
        if later:
            self.wait_for_idle(later)

    def on_page(self):
        """Whether the row views drawn for the settings are on the page, as its event says (or none is
        drawn: a step that shows none), so that a word click brings them up to date in place."""
        settings = self.page.settings
        drawn = [view.element for view in registry.views(settings.mode)
                 if view.row is not None and registry.draws(settings, view)]
        return not drawn or any(self.page.exists(element) for element in drawn)

    def behind(self, names):
        """Those of the row parts `names` whose element shows another row than the selected one."""
        page = self.page
        return [name for name in names
                if self.drawn.get(name, page.row) is not page.row and page.exists(render.ROW_PARTS[name])]

    def update(self, names):
        """Bring the row parts `names` up to the selected row: the bars and the table changed in
        place from the row each shows, the others drawn anew."""
        page = self.page
        lang, helpers = page.settings.lang, page.helpers
        names = self.behind(names)
        if not names:
            return
        changes = render.row_changes({name: self.drawn[name] for name in names if self.drawn[name] is not None},
                                     page.row, page.tokens, lang)
        for name, change in changes.items():
            # (the page's thread calls back when the page is not as the changes expect: the part
            # is then drawn whole, `redraw_whole`)
            helpers.patch(page.element(render.ROW_PARTS[name]), json.dumps(change), self.patch_refused, name)
        skip = set(changes) | set(render.ROW_PARTS).difference(names)
        terms = prose_terms(page.settings, page.tokens)
        for name, html in render.render_row_views(page.row, page.tokens, lang, skip=skip, terms=terms).items():
            helpers.redrawPart(page.element(render.ROW_PARTS[name]), html)
        for name in names:
            if name in self.busy:
                self.busy.discard(name)
                helpers.releasePart(page.element(render.ROW_PARTS[name]))
            self.drawn[name] = page.row

    def redraw_whole(self, name):
        """The page's thread could not change the row part `name` in place: draw it whole."""
        page = self.page
        if page.row is None or name not in render.ROW_PARTS:
            return
        skip = set(render.ROW_PARTS) - {name}
        for part, html in render.render_row_views(page.row, page.tokens, page.settings.lang, skip=skip,
                                                  terms=prose_terms(page.settings, page.tokens)).items():
            page.helpers.redrawPart(page.element(render.ROW_PARTS[part]), html)

    def later_on_redraw(self):
        """The bars and the table of a long text, when off screen (as their elements were last
        observed): a redraw (a setting change) leaves them empty, drawn when the browser is idle.
        They are the two views that grow with the text."""
        page = self.page
        if (page.record is None or page.row is None or page.settings.quiz or page.settings.mode == "matrix"
                or page.record.n_k <= LATER_FROM):
            return ()
        return tuple(name for name in self.off_screen() if name in ("bars", "table"))

    def off_screen(self):
        """The row parts whose element is off screen now (as last observed)."""
        off = self.page.screen.context.off
        return [name for name, id_ in render.ROW_PARTS.items() if id_ in off]

    def wait_for_idle(self, names):
        """Mark the parts `names` as behind the selected row, and bring them up to date when the
        browser is idle (`catch_up`)."""
        page = self.page
        for name in names:
            if page.exists(render.ROW_PARTS[name]) and self.drawn.get(name) is not page.row and name not in self.busy:
                page.element(render.ROW_PARTS[name]).setAttribute("aria-busy", "true")
                self.busy.add(name)
        if self.later is None:
            self.later = page.helpers.idle(self.caught_up)

    def catch_up(self, *_):
        """Bring every row part behind the selected row up to date."""
        helpers = self.page.helpers
        if self.later is not None:  # (called sooner: the idle call is not needed any more)
            helpers.idleCancel(self.later)
            self.later = None
        names = self.behind(render.ROW_PARTS)
        if names:
            place = helpers.place(self.page.region("analysis"))
            self.update(names)
            helpers.keepPlace(place)

    def heights(self, later):
        """Before a redraw that leaves `later` empty: their heights now (kept until drawn)."""
        return self.page.helpers.partHeights([render.ROW_PARTS[name] for name in later])

    def hold(self, later, heights):
        self.page.helpers.holdParts([render.ROW_PARTS[name] for name in later], heights)
        self.page.screen.context.off.update(render.ROW_PARTS[name] for name in later)
