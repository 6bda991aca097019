"""The guided path, "Passo per passo" / "Step by step": the formula one idea at a time, in the
order of the course's lesson (the cards → the query → the dot products → ÷ √d_k → softmax →
the mask → the values → the whole matrix → heads → word order → a second layer → matrix mode).

The `step` setting (app/settings.py; URL `step=N`, `attention:set` key `step`, state `step`)
picks one of `STEPS`, or none: the explorer, with everything at once. A step shows the
sentence with its cards and only the views it adds (`shows`, the ids of app/render.py's
sections without "view-": the analysis draws no other, app/views/registry.py `draws`, and
static/style.css hides the rest of the page's by `data-show` on #app), puts its
settings in view (`controls`: the rest stay behind "More settings", each still in the URL), and
says in a line or two what is new, with one thing to try and its answer behind a disclosure
(app/i18n.py: path_<id>_title, _text, _try, _answer). The answer quotes the numbers of the
student's own settings, written from the record at every change (app/path_answers.py): no
percentage or count the screen does not show. The last step ends the path with a summary and
its ways on (the explorer, the trained model). The last step is matrix mode: entering it
switches the mode, a step before it switches back (the setting's hook); leaving the path for
the explorer keeps the mode, and choosing the other mode on a step leaves the path.

A step owns settings (`Step.owns`; by default those of the controls it puts in view and of the
views it shows, `registry.View.settings`). Entering a step, by Next, Back, a link or a host
message, sets back to its default (the mode's) every setting some step or view owns and this
step does not: a switch one step asked for does not go on shaping the next step's numbers, and
BigBird chosen on one step does not thin out the next step's table. A step may open on a value of
a setting it owns (`Step.opens`), set where that setting is still at its default. A link's own
values, read after its step, stay. The explorer owns every control on its screen: leaving a path for it sets
back only what a view it does not show owns. The student's own work is no step's and always
stays: the sentence or letters typed, the selected word (a step that follows a word, `Step.word`,
selects the last one only where none is selected), the cards and matrices typed, the
letters the model wrote, the language (a head's edited matrices go with the head, when a step
sets it back); a step in another mode keeps the work of the mode it left aside, and a step back
into that mode finds it again (app/settings.py `_take_step`; docs/DESIGN.md, "Every path's
promises").

A path is data (`Path`): its id, where its strings are, its steps. This one, "formula", is the
`path` setting's default; another is declared with app/views/registry.py's `add_path`, beside
its views, and named in a link as `path=<id>&step=N` (docs/DESIGN.md). Its steps name views of
the registry, which checks them; no path has more steps than this one (the `step` setting's
range, 1…COUNT).
"""

import dataclasses
import importlib

from app import labs
from app.views import registry


@dataclasses.dataclass(frozen=True, kw_only=True)
class Step:
    id: str  # its strings in app/i18n.py are path_<id>_…
    shows: tuple  # the views it shows (render.py's section ids without "view-"; "order", "editor")
    controls: tuple = ()  # the settings' controls in view beside them (app/views/controls.py)
    mode: str = "sentence"  # the mode it is about
    # What it opens on, (text, selected position), when the student's text is still the mode's
    # first example (nothing typed: their own text stays); None: that example.
    example: tuple | None = None
    # The settings it owns (attributes of app/settings.py's Settings): entering the step sets back
    # every other setting a step or a view owns. None: those of its `controls` and of the views it
    # shows (`owned`).
    owns: tuple | None = None
    # Settings it opens on, ((attribute, value), …): entering the step sets each one still at its
    # default to that value (one the student or a link gave stays): FlashAttention's step opens on
    # a block size, so its table is there to step through.
    opens: tuple = ()
    # It follows the selected word: with none selected (a sentence typed, which selects none), it
    # selects the last word, on entering the step and when a sentence is typed there.
    word: bool = False

    def owned(self, setting_of):
        """The settings it owns, as a frozenset: `owns`, or those of its `controls` (`setting_of`:
        the attribute a control's name changes, app/settings.py's BY_CONTROL) and of its views."""
        if self.owns is not None:
            return frozenset(self.owns)
        return frozenset(setting_of(c) for c in self.controls).union(
            *(registry.view(v).settings for v in self.shows))


@dataclasses.dataclass(frozen=True, kw_only=True)
class Path:
    id: str  # its name in a link: path=<id>
    steps: tuple  # its Steps, in order
    strings: str = ""  # the prefix of its strings in app/i18n.py (default path_<id>_): <prefix>name,
    # and <prefix><step id>_title, _text, _try, _answer for each step; <prefix>end (optional): the
    # summary that closes its last step
    # The module that writes its steps' "try this" and answer from the record on screen (its
    # `try_params(step, tokens)` and `answer(step, settings, tokens, record)`); "": the strings as
    # they are (an answer that quotes no number of the student's screen).
    answers: str = ""

    @property
    def prefix(self):
        return self.strings or f"path_{self.id}_"


STEPS = (
    Step(id="cards", shows=()),
    Step(id="query", shows=("query",)),
    Step(id="dots", shows=("query", "table")),
    Step(id="scale", shows=("table",), controls=("scaled", "temp")),
    Step(id="softmax", shows=("bars", "table"), controls=("temp",)),
    Step(id="mask", shows=("bars", "heatmap"), controls=("mask", "self")),
    Step(id="values", shows=("bars", "output")),
    Step(id="matrix", shows=("heatmap",), controls=("mask", "self")),
    Step(id="heads", shows=("heads", "multi"), controls=("head",)),
    Step(id="order", shows=("bars", "order"), controls=("mask", "pos")),
    Step(id="layer2", shows=("layer2",)),
    Step(id="hands-on", shows=("steps", "bars", "table", "heatmap"), controls=("mask", "self"), mode="matrix"),
)
COUNT = registry.MAX_STEPS  # (the formula's path is the longest)
assert len(STEPS) == COUNT
DEFAULT = "formula"
FORMULA = registry.add_path(Path(id=DEFAULT, steps=STEPS, strings="path_", answers="app.path_answers"))
EXPLORER_CONTROLS = ("mask", "self")  # the explorer's settings in view (the others: "More settings")


def path_of(name=None):
    """The path called `name` (None: the formula's)."""
    if name in (None, DEFAULT):
        return FORMULA
    declared = registry.paths()
    if name not in declared:
        labs.need_path(name)  # (a lab's path whose lab is not here yet: the message waits for it)
    return declared[name]


def count(name=None):
    """How many steps the path `name` has."""
    return len(path_of(name).steps)


def step_of(number, name=None):
    """Step `number` (1…its count) of the path `name`, or None for the explorer (None)."""
    return None if number is None else path_of(name).steps[number - 1]


def step_key(number, key, name=None):
    """The string key of step `number`'s `key` ("title", "text", "try", "answer")."""
    return f"{path_of(name).prefix}{step_of(number, name).id}_{key}"


def answers_of(way):
    """The module that writes `way`'s answers from the record, or None (imported when first asked:
    it reads the record's modules, which need not load for a path's declaration)."""
    return importlib.import_module(way.answers) if way.answers else None


def controls_in_view(number, name=None):
    """The controls shown beside the views at step `number` (None: the explorer)."""
    step = step_of(number, name)
    return EXPLORER_CONTROLS if step is None else step.controls


def shows(number, name=None):
    """What #app's data-show says at step `number` (None: the explorer, which shows all)."""
    step = step_of(number, name)
    return None if step is None else " ".join(step.shows) or "cards"
