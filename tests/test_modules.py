"""How the app's modules stand to each other: the two languages say the same things, and no chain
of imports leads from a module of app/ or tools/ back to itself, counting the imports inside
functions too (a cycle hides which one a change must start from; an import moved into a function
only hides it)."""

import ast
from pathlib import Path

from app import i18n
from app.views import registry

ROOT = Path(__file__).resolve().parent.parent
APP = ROOT / "app"
PACKAGES = ("app", "tools")


def imported(path):
    """The project's modules `path` imports, at its top or inside a function (`app.x.y` names; a
    name that is no module, `from app.x import f`, is dropped by the caller)."""
    names = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom) and node.module and node.module.split(".")[0] in PACKAGES:
            names.add(node.module)
            names.update(f"{node.module}.{alias.name}" for alias in node.names)
        elif isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names if alias.name.split(".")[0] in PACKAGES)
    return names


def module_name(path):
    parts = path.relative_to(ROOT).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def import_graph():
    """{module: the project's modules it imports} over app/ and tools/."""
    files = [p for package in PACKAGES for p in (ROOT / package).rglob("*.py")]
    modules = {module_name(p): imported(p) for p in files}
    return {a: {b for b in names if b in modules and b != a} for a, names in modules.items()}


def cycles(graph):
    """Each strongly connected set of two or more modules (Tarjan's algorithm): every one is a cycle."""
    index, low, stack, on_stack, found = {}, {}, [], set(), []

    def visit(v):
        index[v] = low[v] = len(index)
        stack.append(v)
        on_stack.add(v)
        for w in sorted(graph[v]):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            group = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                group.append(w)
                if w == v:
                    break
            if len(group) > 1:
                found.append(sorted(group))

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return found


def test_both_languages_have_exactly_the_same_strings():
    """Every string the page can show exists in Italian and in English (the views' own included),
    so switching language never meets a missing text."""
    registry.load()
    it, en = set(i18n.STRINGS["it"]), set(i18n.STRINGS["en"])
    assert (sorted(it - en), sorted(en - it)) == ([], [])


def test_no_chain_of_imports_leads_back_to_where_it_started():
    """No module of app/ or tools/ reaches itself through the modules it imports, however long the
    chain and wherever the import stands (a function's imports count)."""
    assert cycles(import_graph()) == []


def test_the_cycle_finder_finds_a_long_cycle_and_passes_a_tree():
    """The check above can fail: a chain of three that closes is found, a tree is not."""
    assert cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]
    assert cycles({"a": {"b", "c"}, "b": {"c"}, "c": set()}) == []
