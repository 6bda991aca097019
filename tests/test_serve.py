"""The local server (tools/serve.py): MIME types, compression, caching, nothing private."""

import json
import urllib.error
import urllib.request

import pytest

from tools.build import runtime_dirs

PYODIDE = "vendor/" + runtime_dirs()[0] + "/"


def get(base_url, path, **headers):
    request = urllib.request.Request(base_url + path.lstrip("/"), headers=headers)
    try:
        with urllib.request.urlopen(request) as r:
            return r.status, r.headers, r.read()
    except urllib.error.HTTPError as e:
        return e.code, e.headers, e.read()


@pytest.mark.parametrize("path, mime", [
    ("/", "text/html"),
    ("/app/attention.py", "text/plain"),
    ("/lexicon/it.csv", "text/csv"),
    ("/static/boot.js", "text/javascript"),
    ("/embed.js", "text/javascript"),
])
def test_page_files_are_served_with_their_types(base_url, path, mime):
    """The page's own files come with the right Content-Type."""
    status, headers, _ = get(base_url, path)
    assert status == 200 and headers["Content-Type"].startswith(mime)


def test_runtime_files_have_the_types_pyodide_needs(base_url):
    """.wasm is application/wasm (Python's wasm then compiles as it downloads) and Pyodide's
    modules, served under .js names, text/javascript."""
    assert get(base_url, PYODIDE + "pyodide.asm.wasm")[1]["Content-Type"] == "application/wasm"
    assert get(base_url, PYODIDE + "pyodide.js")[1]["Content-Type"] == "text/javascript"
    assert get(base_url, PYODIDE + "pyodide.asm.js")[1]["Content-Type"] == "text/javascript"


def test_wasm_is_sent_brotli_compressed_when_accepted(base_url):
    """The 9.6 MB wasm travels as Brotli (under 3 MB), gzip for browsers without Brotli."""
    status, headers, body = get(base_url, PYODIDE + "pyodide.asm.wasm", **{"Accept-Encoding": "gzip, br"})
    assert headers["Content-Encoding"] == "br" and len(body) < 3_000_000
    status, headers, body = get(base_url, PYODIDE + "pyodide.asm.wasm", **{"Accept-Encoding": "gzip"})
    assert headers["Content-Encoding"] == "gzip" and len(body) < 4_000_000


def test_small_text_files_are_gzipped_on_the_fly(base_url):
    """A lexicon CSV is gzipped for a browser that accepts it, and identical once unzipped."""
    import gzip
    _, plain_headers, plain = get(base_url, "lexicon/it.csv")
    _, headers, body = get(base_url, "lexicon/it.csv", **{"Accept-Encoding": "gzip"})
    assert "Content-Encoding" not in plain_headers
    assert headers["Content-Encoding"] == "gzip" and gzip.decompress(body) == plain


def test_versioned_runtime_is_immutable_and_the_page_revalidates(base_url):
    """vendor/ is cached for a year; index.html revalidates and answers 304 to its ETag."""
    assert "immutable" in get(base_url, PYODIDE + "pyodide.js")[1]["Cache-Control"]
    status, headers, _ = get(base_url, "/")
    assert headers["Cache-Control"] == "no-cache" and headers["ETag"]
    status, _, body = get(base_url, "/", **{"If-None-Match": headers["ETag"]})
    assert status == 304 and body == b""


@pytest.mark.parametrize("path", ["/.git/config", "/tools/serve.py", "/Makefile", "/tests/",
                                  "/vendor/../tools/serve.py", "/app/../.git/HEAD"])
def test_files_that_are_not_the_page_are_not_served(base_url, path):
    """Build helpers, tests and the repository are not reachable from the browser."""
    assert get(base_url, path)[0] == 404


def test_every_answer_may_be_read_by_an_opaque_origin(base_url):
    """A widget in an iframe sandboxed without allow-same-origin (origin "null") can load its module
    scripts and files: every answer carries Access-Control-Allow-Origin: *."""
    for path in ("/", "/static/engine.js", PYODIDE + "pyodide.asm.wasm", "/app/app.zip", "/lexicon/it.csv"):
        assert get(base_url, path, Origin="null")[1]["Access-Control-Allow-Origin"] == "*", path


def test_a_server_made_without_cors_sends_no_such_header():
    """make_server(cors=False) answers as a plain host does (the tests' host without the header)."""
    from tests.conftest import served
    with served(cors=False) as url:
        headers = get(url, "/static/boot.js", Origin="null")[1]
    assert headers["Content-Type"].startswith("text/javascript") and "Access-Control-Allow-Origin" not in headers


def test_the_files_only_a_bundle_has_are_served_so_the_package_button_works(base_url):
    """`make serve` answers the package button's list and the guide's link as a published copy does:
    files.json lists the page's files, each of which the server then gives (the .gz copies and
    the teachers' guide pages included)."""
    status, _, body = get(base_url, "/files.json")
    assert status == 200
    files = json.loads(body)["files"]
    assert {"index.html", "files.json", "teachers.html", "teachers.en.html", "app/main.py.gz"} <= set(files)
    for path in ("teachers.html", "teachers.en.html", "app/main.py.gz", "static/package.js"):
        status, headers, body = get(base_url, "/" + path)
        assert status == 200 and body, path
    assert b"SCORM" in get(base_url, "/teachers.en.html")[2]
