"""Make the deployable bundle (CPython only): python3 -m tools.bundle [--out dist]

Writes `<out>/attention-explorer/` and `<out>/attention-explorer.zip`: exactly the files
the page loads (the same list the local server serves), with relative paths only, so
the folder works from any sub-path of any static host (`https://host/course/week3/x/`)
or an LMS file area. No build helper, test or repository file goes in.
"""

import argparse
import gzip
import json
import re
import shutil
import sys
import zipfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from tools.build import runtime_dirs, without_comments  # noqa: E402
from tools.guide import write_guides  # noqa: E402

# What the page loads and the bundle holds (tools/serve.py serves these alone).
PUBLIC = ("index.html", "embed.js", "sw.js", "pyscript.toml", "app/", "lexicon/", "model/", "static/", "vendor/",
          "LICENSE", "LICENSES/", "THIRD-PARTY.md")
NAME = "attention-explorer"
# The page's own scripts go without their whole-line comments (as index.html inlines boot.js and
# early.js: tools/build.py, `without_comments`), some 33 kB less on a first visit from a host that
# compresses nothing; the repository keeps them commented. embed.js, which a teacher copies into a
# course page, keeps its comments.
SHIPPED_WITHOUT_COMMENTS = ("static/*.js", "sw.js")
# Hosts compress themselves; the lexicon build's reports of left-out words are not loaded.
SKIP = shutil.ignore_patterns("__pycache__", "*.pyc", ".*", "*.br", "*.gz", "*-left-out.txt")
# Python's runtime also ships gzipped: on a host that compresses nothing, sw.js
# serves these (decompressed by the browser) instead of the plain files, which stay as
# fallback. So do the app's entry script and the generated lexicons (gzipped here), which
# sw.js uses only while the plain file is unchanged; the teacher's CSVs stay plain only, and
# the app's archive too (deflated already: gzip would save 2%). The example's early answers
# not inlined in index.html (static/early.json) are fetched as .gz and unpacked by static/early.js.
RUNTIME_SKIP = shutil.ignore_patterns("__pycache__", ".*", "*.br")
GZIPPED_TOO = re.compile(r"^(app/main\.py|lexicon/.+\.txt|static/early\.json)$")
# Of vendor/, the page's engine loads Pyodide only (PyScript is there for `make bench`'s bare page),
# from the folder the page names (a folder an older vendor step left is not shipped).
# Of app/, the page loads its archive, the labs' archives (app/labs/<id>.zip, each when first
# needed) and the entry script only (tools/build.py): the modules' own .py files are not shipped,
# so nobody edits one in a deployed folder to no effect.
APP_FILES = ("app.zip", "main.py", "labs")


def make_bundle(out, root=ROOT):
    """Copy the page into out/attention-explorer and zip it; returns (folder, zip path)."""
    if not (root / "vendor").is_dir():
        raise SystemExit("vendor/ is missing: run `make bundle` (it runs npm ci and the vendor copy).")
    out = Path(out)
    folder = out / NAME
    if folder.exists():
        shutil.rmtree(folder)
    folder.mkdir(parents=True)
    for item in PUBLIC:
        src = root / item.rstrip("/")
        if src.is_dir():
            ignore = SKIP
            if item == "app/":
                def ignore(d, names, app=src):
                    if Path(d) == app:
                        return [n for n in names if n not in APP_FILES]
                    return [n for n in names if not n.endswith(".zip")]  # (app/labs/: the archives alone)
            if item == "vendor/":
                def ignore(d, names, vendor=src):
                    if Path(d) == vendor:
                        return [n for n in names if n != runtime_dirs(root)[0]]
                    return (RUNTIME_SKIP if re.search(r"/pyodide-", d) else SKIP)(d, names)
            shutil.copytree(src, folder / item.rstrip("/"), ignore=ignore)
        elif src.exists():
            shutil.copy2(src, folder / item)
    write_guides(folder)  # the teachers' guide, a page in each language (tools/guide.py)
    for name in SHIPPED_WITHOUT_COMMENTS:
        for path in sorted(folder.glob(name)):
            path.write_text(without_comments(path.read_text(encoding="utf-8")), encoding="utf-8")
    for path in sorted(folder.rglob("*")):
        if path.is_file() and GZIPPED_TOO.match(path.relative_to(folder).as_posix()):
            path.with_name(path.name + ".gz").write_bytes(gzip.compress(path.read_bytes(), 9, mtime=0))
    write_file_list(folder)
    archive = out / f"{NAME}.zip"
    with zipfile.ZipFile(archive, "w", zipfile.ZIP_DEFLATED) as z:
        for path in sorted(folder.rglob("*")):
            if path.is_file():
                z.write(path, Path(NAME) / path.relative_to(folder))
    return folder, archive


# The bundle's own list of its files (written into it): what a SCORM package lists in its
# manifest (tools/scorm.py) and what the page's package button fetches (static/package.js).
FILE_LIST = "files.json"


def bundle_files(folder):
    """The files of a bundle folder, as sorted paths relative to it ("static/page.js", …),
    its file list included."""
    folder = Path(folder)
    names = {path.relative_to(folder).as_posix() for path in folder.rglob("*") if path.is_file()}
    return sorted(names | {FILE_LIST})


def write_file_list(folder):
    """Write the bundle's file list into it (FILE_LIST, JSON: {"files": [path, …]})."""
    files = bundle_files(folder)
    (Path(folder) / FILE_LIST).write_text(json.dumps({"files": files}, indent=0) + "\n", encoding="utf-8")
    return files


def main(argv=None):
    parser = argparse.ArgumentParser(description="Make the deployable bundle of Attention Explorer.")
    parser.add_argument("--out", default=str(ROOT / "dist"), help="output folder (default: dist/)")
    args = parser.parse_args(argv)
    folder, archive = make_bundle(args.out)
    size = sum(p.stat().st_size for p in folder.rglob("*") if p.is_file())
    print(f"bundle: {folder}  ({size / 1e6:.1f} MB)")
    print(f"zip:    {archive}  ({archive.stat().st_size / 1e6:.1f} MB)")
    print("Upload the folder (or unzip the zip) to any static host; open its index.html over HTTP.")
    return 0


if __name__ == "__main__":
    sys.exit(main())
