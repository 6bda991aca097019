"""static/runtime.js is the one door to Pyodide's internals: no other browser file patches a
global or names a private part of Pyodide, and the door knows the vendored Pyodide's version."""

import re
from pathlib import Path

import pytest

from tools import build

ROOT = Path(__file__).resolve().parent.parent
DOOR = ROOT / build.DOOR
# What only the door may do: replace a prototype's method, fetch, a WebAssembly function or a
# console method, or name one of Pyodide's private parts; each with a line it finds, and one it
# leaves (a use, not a change).
FORBIDDEN = {
    "a prototype's method replaced": (re.compile(r"\b\w+\.prototype\.\w+\s*=(?!=)"),
                                      "Int8Array.prototype.set = sparseSet;", "Array.prototype.slice.call(a)"),
    "fetch replaced": (re.compile(r"\bfetch\s*=(?!=)"), "self.fetch = function () {};", "await fetch(url)"),
    "a WebAssembly function replaced": (re.compile(r"\bWebAssembly\.\w+\s*=(?!=)"),
                                        "WebAssembly.instantiateStreaming = f;", "WebAssembly.compileStreaming(r)"),
    "console replaced": (re.compile(r"\bconsole\.\w+\s*=(?!=)"), "console.warn = function () {};",
                         "console.warn('x')"),
    "a private part of Pyodide": (re.compile(r"\b(_loadSnapshot|_makeSnapshot|makeMemorySnapshot|_module|_api)\b"),
                                  "loadPyodide({ _loadSnapshot: image })", "loadPyodide({ indexURL })"),
}


def browser_files():
    return sorted([*(ROOT / "static").glob("*.js"), ROOT / "sw.js", ROOT / "embed.js"])


def code(path):
    """A JavaScript file's text without its comments (a comment may name what the door does)."""
    text = path.read_text(encoding="utf-8")
    return re.sub(r"/\*.*?\*/|(?<![:\"'\\])//[^\n]*", "", text, flags=re.S)


@pytest.mark.parametrize("kind", sorted(FORBIDDEN))
def test_only_the_door_patches_globals_or_uses_pyodides_internals(kind):
    """Outside static/runtime.js no browser file does what the door does (the pattern finds such
    a line, and leaves a mere use)."""
    pattern, change, use = FORBIDDEN[kind]
    assert pattern.search(change) and not pattern.search(use)
    found = [f"{path.relative_to(ROOT)}: {m[0]}" for path in browser_files() if path != DOOR
             for m in pattern.finditer(code(path))]
    assert found == [], f"{kind} outside {build.DOOR}"


def test_the_door_knows_the_vendored_pyodide():
    """The Pyodide the page loads is the version the door was written for; after an update this
    fails (and `tools.build check` says so) until the door's internals are checked again."""
    assert build.door_version() == build.pinned_version("pyodide")
    assert build.door_mismatch() == ""


def test_a_pyodide_update_is_named_by_the_build(tmp_path, monkeypatch):
    """A door written for another version is named by the build, with what to do."""
    (tmp_path / "static").mkdir()
    (tmp_path / build.DOOR).write_text('export const WRITTEN_FOR = "0.1.0";\n', encoding="utf-8")
    monkeypatch.setattr(build, "pinned_version", lambda name, root=None: "314.0.2")
    assert build.door_version(tmp_path) == "0.1.0"
    assert "written for Pyodide 0.1.0" in build.door_mismatch(tmp_path)
    assert "WRITTEN_FOR says 314.0.2" in build.door_mismatch(tmp_path)
