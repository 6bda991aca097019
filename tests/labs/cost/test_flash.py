"""FlashAttention's tiles (app/flash.py, `flash`): the row over blocks of B keys ends at the row's
output, each block's m, α, l and o follow the recurrence, and the state carries them."""

import math

import numpy as np
import pytest
from hypothesis import given, settings as hsettings, strategies as st

from app import flash
from tests.contract_check import assert_valid_state, state_for_link as state_of


def reference_output(logits, values):
    """softmax over the candidates (None: not one) · V, in numpy."""
    idx = [j for j, s in enumerate(logits) if s is not None]
    if not idx:
        return None
    s = np.array([logits[j] for j in idx])
    w = np.exp(s - s.max())
    w /= w.sum()
    return w @ np.array([values[j] for j in idx])


def reference_steps(logits, values, block):
    """The recurrence written out again, one block at a time, in numpy: [(m, alpha, l, o)]."""
    m, l, o, out = None, 0.0, np.zeros(len(values[0])), []
    for start in range(0, len(logits), block):
        idx = [j for j in range(start, min(start + block, len(logits))) if logits[j] is not None]
        alpha = None
        if idx:
            new = max([logits[j] for j in idx] + ([] if m is None else [m]))
            alpha = 0.0 if m is None else np.exp(m - new)
            e = np.exp(np.array([logits[j] for j in idx]) - new)
            l = alpha * l + e.sum()
            o = alpha * o + e @ np.array([values[j] for j in idx])
            m = new
        out.append((m, alpha, l, o.copy()))
    return out


rows = st.integers(1, 12).flatmap(lambda n: st.tuples(
    st.lists(st.one_of(st.none(), st.floats(-30, 30)), min_size=n, max_size=n),
    st.lists(st.lists(st.floats(-5, 5), min_size=3, max_size=3), min_size=n, max_size=n)))


@hsettings(max_examples=60, deadline=None)
@given(rows)
def test_every_block_size_ends_at_the_rows_softmax_output(row):
    """For random logits (some keys masked) and values, every B from 1 to n gives softmax·V."""
    logits, values = row
    expected = reference_output(logits, values)
    for block in range(1, len(logits) + 1):
        got = flash.tiles(logits, values, block)["output"]
        if expected is None:
            assert got is None
        else:
            np.testing.assert_allclose(got, expected, rtol=1e-12, atol=1e-12)


@hsettings(max_examples=60, deadline=None)
@given(rows, st.integers(1, 12))
def test_each_blocks_m_alpha_l_and_o_follow_the_recurrence(row, block):
    """Each step's numbers are those of the recurrence computed again in numpy, block by block."""
    logits, values = row
    steps = flash.tiles(logits, values, block)["steps"]
    assert [s["keys"] for s in steps] == [[a, min(a + block, len(logits))] for a in range(0, len(logits), block)]
    for step, (m, alpha, l, o) in zip(steps, reference_steps(logits, values, block)):
        assert step["m"] == m
        assert (step["alpha"] is None) == (alpha is None)
        if alpha is not None:
            assert math.isclose(step["alpha"], alpha, rel_tol=1e-12)
        assert math.isclose(step["l"], l, rel_tol=1e-12)
        np.testing.assert_allclose(step["o"], o, rtol=1e-12, atol=1e-12)


def test_a_hand_worked_row_of_three_keys_in_blocks_of_two():
    """logits 1, 3, 2 and values 10, 0, 5 in blocks of 2: m 3, α 1, then l = 1 + e^−2 + e^−1."""
    got = flash.tiles([1.0, 3.0, 2.0], [[10.0], [0.0], [5.0]], 2)
    first, second = got["steps"]
    assert first["keys"] == [0, 2] and first["m"] == 3.0 and first["alpha"] == 0.0
    assert math.isclose(first["l"], math.exp(-2) + 1)
    assert math.isclose(first["o"][0], 10 * math.exp(-2))
    assert second["keys"] == [2, 3] and second["m"] == 3.0 and second["alpha"] == 1.0  # no new maximum
    assert math.isclose(second["l"], math.exp(-2) + 1 + math.exp(-1))
    l = math.exp(-2) + 1 + math.exp(-1)
    assert math.isclose(got["output"][0], (10 * math.exp(-2) + 5 * math.exp(-1)) / l)


def test_a_block_with_no_candidate_changes_nothing_and_a_row_with_none_has_no_output():
    """Masked keys only in a block: m, l, o stay; no candidate at all: m stays null, no output."""
    got = flash.tiles([None, None, 2.0], [[1.0], [2.0], [3.0]], 2)
    assert got["steps"][0]["m"] is None and got["steps"][0]["l"] == 0.0
    assert got["steps"][1]["m"] == 2.0 and got["output"] == [3.0]
    assert flash.tiles([None, None], [[1.0], [2.0]], 1)["output"] is None




@pytest.mark.parametrize("query", ["s=Il+gatto+seduto+sul+tappeto+dormiva&focus=5&flash=2",
                                   "s=Il+gatto+seduto+sul+tappeto+dormiva&focus=2&mask=1&self=1&flash=4",
                                   "mode=matrix&seed=42&focus=3&flash=3"])
def test_the_states_flash_ends_at_the_rows_output_in_sentence_and_matrix_mode(query, lexicons):
    """state.flash: one step a block, the contract's fields, and output = matrix.output[focus]."""
    state = state_of(query, lexicons)
    assert_valid_state(state)
    field, focus = state["flash"], state["focus"]
    n = len(state["matrix"]["weights"][focus])
    assert field["block"] == int(query.rsplit("flash=", 1)[1])
    assert [s["keys"][0] for s in field["steps"]] == list(range(0, n, field["block"]))
    assert set(field["steps"][0]) == {"keys", "m", "l", "o"}
    np.testing.assert_allclose(field["output"], state["matrix"]["output"][focus], rtol=1e-12)


def test_without_flash_the_state_has_none(lexicons):
    """Off by default: no `flash` parameter, state.flash is null."""
    assert state_of("s=Il+gatto+dorme&focus=1", lexicons)["flash"] is None
