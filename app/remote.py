"""A widget's page, seen from the engine: its DOM at a distance.

The engine (Python in a Web Worker: static/engine.js) cannot touch the page. What the
widget's code writes there, an element's property, one of its methods, a helper of
static/page.js, is recorded here as an op; the ops of one event go to the page's thread in
one batch, and static/page.js (`apply`) does them in order. What the code reads comes with
the event (`Context`): the target's value, the values of the controls the page named
(app/page.py, READ), the checked radio of each group, which of the row views it watches are
on the page and which are off screen, the long grid's window. Reading anything else raises
`Unsent` at once: a read that the page's thread would have to answer later is a bug, never a
silent None.

An op is a JSON list: ["set", path, name, value], ["call", path, method, args],
["helper", name, args, slot], ["url", href, push] (push: in a new history entry),
["console", level, text]. A path starts at a root ({"id": …}, "doc", "target" or {"slot": n}, a
helper's result kept on the page's side) and walks: a string is a property, ["q", selector] a
querySelector, a number an index. An element the path does not find (null on the page) makes its
op do nothing, as `if element:` would have.
"""

import json
import re

# Properties that lead to another object (walked, never read as values).
WALKS = frozenset({"style", "dataset", "classList", "parentElement", "nextElementSibling", "firstElementChild",
                   "documentElement", "body", "cells", "tBodies"})
# Methods an element may be asked to run (their results are never read back).
METHODS = frozenset({"focus", "select", "click", "remove", "setAttribute", "removeAttribute", "toggle", "add",
                     "insertAdjacentHTML", "scrollIntoView"})
IDS = re.compile(r' id="([^"]+)"')  # (a literal start: ~40× quicker on a long grid than \bid=)


class Unsent(AttributeError):
    """The code read something of the page that its event did not bring."""


class Context:
    """What the page's thread sent with the event being handled (static/page.js, `context`)."""

    def __init__(self, sent=None):
        sent = sent or {}
        self.target = dict(sent.get("target") or {})  # the event's target: name, value, type, checked, id, className, dataset
        self.target["dataset"] = dict(self.target.get("dataset") or {})
        self.values = dict(sent.get("values") or {})  # id -> value of the controls the page reads (app/page.py, READ)
        self.checked = dict(sent.get("checked") or {})  # radio group name -> the checked radio's value
        self.ids = set(sent.get("ids") or ())  # the watched row views on the page (and ids the code draws meanwhile)
        self.off = set(sent.get("off") or ())  # ids of the row views off screen
        # the long grid's window: {scroll, left (px), col (the first column shown), start, stop (rows
        # drawn), cstart, cstop (a wide grid's columns drawn, else None), gap}, or None
        self.grid = sent.get("grid")

    def exists(self, name):
        return name in self.ids

    def read(self, path, name):
        if path == ["target"]:
            if name in self.target:
                return self.target[name]
        elif path == ["target", "dataset"]:
            return self.target["dataset"].get(name)
        elif len(path) == 1 and isinstance(path[0], dict) and "id" in path[0] and name == "value":
            if path[0]["id"] in self.values:
                return self.values[path[0]["id"]]
        raise Unsent(f"{json.dumps(path)}.{name} is not sent with the event (app/remote.py)")

    def wrote(self, path, name, value):
        """A value the code set is the value it reads after (as on the page)."""
        if path == ["target"]:
            self.target[name] = value
        elif path == ["target", "dataset"]:
            self.target["dataset"][name] = value
        elif len(path) == 1 and isinstance(path[0], dict) and "id" in path[0] and name == "value":
            self.values[path[0]["id"]] = value
        elif name in ("innerHTML", "outerHTML") and isinstance(value, str):
            self.ids.update(IDS.findall(value))


class Screen:
    """One widget's page: the ops waiting to be sent, what its event brought, its callbacks."""

    def __init__(self, send):
        self.send = send  # posts a batch (JSON text) to the page's thread, outside an event
        self.ops = []
        self.context = Context()
        self.callbacks = {}  # id -> Callback the page's thread may call (`callback` messages)
        self.slots = 0  # helper results kept on the page's side

    def element(self, *path):
        return Element(self, list(path))

    def add(self, op):
        self.ops.append(op)

    def take(self):
        """The ops recorded since the last batch, as JSON text ("" when there are none)."""
        ops, self.ops = self.ops, []
        return json.dumps(ops) if ops else ""

    def flush(self):
        batch = self.take()
        if batch:
            self.send(batch)

    def callback(self, work):
        callback = Callback(len(self.callbacks) + 1, work)
        self.callbacks[callback.id] = callback
        return callback

    def encode(self, value):
        if isinstance(value, Element):
            return {"$": value._path}
        if isinstance(value, Callback):
            return {"cb": value.id}
        if isinstance(value, (list, tuple)):
            return [self.encode(v) for v in value]
        return value


class Callback:
    """A function of the engine that the page's thread may call later (a helper's argument)."""

    def __init__(self, id_, work):
        self.id = id_
        self.work = work

    def __call__(self, *args):
        return self.work(*args)


class Element:
    """An element (or any object) of the page, named by its path from a root."""

    __slots__ = ("_screen", "_path")

    def __init__(self, screen, path):
        object.__setattr__(self, "_screen", screen)
        object.__setattr__(self, "_path", path)

    def __setattr__(self, name, value):
        self._screen.add(["set", self._path, name, value])
        self._screen.context.wrote(self._path, name, value)

    def __getattr__(self, name):
        if name.startswith("_"):
            raise AttributeError(name)
        if name in WALKS:
            return Element(self._screen, self._path + [name])
        if name in METHODS:
            def call(*args):
                self._screen.add(["call", self._path, name, [self._screen.encode(a) for a in args]])
            return call
        return self._screen.context.read(self._path, name)

    def __getitem__(self, index):
        return Element(self._screen, self._path + [index])

    def querySelector(self, selector):  # noqa: N802 - the DOM's name
        return Element(self._screen, self._path + [["q", selector]])


class Helpers:
    """static/page.js's helpers (attentionExplorer.page), called on the page's side: each call
    is an op, and its result stays there, as an Element of root {"slot": n} for a later op."""

    def __init__(self, screen):
        self._screen = screen

    def __getattr__(self, name):
        if name.startswith("_"):
            raise AttributeError(name)
        screen = self._screen

        def call(*args):
            screen.slots += 1
            screen.add(["helper", name, [screen.encode(a) for a in args], screen.slots])
            return Element(screen, [{"slot": screen.slots}])
        return call
