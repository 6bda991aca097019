"""The maths of app/attention.py: hand-worked numbers, numpy reference, mask semantics."""

import math

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

from app import attention
from app.attention import attend, percents
from tests.reference import attention_row

ALIVE, ACTION, THING, FUNCTION = [1, 0, 0, 0], [0, 1, 0, 0], [0, 0, 1, 0], [0, 0, 0, 1]


def test_hand_worked_verb_looks_at_living_being_then_thing():
    """A verb's card [0,1,0,0] asks W_Q's action row [3,0,2,0]: dots 3 and 2, ÷2, softmax."""
    r = attend([ALIVE, ACTION, THING], focus=1)
    assert r.query == [3.0, 0.0, 2.0, 0.0]
    assert r.dots[0] == 3.0 and r.dots[2] == 2.0
    assert r.logits[0] == 1.5 and r.logits[2] == 1.0  # divided by √d_k = 2
    assert r.exps[0] == pytest.approx(4.4816890703, abs=1e-9)  # e^1.5
    assert r.exps[2] == pytest.approx(2.7182818285, abs=1e-9)  # e^1
    assert r.exp_sum == pytest.approx(7.1999708988, abs=1e-9)
    assert r.weights[0] == pytest.approx(1 / (1 + math.exp(-0.5)), abs=1e-15)  # 0.6225
    assert r.weights[1] == 0.0  # the word itself is not a candidate by default
    assert r.percents == [62, 0, 38]
    assert r.asks_for == [0, 2]  # "looking for living beings and things"


def test_default_sentence_matches_the_numbers_worked_by_hand():
    """'Il gatto seduto sul tappeto dormiva', dormiva: e^x = 1, 4.595, 1.419, 1.105, 2.718."""
    cards = [[0, 0, 0, 1], [0.95, 0.05, 0.1, 0], [0.1, 0.7, 0.2, 0], [0, 0, 0.1, 0.9], [0, 0, 1, 0],
             [0, 1, 0, 0]]
    r = attend(cards, focus=5)
    assert r.dots[:5] == pytest.approx([0.0, 3.05, 0.7, 0.2, 2.0], abs=1e-12)
    assert r.exps[:5] == pytest.approx([1.0, 4.59514, 1.41907, 1.10517, 2.71828], abs=1e-5)
    assert r.exp_sum == pytest.approx(10.83767, abs=1e-5)
    # floors 9+42+13+10+25 = 99; the largest remainder (gatto, .400) gets the missing point
    assert r.percents == [9, 43, 13, 10, 25, 0]


cards_strategy = st.integers(min_value=1, max_value=12).flatmap(
    lambda n: st.lists(st.lists(st.floats(0, 1), min_size=4, max_size=4), min_size=n, max_size=n))
matrix_strategy = st.lists(st.lists(st.floats(-3, 3), min_size=4, max_size=4), min_size=4, max_size=4)


@settings(max_examples=300, deadline=None)
@given(cards=cards_strategy, w_q=matrix_strategy, data=st.data())
def test_every_intermediate_equals_numpy_reference(cards, w_q, data):
    """Query, logits, exponentials, their sum and weights equal an independent numpy computation
    (to 1e-12; exponentials, which grow to e^24 here, relative to 1e-12)."""
    focus = data.draw(st.integers(0, len(cards) - 1))
    mask, include_self = data.draw(st.booleans()), data.draw(st.booleans())
    r = attend(cards, focus, mask, include_self, w_q=w_q)
    q, scores, weights, allowed = attention_row(cards, w_q, focus, mask, include_self)
    exps = np.exp(scores[allowed])
    np.testing.assert_allclose(r.query, q, rtol=0, atol=1e-12)
    np.testing.assert_allclose([r.exps[j] for j in np.flatnonzero(allowed)], exps, rtol=1e-12, atol=0)
    assert math.isclose(r.exp_sum, exps.sum(), rel_tol=1e-12, abs_tol=0)
    for j in range(len(cards)):
        assert r.candidates[j] == bool(allowed[j])
        assert (r.exps[j] is None) == (not allowed[j])  # no exponential for a non-candidate
        if r.logits[j] is not None:
            assert abs(r.logits[j] - scores[j]) <= 1e-12
        assert abs(r.weights[j] - weights[j]) <= 1e-12
    if allowed.any():
        assert math.isclose(sum(r.weights), 1.0, abs_tol=1e-12)
        assert sum(r.percents) == 100
    else:
        assert sum(r.weights) == 0 and sum(r.percents) == 0


def test_mask_hides_later_words_with_weight_exactly_zero():
    """With the causal mask, words after the focus are not candidates and weigh exactly 0."""
    r = attend([ALIVE, ACTION, THING, FUNCTION], focus=1, mask=True)
    assert r.masked == [False, False, True, True]
    assert r.weights[2] == 0.0 and r.weights[3] == 0.0
    assert r.logits[2] is None and r.exps[2] is None


def test_mask_first_word_has_nobody_to_look_at():
    """The first word with the mask has no candidate: every weight and percent is 0."""
    r = attend([ALIVE, ACTION, THING], focus=0, mask=True)
    assert not r.has_candidates
    assert r.weights == [0.0, 0.0, 0.0] and r.percents == [0, 0, 0]


def test_mask_second_word_gets_exactly_100_on_the_first():
    """Softmax of one element is 1: the second word puts 100% on the first, whatever the cards."""
    r = attend([FUNCTION, ACTION, ALIVE], focus=1, mask=True)
    assert r.weights[0] == 1.0 and r.percents[0] == 100


def test_include_self_makes_the_word_a_candidate():
    """'Include the word itself' adds the focus word; with the mask the first word gets 100%."""
    r = attend([ALIVE, ACTION], focus=1, include_self=True)
    assert r.candidates == [True, True] and sum(r.weights) == pytest.approx(1.0)
    first = attend([ALIVE, ACTION], focus=0, mask=True, include_self=True)
    assert first.weights == [1.0, 0.0] and first.percents == [100, 0]


def test_softmax_is_stable_for_large_logits():
    """Softmax subtracts the max: huge logits still give finite weights that sum to 1."""
    big = [[100.0] * 4, [100.0] * 4, [99.0] * 4]
    r = attend(big, focus=0, w_q=[[1000.0] * 4] * 4)
    assert all(math.isfinite(w) for w in r.weights) and sum(r.weights) == pytest.approx(1.0)


@given(st.lists(st.floats(0, 1, allow_subnormal=False), min_size=1, max_size=40))
def test_percents_add_up_to_exactly_100_and_the_spare_points_go_to_the_largest_remainders(raw):
    """Largest remainder: percents sum to 100, each is floor(100·w) or one more, and every word
    that got a spare point has a remainder at least as large as every word that did not
    (the earlier word first on a tie)."""
    total = sum(raw)
    weights = [w / total for w in raw] if total > 0 else [1 / len(raw)] * len(raw)
    candidates = [True] * len(raw)
    p = percents(weights, candidates)
    assert sum(p) == 100
    floors = [math.floor(100 * w) for w in weights]
    assert all(f <= pj <= f + 1 for f, pj in zip(floors, p))
    got = [j for j in range(len(p)) if p[j] == floors[j] + 1]
    left = [j for j in range(len(p)) if p[j] == floors[j]]
    remainder = [100 * w - f for w, f in zip(weights, floors)]
    for g in got:
        for n in left:
            assert remainder[g] > remainder[n] or (remainder[g] == remainder[n] and g < n), (g, n)


def test_percents_tie_goes_to_the_earlier_word():
    """Three equal weights: 34 + 33 + 33, the extra point to the first word."""
    assert percents([1 / 3] * 3, [True] * 3) == [34, 33, 33]


def test_query_words_pick_the_largest_components():
    """The query is described by its components ≥ half of the largest, largest first."""
    assert attention.asks_for([3.0, 0.0, 2.0, 0.0]) == [0, 2]
    assert attention.asks_for([0.2, 3.0, 0.5, 0.0]) == [1]
    assert attention.asks_for([0.0, 0.0, 0.0, 0.0]) == []


def test_bad_focus_and_bad_card_are_specific_errors():
    """A focus outside the sentence or a card of the wrong size is a ValueError, not a crash."""
    with pytest.raises(ValueError, match="outside"):
        attend([ALIVE], focus=3)
    with pytest.raises(ValueError, match="expected 4"):
        attend([[1, 0, 0]], focus=0)


def test_attention_imports_only_math():
    """app/attention.py imports nothing but math, so it reads (and runs) anywhere."""
    import ast
    import inspect
    tree = ast.parse(inspect.getsource(attention))
    imported = {a.name for n in ast.walk(tree) if isinstance(n, ast.Import) for a in n.names}
    imported |= {n.module for n in ast.walk(tree) if isinstance(n, ast.ImportFrom)}
    assert imported == {"math"}
