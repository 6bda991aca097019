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


# The files that take longest, collected first, longest first (their time in `make test`, two
# processes, docs/performance.md): `make test`'s processes take whole files in turn (pytest-xdist,
# --dist loadfile, with --no-loadscope-reorder: xdist's own order puts the files of fewest tests
# last, and those are the long walks), and a long file taken last runs alone while the other
# process has nothing left to do. Then the other browser files, then the CPython ones (seconds
# each: they fill the end). A new file of a minute or more belongs in this list.
LONGEST = (
    "e2e/student/test_every_path_history_focus.py",  # 121 s
    "e2e/views/test_every_path.py",                  # 87 s
    "e2e/start/test_deploy.py",                      # 87 s
    "e2e/student/test_access.py",                    # 68 s
    "e2e/views/test_formula.py",                     # 63 s
    "webkit/test_paths.py",                          # 59 s
    "e2e/student/test_clicks.py",                    # 55 s
    "labs/position/e2e/test_position.py",            # 53 s
    "e2e/views/test_path.py",                        # 51 s
    "e2e/start/test_cross_site.py",                  # 50 s
    "e2e/start/test_scorm.py",                       # 50 s
    "e2e/start/test_hosts.py",                       # 46 s
    "e2e/views/test_heads.py",                       # 44 s
    "e2e/start/test_early.py",                       # 40 s
)


@pytest.hookimpl(trylast=True)
def pytest_collection_modifyitems(items):
    """The longest files first (LONGEST), then the other browser files, then the CPython ones;
    each file's tests together and in their order."""
    names = [Path(str(item.fspath)).resolve().relative_to(ROOT / "tests").as_posix() for item in items]
    browser = {name for name, item in zip(names, items) if item.get_closest_marker("browser")}
    rank = {name: (LONGEST.index(name) if name in LONGEST else len(LONGEST), name not in browser) for name in names}
    items[:] = [item for _, item in sorted(zip(names, items), key=lambda pair: rank[pair[0]])]
