"""`make scorm` (tools/scorm.py): two packages, each the bundle plus a manifest that the SCORM
specifications accept (checked by hand: tests/scorm_check.py), within the size budget."""

import json
import zipfile
from urllib.parse import parse_qs

import pytest

from tools import bundle, scorm
from tests.scorm_check import check_package


@pytest.fixture(scope="module")
def packages(tmp_path_factory):
    out = tmp_path_factory.mktemp("scorm")
    paths = scorm.make_packages(out, "s=Il cane guarda la palla&questions=3&quiz=0")
    return dict(zip(scorm.VERSIONS, paths)), out


@pytest.mark.parametrize("version", scorm.VERSIONS)
def test_each_package_has_a_manifest_the_specification_accepts(packages, version):
    """The 1.2 and 2004 zips are named as the docs say, hold imsmanifest.xml at their root with one
    SCO launched at index.html with guess first and lock=1, and list every file they hold."""
    paths, _ = packages
    assert paths[version].name == {"1.2": "attention-explorer-scorm12.zip",
                                   "2004": "attention-explorer-scorm2004.zip"}[version]
    launch, _, names = check_package(paths[version], version)
    assert launch.startswith("index.html?")
    query = parse_qs(launch.split("?", 1)[1])
    assert query["s"] == ["Il cane guarda la palla"] and query["questions"] == ["3"]
    assert query["quiz"] == ["1"], "the exercise's own quiz=0 cannot switch guess first off"
    assert "static/scorm.js" in names and "static/page.js" in names


@pytest.mark.parametrize("version", scorm.VERSIONS)
def test_a_package_stays_within_its_budget(packages, version):
    """Each package weighs at most 12 MB."""
    paths, _ = packages
    assert paths[version].stat().st_size <= 12_000_000


def test_the_package_is_the_bundle_and_its_own_file_list(packages, tmp_path):
    """A package holds exactly the bundle's files (as `make bundle` writes them) and the manifest;
    the bundle's files.json lists them all, itself included."""
    paths, _ = packages
    folder, _ = bundle.make_bundle(tmp_path)
    listed = json.loads((folder / bundle.FILE_LIST).read_text(encoding="utf-8"))["files"]
    on_disk = sorted(p.relative_to(folder).as_posix() for p in folder.rglob("*") if p.is_file())
    assert listed == on_disk
    with zipfile.ZipFile(paths["1.2"]) as z:
        assert sorted(set(z.namelist()) - {"imsmanifest.xml"}) == on_disk
        assert z.read("static/page.js") == (folder / "static" / "page.js").read_bytes()
        stored = {i.filename for i in z.infolist() if i.compress_type == zipfile.ZIP_STORED}
    assert stored == {name for name in on_disk if name.endswith((".gz", ".br"))}


def test_the_launch_parameters_keep_the_exercise_and_force_the_lock():
    """The launch query keeps what the exercise set and always ends with quiz=1 and lock=1."""
    assert scorm.exercise_parameters("") == "?quiz=1&lock=1"
    assert scorm.exercise_parameters("?lock=0&s=a+b&embed=1") == "?s=a+b&quiz=1&lock=1"
