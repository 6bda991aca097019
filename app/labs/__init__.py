"""The labs: each one folder, `app/labs/<id>/` (docs/architecture.md, "Where a new lab goes").

A lab's `__init__.py` is its manifest: one `Lab(...)` named `LAB`, declaring what the core must know
of it before anything of it runs: its settings (`app/setting.py`'s `Setting`, in the order they
apply, after the core's own and before `view`), its paths' ids, its views that are an embedded
widget's tabs (their place and title: the tabs are drawn before the lab is there), its buttons
(`clicks`: a button id → "module.function" in the lab's folder, called with the page), its controls
whose change is no setting (`changes`: a control's name → "module.function", called with the page
and the control).

The page's archive (app/app.zip) holds the manifests alone; each lab's other modules come in its own
archive, app/labs/<id>.zip, fetched the first time the settings a message asks for need it (`wanted`:
a step of its path, its tab, a mode it draws in, one of its settings off its default); app/page.py
undoes that message, static/engine.js fetches the archive and sends the message again. On CPython
every lab is there (`present`). The rest of the folder is
the lab's own: its views and path (each module declares them to app/views/registry.py when imported),
the maths only it uses, its strings (declared by its modules, both languages), `style.css` (copied
into static/style.css by `make build`), `schema.json` (its part of the state schema) and `bench.py`
(its rows in `make bench`).

The core finds the labs here and never names one: app/settings.py reads their settings, app/page.py
their buttons, app/views/registry.py imports their modules, tools/build.py their CSS.
"""

import dataclasses
import functools
import importlib
import os

FOLDER = os.path.dirname(os.path.abspath(__file__))
MODULE_ENDINGS = (".py", ".pyc")  # (.py files here, .pyc alone in the browser: tools/bytecode.mjs)
# A lab's rows in `make bench` (its BENCH, `Bench`s): read by tools/bench.py on CPython, never in
# the browser's archives (tools/build.py).
BENCH_MODULE = "bench"


@dataclasses.dataclass(frozen=True, kw_only=True)
class Lab:
    id: str  # its folder's name, app/labs/<id>/
    settings: tuple = ()  # its Settings (app/setting.py), in the order they apply
    paths: tuple = ()  # the ids of the guided paths its modules declare (path=<id>)
    modes: tuple = ()  # the modes whose explorer shows one of its views (it comes with them)
    # The settings whose controls its views hold (each view's `settings`, app/views/registry.py checks),
    # known before it is here: entering a step sets them back where no view of it shows (app/settings.py).
    owns: tuple = ()
    # Its views that are an embedded widget's tabs (view=<id>): {id: {"place": its place among the
    # views, "it": its tab's title, "en": …}}, as its modules declare them (app/views/registry.py checks).
    tabs: dict = dataclasses.field(default_factory=dict)
    clicks: dict = dataclasses.field(default_factory=dict)  # button id → "module.function" (page)
    changes: dict = dataclasses.field(default_factory=dict)  # control name → "module.function" (page, control)
    # Its keys in the state JSON that are no setting's value: {key: "module.function"}, the function
    # called with (settings, tokens, record) once the lab is here; before, the key is null (a lab is
    # here whenever its settings are off their defaults, and each such key is null at them).
    state: dict = dataclasses.field(default_factory=dict)

    def modules(self):
        """Its modules besides the manifest, by name ("app.labs.<id>.<module>"), sorted."""
        folder = os.path.join(FOLDER, self.id)
        names = {n.rsplit(".", 1)[0] for n in os.listdir(folder) if n.endswith(MODULE_ENDINGS)}
        return tuple(f"app.labs.{self.id}.{n}" for n in sorted(names) if not n.startswith("_") and n != BENCH_MODULE)

    def function(self, where):
        """The function "module.function" names in this lab's folder (its module imported then)."""
        module, name = where.rsplit(".", 1)
        return getattr(importlib.import_module(f"app.labs.{self.id}.{module}"), name)


@dataclasses.dataclass(frozen=True, kw_only=True)
class Bench:
    """One of a lab's rows in `make bench`: one of its settings changed on its page (at 200 words),
    until each answer is on the page, against the mask switched in turn on a page of its own at
    200 words (tools/bench.py, `with_mask`: its p95 ÷ the mask's p95 ≤ 1.2), or alone against a
    budget in ms."""
    group: str  # its name for `make bench --only` (unique among the core's groups and the labs')
    label: str  # the row's words
    # What the 200-word page's address adds: the lab's step, its settings ("&path=…&step=3"); with
    # `words200` False, the whole query of its page ("?mode=model&…").
    query: str
    # The body of `async (count) => {…}` run on that page: `count` changes, returning each one's
    # time until its answer in ms (or, with `parts`, [that time, each part's figure]);
    # `answered(test)` is in scope (a promise: the next state the page answers that passes `test`,
    # a function of the state JSON).
    script: str
    block: int  # changes a turn, taken from the mask's in turn (one cycle of the script's changes)
    words200: bool = True
    # None: against the mask beside it (p95 ≤ 1.2 × its p95); a number of ms: alone, p95 ≤ it.
    budget_ms: float | None = None
    # The other figures each change gives, in order: (their row's words, the budget of their p95:
    # None, a number of ms it stays under or at, or another part's words it stays under).
    parts: tuple = ()


def benches():
    """Every lab's `Bench` rows (its bench.py's BENCH), lab after lab; CPython only."""
    out = []
    for lab in labs():
        if os.path.exists(os.path.join(FOLDER, lab.id, BENCH_MODULE + ".py")):
            out += importlib.import_module(f"app.labs.{lab.id}.{BENCH_MODULE}").BENCH
    return tuple(out)


PRESENT = set()  # the labs found here already (a lab's modules, once come, stay)


def present(lab_id):
    """Whether the lab's modules are in this file system (always on CPython; in the browser once its
    archive has been unpacked). Asked at every render: a lab found once is not looked for again."""
    if lab_id not in PRESENT:
        folder = os.path.join(FOLDER, lab_id)
        if any(not n.startswith(("_", BENCH_MODULE + ".")) and n.endswith(MODULE_ENDINGS) for n in os.listdir(folder)):
            PRESENT.add(lab_id)
    return lab_id in PRESENT


def ids():
    """The labs' ids: the folders here with a manifest, sorted."""
    return tuple(sorted(name for name in os.listdir(FOLDER)
                        if any(os.path.exists(os.path.join(FOLDER, name, "__init__" + e)) for e in MODULE_ENDINGS)))


@functools.cache
def labs():
    """Every lab's manifest, in the order of their ids (read once: the manifests come with the page's
    archive, and only a lab's other modules come later)."""
    return tuple(importlib.import_module(f"app.labs.{lab_id}").LAB for lab_id in ids())


def settings():
    """Every lab's settings, lab after lab."""
    return tuple(setting for lab in labs() for setting in lab.settings)


def clicks():
    """{button id: action(page)} of every lab (an id two labs or the core declare is a mistake)."""
    out = {}
    for lab in labs():
        for button, where in lab.clicks.items():
            if button in out:
                raise ValueError(f"two labs declare the button {button!r}")
            out[button] = _call(lab, where)
    return out


def changes():
    """{control name: action(page, control)} of every lab."""
    return {name: _call(lab, where) for lab in labs() for name, where in lab.changes.items()}


def _call(lab, where):
    return lambda *args: lab.function(where)(*args)


class Needed(Exception):
    """The settings a message asks for need labs that are not here (`ids`): app/page.py undoes the
    message, static/engine.js fetches their archives and sends it again."""

    def __init__(self, ids):
        super().__init__(ids)
        self.ids = ids


UNAVAILABLE = set()  # labs whose archive could not be fetched: the page goes on without them


def asked(lab_id, settings):
    """Whether these settings ask for the lab: a step of one of its paths, one of its tabs, a mode
    whose explorer shows its views, or one of its settings off its default. (Its views join the
    explorer only then, here or not: a first visit's page is the same with every lab here.)"""
    lab = next(lab for lab in labs() if lab.id == lab_id)
    return bool(settings.step is not None and settings.path in lab.paths or settings.view in lab.tabs
                or settings.mode in lab.modes or any(getattr(settings, s.attr) != s.default for s in lab.settings))


def wanted(settings):
    """The ids of the labs these settings ask for and that are not here (`asked`)."""
    return [lab.id for lab in labs() if lab.id not in UNAVAILABLE and not present(lab.id) and asked(lab.id, settings)]


def need_path(path_id):
    """Raise `Needed` when `path_id` is the path of a lab that is not here (and can still come)."""
    for lab in labs():
        if path_id in lab.paths and lab.id not in UNAVAILABLE and not present(lab.id):
            raise Needed([lab.id])


def path_here(path_id):
    """Whether the path `path_id` can be drawn without fetching anything: the core's, or one of a
    lab that is here."""
    return all(present(lab.id) for lab in labs() if path_id in lab.paths)


def need(settings):
    """Raise `Needed` when these settings need labs that are not here."""
    missing = wanted(settings)
    if missing:
        raise Needed(missing)


def owned_elsewhere():
    """The settings the views of the labs not here yet own (their manifests' `owns`)."""
    return tuple(attr for lab in labs() if not present(lab.id) for attr in lab.owns)


def state_fields(settings, tokens, record):
    """{key: value} of every lab's own keys in the state (its `state`), each null while the lab is not here."""
    return {key: lab.function(where)(settings, tokens, record) if present(lab.id) else None
            for lab in labs() for key, where in lab.state.items()}


def state_keys():
    """Every lab's own keys in the state (null in model mode, where no lab's designed heads run)."""
    return tuple(key for lab in labs() for key in lab.state)


def declared_tabs():
    """{view id: {"place", "it", "en"}} of every lab's tabs."""
    return {view: tab for lab in labs() for view, tab in lab.tabs.items()}


def declared_paths():
    """The path ids every lab declares, lab after lab."""
    return tuple(p for lab in labs() for p in lab.paths)


def css():
    """The labs' style.css files, each under a comment naming its folder."""
    out = []
    for lab_id in ids():
        style = os.path.join(FOLDER, lab_id, "style.css")
        if os.path.exists(style):
            with open(style, encoding="utf-8") as f:
                out.append(f"/* app/labs/{lab_id}/style.css */\n" + f.read().strip())
    return "\n".join(out)
