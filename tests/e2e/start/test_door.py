"""A Pyodide other than the one static/runtime.js was written for: the plain, documented start."""

import threading

import numpy as np
import pytest

from tests.e2e.conftest import get_state, open_page, wait_ready, wait_state
from tests.reference import W_Q, attention_row, lexicon_cards
from tools.serve import changed_copy, make_server

SENTENCE = "Il cane rincorre la palla nel giardino"
SNAPSHOTS = "caches.open('attention-explorer-snapshot').then(c => c.keys()).then(k => k.map(r => r.url))"
START = "document.documentElement.dataset.start"
# The door's memory figure: Python's wasm memory read through Pyodide's internals, null without.
MEMORY = "window.attentionExplorer.engineFigures().then(f => f.memory)"


@pytest.fixture(scope="module")
def other_version(tmp_path_factory):
    """The page served with the door expecting another Pyodide version: its address."""
    door = "static/runtime.js"
    folder = changed_copy(tmp_path_factory.mktemp("door") / "site", {door: (
        'export const WRITTEN_FOR = "', 'export const WRITTEN_FOR = "0.0.0-other+')})
    server = make_server(port=0, root=folder, quiet=True)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    yield f"http://127.0.0.1:{server.server_address[1]}/"
    server.shutdown()


def test_on_another_pyodide_the_page_starts_plainly_and_answers_with_numpys_weights(browser, other_version):
    """The page gets ready, a word click shows numpy's weights, and no snapshot is made or used:
    twice a normal start, nothing kept, no private figure read."""
    context, page = open_page(browser, other_version, "?s=" + SENTENCE.replace(" ", "+"), snapshots=True)
    cards = lexicon_cards("it")
    x = [cards[w.lower()] for w in SENTENCE.split()]
    for visit, word in enumerate((2, 4)):
        wait_ready(page)
        assert page.evaluate(START) == "normal", f"visit {visit + 1}"
        page.locator(f'label.word[data-index="{word}"]').click()
        state = wait_state(page, f"s.focus === {word}")
        _, _, weights, _ = attention_row(x, W_Q, word)
        assert np.allclose([row["weight"] for row in state["rows"]], weights, atol=1e-12, rtol=0)
        assert page.evaluate(MEMORY) is None
        page.wait_for_timeout(4000)  # (past the student's pause, when a snapshot would be made)
        assert page.evaluate(SNAPSHOTS) == []
        if visit == 0:
            page.reload()
    assert page.errors == [] and page.console_errors == [], (page.errors, page.console_errors)
    assert get_state(page)["focus"] == 4
    context.close()
