"""Attention Explorer: what a memory snapshot holds besides a started Python.

Loaded only by the snapshot worker (static/snapshot.js), into the throwaway interpreter
whose memory becomes the snapshot; never by the page's own start. Pure standard library,
so it is tested on CPython too.

A snapshot never runs code the page does not have now. It keeps
- the runtime's modules the page used (the standard library and Pyodide's own, from the
  runtime folder, which is part of the snapshot's key), imported;
- the page's own sources (the app, PyScript's Python package) compiled, each with the exact
  bytes it was compiled from;
- of those, the modules the page had imported that touch no page (they import nothing of
  `js`, `pyodide`, `pyscript`, at import time, directly or through another module of the
  page: the app's computing and drawing modules, not app/page.py), imported: `kept`;
- what those kept modules make at every start of the page, made already, where the page
  names it (`snapshot_warm()` of a module: app/lexicon.py's lexicons, each used only while
  its files read the same).
After a restore, the page calls `forget_changed()` before it imports anything of its own: if
the bytes of any kept module's file are not the ones it was imported from, every kept module
is forgotten and imported again from the files. Then the page imports its modules as on any
start; for a file whose bytes are the ones compiled, that code is used instead of compiling it
again, otherwise the file is compiled as usual and its path is added to `recompiled` (an
edited file, or one the snapshot did not know): the page then makes a new snapshot.
"""

import ast
import dis
import gc
import importlib
import importlib.machinery
import json
import marshal
import os
import sys
import types

_LOADER = importlib.machinery.SourceFileLoader
_plain_source_to_code = _LOADER.source_to_code
compiled = {}  # absolute path -> (source bytes, code object)
kept = {}  # module name -> absolute path of its file: imported in the snapshot
recompiled = []  # paths compiled again since the restore (their bytes were not those kept)
# Modules bound to a page's document: a module importing one of them is never kept.
PAGE_BOUND = ("js", "pyodide", "_pyodide", "pyscript", "polyscript")


def _source_to_code(self, data, path, *, _optimize=-1):
    kept_code = compiled.get(path)
    if kept_code is not None and _optimize == -1 and kept_code[0] == bytes(data):
        return kept_code[1]
    recompiled.append(path)
    return _plain_source_to_code(self, data, path, _optimize=_optimize)


def in_runtime(path):
    """A file of the runtime (Python's lib/: the standard library and Pyodide's own)."""
    return os.path.abspath(path).startswith(os.path.join(sys.prefix, "lib") + os.sep)


def imported_at_import(source, name, is_package):
    """The modules `source` (module `name`) imports when it is executed: at module and class
    level, not inside functions. `from a import b` names both a and a.b (b may be a module)."""
    package = name if is_package else name.rpartition(".")[0]
    found = set()

    def visit(nodes):
        for node in nodes:
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)):
                continue
            if isinstance(node, ast.Import):
                found.update(alias.name for alias in node.names)
            elif isinstance(node, ast.ImportFrom):
                base = node.module or ""
                if node.level:
                    parts = package.split(".")
                    parent = ".".join(parts[:len(parts) - node.level + 1])
                    base = f"{parent}.{base}" if base else parent
                found.add(base)
                found.update(f"{base}.{alias.name}" for alias in node.names)
            visit(ast.iter_child_nodes(node))

    visit(ast.parse(source).body)
    return found


def imported_by_code(code, name, is_package):
    """`imported_at_import` for a module compiled ahead (the app's archive holds .pyc alone): the
    imports its code runs at module and class level (class bodies are code objects of their own
    without new locals; a function's body, which has them, is not run at import)."""
    package = name if is_package else name.rpartition(".")[0]
    found = set()

    def visit(body):
        steps = list(dis.get_instructions(body))
        for k, step in enumerate(steps):
            if step.opname != "IMPORT_NAME":
                continue
            fromlist = steps[k - 1].argval if k >= 1 else None
            level = steps[k - 2].argval if k >= 2 and isinstance(steps[k - 2].argval, int) else 0
            base = step.argval
            if level:
                parts = package.split(".")
                parent = ".".join(parts[:len(parts) - level + 1])
                base = f"{parent}.{base}" if base else parent
            found.add(base)
            if isinstance(fromlist, tuple):
                found.update(f"{base}.{alias}" for alias in fromlist if alias != "*")
        for const in body.co_consts:
            if isinstance(const, types.CodeType) and not const.co_flags & 0x2:  # (CO_NEWLOCALS: a function)
                visit(const)

    visit(code)
    return found


def compiled_code(data, path):
    """The code object of a module's file: a .pyc's unmarshalled (past its 16-byte header), a
    .py's compiled."""
    if path.endswith(".pyc"):
        return marshal.loads(memoryview(data)[16:])
    return _plain_source_to_code(None, data, path)


def page_free(modules):
    """Of `modules` ({name: (path, source bytes)}), the names whose import touches no page:
    none of PAGE_BOUND, and among these modules only page-free ones (and their packages)."""
    imports = {name: imported_by_code(marshal.loads(memoryview(data)[16:]), name, path.endswith("__init__.pyc"))
               if path.endswith(".pyc") else imported_at_import(data, name, os.path.basename(path) == "__init__.py")
               for name, (path, data) in modules.items()}
    free = set(modules)
    changed = True
    while changed:
        changed = False
        for name in sorted(free):
            needs = imports[name] | {name.rpartition(".")[0]} - {""}
            if any(n.split(".")[0] in PAGE_BOUND or (n in modules and n not in free) for n in needs):
                free.discard(name)
                changed = True
    return free


def prepare(modules, sources, imports=(), warm=()):
    """Get this interpreter ready to be snapshotted.

    modules: [name, file or None] pairs, the modules a page had imported: those of the runtime
      are imported here (any that cannot be, outside the page, is left for the page); those of
      the page's sources that touch no page are imported and kept (`kept`).
    sources: paths of the page's source files (.py, or .pyc alone: the app's archive), already in
      this file system: compiled (a .pyc: read).
    imports: module names among those sources to import (their runtime modules come along),
      then forget again: only their code is kept.
    warm: [module, function, arguments] calls, made once the kept modules are imported, each
      only if its module is kept: what a module makes at every start of the page, made here
      instead (the page's modules say what, through `snapshot_warm()`: static/snapshot.js,
      pageRecipe); the files they read are already in this file system. One that fails
      leaves it to the page.
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
        compiled[path] = (data, compiled_code(data, path))
    _LOADER.source_to_code = _source_to_code
    for name in imports:
        try:
            importlib.import_module(name)
        except Exception:
            pass
    own = {name: (os.path.abspath(path), compiled[os.path.abspath(path)][0]) for name, path in modules
           if path and os.path.abspath(path) in compiled}
    for name in sorted(page_free(own), key=lambda n: n.count(".")):
        try:
            importlib.import_module(name)
            kept[name] = own[name][0]
        except Exception:
            forget()
            break
    for name, function, arguments in warm:
        if name in kept:
            try:
                getattr(sys.modules[name], function)(*arguments)
            except Exception:
                pass
    for name, module in list(sys.modules.items()):  # nothing else of the page's stays imported
        if name not in kept and os.path.abspath(getattr(module, "__file__", None) or "/") in compiled:
            del sys.modules[name]
    for entry in list(sys.path_importer_cache):  # directories of this worker's file system
        if not in_runtime(entry):
            del sys.path_importer_cache[entry]
    recompiled.clear()
    gc.collect()


def forget():
    """Forget the kept modules (imported again at their next import)."""
    for name in kept:
        sys.modules.pop(name, None)
    kept.clear()


def forget_changed():
    """Called by the page before it imports its own modules, after a restore: when the file of
    any kept module no longer has the bytes it was imported from (or cannot be read), forget
    every kept module (they are imported again from the files) and name the files in
    `recompiled`. True when the kept modules stay in use."""
    changed = []
    for name, path in kept.items():
        try:
            with open(path, "rb") as file:
                same = file.read() == compiled[path][0]
        except Exception:
            same = False
        if not same:
            changed.append(path)
    if changed:
        recompiled.extend(changed)
        forget()
        return False
    return bool(kept)


def prepare_from(recipe):
    """prepare() with the arguments in a JSON file (written by the worker)."""
    with open(recipe, encoding="utf-8") as file:
        args = json.load(file)
    prepare(args["modules"], args["sources"], args["imports"], args.get("warm", ()))
