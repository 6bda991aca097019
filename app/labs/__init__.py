"""The labs: each one folder, `app/labs/<id>/` (docs/architecture.md, "Where a new lab goes").

A lab's `__init__.py` is its manifest: one `Lab(...)` named `LAB`, declaring what the core must know
of it before anything of it runs: its settings (`app/setting.py`'s `Setting`, in the order they
apply, after the core's own and before `view`), its buttons (`clicks`: a button id → "module.function"
in the lab's folder, called with the page), its controls whose change is no setting (`changes`: a
control's name → "module.function", called with the page and the control). The rest of the folder is
the lab's own: its views and path (each module declares them to app/views/registry.py when imported),
the maths only it uses, its strings (declared by its modules, both languages), `style.css` (copied
into static/style.css by `make build`), `schema.json` (its part of the state schema) and `bench.py`
(its rows in `make bench`).

The core finds the labs here and never names one: app/settings.py reads their settings, app/page.py
their buttons, app/views/registry.py imports their modules, tools/build.py their CSS.
"""

import dataclasses
import importlib
import os

FOLDER = os.path.dirname(os.path.abspath(__file__))
MODULE_ENDINGS = (".py", ".pyc")  # (.py files here, .pyc alone in the browser: tools/bytecode.mjs)


@dataclasses.dataclass(frozen=True, kw_only=True)
class Lab:
    id: str  # its folder's name, app/labs/<id>/
    settings: tuple = ()  # its Settings (app/setting.py), in the order they apply
    clicks: dict = dataclasses.field(default_factory=dict)  # button id → "module.function" (page)
    changes: dict = dataclasses.field(default_factory=dict)  # control name → "module.function" (page, control)

    def modules(self):
        """Its modules besides the manifest, by name ("app.labs.<id>.<module>"), sorted."""
        folder = os.path.join(FOLDER, self.id)
        names = {n.rsplit(".", 1)[0] for n in os.listdir(folder) if n.endswith(MODULE_ENDINGS)}
        return tuple(f"app.labs.{self.id}.{n}" for n in sorted(names) if not n.startswith("_"))

    def function(self, where):
        """The function "module.function" names in this lab's folder (its module imported then)."""
        module, name = where.rsplit(".", 1)
        return getattr(importlib.import_module(f"app.labs.{self.id}.{module}"), name)


def ids():
    """The labs' ids: the folders here with a manifest, sorted."""
    return tuple(sorted(name for name in os.listdir(FOLDER)
                        if any(os.path.exists(os.path.join(FOLDER, name, "__init__" + e)) for e in MODULE_ENDINGS)))


def labs():
    """Every lab's manifest, in the order of their ids."""
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


def css():
    """The labs' style.css files, each under a comment naming its folder."""
    out = []
    for lab_id in ids():
        style = os.path.join(FOLDER, lab_id, "style.css")
        if os.path.exists(style):
            with open(style, encoding="utf-8") as f:
                out.append(f"/* app/labs/{lab_id}/style.css */\n" + f.read().strip())
    return "\n".join(out)
