"""The browser side's house rules, read from the source (CPython, no browser): a widget's state
lives in its `Page` object, never in module globals, and every click has one place to go."""

import ast
import re
from pathlib import Path

from app import labs

ROOT = Path(__file__).resolve().parent.parent
# The modules that run in the engine (and touch a widget's DOM through its Page's Screen).
BROWSER_SIDE = ("engine", "remote", "page", "grid", "row_parts", "editing", "sharing", "guessing")


def module(name):
    return ast.parse((ROOT / "app" / f"{name}.py").read_text(encoding="utf-8"))


def test_no_module_globals_beyond_constants():
    """Each browser-side module holds, at its top level, only imports, functions, classes and
    UPPER_CASE constants, and no function rebinds a module global: two widgets cannot share
    state by accident, and a second widget is a second Page, not a re-run module."""
    for name in BROWSER_SIDE:
        tree = module(name)
        for node in tree.body:
            if isinstance(node, (ast.Import, ast.ImportFrom, ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
                continue
            if isinstance(node, ast.Expr) and isinstance(node.value, ast.Constant):  # the docstring
                continue
            assert isinstance(node, (ast.Assign, ast.AnnAssign)), f"app/{name}.py:{node.lineno}: {ast.dump(node)[:80]}"
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            for target in targets:
                assert isinstance(target, ast.Name) and target.id.isupper(), \
                    f"app/{name}.py:{node.lineno}: a module global that is no constant"
        assert not [n for n in ast.walk(tree) if isinstance(n, (ast.Global, ast.Nonlocal))], f"app/{name}.py"


def test_every_button_and_special_control_has_one_entry_in_the_dispatch_tables():
    """Page.CLICKS names each button id once, Page.CHANGES each special control once, Page.EVENTS
    each kind of event the page's thread sends, and each button id is drawn by a view (a click
    has one place to go, a new button one line)."""
    page = next(n for n in module("page").body if isinstance(n, ast.ClassDef) and n.name == "Page")
    tables = {}
    for node in page.body:
        if isinstance(node, ast.Assign) and isinstance(node.value, ast.Dict):
            keys = [k.value for k in node.value.keys if k is not None]  # (None: a lab's, `**labs.clicks()`)
            assert len(keys) == len(set(keys)), node.targets[0].id
            tables[node.targets[0].id] = keys
    assert set(tables) == {"CLICKS", "CHANGES", "EVENTS"}
    thread = (ROOT / "static" / "page.js").read_text(encoding="utf-8")  # (each event kind it sends has a handler)
    sent = set(re.findall(r'send\(\{ type: "(\w+)"', thread))  # (host, callback, error, address: Page.receive's own)
    assert set(tables["EVENTS"]) == sent - {"host", "callback", "error", "address"}
    views = "".join(p.read_text(encoding="utf-8") for folder in ("views", "labs")
                    for p in (ROOT / "app" / folder).rglob("*.py"))
    lab_clicks = [button for lab in labs.labs() for button in lab.clicks]
    assert len(lab_clicks) == len(set(lab_clicks)) and not set(lab_clicks) & set(tables["CLICKS"])
    for button in tables["CLICKS"] + lab_clicks:  # (drawn as id="…", or named in a view's list of buttons)
        assert f'id="{button}"' in views or f'("{button}",' in views, button
