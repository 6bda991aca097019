"""The runtime the page ships: trimmed stdlib, versioned folders, the pre-render (tools/build.py)."""

import ast
import zipfile

from tools import build

FULL = build.ROOT / "node_modules" / "pyodide" / "python_stdlib.zip"
SHIPPED = build.ROOT / "vendor" / build.runtime_dirs()[0] / "python_stdlib.zip"


def imported_modules(path):
    tree = ast.parse(path.read_text(encoding="utf-8"))
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            yield from (a.name for a in node.names)
        elif isinstance(node, ast.ImportFrom) and node.level == 0:
            yield node.module


def test_every_stdlib_module_app_imports_is_shipped():
    """A stdlib module imported by a module the page ships (app/main.py and pyscript.toml's
    files; the terminal and notebook modules stay on CPython) is in tools/stdlib-keep.txt
    (or built into Pyodide)."""
    full = set(zipfile.ZipFile(FULL).namelist())
    keep = set(build.stdlib_modules())
    shipped = [build.ROOT / url for url in build.preload_list() if url.startswith("./app/") and url.endswith(".py")]
    assert build.ROOT / "app" / "attention.py" in shipped
    for path in sorted(shipped):
        for module in imported_modules(path):
            top = module.split(".")[0]
            if top in ("app", "js", "pyscript"):
                continue
            as_file = module.replace(".", "/")
            in_zip = f"{as_file}.py" in full or f"{as_file}/__init__.py" in full
            assert not in_zip or module in keep, f"{path.name} imports {module}: add it to stdlib-keep.txt"


def test_shipped_stdlib_holds_only_the_kept_modules():
    """python_stdlib.zip in vendor/ is the keep-list only: a fraction of Pyodide's full one."""
    names = zipfile.ZipFile(SHIPPED).namelist()
    assert "json/__init__.py" in names and "asyncio/__init__.py" in names
    assert "unittest/__init__.py" not in names and "email/__init__.py" not in names
    assert len(names) < len(zipfile.ZipFile(FULL).namelist()) / 3


def test_page_and_config_point_at_the_pinned_runtime():
    """index.html and pyscript.toml use the versioned folders of the pinned npm packages."""
    pyodide_dir, pyscript_dir = build.runtime_dirs()
    page = (build.ROOT / "index.html").read_text(encoding="utf-8")
    config = (build.ROOT / "pyscript.toml").read_text(encoding="utf-8")
    assert f"vendor/{pyscript_dir}/core.js" in page and f"vendor/{pyodide_dir}/pyodide.asm.wasm" in page
    assert f'interpreter = "./vendor/{pyodide_dir}/pyodide.mjs"' in config
    assert build.package_version("pyodide") == build.pinned_version("pyodide")


def test_every_file_pyscript_fetches_is_preloaded():
    """boot.js preloads each app file and lexicon listed in pyscript.toml (and main.py)."""
    import re
    page = (build.ROOT / "index.html").read_text(encoding="utf-8")
    preloaded = set(re.search(r'data-preload="([^"]*)"', page).group(1).split())
    config = (build.ROOT / "pyscript.toml").read_text(encoding="utf-8")
    for source in re.findall(r'^"(\./[^"]+)" = ', config, re.M):
        assert source in preloaded
    assert "./app/main.py" in preloaded and "./pyscript.toml" in preloaded
