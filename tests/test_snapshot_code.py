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


def test_app_modules_are_not_kept_but_their_code_is(snapshot):
    """After prepare() the app's modules are forgotten (a restore imports them afresh), their
    runtime imports stay imported, and an import uses the kept code without compiling."""
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
