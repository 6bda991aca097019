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

import functools

from app import attention, heads, i18n, labs, matrices, model, path
from app.lexicon import Token, lookup, tokenize
from app.matrices import shortest
from app.setting import MAX_LIMIT, TRUE_WORDS, Bad, Change, Note, Setting, read_typed_number  # noqa: F401 (the schema's names)
from app.views import registry

MAX_TOKENS = 60  # the most words (and punctuation marks) the page shows well, by default
CHARS_PER_TOKEN = 40  # text longer than limit × this is refused before it is even split
# The views an embedded widget shows one at a time: bars, table, heatmap, output, and any view
# declared as a tab (app/views/registry.py).
VIEWS = registry.TABS
MODES = ("sentence", "matrix", "model")  # a sentence with its cards, Q, K, V typed in, or the trained
# model on letters (docs/DESIGN.md; app/model.py)
SEED_MAX = 999_999  # the random example's seed: 0…999999


def _read_window(setting, element):
    """The window as typed: an empty box is no window (model mode's view offers it); a value out of
    range or no number says why on the page."""
    if not str(element.value).strip():
        return None
    return read_typed_number(setting, element)


def global_indices(settings):
    """The global words' indices (the `global` setting's text, "0,5")."""
    return tuple(int(x) for x in settings.global_tokens.split(",") if x)


def _take_lang(settings, lang, change):
    """Another language: an example becomes the same example there, a typed sentence keeps its
    lexicon (`switch_language`)."""
    if lang != settings.lang:
        settings, change.tokens = switch_language(settings, lang, change.lexicons)
    return settings


def reading(settings):
    """The language whose lexicon reads the sentence: the `lexicon` setting's, else the page's."""
    return settings.lexicon or settings.lang


def _take_lexicon(settings, lexicon, change):
    """The lexicon that reads the sentence; the page's own language's is kept as None (links leave
    it out). Another one reads the sentence again: its words, cards and guesses are that
    language's (its files come first where they are not here yet: lexicon.Needed)."""
    after = settings.copy(lexicon=None if lexicon == settings.lang else lexicon)
    if reading(after) == reading(settings) or settings.mode == "model":  # (letters are read by no lexicon)
        return after
    tokens, problem = sentence_tokens(after, after.sentence, change.lexicons)
    if tokens is None:  # (a text too long in the other language's words: the sentence stays as it is read)
        raise Bad(problem, keep=settings)
    change.tokens = tokens
    after = after.copy(cards=None)  # (cards edited were the other reading's, one a word of its split)
    if after.focus is not None and after.mode != "matrix" and after.focus >= len(tokens):
        after = after.copy(focus=None)
    return after


def _take_sentence(settings, sentence, change):
    """A sentence the page can show, split into tokens; one it cannot keeps the old one (its
    text stays in the box) and says why."""
    tokens, problem = sentence_tokens(settings, sentence, change.lexicons)
    if tokens is None:
        raise Bad(problem, keep=settings.copy(text=sentence))
    change.tokens = tokens
    return step_word(settings.copy(sentence=sentence, text=sentence,
                                      focus=preset_focus(sentence, settings.lang, settings.mode)), tokens)


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


def _checkpoint_control(setting, element):
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
    if step is None:
        _retokenize(settings, after, change)
        return after
    entered = path.step_of(step, settings.path)
    if entered.example is not None and after.sentence == first_example(after.mode, after.lang)[0]:
        after = after.copy(sentence=entered.example[0], text=entered.example[0], focus=entered.example[1])
    defaults = {s.attr: s.default for s in SCHEMA}
    opened = {attr: value for attr, value in entered.opens if getattr(after, attr) == defaults[attr]}
    if opened:
        after = after.copy(**opened)
    _retokenize(settings, after, change)
    return step_word(after, change.tokens)


def step_word(settings, tokens):
    """On a step that follows the selected word (`path.Step.word`) with none selected: the last word
    selected, so that the step's view has a row to show (a typed sentence selects none)."""
    step = path.step_of(settings.step, settings.path)
    if step is None or not step.word or settings.focus is not None:
        return settings
    count = query_count(settings, tokens)
    return settings.copy(focus=count - 1) if count else settings


def first_example(mode, lang):
    """(text, selected position) of the mode's first example in `lang`."""
    return (i18n.MODEL_EXAMPLES if mode == "model" else i18n.PRESETS)[lang][0]


# The student's work a change of mode replaces (model mode has letters where sentence mode has a
# sentence; matrix mode selects a row of Q): kept aside, by mode, for a step back into that mode.
MODE_WORK = ("sentence", "text", "lexicon", "focus", "cards", "checkpoint")


def _take_back(settings):
    """The settings with the work the student left in their mode (`Settings.aside`), if any and if
    written in the page's language (an example sentence is a sentence of its language)."""
    lang, work = settings.aside.get(settings.mode, (None, None))
    if lang != settings.lang or not work:
        return settings
    return settings.copy(**work)


def _owner(control):
    return BY_CONTROL[control].attr


def _in_views():
    """The settings whose controls live in a view: the views' here, and those a lab not here yet
    declares (its manifest's `owns`: a view of it will own them)."""
    return set().union(*(v.settings for v in registry.views())) | set(labs.owned_elsewhere())


def owned(settings):
    """The settings owned where these settings are: on a step, what the step owns (app/path.py
    `Step.owned`); in the explorer, every setting whose control is on its screen: those of the
    settings' row (no view's) and those of the views the explorer shows in the mode."""
    step = path.step_of(settings.step, settings.path)
    if step is not None:
        return step.owned(_owner)
    views = registry.views(settings.mode)
    in_views = _in_views()
    return frozenset(setting for setting in knobs() if setting not in in_views) \
        .union(*(v.settings for v in views if v.explorer))


def knobs():
    """The settings some step of a registered path or some view owns, in SCHEMA's order: the ones
    entering a step may set back. (The student's work has no control a step or a view owns.)"""
    every = _in_views()
    for way in registry.paths().values():
        for step in way.steps:
            every |= step.owned(_owner)
    return tuple(s.attr for s in SCHEMA if s.attr in every)


def _view_knobs():
    """The settings whose controls live in views (the labs' own), which a change to or from model
    mode sets back: in model mode the same names say what the trained model does."""
    in_views = _in_views()
    return {s.attr: s.default for s in SCHEMA if s.attr in in_views}


def _set_back(settings):
    """Every setting a step or a view owns and the step (or the explorer) of `settings` does not,
    back to its default in the mode (matrix mode's include-self, model mode's mask)."""
    keep = owned(settings)
    plain = switch_mode(default_settings(settings.lang), settings.mode)
    back = {attr: getattr(plain, attr) for attr in knobs()
            if attr not in keep and getattr(settings, attr) != getattr(plain, attr)}
    return held(settings.copy(**back) if back else settings)


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


# The order is the order fields apply in (docs/DESIGN.md: lang, lexicon, mode, path, step, sentence, …, focus,
# mask, self, scaled, temp, pos, view, quiz); `limit` comes before the sentence it limits.
SCHEMA = (
    Setting(attr="lang",
            help=("the page's language: it (Italian) or en (English); an example sentence becomes the same "
                  "example in the other language"),
            example="en",
            url="lang", host="lang", control="lang", kind="choice", default=i18n.DEFAULT_LANG,
            choices=i18n.LANGS, note="link_lang_bad", state="lang", always=True, redraw=("all",),
            take=_take_lang),
    # The language whose lexicon reads the sentence (docs/DESIGN.md, "The sentence's lexicon"): None,
    # the page's own; a typed sentence keeps it when the page's language changes.
    Setting(attr="lexicon",
            help=("the lexicon that reads the sentence's words: it (Italian) or en (English); by default the "
                  "page's language. Switching the page's language keeps a typed sentence's lexicon, so its "
                  "cards stay; an example sentence becomes the other language's example, read with its lexicon"),
            example="it",
            url="lexicon", host="lexicon", control="lexicon", kind="choice", default=None,
            choices=i18n.LANGS, redraw=("sentence",), take=_take_lexicon, nullable=True),  # (null: the page's)
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
    # the designed heads share. Its control lives in the generation lab's view (app/labs/generation/shared_keys.py).
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
    # The attention window (docs/DESIGN.md, "Cost of the pattern" and "Generation"): one setting
    # for the cost lab's window patterns and model mode's sliding window; none: no window.
    Setting(attr="window",
            help=("the window w: a word sees only the words at most w positions away (patterns window, "
                  "local_global and bigbird; in model mode each position sees itself and the w before it); "
                  "none: no window"),
            example="2",
            url="window", host="window", control="window", kind="integer", default=None,
            low=0, high=MAX_LIMIT, nullable=True, read_control=_read_window),
)
# Each lab's settings (its manifest, app/labs/<id>/__init__.py) apply after the core's above and
# before the view and guess first's below.
_AFTER_LABS = (
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
SCHEMA = SCHEMA + labs.settings() + _AFTER_LABS
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
    return check_sentence(text, lexicons[reading(settings)], settings.limit)


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
    return held(settings), change.notes


def held(settings):
    """`settings` with what each setting off its default holds (`Setting.holds`) put back: the
    last word of a link, a host message, a control and a step's set-back."""
    need = {}
    for setting in SCHEMA:
        if setting.holds and getattr(settings, setting.attr) != setting.default:
            need.update(setting.holds)
    return settings.copy(**need) if any(getattr(settings, a) != v for a, v in need.items()) else settings


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
    return len(tokens) if tokens is not None else len(tokenize(settings.sentence, reading(settings)))


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
    """(settings, tokens) in another language: an example (read with its own language's lexicon)
    becomes the same example there, read with that language's; any other sentence stays as it is,
    read with the lexicon that read it (its cards do not change: the page's language is not the
    sentence's)."""
    preset = preset_index(settings.sentence, settings.lang, settings.mode)
    if settings.lexicon is not None and settings.mode != "model":  # (an example read with another lexicon)
        preset = None
    if preset is not None and settings.mode == "matrix":  # (the focus is a row of Q, not a word)
        sentence, focus, words = i18n.PRESETS[lang][preset][0], settings.focus, lang
    elif preset is not None:
        sentence, focus = examples(lang, settings.mode)[preset]
        words = lang
        if settings.mode == "model" and sentence == settings.sentence:  # (the same letters: the same position)
            focus = settings.focus
    else:
        sentence, focus, words = settings.sentence, settings.focus, reading(settings)
    lexicon = None if words == lang else words
    if settings.mode == "model":  # (letters are letters in both languages)
        tokens, _ = model_tokens(sentence)
        return settings.copy(sentence=sentence, text=sentence, focus=focus, lang=lang, lexicon=lexicon), tokens
    tokens, _ = check_sentence(sentence, lexicons[words], settings.limit)
    if tokens is None:  # cannot happen for a sentence already shown; never crash
        (sentence, focus), lexicon = i18n.PRESETS[lang][0], None
        tokens, _ = check_sentence(sentence, lexicons[lang], settings.limit)
    if focus is not None and settings.mode != "matrix" and focus >= len(tokens):
        focus = None
    return settings.copy(sentence=sentence, text=sentence, focus=focus, lang=lang, lexicon=lexicon), tokens


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
    return held(settings), change.tokens, warnings, notes + change.notes


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
        return settings.copy(mode=mode, sentence=sentence, text=sentence, lexicon=None, focus=focus, step=None,
                             mask=True, include_self=True, **_view_knobs())
    if settings.mode == "model":  # back from letters: the first example sentence, the toy's switches
        sentence, focus = i18n.PRESETS[settings.lang][0]
        settings = settings.copy(mode="sentence", sentence=sentence, text=sentence, lexicon=None, focus=focus,
                                 mask=False, include_self=False, checkpoint=None, **_view_knobs())
        return _switched(settings, mode) if mode != "sentence" else settings
    if mode == "matrix":
        return settings.copy(mode=mode, include_self=True, focus=0)
    return settings.copy(mode=mode, include_self=False, focus=preset_focus(settings.sentence, settings.lang))
