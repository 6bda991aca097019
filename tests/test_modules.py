"""How the app's modules stand to each other: the two languages say the same things, and no two
modules of app/ import each other (a cycle hides which one a change must start from)."""

import ast
from pathlib import Path

from app import i18n
from app.views import registry

APP = Path(__file__).resolve().parent.parent / "app"


def imported(path):
    """The app modules `path` imports, at its top or inside a function (`app.x.y` names)."""
    names = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom) and node.module and node.module.startswith("app"):
            names.add(node.module)
            names.update(f"{node.module}.{alias.name}" for alias in node.names)
        elif isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names if alias.name.startswith("app"))
    return names


def module_name(path):
    return ".".join(path.relative_to(APP.parent).with_suffix("").parts)


def test_both_languages_have_exactly_the_same_strings():
    """Every string the page can show exists in Italian and in English (the views' own included),
    so switching language never meets a missing text."""
    registry.load()
    it, en = set(i18n.STRINGS["it"]), set(i18n.STRINGS["en"])
    assert (sorted(it - en), sorted(en - it)) == ([], [])


def test_no_two_modules_of_the_app_import_each_other():
    """A module that imports another is never imported back by it, even inside a function."""
    modules = {module_name(p): imported(p) for p in APP.rglob("*.py")}
    both = sorted((a, b) for a, names in modules.items() for b in names
                  if a < b and b in modules and a in modules[b])
    assert both == []
