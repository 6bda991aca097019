"""What a memory snapshot keeps of the page's code (static/attention_snapshot.py), on CPython."""

import importlib
import importlib.machinery
import importlib.util
import sys

import pytest

from tools.serve import ROOT


@pytest.fixture
def snapshot(tmp_path, monkeypatch):
    """A fresh copy of the module, a package `lesson` in tmp_path, and everything restored after."""
    monkeypatch.setattr(importlib.machinery.SourceFileLoader, "source_to_code",
                        importlib.machinery.SourceFileLoader.source_to_code)
    spec = importlib.util.spec_from_file_location("attention_snapshot", ROOT / "static" / "attention_snapshot.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    package = tmp_path / "lesson"
    package.mkdir()
    (package / "__init__.py").write_text("")
    (package / "words.py").write_text("import colorsys\nWORD = 'gatto'\nSEEN = []\n")
    monkeypatch.chdir(tmp_path)
    monkeypatch.syspath_prepend(str(tmp_path))
    yield module, package
    for name in [n for n in sys.modules if n == "lesson" or n.startswith("lesson.")]:
        del sys.modules[name]


def test_modules_imported_only_for_their_code_are_forgotten_but_their_code_is_kept(snapshot):
    """Modules imported without a page's list (a snapshot made from the files) are forgotten (a
    restore imports them afresh), their runtime imports stay imported, and an import uses the
    kept code without compiling."""
    module, package = snapshot
    sys.modules.pop("colorsys", None)
    module.prepare([], ["lesson/__init__.py", "lesson/words.py"], ["lesson.words"])
    assert "lesson.words" not in sys.modules and "colorsys" in sys.modules
    kept = module.compiled[str(package / "words.py")][1]
    words = importlib.import_module("lesson.words")
    assert words.WORD == "gatto" and words.SEEN == [] and module.recompiled == []
    assert module._source_to_code(None, (package / "words.py").read_bytes(), str(package / "words.py")) is kept


def test_an_edited_file_is_compiled_again_and_named(snapshot):
    """A file whose bytes differ from the kept ones runs as it is now and is named in `recompiled`."""
    module, package = snapshot
    module.prepare([], ["lesson/__init__.py", "lesson/words.py"], ["lesson.words"])
    (package / "words.py").write_text("WORD = 'cane'\n")
    importlib.invalidate_caches()
    assert importlib.import_module("lesson.words").WORD == "cane"
    assert module.recompiled == [str(package / "words.py")]


def test_runtime_modules_of_the_page_are_imported_and_others_skipped(snapshot, monkeypatch):
    """The page's runtime modules (files under Python's lib/) come imported; a module only the
    page has (no such module here) and the page's own modules are not imported."""
    module, _ = snapshot
    sys.modules.pop("colorsys", None)
    runtime_file = importlib.util.find_spec("colorsys").origin
    monkeypatch.setattr(sys, "prefix", runtime_file[: runtime_file.index("/lib/")])
    module.prepare([["colorsys", runtime_file], ["pyscript_only_here", None], ["lesson", "/home/x/lesson/__init__.py"]], [])
    assert "colorsys" in sys.modules and "pyscript_only_here" not in sys.modules
    assert "lesson" not in sys.modules


def test_modules_that_touch_no_page_are_kept_imported_the_others_only_compiled(snapshot):
    """Of the modules the page had imported, those importing nothing of a page (js, pyodide,
    pyscript), directly or through another of its modules, come imported; the others (and a
    module importing one of them) only compiled; an import inside a function does not count."""
    module, package = snapshot
    (package / "page.py").write_text("import js\nfrom lesson import words\n")
    (package / "view.py").write_text("from lesson.page import js\n")
    (package / "later.py").write_text("from . import words\ndef f():\n    import js\n")
    names = ["lesson", "lesson.words", "lesson.page", "lesson.view", "lesson.later"]
    files = ["lesson/__init__.py", "lesson/words.py", "lesson/page.py", "lesson/view.py", "lesson/later.py"]
    module.prepare([[n, str(package.parent / f)] for n, f in zip(names, files)], files)
    assert sorted(module.kept) == ["lesson", "lesson.later", "lesson.words"]
    assert "lesson.words" in sys.modules and "lesson.later" in sys.modules
    assert "lesson.page" not in sys.modules and "lesson.view" not in sys.modules
    assert module.forget_changed() is True and sys.modules["lesson.later"].words.WORD == "gatto"


def test_a_kept_module_whose_file_changed_is_forgotten_with_all_kept_ones(snapshot):
    """After a restore, a kept module whose file no longer has its bytes: every kept module is
    forgotten (imported again from the files) and the file is named in `recompiled`."""
    module, package = snapshot
    files = ["lesson/__init__.py", "lesson/words.py"]
    module.prepare([["lesson", str(package / "__init__.py")], ["lesson.words", str(package / "words.py")]], files)
    assert sorted(module.kept) == ["lesson", "lesson.words"]
    (package / "words.py").write_text("WORD = 'cane'\n")
    assert module.forget_changed() is False
    assert "lesson.words" not in sys.modules and "lesson" not in sys.modules and module.kept == {}
    assert importlib.import_module("lesson.words").WORD == "cane"
    assert str(package / "words.py") in module.recompiled


def test_what_a_module_imports_when_it_runs_is_read_from_its_source(snapshot):
    """Module- and class-level imports count, relative ones resolved from the package (also in
    an __init__, and two levels up); imports inside functions do not."""
    module, _ = snapshot
    source = ("import os\nfrom . import words\nfrom .. import top\nclass C:\n    import js\n"
              "def f():\n    import pyscript\n")
    assert module.imported_at_import(source, "lesson.sub.mod", False) == {
        "os", "lesson.sub", "lesson.sub.words", "lesson", "lesson.top", "js"}
    assert module.imported_at_import("from .words import WORD\n", "lesson", True) == {
        "lesson.words", "lesson.words.WORD"}


def test_the_modules_of_a_package_that_touches_a_page_are_not_kept(snapshot):
    """A package whose __init__ imports js keeps none of its modules imported, even pure ones."""
    module, package = snapshot
    (package / "__init__.py").write_text("import js\n")
    module.prepare([["lesson", str(package / "__init__.py")], ["lesson.words", str(package / "words.py")]],
                   ["lesson/__init__.py", "lesson/words.py"])
    assert module.kept == {} and "lesson" not in sys.modules and "lesson.words" not in sys.modules


def test_a_kept_modules_warm_calls_are_made_and_others_not(snapshot, monkeypatch):
    """What a page's module makes at each start (app/lexicon.py: its lexicons) is made before the
    snapshot, by the calls the page named, only for a module kept imported (not one of the page's
    that touches it, nor an imported runtime module); a failing call is left to the page, and the
    calls after it are still made."""
    module, package = snapshot
    import colorsys
    runtime_calls = []
    monkeypatch.setattr(colorsys, "note", runtime_calls.append, raising=False)
    (package / "page.py").write_text("import js\nSEEN = []\ndef note(*a):\n    SEEN.append(a)\n")
    files = ["lesson/__init__.py", "lesson/words.py", "lesson/page.py"]
    (package / "words.py").write_text("SEEN = []\ndef note(*a):\n    SEEN.append(a)\ndef fail():\n    raise OSError\n")
    module.prepare([["lesson", str(package / "__init__.py")], ["lesson.words", str(package / "words.py")],
                    ["lesson.page", str(package / "page.py")]], files,
                   warm=[["lesson.words", "fail", []], ["lesson.words", "note", ["it"]], ["lesson.page", "note", ["x"]],
                         ["colorsys", "note", ["y"]], ["lesson.words", "note", ["en", 2]]])
    assert sorted(module.kept) == ["lesson", "lesson.words"]
    assert sys.modules["lesson.words"].SEEN == [("it",), ("en", 2)]
    assert "lesson.page" not in sys.modules and runtime_calls == []


def test_a_compiled_modules_imports_are_read_from_its_code_as_from_its_source(snapshot):
    """The app's archive holds .pyc alone: for every module of app/, the imports its compiled code
    runs at import (module and class level) are those its source's syntax tree names."""
    module, _ = snapshot
    for path in sorted((ROOT / "app").rglob("*.py")):
        name = ".".join(path.relative_to(ROOT).with_suffix("").parts).removesuffix(".__init__")
        source = path.read_bytes()
        package = path.name == "__init__.py"
        code = compile(source, str(path), "exec", dont_inherit=True)
        assert module.imported_by_code(code, name, package) == module.imported_at_import(source, name, package), name


def test_a_kept_module_may_come_as_a_pyc_alone(snapshot, tmp_path):
    """A page-free module shipped as NAME.pyc with no source is imported and kept; its bytes are
    what forget_changed compares (an edited .pyc forgets the kept modules)."""
    import importlib._bootstrap_external as external
    import marshal
    module, package = snapshot
    source = (package / "words.py").read_bytes()
    code = compile(source, str(package / "words.pyc"), "exec")
    data = importlib.util.MAGIC_NUMBER + (0b11).to_bytes(4, "little") + importlib.util.source_hash(source) \
        + marshal.dumps(code)
    (package / "words.py").unlink()
    (package / "words.pyc").write_bytes(data)
    assert external.SourcelessFileLoader  # (Python imports a .pyc alone)
    paths = ["lesson/__init__.py", "lesson/words.pyc"]
    module.prepare([["lesson", "lesson/__init__.py"], ["lesson.words", "lesson/words.pyc"]], paths)
    assert "lesson.words" in module.kept and sys.modules["lesson.words"].WORD == "gatto"
    assert module.forget_changed() is True
    (package / "words.pyc").write_bytes(data.replace(b"gatto", b"cane!"))
    assert module.forget_changed() is False and "lesson.words" not in sys.modules
