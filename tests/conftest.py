"""Shared fixtures for the CPython tests (the browser ones live in tests/e2e/)."""

import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from app import lexicon  # noqa: E402


@pytest.fixture(scope="session")
def lexicons():
    return {lang: lexicon.load_lexicon(lang) for lang in lexicon.LANGS}
