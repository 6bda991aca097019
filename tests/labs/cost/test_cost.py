"""The cost lab's patterns (app/patterns.py, `pattern`): which cells each computes, by the patterns'
definitions written again here in numpy; the weights as the softmax over the cells left; linear
attention's kernel and its two orders; BigBird's random keys; the state's `cost`."""

import json
from urllib.parse import parse_qsl

import numpy as np
import pytest
from hypothesis import given, settings as hsettings, strategies as st

from app import attention, attention_fast, contract, patterns, settings as schema
from app.lexicon import Lexicons
from app.page import Page
from app.remote import Screen
from tests.contract_check import assert_valid_state, state_for_link as state_of
from tests.test_engine_page import Timers

NINE = "s=Il+gatto+seduto+sul+tappeto+dormiva+e+la+luna"


@pytest.fixture(scope="module")
def page_lexicons():
    return Lexicons()




def reference_allowed(pattern, n, w, globals_, mask, include_self):
    """The cells by the contract's words: |i − j| ≤ w; a global position sees every key and every
    query sees it; then the causal mask (j ≤ i) and the self rule."""
    i, j = np.indices((n, n))
    cells = np.ones((n, n), bool) if pattern == "full" else np.abs(i - j) <= w
    if pattern == "local_global":
        g = np.zeros(n, bool)
        g[list(globals_)] = True
        cells |= g[:, None] | g[None, :]
    if mask:
        cells &= j <= i
    if not include_self:
        cells &= i != j
    return cells


def reference_weights(q, k, v, cells, divisor):
    logits = q @ k.T / divisor
    logits = np.where(cells, logits, -np.inf)
    w = np.exp(logits - logits.max(axis=1, keepdims=True, where=cells, initial=-np.inf))
    w = np.where(cells, w, 0.0)
    with np.errstate(invalid="ignore"):  # (a row with no cell left: no weights, compared nowhere)
        w = w / w.sum(axis=1, keepdims=True)
    return w, w @ v


def test_a_window_of_two_on_nine_words_leaves_39_cells_with_the_word_itself_and_30_without(lexicons):
    """The hand-worked count: 9 on the diagonal, 2·(8 + 7) beside it; 30 without the diagonal."""
    with_self = state_of(NINE + "&pattern=window&window=2&self=1&focus=4", lexicons)
    without = state_of(NINE + "&pattern=window&window=2&focus=4", lexicons)
    named = {"pattern": "window", "window": 2, "global": [], "random": None}
    assert with_self["cost"] == {**named, "cells": 39, "full": 81}
    assert without["cost"] == {**named, "cells": 30, "full": 81}
    assert patterns.window_cells(9, 2) == 39 and patterns.window_cells(9, 2, include_self=False) == 30


@pytest.mark.parametrize("pattern, extra", [("window", "&window=1"), ("window", "&window=3"),
                                            ("local_global", "&window=1&global=0,5"), ("full", "")])
@pytest.mark.parametrize("mask, self_", [(0, 0), (0, 1), (1, 1), (1, 0)])
def test_each_patterns_cells_and_weights_are_numpys_in_sentence_mode(pattern, extra, mask, self_, lexicons):
    """matrix.allowed is the pattern by its definition with the mask and self rule; every row's
    weights and output are numpy's softmax over those cells; cost counts them."""
    state = state_of(f"{NINE}&pattern={pattern}{extra}&mask={mask}&self={self_}&focus=4", lexicons)
    assert_valid_state(state)
    m = state["matrix"]
    w = int(extra.split("window=")[1].split("&")[0]) if "window=" in extra else 0
    globals_ = [0, 5] if "global" in extra else []
    cells = reference_allowed(pattern, 9, w, globals_, mask, self_)
    if pattern != "full":
        assert np.array_equal(np.array(m["allowed"]), cells)
    assert state["cost"] == {"pattern": pattern, "window": None if pattern == "full" else w, "global": globals_,
                             "random": None, "cells": int(cells.sum()), "full": 81}
    q, k, v = (np.array(m[name]) for name in ("queries", "keys", "values"))
    weights, output = reference_weights(q, k, v, cells, state["scale"])
    rows = cells.any(axis=1)
    np.testing.assert_allclose(np.array(m["weights"])[rows], weights[rows], rtol=1e-12, atol=1e-15)
    for i in np.flatnonzero(rows):
        np.testing.assert_allclose(m["output"][i], output[i], rtol=1e-12, atol=1e-12)


def state_the_host_reads(link, lexicons):
    """The state a framed page at `link` posts to its host page ({"type": "attention:state", "state"}),
    the page started as static/page.js starts it."""
    page = Page(Screen(lambda ops: None), lexicons, Timers())
    ops = json.loads(page.receive({"type": "start", "framed": True, "early": None, "state": "", "queue": [],
                                   "address": {"base": "http://x/", "pairs": parse_qsl(link)}}))
    posted = [json.loads(op[2][0]) for op in ops if op[:2] == ["helper", "tellHost"]]
    assert [message["type"] for message in posted] == ["attention:state"]
    return posted[0]["state"]


@pytest.mark.parametrize("link, named", [
    ("pattern=bigbird&window=1&global=0&random=2&s=Il+gatto+seduto+sul+tappeto&focus=2",
     {"pattern": "bigbird", "window": 1, "global": [0], "random": 2}),
    ("pattern=bigbird&s=Il+gatto+seduto+sul+tappeto", {"pattern": "bigbird", "window": 2, "global": [], "random": 2}),
    ("pattern=local_global&window=0&global=5,0,5,9&s=Il+gatto+seduto+sul+tappeto+dormiva",
     {"pattern": "local_global", "window": 0, "global": [0, 5], "random": None}),
    ("pattern=window&window=3&global=1&random=4&s=Il+gatto+dorme", {"pattern": "window", "window": 3, "global": [],
                                                                  "random": None}),
    ("window=3&global=1&s=Il+gatto+dorme", {"pattern": "full", "window": None, "global": [], "random": None}),
    ("lang=en&pattern=linear&window=1&s=The+cat+sleeps", {"pattern": "linear", "window": None, "global": [],
                                                           "random": None}),
    ("mode=matrix&seed=42&pattern=bigbird&window=0&global=7&random=1",
     {"pattern": "bigbird", "window": 0, "global": [7], "random": 1}),
])
def test_a_host_page_reads_which_pattern_is_on_from_the_state(link, named, page_lexicons):
    """The state a host page receives names the pattern and the settings it applies, as the link set
    them (the defaults w = 2 and r = 2 written out; globals sorted, once each, none past the text; a
    setting the pattern does not use is null or [])."""
    state = state_the_host_reads(link, page_lexicons)
    assert_valid_state(state)
    cost = state["cost"]
    assert {key: cost[key] for key in named} == named
    assert list(cost) == ["pattern", "window", "global", "random", "cells", "full"]


def test_model_mode_names_no_pattern(page_lexicons):
    """The trained model's window is not a pattern of the designed heads: `cost` stays null there."""
    state = state_the_host_reads("mode=model&window=2&s=abcab", page_lexicons)
    assert_valid_state(state)
    assert state["cost"] is None and state["mode"] == "model"


def test_a_window_in_matrix_mode_follows_the_same_rule(lexicons):
    """Matrix mode (seed 42's Q, K, V, 8 × 4): a window of 1 with the mask, weights as numpy's."""
    state = state_of("mode=matrix&seed=42&pattern=window&window=1&mask=1&self=1&focus=3", lexicons)
    m = state["matrix"]
    n = len(m["queries"])
    cells = reference_allowed("window", n, 1, [], True, True)
    assert np.array_equal(np.array(m["allowed"]), cells)
    weights, _ = reference_weights(*(np.array(m[x]) for x in ("queries", "keys", "values")), cells, state["scale"])
    np.testing.assert_allclose(m["weights"], weights, rtol=1e-12, atol=1e-15)


def phi(x):
    return np.where(x > 0, x + 1.0, np.exp(np.minimum(x, 0)))


@pytest.mark.parametrize("query", [NINE + "&pattern=linear&self=1&focus=4", NINE + "&pattern=linear&mask=1&self=1&focus=4",
                                   "mode=matrix&seed=7&pattern=linear&focus=2"])
def test_linear_attention_is_the_kernels_share_and_both_orders_agree(query, lexicons):
    """weight_ij = φ(q_i)·φ(k_j) / Σ over the row's candidates; the output φ(Q)(φ(K)ᵀV) / norm equals
    (φ(Q)φ(K)ᵀ)V / norm (without the mask, where the sums are over every key); it differs from softmax."""
    state = state_of(query, lexicons)
    m = state["matrix"]
    q, k, v = (np.array(m[x]) for x in ("queries", "keys", "values"))
    n = len(q)
    cells = reference_allowed("full", n, 0, [], "mask=1" in query, "self=1" in query or "matrix" in query)
    kernel = np.where(cells, phi(q) @ phi(k).T, 0.0)
    weights = kernel / kernel.sum(axis=1, keepdims=True)
    np.testing.assert_allclose(m["weights"], weights, rtol=1e-12, atol=1e-15)
    np.testing.assert_allclose(m["output"], weights @ v, rtol=1e-12, atol=1e-12)
    if "mask" not in query:  # every key in every row: the associative order holds
        right = phi(q) @ (phi(k).T @ v) / (phi(q) @ phi(k).sum(axis=0))[:, None]
        np.testing.assert_allclose(right, weights @ v, rtol=1e-12)
    softmax, _ = reference_weights(q, k, v, cells, np.sqrt(q.shape[1]))
    assert not np.allclose(softmax, weights, atol=1e-3)


@hsettings(max_examples=40, deadline=None)
@given(st.integers(2, 30), st.integers(0, 4), st.lists(st.integers(0, 29), max_size=3), st.integers(0, 5),
       st.integers(0, 10_000))
def test_bigbird_with_a_fixed_seed_is_reproducible_and_keeps_window_and_globals(n, w, globals_, r, seed):
    """The same seed draws the same cells; every window and global cell is kept; each row adds
    min(r, cells left) random keys."""
    a = patterns.pattern_cells("bigbird", n, n, w, globals_, r, seed)
    assert a == patterns.pattern_cells("bigbird", n, n, w, globals_, r, seed)
    base = patterns.pattern_cells("local_global", n, n, w, globals_)
    for i in range(n):
        assert all(a[i][j] for j in range(n) if base[i][j])
        left = n - sum(base[i])
        assert sum(a[i]) - sum(base[i]) == min(r, left)


def test_the_cost_curve_counts_match_the_matrix_for_small_n():
    """cells_at, the cost view's rule as n grows, equals the cells of the made matrix for window and
    full (with and without the mask and the word itself), and is never below them with globals."""
    for n in (1, 2, 5, 9, 30):
        for w in (0, 1, 3):
            for mask in (False, True):
                for self_ in (False, True):
                    cells = reference_allowed("window", n, w, [], mask, self_)
                    assert patterns.cells_at("window", n, w, mask=mask, include_self=self_) == cells.sum()
                    full = reference_allowed("full", n, 0, [], mask, self_)
                    assert patterns.cells_at("full", n, mask=mask, include_self=self_) == full.sum()
            lg = reference_allowed("local_global", n, w, list(range(min(2, n))), False, True)
            assert patterns.cells_at("local_global", n, w, n_global=2) >= lg.sum()


def test_without_a_pattern_every_number_is_todays(lexicons):
    """pattern=full (the default): the weights are those of attend_qkv with no cells given."""
    state = state_of(NINE + "&focus=4", lexicons)
    m = state["matrix"]
    plain = attention.attend_qkv(m["queries"], m["keys"], m["values"])
    assert m["weights"] == plain.weights and m["allowed"] is None
    assert attention_fast.attend_qkv(m["queries"], m["keys"], m["values"]).weights == plain.weights


def test_a_cell_the_pattern_skips_is_said_so_in_the_grid_the_bars_and_the_table(lexicons):
    """Window 1 on nine words, «tappeto» selected: the grid's left-out cells are ×, its help counts
    the 16 cells computed of 81 (the word itself is off); «Il»'s bar and table row say it was not computed, not that it is
    the asking word."""
    from app import render
    settings, _ = schema.parse_params(NINE + "&pattern=window&window=1&focus=4&lang=en", lexicons)
    tokens = schema.check_sentence(settings.sentence, lexicons["en"], settings.limit)[0]
    record = contract.compute(settings, tokens)
    row = contract.selected_row(settings, record)
    html = render.render_analysis(settings, tokens, record, row)
    grid = html[html.index('<table class="heatmap"'):]
    grid = grid[:grid.index("</table>")]
    cells = reference_allowed("window", 9, 1, [], False, False)
    assert grid.count('<td class="skipped">×</td>') == int((np.abs(np.subtract.outer(range(9), range(9))) > 1).sum())
    assert int(cells.sum()) == 16 and "16 cells computed of 81" in html
    bars = html[html.index('id="view-bars"'):]
    assert 'data-index="0"' in bars and "not computed: the pattern leaves it out" in bars
    table = html[html.index('id="view-table"'):]
    assert "not computed (pattern)" in table and table.count("the word asking the question") == 1


def test_the_linear_view_shows_both_orders_agree_and_the_weights_differ_from_softmax(lexicons):
    """pattern=linear, «tappeto»: the view's two orders of the product are the same vector, its
    softmax column is numpy's softmax over the same keys, and the text says the weights differ."""
    import re
    from app import render
    settings, _ = schema.parse_params(NINE + "&pattern=linear&self=1&focus=4&lang=en&path=cost&step=7", lexicons)
    tokens = schema.check_sentence(settings.sentence, lexicons["en"], settings.limit)[0]
    record = contract.compute(settings, tokens)
    html = render.render_analysis(settings, tokens, record, contract.selected_row(settings, record))
    view = html[html.index('id="view-linear"'):]
    orders = re.search(r"= (\[[^\]]*\]) and φ\(q\)·\(φ\(K\)ᵀ·V\) = (\[[^\]]*\])", view)
    assert orders and orders[1] == orders[2]
    logits = np.array(record.logits[4])
    soft = np.exp(logits - logits.max())
    soft /= soft.sum()
    shown = [float(x.rstrip("%")) for x in re.findall(r'<td data-col="softmax"[^>]*>([^<]*)</td>', view)]
    np.testing.assert_allclose(shown, 100 * soft, atol=0.051)
    assert "They are not the same" in view and "n²·d = 324" in view and "n·d² = 144" in view
