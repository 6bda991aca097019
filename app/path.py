"""The guided path, "Passo per passo" / "Step by step": the formula one idea at a time, in the
order of the course's lesson (the cards → the query → the dot products → ÷ √d_k → softmax →
the mask → the values → the whole matrix → heads → word order → a second layer → matrix mode).

The `step` setting (app/settings.py; URL `step=N`, `attention:set` key `step`, state `step`)
picks one of `STEPS`, or none: the explorer, with everything at once. A step shows the
sentence with its cards and only the views it adds (`shows`, the ids of app/render.py's
sections without "view-": static/style.css hides the others by `data-show` on #app), puts its
settings in view (`controls`: the rest stay behind "More settings", each still in the URL), and
says in a line or two what is new, with one thing to try and its answer behind a disclosure
(app/i18n.py: path_<id>_title, _text, _try, _answer). The answer quotes the numbers of the
student's own settings, written from the record at every change (app/path_answers.py): a
switch an earlier step asked for and left on changes them, and the answer with them. The last
step ends the path with a summary and its ways on (the explorer, the trained model). The last step is matrix mode: entering
it switches the mode, a step before it switches back (the setting's hook); leaving the path for
the explorer keeps the mode, and choosing the other mode on a step leaves the path.
"""

import dataclasses


@dataclasses.dataclass(frozen=True, kw_only=True)
class Step:
    id: str  # its strings in app/i18n.py are path_<id>_…
    shows: tuple  # the views it shows (render.py's section ids without "view-"; "order", "editor")
    controls: tuple = ()  # the settings' controls in view beside them (app/views/controls.py)
    mode: str = "sentence"  # the mode it is about


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
COUNT = len(STEPS)
EXPLORER_CONTROLS = ("mask", "self")  # the explorer's settings in view (the others: "More settings")


def step_of(number):
    """Step `number` (1…COUNT), or None for the explorer (None)."""
    return None if number is None else STEPS[number - 1]


def controls_in_view(number):
    """The controls shown beside the views at step `number` (None: the explorer)."""
    step = step_of(number)
    return EXPLORER_CONTROLS if step is None else step.controls


def shows(number):
    """What #app's data-show says at step `number` (None: the explorer, which shows all)."""
    step = step_of(number)
    return None if step is None else " ".join(step.shows) or "cards"
