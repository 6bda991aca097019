"""The labs' tests, one folder a lab (app/labs/<id>/ ↔ tests/labs/<id>/): on CPython in the folder,
in Chromium in its e2e/ (marked `browser` like tests/e2e/'s, by the path). The browser ones use the
fixtures and the origin guard of tests/e2e/conftest.py, declared again here for the tests below (its
`browser` is the same Chromium: `shared_browser`)."""

from tests.e2e.conftest import app, browser, origin_guard, pytest_collection_modifyitems, pytest_runtest_call  # noqa: F401
