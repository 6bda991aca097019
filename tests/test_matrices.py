"""Matrix mode: reading typed and pasted matrices, their limits, the examples, cross-attention,
the compare field and the matrix settings of links and host messages."""

import numpy as np
import pytest

from app import attention, contract, i18n, matrices
from app import settings as schema
from app.views import matrix_mode
from tests.reference import attention_matrix

EYE = ((1.0, 0.0), (0.0, 1.0))


@pytest.mark.parametrize("typed, expected", [
    ("[[1,0],[0,1]]", EYE),
    ("[[1, 0], [0, 1]]", EYE),
    ("1 0\n0 1", EYE),
    ("1, 0\n0, 1", EYE),
    ("1,0;0,1", EYE),
    ("1 0; 0 1", EYE),
    ("  1   0 \n\n 0 1  \n", EYE),
    ("1;0\n0;1", EYE),
    ("0,5 1,25\n−2 3", ((0.5, 1.25), (-2.0, 3.0))),
    ("0.5 1.25\n-2 3", ((0.5, 1.25), (-2.0, 3.0))),
    ("[2,85; 0; 2,1; 0]", ((2.85, 0.0, 2.1, 0.0),)),
    ("[[0,36, 0,18, 0,46]]", ((0.36, 0.18, 0.46),)),
    ("1e2 -3E-1", ((100.0, -0.3),)),
])
def test_every_friendly_format_reads_the_same_matrix(typed, expected):
    """Brackets, lines with spaces or commas, semicolons and the Italian decimal comma all read as meant."""
    assert matrices.parse(typed) == expected


@pytest.mark.parametrize("typed, key", [
    ("", "matrix_empty"),
    ("   \n ", "matrix_empty"),
    ("1 0\nabc 1", "cell_not_number"),
    ("1 nan", "cell_not_finite"),
    ("inf 1", "cell_not_finite"),
    ("-Infinity 1", "cell_not_finite"),
    ("1e308 1", "cell_too_big"),
    ("1e999 1", "cell_not_finite"),
    ("1 0\n0 1 2", "matrix_ragged"),
    ("\n".join(["1 0"] * 17), "matrix_too_many_rows"),
    (" ".join(["1"] * 9), "matrix_too_many_cols"),
])
def test_every_bad_matrix_says_why(typed, key):
    """Letters, NaN, ±∞, huge numbers, ragged rows and the n ≤ 16, d ≤ 8 limits each get their message."""
    with pytest.raises(matrices.Unreadable) as problem:
        matrices.parse(typed)
    assert problem.value.key == key
    for lang in i18n.LANGS:  # the message exists in both languages and fills in
        assert i18n.text(lang, key, **{"row": 1, "count": 1, "first": 1, "limit": 1, "value": "x",
                                       **problem.value.params})


@pytest.mark.parametrize("typed, key", [
    ("abc", "cell_not_number"), ("1,2,3", "cell_many"), ("1 2", "cell_many"), ("NaN", "cell_not_finite"),
    ("inf", "cell_not_finite"), ("-inf", "cell_not_finite"), ("1e308", "cell_too_big"), ("", "cell_empty"),
    ("   ", "cell_empty"), ("1.5,2", "cell_many"), ("0x10", "cell_not_number"),
])
def test_every_bad_cell_says_why(typed, key):
    """A cell refuses letters, lists, NaN, ±∞, 1e308 and empty text, each with its own message."""
    with pytest.raises(matrices.Unreadable) as problem:
        matrices.parse_cell(typed)
    assert problem.value.key == key


@pytest.mark.parametrize("typed, value", [("1,5", 1.5), ("1.5", 1.5), ("−2", -2.0), ("-0", 0.0), (" 3 ", 3.0),
                                          ("1e3", 1000.0)])
def test_a_cell_reads_one_number_either_decimal_mark(typed, value):
    """A cell takes the Italian comma or a point, and the page's own minus sign."""
    assert matrices.parse_cell(typed) == value


def test_url_form_round_trips():
    """A matrix written into a link reads back exactly (shortest round-trip numbers)."""
    m = ((0.1, -2.0, 1e-7), (3.0, 0.5, 123456.75))
    assert matrices.to_url(m) == "0.1,-2,1e-07;3,0.5,123456.75"
    assert matrices.from_url(matrices.to_url(m)) == m


def test_the_random_example_is_reproducible_and_as_stated():
    """The same seed gives the same 8×4 Q, K, V of whole numbers from −2 to 2; another seed others."""
    one, again, other = matrices.random_example(3), matrices.random_example(3), matrices.random_example(4)
    assert one == again and one != other
    for m in one:
        assert np.asarray(m).shape == (8, 4)
        assert all(v in (-2.0, -1.0, 0.0, 1.0, 2.0) for row in m for v in row)


def test_seed_003_worked_example_done_right():
    """The lesson's Q, K, V typed in give rows [0,40; 0,20; 0,40], [0,20; 0,40; 0,40],
    [0,25; 0,25; 0,50] and out₁ ≈ [6,02; 3,98] (the printed 0,36/0,18/0,46 and [5,9; 4,1] are a slip)."""
    q, k, v = matrices.parse("1 0\n0 1\n1 1"), matrices.parse("1 0\n0 1\n1 1"), matrices.parse("10 0\n0 10\n5 5")
    s = schema.Settings("", 0).copy(mode="matrix", q=q, k=k, v=v, include_self=True)
    record = contract.compute(s, [])
    ref = attention_matrix(q, k, v, include_self=True)
    np.testing.assert_allclose(record.weights, ref["weights"], rtol=0, atol=1e-12)
    assert [[i18n.num(w, "it", 2) for w in row] for row in record.weights] == [
        ["0,40", "0,20", "0,40"], ["0,20", "0,40", "0,40"], ["0,25", "0,25", "0,50"]]
    assert [i18n.num(x, "it", 2) for x in record.outputs[0]] == ["6,02", "3,98"]


def test_compare_marks_exactly_the_printed_slip():
    """The lesson's printed weights, pasted in, are marked wrong in rows 1–2 and right in row 3."""
    s = schema.Settings("", 0).copy(mode="matrix", include_self=True)
    record = contract.compute(s, [])
    html = matrix_mode.compare(record, "0,36 0,18 0,46\n0,18 0,36 0,46\n0,25 0,25 0,50", "weights", "it")
    assert html.count('class="cmp-bad"') == 6 and html.count('class="cmp-ok"') == 3
    assert "6 celle su 9" in html
    right = matrix_mode.compare(record, "0,40 0,20 0,40\n0,20 0,40 0,40\n0,25 0,25 0,50", "weights", "en")
    assert right.count('class="cmp-bad"') == 0 and "All 9 cells match" in right
    out = matrix_mode.compare(record, "5,9 4,1\n3,98 6,02\n5 5", "output", "it")
    assert out.count('class="cmp-bad"') == 2


@pytest.mark.parametrize("typed, value, differs", [
    ("0,4", 0.4011, False), ("0,40", 0.4011, False), ("0,401", 0.4011, False), ("0,36", 0.4011, True),
    ("6", 6.0167, False), ("6,0", 6.0167, False), ("6,00", 6.0167, True), ("5,9", 6.0167, True),
])
def test_half_a_unit_of_the_last_digit_typed(typed, value, differs):
    """A typed number matches when within half a unit of its own last digit."""
    assert matrix_mode.matrices.differs(typed.replace(",", "."), value) is differs


def test_cross_attention_shapes_and_no_mask():
    """2 queries asking 3 keys: weights 2×3, output 2×d_v, every key a candidate, no mask even if asked."""
    q, k, v = ((2.0, 0.0), (0.0, 2.0)), ((1.0, 0.0), (0.0, 1.0), (1.0, 1.0)), ((1, 0, 0), (0, 1, 0), (0, 0, 1))
    s = schema.Settings("", 0, mask=True).copy(mode="matrix", q=q, k=k, v=v)
    record = contract.compute(s, [])
    assert (record.n_q, record.n_k) == (2, 3) and record.mask is False
    assert np.asarray(record.weights).shape == (2, 3) and np.asarray(record.outputs).shape == (2, 3)
    assert all(all(row) for row in record.candidates)
    ref = attention_matrix(q, k, v)
    np.testing.assert_allclose(record.outputs, ref["output"], rtol=0, atol=1e-12)
    html = matrix_mode.render_steps(record, "it")
    assert "Q (2×2) · Kᵀ (2×3) = QKᵀ (2×3)" in html and "n_q = 2 e n_k = 3" in html
    assert "pesi (2×3) · V (3×3) = uscita (2×3)" in html


def test_the_mask_is_shown_as_zeros_and_minus_infinity():
    """With the mask on, the step shows 0 on and below the diagonal and −∞ above it."""
    s = schema.Settings("", 0, mask=True).copy(mode="matrix", include_self=True)
    html = matrix_mode.render_steps(contract.compute(s, []), "en")
    assert "The causal mask (3×3)" in html and html.count(">−∞<") == 3 and html.count(">0<") == 6


def test_shapes_that_cannot_multiply_are_refused():
    """Q with 2 columns and K with 3, or K and V of different lengths, each get a message."""
    assert matrices.shape_problem(((1, 0),), ((1, 0, 0),), ((1,),)).key == "shape_qk"
    assert matrices.shape_problem(((1, 0),), ((1, 0), (0, 1)), ((1,),)).key == "shape_kv"


def test_matrix_mode_link_round_trips_and_state_matches_the_contract(lexicons):
    """mode=matrix with q, k, v (or a seed) comes back from its own link; the state has k1… tokens."""
    s, notes = schema.parse_params("?mode=matrix&q=1,0;0,1;1,1&v=10,0;0,10;5,5&focus=2", lexicons)
    assert notes == [] and s.mode == "matrix" and s.include_self and s.focus == 2
    again, notes = schema.parse_params("?" + schema.to_params(s), lexicons)
    assert notes == [] and again == s
    record = contract.compute(s, [])
    state = contract.build_state(s, contract.shown_tokens(s, [], record), record)
    assert state["sentence"] == "" and state["features"] is None and state["heads"] is None
    assert [t["text"] for t in state["tokens"]] == ["k1", "k2", "k3"] and state["focus"] == 2
    seeded, _ = schema.parse_params("?mode=matrix&seed=42", lexicons)
    assert contract.compute(seeded, []).queries == [list(r) for r in matrices.random_example(42)[0]]


@pytest.mark.parametrize("query", ["?wq=1,0;0,1", "?wq=a,b,c,d", "?cards=1,0,0,0", "?q=" + ";".join(["1"] * 17),
                                   "?wq=1e308,0,0,0;0,1,0,0;0,0,1,0;0,0,0,1", "?q=nan,1"])
def test_bad_matrices_in_a_link_fall_back_with_a_note(lexicons, query):
    """A wrong shape, letters, a huge or NaN number, or cards for the wrong number of words: default kept, one note."""
    s, notes = schema.parse_params(query, lexicons)
    assert len(notes) == 1
    assert (s.w_q, s.cards, s.q) == (None, None, None)


def test_host_message_sets_matrices_and_refuses_bad_ones(lexicons):
    """attention:set takes arrays of arrays for wq and cards; a ragged or NaN matrix is ignored with a warning."""
    base = schema.default_settings("it")
    tokens, _ = schema.check_sentence(base.sentence, lexicons["it"])
    eye = [[1.0 if i == j else 0.0 for j in range(4)] for i in range(4)]
    new, _, warnings, _ = schema.host_update(base, tokens, {"type": "attention:set", "head": 1, "wq": eye},
                                             lexicons)
    assert warnings == [] and new.head == 1 and new.w_q == tuple(map(tuple, eye))
    for bad in ([[1, 0], [0]], [[float("nan")] * 4] * 4, [[True] * 4] * 4, "1,0;0,1"):
        same, _, warnings, _ = schema.host_update(base, tokens, {"wq": bad}, lexicons)
        assert same.w_q is None and len(warnings) == 1
    _, _, warnings, _ = schema.host_update(base, tokens, {"cards": [[0, 0, 0, 1]]}, lexicons)
    assert len(warnings) == 1


def test_a_new_head_drops_the_old_heads_edits(lexicons):
    """Switching head (or sentence) goes back to the designed matrices (or the lexicon's cards)."""
    s = schema.default_settings("it").copy(w_q=((0.0,) * 4,) * 4, cards=((0.0,) * 4,) * 6)
    assert s.copy(head=2).w_q is None and s.copy(head=2).cards is not None
    assert s.copy(sentence="Il cane dorme").cards is None
    assert attention.D_MODEL == 4


def test_new_states_validate_against_the_contract(lexicons):
    """Matrix mode (square and cross), an edited head with the bias on: every state fits the JSON Schema."""
    from tests.contract_check import assert_valid_state as validate
    cases = [schema.parse_params(q, lexicons)[0] for q in (
        "?mode=matrix", "?mode=matrix&q=2,0;0,2&k=1,0;0,1;1,1&mask=1", "?mode=matrix&seed=7&focus=7",
        "?head=3&pos=1.5&wq=0,0,0,0;0,0,0,0;0,0,0,0;0,0,0,1&cards=1,0,0,0;0,1,0,0;0,0,1,0;0,0,0,1;1,1,1,1;0,0,0,0")]
    for s in cases:
        tokens, _ = schema.check_sentence(s.sentence, lexicons[s.lang])
        record = contract.compute(s, tokens)
        validate(contract.build_state(s, contract.shown_tokens(s, tokens, record), record))
