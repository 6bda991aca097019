"""Shared keys (`kv_heads`: multi-head, grouped-query, multi-query) and the latent (docs/DESIGN.md,
"Shared keys"), against the tests' own numpy: PyTorch's `enable_gqa` convention written as
`repeat_interleave` of the key/value heads over their groups."""

import re

import numpy as np
import pytest
from hypothesis import given, settings as hsettings, strategies as st

from app import contract, settings as schema
from app.lexicon import load_lexicon
from app.render import render_analysis
from tests.contract_check import state_for_link
from tests.reference import W_Q as W_Q_FIRST

LEXICONS = {lang: load_lexicon(lang) for lang in ("it", "en")}
H, D = 4, 4
# The designed heads' W_Q as docs/parameters.md and app/heads.py describe them row by row (alive,
# action, thing, pointer), written out again here; every W_K and W_V is the identity.
W_Q = np.array([
    W_Q_FIRST,
    [[0, 0, 0, 3], [0, 0, 0, 0], [0, 0, 0, 3], [3, 0, 3, 0]],  # pointers
    [[0, 0, 2, 0], [0, 0, 3, 0], [0, 3, 0, 0], [0, 0, 0, 0]],  # what and where
    3 * np.eye(4),  # like with like
], dtype=float)
SENTENCES = {"it": ("Il gatto seduto sul tappeto dormiva", "La ragazza legge un libro nel parco"),
             "en": ("The cat sat on the mat and slept", "The girl reads a book in the park")}


def matrix_text(m):
    return ";".join(",".join(repr(float(x)) for x in row) for row in m)


def numpy_heads(cards, w_k_own, w_v_own, g, mask=False, include_self=False):
    """Every head's weights (H × n × n): the key/value heads are the first of each group, repeated
    H/g times along the heads (`repeat_interleave`), each query head with its own W_Q."""
    x = np.asarray(cards, dtype=float)
    n = len(x)
    kv_k = np.stack([x @ w_k_own[h] for h in range(0, H, H // g)])  # g × n × d
    kv_v = np.stack([x @ w_v_own[h] for h in range(0, H, H // g)])
    k = np.repeat(kv_k, H // g, axis=0)  # torch.repeat_interleave(k, H // g, dim=0)
    v = np.repeat(kv_v, H // g, axis=0)
    q = np.einsum("nd,hde->hne", x, W_Q)
    scores = q @ k.transpose(0, 2, 1) / np.sqrt(D)
    allowed = np.ones((n, n), dtype=bool)
    if not include_self:
        allowed &= ~np.eye(n, dtype=bool)
    if mask:
        allowed &= np.tril(np.ones((n, n), dtype=bool))
    scores = np.where(allowed, scores, -np.inf)
    top = np.where(allowed.any(axis=1)[:, None], scores.max(axis=-1, keepdims=True), 0.0)
    w = np.where(allowed, np.exp(scores - top), 0.0)
    total = w.sum(axis=-1, keepdims=True)
    return np.divide(w, total, out=np.zeros_like(w), where=total > 0), k, v  # a row with no candidate: 0


@hsettings(max_examples=40, deadline=None)
@given(g=st.sampled_from([4, 2, 1]), active=st.integers(0, 3), lang=st.sampled_from(["it", "en"]),
       which=st.integers(0, 1), mask=st.booleans(), include_self=st.booleans(),
       w_k=st.lists(st.lists(st.integers(-3, 3), min_size=4, max_size=4), min_size=4, max_size=4),
       w_v=st.lists(st.lists(st.integers(-3, 3), min_size=4, max_size=4), min_size=4, max_size=4))
def test_every_heads_weights_and_outputs_are_numpys_repeat_interleave(g, active, lang, which, mask, include_self,
                                                                       w_k, w_v):
    """With g key/value heads and the active head's W_K, W_V edited, every head's weights and output
    equal numpy's grouped attention (the group's first head's keys, repeated), to 1e-12."""
    sentence = SENTENCES[lang][which]
    settings, notes = schema.parse_params(
        {"s": [sentence], "lang": [lang], "kv_heads": [str(g)], "head": [str(active)], "wk": [matrix_text(w_k)],
         "wv": [matrix_text(w_v)], "mask": ["1" if mask else "0"], "self": ["1" if include_self else "0"]}, LEXICONS)
    assert notes == []
    tokens = schema.check_sentence(sentence, LEXICONS[lang], settings.limit)[0]
    record = contract.compute(settings, tokens)
    own_k = np.stack([np.eye(4)] * H)
    own_v = np.stack([np.eye(4)] * H)
    own_k[active], own_v[active] = w_k, w_v
    weights, _, v = numpy_heads([t.card for t in tokens], own_k, own_v, g, mask, include_self)
    for h, head in enumerate(record.head_records):
        np.testing.assert_allclose(head.weights, weights[h], rtol=0, atol=1e-12)
        rows = [i for i in range(len(tokens)) if head.outputs[i] is not None]
        np.testing.assert_allclose([head.outputs[i] for i in rows], (weights[h] @ v[h])[rows], rtol=0, atol=1e-12)


@pytest.mark.parametrize("g", [4, 2, 1])
def test_the_state_says_the_groups_matrices_and_the_cache_a_token(g):
    """State: kv_heads = g, heads[h].w_k/w_v the group's first head's as edited, cache_per_token = 2·g·4."""
    edited = [[0, 1, 0, 0], [1, 0, 0, 0], [0, 0, 1, 0], [0, 0, 0, 2]]
    state = state_for_link({"kv_heads": [str(g)], "head": ["0"], "wk": [matrix_text(edited)]}, LEXICONS)
    assert state["kv_heads"] == g and state["cache_per_token"] == 2 * g * 4
    for h, head in enumerate(state["heads"]):
        first = h // (H // g) * (H // g)
        # (at 4, nothing shared, heads[] holds the designed matrices as it always has)
        assert head["w_k"] == (edited if first == 0 and g < 4 else np.eye(4).tolist())
        assert head["w_v"] == np.eye(4).tolist()
        assert head["w_q"] == W_Q[h].tolist()


def test_by_default_nothing_is_shared_and_every_number_is_todays():
    """kv_heads absent: 4, a cache of 32 numbers a token, and the same weights as multi-head written out."""
    plain = state_for_link({}, LEXICONS)
    four = state_for_link({"kv_heads": ["4"]}, LEXICONS)
    assert plain == four and plain["kv_heads"] == 4 and plain["cache_per_token"] == 32


def test_a_link_that_does_not_divide_the_heads_falls_back_with_a_note():
    """kv_heads=3 cannot group four heads: the page keeps 4 and its note names 4, 2, 1."""
    settings, notes = schema.parse_params({"kv_heads": ["3"]}, LEXICONS)
    assert settings.kv_heads == 4 and len(notes) == 1
    assert "4, 2, 1" in str(notes[0].params)


def test_matrix_mode_has_no_shared_keys_and_model_mode_the_trained_models():
    """One head in matrix mode: both fields null; model mode: the trained model's 4 key/value heads, 2·4·8 numbers."""
    state = state_for_link({"mode": ["matrix"]}, LEXICONS)
    assert state["kv_heads"] is None and state["cache_per_token"] is None
    state = state_for_link({"mode": ["model"]}, LEXICONS)
    assert state["kv_heads"] == 4 and state["cache_per_token"] == 2 * 4 * 8


def step_html(step, lang="it", **params):
    query = {"path": ["generation"], "step": [str(step)], "lang": [lang], **{k: [str(v)] for k, v in params.items()}}
    settings, notes = schema.parse_params(query, LEXICONS)
    tokens = schema.check_sentence(settings.sentence, LEXICONS[lang], settings.limit)[0]
    record = contract.compute(settings, tokens)
    return settings, tokens, record, render_analysis(settings, tokens, record, contract.selected_row(settings, record))


def plain(html):
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", html))


def test_multi_query_shrinks_the_cache_and_moves_no_designed_bar():
    """Step 4 with g = 1: 8 numbers a token, every head takes the first's keys, no bar moves, and the view says why."""
    _, _, record, html = step_html(4, kv_heads=1)
    section = plain(re.search(r'<section id="view-shared-keys".*?</section>', html, re.S).group(0))
    assert "2 · 1 · 4 = 8 numeri" in section
    assert section.count("Chi fa cosa") >= 5  # the first head's name, as every head's source
    assert re.findall(r"(\d+) punti", section) == ["0"] * 4
    assert "W_K = W_V = identità" in section
    assert record.parts["shared"].own is not record.head_records


def test_grouped_keys_without_the_pointer_feature_blind_the_pointers_head():
    """g = 2 and the first head's keys without the pointer feature: for «cat» the pointers head (same group)
    turns uniform, the like-with-like head (other group) keeps its bars."""
    _, tokens, record, html = step_html(4, lang="en", kv_heads=2, head=0, wk="1,0,0,0;0,1,0,0;0,0,1,0;0,0,0,0",
                                        focus=1)
    assert tokens[1].text == "cat"
    uniform = [w for j, w in enumerate(record.head_records[1].weights[1]) if j != 1]
    np.testing.assert_allclose(uniform, [1 / 7] * 7, rtol=0, atol=1e-12)
    assert record.head_records[3].weights == record.parts["shared"].own[3].weights
    assert record.head_records[0].weights == record.parts["shared"].own[0].weights  # its own keys: no change for "cat"
    section = plain(re.search(r'<section id="view-shared-keys".*?</section>', html, re.S).group(0))
    assert "the heads of its group follow them" in section
    assert 'aria-pressed="true"' in html


def test_the_latent_rebuilds_keys_and_values_as_numpy_does():
    """Step 5: the active head's weights with keys and values from the 3-number latent equal numpy's
    x·W_DKV·W_DKVᵀ·W_K, and a thing's card is rebuilt as half alive, half thing (hand-worked)."""
    r = 0.5 ** 0.5
    down = np.array([[r, 0, 0], [0, 1, 0], [r, 0, 0], [0, 0, 1]])
    assert np.allclose(np.array([[0, 0, 1, 0]]) @ down @ down.T, [[0.5, 0, 0.5, 0]])
    for lang in ("it", "en"):
        settings, tokens, record, html = step_html(5, lang=lang)
        x = np.array([t.card for t in tokens], dtype=float)
        rebuilt = x @ down @ down.T
        q = x @ W_Q[settings.head]
        k = rebuilt  # W_K = I
        scores = q @ k.T / 2.0
        np.fill_diagonal(scores, -np.inf)
        w = np.exp(scores - scores.max(axis=1, keepdims=True))
        w /= w.sum(axis=1, keepdims=True)
        np.testing.assert_allclose(record.parts["shared"].latent.weights, w, rtol=0, atol=1e-12)
        np.testing.assert_allclose(record.parts["shared"].latent.outputs, w @ rebuilt, rtol=0, atol=1e-12)
        section = plain(re.search(r'<section id="view-latent".*?</section>', html, re.S).group(0))
        assert ("3 numeri" if lang == "it" else "3 numbers") in section
        # the sentence under the table names the word numpy's exact and rebuilt rows look at most
        exact_scores = q @ x.T / 2.0
        np.fill_diagonal(exact_scores, -np.inf)
        i = settings.focus
        a, b = tokens[int(np.argmax(exact_scores[i]))].text, tokens[int(np.argmax(w[i]))].text
        kept = "resta" if lang == "it" else "stays"
        assert (kept in section) == (a == b) and a in section and b in section


def test_off_its_steps_nothing_more_is_computed():
    """In the explorer and on the other steps `record.parts["shared"]` is None: the views draw nothing."""
    for query in ({}, {"path": ["generation"], "step": ["3"]}, {"path": ["cost"], "step": ["2"]}):
        settings, _ = schema.parse_params(query, LEXICONS)
        tokens = schema.check_sentence(settings.sentence, LEXICONS[settings.lang], settings.limit)[0] \
            if settings.mode == "sentence" else None
        record = contract.compute(settings, tokens)
        assert (getattr(record, "parts", None) or {}).get("shared") is None
    settings, _ = schema.parse_params({"path": ["generation"], "step": ["4"]}, LEXICONS)  # (and on its step it is there)
    tokens = schema.check_sentence(settings.sentence, LEXICONS[settings.lang], settings.limit)[0]
    assert contract.compute(settings, tokens).parts["shared"] is not None


def test_a_non_first_heads_edits_are_not_used_and_the_view_says_why():
    """g = 2, the pointers head active with its own W_K: it reads the first head's keys instead, its
    bars move for that reason, and the note says so (not that the first head's keys changed)."""
    edited = "0,0,0,1;0,1,0,0;0,0,1,0;1,0,0,0"
    _, tokens, record, html = step_html(4, lang="en", kv_heads=2, head=1, wk=edited, focus=1)
    state = state_for_link({"lang": ["en"], "kv_heads": ["2"], "head": ["1"], "wk": [edited]}, LEXICONS)
    assert state["heads"][1]["w_k"] == np.eye(4).tolist()  # (as used: the first head's designed keys)
    section = plain(re.search(r'<section id="view-shared-keys".*?</section>', html, re.S).group(0))
    assert "The edits to the W_K and W_V of “Pointers” do not count now" in section
    assert "the heads of its group follow them" not in section


def test_leaving_the_steps_takes_away_what_only_they_could_change():
    """kv_heads set on step 4 goes back to 4 in the explorer; a window on step 6 goes back to none on
    step 5 and in the model explorer; a link's own value after its step stays."""
    on_step, _ = schema.parse_params({"path": ["generation"], "step": ["4"], "kv_heads": ["1"]}, LEXICONS)
    assert on_step.kv_heads == 1
    change = schema.Change(None, LEXICONS)
    assert schema.BY_ATTR["step"].apply(on_step, None, change).kv_heads == 4
    assert schema.BY_ATTR["step"].apply(on_step, 5, change).kv_heads == 4  # (the latent shows no radios)
    window, _ = schema.parse_params({"path": ["generation"], "step": ["6"], "window": ["3"]}, LEXICONS)
    assert window.window == 3 and window.mode == "model"
    assert schema.BY_ATTR["step"].apply(window, None, change).window is None
    explorer, _ = schema.parse_params({"mode": ["model"], "window": ["3"], "kv_heads": ["1"]}, LEXICONS)
    assert (explorer.window, explorer.kv_heads) == (3, 1)  # (a teacher's link keeps both)


def test_the_keys_button_looks_pressed_and_g4_says_why_no_other_bar_moves():
    """Pressed (the first head's keys without the pointer feature), the button loses its secondary look
    and shows a tick; with g = 4 the note says no other head reads those keys (and not that every W_K is
    the identity); with another head active, the view says why the button is up."""
    no_pointer = "1,0,0,0;0,1,0,0;0,0,1,0;0,0,0,0"
    _, _, record, html = step_html(4, lang="en", kv_heads=4, head=0, wk=no_pointer, focus=1)
    button = re.search(r'<button type="button" id="kv-own"[^>]*>.*?</button>', html, re.S).group(0)
    assert 'aria-pressed="true"' in button and "secondary" not in button and "✓" in button
    for h in (1, 2, 3):  # (no other head reads the edited keys: numpy's own, head by head)
        assert record.head_records[h].weights == record.parts["shared"].own[h].weights
    section = plain(re.search(r'<section id="view-shared-keys".*?</section>', html, re.S).group(0))
    assert "With g = 4 each head uses its own keys" in section and "W_K = W_V = identity" not in section
    _, _, _, html = step_html(4, lang="en", kv_heads=4, head=2, focus=1)
    button = re.search(r'<button type="button" id="kv-own"[^>]*>.*?</button>', html, re.S).group(0)
    assert 'aria-pressed="false"' in button and 'class="secondary"' in button
    assert "changing the head brings back the designed W_Q, W_K and W_V" in plain(html)
