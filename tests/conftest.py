"""Shared fixtures for the CPython tests (the browser ones live in tests/e2e/)."""

import contextlib
import sys
import threading
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from app import lexicon  # noqa: E402
from tools.serve import make_server  # noqa: E402


@pytest.fixture(scope="session")
def lexicons():
    return {lang: lexicon.load_lexicon(lang) for lang in lexicon.LANGS}


@contextlib.contextmanager
def served(**options):
    """The project's own server (tools/serve.py, with `options`) on a free port: its URL."""
    server = make_server(port=0, quiet=True, **options)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}/"
    finally:
        server.shutdown()


@pytest.fixture(scope="session")
def base_url():
    """The project's own server on a free port, for the whole session: 'http://127.0.0.1:N/'."""
    with served() as url:
        yield url


# The folders whose files take longest, collected first: `make test`'s processes take whole files in
# turn (pytest-xdist, --dist loadfile), and a long file taken last runs alone while the other process
# has nothing left to do (WebKit's and Firefox's walks, collected last by name, did so).
FIRST = ("webkit", "firefox")


@pytest.hookimpl(trylast=True)
def pytest_collection_modifyitems(items):
    """The other engines' tests first, the rest in their order."""
    items.sort(key=lambda item: Path(str(item.fspath)).resolve().relative_to(ROOT / "tests").parts[0] not in FIRST)
