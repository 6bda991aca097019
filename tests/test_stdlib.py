"""The trimmed standard library holds every module app/ needs, transitively.

The browser gets only the modules of tools/stdlib-keep.txt. A module missing there fails
only in the browser, so this walks the imports of app/ through Pyodide's own full
python_stdlib.zip (the library the page runs, not this CPython's): every import in app/,
then every import a stdlib module runs when it is imported in Pyodide (module level, try
and if blocks, class bodies; not inside functions, under `if TYPE_CHECKING:`, in another
platform's branch or in the `except ImportError:` fallback for a compiled module), and so on.
"""

import ast
import re
import zipfile

from tools import build

FULL = build.ROOT / "node_modules" / "pyodide" / "python_stdlib.zip"
RUNTIME = ("app", "js", "pyscript", "pyodide", "_pyodide")  # the page's own and Pyodide's own


def absolute(name, level, module, is_package):
    """The absolute name of `from <level dots><name> import …` written in `module`."""
    if not level:
        return name
    base = module.split(".") if is_package else module.split(".")[:-1]
    base = base[:len(base) - level + 1]
    return ".".join(base + ([name] if name else []))


class Imports(ast.NodeVisitor):
    """Module names a source imports; `everywhere=False` skips function bodies."""

    def __init__(self, module, is_package, everywhere):
        self.module, self.is_package, self.everywhere = module, is_package, everywhere
        self.names = set()

    def visit_Import(self, node):
        self.names.update(a.name for a in node.names)

    def visit_ImportFrom(self, node):
        base = absolute(node.module or "", node.level, self.module, self.is_package)
        self.names.add(base)
        self.names.update(f"{base}.{a.name}" for a in node.names)  # kept when a submodule

    def visit_FunctionDef(self, node):
        if self.everywhere:
            self.generic_visit(node)

    visit_AsyncFunctionDef = visit_FunctionDef

    def visit_If(self, node):
        taken = platform_test(node.test)
        if "TYPE_CHECKING" in ast.unparse(node.test):
            taken = False
        for child in ([] if taken is False else node.body) + ([] if taken is True else node.orelse):
            self.visit(child)

    def visit_Try(self, node):
        """`except ImportError:` is the fallback for a compiled module Pyodide has: not run."""
        for child in node.body + node.orelse + node.finalbody:
            self.visit(child)
        for handler in node.handlers:
            if not re.search(r"ImportError|ModuleNotFoundError", ast.unparse(handler.type or ast.Pass())):
                self.visit(handler)


PLATFORM = {"sys.platform": "emscripten", "os.name": "posix"}  # what Pyodide reports


def platform_test(test):
    """True or False for `sys.platform == 'win32'`, `os.name != 'nt'`, `sys.platform.startswith(…)`
    as they are in Pyodide; None for any other condition (both branches count)."""
    if (isinstance(test, ast.Compare) and len(test.ops) == 1 and ast.unparse(test.left) in PLATFORM
            and isinstance(test.comparators[0], ast.Constant)
            and isinstance(test.ops[0], (ast.Eq, ast.NotEq))):
        same = PLATFORM[ast.unparse(test.left)] == test.comparators[0].value
        return same if isinstance(test.ops[0], ast.Eq) else not same
    if (isinstance(test, ast.Call) and isinstance(test.func, ast.Attribute) and test.func.attr == "startswith"
            and ast.unparse(test.func.value) in PLATFORM and test.args and isinstance(test.args[0], ast.Constant)):
        return PLATFORM[ast.unparse(test.func.value)].startswith(test.args[0].value)
    return None


IMPORT_LINE = re.compile(r"^( *)(?:from +(\.*)([\w.]*) +import +\(?([\w, ]+)|import +([\w., ]+))")
DEF_LINE = re.compile(r"^( *)(?:async +)?def |^( *)if +(?:typing\.)?TYPE_CHECKING")


def scanned_imports(source, module, is_package):
    """The same as `Imports`, by lines, for the few stdlib files written in syntax newer than
    this CPython parses: indentation tells which lines are inside a function."""
    names, skip_deeper_than = set(), None
    for line in source.splitlines():
        indent = len(line) - len(line.lstrip(" "))
        if skip_deeper_than is not None and line.strip() and indent <= skip_deeper_than:
            skip_deeper_than = None
        if skip_deeper_than is not None:
            continue
        if (found := DEF_LINE.match(line)):
            skip_deeper_than = indent
        elif (found := IMPORT_LINE.match(line)):
            if found.group(5):
                names.update(n.split(" as ")[0].strip() for n in found.group(5).split(","))
            else:
                base = absolute(found.group(3), len(found.group(2)), module, is_package)
                names.add(base)
                names.update(f"{base}.{n.split(' as ')[0].strip()}" for n in found.group(4).split(",") if n.strip())
    return names


def imports(source, module, is_package, everywhere=False):
    try:
        visitor = Imports(module, is_package, everywhere)
        visitor.visit(ast.parse(source))
        names = visitor.names
    except SyntaxError:
        names = scanned_imports(source, module, is_package)
    # importing a.b.c imports a and a.b first
    return {".".join(n.split(".")[:i + 1]) for n in names if n for i in range(n.count(".") + 1)}


def stdlib_files():
    """Module name → (path in Pyodide's full python_stdlib.zip, is a package)."""
    files = {}
    for path in zipfile.ZipFile(FULL).namelist():
        if path.endswith("/__init__.py"):
            files[path[:-len("/__init__.py")].replace("/", ".")] = (path, True)
        elif path.endswith(".py"):
            files[path[:-3].replace("/", ".")] = (path, False)
    return files


def needed_but_dropped(sources, keep):
    """{stdlib module: the module that imports it} for every stdlib module reached from
    `sources` ({name: source}, all of whose imports count) that is not in `keep`."""
    files, full = stdlib_files(), zipfile.ZipFile(FULL)
    todo = [(name, imports(text, name, False, everywhere=True)) for name, text in sources.items()]
    seen, dropped = set(), {}
    while todo:
        importer, names = todo.pop()
        for name in sorted(names - seen):
            if name.split(".")[0] in RUNTIME or name not in files:
                continue  # built into Pyodide, compiled, the page's own, or not a module
            seen.add(name)
            if name not in keep:
                dropped.setdefault(name, importer)
            path, is_package = files[name]
            todo.append((name, imports(full.read(path).decode("utf-8"), name, is_package)))
    return dropped


def test_every_stdlib_module_app_reaches_is_kept():
    """Each stdlib module that a module the page ships imports (app/main.py and the modules of
    app/app.zip; the terminal and notebook modules stay on CPython), directly or through other
    stdlib modules, is in tools/stdlib-keep.txt (so the browser has it)."""
    shipped = ["app/main.py"] + build.app_sources()
    assert "app/attention.py" in shipped and "app/views/steps.py" in shipped
    sources = {path[:-3].replace("/", "."): (build.ROOT / path).read_text(encoding="utf-8") for path in shipped}
    dropped = needed_but_dropped(sources, set(build.stdlib_modules()))
    assert dropped == {}, "add to tools/stdlib-keep.txt: " + ", ".join(
        f"{m} (imported by {by})" for m, by in sorted(dropped.items()))


def test_the_walk_sees_submodules_and_modules_needed_by_kept_ones():
    """The check can fail: `from importlib import resources` needs importlib.resources, and a
    kept module's own imports count too (json needs json.decoder)."""
    keep = set(build.stdlib_modules())
    assert "importlib.resources" in needed_but_dropped({"app.x": "from importlib import resources"}, keep)
    assert needed_but_dropped({"app.x": "import json"}, keep - {"json.decoder"}) == {"json.decoder": "json"}
    inside = "def later():\n    import json\n"
    assert "json.decoder" in needed_but_dropped({"app.x": inside}, keep - {"json.decoder"})
