"""The teachers' way in: the guide is a page of the bundle in both languages (tools/guide.py),
the full page links to it, and a link copied on this computer's own address says so."""

import re
from pathlib import Path

import pytest

from app.sharing import local_host
from app.views.controls import GUIDE, render_header
from tools.bundle import make_bundle
from tools.guide import convert

ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture(scope="module")
def bundle(tmp_path_factory):
    folder, _ = make_bundle(tmp_path_factory.mktemp("dist"))
    return folder


@pytest.mark.parametrize("lang,source", [("it", "teachers.md"), ("en", "teachers.en.md")])
def test_the_guide_is_a_page_of_the_bundle_in_each_language(bundle, lang, source):
    """The header's «Per chi insegna» / "For teachers" link names a file of the bundle; it holds
    every section of the guide, its tables and its code (escaped), and loads nothing."""
    assert f'href="{GUIDE[lang]}"' in render_header(lang)
    page = (bundle / GUIDE[lang]).read_text(encoding="utf-8")
    markdown = (ROOT / "docs" / source).read_text(encoding="utf-8")
    assert f'<html lang="{lang}">' in page
    sections = [line[3:] for line in markdown.splitlines() if line.startswith("## ")]
    assert len(sections) >= 5
    for section in sections:
        assert re.sub(r"[`*]", "", section).split(" ")[1] in page, section
    assert "<table>" in page and "<pre><code>" in page and "&lt;iframe" in page
    assert not re.search(r"<script|<link|<img|<iframe|<[^>]*\bsrc=", page)


def test_the_converter_escapes_and_keeps_only_what_the_guide_uses():
    """Text that looks like HTML stays text; lists, bold, code and links come out as such."""
    html = convert("# T <b>\n\n- **a** `<x>`\n- [w](https://example.org/) and [m](model.md)\n")
    assert "<h1>T &lt;b&gt;</h1>" in html
    assert "<li><strong>a</strong> <code>&lt;x&gt;</code></li>" in html
    assert '<a href="https://example.org/">w</a>' in html and "model.md" not in html


@pytest.mark.parametrize("address,local", [
    ("http://127.0.0.1:8000/", "127.0.0.1:8000"), ("http://localhost/course/", "localhost"),
    ("http://[::1]:8080/", "[::1]:8080"), ("https://example.org/attention/", None),
    ("https://localhost.example.org/", None)])
def test_a_link_of_this_computers_own_address_is_told_apart(address, local):
    """127.0.0.1, localhost and [::1] are this computer only; a published host is not."""
    assert local_host(address) == local
