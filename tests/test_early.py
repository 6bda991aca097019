"""The pre-rendered example's early answers as the build writes them (tools/early.py; the page's
side is tests/e2e/start/test_early.py)."""

import gzip
import json

import numpy as np
import pytest

from tests.reference import W_Q, attention_row, lexicon_cards
from tools import build, early


def test_the_committed_early_answers_are_current():
    """static/early.json and its .gz hold the states the page's code gives now (`make build`)."""
    assert build.stale_early() == [], "run `make build`"


def test_changed_texts_and_attributes_are_set_in_place():
    """A hand-worked case: same shape, so only the class, the text and the number change; an
    attribute gone is removed (None)."""
    before = '<p class="a" title="t">x<b>1</b></p><i>k</i>'
    after = '<p class="b">y<b>2</b></p><i>k</i>'
    assert early.region_ops(before, after) == [
        [0, "@class", "b"], [0, "@title", None], [0, "#0", "y"], [1, "#0", "2"]]


def test_an_element_that_changes_shape_is_replaced_whole_and_counting_goes_on_after_it():
    """A list that gains an item is replaced (element 1, with its 2 items); the element after it
    keeps its number in the pre-rendered page (4)."""
    before = "<div><ul><li>a</li><li>b</li></ul><span>1</span></div>"
    after = "<div><ul><li>a</li><li>b</li><li>c</li></ul><span>2</span></div>"
    assert early.region_ops(before, after) == [
        [1, "outer", "<ul><li>a</li><li>b</li><li>c</li></ul>"], [4, "#0", "2"]]


def test_html_the_browser_would_change_is_refused():
    """A <tr> straight inside <table> gets a <tbody> from the browser: the numbering would be off."""
    with pytest.raises(ValueError):
        early.region_ops("<table><tr><td>1</td></tr></table>", "<table><tr><td>2</td></tr></table>")


def test_every_state_of_the_example_is_there_with_numpys_weights():
    """6 words × mask × include-self, each state's weights (the pre-rendered ones with its changes)
    as numpy computes them, and the address naming that state."""
    data = json.loads(gzip.decompress((build.EARLY.parent / "early.json.gz").read_bytes()))
    assert data["base"] == "5.0.0" and len(data["states"]) == 24
    words = ["Il", "gatto", "seduto", "sul", "tappeto", "dormiva"]
    cards = [lexicon_cards("it")[w.lower()] for w in words]
    page = (build.ROOT / "index.html").read_text(encoding="utf-8")
    pre_rendered = json.loads(page.split('id="attention-state">')[1].split("</script>")[0])
    for key, state in data["states"].items():
        focus, mask, include_self = int(key.split(".")[0]), key.split(".")[1] == "1", key.split(".")[2] == "1"
        rows = state["state"].get("rows", pre_rendered["rows"])  # (left out: the same as pre-rendered)
        _, _, weights, _ = attention_row(cards, W_Q, focus, mask, include_self)
        assert np.allclose([r["weight"] for r in rows], weights, atol=1e-12), key
        query = dict(state["query"])
        assert (query["focus"], query["mask"], query["self"]) == (str(focus), str(int(mask)), str(int(include_self)))


def test_what_the_browser_would_parse_otherwise_is_refused():
    """A comment (a node for the browser), a block inside <p> (closed by the browser) and a changed
    attribute with capitals (SVG's viewBox: setAttribute would add a second one) are refused."""
    for before, after in (("<p>a<!-- x -->b</p>", "<p>c<!-- x -->d</p>"),
                          ("<p><div>1</div></p>", "<p><div>2</div></p>"),
                          ('<svg viewBox="0 0 1 1"></svg>', '<svg viewBox="0 0 2 2"></svg>')):
        with pytest.raises(ValueError):
            early.region_ops(before, after)
    assert early.region_ops('<svg viewBox="0 0 1 1"><rect width="1"></rect></svg>',
                            '<svg viewBox="0 0 1 1"><rect width="2"></rect></svg>') == [[1, "@width", "2"]]
