"""The runtime the page ships: trimmed stdlib, versioned folders, the pre-render (tools/build.py)."""

import json
import re
import zipfile

from tools import build

FULL = build.ROOT / "node_modules" / "pyodide" / "python_stdlib.zip"
SHIPPED = build.ROOT / "vendor" / build.runtime_dirs()[0] / "python_stdlib.zip"


def test_shipped_stdlib_holds_only_the_kept_modules():
    """python_stdlib.zip in vendor/ is the keep-list only: a fraction of Pyodide's full one."""
    names = zipfile.ZipFile(SHIPPED).namelist()
    assert "json/__init__.pyc" in names and "asyncio/__init__.pyc" in names
    assert "unittest/__init__.pyc" not in names and "email/__init__.pyc" not in names
    assert len(names) < len(zipfile.ZipFile(FULL).namelist()) / 3


def test_shipped_stdlib_is_compiled_by_the_runtimes_python():
    """Every module of the shipped stdlib is a .pyc alone (the browser compiles no library
    module at start), for the same Python as the app's compiled modules, and matches its source in
    Pyodide's full library (the hash in its header)."""
    import _imp
    shipped, full = zipfile.ZipFile(SHIPPED), zipfile.ZipFile(FULL)
    archive = zipfile.ZipFile(build.ROOT / build.ARCHIVE)
    app_magic = {archive.read(name)[:4] for name in archive.namelist() if name.endswith(".pyc")}
    assert len(app_magic) == 1
    for name in shipped.namelist():
        assert name.endswith(".pyc"), name
        head = shipped.read(name)[:16]
        assert head[:4] in app_magic, name
        source = full.read(name[:-1])
        assert head[8:16] == _imp.source_hash(int.from_bytes(head[:4], "little"), source), name


def test_the_engine_points_at_the_pinned_runtime():
    """static/engine.js (the engine's worker) loads the versioned Pyodide folder of the pinned npm
    package, and the page itself loads no Python runtime (nor PyScript): its thread stays free."""
    pyodide_dir, pyscript_dir = build.runtime_dirs()
    page = (build.ROOT / "index.html").read_text(encoding="utf-8")
    engine = (build.ROOT / "static" / "engine.js").read_text(encoding="utf-8")
    assert f'"../vendor/{pyodide_dir}/pyodide.js"' in engine and f'"../vendor/{pyodide_dir}/"' in engine
    assert "vendor/" not in page and 'type="py"' not in page
    assert build.package_version("pyodide") == build.pinned_version("pyodide")


def test_the_app_archive_holds_each_module_compiled_alone_from_its_current_source():
    """app/app.zip, which the page loads the app from, holds each module the page loads compiled
    by the runtime's Python, NAME.pyc with no source beside it, carrying the hash of the current
    source (a stale archive would run old code: `make build` refreshes it, `make bundle` refuses
    to ship it)."""
    assert build.stale_archive() == [], "run `make build`"
    archive = zipfile.ZipFile(build.ROOT / build.ARCHIVE)
    names = archive.namelist()
    assert "attention.pyc" in names and "views/steps.pyc" in names
    assert archive.read("views/steps.pyc")[4:8] == (0b11).to_bytes(4, "little")  # (a checked-hash header)
    assert not [n for n in names if n.endswith(".py")] and "main.pyc" not in names and "notebook.pyc" not in names
    assert len(names) == len(build.app_sources())


def test_the_check_before_bundling_sees_a_runtime_folder_missing(tmp_path):
    """`make bundle` refuses a tree whose vendor/ lacks the runtime folders index.html names."""
    assert build.missing_runtime() == []
    (tmp_path / "package.json").write_bytes((build.ROOT / "package.json").read_bytes())
    pyodide_dir, pyscript_dir = build.runtime_dirs()
    (tmp_path / "vendor" / pyscript_dir).mkdir(parents=True)
    (tmp_path / "vendor" / pyscript_dir / "core.js").write_text("")
    assert build.missing_runtime(tmp_path) == [f"vendor/{pyodide_dir}/ is missing; run `make setup`"]


def test_a_module_edited_after_the_build_no_longer_matches_the_archive(tmp_path):
    """The freshness check reads the source hash inside each .pyc:
    one changed byte is seen, and so is a new module the archive lacks."""
    import shutil
    shutil.copytree(build.ROOT / "app", tmp_path / "app")
    (tmp_path / "node_modules" / "pyodide").mkdir(parents=True)
    for name in ("pyscript.toml", "node_modules/pyodide/pyodide-lock.json"):
        shutil.copy2(build.ROOT / name, tmp_path / name)
    assert build.stale_archive(tmp_path) == []
    source = tmp_path / "app" / "attention.py"
    source.write_text(source.read_text(encoding="utf-8") + "\n", encoding="utf-8")
    assert build.stale_archive(tmp_path) == ["app/app.zip: attention.pyc is not of the current app/attention.py"]
    (tmp_path / "app" / "views" / "extra.py").write_text("X = 1\n", encoding="utf-8")
    assert "app/app.zip: views/extra.pyc is missing" in build.stale_archive(tmp_path)


def test_the_first_paint_and_a_first_click_wait_for_no_request_but_the_page():
    """The head's style and its two small scripts that decide before the first paint (transfer.js,
    boot.js) are inlined from static/ by the build, and so are, after the example, the states a
    word click reaches and early.js that answers from them; each script and the style are allowed
    by their hash in the page's CSP (and nothing else inline is); page.js alone is deferred."""
    import base64
    import hashlib
    page = (build.ROOT / "index.html").read_text(encoding="utf-8")
    head = page.split("</head>")[0]
    assert '<link rel="stylesheet"' not in head and '<link rel="preload"' not in head
    style = re.search(r"<style>(.*?)</style>", head, re.S)[1]
    script = re.search(r"<script data-boot=[^>]*>(.*?)</script>", head, re.S)[1]
    own = lambda name: build.without_comments((build.ROOT / "static" / name).read_text(encoding="utf-8"),  # noqa: E731
                                              css=name.endswith(".css"))
    assert style == own("style.css") and "/*" not in style
    assert script == "\n".join(own(n) for n in ("transfer.js", "boot.js"))
    after = page.split('id="attention-state">', 1)[1]
    first = json.loads(re.search(r'<script type="application/json" id="early-states">(.*?)</script>', after, re.S)[1])
    assert sorted(first["states"]) == [f"{i}.0.0" for i in range(6)]
    answers = re.search(r'id="early-states">.*?</script>\n<script>(.*?)</script>', after, re.S)[1]
    assert answers == own("early.js")
    csp = re.search(r'<meta http-equiv="Content-Security-Policy" content="([^"]*)"', head)[1]
    digest = {t: "'sha256-" + base64.b64encode(hashlib.sha256(t.encode()).digest()).decode() + "'"
              for t in (style, script, answers)}
    assert re.search(r"script-src 'self' (\S+ \S+) ", csp)[1] == digest[script] + " " + digest[answers]
    assert re.search(r"style-src 'self' (\S+);", csp)[1] == digest[style]
    assert "unsafe-inline" not in csp and len(re.findall(r"<script(?![^>]*\bsrc=)(?![^>]*application/json)", page)) == 2
    assert re.findall(r'<script src="\./static/(\w+\.js)" defer>', head) == ["page.js"]


def test_no_javascript_lives_in_python_strings():
    """The page's JavaScript is in static/ files a reader can open (static/page.js for app/page.py's
    helpers), never built from Python strings with Function()."""
    for path in sorted((build.ROOT / "app").rglob("*.py")):
        text = path.read_text(encoding="utf-8")
        assert "Function.new(" not in text and "js.eval(" not in text, path
    helpers = (build.ROOT / "static" / "page.js").read_text(encoding="utf-8")
    used = {name for path in (build.ROOT / "app").glob("*.py")
            for name in re.findall(r"helpers\.(\w+)", path.read_text(encoding="utf-8"))}
    assert used and all(re.search(rf"\n    {name}: function", helpers) for name in used), used


def test_boot_scripts_messages_come_from_the_pages_strings():
    """static/boot.js says before Python is up only what app/i18n.py says (both languages, written
    into index.html by the build), and reads a link's switch as app/settings.py does."""
    import html
    import json
    page = (build.ROOT / "index.html").read_text(encoding="utf-8")
    data = json.loads(html.unescape(re.search(r'data-boot="([^"]*)"', page).group(1)))
    assert data == json.loads(json.dumps(build.boot_data()))
    assert data["default"] == "it" and data["truthy"] == ["1", "true", "on", "yes"]
    boot = (build.ROOT / "static" / "boot.js").read_text(encoding="utf-8")
    for lang, strings in data["strings"].items():
        shown = [v for v in strings.values() if isinstance(v, str)] + list(strings["stages"].values())
        assert not [s for s in shown if s in boot], lang  # no message is written into boot.js itself
        assert set(re.findall(r"\bT\.(\w+)", boot)) <= set(strings), lang


def test_no_file_of_the_runtime_or_the_bundle_has_the_mjs_extension(tmp_path):
    """Every module the page and its workers load has a .js name, Pyodide's included: a host whose
    MIME table knows no .mjs (Debian's nginx, a learning platform's file area) serves .js as
    JavaScript, and a browser runs a module only with such a type."""
    from tools.bundle import make_bundle
    folder, archive = make_bundle(tmp_path)
    shipped = [p.relative_to(folder).as_posix() for p in folder.rglob("*") if p.is_file()]
    runtime = build.ROOT / "vendor" / build.runtime_dirs()[0]
    for name in ("pyodide.js", "pyodide.asm.js", "pyodide.asm.wasm"):
        assert f"vendor/{runtime.name}/{name}" in shipped
    assert "static/engine.js" in shipped and "static/snapshot-worker.js" in shipped
    assert [n for n in shipped if ".mjs" in n] == []
    assert [p.name for p in runtime.iterdir() if ".mjs" in p.name] == []
    assert [n for n in zipfile.ZipFile(archive).namelist() if ".mjs" in n] == []


def test_every_name_the_runtime_gives_its_modules_is_rewritten():
    """The vendored runtime names no .mjs anywhere in its code: its loader imports
    `${indexURL}pyodide.asm.js` (the renamed file, what a module worker loads it with), and its
    own stack frames are recognised under the new name; the rest of its text is Pyodide's."""
    runtime = build.ROOT / "vendor" / build.runtime_dirs()[0]
    package = build.ROOT / "node_modules" / "pyodide"
    loader = (runtime / "pyodide.js").read_text(encoding="utf-8")
    asm = (runtime / "pyodide.asm.js").read_text(encoding="utf-8")
    assert "pyodide.asm.js`" in loader  # (the template literal its import() loads)
    assert 'includes("pyodide.asm.js")' in asm
    for text in (loader, asm, (runtime / "pyodide-lock.json").read_text(encoding="utf-8")):
        assert re.findall(r"[\w.-]*\.mjs\b", text) == []
    for vendored, original in ((loader, "pyodide.mjs"), (asm, "pyodide.asm.mjs")):
        source = (package / original).read_text(encoding="utf-8")
        source = re.sub(r"^//# sourceMappingURL=.*\n?", "", source, flags=re.M)
        assert vendored == source.replace("pyodide.asm.mjs", "pyodide.asm.js").replace("pyodide.mjs", "pyodide.js")


def test_a_runtime_that_brings_another_mjs_is_refused(tmp_path):
    """A Pyodide update that adds a module, or renames one, stops `tools.build vendor` with the
    file's name, before vendor/ is touched: its new .mjs would meet the same hosts."""
    import pytest
    package = build.ROOT / "node_modules" / "pyodide"

    def fake_root(extra=(), drop=(), loader_tail=""):
        root = tmp_path / f"root{len(list(tmp_path.iterdir()))}"
        (root / "node_modules" / "pyodide").mkdir(parents=True)
        (root / "node_modules" / "@pyscript" / "core").mkdir(parents=True)
        (root / "package.json").write_text((build.ROOT / "package.json").read_text())
        for name in ("package.json",):
            (root / "node_modules" / "@pyscript" / "core" / name).write_text(
                (build.ROOT / "node_modules" / "@pyscript" / "core" / name).read_text())
        for name in ("package.json", "pyodide.mjs", "pyodide.asm.mjs"):
            if name not in drop:
                text = (package / name).read_text(encoding="utf-8")
                (root / "node_modules" / "pyodide" / name).write_text(
                    text + (loader_tail if name == "pyodide.mjs" else ""), encoding="utf-8")
        for name in extra:
            (root / "node_modules" / "pyodide" / name).write_text("export {};\n")
        return root

    cases = {"pyodide.webworker.mjs": fake_root(extra=["pyodide.webworker.mjs"]),
             "pyodide.asm.mjs is missing": fake_root(drop=["pyodide.asm.mjs"], extra=["pyodide.asm.v2.mjs"]),
             "ffi.mjs": fake_root(loader_tail='\nimport("./ffi.mjs");\n')}
    for said, root in cases.items():
        with pytest.raises(SystemExit) as refused:
            build.vendor(root)
        assert said in str(refused.value) and not (root / "vendor").exists(), refused.value


def test_the_views_css_in_the_stylesheet_is_the_registrys():
    """The rules that hide what a step of a guided path does not show, and show an embedded
    widget's tab, are those the view registry makes (run `make build` after declaring a view):
    a view left out would show on every step."""
    from app.views import registry
    style, fresh = build.view_css()
    assert style == fresh
    for view in registry.views():
        assert f'#app[data-show]:not([data-show~="{view.id}"]) {view.css}' in style
    assert registry.with_css(style.replace('[data-show~="heads"]', '[data-show~="x"]', 1)) == style


def test_inlining_leaves_out_whole_comment_lines_and_nothing_else():
    """Inlined JavaScript loses the comments that fill whole lines, never a string or code that
    looks like one; inlined CSS loses every comment (index.html reaches plain hosts as it is)."""
    js = ('/* a comment\n   on two lines */\nconst a = "/* not one */";  // kept: after code\n'
          '  // a line comment\nconst b = 1 / 2; /* kept too */\n')
    assert build.without_comments(js) == 'const a = "/* not one */";  // kept: after code\nconst b = 1 / 2; /* kept too */\n'
    assert build.without_comments("a { b: c; } /* x */\n/* y\n z */d { e: f; }", css=True) == "a { b: c; } \nd { e: f; }"

