"""Build helpers (CPython only, never shipped to the browser).

    python3 -m tools.build vendor       copy PyScript and Pyodide from node_modules into vendor/
    python3 -m tools.build prerender    refresh the pre-rendered part of index.html
    python3 -m tools.build check        exit 1 if the committed pre-render is stale

The pre-render is the default example rendered by app/render.py itself, placed between
the `prerender` markers of index.html, so the page is readable before Python starts.
"""

import argparse
import shutil
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from app import lexicon, render, state  # noqa: E402

START, END = "<!-- prerender:start -->", "<!-- prerender:end -->"
PYODIDE_FILES = ("pyodide.mjs", "pyodide.asm.mjs", "pyodide.asm.wasm", "python_stdlib.zip",
                 "pyodide-lock.json")


def prerendered_region(lang="it"):
    """The HTML between the markers: the default example, controls disabled, and its state."""
    lexicons = {code: lexicon.load_lexicon(code) for code in lexicon.LANGS}
    settings = state.default_settings(lang)
    tokens, _ = state.check_sentence(settings.sentence, lexicons[lang])
    result = state.analyse(settings, tokens)
    app = render.render_app(settings, tokens, result, interactive=False)
    data = state.state_json(state.build_state(settings, tokens, result))
    return (f'{START}\n<main id="app">{app}</main>\n'
            f'<script type="application/json" id="attention-state">{data}</script>\n{END}')


def with_prerender(page):
    """index.html text with its pre-rendered region replaced by a fresh one."""
    head, rest = page.split(START, 1)
    _, tail = rest.split(END, 1)
    return head + prerendered_region() + tail


def vendor(root=ROOT):
    """Copy the pinned PyScript and Pyodide files into vendor/ (served from our origin)."""
    modules = root / "node_modules"
    if not (modules / "pyodide").is_dir() or not (modules / "@pyscript" / "core").is_dir():
        sys.exit("node_modules is missing: run `npm ci` first (the Makefile does).")
    target = root / "vendor"
    if target.exists():
        shutil.rmtree(target)
    (target / "pyodide").mkdir(parents=True)
    for name in PYODIDE_FILES:
        shutil.copy2(modules / "pyodide" / name, target / "pyodide" / name)
    shutil.copytree(modules / "@pyscript" / "core" / "dist", target / "pyscript",
                    ignore=shutil.ignore_patterns("*.map"))
    for license_file in ("LICENSE",):
        for pkg in ("pyodide", "@pyscript/core"):
            src = modules / pkg / license_file
            if src.exists():
                shutil.copy2(src, target / pkg.split("/")[-1].replace("core", "pyscript") / license_file)


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("step", choices=("vendor", "prerender", "check"))
    args = parser.parse_args(argv)
    if args.step == "vendor":
        vendor()
        return 0
    index = ROOT / "index.html"
    page = index.read_text(encoding="utf-8")
    fresh = with_prerender(page)
    if args.step == "check":
        if fresh != page:
            print("index.html: the pre-rendered example is stale; run `make build`.")
            return 1
        print("index.html: pre-render is fresh.")
        return 0
    if fresh != page:
        index.write_text(fresh, encoding="utf-8")
        print("index.html: pre-render refreshed.")
    return 0


if __name__ == "__main__":
    sys.exit(main())
