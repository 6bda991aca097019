"""The local server (tools/serve.py): MIME types Pyodide needs, nothing private served."""

import urllib.error
import urllib.request

import pytest


@pytest.mark.parametrize("path, mime", [
    ("/", "text/html"),
    ("/app/attention.py", "text/plain"),
    ("/lexicon/it.csv", "text/csv"),
    ("/static/boot.js", "text/javascript"),
])
def test_page_files_are_served_with_their_types(base_url, path, mime):
    """The page's own files come with the right Content-Type."""
    with urllib.request.urlopen(base_url + path.lstrip("/")) as r:
        assert r.headers["Content-Type"].startswith(mime)


def test_runtime_files_have_the_types_pyodide_needs(base_url):
    """.wasm is application/wasm and .mjs is text/javascript (or Pyodide will not start)."""
    with urllib.request.urlopen(base_url + "vendor/pyodide/pyodide.asm.wasm") as r:
        assert r.headers["Content-Type"] == "application/wasm"
    with urllib.request.urlopen(base_url + "vendor/pyodide/pyodide.mjs") as r:
        assert r.headers["Content-Type"] == "text/javascript"


@pytest.mark.parametrize("path", ["/.git/config", "/tools/serve.py", "/Makefile", "/tests/"])
def test_files_that_are_not_the_page_are_not_served(base_url, path):
    """Build helpers, tests and the repository are not reachable from the browser."""
    with pytest.raises(urllib.error.HTTPError) as err:
        urllib.request.urlopen(base_url + path.lstrip("/"))
    assert err.value.code == 404
