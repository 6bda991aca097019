"""Build helpers (CPython only, never shipped to the browser).

    python3 -m tools.build vendor       copy PyScript and Pyodide from node_modules into vendor/
    python3 -m tools.build prerender    refresh the pre-rendered part of index.html (and its
                                        runtime paths and preload list), and the CSS made
                                        from the view registry in static/style.css
    python3 -m tools.build check        exit 1 if the committed pre-render is stale

The pre-render is the default example rendered by app/render.py itself, placed between
the `prerender` markers of index.html, so the page is readable before Python starts.
"""

import argparse
import base64
import gzip
import hashlib
import html
import json
import re
import shutil
import subprocess
import sys
import tempfile
import zipfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from app import contract, i18n, labs, lexicon, render, settings as schema  # noqa: E402
from app.views import registry  # noqa: E402
from tools import early, runtime_names  # noqa: E402

START, END = "<!-- prerender:start -->", "<!-- prerender:end -->"
# Pyodide's files the page loads, as its npm package names them (its modules are vendored under
# `.js` names: tools/runtime_names.py).
PYODIDE_FILES = ("pyodide.mjs", "pyodide.asm.mjs", "pyodide.asm.wasm", "pyodide-lock.json")
STDLIB_KEEP = ROOT / "tools" / "stdlib-keep.txt"
# Compiles the app's modules and the kept stdlib for the browser's Python (`app` / `stdlib`).
BYTECODE_TOOL = ROOT / "tools" / "bytecode.mjs"
# Files worth compressing ahead of time (the server sends FILE.br or FILE.gz when it exists).
PRECOMPRESS = (".wasm", ".js", ".css", ".json", ".zip")
# The app's archive: its modules compiled for the browser's Python, with no source beside them
# (tools/bytecode.mjs; kept current by `prerender`), unpacked by the engine into app/
# (pyscript.toml's [files], static/engine.js). The engine loads the app from it, not from the
# .py files beside it.
ARCHIVE = "app/app.zip"
# The modules of app/ the engine does not import: the entry script (static/engine.js runs it),
# and the terminal and notebook ones, which run on CPython only.
OUTSIDE_THE_ARCHIVE = ("app/main.py", "app/__main__.py", "app/notebook.py", "app/plain_text.py")
# The pre-rendered example's early answers (tools/early.py, static/early.js) and their gzip copy,
# which static/early.js fetches where the browser can unpack it (on a host that compresses
# nothing, a tenth of the bytes).
EARLY = ROOT / "static" / "early.json"
# The stylesheet whose blocks between markers are made from the view registry (`view_css`).
STYLE = ROOT / "static" / "style.css"
# Files that name the versioned runtime folder (kept current by `prerender`).
RUNTIME_REFS = ("pyscript.toml", "static/engine.js")
# The one module that uses Pyodide's internals, and the version it was written for (its
# WRITTEN_FOR): on another version the page starts the documented way, without a snapshot.
DOOR = "static/runtime.js"
DOOR_VERSION = re.compile(r'^export const WRITTEN_FOR = "([^"]+)";$', re.M)


def package_version(name, root=ROOT):
    return json.loads((root / "node_modules" / name / "package.json").read_text())["version"]


def pinned_version(name, root=ROOT):
    return json.loads((root / "package.json").read_text())["dependencies"][name]


def stdlib_modules():
    """Module names from tools/stdlib-keep.txt (comments and blank lines skipped)."""
    lines = STDLIB_KEEP.read_text(encoding="utf-8").splitlines()
    return [ln.strip() for ln in lines if ln.strip() and not ln.lstrip().startswith("#")]


def door_version(root=ROOT):
    """The Pyodide version static/runtime.js knows the internals of (its WRITTEN_FOR)."""
    found = DOOR_VERSION.search((root / DOOR).read_text(encoding="utf-8"))
    return found[1] if found else None


def door_mismatch(root=ROOT):
    """What a Pyodide update must do in static/runtime.js, or "" when it knows the pinned version."""
    pinned, known = pinned_version("pyodide", root), door_version(root)
    if pinned == known:
        return ""
    return (f"{DOOR} was written for Pyodide {known}, package.json pins {pinned}: the page starts "
            f"without a snapshot until each internal it uses is checked against {pinned} and its "
            f"WRITTEN_FOR says {pinned}.")


def runtime_dirs(root=ROOT):
    """The versioned folder names under vendor/: (pyodide, pyscript).

    Assets there never change under the same name, so the server lets browsers cache them
    for a year. The Pyodide folder also carries a hash of the stdlib keep-list and of the
    tool that compiles it, since the python_stdlib.zip in it depends on both, and of the
    renaming of its modules (tools/runtime_names.py), which their text depends on (the
    Makefile's vendor step depends on the same three files).
    """
    keep = hashlib.sha256(STDLIB_KEEP.read_bytes() + BYTECODE_TOOL.read_bytes()
                          + Path(runtime_names.__file__).read_bytes()).hexdigest()[:8]
    return (f"pyodide-{pinned_version('pyodide', root)}-{keep}",
            f"pyscript-{pinned_version('@pyscript/core', root)}")


def with_runtime_paths(text, root=ROOT):
    """index.html or pyscript.toml text pointing at the current versioned vendor folders."""
    pyodide_dir, pyscript_dir = runtime_dirs(root)
    text = re.sub(r"vendor/pyodide-[^/\"']+/", f"vendor/{pyodide_dir}/", text)
    return re.sub(r"vendor/pyscript-[^/\"']+/", f"vendor/{pyscript_dir}/", text)


def trimmed_stdlib(full_zip, modules):
    """Bytes of a python_stdlib.zip holding only `modules` (and their parent packages).

    Stored uncompressed: the server's Brotli then compresses across files, which gives a
    smaller download than the per-file deflate of the original. Still sources: vendor()
    compiles them (compiled_stdlib).
    """
    import io
    source = zipfile.ZipFile(full_zip)
    names = set(source.namelist())
    keep = set()
    for module in modules:
        path = module.replace(".", "/")
        parts = path.split("/")
        for i in range(1, len(parts)):
            init = "/".join(parts[:i]) + "/__init__.py"
            if init in names:
                keep.add(init)
        for candidate in (path + ".py", path + "/__init__.py"):
            if candidate in names:
                keep.add(candidate)
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_STORED) as out:
        for name in sorted(keep):
            info = zipfile.ZipInfo(name, date_time=(2020, 1, 1, 0, 0, 0))
            out.writestr(info, source.read(name))
    return buffer.getvalue()


def compiled_stdlib(trimmed, root=ROOT):
    """Bytes of `trimmed` (a zip of .py) with each module compiled by the runtime's own Python
    into a .pyc alone (tools/bytecode.mjs stdlib): the browser's Python then imports the
    library without compiling it at every first start."""
    with tempfile.TemporaryDirectory() as tmp:
        source, out = Path(tmp) / "stdlib.zip", Path(tmp) / "stdlib-pyc.zip"
        source.write_bytes(trimmed)
        subprocess.run(["node", str(BYTECODE_TOOL), "stdlib", str(source), str(out)],
                       check=True, cwd=root)
        return out.read_bytes()


def prerendered_region(lang="it", early_text=None):
    """The HTML between the markers: the default example, controls disabled, its state, and its
    early answers (`early_answers`)."""
    lexicons = {code: lexicon.load_lexicon(code) for code in lexicon.LANGS}
    settings = schema.default_settings(lang)
    tokens, _ = schema.check_sentence(settings.sentence, lexicons[lang])
    record = contract.compute(settings, tokens)
    row = contract.selected_row(settings, record)
    app = render.render_app(settings, tokens, record, row, interactive="early")
    data = contract.state_json(contract.build_state(settings, tokens, record))
    return (f'{START}\n<main id="app">{app}</main>\n'
            f'<script type="application/json" id="attention-state">{data}</script>\n'
            f'{early_answers(early_text)}\n{END}')


def early_answers(early_text=None):
    """The example's early answers the page carries after it: the states of its switches as
    pre-rendered (tools/early.py's `at_first`, from static/early.json's text `early_text`) and
    static/early.js, which answers from them. (So a first word click waits for no request.)"""
    text = early_text if early_text is not None else early.early_json(i18n.DEFAULT_LANG)
    first = json.dumps(early.at_first(json.loads(text)), ensure_ascii=False, separators=(",", ":"))
    first = first.replace("</", "<\\/").replace("<!--", "<\\u0021--")  # (still JSON; no end tag)
    return (f'<script type="application/json" id="early-states">{first}</script>\n'
            f'<script>{inline_text(INLINE_EARLY)}</script>')


def config_files(root=ROOT):
    """The URLs of pyscript.toml's [files] ("./app/attention.py", …), in its order."""
    return re.findall(r'^"(\./[^"]+)" = ', (root / "pyscript.toml").read_text(encoding="utf-8"), re.M)


def all_sources(root=ROOT):
    """Every .py file of app/ the page loads, relative to root, sorted."""
    found = (p.relative_to(root).as_posix() for p in (root / "app").rglob("*.py")
             if "__pycache__" not in p.parts and re.fullmatch(r"[A-Za-z_]\w*\.py", p.name))
    return sorted(path for path in found if path not in OUTSIDE_THE_ARCHIVE
                  and not (lab_of(path) and path.endswith(f"/{labs.BENCH_MODULE}.py")))


def lab_of(path):
    """The lab whose own archive holds `path` (app/labs/<id>/<module>.py), or None: the page's
    archive holds the rest, each lab's manifest (its __init__.py) included."""
    parts = path.split("/")
    return parts[2] if len(parts) == 4 and parts[:2] == ["app", "labs"] and parts[3] != "__init__.py" else None


def app_sources(root=ROOT):
    """The .py files of the page's archive (app/app.zip), relative to root, sorted."""
    return [path for path in all_sources(root) if lab_of(path) is None]


def archives(root=ROOT):
    """{archive: its .py files}: app/app.zip, then each lab's app/labs/<id>.zip."""
    out = {ARCHIVE: app_sources(root)}
    for path in all_sources(root):
        if lab_of(path) is not None:
            out.setdefault(f"app/labs/{lab_of(path)}.zip", []).append(path)
    return out


def runtime_cache_tag(root=ROOT):
    """The browser Python's cache tag (cpython-314), from the pinned Pyodide's lock file."""
    lock = json.loads((root / "node_modules" / "pyodide" / "pyodide-lock.json").read_text(encoding="utf-8"))
    major, minor = lock["info"]["python"].split(".")[:2]
    return f"cpython-{major}{minor}"


def missing_runtime(root=ROOT):
    """The versioned runtime folders the page names that vendor/ lacks or holds only in
    part (a clone before `make setup`, or one set up for another keep-list): [] if none."""
    entry = {"pyodide": runtime_names.vendored_name("pyodide.mjs"), "pyscript": "core.js"}
    return [f"vendor/{name}/ is missing; run `make setup`" for name in runtime_dirs(root)
            if not (root / "vendor" / name / entry[name.split("-")[0]]).is_file()]


def stale_archive(root=ROOT):
    """What is wrong with app/app.zip: [] when it holds, for each module the page loads, one
    copy compiled by the runtime's Python (NAME.pyc, no source beside it) whose header carries
    the hash of the module's current source."""
    problems = []
    for name, sources in archives(root).items():
        problems += _stale(root, name, sources)
    known = set(archives(root))
    problems += [f"{p.relative_to(root).as_posix()} is no lab's archive" for p in (root / "app" / "labs").glob("*.zip")
                 if p.relative_to(root).as_posix() not in known]
    return problems


def _stale(root, name, sources):
    import _imp
    compiled = {}
    for path in sources:
        folder, _, module = path[len("app/"):].rpartition("/")
        compiled[f"{folder}/{module[:-3]}.pyc".lstrip("/")] = path
    try:
        archive = zipfile.ZipFile(root / name)
    except (OSError, zipfile.BadZipFile):
        return [f"{name} is missing or unreadable"]
    with archive:
        names = archive.namelist()
        problems = [f"{name}: {m} is not one of the modules" for m in names if m not in compiled]
        for member, path in compiled.items():
            if member not in names:
                problems.append(f"{name}: {member} is missing")
                continue
            head = archive.read(member)[:16]
            source_hash = _imp.source_hash(int.from_bytes(head[:4], "little"), (root / path).read_bytes())
            if head[4:8] != (0b11).to_bytes(4, "little") or head[8:16] != source_hash:
                problems.append(f"{name}: {member} is not of the current {path}")
    return problems


def make_archive(root=ROOT):
    """Write app/app.zip and each lab's app/labs/<id>.zip with the browser's own Python (Pyodide in
    Node): each lab's modules, all but its manifest, come in its own archive, fetched when needed."""
    for stale in (root / "app" / "labs").glob("*.zip"):  # (a lab's archive whose folder is gone)
        stale.unlink()
    for name, sources in archives(root).items():
        subprocess.run(["node", str(BYTECODE_TOOL), "app", str(root / name), *sources], check=True, cwd=root)


def boot_data():
    """What static/boot.js needs before Python is up, from the page's own sources: its messages in
    each language (app/i18n.py), the default language, and the words a link's switch reads as on
    (app/settings.py)."""
    return {"default": i18n.DEFAULT_LANG, "truthy": list(schema.TRUE_WORDS), "strings": i18n.boot_strings()}


# What the first paint needs, inlined into index.html's <head> by `prerender` (one round trip
# less: on a phone's slow line each costs ~0.6 s before the words can show), each allowed by its
# hash in the page's Content-Security-Policy (no other inline script or style is).
INLINE_START, INLINE_END = "<!-- inline:start", "<!-- inline:end -->"
INLINE_STYLE = ("static/style.css",)
INLINE_SCRIPT = ("static/transfer.js", "static/boot.js")
# ... and what a first click on the example needs, inlined after it (`early_answers`).
INLINE_EARLY = "static/early.js"
CSP = ("default-src 'self'; script-src 'self' {script} 'wasm-unsafe-eval' 'unsafe-eval'; worker-src 'self' blob:; "
       "style-src 'self' {style}; img-src 'self' data:; font-src 'self'; connect-src 'self'; object-src 'none'; "
       "base-uri 'self'; form-action 'self'")


def csp_hash(text):
    return "'sha256-" + base64.b64encode(hashlib.sha256(text.encode("utf-8")).digest()).decode() + "'"


def inlined_head():
    """(the <head>'s inline style and script, as index.html holds them; the page's CSP)."""
    style = "\n".join(inline_text(name, "</style") for name in INLINE_STYLE)
    script = "\n".join(inline_text(name) for name in INLINE_SCRIPT)
    params = 'data-params="' + " ".join(schema.URL_KEYS) + '"'
    boot = 'data-boot="' + html.escape(json.dumps(boot_data(), ensure_ascii=False), quote=True) + '"'
    block = (f"{INLINE_START}: made by `make build` from {', '.join(INLINE_STYLE + INLINE_SCRIPT)} -->\n"
             f"<style>{style}</style>\n<script {boot} {params}>{script}</script>\n{INLINE_END}")
    scripts = csp_hash(script) + " " + csp_hash(inline_text(INLINE_EARLY))
    return block, CSP.format(script=scripts, style=csp_hash(style))


def inline_text(name, end="</script"):
    """A file of static/ as the page holds it inline, its comments left out (`without_comments`;
    refused if it would end its element)."""
    text = (ROOT / name).read_text(encoding="utf-8")
    if end in text.lower() or "<!--" in text:
        raise SystemExit(f"tools/build.py: {name} holds {end} or <!--")
    return without_comments(text, css=name.endswith(".css"))


# What inlining leaves out: in CSS every /* comment */; in JavaScript only the comments that
# fill whole lines (/* … */ from a line's start, // lines), which no string or regex can hold.
# Every byte of index.html reaches a host that compresses nothing as it is.
CSS_COMMENT = re.compile(r"/\*.*?\*/", re.S)
JS_COMMENT_LINES = re.compile(r"^[ \t]*(?:/\*(?:(?!\*/).)*\*/|//[^\n]*)[ \t]*\n", re.S | re.M)


def without_comments(text, css=False):
    """`text` without its comments as `CSS_COMMENT` and `JS_COMMENT_LINES` find them."""
    return CSS_COMMENT.sub("", text) if css else JS_COMMENT_LINES.sub("", text)


def with_prerender(page, early_text=None):
    """index.html text with its pre-rendered region, runtime paths, and its head's inline style
    and script (static/style.css; static/transfer.js and boot.js, with the list of state
    parameters, data-params, from the settings schema, and boot.js's messages, data-boot, from
    app/i18n.py) and the CSP that allows them, made current."""
    head, rest = page.split(START, 1)
    _, tail = rest.split(END, 1)
    head = with_runtime_paths(head)
    block, csp = inlined_head()
    before, inline = head.split(INLINE_START, 1)
    head = before + block + inline.split(INLINE_END, 1)[1]
    head = re.sub(r'(<meta http-equiv="Content-Security-Policy" content=")[^"]*(")', lambda m: m[1] + csp + m[2], head)
    note = html.escape(i18n.text(i18n.DEFAULT_LANG, "boot_early"), quote=False)
    head = re.sub(r'(<p id="status-note" class="status-note">)[^<]*(</p>)', lambda m: m[1] + note + m[2], head)
    return head + prerendered_region(early_text=early_text) + tail


def stale_early(fresh=None):
    """What is wrong with static/early.json and its .gz: [] when both hold the current states
    (`fresh`: their text, when the caller has made it already)."""
    fresh = fresh if fresh is not None else early.early_json(i18n.DEFAULT_LANG).encode()
    packed = EARLY.with_name(EARLY.name + ".gz")
    wrong = []
    if not EARLY.exists() or EARLY.read_bytes() != fresh:
        wrong.append(f"{EARLY.relative_to(ROOT)} is stale.")
    try:
        same = gzip.decompress(packed.read_bytes()) == fresh
    except (OSError, EOFError):
        same = False
    if not same:
        wrong.append(f"{packed.relative_to(ROOT)} is stale.")
    return wrong


def view_css():
    """(static/style.css as it is, as the view registry makes it): which views a step hides,
    which an embedded widget's tab shows (app/views/registry.py's `css_blocks`)."""
    style = STYLE.read_text(encoding="utf-8")
    return style, registry.with_css(style)


def make_early(fresh):
    EARLY.write_bytes(fresh)
    EARLY.with_name(EARLY.name + ".gz").write_bytes(gzip.compress(fresh, 9, mtime=0))


def vendor(root=ROOT):
    """Copy the pinned PyScript and Pyodide into versioned folders of vendor/ (served from
    our origin), trim the Python standard library, and pre-compress the big files."""
    modules = root / "node_modules"
    if not (modules / "pyodide").is_dir() or not (modules / "@pyscript" / "core").is_dir():
        sys.exit("node_modules is missing: run `npm ci` first (the Makefile does).")
    for name in ("pyodide", "@pyscript/core"):
        if package_version(name, root) != pinned_version(name, root):
            sys.exit(f"node_modules has {name} {package_version(name, root)}, package.json pins "
                     f"{pinned_version(name, root)}: run `npm ci`.")
    pyodide_dir, pyscript_dir = runtime_dirs(root)
    package = modules / "pyodide"
    # Its modules under `.js` names, and their text naming them so; refused (before vendor/ is
    # touched) if any `.mjs` would be left.
    modules_text = {runtime_names.vendored_name(name): runtime_names.rewritten(
        (package / name).read_text(encoding="utf-8")) for name in runtime_names.RENAMED if (package / name).is_file()}
    refused = runtime_names.refused({p.name for p in package.iterdir() if p.is_file()}, modules_text)
    if refused:
        sys.exit("tools/build.py vendor: Pyodide's modules cannot all be served as .js:\n  " + "\n  ".join(refused))
    target = root / "vendor"
    if target.exists():
        shutil.rmtree(target)
    (target / pyodide_dir).mkdir(parents=True)
    for name in PYODIDE_FILES + ("LICENSE",):
        if name in runtime_names.RENAMED:
            (target / pyodide_dir / runtime_names.vendored_name(name)).write_text(
                modules_text[runtime_names.vendored_name(name)], encoding="utf-8")
        elif name == "pyodide-lock.json":
            (target / pyodide_dir / name).write_text(runtime_names.lock_without_packages(
                (package / name).read_text(encoding="utf-8")), encoding="utf-8")
        elif (package / name).exists():
            shutil.copy2(package / name, target / pyodide_dir / name)
    (target / pyodide_dir / "python_stdlib.zip").write_bytes(compiled_stdlib(
        trimmed_stdlib(modules / "pyodide" / "python_stdlib.zip", stdlib_modules()), root))
    shutil.copytree(modules / "@pyscript" / "core" / "dist", target / pyscript_dir,
                    ignore=shutil.ignore_patterns("*.map"))
    shutil.copy2(modules / "@pyscript" / "core" / "LICENSE", target / pyscript_dir / "LICENSE")
    big = [str(p) for p in sorted(target.rglob("*")) if p.suffix in PRECOMPRESS and p.stat().st_size > 4096]
    subprocess.run(["node", str(root / "tools" / "precompress.mjs"), *big], check=True)
    if door_mismatch(root):
        print(door_mismatch(root))


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("step", choices=("vendor", "prerender", "check"))
    args = parser.parse_args(argv)
    if args.step == "vendor":
        vendor()
        return 0
    missing = missing_runtime() if args.step == "check" else []
    if missing:  # (checked first: the pre-render reads PyScript's files there)
        print("\n".join(missing))
        return 1
    style, fresh_style = view_css()
    if args.step == "check" and fresh_style != style:
        print("static/style.css: the views' CSS is stale; run `make build`.")
        return 1
    if fresh_style != style:  # (first: index.html inlines it)
        STYLE.write_text(fresh_style, encoding="utf-8")
        print("static/style.css: the views' CSS written again.")
    index = ROOT / "index.html"
    page = index.read_text(encoding="utf-8")
    fresh_early = early.early_json(i18n.DEFAULT_LANG)  # (24 renders: made once)
    fresh = with_prerender(page, fresh_early)
    if args.step == "check":
        refs = [(ROOT / name).read_text(encoding="utf-8") for name in RUNTIME_REFS]
        if fresh != page or any(with_runtime_paths(text) != text for text in refs):
            print("index.html, pyscript.toml or static/engine.js is stale; run `make build`.")
            return 1
        if door_mismatch():
            print(door_mismatch())
            return 1
        stale = stale_archive() + stale_early(fresh_early.encode())
        if stale:
            print("\n".join(stale) + "\nrun `make build`.")
            return 1
        print("index.html: pre-render is fresh.")
        return 0
    if fresh != page:
        index.write_text(fresh, encoding="utf-8")
        print("index.html: pre-render refreshed.")
    if stale_archive():
        make_archive()
        print(f"{ARCHIVE}: made again.")
    if stale_early(fresh_early.encode()):
        make_early(fresh_early.encode())
        print(f"{EARLY.relative_to(ROOT)}: early answers written again.")
    for name in RUNTIME_REFS:
        text = (ROOT / name).read_text(encoding="utf-8")
        if with_runtime_paths(text) != text:
            (ROOT / name).write_text(with_runtime_paths(text), encoding="utf-8")
            print(f"{name}: runtime path updated.")
    return 0


if __name__ == "__main__":
    sys.exit(main())
