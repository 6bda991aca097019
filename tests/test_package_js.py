"""static/package.js, the page's package button's zip writer: its node tests (`node --test`), and
what it writes read back by independent readers: Python's zipfile (CRC-32 checked on every
member), and the manifest compared with tools/scorm.py's, character for character."""

import json
import subprocess
import zipfile
from pathlib import Path

import pytest

from tools import scorm

ROOT = Path(__file__).resolve().parent.parent

# Writes a zip of the given files with package.js's helpers, and prints both manifests.
WRITE = r"""
const packager = require(process.argv[1] + "/static/package.js");
const fs = require("fs");
const [out, files, parameters] = [process.argv[2], JSON.parse(process.argv[3]), process.argv[4]];
(async () => {
  const entries = [];
  for (const [name, text] of files) entries.push(await packager.entry(name, new TextEncoder().encode(text)));
  fs.writeFileSync(out, Buffer.from(await packager.zip(entries).arrayBuffer()));
  const manifests = {};
  for (const version of ["1.2", "2004"]) {
    const digest = require("crypto").createHash("sha256").update(version + parameters).digest("hex");
    manifests[version] = packager.manifest(version, files.map(f => f[0]), parameters, digest);
  }
  console.log(JSON.stringify(manifests));
})();
"""


def node(*args):
    done = subprocess.run(["node", *args], cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stdout + done.stderr
    return done.stdout


def test_the_zip_and_snapshot_helpers_pass_their_node_tests():
    """`node --test tests/js/`: CRC-32 against its standard check values, deflate and store, the
    zip's signatures; a snapshot's image stored without its zero blocks, expanded back, and
    refused when its runs do not fit."""
    out = node("--test", str(ROOT / "tests" / "js"))
    assert "# fail 0" in out and "# pass 6" in out


@pytest.fixture(scope="module")
def written(tmp_path_factory):
    files = [("index.html", "<!doctype html>" * 200), ("static/é & <b>.js", "x" * 3000),
             ("vendor/a.gz", "not really gzip"), ("empty.txt", "")]
    parameters = '?s=Il+"cane"+&+gatto&quiz=1&lock=1'
    out = tmp_path_factory.mktemp("js") / "written.zip"
    manifests = json.loads(node("-e", WRITE, str(ROOT), str(out), json.dumps(files), parameters))
    return files, parameters, out, manifests


def test_pythons_zipfile_reads_what_package_js_writes(written):
    """Every member comes back byte for byte, its CRC-32 checked; .gz stored, text deflated."""
    files, _, out, _ = written
    with zipfile.ZipFile(out) as z:
        assert z.testzip() is None
        assert [(i.filename, z.read(i).decode()) for i in z.infolist()] == files
        kinds = {i.filename: i.compress_type for i in z.infolist()}
    assert kinds["vendor/a.gz"] == zipfile.ZIP_STORED and kinds["index.html"] == zipfile.ZIP_DEFLATED


def test_the_page_writes_the_same_manifest_as_make_scorm(written):
    """For the same files and launch parameters, the button's manifest is tools/scorm.py's."""
    files, parameters, _, manifests = written
    for version in scorm.VERSIONS:
        assert manifests[version] == scorm.manifest(version, [f[0] for f in files], parameters), version


# Prints, for a bundle's file list, what package.js makes of it for a package.
PACKAGE = r"""
const packager = require(process.argv[1] + "/static/package.js");
const files = JSON.parse(require("fs").readFileSync(process.argv[2], "utf-8")).files;
const kept = packager.packageFiles(files);
console.log(JSON.stringify({kept, list: packager.fileList(kept),
                            launch: ["1.2", "2004"].map(v => packager.launchParameters("?s=Il+cane&quiz=1&lock=1", v))}));
"""


def test_the_button_leaves_out_what_make_scorm_leaves_out(tmp_path):
    """From the bundle's own files.json, the button keeps the files `make scorm` keeps (no model,
    no .gz copy of a runtime file), writes the package's files.json byte for byte as Python does,
    and launches each package with its own version."""
    from tools import bundle
    folder, _ = bundle.make_bundle(tmp_path)
    made = json.loads(node("-e", PACKAGE, str(ROOT), str(folder / bundle.FILE_LIST)))
    assert made["kept"] == scorm.package_files(folder)
    assert made["list"] == scorm.file_list(scorm.package_files(folder))
    assert not any(name.startswith("model/") or name.endswith(".wasm.gz") for name in made["kept"])
    assert made["launch"] == [scorm.exercise_parameters("?s=Il+cane", v) for v in scorm.VERSIONS]
