"""The views and the guided paths, each declared once: a view beside its render function (the
module of app/views/ that draws it calls `add(View(...))`), a path as data (`add_path`,
app/path.py for the formula's).

Everything else follows from these lists: the analysis app/render.py assembles (the views of
the mode, in their `place` order; on a step, those it names: `draws`), the row parts a word
click redraws (render.ROW_PARTS, app/row_parts.py), the `view` setting's choices (the tabs of an
embedded widget), the `path` setting's, what each step shows (app/path.py), the CSS that hides
what a step does not show and shows an embedded widget's tab (`css_blocks`, written into
static/style.css by `make build`), and the list of views in docs/parameters.md (tools/docs.py).

Every module of app/views/ is imported once the first time a list is asked for (`load`), so a
new view is one new module there: nothing else names it. (Not at import time: a view module
may import app/settings.py, whose choices come from here.)
"""

import dataclasses
import importlib
import os
from collections.abc import Sequence

from app import glossary, i18n, labs
from app.views.html import labelled

LANGS = i18n.LANGS


@dataclasses.dataclass(frozen=True, kw_only=True)
class View:
    """One view. Its section on the page is `view-<id>`; `id` is also the name a step lists in
    `shows`, #app's data-show, and (for a tab) the `view=` value of an embedded widget."""

    id: str
    place: int  # its order on the page among the views of its mode (smaller first)
    modes: tuple = ("sentence",)  # the modes that draw it ("sentence", "matrix", "model")
    tab: bool = False  # an embedded widget's `view=` choice (its tab says the string view_<id>)
    explorer: bool = True  # the explorer shows it; False: only a step of a path that names it
    # It shows every row's weights at once (the whole grid): a graded exercise (the `lock`
    # setting) never draws it, as it would answer the questions not yet asked.
    every_row: bool = False
    # Whether it follows the selected row: `row(row, tokens, lang, word)` draws its row part (a
    # word click redraws only that; `word`: matrix mode's name of the row, "q3", else None) into
    # the element `part` (default: the section itself).
    row: object = None
    part: str = ""
    # `draw(ctx)`: its whole section (a `Context`); None: drawn elsewhere (the editor's parts).
    draw: object = None
    selector: str = ""  # the element a step that does not show it hides (default: #view-<id>)
    # `light(settings, attr, value)`: True when changing the setting `attr` to `value` changes only
    # what this view shows (the record stays; its record parts are made again and its row part drawn
    # again: FlashAttention's block size and the block reached). None: no such setting.
    light: object = None
    # The settings whose controls live in it (attributes of app/settings.py's Settings): a step
    # that shows it owns them, and the explorer owns them where it shows the view (app/path.py);
    # elsewhere they go back to their default. (The student's own work, a sentence, a word, the
    # letters written, is no one's: it always stays.)
    settings: tuple = ()
    strings: dict = dataclasses.field(default_factory=dict)  # {"it": {key: text}, "en": {…}}, added to i18n

    @property
    def element(self):
        return self.part or f"view-{self.id}"

    @property
    def css(self):
        return self.selector or f"#view-{self.id}"


@dataclasses.dataclass(frozen=True, kw_only=True)
class Context:
    """What a view draws from: the settings, the tokens, the attention record, the selected row
    (or None), the row parts drawn already ({view id: HTML}), and where a long grid starts."""

    settings: object
    tokens: object
    record: object
    row: object
    parts: dict
    grid_first: tuple = (0, 0)
    interactive: object = True
    # On a step of a path, the glossary's terms its text links (app/views/path.py `prose_terms`): a
    # view's prose links the others (`glossed`). None in the explorer.
    terms: object = None

    @property
    def lang(self):
        return self.settings.lang

    def part(self, view_id):
        return self.parts.get(view_id, "")


def section(view_id, inner, css_class, view=True):
    """A view's section: id view-<id>; `view` True: one of an embedded widget's tabs' kind (class
    "view" and data-view, static/style.css shows it on its tab or on a step)."""
    if not view:
        return f'<section id="view-{view_id}" class="{css_class}">{inner}</section>'
    return f'<section id="view-{view_id}" class="view {css_class}" data-view="{view_id}">{inner}</section>'


@dataclasses.dataclass(frozen=True, kw_only=True)
class StepsPart:
    """What a lab adds to the steps table (app/views/steps.py): `columns(record)`, the keys of its
    columns after the card (their headers: the strings col_<key>); `values(record, j, lang)`, word j's
    cells in them; `line(row, word, lang)`, the HTML of a line above the table ("" for none)."""

    columns: object
    values: object
    line: object


MAX_STEPS = 12  # the most steps a path has (the `step` setting's range, 1…MAX_STEPS)

_VIEWS = {}
_PATHS = {}
_STEPS_PARTS = []
_MODEL_TEXTS = []
_RECORD_PARTS = {}
_RECORD_CHANGES = []
_ROW_DRAWS = {}  # {view id: [(applies(row), draw(row, tokens, lang, word))]}: a lab draws a core view's row
_ROW_PARTS = {}
_LAB_OF = {}  # {view id: the lab whose folder declares it}
_DRAWS = {}  # {(view id, mode): draw}: a view drawn by another module in that mode (`add_draw`)
_loaded = []


def add(view):
    """Declare a view (once: a second view with the same id is a mistake)."""
    if view.id in _VIEWS and _VIEWS[view.id] is not view:
        raise ValueError(f"two views are called {view.id!r}")
    add_strings(view.strings)
    _VIEWS[view.id] = view
    return view


def add_strings(strings):
    """Strings a view or a path brings ({"it": {key: text}, "en": {…}}), added to app/i18n.py's:
    each key in both languages, and none that is there already."""
    keys = set(strings.get(LANGS[0], {}))
    for lang in LANGS:
        if set(strings.get(lang, {})) != keys:
            raise ValueError(f"strings {sorted(keys)}: not the same keys in {lang}")
        taken = {key for key, value in strings.get(lang, {}).items() if i18n.STRINGS[lang].get(key, value) != value}
        if taken:
            raise ValueError(f"strings {sorted(taken)} are app/i18n.py's already")
    for lang in LANGS:
        i18n.STRINGS[lang].update(strings.get(lang, {}))


def add_path(path):
    """Declare a guided path (app/path.py's Path)."""
    if path.id in _PATHS and _PATHS[path.id] is not path:
        raise ValueError(f"two paths are called {path.id!r}")
    _PATHS[path.id] = path
    return path


def add_steps_part(part):
    """A lab's part of the steps table (`StepsPart`)."""
    _STEPS_PARTS.append(part)
    return part


def steps_parts():
    load()
    return tuple(_STEPS_PARTS)


def add_record_part(name, make, view_id=None):
    """What a lab's view reads beside the attention record: `record.parts[name] = make(settings,
    tokens, record)`, made with the record (sentence and matrix modes; app/contract.py `compute`), and again
    when a `light` change of the view `view_id` keeps the record."""
    _RECORD_PARTS[name] = (make, view_id)
    return make


def record_parts(view_id=None):
    """[(name, make)] of the record parts (`view_id`: that view's alone)."""
    load()
    return [(name, make) for name, (make, of) in _RECORD_PARTS.items() if view_id is None or of == view_id]


def add_record_change(change):
    """A lab's change to the record of sentence mode: `change(settings, tokens, record)` returns the
    record to use (the same one when the lab's settings ask for nothing; app/contract.py `compute`,
    before the record parts are made; the beyond lab's mixer)."""
    _RECORD_CHANGES.append(change)
    return change


def record_changes():
    load()
    return tuple(_RECORD_CHANGES)


def add_row_draw(view_id, applies, draw):
    """A lab's way of drawing a core view's row part (the bars, the steps table, the output; "announce":
    the live region's sentence) for the rows `applies(row)` says: `draw(row, tokens, lang, word)`."""
    _ROW_DRAWS.setdefault(view_id, []).append((applies, draw))
    return draw


def row_draw(view_id, row):
    """The lab's draw of `view_id`'s row part for `row` (`add_row_draw`), or None: the view's own."""
    load()
    return next((draw for applies, draw in _ROW_DRAWS.get(view_id, ()) if applies(row)), None)


def light_view(settings, attr, value):
    """The view a change of `attr` to `value` redraws alone (its `light`), or None."""
    load()
    return next((v for v in _VIEWS.values() if v.light is not None and v.light(settings, attr, value)), None)


def add_model_text(write):
    """A lab's lines in model mode's text outside the page (the terminal, the notebook):
    `write(record, lang)`, HTML ("" for nothing), put after the letters (the letters the model wrote)."""
    _MODEL_TEXTS.append(write)
    return write


def model_texts(record, lang):
    """The labs' model-mode lines for `record`, joined."""
    load()
    return "".join(write(record, lang) for write in _MODEL_TEXTS)


def load():
    """Import every module of app/views/ once (each declares its views), then every lab's modules
    (app/labs/<id>/: their views and paths), by name: the modules that declare import this one,
    never the other way. The formula's path is app/path.py's, declared when that is imported (the
    settings import it), so it comes first."""
    if _loaded:
        return
    _loaded.append(True)
    folder = os.path.dirname(os.path.abspath(__file__))
    # (its modules are .py files here, .pyc alone in the browser: tools/bytecode.mjs)
    names = {name.rsplit(".", 1)[0] for name in os.listdir(folder) if name.endswith((".py", ".pyc"))}
    for name in sorted(n for n in names if not n.startswith("_")):
        importlib.import_module(f"app.views.{name}")
    for lab in labs.labs():
        if labs.present(lab.id):
            _import_lab(lab)
    _check()


def arrive(lab_id):
    """A lab's modules are now in this file system (its archive unpacked: app/engine.py): import
    them, so its views, paths and strings join the lists."""
    load()
    lab = next(lab for lab in labs.labs() if lab.id == lab_id)
    _import_lab(lab)
    _check()


def _import_lab(lab):
    before = set(_VIEWS)
    for name in lab.modules():
        importlib.import_module(name)
    _LAB_OF.update(dict.fromkeys(set(_VIEWS) - before, lab.id))
    declared = {v.id: v for v in _VIEWS.values() if v.tab and v.id in lab.tabs}
    for view_id, tab in lab.tabs.items():
        view = declared.get(view_id)
        if view is None or view.place != tab["place"]:
            raise ValueError(f"lab {lab.id!r}: its tab {view_id!r} is no tab view of place {tab['place']}")
    owned = set().union(*(v.settings for v in _VIEWS.values() if _LAB_OF.get(v.id) == lab.id))
    if owned != set(lab.owns):
        raise ValueError(f"lab {lab.id!r}: its views own {sorted(owned)}, its manifest says {sorted(lab.owns)}")
    unknown = set(lab.paths) - set(_PATHS)
    if unknown:
        raise ValueError(f"lab {lab.id!r} declares paths no module of it adds: {sorted(unknown)}")


def _check():
    _update_row_parts()
    for way in _PATHS.values():
        for step in way.steps:
            unknown = set(step.shows) - set(_VIEWS)
            if unknown:
                raise ValueError(f"path {way.id!r}, step {step.id!r} shows no view called {sorted(unknown)}")
        if len(way.steps) > MAX_STEPS:
            raise ValueError(f"path {way.id!r}: at most {MAX_STEPS} steps (the `step` setting's range)")


def views(mode=None):
    """The views, in their page order (`mode`: those that mode draws)."""
    load()
    every = sorted(_VIEWS.values(), key=lambda v: v.place)
    return tuple(v for v in every if mode is None or mode in v.modes)


def lab_of(view_id):
    """The lab whose folder declares the view (None: the core's)."""
    load()
    return _LAB_OF.get(view_id)


def ids():
    """The ids of the views declared (those of the labs here)."""
    load()
    return set(_VIEWS)


def view(view_id):
    load()
    return _VIEWS[view_id]


def paths():
    """The guided paths: {id: Path}, the formula's first."""
    load()
    return dict(_PATHS)


def step_shows(settings, view_id):
    """Whether the settings are on a step of a guided path that names the view `view_id`."""
    if settings.step is None:
        return False
    way = _PATHS.get(settings.path) or next(iter(paths().values()))
    return 0 < settings.step <= len(way.steps) and view_id in way.steps[settings.step - 1].shows


def draws(settings, view):
    """Whether the page draws `view` for `settings`: in the explorer the views it shows, on a step of
    a guided path those the step names and no other (the rest would be drawn only to be hidden: at
    200 words the grid and the table alone are most of a setting change's work), and never, in a
    graded exercise, one that shows every row's weights; a lab's view only where the settings ask for
    its lab (app/labs/__init__.py, `asked`), so that a page draws the same whether the lab's archive
    has come or not."""
    if settings.lock and view.every_row:
        return False
    if view.id in _LAB_OF and not labs.asked(_LAB_OF[view.id], settings):
        return False
    if settings.step is None:
        return view.explorer
    way = _PATHS.get(settings.path) or next(iter(_PATHS.values()))  # (the path named, else the formula's)
    return view.id in way.steps[settings.step - 1].shows


def drawn(ctx, mode, following=True):
    """The sections of the views `mode` draws (`draws`), in their order. `following` False: only
    those that do not follow the selected row. A table a view writes by hand gets its cells' column
    names and roles here (app/views/html.py `labelled`: a card a row on a phone), and on a step the
    first use of a term in its prose a link to the glossary (`glossed`)."""
    return "".join(labelled(glossed(_DRAWS.get((view.id, mode), view.draw)(ctx), ctx.lang, ctx.terms))
                   for view in views(mode)
                   if view.draw is not None and (following or view.row is None) and draws(ctx.settings, view))


def glossed(html, lang, terms):
    """A view's HTML on a step of a path (`terms`: those the step's text links; None in the
    explorer, which has no glossary): the first use of each other term in its prose a link to the
    glossary under the step (app/glossary.py `in_prose`)."""
    return html if terms is None else glossary.in_prose(html, lang, terms)


def add_draw(view_id, mode, draw):
    """Another module draws the view `view_id` in `mode` (`draw(ctx)`: its whole section): the
    module of that mode, which knows what the view shows there (model mode's heatmap: one table
    per layer and head, app/views/model.py)."""
    _DRAWS[(view_id, mode)] = draw


def row_parts():
    """{view id: the element its row part fills} for every view that follows the selected row: one
    dict, kept current as a lab arrives (render.ROW_PARTS is it)."""
    load()
    return _ROW_PARTS


def _update_row_parts():
    _ROW_PARTS.clear()
    _ROW_PARTS.update({v.id: v.element for v in views() if v.row is not None})


class Ids(Sequence):
    """A tuple of names read from the registry when first used (a setting's choices are declared
    before the views' modules can be imported)."""

    def __init__(self, read):
        self._read = read

    def _ids(self):
        return tuple(self._read())

    def __getitem__(self, i):
        return self._ids()[i]

    def __len__(self):
        return len(self._ids())

    def __eq__(self, other):
        return isinstance(other, Sequence) and not isinstance(other, str) and tuple(self) == tuple(other)

    def __hash__(self):
        return hash(self._ids())

    def __repr__(self):
        return repr(self._ids())


def tabs():
    """The `view` setting's choices: the tab views, in their places, with the tabs of the labs not
    here yet (declared by their manifests) in theirs."""
    places = {v.id: v.place for v in views() if v.tab}
    places.update({view_id: tab["place"] for view_id, tab in labs.declared_tabs().items() if view_id not in places})
    return sorted(places, key=places.get)


def path_ids():
    """The `path` setting's choices: the paths declared, then those of the labs not here yet."""
    here = paths()
    return tuple(here) + tuple(p for p in labs.declared_paths() if p not in here)


def every_row(view_id):
    """Whether the view shows every row's weights (False for a lab's tab not here yet: a lab
    declares no such tab)."""
    load()
    return view_id in _VIEWS and _VIEWS[view_id].every_row


def tab_title(view_id, lang):
    """A tab's title: its view's string, or its lab's manifest's while the lab is not here."""
    load()
    if view_id in _VIEWS:
        return i18n.text(lang, "view_" + view_id)
    return labs.declared_tabs()[view_id][lang]


TABS = Ids(tabs)  # the `view` setting's choices
PATH_IDS = Ids(path_ids)  # the `path` setting's choices

# The CSS made from the lists, between markers in static/style.css (tools/build.py writes it).
CSS_START, CSS_END = "/* made by `make build` from the view registry (app/views/registry.py): {} */", "/* end: {} */"


def css_blocks(every=None):
    """{name: CSS}: "tabs", an embedded widget's tab shows its view; "steps", a step of a path
    hides every view it does not name (#app's data-show, app/path.py's `shows`); "labs", each lab's
    style.css (app/labs/<id>/), last in the cascade. `every`: the
    views (default: the registry's)."""
    every = views() if every is None else every
    tabs = ",\n".join(f'html.embed .analysis[data-view="{v.id}"] .view[data-view="{v.id}"]'
                      for v in every if v.tab)
    steps = ",\n".join(f'#app[data-show]:not([data-show~="{v.id}"]) {v.css}' for v in every)
    return {"tabs": tabs + " { display: block; }", "steps": steps + " { display: none; }", "labs": labs.css()}


def with_css(style, every=None):
    """static/style.css's text with each generated block (`css_blocks`) made current between its
    markers (a missing marker is an error: the blocks' places in the cascade are chosen by hand)."""
    for name, block in css_blocks(every).items():
        start, end = CSS_START.format(name), CSS_END.format(name)
        if style.count(start) != 1 or style.count(end) != 1:
            raise ValueError(f"static/style.css needs one {start!r} and one {end!r}")
        before, rest = style.split(start, 1)
        style = before + start + "\n" + block + "\n" + end + rest.split(end, 1)[1]
    return style
