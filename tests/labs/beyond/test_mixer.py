"""The beyond lab's mixers (app/labs/beyond/mixer.py; docs/DESIGN.md, "Beyond attention: `mixer`"):
each mixer's scores and outputs against the contract's formulas written again here in numpy, in the
matrix form and in the recurrent one, on two sentences, with the default parameters and others; the
recurrence equal to the matrix form for random q, k, v, γ and Δ; the state JSON's `mixer`."""

import math
from urllib.parse import parse_qsl

import numpy as np
import pytest
from hypothesis import given, settings as hsettings, strategies as st

from app import attention, contract
from app.lexicon import Lexicons
from app.labs.beyond import mixer
from tests.contract_check import assert_valid_state, state_for_link
from tests.labs.beyond.reference import phi, reference

SENTENCES = ("s=Il+gatto+seduto+sul+tappeto+dormiva", "lang=en&s=The+dog+chased+the+ball+in+the+park")
PARAMS = ("", "&decay=0.5&b_delta=0.5&a=2&w_delta=1,-1,0.5,-2", "&decay=1")


@pytest.fixture(scope="module")
def lexicons():
    return Lexicons()


def state(link, lexicons):
    return state_for_link({k: [v] for k, v in parse_qsl(link)}, lexicons)


@pytest.mark.parametrize("sentence", SENTENCES)
@pytest.mark.parametrize("params", PARAMS)
@pytest.mark.parametrize("kind", ("linear", "retention", "selective"))
def test_state_matches_numpy(kind, sentence, params, lexicons):
    """Under each mixer the state's mask, scores, states, y rows and Δ are the contract's formulas in numpy,
    on the active head's q, k, v, and the recurrent form gives the matrix form's rows."""
    link = f"{sentence}&mixer={kind}{params}"
    got = state(link, lexicons)
    assert_valid_state(got)
    p = dict(parse_qsl(link))
    Q, K, V = (np.array(got["matrix"][m]) for m in ("queries", "keys", "values"))
    X = np.array([t["card"] for t in got["tokens"]])
    w = tuple(float(x) for x in p["w_delta"].split(",")) if "w_delta" in p else (2.0, 0.5, 2.0, -3.0)
    L, s, y, S, rec, delta, a = reference(kind, Q, K, V, X, got["scale"], float(p.get("decay", 0.8)), w,
                                          float(p.get("b_delta", -1.0)), float(p.get("a", 1.0)))
    m = got["mixer"]
    assert m["kind"] == kind and got["mask"] is True and got["include_self"] is True
    np.testing.assert_allclose(m["mask"], L, rtol=1e-12, atol=1e-14)
    np.testing.assert_allclose(m["scores"], s, rtol=1e-12, atol=1e-14)
    np.testing.assert_allclose(got["matrix"]["weights"], s, rtol=1e-12, atol=1e-14)
    np.testing.assert_allclose(got["matrix"]["output"], y, rtol=1e-12, atol=1e-12)
    np.testing.assert_allclose(m["states"], S, rtol=1e-12, atol=1e-12)
    np.testing.assert_allclose(rec, y, rtol=1e-10, atol=1e-12)  # (the reference's two forms agree)
    d_k, d_v = Q.shape[1], V.shape[1]
    assert m["state_numbers"] == d_k * d_v + (d_k if kind == "linear" else 0)
    assert m["cache_numbers"] == (d_k + d_v) * len(Q)
    if kind == "selective":
        np.testing.assert_allclose(m["delta"], delta, rtol=1e-12)
        np.testing.assert_allclose(m["a"], a, rtol=1e-12)
    else:
        assert m["delta"] is None and m["a"] is None
    assert m["decay"] == (float(p.get("decay", 0.8)) if kind == "retention" else None)
    focus = 3
    rows = state(link + f"&focus={focus}", lexicons)["rows"]
    np.testing.assert_allclose([r["weight"] for r in rows], s[focus], rtol=1e-12, atol=1e-14)
    assert all("%" not in r["percent"] for r in rows if r["candidate"])  # (the table shows signed scores)


@pytest.mark.parametrize("sentence", SENTENCES)
def test_softmax_is_todays(sentence, lexicons):
    """`mixer=softmax` is the default: its state is the page's without the setting, bit for bit, with
    `mixer` null."""
    plain, named = state(sentence + "&focus=2", lexicons), state(sentence + "&focus=2&mixer=softmax", lexicons)
    assert plain == named and plain["mixer"] is None


def test_mixer_null_in_matrix_and_model_mode(lexicons):
    """No mixer runs in matrix mode (its Q, K, V are typed): `mixer` is null there."""
    assert state("mode=matrix&mixer=retention", lexicons)["mixer"] is None


finite = st.floats(-3, 3, allow_nan=False)


@hsettings(max_examples=60, deadline=None)
@given(st.integers(1, 7).flatmap(lambda n: st.tuples(
    st.lists(st.lists(finite, min_size=3, max_size=3), min_size=n, max_size=n),
    st.lists(st.lists(finite, min_size=3, max_size=3), min_size=n, max_size=n),
    st.lists(st.lists(finite, min_size=2, max_size=2), min_size=n, max_size=n),
    st.lists(st.lists(finite, min_size=4, max_size=4), min_size=n, max_size=n))),
    st.floats(0.05, 1.0), st.floats(0.1, 3.0), st.sampled_from(("linear", "retention", "selective")))
def test_recurrence_equals_matrix_form(qkvx, gamma, A, kind):
    """For random q, k, v, γ and Δ the state word by word gives the matrix form's rows to 1e-12."""
    Q, K, V, X = qkvx
    got = mixer.mix(kind, Q, K, V, 1.7, cards=X, decay=gamma, a=A)
    for y, r in zip(got.outputs, got.recurrent):
        assert all(math.isclose(p, q, rel_tol=1e-12, abs_tol=1e-12) for p, q in zip(y, r))
    L, s, y, S, rec, *_ = reference(kind, np.array(Q), np.array(K), np.array(V), np.array(X), 1.7, gamma, A=A)
    np.testing.assert_allclose(got.scores, s, rtol=1e-12, atol=1e-12)
    np.testing.assert_allclose(got.states, S, rtol=1e-12, atol=1e-12)


@hsettings(max_examples=40, deadline=None)
@given(st.integers(1, 6).flatmap(lambda n: st.tuples(
    st.lists(st.lists(finite, min_size=3, max_size=3), min_size=n, max_size=n),
    st.lists(st.lists(finite, min_size=3, max_size=3), min_size=n, max_size=n),
    st.lists(st.lists(finite, min_size=3, max_size=3), min_size=n, max_size=n))))
def test_retention_at_one_is_unnormalised_linear_without_phi(qkv):
    """γ = 1 retention is causal linear attention with no φ and no normaliser: y_i = Σ_{j≤i} (q_i·k_j / scale) v_j."""
    Q, K, V = (np.array(m) for m in qkv)
    got = mixer.mix("retention", qkv[0], qkv[1], qkv[2], 2.0, decay=1.0)
    expected = np.tril(Q @ K.T / 2.0) @ V
    np.testing.assert_allclose(got.outputs, expected, rtol=1e-12, atol=1e-12)


def test_designed_delta_reads_nouns_and_little_words(lexicons):
    """The designed w_Δ, b_Δ: a noun writes strongly and makes the state forget (Δ > 1, a < 0.3), a little
    word barely writes (Δ < 0.05, a > 0.95), as the page says in words."""
    got = state("s=Il+gatto+dorme&mixer=selective", lexicons)["mixer"]
    il, gatto = 0, 1
    assert got["delta"][gatto] > 1 and got["a"][gatto] < 0.3
    assert got["delta"][il] < 0.05 and got["a"][il] > 0.95


def test_half_life():
    """The half-life ln ½ / ln γ: γ = 0.5 halves in one word; γ^h = ½ for the default 0.8; none at γ = 1."""
    assert mixer.half_life(0.5) == pytest.approx(1.0)
    assert 0.8 ** mixer.half_life(0.8) == pytest.approx(0.5)
    assert mixer.half_life(1.0) is None


def test_bad_values_fall_back_with_a_note(lexicons):
    """A decay outside (0, 1], an A ≤ 0 or a w_Δ of the wrong width is refused with a note on the page."""
    from app import settings as schema
    for bad in ("decay=1.5", "a=0", "w_delta=1,2"):
        settings, notes = schema.parse_params({k: [v] for k, v in parse_qsl("mixer=retention&" + bad)}, lexicons)
        assert notes, bad
        assert settings.decay == 0.8 and settings.a_decay == 1.0 and settings.w_delta is None


def test_a_mixer_keeps_the_mask_and_the_word_itself_on_whatever_else_asks(lexicons):
    """With a mixer on, a host message switching the mask off, or Next into a step that does not own
    the mask, leaves the mask and include-self on, so the state says what the causal record computed
    (its cells: n·(n + 1)/2)."""
    from app import settings as schema
    settings, _ = schema.parse_params({"path": ["beyond"], "step": ["1"], "mixer": ["linear"]}, lexicons)
    tokens, _ = schema.check_sentence(settings.sentence, lexicons["it"])
    after, _, _, _ = schema.host_update(settings, tokens, {"mask": False, "self": False}, lexicons)
    assert (after.mask, after.include_self) == (True, True)
    after, _, _, _ = schema.host_update(settings, tokens, {"step": 2}, lexicons)
    assert (after.step, after.mixer, after.mask, after.include_self) == (2, "linear", True, True)
    record = state_for_link({"path": ["beyond"], "step": ["2"], "mixer": ["linear"], "mask": ["0"]}, lexicons)
    n = len(record["tokens"])
    assert record["mask"] is True and record["cost"]["cells"] == n * (n + 1) // 2


@pytest.mark.parametrize("kind", ("linear", "retention", "selective"))
def test_a_long_texts_rows_read_one_by_one_are_the_whole_matrix_forms(kind):
    """Past 4,096 cells the matrix form's rows are computed when read (as the softmax's): each row of
    the mask, the scores and the outputs, read in any order, is the eager computation's, bit for bit."""
    rng = np.random.default_rng(7)
    n = 70
    q, k, v = (rng.normal(size=(n, 4)).tolist() for _ in range(3))
    cards = rng.uniform(0, 1, size=(n, 4)).tolist()
    eager = mixer.mix(kind, q, k, v, 2.0, cards=cards, lazy=False)
    lazy = mixer.mix(kind, q, k, v, 2.0, cards=cards)
    assert not isinstance(lazy.scores, list)
    for i in (69, 3, 40, 0):
        assert lazy.scores[i] == eager.scores[i] and lazy.mask[i] == eager.mask[i]
        assert lazy.outputs[i] == eager.outputs[i]
    assert lazy.recurrent == eager.recurrent and lazy.states == eager.states
