"""Attention Explorer in the browser: read the controls, compute, write HTML, publish state.

The only module that touches the DOM. Events are caught on #app (its regions are
re-rendered, so handlers live where events bubble to): `change` is a dispatch over the
settings schema (a control named after a setting changes that setting: a word or a view
only re-reads the record, anything else recomputes it); `input` moves the temperature
live; `submit` for the sentence box; `click` for the matrix's row headers, reset and the
share buttons. Editable cells (name="cell") commit on change and Enter and cancel on
Escape without redrawing the editor, so Tab moves on as the student expects; matrix
mode's boxes apply with "Compute", "Random" or an example; "Swap" exchanges two words.
A host page may also send `attention:set` messages (see README). Every
render ends in `publish(record)`: the state JSON in #attention-state, `data-state` on
<html>, the URL (history.replaceState, in a task just after) and, when framed, an
`attention:state` message to the parent. A word click redraws only what shows the row
(the bars and the table changed in place, `_patch`); a long text's heatmap draws the
window of rows its box shows, moved as the box scrolls (views/heatmap.py).
"""

import gc
import inspect
import json
import time
import traceback

import js
from pyodide.ffi import create_proxy, to_js
from pyscript import document, window

from app import contract, export, lexicon, matrices, order, render, settings as schema, widgets
from app.i18n import LANGS, PRESETS, short, text
from app.quiz import Session
from app.views import heatmap, matrix_mode
from app.views.controls import pos_value, temperature_value

# The browser-side helpers (static/page.js): each does in one browser call what would cost a
# call per element or per event from Python. This page's own (`js` is the widget's window).
_helpers = js.attentionExplorer.page


class _Lexicons(dict):
    """Lexicons loaded on first use: the second language costs nothing until it is chosen."""

    def __missing__(self, lang):
        self[lang] = lexicon.load_lexicon(lang)
        return self[lang]


_lexicons = _Lexicons()
_settings = None  # settings.Settings shown now
_tokens = []  # lexicon.Token list the page shows (edited cards; matrix mode: k1, k2, …)
_lexicon_tokens = []  # the sentence's tokens with the lexicon's cards
_compare = ("", "weights")  # matrix mode: what the student typed to compare, and with which step
_record = None  # attention.Attention: the whole matrix for the shown sentence and settings
_row = None  # the selected word's row of _record, or None
_framed = not getattr(js.Object, "is")(window.parent, window)
_quiz = Session()  # guess first: this tab's score and the guess for the selected word (never sent)
_address = ("", ())  # the page's origin + path, and its query's pairs that are no setting (read at start)
_url_timer = None  # the pending write of the address, if any
_url_written = -1e9  # when the address was last written (time.monotonic())
URL_EVERY = 0.1  # s: the address is written at most this often (browsers throttle replaceState)
_shown = {}  # element id -> its proxy, for the elements a word click updates (reset on redraw)
_messages_html = None  # what #messages shows now (None: unknown)
_said_ready = None  # "ready" once <html data-state> says so
GRID_MARGIN = 8  # rows of a long grid drawn above and below what its box shows (views/heatmap.py)
_grid_key = None  # the long grid's sentence: its scroll position is kept while this stays
_grid_scroll = 0  # the grid box's scroll position (px) when the analysis was last redrawn
_grid_row_px = 38.0  # a grid row's height as last measured (px)
LATER_FROM = heatmap.WINDOW  # a text of more words: a setting change draws its bars and table off screen later
_drawn = {}  # row part (render.ROW_PARTS) -> the row its element shows
_later = None  # the pending idle call of `_catch_up` (its id), if any
_busy = set()  # row parts marked aria-busy (behind the selected row)


def _region(name):
    return document.getElementById(name)


def _element(name):
    """The element with id `name`, looked up once until the next redraw of the analysis."""
    element = _shown.get(name)
    if element is None:
        element = _shown[name] = _region(name)
    return element


def _set_messages(notes=()):
    """Show these notes and the lexicon's problems (the DOM is touched only on a change)."""
    global _messages_html
    problems = _lexicons[_settings.lang].problems
    html = render.render_messages(list(notes), problems, _settings.lang)
    if html != _messages_html:
        _messages_html = html
        _region("messages").innerHTML = html


def _render(settings, tokens, regions, notes=()):
    """Compute the record for `settings` and redraw the named regions ("all", "sentence",
    "editor") and the analysis. `tokens`: the sentence's, with the lexicon's cards."""
    global _settings, _tokens, _lexicon_tokens, _record, _row
    _settings, _lexicon_tokens = settings, tokens
    _record = contract.compute(settings, tokens)
    _row = contract.selected_row(settings, _record)
    tokens = _tokens = contract.shown_tokens(settings, tokens, _record)
    lang = settings.lang
    if "all" in regions:
        document.documentElement.lang = lang
        document.title = text(lang, "title")
        _region("header").innerHTML = render.render_header(lang)
        _region("controls").innerHTML = render.render_controls(settings)
        _region("share").innerHTML = render.render_share(lang)
        _region("status").querySelector(".status-text").textContent = text(lang, "ready")
        _said_live(lang)
    if settings.mode == "matrix" and "sentence" in regions:  # new Q, K: the mask may (not) apply
        _region("controls").innerHTML = render.render_controls(settings)
    if "all" in regions or "sentence" in regions:
        _region("sentence").innerHTML = render.render_words(settings, tokens, _record)
        _region("sentence-input").value = settings.text
        preset = schema.preset_index(settings.sentence, lang)
        _region("preset").value = "" if preset is None else str(preset)
    if regions:
        _region("editor").innerHTML = render.render_edits(settings, tokens, _record, True,
                                                          [t.card for t in _lexicon_tokens])
    _show_analysis()
    if settings.mode == "matrix" and _compare[0]:
        _show_compare(*_compare)
    _set_messages(notes)
    publish(_record)


def _said_live(lang):
    """The note under the status says that every number is now computed live."""
    note = _region("status-note")
    if note is not None and note.textContent != text(lang, "ready_note"):
        note.style.minHeight = f"{note.offsetHeight}px"  # (a shorter text moves nothing below it)
        note.textContent = text(lang, "ready_note")


def _quiz_on():
    """The tab's quiz session when guess-first is on, else None."""
    return _quiz if _settings.quiz else None


def _show_analysis():
    """Redraw the analysis of the selected row (with guess-first: the question until a
    guess) and say it in the live region. A long grid keeps its scroll position while the
    sentence stays (a setting change redraws it where the student was looking); a long
    text's bars and table off screen are drawn when the browser is idle (`_watch_parts`)."""
    global _grid_key, _grid_scroll
    _quiz.follow(_row)
    _shown.clear()
    analysis = _region("analysis")
    key = (_settings.mode, _settings.text, _record.n_q if _record is not None else 0)
    wrap = analysis.querySelector(".heatmap-wrap")
    _grid_scroll = (getattr(wrap, "pendingScroll", None) or wrap.scrollTop) if wrap and key == _grid_key else 0
    _grid_key = key
    later = _later_on_redraw()
    if later:
        later_ids = to_js([render.ROW_PARTS[name] for name in later])
        heights = _part_heights(later_ids)
    analysis.innerHTML = render.render_analysis(_settings, _tokens, _record, _row, quiz=_quiz_on(),
                                                grid_first=_grid_first(_grid_scroll), later=later)
    if later:
        _hold_parts(later_ids, heights)
    table = analysis.querySelector("table.heatmap")
    if table and table.tBodies[0].firstElementChild.classList.contains("gap"):
        _grid_fit(table, _grid_row_px, _grid_scroll)
    analysis.dataset.view = _settings.view
    _track_parts(analysis, later)
    _region("announce").textContent = render.row_announcement(_row, _tokens, _settings.lang, _quiz_on())


# A long grid's window (views/heatmap.py), in one browser call each (static/page.js).
_grid_fit = _helpers.gridFit
_grid_move = _helpers.gridMove

# Scrolling a long grid's box, or Tab onto a row header near the drawn window's edge, asks
# Python for more rows only when needed (static/page.js).
_grid_watch = _helpers.gridWatch


# An embedded widget's grid tab shown again: a synthetic scroll lets `_grid_watch` look.
_grid_shown = _helpers.gridShown


def _grid_first(scroll):
    """The first row of a long grid's window for its box scrolled to `scroll` (px)."""
    return max(0, int(scroll / _grid_row_px) - GRID_MARGIN)


def _move_grid(table, start, stop):
    """Draw rows start…stop of the long grid `table`: the drawn rows that stay are kept, the
    missing ones drawn above and below them (or all anew when none stays)."""
    drawn = int(table.dataset.start), int(table.dataset.stop)
    if (start, stop) == drawn:
        return
    if start >= drawn[1] or stop <= drawn[0]:  # no row stays
        head, tail = (start, stop), (stop, stop)
    else:
        head, tail = (start, max(start, drawn[0])), (min(stop, drawn[1]), stop)
    rows = [render.heatmap_more(_settings, _tokens, _record, a, b) if b > a else "" for a, b in (head, tail)]
    _grid_move(table, start, stop, rows[0], rows[1], _grid_row_px)


def _grid_rows_needed(first, count, row_px):
    """The long grid's box shows rows first…first+count: draw the window around them."""
    global _grid_row_px
    table = _region("analysis").querySelector("table.heatmap")
    if table is None or _record is None:
        return
    _grid_row_px = float(row_px)
    size = max(heatmap.WINDOW, int(count) + 2 * GRID_MARGIN)
    _move_grid(table, *heatmap.window_of(_record.n_q, int(first) - GRID_MARGIN, size))


_grid_printed = None  # the grid box's scroll position while the whole grid is out for printing


def _print_grid(whole):
    """Printing shows a long grid whole (the rows drawn stay, the others are added around
    them); afterwards, the window the box shows again."""
    def run(*_):
        global _grid_printed
        if whole:  # the row views left for later (`_watch_parts`) are printed up to date
            _catch_up()
        table = _region("analysis").querySelector("table.heatmap")
        if table is None or _record is None or not table.tBodies[0].querySelector("tr.gap"):
            return
        n = _record.n_q
        if whole:
            _grid_printed = table.parentElement.scrollTop
            _move_grid(table, 0, n)
        elif _grid_printed is not None and table.dataset.stop == str(n) and table.dataset.start == "0":
            _move_grid(table, *heatmap.window_of(n, _grid_first(_grid_printed)))
            table.parentElement.scrollTop = _grid_printed
            _grid_printed = None
    return run


def _task(work):
    """`work` as a callback for the browser (setTimeout, `_grid_watch`), given the
    callback's arguments: an unexpected error shows one line."""
    def run(*args):
        try:
            work(*args)
        except Exception as error:  # noqa: BLE001 - the page must survive anything
            _show_error(error)
    return create_proxy(run)


_grid_scrolled = _task(_grid_rows_needed)


def _select_row(i, checked=False):
    """Select word i: only read row i of the record there is (no recomputation) and
    redraw the parts that show the row (those on screen now, the others later: `_watch_parts`);
    the heatmap only moves its highlight.
    `checked`: the word's radio button is checked already (the student clicked it)."""
    global _settings, _row
    if _record is None or not 0 <= i < _record.n_q:
        return
    if _settings.quiz:  # guess first: the question of the new word, its answer hidden
        _settings, _row = _settings.copy(focus=i), _record.row(i)
        _show_analysis()
        _check_word(i, checked)
        _set_messages()
        publish(_record)
        return
    if _row is None or _element("view-bars") is None:
        _render(_settings.copy(focus=i), _lexicon_tokens, ())
        return
    before_focus = _row.focus
    _settings = _settings.copy(focus=i)
    _row = _record.row(i)
    lang = _settings.lang
    later = _off_screen()
    _update_parts([name for name in render.ROW_PARTS if name not in later])
    if later:
        _wait_for_idle(later)
    _mark_heatmap_row(before_focus, False)
    _mark_heatmap_row(i, True)
    _check_word(i, checked)
    _element("announce").textContent = render.row_announcement(_row, _tokens, lang)
    _set_messages()
    publish(_record)


def _track_parts(analysis, later=()):
    """The analysis was just drawn: every row part shows the selected row, but those in
    `later` (drawn empty, to be drawn whole when the browser is idle); watch which are on
    screen (`_watch_parts`)."""
    _drawn.clear()
    _busy.clear()
    _drawn.update(dict.fromkeys(render.ROW_PARTS, _row))
    _drawn.update(dict.fromkeys(later))
    _watch_parts(analysis, _PART_IDS, _caught_up)
    if later:
        _wait_for_idle(later)


def _behind(names):
    """Those of the row parts `names` whose element shows another row than the selected one."""
    return [name for name in names if _drawn.get(name, _row) is not _row and _element(render.ROW_PARTS[name])]


def _update_parts(names):
    """Bring the row parts `names` (render.ROW_PARTS) up to the selected row: the bars and
    the table changed in place from the row each shows, the others drawn anew."""
    lang = _settings.lang
    names = _behind(names)
    if not names:
        return
    changes = render.row_changes({name: _drawn[name] for name in names if _drawn[name] is not None},
                                 _row, _tokens, lang)
    for name, change in list(changes.items()):
        if not _patch(_element(render.ROW_PARTS[name]), json.dumps(change)):
            del changes[name]  # not the shape expected: drawn whole below
    skip = set(changes) | set(render.ROW_PARTS).difference(names)
    for name, html in render.render_row_views(_row, _tokens, lang, skip=skip).items():
        _redraw_part(_element(render.ROW_PARTS[name]), html)
    for name in names:
        if name in _busy:
            _busy.discard(name)
            _release_part(_element(render.ROW_PARTS[name]))
        _drawn[name] = _row


# A word click updates at once the row views the student sees, and leaves those off screen
# (or on a hidden tab of an embedded widget) for when the browser is idle after the frame:
# at 200 words the bars and the steps table are ~2,000 numbers, most of the click's work.
# A setting change on a long text likewise draws those two empty when they are off screen
# (`_later_on_redraw`). They are marked aria-busy until then; they are brought up to date
# sooner when they come on screen, when a tab shows them, and before printing
# (`_catch_up`). Clicks that come before the browser is idle leave them to be updated once.
_watch_parts = _helpers.watchParts
# (static/page.js: a part drawn empty keeps its height until drawn; one drawn anew keeps the
# focus inside it; what the student looks at stays in place; idle callbacks)
_part_heights = _helpers.partHeights
_hold_parts = _helpers.holdParts
_redraw_part = _helpers.redrawPart
_place = _helpers.place
_keep_place = _helpers.keepPlace
_release_part = _helpers.releasePart
_parts_off = _helpers.partsOff
_idle = _helpers.idle
_idle_cancel = _helpers.idleCancel


def _later_on_redraw():
    """The bars and the table of a long text, when off screen (as their elements were last
    observed): a redraw (a setting change) leaves them empty, drawn when the browser is
    idle (`_watch_parts`). They are the two views that grow with the text."""
    if (_record is None or _row is None or _settings.quiz or _settings.mode == "matrix"
            or _record.n_k <= LATER_FROM):
        return ()
    return tuple(name for name in _off_screen() if name in ("bars", "table"))


def _off_screen():
    """The row parts whose element is off screen now (as last observed)."""
    off = set(_parts_off(_PART_IDS))
    return [name for name, id_ in render.ROW_PARTS.items() if id_ in off]


def _wait_for_idle(names):
    """Mark the parts `names` as behind the selected row, and bring them up to date when
    the browser is idle (`_catch_up`)."""
    global _later
    for name in names:
        element = _element(render.ROW_PARTS[name])
        if element and _drawn.get(name) is not _row and name not in _busy:
            element.setAttribute("aria-busy", "true")
            _busy.add(name)
    if _later is None:
        _later = _idle(_caught_up)


def _catch_up(*_):
    """Bring every row part behind the selected row up to date (see `_watch_parts`)."""
    global _later
    if _later is not None:  # (called sooner: the idle call is not needed any more)
        _idle_cancel(_later)
        _later = None
    names = _behind(render.ROW_PARTS)
    if names:
        place = _place(_region("analysis"))
        _update_parts(names)
        _keep_place(place)


_caught_up = _task(_catch_up)
_PART_IDS = to_js(list(render.ROW_PARTS.values()))


# Changes in place, in one call (render.row_changes' lists; static/page.js): False when the
# page is not as they expect, and the part is then drawn whole.
_patch = _helpers.patch


def _check_word(i, checked):
    if not checked:
        radio = _region("sentence").querySelector(f'input[name="word"][value="{i}"]')
        if radio and not radio.checked:
            radio.checked = True


def _mark_heatmap_row(i, selected):
    """Highlight row i of the heatmap (or not), and say so on its row header button (a
    row outside a long grid's window is drawn with its mark when it comes in)."""
    table = _element("view-heatmap")
    tr = table and table.querySelector(f'table.heatmap tr[data-row="{i}"]')
    if tr:
        if selected:  # (as drawn: a row has no other class)
            tr.setAttribute("class", "selected")
        else:
            tr.removeAttribute("class")
        tr.cells[0].firstElementChild.setAttribute("aria-pressed", "true" if selected else "false")


def _page_url(embed=None, quiz=None):
    """This page's address for the current state; `embed` True/False adds/removes embed=1;
    `quiz` True: with guess-first on (an exercise link). Written in Python (no browser
    call): the address's other parameters were read once at start."""
    base, others = _address
    settings = _settings if quiz is None else _settings.copy(quiz=quiz)
    return base + "?" + schema.page_query(settings, others, embed)


def _write_url():
    """Put the current state in the address bar (history.replaceState)."""
    global _url_timer, _url_written
    _url_timer = None
    _url_written = time.monotonic()
    window.history.replaceState(None, "", _page_url())


_write_url_later = _task(_write_url)


def _schedule_url():
    """Write the address in a task of its own, after the click's own work, and at most
    every URL_EVERY seconds: a burst of clicks (arrow keys through 200 words) writes it
    once, the last state (browsers ignore replaceState past ~100 calls in 10 s). Copy
    buttons build the address themselves, so they are never behind."""
    global _url_timer
    if _url_timer is None:
        wait = max(0.0, URL_EVERY - (time.monotonic() - _url_written))
        _url_timer = js.setTimeout(_write_url_later, int(wait * 1000))


# Posts a message to the host page from this page's own JavaScript: the host tells widgets
# apart by the window whose code posts it (static/page.js).
_tell_host = _helpers.tellHost


def publish(record, payload=None):
    """Publish the state of `record` (the one on screen); `payload` is its JSON when the
    caller has it already. The address follows in a task of its own (`_schedule_url`)."""
    payload = payload or contract.state_json_of(_settings, _tokens, record, _quiz)
    _element("attention-state").textContent = payload
    global _said_ready
    if not _said_ready:
        document.documentElement.dataset.state = _said_ready = "ready"
    _schedule_url()
    if _framed:
        _tell_host('{"type": "attention:state", "state": ' + payload + "}")


def _show_sentence(sentence):
    """Show a new sentence (switches kept; an example starts with its word selected). On
    bad input keep the old sentence on screen and say why; the box keeps the text."""
    lang = _settings.lang
    tokens, problem = schema.check_sentence(sentence, _lexicons[lang], _settings.limit)
    if tokens is None:
        _settings.text = sentence
        _set_messages([problem])
        return False
    focus = schema.preset_focus(sentence, lang)
    _render(_settings.copy(sentence=sentence, text=sentence, focus=focus), tokens, ("sentence",))
    return True


def _show_error(error):
    global _messages_html
    js.console.error(traceback.format_exc())
    _messages_html = None
    lang = _settings.lang if _settings else "it"
    _region("messages").innerHTML = render.render_messages(
        [schema.Note("error_handler", level="error", error=type(error).__name__)], (), lang)


def guarded(handler):
    """Run a handler (plain or async); on an unexpected error show one line and keep the
    page working. Plain handlers stay plain: they must call preventDefault() in time."""
    if inspect.iscoroutinefunction(handler):
        async def run(event):
            try:
                await handler(event)
            except Exception as error:  # noqa: BLE001 - the page must survive anything
                _show_error(error)
    else:
        def run(event):
            paused = gc.isenabled()
            if paused:  # see _collect_later
                gc.disable()
            try:
                handler(event)
            except Exception as error:  # noqa: BLE001 - the page must survive anything
                _show_error(error)
            finally:
                if paused:
                    _timers.setTimeout(_collect_later, 0)

    run.__name__ = handler.__name__
    return run


# A setting change at 200 words makes some 200,000 numbers in lists: Python's collector
# would run dozens of times inside the handler, and now and then walk every object
# (~25 ms at once). It is paused while a plain handler runs and resumed in a task of its
# own, after the new numbers are on screen: the same collections, out of the student's way.
_collect_later = create_proxy(lambda *_: gc.enable())
# Whose timer resumes it: the frame of this Python (app/widgets.py sets it for a page this
# Python runs in another widget's frame, which may go first).
_timers = js


def _apply(setting, value):
    """A control changed `setting` to `value`: recompute, or only re-read the record."""
    global _settings
    if setting.attr == "focus":
        _select_row(value)
    elif setting.attr == "mode":
        _render(schema.switch_mode(_settings, value), _lexicon_tokens, ("all",))
    elif setting.recompute:
        regions = ("editor",) if setting.attr == "head" else ()
        _render(_settings.copy(**{setting.attr: value}), _lexicon_tokens, regions)
    else:  # the view an embedded widget shows: nothing to compute or redraw
        _settings = _settings.copy(**{setting.attr: value})
        _catch_up()
        _region("analysis").dataset.view = value
        if value == "heatmap":
            _grid_shown(_region("analysis"))
        publish(_record)


@guarded
def on_change(event):
    """The dispatch: a control named after a setting of the schema changes that setting."""
    target = event.target
    name = target.name
    if name == "preset" and target.value != "":
        _show_sentence(PRESETS[_settings.lang][int(target.value)][0])
    elif name == "lang" and target.value in LANGS and target.value != _settings.lang:
        settings, tokens = schema.switch_language(_settings, target.value, _lexicons)
        _render(settings, tokens, ("all",))
        document.querySelector(f'input[name="lang"][value="{settings.lang}"]').focus()
    elif name == "word":
        _select_row(int(target.value), checked=True)
    elif name == "cell":
        _commit_cell(target)
    elif name == "mm-example" and target.value != "":
        _, q, k, v = matrices.EXAMPLES[int(target.value)]
        _render(_settings.copy(q=q, k=k, v=v, seed=None, focus=0), _lexicon_tokens, ("sentence",))
        _region("mm-example").focus()
    elif name in schema.BY_CONTROL and name != "lang":
        setting = schema.BY_CONTROL[name]
        try:
            value = setting.from_control(target)
        except schema.Bad:
            return
        if value != getattr(_settings, setting.attr):
            _apply(setting, value)


@guarded
def on_input(event):
    """The temperature follows the slider live (bars, heatmap and table)."""
    target = event.target
    if target.name in _SLIDERS:
        setting = schema.BY_CONTROL[target.name]
        value = setting.from_control(target)
        said = _SLIDERS[target.name](value, _settings.lang)
        _region(target.name + "-value").textContent = said
        target.setAttribute("aria-valuetext", said)
        if value != getattr(_settings, setting.attr):
            _apply(setting, value)


_SLIDERS = {"temp": temperature_value, "pos": pos_value}  # sliders that follow live, and what they say

# `input` and `click` reach Python only from the targets that need them (static/page.js).
_for_targets = _helpers.forTargets


@guarded
def on_keydown(event):
    """Enter toggles a switch (native checkboxes only take Space)."""
    target = event.target
    if event.key == "Enter" and getattr(target, "type", None) == "checkbox":
        event.preventDefault()
        target.click()
    elif getattr(target, "name", None) == "cell" and event.key == "Enter":
        event.preventDefault()
        _commit_cell(target)
    elif getattr(target, "name", None) == "cell" and event.key == "Escape":
        event.preventDefault()
        target.value = target.dataset.value
        _cell_problem(target, None)


def _cell_problem(cell, message):
    """Mark a cell invalid with `message` (the text typed stays), or clear the mark."""
    if message is None:
        cell.removeAttribute("aria-invalid")
        cell.removeAttribute("aria-describedby")
        _region("edit-message").textContent = ""
    else:
        cell.setAttribute("aria-invalid", "true")
        cell.setAttribute("aria-describedby", "edit-message")
        _region("edit-message").textContent = message


def _commit_cell(cell):
    """Enter, Tab or leaving a cell: a good number recomputes at once (the editor stays,
    so focus moves on as the student asked); a bad one keeps its text and says why."""
    lang = _settings.lang
    matrix, r, c = cell.dataset.matrix, int(cell.dataset.r), int(cell.dataset.c)
    try:
        value = matrices.parse_cell(cell.value)
    except matrices.Unreadable as problem:
        _cell_problem(cell, text(lang, problem.key, **problem.params) + " "
                      + text(lang, "cell_kept", value=cell.dataset.value))
        return
    _cell_problem(cell, None)
    current = [t.card for t in _tokens] if matrix == "cards" else getattr(_record, matrix)
    if value == current[r][c]:
        cell.value = cell.dataset.value
        return
    edited = tuple(tuple(value if (i, j) == (r, c) else float(x) for j, x in enumerate(row))
                   for i, row in enumerate(current))
    _render(_settings.copy(**{matrix: edited}), _lexicon_tokens, ())
    if matrix == "cards":  # the cards under the words follow
        _region("sentence").innerHTML = render.render_words(_settings, _tokens, _record)
    shown = short(value, lang, 6)
    cell.dataset.value = cell.value = shown
    changed = value != float(cell.dataset.designed)
    cell.classList.toggle("edited", changed)
    cell.nextElementSibling.textContent = "✎" if changed else ""
    cell.setAttribute("aria-label", cell.dataset.label + (f" ({text(lang, 'edited_mark')})" if changed else ""))


def _matrix_boxes():
    """Read the Q, K, V boxes: ({name: matrix or None}, {name: message}) (empty box: None)."""
    lang = _settings.lang
    found, problems = {}, {}
    for name in matrix_mode.INPUTS:
        typed = _region("mm-" + name).value
        if not typed.strip() and name != "q":
            found[name] = None
            continue
        try:
            found[name] = matrices.parse(typed)
        except matrices.Unreadable as problem:
            message = text(lang, problem.key, **problem.params)
            if "row" in problem.params and problem.key.startswith("cell_"):
                message = text(lang, "matrix_in_row", row=problem.params["row"], message=message)
            problems[name] = message
    if not problems:
        shape = matrices.shape_problem(*matrices.resolve(found["q"], found["k"], found["v"]))
        if shape is not None:
            problems["k" if shape.key == "shape_qk" else "v"] = text(lang, shape.key, **shape.params)
    return found, problems


def _apply_boxes():
    """'Compute': the typed Q, K, V replace the matrices; any problem is said beside its box
    (the text stays, nothing is recomputed)."""
    found, problems = _matrix_boxes()
    for name in matrix_mode.INPUTS:
        box, message = _region("mm-" + name), problems.get(name)
        _region(f"mm-{name}-message").textContent = message or ""
        if message:
            box.setAttribute("aria-invalid", "true")
        else:
            box.removeAttribute("aria-invalid")
    if problems:
        _region("mm-" + next(n for n in matrix_mode.INPUTS if n in problems)).focus()
        return
    focus = _settings.focus if _settings.focus is not None and _settings.focus < len(found["q"]) else 0
    _render(_settings.copy(q=found["q"], k=found["k"], v=found["v"], seed=None, focus=focus),
            _lexicon_tokens, ("sentence",))
    _region("mm-apply").focus()


def _swap(a, b):
    """Swap words a and b of the sentence; say whether the weights just moved with them."""
    before, words = _record, [t.text for t in _lexicon_tokens]
    if a == b or before is None:
        return
    sentence = " ".join(order.swapped(words, a, b))
    tokens, problem = schema.check_sentence(sentence, _lexicons[_settings.lang], _settings.limit)
    if tokens is None or len(tokens) != len(words):
        _set_messages([problem] if problem else [])
        return
    focus = _settings.focus
    focus = None if focus is None else order.permutation(len(words), a, b)[focus]
    # the cards travel with their words (the lexicon might read a moved capital otherwise)
    cards = tuple(tuple(c) for c in order.swapped([t.card for t in _tokens], a, b))
    _render(_settings.copy(sentence=sentence, text=sentence, focus=focus, cards=cards), tokens, ("sentence",))
    said = text(_settings.lang, order.verdict(before, _record, a, b), a=words[a], b=words[b])
    _region("swap-a").value, _region("swap-b").value = str(a), str(b)
    _region("order-result").textContent = said
    _region("swap").focus()


def _show_compare(typed, step):
    """Mark the typed matrix's cells against the page's step (kept across recomputes)."""
    global _compare
    _compare = (typed, step)
    _region("cmp-text").value = typed
    _region("cmp-step").value = step
    _region("compare-result").innerHTML = matrix_mode.compare(_record, typed, step, _settings.lang)


def _take_guess():
    """The guess form was sent: score the guess and reveal the answer (or ask for a word)."""
    picked = document.querySelector('input[name="guess"]:checked')
    if not picked or _row is None:
        _region("guess-status").textContent = text(_settings.lang, "quiz_need_guess")
        first = document.querySelector('input[name="guess"]')
        if first:
            first.focus()
        return
    pct = _region("guess-pct").value
    _quiz.take_guess(_row, int(picked.value), int(pct) if pct.isdigit() else None)
    _show_analysis()
    publish(_record)
    _region("next-word").focus()


def _next_word():
    """Guess first: go on to the next word that has someone to look at."""
    n = _record.n_q
    start = -1 if _row is None else _row.focus
    for step in range(1, n + 1):
        i = (start + step) % n
        if any(_record.candidates[i]):
            _select_row(i)
            break
    first = document.querySelector('input[name="guess"]')
    if first:
        first.focus()


@guarded
def on_submit(event):
    event.preventDefault()
    if event.target.id == "guess-form":
        _take_guess()
    elif _show_sentence(_region("sentence-input").value):
        first = document.querySelector('input[name="word"]')
        if first:
            first.focus()


def _share_status(message):
    _region("share-status").textContent = message


async def _copy(value):
    """Put `value` in the visible box, selected, and try the clipboard (two ways)."""
    area = _region("share-text")
    area.hidden = False
    area.value = value
    area.focus()
    area.select()
    lang = _settings.lang
    try:
        await window.navigator.clipboard.writeText(value)
        _share_status(text(lang, "copied"))
        return
    except Exception:  # noqa: BLE001 - no clipboard permission (e.g. inside an LMS iframe)
        pass
    try:
        copied = bool(document.execCommand("copy"))
    except Exception:  # noqa: BLE001
        copied = False
    _share_status(text(lang, "copied" if copied else "copy_manual"))


def _download(data, name):
    options = to_js({"type": "text/csv;charset=utf-8"}, dict_converter=js.Object.fromEntries)
    blob = js.Blob.new(to_js([data]), options)
    url = js.URL.createObjectURL(blob)
    link = document.createElement("a")
    link.href = url
    link.download = name
    document.body.appendChild(link)
    link.click()
    link.remove()
    js.setTimeout(create_proxy(lambda: js.URL.revokeObjectURL(url)), 1000)
    _share_status(text(_settings.lang, "downloaded", file=name))


@guarded
async def on_click(event):
    button = event.target.closest("button")
    if not button or button.type != "button":
        return
    if button.id == "copy-link":
        await _copy(_page_url(embed=False))
    elif button.id == "copy-embed":
        await _copy(export.embed_snippet(_page_url(embed=True), _settings.lang))
    elif button.id == "copy-exercise":
        await _copy(_page_url(embed=False, quiz=True))
    elif button.id == "copy-exercise-embed":
        await _copy(export.embed_snippet(_page_url(embed=True, quiz=True), _settings.lang))
    elif button.id == "next-word" and _record is not None:
        _next_word()
    elif button.id == "quiz-reset-score":
        _quiz.reset_score()
        _show_analysis()
        publish(_record)
        _region("quiz-reset-score").focus()
        _region("announce").textContent = text(_settings.lang, "quiz_score_reset")
    elif button.id == "export-csv" and _row is not None:
        _download(export.steps_csv(_row, _tokens, _settings.lang),
                  export.csv_filename(_tokens, _row, _settings.lang))
    elif button.id == "export-matrix" and _record is not None:
        _download(export.matrix_csv(_record, _tokens, _settings.lang),
                  export.matrix_filename(_settings.lang))
    elif button.id == "reset-edits":
        _render(_settings.copy(w_q=None, w_k=None, w_v=None, cards=None), _lexicon_tokens, ("sentence",))
        _region("reset-edits").focus()
    elif button.id == "swap":
        _swap(int(_region("swap-a").value), int(_region("swap-b").value))
    elif button.id == "mm-apply":
        _apply_boxes()
    elif button.id == "mm-random":
        seed = int(js.Math.floor(js.Math.random() * (schema.SEED_MAX + 1)))
        _render(_settings.copy(seed=seed, focus=0), _lexicon_tokens, ("sentence",))
        _region("mm-random").focus()
    elif button.id == "cmp-go":
        _show_compare(_region("cmp-text").value, _region("cmp-step").value)
    elif button.id == "reset":
        settings, tokens = schema.reset(_settings, _lexicons)
        _quiz.reset_score()
        _render(settings, tokens, ("all",))
        _region("reset").focus()
    elif button.classList.contains("row-pick"):
        _select_row(int(button.dataset.row))
        picked = document.querySelector(f'.row-pick[data-row="{button.dataset.row}"]')
        if picked:
            picked.focus()


def _apply_host_message(data):
    """Apply an attention:set message (already known to come from our parent)."""
    if hasattr(data, "to_py"):
        data = data.to_py()
    settings, tokens, warnings, notes = schema.host_update(_settings, _lexicon_tokens, data, _lexicons)
    for warning in warnings:
        js.console.warn(warning)
    _render(settings, tokens, ("all",), notes)


@guarded
def on_message(event):
    """`attention:set` from the parent window only; everything else is ignored."""
    if not _framed or not getattr(js.Object, "is")(event.source, window.parent):
        return
    data = event.data
    if getattr(data, "type", None) == "attention:set":
        _apply_host_message(data)


def start():
    """First render from the URL, then any host messages that arrived while Python was
    loading (queued by static/boot.js).

    Without state in the URL the pre-rendered page is already exactly what we would draw
    (a test keeps it so; the state JSON is compared to be sure), so the controls are only
    enabled: no redraw, no layout shift.
    """
    global _settings, _tokens, _lexicon_tokens, _record, _row, _address
    location = window.location
    pairs = [tuple(pair) for pair in js.URLSearchParams.new(location.search).entries()]
    _address = (location.origin + location.pathname, pairs)
    params = {}
    for name, value in pairs:
        params.setdefault(name, []).append(value)
    settings, notes = schema.parse_params(params, _lexicons)
    tokens, _ = schema.check_sentence(settings.sentence, _lexicons[settings.lang], settings.limit)
    record = contract.compute(settings, tokens)
    shown = contract.shown_tokens(settings, tokens, record)
    payload = contract.state_json(contract.build_state(settings, shown, record))
    namespace = getattr(window, "attentionExplorer", None)  # static/boot.js's (docs/DESIGN.md)
    early = getattr(namespace, "early", None) if namespace is not None else None
    # The answers static/early.js gave meanwhile end here: the address then says what the page
    # shows (written by it), and the controls what the student asks for now.
    early = early.stop() if early is not None else None
    early = early.to_py() if hasattr(early, "to_py") else None
    asked = settings.copy(**early["choice"]) if early else settings
    if (not notes and not _lexicons[settings.lang].problems
            and (not any(p in params for p in schema.URL_KEYS) or early and early["shown"])
            and contract.same_state(payload, _region("attention-state").textContent)):
        # (a lexicon edited after the build would differ from the pre-render: full render then)
        _settings, _tokens, _lexicon_tokens, _record = settings, shown, tokens, record
        _row = contract.selected_row(settings, record)
        _track_parts(_region("analysis"))
        for element in document.querySelectorAll("#app [disabled]"):
            element.removeAttribute("disabled")
        _region("status").querySelector(".status-text").textContent = text(settings.lang, "ready")
        _said_live(settings.lang)
        if asked != settings:  # (clicked before the early answers arrived, or with none to give)
            _render(asked, tokens, ())
        else:
            publish(record, payload)
    else:
        _render(asked, tokens, ("all",), notes)
    window.addEventListener("message", create_proxy(on_message))
    for kind, handler in (("change", on_change), ("keydown", on_keydown), ("submit", on_submit)):
        _region("app").addEventListener(kind, create_proxy(handler))
    _region("app").addEventListener("input", _for_targets('input[type="range"]', create_proxy(on_input)))
    _region("app").addEventListener("click", _for_targets('button[type="button"]', create_proxy(on_click)))
    watch = _grid_watch(_grid_scrolled)
    _region("app").addEventListener("scroll", watch, True)
    _region("app").addEventListener("focusin", watch)
    window.addEventListener("beforeprint", create_proxy(guarded(_print_grid(True))))
    window.addEventListener("afterprint", create_proxy(guarded(_print_grid(False))))
    # Everything made so far (modules, the lexicon's ~35,000 entries) lives as long as the
    # page: out of the collector's way, a full collection during a click no longer walks it.
    gc.freeze()
    queued = getattr(namespace, "queue", None) if namespace is not None else None
    if queued:
        for data in queued.to_py(depth=1) if hasattr(queued, "to_py") else []:
            _apply_host_message(data)
        namespace.queue = to_js([])
    widgets.serve(window, _lexicons)
