"""One setting of the page, as app/settings.py's `SCHEMA` and each lab's `app/labs/<id>/__init__.py`
declare it (`Setting`), and what a setting's hook may raise or read: `Bad` (a value it refuses, with a
`Note` for the page) and `Change` (the tokens, lexicons and notes beside the settings).

Its own module so that a lab's manifest can declare settings without importing app/settings.py, which
reads every lab's (app/labs/__init__.py).
"""

import dataclasses

from app import matrices
from app.matrices import shortest

MAX_LIMIT = 500  # the most a link may ask for with ?limit= (long texts, benchmarks)
TRUE_WORDS = ("1", "true", "on", "yes")  # what a link's switch reads as on (static/boot.js too)
FALSE_WORDS = ("0", "false", "off", "no", "")


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
    # Other settings' values it needs while off its default ({attr: value}): whatever a link, a host
    # message, a control or a step's set-back asks for them then, they keep these (a mixer of the
    # beyond lab is causal and includes the word itself: the mask and include-self stay on).
    holds: dict = dataclasses.field(default_factory=dict)
    # A host message's bad value falls back to the default with the page's note, as a link's
    # does (False: it is ignored with a console warning).
    falls_back: bool = False
    nullable: bool = False  # a number or a choice that may also be null (None) in a host message: no step
    # Nothing of the state JSON reads it (what a view shows of the same record: the state stepper's
    # word): a change of it alone writes the state's text kept for the record (app/contract.py).
    view_only: bool = False
    read_control: object = None  # `read_control(setting, element)`: the control's value when it is no plain one
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
            return "one of " + ", ".join(map(str, self.choices)) + (" or null" if self.nullable else "")
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
            if isinstance(value, str) and value in self.choices or value is None and self.nullable:
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
            if text.lower() in FALSE_WORDS:
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
            return self.read_control(self, element)
        if self.log2_control:
            return self.check(round(2.0 ** float(element.value), 3))
        return self.from_text(str(element.value))


def read_typed_number(setting, element):
    """A number box's value as typed (a lab's offset, base or window): a value out of range or no
    number says why on the page (the box keeps what was typed; app/page.py shows a Bad's note)."""
    try:
        return setting.from_text(str(element.value))
    except Bad:
        raise Bad(Note("pos_number_bad", value=str(element.value)[:20], low=shortest(setting.low),
                       high=shortest(setting.high))) from None
