"""A school's legal office can say yes to every file of the bundle: each one is listed in
THIRD-PARTY.md under a licence whose text ships with it, and the code has its LICENSE."""

import fnmatch
import re
from pathlib import Path

import pytest

from tools.bundle import make_bundle

ROOT = Path(__file__).resolve().parent.parent


def rows():
    """(file patterns, licence texts) of each row of THIRD-PARTY.md's table."""
    out = []
    for line in (ROOT / "THIRD-PARTY.md").read_text(encoding="utf-8").splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if len(cells) == 4 and cells[0].startswith("`"):
            out.append((re.findall(r"`([^`]+)`", cells[0]), re.findall(r"`([^`]+)`", cells[3])))
    return out


@pytest.fixture(scope="module")
def bundle(tmp_path_factory):
    if not (ROOT / "vendor").is_dir():
        pytest.skip("vendor/ is made by `make setup`")
    folder, _ = make_bundle(tmp_path_factory.mktemp("dist"))
    return folder


def test_the_code_says_its_licence():
    """LICENSE at the root is the MIT licence package.json names."""
    assert (ROOT / "LICENSE").read_text(encoding="utf-8").startswith("MIT License")
    assert '"license": "MIT"' in (ROOT / "package.json").read_text(encoding="utf-8")


def test_every_file_of_the_bundle_has_a_licence_whose_text_ships_with_it(bundle):
    """Each bundle file matches a row of THIRD-PARTY.md, and each row's licence texts are in the bundle."""
    table = rows()
    assert len(table) >= 5
    files = [p.relative_to(bundle).as_posix() for p in bundle.rglob("*") if p.is_file()]
    assert any(f.startswith("vendor/pyodide-") for f in files) and "lexicon/gpl/it.txt" in files
    unlisted = [f for f in files if not any(fnmatch.fnmatch(f, pat) for pats, _ in table for pat in pats)]
    assert unlisted == []
    for patterns, texts in table:
        for text in texts:
            assert (bundle / text).is_file(), f"{patterns}: {text} is not in the bundle"


def test_the_lexicon_licences_name_their_sources():
    """Each generated lexicon folder says its licence and the sources it comes from."""
    for folder, licence in (("gpl", "GPL-3.0-or-later"), ("cc-by-sa", "CC BY-SA 4.0")):
        text = (ROOT / "lexicon" / folder / "LICENCE.md").read_text(encoding="utf-8")
        assert licence in text and "| resource |" in text
