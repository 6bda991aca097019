"""The maths of app/attention.py: hand-worked numbers, numpy reference, mask semantics; and the
page's fast path (app/attention_fast.py) equal to it, bit for bit."""

import math

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

from app import attention, attention_fast
from app.attention import attend, attend_qkv
from tests.reference import attention_matrix

ALIVE, ACTION, THING, FUNCTION = [1, 0, 0, 0], [0, 1, 0, 0], [0, 0, 1, 0], [0, 0, 0, 1]
DEFAULT_CARDS = [[0, 0, 0, 1], [0.95, 0.05, 0.1, 0], [0.1, 0.7, 0.2, 0], [0, 0, 0.1, 0.9],
                 [0, 0, 1, 0], [0, 1, 0, 0]]  # Il gatto seduto sul tappeto dormiva


def test_hand_worked_verb_looks_at_living_being_then_thing():
    """A verb's card [0,1,0,0] asks W_Q's action row [3,0,2,0]: dots 3 and 2, ÷2, softmax."""
    r = attend([ALIVE, ACTION, THING]).row(1)
    assert r.query == [3.0, 0.0, 2.0, 0.0]
    assert r.dots[0] == 3.0 and r.dots[2] == 2.0
    assert r.logits[0] == 1.5 and r.logits[2] == 1.0  # divided by √d_k = 2
    assert r.exps[0] == pytest.approx(4.4816890703, abs=1e-9)  # e^1.5
    assert r.exps[2] == pytest.approx(2.7182818285, abs=1e-9)  # e^1
    assert r.exp_sum == pytest.approx(7.1999708988, abs=1e-9)
    assert r.weights[0] == pytest.approx(1 / (1 + math.exp(-0.5)), abs=1e-15)  # 0.6225
    assert r.weights[1] == 0.0  # the word itself is not a candidate by default
    assert r.asks_for == [0, 2]  # "looking for living beings and things"


def test_default_sentence_matches_the_numbers_worked_by_hand():
    """'Il gatto seduto sul tappeto dormiva', dormiva: e^x = 1, 4.595, 1.419, 1.105, 2.718."""
    r = attend(DEFAULT_CARDS).row(5)
    assert r.dots[:5] == pytest.approx([0.0, 3.05, 0.7, 0.2, 2.0], abs=1e-12)
    assert r.exps[:5] == pytest.approx([1.0, 4.59514, 1.41907, 1.10517, 2.71828], abs=1e-5)
    assert r.exp_sum == pytest.approx(10.83767, abs=1e-5)
    assert r.weights[1] == pytest.approx(0.42399760933593045, abs=1e-15)


def test_seed_003_worked_example_done_correctly():
    """Seed 003's 3×3 example (Q = K = [[1,0],[0,1],[1,1]], V = [[10,0],[0,10],[5,5]], every
    word a candidate): rows ≈ [0,40; 0,20; 0,40], [0,20; 0,40; 0,40], [0,25; 0,25; 0,50],
    out₁ ≈ [6,0; 4,0] (the seed's 0,36/0,18/0,46 and [5,9; 4,1] are a slip)."""
    qk = [[1, 0], [0, 1], [1, 1]]
    r = attend_qkv(qk, qk, [[10, 0], [0, 10], [5, 5]], include_self=True)
    assert r.divisor == pytest.approx(math.sqrt(2))
    expected = [[0.40, 0.20, 0.40], [0.20, 0.40, 0.40], [0.25, 0.25, 0.50]]
    for row, want in zip(r.weights, expected):
        assert [round(w, 2) for w in row] == want
    assert [round(x, 1) for x in r.outputs[0]] == [6.0, 4.0]
    # by hand: e^(1/√2) = 2.0281, e^0 = 1 -> 2.0281 / (2·2.0281 + 1) = 0.40111
    assert r.weights[0][0] == pytest.approx(math.exp(2 ** -0.5) / (2 * math.exp(2 ** -0.5) + 1), abs=1e-15)


cards_strategy = st.integers(min_value=1, max_value=12).flatmap(
    lambda n: st.lists(st.lists(st.floats(0, 1), min_size=4, max_size=4), min_size=n, max_size=n))
matrix_strategy = st.lists(st.lists(st.floats(-3, 3), min_size=4, max_size=4), min_size=4, max_size=4)


def close(a, b, tol=1e-12):
    """|a − b| ≤ tol·max(1, |b|): absolute near zero, relative for large numbers."""
    return abs(a - b) <= tol * max(1.0, abs(b))


@settings(max_examples=300, deadline=None)
@given(cards=cards_strategy, w_q=matrix_strategy, w_k=matrix_strategy, w_v=matrix_strategy,
       mask=st.booleans(), include_self=st.booleans(), scaled=st.booleans(),
       temperature=st.floats(0.05, 20), slope=st.sampled_from([0.0, 0.5, 2.0]))
def test_every_intermediate_equals_numpy_reference(cards, w_q, w_k, w_v, mask, include_self, scaled,
                                                   temperature, slope):
    """Q, K, V, dots, logits, exps and their sums, weights and outputs of every row equal an
    independent numpy computation to 1e-12 (relative for exponentials, below the cap)."""
    r = attend(cards, mask, include_self, w_q, w_k, w_v, scaled, temperature, slope)
    x = np.asarray(cards, dtype=float)
    q, k, v = x @ np.asarray(w_q), x @ np.asarray(w_k), x @ np.asarray(w_v)
    ref = attention_matrix(q, k, v, mask, include_self, scaled, temperature, slope)
    np.testing.assert_allclose(r.queries, q, rtol=0, atol=1e-12)
    np.testing.assert_allclose(r.keys, k, rtol=0, atol=1e-12)
    np.testing.assert_allclose(r.values, v, rtol=0, atol=1e-12)
    assert close(r.divisor, ref["divisor"])
    for i in range(len(cards)):
        allowed = ref["allowed"][i]
        assert r.candidates[i] == [bool(a) for a in allowed]
        for j in range(len(cards)):
            if r.dots[i][j] is None:
                assert r.masked[i][j] and not allowed[j]
                continue
            assert close(r.dots[i][j], ref["dots"][i][j])
            assert close(r.logits[i][j], ref["logits"][i][j])
            assert abs(r.weights[i][j] - ref["weights"][i][j]) <= 1e-12
            if allowed[j] and ref["logits"][i][j] < attention.EXP_CAP:
                assert math.isclose(r.exps[i][j], ref["exps"][i][j], rel_tol=1e-12)
        if allowed.any():
            if ref["logits"][i][allowed].max() < attention.EXP_CAP:
                assert math.isclose(r.exp_sums[i], ref["exp_sums"][i], rel_tol=1e-12)
            assert math.isclose(sum(r.weights[i]), 1.0, abs_tol=1e-12)
            np.testing.assert_allclose(r.outputs[i], ref["output"][i], rtol=0, atol=1e-12)
        else:
            assert r.outputs[i] is None and sum(r.weights[i]) == 0


@settings(max_examples=100, deadline=None)
@given(n_q=st.integers(1, 6), extra=st.integers(1, 5), data=st.data())
def test_cross_attention_has_no_diagonal_and_no_mask(n_q, extra, data):
    """With n_q ≠ n_k every key is a candidate of every row (mask reports false)."""
    n_k = n_q + extra if data.draw(st.booleans()) or n_q - extra < 1 else n_q - extra
    mats = st.lists(st.lists(st.floats(-3, 3), min_size=2, max_size=2), min_size=n_k, max_size=n_k)
    q = data.draw(st.lists(st.lists(st.floats(-3, 3), min_size=2, max_size=2), min_size=n_q, max_size=n_q))
    k, v = data.draw(mats), data.draw(mats)
    r = attend_qkv(q, k, v, mask=True)
    ref = attention_matrix(q, k, v, mask=True)
    np.testing.assert_allclose(r.weights, ref["weights"], rtol=0, atol=1e-12)
    np.testing.assert_allclose(r.outputs, ref["output"], rtol=0, atol=1e-12)
    assert not r.mask and all(all(row) for row in r.candidates)


def test_mask_hides_later_words_with_weight_exactly_zero():
    """With the causal mask, words after the focus are not candidates and weigh exactly 0."""
    r = attend([ALIVE, ACTION, THING, FUNCTION], mask=True).row(1)
    assert r.masked == [False, False, True, True]
    assert r.weights[2] == 0.0 and r.weights[3] == 0.0
    assert r.logits[2] is None and r.exps[2] is None


def test_mask_first_word_has_nobody_to_look_at():
    """The first word with the mask has no candidate: every weight is 0, no output."""
    r = attend([ALIVE, ACTION, THING], mask=True).row(0)
    assert not r.has_candidates and r.output is None
    assert r.weights == [0.0, 0.0, 0.0]


def test_mask_second_word_gets_exactly_100_on_the_first():
    """Softmax of one element is 1: the second word puts 100% on the first, whatever the cards."""
    r = attend([FUNCTION, ACTION, ALIVE], mask=True).row(1)
    assert r.weights[0] == 1.0 and r.output == [0.0, 0.0, 0.0, 1.0]


def test_include_self_makes_the_word_a_candidate():
    """'Include the word itself' adds the focus word; with the mask the first word gets 100%."""
    r = attend([ALIVE, ACTION], include_self=True).row(1)
    assert r.candidates == [True, True] and sum(r.weights) == pytest.approx(1.0)
    first = attend([ALIVE, ACTION], mask=True, include_self=True).row(0)
    assert first.weights == [1.0, 0.0]


def test_scale_off_and_temperature_change_the_divisor():
    """Divisor = √d_k × T: 2 by default, 1 without the scale, 4 with T = 2, 0,5 with T = ¼ unscaled…"""
    assert attend(DEFAULT_CARDS).divisor == 2.0
    assert attend(DEFAULT_CARDS, scaled=False).divisor == 1.0
    assert attend(DEFAULT_CARDS, temperature=2.0).divisor == 4.0
    assert attend(DEFAULT_CARDS, scaled=False, temperature=0.25).row(5).logits[1] == 3.05 / 0.25


def test_low_temperature_saturates_high_temperature_flattens():
    """Moving T: at 0.25 unscaled «dormiva» puts ≥ 98% on «gatto»; at 8 every share is near 1/5."""
    sharp = attend(DEFAULT_CARDS, scaled=False, temperature=0.25).row(5)
    assert max(sharp.weights) >= 0.98
    flat = attend(DEFAULT_CARDS, temperature=8).row(5)
    assert max(flat.weights) <= 1.5 / 5


def test_distance_bias_prefers_near_words():
    """Slope m: equal cards, the nearer word wins (−m|i−j| on candidates only)."""
    r = attend([ALIVE, ALIVE, ALIVE, ALIVE], slope=1.0).row(0)
    assert r.weights[1] > r.weights[2] > r.weights[3]
    assert r.logits[0] == r.dots[0] / 2  # the non-candidate self cell keeps its plain logit


def test_softmax_is_stable_for_large_logits():
    """Softmax subtracts the max: huge logits still give finite weights that sum to 1."""
    big = [[100.0] * 4, [100.0] * 4, [99.0] * 4]
    r = attend(big, w_q=[[1000.0] * 4] * 4).row(0)
    assert all(math.isfinite(w) for w in r.weights) and sum(r.weights) == pytest.approx(1.0)


def test_default_keys_and_values_are_the_cards():
    """W_K = W_V = identity: K and V are the cards themselves."""
    r = attend(DEFAULT_CARDS)
    assert r.keys == r.values == [list(map(float, c)) for c in DEFAULT_CARDS]


def test_query_words_pick_the_largest_components():
    """The query is described by its components ≥ half of the largest, largest first."""
    assert attention.asks_for([3.0, 0.0, 2.0, 0.0]) == [0, 2]
    assert attention.asks_for([0.2, 3.0, 0.5, 0.0]) == [1]
    assert attention.asks_for([0.0, 0.0, 0.0, 0.0]) == []


def test_bad_row_and_bad_card_are_specific_errors():
    """A row outside the matrix or a card of the wrong size is a ValueError, not a crash."""
    with pytest.raises(ValueError, match="outside"):
        attend([ALIVE]).row(3)
    with pytest.raises(ValueError, match="expected 4"):
        attend([[1, 0, 0]])


@pytest.mark.parametrize("module, allowed", [(attention, {"math"}), (attention_fast, {"math", "app.attention"})])
def test_attention_imports_only_math(module, allowed):
    """app/attention.py imports nothing but math (its fast path: math and it), so it reads (and runs) anywhere."""
    import ast
    import inspect
    tree = ast.parse(inspect.getsource(module))
    imported = {a.name for n in ast.walk(tree) if isinstance(n, ast.Import) for a in n.names}
    imported |= {n.module for n in ast.walk(tree) if isinstance(n, ast.ImportFrom)}
    assert imported == allowed


@given(st.lists(st.booleans(), max_size=30))
def test_candidate_runs_are_the_slices_of_the_candidates(candidates):
    """The runs the fast path's softmax reads cover exactly the candidates, each run whole and in order."""
    runs = attention_fast.candidate_runs(candidates)
    covered = [j for start, stop in runs for j in range(start, stop)]
    assert covered == [j for j, c in enumerate(candidates) if c]
    assert all(stop == len(candidates) or not candidates[stop] for _, stop in runs)  # maximal runs


@pytest.mark.parametrize("mask", [False, True])
def test_repeated_words_and_reused_products_match_numpy(mask):
    """A long text whose words repeat and whose card values recur (reused dots and products) equals numpy, row by row."""
    rng = np.random.default_rng(7)
    cards = [list(map(float, rng.choice([0, 0.5, 1, 2, 3], 4))) for _ in range(9)] * 3
    w_q = [list(map(float, rng.choice([0, 1, 2, 3], 4))) for _ in range(4)]
    r = attend(cards, mask=mask, w_q=w_q)
    x = np.asarray(cards)
    ref = attention_matrix(x @ np.asarray(w_q), x, x, mask=mask)
    for i in range(len(cards)):
        np.testing.assert_allclose([d if d is not None else np.nan for d in r.dots[i]],
                                   np.where(ref["allowed"][i] | ~np.asarray(r.masked[i]), ref["dots"][i], np.nan),
                                   rtol=0, atol=1e-12)
        np.testing.assert_allclose(r.weights[i], ref["weights"][i], rtol=0, atol=1e-12)
        if r.outputs[i] is not None:
            np.testing.assert_allclose(r.outputs[i], ref["output"][i], rtol=0, atol=1e-12)


FIELDS = ("mask", "include_self", "scaled", "temperature", "slope", "d_k", "divisor", "queries", "keys",
          "values", "candidates", "masked", "dots", "logits", "exps", "exp_sums", "weights", "outputs")
# Numbers as a card or a designed matrix has them (few distinct values, zeros, repeats) and wild ones.
NUMBERS = st.one_of(st.sampled_from([0.0, 1.0, 0.5, 0.95, 0.05, 0.1, 3.0, 2.0, -1.0, 0.0]),
                    st.floats(-1e3, 1e3, allow_nan=False, allow_infinity=False))


@st.composite
def qkv_cases(draw):
    n_q = draw(st.integers(0, 9))
    n_k = draw(st.sampled_from([n_q, n_q, draw(st.integers(1, 9))]))
    d_k, d_v = draw(st.integers(1, 5)), draw(st.integers(1, 5))
    rows = lambda n, d: draw(st.lists(st.lists(NUMBERS, min_size=d, max_size=d), min_size=n, max_size=n))  # noqa: E731
    queries = rows(n_q, d_k)
    if n_q and draw(st.booleans()):  # a repeated word: a query seen before
        queries[-1] = list(queries[0])
    options = dict(mask=draw(st.booleans()), include_self=draw(st.booleans()), scaled=draw(st.booleans()),
                   temperature=draw(st.sampled_from([1.0, 0.05, 0.125, 2.0, 20.0])),
                   slope=draw(st.sampled_from([0.0, 0.0, 0.25, 1.5, 10.0])))
    if draw(st.booleans()):  # a pattern's cells (the cost lab): the keys each row may look at at all
        options["allowed"] = draw(st.lists(st.lists(st.booleans(), min_size=n_k, max_size=n_k),
                                           min_size=n_q, max_size=n_q))
    return queries, rows(n_k, d_k), rows(n_k, d_v), options


def same(a, b):
    """Equal to the last bit (None where None; 0.0 and -0.0 count as equal, as they show)."""
    return a == b and type(a) is type(b) if not isinstance(a, list) else (
        isinstance(b, list) and len(a) == len(b) and all(same(x, y) for x, y in zip(a, b)))


@settings(max_examples=400, deadline=None)
@given(qkv_cases())
def test_the_pages_fast_path_gives_the_plain_formulas_numbers_bit_for_bit(case):
    """app/attention_fast.py (what the page runs) and app/attention.py (what a student reads) give
    the same record, every field to the last bit, on random Q, K, V, masks, scales, slopes and
    patterns."""
    queries, keys, values, options = case
    plain = attention.attend_qkv(queries, keys, values, **options)
    fast = attention_fast.attend_qkv(queries, keys, values, **options)
    for name in FIELDS:
        assert same(getattr(plain, name), getattr(fast, name)), name


@pytest.mark.parametrize("mask", [False, True])
def test_a_long_texts_rows_computed_when_read_equal_the_plain_formulas_in_any_order(mask):
    """Past LAZY_CELLS the page computes each row when first read: read in a random order, every row
    of every field is the plain formula's to the last bit (a grid scrolled anywhere shows the same numbers)."""
    rng = np.random.default_rng(11)
    n = 70  # 70 × 70 > LAZY_CELLS
    assert n * n > attention_fast.LAZY_CELLS
    cards = [list(map(float, rng.choice([0, 0.5, 1, 2, 3], 4))) for _ in range(n)]
    options = dict(mask=mask, slope=0.25)
    plain = attention.attend_qkv(cards, cards, cards, **options)
    fast = attention_fast.attend_qkv(cards, cards, cards, **options)
    assert isinstance(fast.weights, attention_fast.Lazy)
    for i in rng.permutation(n):
        for name in attention.ROW_FIELDS:
            assert same(getattr(plain, name)[i], getattr(fast, name)[int(i)]), (name, i)
    assert fast.weights[-1] == plain.weights[-1] and fast.weights[3:5] == plain.weights[3:5]
    assert list(fast.outputs) == plain.outputs and fast.outputs == plain.outputs and len(fast.dots) == n


def test_the_fast_path_equals_the_plain_one_on_the_lessons_sentence():
    """On the lesson's sentence with the mask, `attend` through the fast path (as app/contract.py
    calls it for the page) and the plain one give the same record, field by field."""
    fast = attend(DEFAULT_CARDS, mask=True, qkv=attention_fast.attend_qkv)
    plain = attend(DEFAULT_CARDS, mask=True)
    assert all(same(getattr(plain, name), getattr(fast, name)) for name in FIELDS + ("w_q", "w_k", "w_v"))
