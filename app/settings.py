"""What the student chose, declared once: the settings schema.

Each setting declares here, and only here, its attribute, URL key, host-message key,
the page control that changes it, its type, default and allowed range. URL parsing and
writing (`parse_params`, `param_pairs`), `attention:set` validation (`host_update`),
app/page.py's change dispatch and static/boot.js's list of state parameters (written
at build time) all come from `SCHEMA`. A wrong value falls back to a safe one with a
note for the page (URL) or a console warning (host message).

Adding a control is one `Setting(...)` line here (by keyword: `Setting` is a dataclass whose
fields say what each is), its strings in app/i18n.py and its widget in a view; a test declares
a made-up one and finds it in links, host messages, the command line and the state
(tests/test_made_up_setting.py). What is special about a setting is a hook on its own line,
used alike by links, host messages and the page's controls: `take` (the language switches the
example, a sentence is split and may be refused, a word index is checked against it, a mode
brings its defaults, cards must be one a word), `settle` (once a link is read whole), `always`
(the parameters every link writes), `state` (its key in the state JSON) and `redraw` (the
regions a change redraws).
"""

import dataclasses
import functools

from app import attention, flash, heads, i18n, matrices, model, path, patterns
from app.lexicon import Token, lookup, tokenize
from app.matrices import shortest
from app.views import registry

MAX_TOKENS = 60  # the most words (and punctuation marks) the page shows well, by default
MAX_LIMIT = 500  # the most a link may ask for with ?limit= (long texts, benchmarks)
CHARS_PER_TOKEN = 40  # text longer than limit × this is refused before it is even split
# The views an embedded widget shows one at a time: bars, table, heatmap, output, and any view
# declared as a tab (app/views/registry.py).
VIEWS = registry.TABS
MODES = ("sentence", "matrix", "model")  # a sentence with its cards, Q, K, V typed in, or the trained
# model on letters (docs/DESIGN.md; app/model.py)
SEED_MAX = 999_999  # the random example's seed: 0…999999
TRUE_WORDS = ("1", "true", "on", "yes")  # what a link's switch reads as on (static/boot.js too)
_FALSE = ("0", "false", "off", "no", "")


class Note:
    """A message for the student: a string key and its parameters (translated at render)."""

    __slots__ = ("key", "params", "level")

    def __init__(self, key, level="warning", **params):
        self.key, self.params, self.level = key, params, level

    def __repr__(self):
        return f"Note({self.key!r}, {self.params!r})"

    def __eq__(self, other):
        return isinstance(other, Note) and (self.key, self.params) == (other.key, other.params)


class Bad(Exception):
    """A value a setting does not accept. `note` (optional) says why: a Note for the page, or a
    line for the console (a host message); `keep` (optional): the settings to show instead
    (a sentence that cannot be shown keeps its text in the box; a bad word index selects none)."""

    def __init__(self, note=None, keep=None):
        super().__init__(note)
        self.note, self.keep = note, keep


class Change:
    """What a setting's hook may need and change besides the settings: the sentence's `tokens`
    (None: not split yet), the `lexicons`, and the `notes` for the page it may add."""

    __slots__ = ("tokens", "lexicons", "notes", "link")

    def __init__(self, tokens, lexicons, link=False):
        self.tokens, self.lexicons, self.notes = tokens, lexicons, []
        self.link = link  # a link's parameters: checks of the whole wait for the `settle` hooks



@dataclasses.dataclass(frozen=True, kw_only=True, eq=False)
class Setting:
    """One setting of the page, declared by keyword: one field a line, with its default."""

    attr: str  # attribute of `Settings`
    url: str | None  # its key in links (None: not settable by a link)
    host: str | None  # its key in `attention:set` (None: not settable by a host page)
    control: str | None  # the `name` of the page control that changes it (None: none)
    kind: str  # 'flag', 'number', 'integer', 'choice', 'text', 'index' or 'matrix'
    default: object  # the value when nothing says otherwise
    low: float | None = None  # a number's least allowed value
    high: float | None = None  # a number's largest; a matrix's most rows
    choices: tuple = ()  # a choice's allowed values
    recompute: bool = True  # a change needs a new attention record (a word or a view only reads it)
    note: str = "link_value_bad"  # the note (app/i18n.py) a bad value in a link gets
    log2_control: bool = False  # the control's value is log₂ of the setting's (a doubling slider)
    cols: int | None = None  # a matrix's fixed width (None: any, up to matrices.MAX_COLS)
    clears: tuple = ()  # settings that go back to their default when this one changes
    # (a new head drops the old head's edited matrices, a new sentence its edited cards)
    state: str | None = None  # its key in the state JSON, when that is its value (app/contract.py)
    always: bool = False  # written in every link, even at its default (contract version 1's)
    redraw: tuple = ()  # the page's regions a change redraws besides the analysis (app/page.py)
    # What is special about a setting is a hook here, used alike by links, host messages and
    # the page's controls: `take(settings, value, change)` puts a checked value in the settings
    # (default: the attribute set) and may raise Bad; `settle(settings, given, change)` runs
    # once a link's parameters are all read (`given`: the URL keys it had).
    take: object = None
    settle: object = None
    # A host message's bad value falls back to the default with the page's note, as a link's
    # does (False: it is ignored with a console warning).
    falls_back: bool = False
    nullable: bool = False  # a number that may also be null (None) in a host message: no step
    read_control: object = None  # `read_control(element)`: the control's value when it is no plain one
    help: str = ""  # what it does, in words (the command line's help, docs/parameters.md)
    example: str = ""  # a value as a link writes it (the same two)

    def __repr__(self):
        return f"Setting({self.attr!r})"

    def allowed(self, lang="it"):
        """The allowed values, as a note shows them: '0.05–20', 'bars, table, …', '0/1'."""
        if self.kind == "flag":
            return "0/1"
        if self.choices:  # (a choice's names, or the few numbers an integer takes: kv_heads)
            return ", ".join(map(str, self.choices))
        if self.kind in ("number", "integer"):
            return f"{shortest(self.low)}–{shortest(self.high)}"
        if self.kind == "matrix":
            return f"{self.cols or 'd'}×… ({'1,0;0,1'})"
        return ""

    def host_type(self):
        """What `attention:set` takes for it, in words: 'a number from 1 to 12 or null'."""
        if self.kind == "text":
            return "a string"
        if self.kind == "index":
            return "a word index or null"
        if self.kind == "flag":
            return "true or false"
        if self.choices:
            return "one of " + ", ".join(map(str, self.choices))
        if self.kind in ("number", "integer"):
            null = " or null" if self.nullable else ""
            return f"a number from {shortest(self.low)} to {shortest(self.high)}{null}"
        if self.kind == "matrix":
            width = f"{self.cols} numbers" if self.cols else f"1 to {matrices.MAX_COLS} numbers"
            return f"null or up to {self.high} rows of {width}, finite, |x| ≤ 10⁶"
        return ""

    def default_text(self):
        """Its default as a link would write it, or 'none' (the command line's help, the docs)."""
        return "none" if self.default is None else self.to_text(self.default)

    def check(self, value):
        """The value if it is of this setting's type and in range, else raise Bad."""
        if self.kind == "flag":
            if isinstance(value, bool):
                return value
            raise Bad()
        if self.kind in ("number", "integer"):
            if value is None and self.nullable:
                return None
            if isinstance(value, bool) or not isinstance(value, (int, float)) or value != value:
                raise Bad()
            if self.kind == "integer" and not float(value).is_integer():
                raise Bad()
            if not self.low <= value <= self.high or self.choices and value not in self.choices:
                raise Bad()
            return int(value) if self.kind == "integer" else float(value)
        if self.kind == "choice":
            if isinstance(value, str) and value in self.choices:
                return value
            raise Bad()
        if self.kind == "text":
            if isinstance(value, str):
                return value
            raise Bad()
        if self.kind == "index":  # a word (checked against the sentence by its `take`) or none
            if value is None:
                return None
            if isinstance(value, bool) or not isinstance(value, (int, float)) or value != value \
                    or not float(value).is_integer() or value < 0:
                raise Bad()
            return int(value)
        if self.kind == "matrix":
            if value is None:
                return None
            try:
                return self._fit(matrices.from_json(value, self.high))
            except matrices.Unreadable:
                raise Bad() from None
        raise Bad()

    def _fit(self, rows):
        if self.cols is not None and len(rows[0]) != self.cols:
            raise Bad()
        return rows

    def from_text(self, text):
        """The value written in a link (or a control's value), checked; raise Bad. A text (the
        sentence) is taken as it is, spaces and all: the box shows what the link carried."""
        if self.kind != "text":
            text = text.strip()
        if self.kind == "flag":
            if text.lower() in TRUE_WORDS:
                return True
            if text.lower() in _FALSE:
                return False
            raise Bad()
        if self.kind in ("integer", "index"):
            if not (text.isascii() and text.isdigit()):
                raise Bad()
            return self.check(int(text))
        if self.kind == "number":
            if not text.isascii() or "_" in text:  # float() also reads ١ and 1_0
                raise Bad()
            try:
                value = float(text)
            except ValueError:
                raise Bad() from None
            if text.lower().lstrip("+-") in ("inf", "infinity", "nan"):
                raise Bad()
            return self.check(value)
        if self.kind == "matrix":
            try:
                return self._fit(matrices.from_url(text, self.high))
            except matrices.Unreadable:
                raise Bad() from None
        return self.check(text)

    def to_text(self, value):
        if value is None:
            return ""
        if self.kind == "flag":
            return "1" if value else "0"
        if self.kind == "matrix":
            return matrices.to_url(value)
        if self.kind == "number":
            return shortest(value)
        return str(value)

    def apply(self, settings, value, change):
        """`settings` with this setting's checked `value` put in (its `take` hook, if any)."""
        if self.take is not None:
            return self.take(settings, value, change)
        return settings.copy(**{self.attr: value})

    def from_control(self, element):
        """The value of the page control that changed (a DOM element)."""
        if self.kind == "flag":
            return bool(element.checked)
        if self.read_control is not None:
            return self.read_control(element)
        if self.log2_control:
            return self.check(round(2.0 ** float(element.value), 3))
        return self.from_text(str(element.value))


def _read_lab_number(attr, element):
    """The position lab's offset or base as typed: a value out of range or no number says why on the
    page (the box keeps what was typed; app/page.py shows a Bad's note)."""
    setting = BY_ATTR[attr]
    try:
        return setting.from_text(str(element.value))
    except Bad:
        raise Bad(Note("pos_number_bad", value=str(element.value)[:20], low=shortest(setting.low),
                       high=shortest(setting.high))) from None


def _read_window(element):
    """The window as typed: an empty box is no window (model mode's view offers it); a value out of
    range or no number says why on the page."""
    if not str(element.value).strip():
        return None
    return _read_lab_number("window", element)


def global_indices(settings):
    """The global words' indices (the `global` setting's text, "0,5")."""
    return tuple(int(x) for x in settings.global_tokens.split(",") if x)


def _take_global(settings, value, change):
    """The global words as "0,5": whole numbers from 0, kept sorted and once each."""
    parts = [p.strip() for p in str(value).split(",") if p.strip()]
    if not all(p.isdigit() and int(p) <= MAX_LIMIT for p in parts):
        raise Bad("attention:set: 'global' must be word indices such as \"0,5\"; ignored")
    return settings.copy(global_tokens=",".join(str(n) for n in sorted({int(p) for p in parts})))


def _take_lang(settings, lang, change):
    """Another language: an example becomes the same example there (`switch_language`)."""
    if lang != settings.lang:
        settings, change.tokens = switch_language(settings, lang, change.lexicons)
    return settings


def _take_sentence(settings, sentence, change):
    """A sentence the page can show, split into tokens; one it cannot keeps the old one (its
    text stays in the box) and says why."""
    tokens, problem = sentence_tokens(settings, sentence, change.lexicons)
    if tokens is None:
        raise Bad(problem, keep=settings.copy(text=sentence))
    change.tokens = tokens
    return settings.copy(sentence=sentence, text=sentence, focus=preset_focus(sentence, settings.lang, settings.mode))


def _take_checkpoint(settings, step, change):
    """A training step of the trained model: the kept checkpoint nearest to it (None: the last).
    It means something only in model mode (the only one that loads the model's files): in the
    others it is left out, so their links do not carry it."""
    if settings.mode != "model":
        return settings.copy(checkpoint=None)
    if step is not None:
        try:
            step = model.nearest_step(step)
        except model.Unavailable:
            pass  # (the page says the model cannot be read)
    return settings.copy(checkpoint=step)


def _checkpoint_control(element):
    """The training slider's position is the checkpoint's index among the kept ones."""
    kept = model.steps()
    index = int(float(element.value))
    if not 0 <= index < len(kept):
        raise Bad()
    return kept[index]


def _take_focus(settings, focus, change):
    """A word index of the sentence shown (or None: no word selected)."""
    if focus is not None and not 0 <= focus < query_count(settings, change.tokens):
        raise Bad(f"attention:set: 'focus' must be a word index 0..{query_count(settings, change.tokens) - 1}"
                  " or null; ignored", keep=settings.copy(focus=None))
    return settings.copy(focus=focus)


def _take_mode(settings, mode, change):
    """Another mode; a step of the guided path about the other mode is left for the explorer
    (its link could not say both)."""
    before = settings
    settings = switch_mode(settings, mode)
    if settings.step is not None and path.step_of(settings.step, settings.path).mode != mode:
        settings = settings.copy(step=None)
    _retokenize(before, settings, change)
    return settings


def _retokenize(before, after, change):
    """A mode change to or from the model brings another text: the change carries its tokens."""
    if after.sentence != before.sentence or "model" in (before.mode, after.mode) and after.mode != before.mode:
        tokens, _ = sentence_tokens(after, after.sentence, change.lexicons)
        if tokens is not None:
            change.tokens = tokens


# Key/value heads: the numbers that divide the heads' count (each group the same size): 4, 2, 1.
KV_HEADS = tuple(g for g in range(len(heads.HEADS), 0, -1) if len(heads.HEADS) % g == 0)


def _take_cards(settings, cards, change):
    """Edited cards, one row a word (a link's are checked once the sentence is known: `settle`)."""
    if cards is not None and not change.link and change.tokens is not None and len(cards) != len(change.tokens):
        raise Bad(f"attention:set: 'cards' must be {len(change.tokens)} rows of 4 numbers; ignored")
    return settings.copy(cards=cards)


def _settle_mode(settings, given, change):
    """A link in matrix mode: standard attention (a row may look at itself) and its first row
    selected, unless the link says otherwise."""
    if settings.mode == "matrix":
        return settings.copy(include_self=settings.include_self if "self" in given else True,
                             focus=settings.focus if "focus" in given else 0)
    if settings.mode == "model":  # (the model is causal and a position sees itself, whatever a link says)
        return settings.copy(mask=True, include_self=True)
    return settings


def _settle_cards(settings, given, change):
    """A link's cards must be one row a word of its sentence."""
    if settings.mode != "matrix" and settings.cards is not None:
        n = query_count(settings, change.tokens)
        if len(settings.cards) != n:
            change.notes.append(Note("link_cards_bad", count=len(settings.cards), words=n))
            return settings.copy(cards=None)
    return settings


def _take_path(settings, name, change):
    """Another guided path: a step past its end leaves for the explorer (a link's step follows); a
    step within it is entered as a step of that path (its mode, the settings it owns)."""
    before, settings = settings, settings.copy(path=name)
    if settings.step is not None and settings.step > path.count(name):
        settings = settings.copy(step=None)
    if settings.step is not None and name != before.path:
        settings = _take_step(settings, settings.step, change)
    return settings


def _take_step(settings, step, change):
    """A step of the guided path (app/path.py), in the mode it is about; None: the explorer. (The
    setting's range is the formula path's, the longest; a step past the end of the path chosen is
    refused.) A step about the trained model stays a step (entering model mode otherwise leaves
    the path, which is about the designed heads). A step in another mode than the one the student
    was in finds the work left in it (`_take_back`); then every setting the step does not own goes
    back to its default (`_set_back`)."""
    if step is not None and step > path.count(settings.path):
        raise Bad()
    mode = settings.mode if step is None else path.step_of(step, settings.path).mode
    after = switch_mode(settings.copy(step=step), mode).copy(step=step)
    if after.mode != settings.mode:
        after = _take_back(after)
    after = _set_back(after)
    _retokenize(settings, after, change)
    return after


# The student's work a change of mode replaces (model mode has letters where sentence mode has a
# sentence; matrix mode selects a row of Q): kept aside, by mode, for a step back into that mode.
MODE_WORK = ("sentence", "text", "focus", "cards", "checkpoint")


def _take_back(settings):
    """The settings with the work the student left in their mode (`Settings.aside`), if any and if
    written in the page's language (an example sentence is a sentence of its language)."""
    lang, work = settings.aside.get(settings.mode, (None, None))
    if lang != settings.lang or not work:
        return settings
    return settings.copy(**work)


def _owner(control):
    return BY_CONTROL[control].attr


def owned(settings):
    """The settings owned where these settings are: on a step, what the step owns (app/path.py
    `Step.owned`); in the explorer, every setting whose control is on its screen: those of the
    settings' row (no view's) and those of the views the explorer shows in the mode."""
    step = path.step_of(settings.step, settings.path)
    if step is not None:
        return step.owned(_owner)
    views = registry.views(settings.mode)
    return frozenset(setting for setting in knobs() if not any(setting in v.settings for v in registry.views())) \
        .union(*(v.settings for v in views if v.explorer))


def knobs():
    """The settings some step of a registered path or some view owns, in SCHEMA's order: the ones
    entering a step may set back. (The student's work has no control a step or a view owns.)"""
    every = set().union(*(v.settings for v in registry.views()))
    for way in registry.paths().values():
        for step in way.steps:
            every |= step.owned(_owner)
    return tuple(s.attr for s in SCHEMA if s.attr in every)


def _view_knobs():
    """The settings whose controls live in views (the labs' own), which a change to or from model
    mode sets back: in model mode the same names say what the trained model does."""
    return {s.attr: s.default for s in SCHEMA if any(s.attr in v.settings for v in registry.views())}


def _set_back(settings):
    """Every setting a step or a view owns and the step (or the explorer) of `settings` does not,
    back to its default in the mode (matrix mode's include-self, model mode's mask)."""
    keep = owned(settings)
    plain = switch_mode(default_settings(settings.lang), settings.mode)
    back = {attr: getattr(plain, attr) for attr in knobs()
            if attr not in keep and getattr(settings, attr) != getattr(plain, attr)}
    return settings.copy(**back) if back else settings


QUESTIONS = 5  # the questions an exercise asks, by default (the `questions` setting)


def _take_quiz(settings, quiz, change):
    """Guess first on or off; a locked exercise keeps it on."""
    if settings.lock and not quiz:
        raise Bad("attention:set: guess first cannot be switched off in a graded exercise; ignored")
    return settings.copy(quiz=quiz)


def _take_lock(settings, lock, change):
    """A graded exercise: guess first on, on the sentence's explorer (no guided path, no other
    mode: their views show whole matrices). Once locked, a setting's change is refused by the
    page (app/page.py, LOCK_OPEN); this hook only puts the exercise in its shape."""
    if not lock:
        return settings.copy(lock=False)
    if settings.mode != "sentence":
        before = settings
        settings = switch_mode(settings, "sentence")
        _retokenize(before, settings, change)
    view = "bars" if settings.view == "heatmap" else settings.view  # (no grid in a graded exercise)
    return settings.copy(lock=True, quiz=True, step=None, view=view)


# The order is the order fields apply in (docs/DESIGN.md: lang, mode, path, step, sentence, …, focus,
# mask, self, scaled, temp, pos, view, quiz); `limit` comes before the sentence it limits.
SCHEMA = (
    Setting(attr="lang",
            help=("the page's language: it (Italian) or en (English); an example sentence becomes the same "
                  "example in the other language"),
            example="en",
            url="lang", host="lang", control="lang", kind="choice", default=i18n.DEFAULT_LANG,
            choices=i18n.LANGS, note="link_lang_bad", state="lang", always=True, redraw=("all",),
            take=_take_lang),
    Setting(attr="limit",
            help=("the most words (and punctuation marks) a sentence may have, for long texts shown on "
                  "purpose"),
            example="200",
            url="limit", host=None, control=None, kind="integer", default=MAX_TOKENS,
            low=1, high=MAX_LIMIT, note="link_limit_bad"),
    Setting(attr="mode",
            help=("sentence: a sentence and its words' cards; matrix: Q, K and V typed in or random, with "
                  "their shapes; model: a small transformer trained on letters, its heads and predictions"),
            example="matrix",
            url="mode", host="mode", control="mode", kind="choice", default="sentence",
            choices=MODES, clears=("focus",), redraw=("all",), take=_take_mode, settle=_settle_mode),
    # Which guided path `step` walks (app/path.py): the formula's, or another declared as data.
    Setting(attr="path",
            help=("the guided path that `step` walks: formula (the formula one idea at a time); others are "
                  "declared beside their views"),
            example="formula",
            url="path", host="path", control=None, kind="choice", default=path.DEFAULT,
            choices=registry.PATH_IDS, redraw=("all",), take=_take_path),
    # The guided path (app/path.py): one step of the formula at a time; none: the explorer.
    Setting(attr="step",
            help=("the guided path's step, 1 to 12, the formula one idea at a time; none: the explorer, "
                  "everything at once"),
            example="5",
            url="step", host="step", control=None, kind="integer", default=None,
            low=1, high=path.COUNT, note="link_step_bad", state="step", redraw=("all",), take=_take_step,
            falls_back=True, nullable=True),
    Setting(attr="sentence",
            help="the sentence to analyse, as typed (split into words and punctuation)",
            example="Il+cane+dorme",
            url="s", host="sentence", control=None, kind="text", default=None,
            note="link_sentence_bad", clears=("cards",), state="sentence", always=True, take=_take_sentence),
    # The trained model (mode=model, app/model.py): which of its training checkpoints is shown.
    Setting(attr="checkpoint",
            help=("model mode: the training step whose weights are shown (the kept checkpoint nearest to it); "
                  "none: the last, the trained model"),
            example="600",
            url="checkpoint", host="checkpoint", control="checkpoint", kind="integer", default=None,
            low=0, high=10_000_000, nullable=True, take=_take_checkpoint, read_control=_checkpoint_control),
    # Heads and hands-on matrices (docs/DESIGN.md: cards, head, wq, wk, wv, q, k, v, seed).
    Setting(attr="cards",
            help=("the words' cards as edited: one row of 4 numbers (alive, action, thing, pointer) per "
                  "word"),
            example="0,0,0,1;0.95,0.05,0.1,0",
            url="cards", host="cards", control=None, kind="matrix", default=None,
            high=MAX_LIMIT, cols=attention.D_MODEL, take=_take_cards, settle=_settle_cards),
    Setting(attr="head",
            help="the active head: 0 who does what, 1 pointers, 2 what and where, 3 like with like",
            example="2",
            url="head", host="head", control="head", kind="integer", default=0,
            low=0, high=len(heads.HEADS) - 1, clears=("w_q", "w_k", "w_v"), state="head", redraw=("editor",)),
    Setting(attr="w_q",
            help="the active head's question matrix W_Q as edited: 4 rows of 4 numbers",
            example="0,3,0.5,0;3,0,2,0;1,2,0,0;2,0,2,0",
            url="wq", host="wq", control=None, kind="matrix", default=None,
            high=attention.D_MODEL, cols=attention.D_MODEL),
    Setting(attr="w_k",
            help="the active head's key matrix W_K as edited: 4 rows of 4 numbers",
            example="1,0,0,0;0,1,0,0;0,0,1,0;0,0,0,1",
            url="wk", host="wk", control=None, kind="matrix", default=None,
            high=attention.D_MODEL, cols=attention.D_MODEL),
    Setting(attr="w_v",
            help="the active head's value matrix W_V as edited: 4 rows of 4 numbers",
            example="1,0,0,0;0,1,0,0;0,0,1,0;0,0,0,1",
            url="wv", host="wv", control=None, kind="matrix", default=None,
            high=attention.D_MODEL, cols=attention.D_MODEL),
    # Shared keys (docs/DESIGN.md, "Shared keys"; app/heads.py `kv_source`): how many key/value heads
    # the designed heads share. Its control lives in the generation lab's view (app/views/shared_keys.py).
    Setting(attr="kv_heads",
            help=("how many key/value heads four heads share: 4 (each its own, multi-head), 2 (grouped-query) "
                  "or 1 (multi-query). Sentence mode: the designed heads, each group using the W_K and W_V of "
                  "its first head; model mode: the trained model's variant with that many, trained alike"),
            example="2",
            url="kv_heads", host="kv_heads", control="kv_heads", kind="integer", default=len(heads.HEADS),
            low=1, high=len(heads.HEADS), choices=KV_HEADS, state="kv_heads"),
    Setting(attr="q",
            help="matrix mode: Q, one row per asking position (up to 16 rows of up to 8 numbers)",
            example="1,0;0,1;1,1",
            url="q", host="q", control=None, kind="matrix", default=None,
            high=matrices.MAX_ROWS, clears=("seed",)),
    Setting(attr="k",
            help="matrix mode: K, one row per position looked at (empty: K = Q)", example="1,0;0,1;1,1",
            url="k", host="k", control=None, kind="matrix", default=None,
            high=matrices.MAX_ROWS, clears=("seed",)),
    Setting(attr="v",
            help="matrix mode: V, one row per key (empty: V = K)", example="10,0;0,10;5,5",
            url="v", host="v", control=None, kind="matrix", default=None,
            high=matrices.MAX_ROWS, clears=("seed",)),
    Setting(attr="seed",
            help="matrix mode: the random example's seed (Q, K and V 8×4, whole numbers from −2 to 2)",
            example="42",
            url="seed", host="seed", control=None, kind="integer", default=None,
            low=0, high=SEED_MAX, clears=("q", "k", "v")),
    Setting(attr="focus",
            help="the selected word, counted from 0 (matrix mode: the row of Q); none: no word selected",
            example="5",
            url="focus", host="focus", control="word", kind="index", default=None,
            recompute=False, note="link_focus_bad", always=True, take=_take_focus),
    Setting(attr="mask",
            help="the causal mask: no word looks at the words after it", example="1",
            url="mask", host="mask", control="mask", kind="flag", default=False,
            note="link_flag_bad", state="mask", always=True),
    Setting(attr="include_self",
            help="a word may look at itself, as a real model does", example="1",
            url="self", host="self", control="self", kind="flag", default=False,
            note="link_flag_bad", state="include_self", always=True),
    Setting(attr="scaled",
            help="divide the dot products by √d_k", example="0",
            url="scaled", host="scaled", control="scaled", kind="flag", default=True,
            note="link_flag_bad", state="scaled"),
    Setting(attr="temperature",
            help="the temperature T: the logits are divided by it too (low: sharper, high: flatter)",
            example="0.5",
            url="temp", host="temp", control="temp", kind="number", default=1.0,
            low=0.05, high=20.0, log2_control=True, state="temperature"),
    Setting(attr="slope",
            help=("the distance bias m: m × |i − j| is taken off every logit, so near words count more (0: "
                  "off)"),
            example="0.5",
            url="pos", host="pos", control="pos", kind="number", default=0.0,
            low=0.0, high=10.0, state="position_bias"),
    # Word order (docs/DESIGN.md, "Position"; app/attention.py): sentence and matrix modes. Their
    # controls live with the position lab's views, not among the other settings.
    Setting(attr="position",
            help=("how word order enters: none (attention alone ignores it), sinusoidal (sines and cosines "
                  "added to the cards), rope (q and k turned by their positions) or alibi (a distance bias "
                  "on the scores, each head its own slope)"),
            example="rope",
            url="position", host="position", control="position", kind="choice", default="none",
            choices=attention.POSITION_KINDS),
    Setting(attr="offset",
            help=("word i sits at position offset + i, as if the sentence came later in a longer text "
                  "(sinusoidal and rope)"),
            example="3",
            url="offset", host="offset", control="offset", kind="integer", default=0,
            low=0, high=10_000, read_control=lambda element: _read_lab_number("offset", element)),
    # The default base, 10, and not the papers' 10,000: with cards of 4 numbers there are two
    # pairs, turning θ_0 = 1 and θ_1 = base^(−1/2) radians a word. At 10,000 the second pair turns
    # 0.01 rad a word and stands still over a six-word sentence; at 10 it turns 18° a word (about
    # a right angle over six words) while the first turns 57°: both visibly, at different speeds.
    Setting(attr="base",
            help=("the frequency base of sinusoidal and rope: pair t turns base^(−2t/d) radians a word "
                  "(default 10, so both pairs of a 4-number card turn visibly over a short sentence)"),
            example="10000",
            url="base", host="base", control="base", kind="number", default=attention.DEFAULT_BASE,
            low=2.0, high=1_000_000.0, read_control=lambda element: _read_lab_number("base", element)),
    Setting(attr="rope_key",
            help=("the position lab's RoPE view: the word whose key is turned beside the selected word's query, "
                  "counted from 0 (none: the word it looks at most)"),
            example="2",
            url="rope_key", host="rope_key", control="rope_key", kind="integer", default=None,
            low=0, high=MAX_LIMIT, nullable=True),
    # The attention window (docs/DESIGN.md, "Cost of the pattern" and "Generation"): one setting
    # for the cost lab's window patterns and model mode's sliding window; none: no window.
    Setting(attr="window",
            help=("the window w: a word sees only the words at most w positions away (patterns window, "
                  "local_global and bigbird; in model mode each position sees itself and the w before it); "
                  "none: no window"),
            example="2",
            url="window", host="window", control="window", kind="integer", default=None,
            low=0, high=MAX_LIMIT, nullable=True, read_control=_read_window),
    # The cost lab's pattern (docs/DESIGN.md, "Cost of the pattern"; app/attention.py,
    # pattern_cells): which cells are computed at all. Its controls live in the lab's own view
    # (app/views/cost.py), not among the other settings.
    Setting(attr="pattern",
            help=("which cells are computed: full (every one), window (|i − j| ≤ window), local_global (the "
                  "window and the global words), bigbird (those and random keys from seed) or linear "
                  "(every cell, φ(q)·φ(k) instead of softmax)"),
            example="window",
            url="pattern", host="pattern", control="pattern", kind="choice", default="full",
            choices=patterns.PATTERNS),
    Setting(attr="global_tokens",
            help="the cost lab's global words, counted from 0 (local_global and bigbird): each sees every word "
                 "and every word sees it",
            example="0,5",
            url="global", host="global", control=None, kind="text", default="", take=_take_global),
    Setting(attr="random_keys",
            help="bigbird: how many random keys each row adds, drawn from seed (none: 2)",
            example="2",
            url="random", host="random", control="random", kind="integer", default=None,
            low=0, high=MAX_LIMIT, nullable=True),
    # FlashAttention's tiles (docs/DESIGN.md, "Cost of the pattern"; app/flash.py): the selected
    # row computed over blocks of B keys. `flash_step` is how many blocks its table has reached
    # (the student steps through them; none: every block).
    Setting(attr="flash",
            help=("FlashAttention's block size B: the selected row is also computed over blocks of B keys, "
                  "one line a block, ending at the same output (none: off)"),
            example="2",
            url="flash", host="flash", control="flash", kind="integer", default=None,
            low=1, high=flash.MAX_BLOCK, nullable=True, clears=("flash_step",)),
    Setting(attr="flash_step",
            help="how many of FlashAttention's blocks its table shows, one more at each step (none: all)",
            example="1",
            url="flash_step", host="flash_step", control=None, kind="integer", default=None,
            low=1, high=MAX_LIMIT, nullable=True),
    # The trained model writes (docs/DESIGN.md, "Generation"; app/generate.py): model mode only.
    # Its controls are the generation lab's buttons (app/views/generation.py), not a row of settings.
    Setting(attr="generate",
            help=("model mode: the model writes this many letters after the typed ones, each the most likely "
                  "next letter, reading one position at a time with a KV cache (0: none)"),
            example="4",
            url="generate", host="generate", control=None, kind="integer", default=0,
            low=0, high=40),
    Setting(attr="view",
            help=("the view an embedded widget opens with: bars, table (the steps), heatmap (the matrix) or "
                  "output (the new card)"),
            example="heatmap",
            url="view", host="view", control="view", kind="choice", default="bars",
            choices=VIEWS, recompute=False),
    # Guess first (app/quiz.py): the answer stays hidden until the student guesses.
    Setting(attr="quiz",
            help="guess first: the answer stays hidden until the student guesses where the word looks most",
            example="1",
            url="quiz", host="quiz", control="quiz", kind="flag", default=False,
            note="link_flag_bad", take=_take_quiz),
    # A graded exercise (a SCORM package's launch, an exercise link with lock=1): guess first
    # stays on, and nothing shows a row's weights before its guess (docs/DESIGN.md, "Lock").
    Setting(attr="questions",
            help=("guess first: the questions the exercise asks; a graded exercise (lock=1) is complete once "
                  "the student has answered this many"),
            example="8",
            url="questions", host="questions", control=None, kind="integer", default=QUESTIONS,
            low=1, high=MAX_TOKENS),
    Setting(attr="lock",
            help=("a graded exercise: guess first cannot be switched off, the sentence and the switches "
                  "cannot be changed, and no weight is shown or published before its guess; only a link "
                  "sets it"),
            example="1",
            url="lock", host=None, control=None, kind="flag", default=False,
            note="link_flag_bad", take=_take_lock),
)
BY_ATTR = {s.attr: s for s in SCHEMA}
BY_CONTROL = {s.control: s for s in SCHEMA if s.control}
URL_KEYS = tuple(s.url for s in SCHEMA if s.url)
HOST_KEYS = ("type",) + tuple(s.host for s in SCHEMA if s.host)
V1_ORDER = ("s", "focus", "mask", "self", "lang")  # links of contract version 1 write these first
TEMPERATURE_CONTROL = (0.125, 8.0)  # the slider: ⅛ (scale off: saturated) to 8 (flat); links 0.05–20


class Settings:
    """What the student chose. `text` is what is in the box; `sentence` what is analysed. `aside`:
    the work the student left in another mode, {mode: (lang, {attribute: value})} (`MODE_WORK`),
    for a step back into that mode; it is the page's memory, in no link or state."""

    __slots__ = ("text", "aside") + tuple(s.attr for s in SCHEMA)
    SAID = ("text",) + tuple(s.attr for s in SCHEMA)  # (what compares and prints: not `aside`)

    def __init__(self, sentence, focus=None, mask=False, include_self=False, lang=i18n.DEFAULT_LANG,
                 text=None, aside=None, **others):
        for setting in SCHEMA:
            setattr(self, setting.attr, others.pop(setting.attr, setting.default))
        if others:
            raise TypeError(f"unknown settings: {sorted(others)}")
        self.sentence, self.focus, self.mask, self.include_self, self.lang = \
            sentence, focus, mask, include_self, lang
        self.text = sentence if text is None else text
        self.aside = {} if aside is None else aside

    def copy(self, **changes):
        """These settings with `changes`; a changed setting resets the ones it `clears`."""
        fields = {name: getattr(self, name) for name in self.__slots__}
        for name, value in changes.items():
            setting = BY_ATTR.get(name)
            if setting is not None and value != fields[name]:
                for cleared in setting.clears:
                    if cleared not in changes:
                        fields[cleared] = BY_ATTR[cleared].default
        fields.update(changes)
        return Settings(**fields)

    def __eq__(self, other):
        return isinstance(other, Settings) and all(
            getattr(self, n) == getattr(other, n) for n in self.SAID)

    def __repr__(self):
        return "Settings(" + ", ".join(f"{n}={getattr(self, n)!r}" for n in self.SAID) + ")"


def default_settings(lang=i18n.DEFAULT_LANG):
    sentence, focus = i18n.PRESETS[lang][0]
    return Settings(sentence, focus, lang=lang)


def examples(lang, mode="sentence"):
    """The examples offered: sentences, or in model mode letters ([(text, position selected)])."""
    return (i18n.MODEL_EXAMPLES if mode == "model" else i18n.PRESETS)[lang]


def preset_index(sentence, lang, mode="sentence"):
    """Index of `sentence` among the language's examples (of the mode), or None."""
    for i, (s, _) in enumerate(examples(lang, mode)):
        if s == sentence:
            return i
    return None


def preset_focus(sentence, lang, mode="sentence"):
    """The word an example starts with selected, or None for a sentence that is no example."""
    preset = preset_index(sentence, lang, mode)
    return None if preset is None else examples(lang, mode)[preset][1]


def model_tokens(text):
    """(tokens, None) of model mode: the start token and the letters typed (app/model.py), or
    (None, Note) when there is no letter; the model's files not readable: the letters alone."""
    try:
        limit = model.config()["n_ctx"] - 1
    except model.Unavailable:
        limit = MAX_LIMIT
    kept, _, _ = model.letters(text, limit)
    if not kept:
        return None, Note("model_empty")
    return [Token(t, [], None) for t in [model.START] + kept], None


def sentence_tokens(settings, text, lexicons):
    """(tokens, None) for a text the page can show in the settings' mode, or (None, Note)."""
    if settings.mode == "model":
        return model_tokens(text)
    return check_sentence(text, lexicons[settings.lang], settings.limit)


def check_sentence(text, lexicon, limit=MAX_TOKENS):
    """(tokens, None) for a sentence the page can show, or (None, Note) saying why not."""
    if len(text) > limit * CHARS_PER_TOKEN:
        return None, Note("too_long_chars", count=len(text), limit=limit * CHARS_PER_TOKEN)
    words = tokenize(text, lexicon.lang)
    if not words:
        return None, Note("empty")
    if len(words) > limit:
        return None, Note("too_long", count=len(words), limit=limit)
    return lookup(words, lexicon), None


def _bad_note(setting, raw, why=None, settings=None):
    """The note a link's bad value gets (`why`: what the setting's hook said; `settings`: those
    read so far, the mode among them)."""
    if isinstance(why, Note):
        return Note(setting.note, why=why)
    if setting.attr == "limit":
        return Note("link_limit_bad", value=raw, limit=MAX_LIMIT)
    if setting.note == "link_step_bad":
        return Note(setting.note, value=raw, count=path.count(settings.path if settings is not None else None))
    if setting.note == "link_focus_bad" and settings is not None and settings.mode == "model":
        return Note("link_focus_bad_model", value=raw)  # (a position of the letters, not a word)
    if setting.note in ("link_lang_bad", "link_focus_bad"):
        return Note(setting.note, value=raw)
    if setting.kind == "flag":
        return Note("link_flag_bad", name=setting.url, value=raw, fallback=setting.to_text(setting.default))
    return Note("link_value_bad", name=setting.url, value=raw, allowed=setting.allowed(),
                fallback=setting.to_text(setting.default))


def parse_params(search, lexicons):
    """Settings from the URL's parameters, and notes for every value that had to be replaced.

    `search` is a query string ("?s=...&focus=1"), or the parameters already decoded as
    {name: [values]} (the browser passes these, decoded by URLSearchParams, which spares
    importing urllib there: ~60 ms of Pyodide's start).

    Every setting of SCHEMA with a URL key is read the same way, in SCHEMA's order (its
    `take` hook, if any, puts the value in): a value it does not accept is replaced by its
    default, with a note. What a setting's hook keeps instead: a sentence that is blank or
    too long -> the first example (the text still goes into the box); `focus` not a word
    index -> no word selected. Then each `settle` hook looks at the whole (matrix mode's
    defaults, the cards' count). Repeated parameters: the first one counts.
    """
    if isinstance(search, str):
        from urllib.parse import parse_qs
        params = parse_qs(search.lstrip("?"), keep_blank_values=True)
    else:
        params = search
    settings, change = default_settings(), Change(None, lexicons, link=True)
    for setting in SCHEMA:
        values = params.get(setting.url) if setting.url else None
        if not values:
            continue
        raw = values[0]
        try:
            settings = setting.apply(settings, setting.from_text(raw), change)
        except Bad as bad:  # (what the setting's hook keeps, else its default)
            change.notes.append(_bad_note(setting, raw, bad.note, settings))
            settings = bad.keep if bad.keep is not None else settings.copy(**{setting.attr: setting.default})
    given = set(params)
    for setting in SCHEMA:
        if setting.settle is not None:
            settings = setting.settle(settings, given, change)
    return settings, change.notes


def mask_possible(settings):
    """The causal mask makes sense only with one row and one column per token (n_q = n_k):
    in matrix mode with cross-attention it is not offered."""
    if settings.mode != "matrix":
        return True
    q, k, _ = matrices.resolve(settings.q, settings.k, settings.v, settings.seed)
    return len(q) == len(k)


def query_count(settings, tokens=None):
    """How many rows ask: the words of the sentence, or Q's rows in matrix mode."""
    if settings.mode == "matrix":
        return len(matrices.resolve(settings.q, settings.k, settings.v, settings.seed)[0])
    return len(tokens) if tokens is not None else len(tokenize(settings.sentence, settings.lang))


def param_pairs(settings):
    """The URL parameters that reproduce these settings, as (name, value) pairs.

    The version-1 parameters (s, focus, mask, self, lang: `always`) are always written, first
    and in that order; the others only when they differ from their default.
    """
    pairs = [(setting.url, setting.to_text(value)) for setting in SCHEMA
             if setting.url and (value := getattr(settings, setting.attr)) is not None
             and (setting.always or value != setting.default)]
    return sorted(pairs, key=lambda p: V1_ORDER.index(p[0]) if p[0] in V1_ORDER else len(V1_ORDER))


# What URLSearchParams writes as it is (application/x-www-form-urlencoded); a space is '+'.
_FORM_SAFE = frozenset(b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789*-._")


@functools.lru_cache(maxsize=256)  # the sentence is the long one, and it changes rarely
def form_encode(value):
    """`value` as the browser's URLSearchParams writes it: letters, digits and *-._ kept,
    a space as +, every other UTF-8 byte as %XX."""
    return "".join(chr(b) if b in _FORM_SAFE else "+" if b == 32 else f"%{b:02X}"
                   for b in value.encode("utf-8", "replace"))


def page_query(settings, others=(), embed=None):
    """The page address's query (without '?') for these settings, written in Python as
    URLSearchParams would (a word click costs no browser call): `others`, the address's
    (name, value) pairs that are no setting, kept in order, then `param_pairs`; `embed`
    True sets embed=1 (in place when there), False removes it."""
    pairs = [p for p in others if p[0] not in URL_KEYS] + param_pairs(settings)
    if embed is not None:
        at = next((i for i, p in enumerate(pairs) if p[0] == "embed"), len(pairs))
        pairs = [p for p in pairs if p[0] != "embed"]
        if embed:
            pairs.insert(at, ("embed", "1"))
    return "&".join(form_encode(name) + "=" + form_encode(value) for name, value in pairs)


def to_params(settings):
    """The URL query string (without '?') that reproduces these settings."""
    from urllib.parse import urlencode
    return urlencode(param_pairs(settings))


def switch_language(settings, lang, lexicons):
    """(settings, tokens) in another language: an example becomes the same example there,
    a typed sentence stays as it is (its cards now come from that language's lexicon)."""
    preset = preset_index(settings.sentence, settings.lang, settings.mode)
    if preset is not None and settings.mode == "matrix":  # (the focus is a row of Q, not a word)
        sentence, focus = i18n.PRESETS[lang][preset][0], settings.focus
    elif preset is not None:
        sentence, focus = examples(lang, settings.mode)[preset]
        if settings.mode == "model" and sentence == settings.sentence:  # (the same letters: the same position)
            focus = settings.focus
    else:
        sentence, focus = settings.sentence, settings.focus
    if settings.mode == "model":  # (letters are letters in both languages)
        tokens, _ = model_tokens(sentence)
        return settings.copy(sentence=sentence, text=sentence, focus=focus, lang=lang), tokens
    tokens, _ = check_sentence(sentence, lexicons[lang], settings.limit)
    if tokens is None:  # cannot happen for a sentence already shown; never crash
        sentence, focus = i18n.PRESETS[lang][0]
        tokens, _ = check_sentence(sentence, lexicons[lang], settings.limit)
    if focus is not None and settings.mode != "matrix" and focus >= len(tokens):
        focus = None
    return settings.copy(sentence=sentence, text=sentence, focus=focus, lang=lang), tokens


def reset(settings, lexicons):
    """Everything back to its default, in the language the student reads, on the step of the
    guided path the student is on (in its mode); in model mode, the model's first example."""
    fresh = default_settings(settings.lang).copy(limit=settings.limit)
    if settings.mode == "model":
        fresh = switch_mode(fresh, "model")
        return fresh, model_tokens(fresh.sentence)[0]
    tokens, _ = check_sentence(fresh.sentence, lexicons[fresh.lang], fresh.limit)
    if settings.step is not None:
        fresh = _take_step(fresh, settings.step, Change(tokens, lexicons))
    return fresh, tokens


def host_update(settings, tokens, data, lexicons):
    """Apply an `attention:set` message from the host page, trusting nothing in it.

    `settings` and `tokens` are what the page shows now. Returns (settings, tokens,
    warnings, notes). `warnings` are for the console (unknown keys, wrong types: ignored);
    `notes` are for the page (a sentence that cannot be shown, which keeps the old one).
    Fields apply in SCHEMA's order, so a message can set a sentence and select one of its
    words. Switches take booleans (or 0/1), numbers numbers, `focus` an index or null.
    """
    warnings, notes = [], []
    if not isinstance(data, dict):
        return settings, tokens, ["attention:set: the message is not an object; ignored"], notes
    for key in data:
        if key not in HOST_KEYS:
            warnings.append(f"attention:set: unknown key {str(key)[:40]!r} ignored")

    change = Change(tokens, lexicons)
    for setting in SCHEMA:
        key = setting.host
        if key is None or key not in data:
            continue
        value = data[key]
        if setting.kind == "flag" and isinstance(value, int) and not isinstance(value, bool) and value in (0, 1):
            value = bool(value)
        try:
            settings = setting.apply(settings, setting.check(value), change)
        except Bad as bad:
            if isinstance(bad.note, Note):  # (for the page: a sentence that cannot be shown)
                change.notes.append(bad.note)
                settings = bad.keep or settings
            elif setting.falls_back:
                change.notes.append(_bad_note(setting, str(value)[:40], settings=settings))
                settings = setting.apply(settings, setting.default, change)
            else:
                warnings.append(bad.note or f"attention:set: '{key}' must be {setting.host_type()}; ignored")
    return settings, change.tokens, warnings, notes + change.notes


def switch_mode(settings, mode):
    """Settings in another mode, with that mode's defaults: matrix mode includes the row
    itself (standard attention) and starts with its first row selected; sentence mode
    goes back to the toy of the first lesson (the word itself left out); model mode starts on
    its first example of letters (and leaves the guided path, which is about the designed
    heads), and going back from it brings the first example sentence. The settings of the labs'
    views (the window, the key/value heads, …) go back to their defaults to or from model mode:
    in sentence mode they are the designed heads', in model mode the trained model's. The work
    the change replaces is kept aside (`Settings.aside`: `_take_step` takes it back)."""
    if mode == settings.mode:
        return settings
    after = _switched(settings, mode)
    left = {attr: getattr(settings, attr) for attr in MODE_WORK if getattr(after, attr) != getattr(settings, attr)}
    after.aside = {**settings.aside, settings.mode: (settings.lang, left)}
    return after


def _switched(settings, mode):
    if mode == "model":  # its first example: letters, not words; causal, a position sees itself
        sentence, focus = i18n.MODEL_EXAMPLES[settings.lang][0]
        return settings.copy(mode=mode, sentence=sentence, text=sentence, focus=focus, step=None,
                             mask=True, include_self=True, **_view_knobs())
    if settings.mode == "model":  # back from letters: the first example sentence, the toy's switches
        sentence, focus = i18n.PRESETS[settings.lang][0]
        settings = settings.copy(mode="sentence", sentence=sentence, text=sentence, focus=focus, mask=False,
                                 include_self=False, checkpoint=None, **_view_knobs())
        return _switched(settings, mode) if mode != "sentence" else settings
    if mode == "matrix":
        return settings.copy(mode=mode, include_self=True, focus=0)
    return settings.copy(mode=mode, include_self=False, focus=preset_focus(settings.sentence, settings.lang))
