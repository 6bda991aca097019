"""Attention Explorer: what a memory snapshot holds besides a started Python.

Loaded only by the snapshot worker (static/snapshot.mjs), into the throwaway interpreter
whose memory becomes the snapshot; never by the page's own start. Pure standard library,
so it is tested on CPython too.

A snapshot never runs code the page does not have now. It keeps no module of the app
imported; it keeps
- the runtime's modules the page used (the standard library and Pyodide's own, from the
  runtime folder, which is part of the snapshot's key), imported;
- the page's own sources (the app, PyScript's Python package) compiled, each with the exact
  bytes it was compiled from.
After a restore the page imports its modules as on any start, reading each file; when the
file's bytes are the ones compiled, that code is used instead of compiling it again,
otherwise the file is compiled as usual and its path is added to `recompiled` (an edited
file, or one the snapshot did not know): the page then makes a new snapshot.
"""

import gc
import importlib
import importlib.machinery
import json
import os
import sys

_LOADER = importlib.machinery.SourceFileLoader
_plain_source_to_code = _LOADER.source_to_code
compiled = {}  # absolute path -> (source bytes, code object)
recompiled = []  # paths compiled again since the restore (their bytes were not those kept)


def _source_to_code(self, data, path, *, _optimize=-1):
    kept = compiled.get(path)
    if kept is not None and _optimize == -1 and kept[0] == bytes(data):
        return kept[1]
    recompiled.append(path)
    return _plain_source_to_code(self, data, path, _optimize=_optimize)


def in_runtime(path):
    """A file of the runtime (Python's lib/: the standard library and Pyodide's own)."""
    return os.path.abspath(path).startswith(os.path.join(sys.prefix, "lib") + os.sep)


def prepare(modules, sources, imports=()):
    """Get this interpreter ready to be snapshotted.

    modules: [name, file or None] pairs, the modules a page had imported: those of the runtime
      are imported here (any that cannot be, outside the page, is left for the page).
    sources: paths of the page's source files, already in this file system: compiled.
    imports: module names among those sources to import (their runtime modules come along),
      then forget again: only their code is kept.
    """
    for name, path in modules:
        if (not path or in_runtime(path)) and name not in sys.modules:
            try:
                importlib.import_module(name)
            except Exception:  # e.g. a module only a page has (js, pyodide's DOM helpers)
                pass
    for path in sources:
        path = os.path.abspath(path)
        with open(path, "rb") as file:
            data = file.read()
        compiled[path] = (data, _plain_source_to_code(None, data, path))
    _LOADER.source_to_code = _source_to_code
    for name in imports:
        try:
            importlib.import_module(name)
        except Exception:
            pass
    for name, module in list(sys.modules.items()):
        if os.path.abspath(getattr(module, "__file__", None) or "/") in compiled:
            del sys.modules[name]
    for entry in list(sys.path_importer_cache):  # directories of this worker's file system
        if not in_runtime(entry):
            del sys.path_importer_cache[entry]
    recompiled.clear()
    gc.collect()


def prepare_from(recipe):
    """prepare() with the arguments in a JSON file (written by the worker)."""
    with open(recipe, encoding="utf-8") as file:
        args = json.load(file)
    prepare(args["modules"], args["sources"], args["imports"])
