"""Attention Explorer in the browser: one `Page` per widget reads its controls, computes, writes
HTML and publishes the state. It runs in the engine, a Web Worker (static/engine.js,
app/engine.py): what it writes on the page goes there as ops (app/remote.py), done by the
page's thread (static/page.js), which also sends it the events.

Where a click goes: static/page.js catches every event on #app (its regions are
re-rendered, so handlers live where events bubble to) and sends it here, where a table
dispatches it:

    change    Page.CHANGES by the control's name (the example list, the language, a word, a
              matrix cell, matrix mode's examples), else a control named after a setting of
              app/settings.py changes that setting (`apply`: a word or a view only re-reads
              the record, anything else recomputes it)
    input     a slider that follows live (SLIDERS), through the same `apply`
    click     Page.CLICKS by the button's id (share, export, reset, swap, matrix mode, the
              quiz), and a heatmap row header
    submit    the sentence box, the guess form
    keydown   Enter and Escape in a matrix cell (Enter on a switch: static/page.js itself)

A host page may also send `attention:set` messages (README). Every render ends in `publish`:
the state JSON in #attention-state, `data-state` on <html>, the address (in a task just after; a
step of a guided path entered or left: a history entry of its own, at once) and, when framed, an
`attention:state` message to the parent. The browser's Back and Forward bring an entry's address
back (`follow_address`), applied as a link is. A word click redraws only what shows the row
(`select_row`; app/row_parts.py). The other ideas live in their own modules: the long grid's
window (app/grid.py), matrix cells, boxes and swaps (app/editing.py), share and export
(app/sharing.py) and guess-first (app/guessing.py). A control a redraw replaces keeps the focus
(static/page.js, keepFocus): no handler here names it.

The only module-level state is none: a second widget (another frame of the lesson page whose
page thread talks to this engine: app/engine.py) is a second Page, with its own Screen.
"""

import gc
import json
import time
import traceback

from app import contract, editing, guessing, heads, labs, lexicon, path, render, settings as schema, sharing
from app.grid import Grid
from app.i18n import LANGS, text
from app.quiz import Session
from app.remote import Context, Helpers
from app.row_parts import LATER_FROM, RowParts
from app.views import editor as editor_view, model as model_view, path as path_view, registry
from app.views.controls import checkpoint_value, slope_said, temperature_value

URL_EVERY = 0.1  # s: the address is written at most this often (browsers throttle replaceState)
# What a message may have to wait for in the browser: a lab's archive, a language's lexicon files.
WAITS = (labs.Needed, lexicon.Needed)
# The controls whose values the page's thread sends with every event (the only ones read by id).
READ = ("sentence-input", "mm-q", "mm-k", "mm-v", "cmp-text", "cmp-step", "swap-a", "swap-b", "guess-pct",
        "package-kind")
# Sliders that follow live, and what they say (the training slider: app/views/model.py).
# A graded exercise (the `lock` setting): the controls and host keys left open (a word, the view
# tab: they show nothing not guessed yet), and the buttons that still act (links, the guess's).
LOCK_OPEN = ("focus", "view", "word")
LOCK_CLICKS = ("copy-link", "copy-embed", "copy-exercise", "copy-exercise-embed", "next-word")
# A slider's name -> its words for a value of it, with the page's settings.
SLIDERS = {"temp": lambda value, settings: temperature_value(value, settings.lang),
           "pos": lambda value, settings: slope_said(settings, value),
           "checkpoint": lambda value, settings: checkpoint_value(value, settings.lang)}


class Page:
    """One widget: its settings, record and what is drawn, and the page it shows in.

    `screen`: the widget's page (app/remote.py: ops out, each event's context in);
    `lexicons`: shared by the widgets of one engine; `timers`: the engine's global scope
    (setTimeout, for the address written after a burst of clicks and the collector resumed).
    """

    def __init__(self, screen, lexicons, timers):
        self.screen = screen
        self.document = screen.element("doc")
        # The page's helpers (static/page.js): each does in one call what would cost an op per
        # element or per event.
        self.helpers = Helpers(screen)
        self.lexicons = lexicons
        self.timers = timers
        self.framed = False  # the page is in a frame (said at start)
        self.embedded = False  # embed=1: the compact widget, which never shows the editor's matrices
        self.settings = None  # settings.Settings shown now
        self.tokens = []  # lexicon.Token list the page shows (edited cards; matrix mode: k1, k2, …)
        self.lexicon_tokens = []  # the sentence's tokens with the lexicon's cards
        self.record = None  # attention.Attention: the whole matrix for the sentence and settings
        self.row = None  # the selected word's row of the record, or None
        self.compare = ("", "weights")  # matrix mode: what the student typed to compare, with which step
        self.quiz = Session()  # guess first: this tab's score and the guess for the selected word (never sent)
        self.address = ("", ())  # the page's origin + path, and its query's pairs that are no setting
        self.url_timer = None  # the pending write of the address, if any
        self.url_written = -1e9  # when the address was last written (time.monotonic())
        # Where the browser's history entry is: the guided path and step of the address it holds
        # (`place`; None: the explorer), False until the start is done (what the start draws,
        # host messages kept meanwhile included, replaces the link's address in its entry).
        self.url_place = False
        self.published = None  # the settings last published (an entry left gets its last state)
        self.messages_html = None  # what #messages shows now (None: unknown)
        self.said_ready = False  # <html data-state> says "ready"
        self.grid = Grid(self)
        self.parts = RowParts(self)
        # A setting change at 200 words makes some 200,000 numbers in lists: Python's collector
        # would run dozens of times inside the handler, and now and then walk every object
        # (~25 ms at once). It is paused while a handler runs and resumed in a task of its own,
        # after the new numbers are sent: the same collections, out of the next event's way.
        self.collect_later = timers.proxy(lambda *_: gc.enable())
        self.write_url_later = timers.proxy(self.task(self.write_url))

    # -- elements ------------------------------------------------------------------------

    def region(self, name):
        return self.screen.element({"id": name})

    element = region

    def exists(self, name):
        """Whether the page has an element of id `name` (as its event said, or as drawn since)."""
        return self.screen.context.exists(name)

    # -- drawing -------------------------------------------------------------------------

    def set_messages(self, notes=()):
        """Show these notes and the lexicon's problems (the DOM is touched only on a change)."""
        problems = self.lexicons[schema.reading(self.settings)].problems
        html = render.render_messages(list(notes), problems, self.settings.lang)
        if html != self.messages_html:
            self.messages_html = html
            self.region("messages").innerHTML = html

    def say_ready(self, lang):
        """The status says ready, and the note under it that every number is now computed live."""
        letters = self.settings is not None and self.settings.mode == "model"  # (positions, not words)
        self.helpers.sayReady(text(lang, "model_ready" if letters else "ready"), text(lang, "ready_note"))

    def render(self, settings, tokens, regions, notes=()):
        """Compute the record for `settings` and redraw the named regions ("all", "sentence",
        "editor") and the analysis. `tokens`: the sentence's, with the lexicon's cards."""
        labs.need(settings)  # (a lab these settings need and that is not here: the message waits for it)
        self.settings, self.lexicon_tokens = settings, tokens
        if settings.lock:  # a graded exercise: answered questions stay answered
            self.quiz.lock(settings.questions)
        record = self.record = contract.compute(settings, tokens)
        self.row = contract.selected_row(settings, record)
        tokens = self.tokens = contract.shown_tokens(settings, tokens, record)
        lang, region = settings.lang, self.region
        if "all" in regions:
            self.document.documentElement.lang = lang
            self.document.title = text(lang, "title")
            region("header").innerHTML = render.render_header(lang)
            region("controls").innerHTML = render.render_controls(settings)
            region("settings").innerHTML = render.render_settings(settings)
            region("share").innerHTML = render.render_share(lang, True, settings.mode, settings.lock)
            region("about").innerHTML = render.render_about(lang, True, settings.mode, settings.lock)
            region("path").innerHTML = render.render_path(settings, True, tokens, record)
            shows = path.shows(settings.step, settings.path)  # (a step hides what it does not add: style.css)
            if shows is None:
                region("app").removeAttribute("data-show")
            else:
                region("app").setAttribute("data-show", shows)
            self.say_ready(lang)
        if "editor" in regions and "all" not in regions and settings.mode == "sentence":
            # (another head: the line under the Head menu says what this one looks for)
            region("head-about").textContent = text(lang, "head_about_" + heads.HEADS[settings.head].id)
        if settings.mode == "matrix" and "sentence" in regions:  # new Q, K: the mask may (not) apply
            region("controls").innerHTML = render.render_controls(settings)
            region("settings").innerHTML = render.render_settings(settings)
        if "all" in regions or "sentence" in regions:
            region("sentence").innerHTML = render.render_words(settings, tokens, record)
            region("sentence-input").value = settings.text
            preset = schema.preset_index(settings.sentence, lang, settings.mode)
            region("preset").value = "" if preset is None else str(preset)
            region("lexicon").value = schema.reading(settings)  # (which lexicon reads it: an example's own)
        if regions:  # (embedded: the swap alone, shown on the path's word-order step; no matrix cells)
            region("editor").innerHTML = render.render_edits(settings, tokens, record, True,
                                                             [t.card for t in self.lexicon_tokens],
                                                             matrices=not self.embedded)
        if "all" not in regions and settings.mode != "model":
            # (the position lab's kind or the head changed what the distance slider applies; an op
            # on an element the page does not have, as an embedded one, is nothing: static/page.js)
            said = slope_said(settings)
            region("pos-value").textContent = said
            region("pos").setAttribute("aria-valuetext", said)
        self.show_analysis()
        if settings.mode == "matrix" and self.compare[0]:
            editing.show_compare(self, *self.compare)
        self.set_messages(notes)
        self.publish()

    def quiz_on(self):
        """The tab's quiz session when guess-first is on, else None."""
        return self.quiz if self.settings.quiz else None

    def long_text(self):
        """Whether the text is long enough for the sections that grow with it (bars, table, grid,
        cards) to skip their layout off screen: more words than a long grid's window."""
        return (self.settings.mode != "model" and self.record is not None
                and self.record.n_k > LATER_FROM)

    def show_analysis(self):
        """Redraw the analysis of the selected row (with guess-first: the question until a
        guess) and say it in the live region. A long grid keeps its scroll position while the
        sentence stays (app/grid.py); a long text's bars and table off screen are drawn when the
        browser is idle (app/row_parts.py)."""
        self.quiz.follow(self.row)
        analysis = self.region("analysis")
        # (a long text's sections off screen skip their layout until scrolled to: static/style.css
        # `#app[data-long]`; a short one's are laid out, each as tall as what it holds)
        if self.long_text():
            self.region("app").setAttribute("data-long", "")
        else:
            self.region("app").removeAttribute("data-long")
        if self.settings.mode == "model":  # (the trained model's views: one table a head, none windowed)
            analysis.innerHTML = render.render_analysis(self.settings, self.tokens, self.record, None)
            self.region("announce").textContent = render.announcement_of(self.settings, self.tokens, self.record, None)
            return
        first = self.grid.before_redraw(analysis)
        later = self.parts.later_on_redraw()
        heights = self.parts.heights(later) if later else None
        analysis.innerHTML = render.render_analysis(self.settings, self.tokens, self.record, self.row,
                                                    quiz=self.quiz_on(), grid_first=first, later=later)
        if later:
            self.parts.hold(later, heights)
        self.grid.after_redraw(analysis)
        analysis.dataset.view = self.settings.view
        self.parts.track(analysis, later)
        self.region("announce").textContent = render.row_announcement(self.row, self.tokens, self.settings.lang,
                                                                      self.quiz_on())

    def show_pick(self, before):
        """Model mode, the pick moved from position `before`: in every table (the heads', the
        predictions) its row's selection moves, the rows whose path cell comes or goes are drawn
        again, and so are the path's sentence and the live region's; the rest of the tables stays
        (at 63 letters they are ~500 kB of HTML, whose layout took most of a click)."""
        record, focus, lang = self.record, self.settings.focus, self.settings.lang
        if before is None or not 0 <= before < record.n_q:  # (no row was picked: drawn whole)
            return self.show_analysis()
        analysis = self.region("analysis")
        for layer, head, row, html in model_view.moved_path(record, before, focus, lang):
            analysis.querySelector(f'.model-head[data-head="{layer}-{head}"] tr[data-row="{row}"]').outerHTML = html
        self.helpers.pickRow(analysis, before, focus)
        self.element("view-circuit").innerHTML = model_view.render_circuit_section(record, focus, lang)
        self.region("announce").textContent = render.announcement_of(self.settings, self.tokens, record, None)

    def select_row(self, i):
        """Select word i: only read row i of the record there is (no recomputation) and redraw
        the parts that show the row (those on screen now, the others later: app/row_parts.py);
        the heatmap only moves its highlight. The word's radio is checked each time: a click's
        own radio may have been redrawn by an answer given after the click was sent."""
        record = self.record
        if record is None or not 0 <= i < record.n_q:
            return
        self.check_word(i)
        if self.settings.mode == "model":  # a position: the trained model's views follow it in place
            before = self.settings.focus
            self.settings = self.settings.copy(focus=i)
            self.show_pick(before)
            self.set_messages()
            self.publish()
            return
        if self.settings.quiz:  # guess first: the question of the new word, its answer hidden
            self.settings, self.row = self.settings.copy(focus=i), record.row(i)
            self.show_analysis()
            self.set_messages()
            self.publish()
            return
        if self.row is None or not self.parts.on_page():
            self.render(self.settings.copy(focus=i), self.lexicon_tokens, ())
            return
        before = self.row.focus
        self.settings = self.settings.copy(focus=i)
        self.row = record.row(i)
        later = self.parts.off_screen()
        self.parts.update([name for name in render.ROW_PARTS if name not in later])
        if later:
            self.parts.wait_for_idle(later)
        self.grid.move_mark(before, i)
        self.element("announce").textContent = render.row_announcement(self.row, self.tokens, self.settings.lang)
        self.set_messages()
        self.publish()

    def check_word(self, i):
        self.region("sentence").querySelector(f'input[name="word"][value="{i}"]').checked = True

    def show_sentence(self, sentence):
        """Show a new sentence (switches kept; an example starts with its word selected, and so does a
        step that follows a word: `schema.step_word`). On bad input keep the old sentence on screen
        and say why; the box keeps the text."""
        lang = self.settings.lang
        tokens, problem = schema.sentence_tokens(self.settings, sentence, self.lexicons)
        if tokens is None:
            self.settings.text = sentence
            self.set_messages([problem])
            return False
        focus = schema.preset_focus(sentence, lang, self.settings.mode)
        settings = schema.step_word(self.settings.copy(sentence=sentence, text=sentence, focus=focus), tokens)
        self.render(settings, tokens, ("sentence",))
        return True

    # -- publishing ----------------------------------------------------------------------

    def url(self, embed=None, quiz=None, settings=None):
        """This page's address for the current state (`settings`: for those); `embed` True/False
        adds/removes embed=1; `quiz` True: with guess-first on (an exercise link). Written in
        Python (no browser call): the address's other parameters were read once at start."""
        base, others = self.address
        settings = settings or self.settings
        settings = settings if quiz is None else settings.copy(quiz=quiz)
        return base + "?" + schema.page_query(settings, others, embed)

    @staticmethod
    def place(settings):
        """Where `settings` are on the guided paths, as a history entry knows it: (path, step), or
        None in the explorer (whatever path it would walk)."""
        return None if settings.step is None else (settings.path, settings.step)

    def write_url(self):
        """Put the current state in the address bar, in the history entry the browser is on (its
        replaceState; a browser's limit on it: static/page.js)."""
        self.url_timer = None
        self.url_written = time.monotonic()
        self.screen.add(["url", self.url(), False])

    def push_url(self):
        """A step of a guided path entered or left (the explorer ↔ a step too): a history entry of
        its own, at once, so that the browser's Back comes back here. The entry left first gets
        its last state if that was still waiting to be written. (A timer still pending writes
        the new state again, into the new entry: the same address.)"""
        if self.url_timer is not None and self.published is not None:
            self.screen.add(["url", self.url(settings=self.published), False])
        self.url_timer = None
        self.url_written = time.monotonic()
        self.url_place = self.place(self.settings)
        self.screen.add(["url", self.url(), True])

    def schedule_url(self):
        """Write the address in a task of its own, after the click's own work, and at most every
        URL_EVERY seconds: a burst of clicks (arrow keys through 200 words) writes it once, the
        last state (browsers ignore replaceState past ~100 calls in 10 s). Copy buttons build
        the address themselves, so they are never behind."""
        if self.url_timer is None:
            wait = max(0.0, URL_EVERY - (time.monotonic() - self.url_written))
            self.url_timer = self.timers.setTimeout(self.write_url_later, int(wait * 1000))

    def publish(self, payload=None):
        """Publish the state of the record on screen; `payload` is its JSON when the caller has
        it already. The address follows in a task of its own (`schedule_url`), or at once in a
        new history entry when the step changed (`push_url`: the `step` and `path` settings,
        whatever changed them: a button, a mode, a host message; the start replaces)."""
        payload = payload or contract.state_json_of(self.settings, self.tokens, self.record, self.quiz)
        self.show_path_answer()
        if payload != getattr(self, "payload", None):  # (the same text again: a view's own setting, the
            self.element("attention-state").textContent = payload  # stepper's word; 100 kB not written twice)
            self.payload = payload
        if not self.said_ready:
            self.document.documentElement.dataset.state = "ready"
            self.said_ready = True
        if self.url_place is not False and self.place(self.settings) != self.url_place:
            self.push_url()
        else:
            self.schedule_url()
        self.published = self.settings
        if self.framed:  # (posted by this page's own JavaScript: the host tells widgets apart by it)
            self.helpers.tellHost('{"type": "attention:state", "state": ' + payload + "}")

    def show_path_answer(self):
        """A step's "try this" and its answer, written again from the record on screen (every
        change of a setting, a word or a card comes through `publish`): the numbers it quotes are
        the student's own, whatever an earlier step left switched on."""
        number = self.settings.step
        if number is None:
            return
        tried, answered = path_view.linked_try_and_answer(self.settings, self.tokens, self.record, set())
        self.region("path-try-text").innerHTML = tried
        self.region("path-answer").innerHTML = answered

    # -- errors --------------------------------------------------------------------------

    def show_error(self, error):
        self.screen.add(["console", "error", traceback.format_exc()])
        self.say_error(type(error).__name__)

    def say_error(self, name):
        """One line on the page: something went wrong (named `name`), and the page still works."""
        self.messages_html = None
        lang = self.settings.lang if self.settings else "it"
        self.region("messages").innerHTML = render.render_messages(
            [schema.Note("error_handler", level="error", error=name)], (), lang)

    def guarded(self, handler, *args):
        """Run `handler(*args)` for an event: an unexpected error shows one line and keeps the
        page working. Python's collector waits meanwhile (see collect_later)."""
        paused = gc.isenabled()
        if paused:
            gc.disable()
        try:
            handler(*args)
        except WAITS:
            raise
        except Exception as error:  # noqa: BLE001 - the page must survive anything
            self.show_error(error)
        finally:
            if paused:
                self.timers.setTimeout(self.collect_later, 0)

    def task(self, work):
        """`work` as a callback the page's thread (or a timer of the engine) calls later, with
        the callback's arguments: an unexpected error shows one line, and what it wrote goes to
        the page at once."""
        def run(*args):
            try:
                work(*args)
            except Exception as error:  # noqa: BLE001 - the page must survive anything
                self.show_error(error)
            self.screen.flush()
        return self.screen.callback(run)

    # -- events --------------------------------------------------------------------------

    def apply(self, setting, value):
        """A control changed `setting` to `value`: recompute (through the setting's own hook, as a
        link or a host message would, redrawing the regions it names), or only re-read the record."""
        if setting.attr == "focus":  # a word: its row of the record there is
            self.select_row(value)
        elif self.record is not None \
                and (view := registry.light_view(self.settings, setting.attr, value)) is not None \
                and (self.row is not None if view.row is not None else registry.draws(self.settings, view)):
            # a view already on screen that alone shows this setting: the record stays; its parts
            # are made again and its row part drawn again (FlashAttention's block size), or, a view
            # drawn whole, its section's content (the state stepper's word)
            self.settings = self.settings.copy(**{setting.attr: value})
            for name, make in registry.record_parts(view.id):
                self.record.parts[name] = make(self.settings, self.lexicon_tokens, self.record)
            if view.row is not None:
                self.parts.redraw_whole(view.id)
            else:
                self.helpers.redrawPart(self.element(view.element),
                                        render.view_inside(self.settings, self.tokens, self.record, self.row, view.id))
            self.publish()
        elif setting.recompute:
            change = schema.Change(self.lexicon_tokens, self.lexicons)
            try:
                settings = schema.held(setting.apply(self.settings, value, change))
            except schema.Bad:
                return
            self.render(settings, change.tokens, setting.redraw)
        elif setting.attr == "view" and value in labs.declared_tabs() and not (
                value in registry.ids() and self.exists(registry.view(value).element)):
            # a lab's tab not drawn yet (its lab comes for it: `render` asks): the analysis again
            self.render(self.settings.copy(**{setting.attr: value}), self.lexicon_tokens, ())
        else:  # the view an embedded widget shows: nothing to compute or redraw
            self.settings = self.settings.copy(**{setting.attr: value})
            self.parts.catch_up()
            self.region("analysis").dataset.view = value
            if value == "heatmap":
                self.helpers.gridShown(self.region("analysis"))
            self.publish()

    def pick_preset(self, target):
        """An example: a sentence of the page's language, read with its lexicon."""
        if target.value != "":
            if self.settings.lexicon is not None and self.settings.mode != "model":
                self.settings = self.settings.copy(lexicon=None)
            self.show_sentence(schema.examples(self.settings.lang, self.settings.mode)[int(target.value)][0])

    def pick_language(self, target):
        """Another language: the whole page redrawn in it, the focus back on its choice."""
        if target.value in LANGS and target.value != self.settings.lang:
            self.apply(schema.BY_ATTR["lang"], target.value)
            self.document.querySelector(f'input[name="lang"][value="{self.settings.lang}"]').focus()

    def pick_word(self, target):
        self.select_row(int(target.value))

    # A control's name -> what its change does (any other control named after a setting
    # changes that setting: `on_change`).
    CHANGES = {
        "preset": pick_preset,
        "lang": pick_language,
        "word": pick_word,
        "cell": lambda page, target: editing.commit_cell(page, target),
        "mm-example": lambda page, target: editing.example_matrices(page, target),
        **labs.changes(),  # (each lab's own: app/labs/<id>/__init__.py)
    }

    def on_change(self, event):
        target = event.target
        special = self.CHANGES.get(target.name)
        if special is not None and self.settings.lock and target.name not in LOCK_OPEN:
            return  # (a graded exercise: the example, the language and the cells stay)
        if special is not None:
            special(self, target)
            return
        setting = schema.BY_CONTROL.get(target.name)
        if setting is None or self.settings.lock and setting.attr not in LOCK_OPEN:
            return
        try:
            value = setting.from_control(target)
        except schema.Bad as bad:
            if isinstance(bad.note, schema.Note):  # (a typed number out of range says why)
                self.set_messages([bad.note])
            return
        if value != getattr(self.settings, setting.attr):
            self.apply(setting, value)  # (a control its view draws again keeps the focus: static/page.js)

    def on_input(self, event):
        """A slider follows live (the temperature: bars, heatmap and table)."""
        target = event.target
        if target.name in SLIDERS and not self.settings.lock:
            setting = schema.BY_CONTROL[target.name]
            value = setting.from_control(target)
            said = SLIDERS[target.name](value, self.settings)
            self.region(target.name + "-value").textContent = said
            target.setAttribute("aria-valuetext", said)
            if value != getattr(self.settings, setting.attr):
                self.apply(setting, value)

    def on_keydown(self, event):
        """Enter commits a matrix cell and Escape cancels it (static/page.js sends only these:
        Enter on a switch it toggles itself)."""
        target = event.target
        if target.name == "cell" and event.key in ("Enter", "Escape") and not self.settings.lock:
            (editing.commit_cell if event.key == "Enter" else editing.cancel_cell)(self, target)

    def on_submit(self, event):
        if event.target.id == "guess-form":
            guessing.take_guess(self)
        elif self.settings.lock:  # (a graded exercise: its sentence stays)
            return
        elif self.show_sentence(self.region("sentence-input").value):
            self.document.querySelector('input[name="word"]').focus()

    def reset(self):
        settings, tokens = schema.reset(self.settings, self.lexicons)
        self.quiz.reset_score()
        self.render(settings, tokens, ("all",))
        self.document.querySelector("details.more-settings").open = True  # (where the button is)
        self.region("reset").focus()

    def go_step(self, number, focus):
        """The guided path's buttons: step `number` (None: the explorer), the focus back on the
        button `focus` (or its neighbour, at an end), and the step said in the live region."""
        self.apply(schema.BY_ATTR["step"], number)
        if number is None:
            self.region("step-start").focus()  # (an embedded widget has none: it stays a step)
            # (the explorer starts at the page's top: from matrix mode's long last step the focus
            # alone left the student mid-page, among the settings)
            if not self.embedded:  # (a widget never scrolls its host's page)
                self.document.documentElement.scrollTop = 0
            return
        way = self.settings.path
        ends = {"step-prev": (1, "step-next"), "step-next": (path.count(way), "step-prev")}
        if focus in ends and number == ends[focus][0]:
            focus = ends[focus][1]
        self.region(focus).focus()
        self.say_step()

    def say_step(self):
        """The live region says the step the page is on (its number, the path's length, its title)."""
        number, way, lang = self.settings.step, self.settings.path, self.settings.lang
        self.region("announce").textContent = text(
            lang, "path_said", n=number, count=path.count(way), title=text(lang, path.step_key(number, "title", way)))

    def go_mode(self, mode, focus):
        """The buttons between the trained model and the designed heads: that mode, the focus on
        the button that comes back (the page's top is where the new mode starts)."""
        self.apply(schema.BY_ATTR["mode"], mode)
        self.region(focus).focus()

    # A button's id -> what a click on it does (each takes the page).
    CLICKS = {
        "step-start": lambda page: page.go_step(1, "step-next"),
        "step-prev": lambda page: page.go_step(max(1, (page.settings.step or 1) - 1), "step-prev"),
        "step-next": lambda page: page.go_step(min(path.count(page.settings.path), (page.settings.step or 0) + 1),
                                               "step-next"),
        "step-exit": lambda page: page.go_step(None, "step-start"),
        "path-end-exit": lambda page: page.go_step(None, "step-start"),
        "path-end-model": lambda page: page.go_mode("model", "model-back"),
        "copy-link": sharing.copy_link,
        "copy-embed": sharing.copy_embed,
        "copy-exercise": sharing.copy_exercise,
        "copy-exercise-embed": sharing.copy_exercise_embed,
        "package-scorm": sharing.package,
        "export-csv": sharing.steps_csv,
        "export-matrix": sharing.matrix_csv,
        "export-png": lambda page: sharing.image(page, True),
        "export-svg": lambda page: sharing.image(page, False),
        "next-word": guessing.next_word,
        "quiz-reset-score": guessing.reset_score,
        "reset-edits": editing.reset_edits,
        "swap": editing.swap,
        "mm-apply": editing.apply_boxes,
        "mm-random": editing.random_matrices,
        "cmp-go": editing.compare_typed,
        "reset": reset,
        "model-start": lambda page: page.go_mode("model", "model-back"),
        "model-back": lambda page: page.go_mode("sentence", "model-start"),
        **labs.clicks(),  # (each lab's buttons: app/labs/<id>/__init__.py)
    }

    def on_click(self, event):
        """A button (static/page.js sends the button clicked, as the target)."""
        button = event.target
        action = self.CLICKS.get(button.id)
        if action is not None and self.settings.lock and button.id not in LOCK_CLICKS:
            return  # (a graded exercise: nothing that changes it, resets its score or shows weights)
        if action is not None:
            action(self)
        elif "row-pick" in button.className.split():  # a heatmap row header (model mode: of one head)
            self.select_row(int(button.dataset.row))
            head = f'.model-head[data-head="{button.dataset.head}"] ' if button.dataset.head else ""
            self.document.querySelector(f'{head}.row-pick[data-row="{button.dataset.row}"]').focus()

    def apply_host_message(self, data):
        """Apply an attention:set message (static/page.js checked it comes from our parent)."""
        if self.settings.lock and isinstance(data, dict):  # a graded exercise: only what it leaves open
            for key in [k for k in data if k != "type" and k not in LOCK_OPEN]:
                self.screen.add(["console", "warn", f"attention:set: {str(key)[:40]!r} is fixed in a graded exercise;"
                                 " ignored"])
                del data[key]
        settings, tokens, warnings, notes = schema.host_update(self.settings, self.lexicon_tokens, data,
                                                               self.lexicons)
        for warning in warnings:
            self.screen.add(["console", "warn", warning])
        self.render(settings, tokens, ("all",), notes)

    # An event's kind (static/page.js) -> its handler.
    EVENTS = {"change": on_change, "input": on_input, "keydown": on_keydown, "submit": on_submit,
              "click": on_click}

    def receive(self, message):
        """A message of the page's thread (static/page.js): an event, a host message, a call
        back, an op it could not do, or the start. Returns the ops it wrote (JSON text)."""
        screen = self.screen
        kept = dict(vars(self))  # (what the page holds, put back if the message needs files first)
        try:
            return self.answer(message)
        except WAITS as needed:  # its settings need files not here: undone, sent again once they are
            screen.take()
            vars(self).clear()
            vars(self).update(kept)
            if isinstance(needed, labs.Needed):
                return json.dumps({"labs": needed.ids})
            return json.dumps({"later": needed.langs})

    def answer(self, message):
        """`receive`'s work; raises labs.Needed, before anything is drawn, when the settings it
        arrives at need a lab whose archive is not here yet (app/labs/__init__.py), and
        lexicon.Needed when they need a language whose lexicon files are not (app/lexicon.py)."""
        screen = self.screen
        screen.context = Context(message.get("context"))
        kind = message["type"]
        if kind == "start":
            self.guarded(self.start, message)
        elif kind == "host":
            self.guarded(self.apply_host_message, message["data"])
        elif kind == "address":  # the browser's Back or Forward (static/page.js, popstate)
            self.guarded(self.follow_address, message["address"])
        elif kind == "error":  # an op the page's thread could not do (it said why in its console)
            self.say_error(str(message.get("name") or "Error"))
        elif kind == "callback":
            callback = screen.callbacks.get(message["id"])
            if callback is not None:
                callback.work(*message.get("args", ()))
        else:
            self.guarded(self.EVENTS[kind], self, Event(message, screen))
        return screen.take()

    # -- the start -----------------------------------------------------------------------

    def start(self, message):
        """First render from the address, then any host messages that arrived while the engine
        was loading (kept by static/page.js). `message`: what the page's thread said of itself
        (static/page.js, `startMessage`): its address, whether it is framed and embedded (embed=1),
        the state the pre-rendered page shows, and what the early answers (static/early.js) ended with:
        {"choice": what the controls ask for now, "shown": the state the page shows (None: as
        pre-rendered)}, or None where they gave none.

        Without state in the address the pre-rendered page is already exactly what we would draw
        (a test keeps it so; the state JSON is compared to be sure), and so is a state the early
        answers drew (static/early.js wrote it into the address): the controls are only
        enabled, no redraw, no layout shift.
        """
        self.framed = bool(message.get("framed"))
        self.embedded = bool(message.get("embedded"))  # (boot.js's html.embed: embed=1)
        self.address, params, settings, notes = self.read_address(message["address"])
        tokens, _ = schema.sentence_tokens(settings, settings.sentence, self.lexicons)
        record = contract.compute(settings, tokens)
        resumed = message.get("resume")  # (a graded exercise resumed: static/scorm.js)
        if settings.lock and isinstance(resumed, dict):
            self.quiz.restore(resumed, record)
        shown = contract.shown_tokens(settings, tokens, record)
        payload = contract.state_json(contract.build_state(settings, shown, record))
        early = message.get("early")
        asked = settings.copy(**early["choice"]) if early else settings
        if (not notes and not self.lexicons[schema.reading(settings)].problems
                and (not any(p in params for p in schema.URL_KEYS) or early and early["shown"])
                and contract.same_state(payload, message.get("state") or "")):
            # (a lexicon edited after the build would differ from the pre-render: full render then)
            self.settings, self.tokens, self.lexicon_tokens, self.record = settings, shown, tokens, record
            self.row = contract.selected_row(settings, record)
            self.parts.track(self.region("analysis"))
            self.helpers.enable()
            self.edit_cells_live()
            self.say_ready(settings.lang)
            if asked != settings:  # (clicked before the early answers arrived, or with none to give)
                self.render(asked, tokens, ())
            else:
                self.publish(payload)
        else:
            self.render(asked, tokens, ("all",), notes)
        self.listen()
        for data in message.get("queue") or ():
            self.apply_host_message(data)
        self.url_place = self.place(self.settings)  # (the link's entry holds what the start drew)
        # Everything made so far (modules, the lexicon's ~35,000 entries) lives as long as the
        # engine: out of the collector's way, a full collection during a click no longer walks it.
        gc.freeze()

    def read_address(self, address):
        """An address as static/page.js sends it ({"base": origin + path, "pairs": its query's
        [name, value] pairs}), read as a link is (app/settings.py, parse_params): (the page's
        address as `url` writes it, {name: [values]}, settings, notes)."""
        pairs = [tuple(pair) for pair in address["pairs"]]
        params = {}
        for name, value in pairs:
            params.setdefault(name, []).append(value)
        settings, notes = schema.parse_params(params, self.lexicons)
        labs.need(settings)  # (a lab the address needs and that is not here: the message waits for it)
        return (address["base"], pairs), params, settings, notes

    def follow_address(self, address):
        """The browser's Back or Forward brought back a history entry of this page (static/page.js,
        popstate): its address applied whole, as a reload of it would be, in that entry (no new
        one: each step of a guided path has its own already, `push_url`). An entry of the step
        on screen is a fragment's (a link to #about): the page stays, and its address is written
        there. A graded exercise has one entry: it stays."""
        if self.settings is None:
            return
        where, _, settings, notes = self.read_address(address)
        if self.settings.lock or self.place(settings) == self.place(self.settings):
            self.write_url()
            return
        self.address = where
        tokens, _ = schema.sentence_tokens(settings, settings.sentence, self.lexicons)
        self.url_place = self.place(settings)  # (the browser is on that entry: what follows replaces it)
        self.render(settings, tokens, ("all",), notes)
        if settings.step is not None:
            self.say_step()

    def edit_cells_live(self):
        """The pre-rendered editor's numbers, drawn as text, become its inputs (app/views/editor.py):
        table by table, so a disclosure the student opened meanwhile stays open. Not in an embedded
        widget, which never shows them (style.css)."""
        if self.embedded or not render.has_editor(self.settings, self.record):
            return
        cards = [t.card for t in self.lexicon_tokens]
        editor = self.region("editor")
        for name, _, html in editor_view.editor_tables(self.settings, self.record, self.tokens, cards,
                                                       self.settings.lang):
            editor.querySelector(f'.table-wrap[data-edit="{name}"]').outerHTML = html

    def listen(self):
        """What the page's thread calls back: a long grid's box scrolled, or Tab onto a row header
        near the drawn window's edge, asks for more rows (static/page.js, gridWatch); printing
        shows the grid whole."""
        self.helpers.listen(list(READ), self.task(self.grid.rows_needed),
                            self.task(lambda *_: self.grid.printing(True)),
                            self.task(lambda *_: self.grid.printing(False)))


class Event:
    """An event as static/page.js sent it: its target (an app.remote.Element read from the
    context) and its key."""

    def __init__(self, message, screen):
        self.target = screen.element("target")
        self.key = message.get("key")
