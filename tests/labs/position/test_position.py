"""Word order (docs/DESIGN.md, "Position"): sinusoidal, RoPE and ALiBi, checked against a numpy
reference written here from the papers' formulas, never against the page's own numbers."""

import math
import re

import numpy as np
import pytest
from hypothesis import given, settings as hsettings, strategies as st
from app import attention, attention_fast, contract, heads, render, settings as schema
from app import attention, attention_fast, contract, heads, settings as schema
from tests.contract_check import assert_valid_state

SENTENCES = ("Il gatto insegue il topo", "The cat sat on the mat and slept")
KINDS = ("none", "sinusoidal", "rope", "alibi")


def paper_get_slopes(n):
    """ALiBi's slopes as the paper's code computes them (Press et al., attention_with_linear_biases)."""
    def get_slopes_power_of_2(n):
        start = 2 ** (-2 ** -(math.log2(n) - 3))
        ratio = start
        return [start * ratio ** i for i in range(n)]
    if math.log2(n).is_integer():
        return get_slopes_power_of_2(n)
    closest_power_of_2 = 2 ** math.floor(math.log2(n))
    return get_slopes_power_of_2(closest_power_of_2) + paper_get_slopes(2 * closest_power_of_2)[0::2][:n - closest_power_of_2]


def ref_pe(n, d, offset, base):
    """The Transformer paper's PE: sin at even dimensions, cos at odd, frequency base^(2t/d)."""
    p = (offset + np.arange(n))[:, None]
    t = np.arange(d) // 2
    angle = p / base ** (2 * t / d)
    return np.where(np.arange(d) % 2 == 0, np.sin(angle), np.cos(angle))


def ref_rope(x, offset, base, pairs="interleaved"):
    """RoPE as complex multiplication: pair t is a complex number turned by e^(i·p·θ_t)."""
    x = np.array(x, dtype=float)
    n, d = x.shape
    h = d // 2
    a, b = (np.arange(0, 2 * h, 2), np.arange(1, 2 * h, 2)) if pairs == "interleaved" else (np.arange(h), np.arange(h) + h)
    theta = base ** (-2 * np.arange(h) / d)
    z = (x[:, a] + 1j * x[:, b]) * np.exp(1j * (offset + np.arange(n))[:, None] * theta)
    x[:, a], x[:, b] = z.real, z.imag
    return x


def ref_attention(q, k, v, mask, include_self, slope=0.0):
    """softmax over the candidates of QKᵀ/√d_k − m·|i − j|: logits (nan where not a candidate), weights."""
    n_q, n_k = len(q), len(k)
    logits = q @ k.T / math.sqrt(q.shape[1]) - slope * np.abs(np.arange(n_q)[:, None] - np.arange(n_k))
    allowed = np.ones((n_q, n_k), bool)
    if n_q == n_k:
        if mask:
            allowed &= np.tri(n_q, dtype=bool)
        if not include_self:
            np.fill_diagonal(allowed, False)
    e = np.where(allowed, np.exp(logits - np.where(allowed, logits, -np.inf).max(1, keepdims=True, initial=-np.inf)), 0)
    weights = e / np.maximum(e.sum(1, keepdims=True), 1e-300)
    return np.where(allowed, logits, np.nan), weights, weights @ v


def reference(x, w_q, w_k, w_v, kind, offset, base, mask, include_self, slope):
    """Every query, key and weight of one head under a position kind, from the formulas."""
    x = np.asarray(x, float)
    if kind == "sinusoidal":
        x = x + ref_pe(len(x), x.shape[1], offset, base)
    q, k, v = x @ np.asarray(w_q), x @ np.asarray(w_k), x @ np.asarray(w_v)
    if kind == "rope":
        q, k = ref_rope(q, offset, base), ref_rope(k, offset, base)
    return (q, k) + ref_attention(q, k, v, mask, include_self, slope)


def state_for(query, lexicons):
    s, notes = schema.parse_params(query, lexicons)
    assert notes == []
    tokens, _ = schema.check_sentence(s.sentence, lexicons[s.lang], s.limit) if s.mode != "matrix" else ([], None)
    return contract.build_state(s, tokens, contract.compute(s, tokens))


def assert_matches(m, q, k, logits, weights, output):
    np.testing.assert_allclose(m["queries"], q, rtol=0, atol=1e-12)
    np.testing.assert_allclose(m["keys"], k, rtol=0, atol=1e-12)
    np.testing.assert_allclose(m["weights"], weights, rtol=0, atol=1e-12)
    got = np.array([[np.nan if x is None else x for x in row] for row in m["logits"]])
    shown = ~np.isnan(logits)
    np.testing.assert_allclose(got[shown], logits[shown], rtol=0, atol=1e-12)
    for i, out in enumerate(m["output"]):
        if out is not None:
            np.testing.assert_allclose(out, output[i], rtol=0, atol=1e-12)


@pytest.mark.parametrize("kind", KINDS)
@pytest.mark.parametrize("offset", (0, 5))
@pytest.mark.parametrize("mask", (0, 1))
@pytest.mark.parametrize("include_self", (0, 1))
@pytest.mark.parametrize("sentence", SENTENCES)
def test_every_head_equals_numpy_under_each_position(kind, offset, mask, include_self, sentence, lexicons):
    """Sentence mode: each head's queries, keys, logits, weights and outputs equal the formulas'
    (PE before W, RoPE on q and k after, ALiBi's paper slopes per head), and the state validates."""
    lang = "it" if sentence.startswith("Il") else "en"
    query = f"s={sentence.replace(' ', '+')}&lang={lang}&focus=1&mask={mask}&self={include_self}" \
            f"&position={kind}&offset={offset}"
    s, _ = schema.parse_params(query, lexicons)
    tokens, _ = schema.check_sentence(s.sentence, lexicons[lang], s.limit)
    record = contract.compute(s, tokens)
    st_ = contract.build_state(s, tokens, record)
    assert_valid_state(st_)
    x = [t.card for t in tokens]
    slopes = paper_get_slopes(4) if kind == "alibi" else [0.0] * 4
    for h in range(4):
        ref = reference(x, *heads.designed(h), kind, offset, 10.0, mask, include_self, slopes[h])
        r = record.head_records[h]
        assert_matches({"queries": r.queries, "keys": r.keys, "weights": r.weights, "logits": r.logits,
                        "output": r.outputs}, *ref)
    ref = reference(x, *heads.designed(0), kind, offset, 10.0, mask, include_self, slopes[0])
    assert_matches(st_["matrix"], *ref)
    p = st_["position"]
    assert p["kind"] == kind and p["offset"] == offset and p["base"] == 10.0
    assert p["pairs"] == ("interleaved" if kind == "rope" else None)
    assert p["slope"] == (0.25 if kind == "alibi" else None)
    if kind == "sinusoidal":
        np.testing.assert_allclose(p["encoding"], ref_pe(len(x), 4, offset, 10.0), rtol=0, atol=1e-15)
    else:
        assert p["encoding"] is None
    if kind == "rope":
        np.testing.assert_allclose(p["angles"], (offset + np.arange(len(x)))[:, None] * [1.0, 10 ** -0.5],
                                   rtol=1e-15)
    else:
        assert p["angles"] is None


@pytest.mark.parametrize("kind", KINDS)
@pytest.mark.parametrize("offset", (0, 5))
@pytest.mark.parametrize("mask", (0, 1))
def test_matrix_mode_equals_numpy_under_each_position(kind, offset, mask, lexicons):
    """Matrix mode: Q, K, V typed in take the PE (each at its width) or RoPE's turn, as the formulas say."""
    q = [[1, 0, 2, -1], [0, 1, 1, 0], [2, 2, 0, 1]]
    k = [[1, 1, 0, 0], [0, -1, 2, 1], [1, 0, 0, 2]]
    v = [[10, 0], [0, 10], [5, 5]]
    cell = lambda m: ";".join(",".join(map(str, r)) for r in m)
    st_ = state_for(f"mode=matrix&q={cell(q)}&k={cell(k)}&v={cell(v)}&mask={mask}&self=1&focus=2"
                    f"&position={kind}&offset={offset}", lexicons)
    assert_valid_state(st_)
    q, k, v = (np.asarray(m, float) for m in (q, k, v))
    if kind == "sinusoidal":
        q, k, v = q + ref_pe(3, 4, offset, 10.0), k + ref_pe(3, 4, offset, 10.0), v + ref_pe(3, 2, offset, 10.0)
    if kind == "rope":
        q, k = ref_rope(q, offset, 10.0), ref_rope(k, offset, 10.0)
    assert_matches(st_["matrix"], q, k, *ref_attention(q, k, v, mask, True, 0.25 if kind == "alibi" else 0.0))
    assert st_["position"]["kind"] == kind


def test_position_none_keeps_todays_numbers_and_offset_base_change_nothing(lexicons):
    """position=none: the state is today's, whatever offset and base say (nothing added, turned or biased)."""
    today = state_for("focus=1&mask=1&self=1", lexicons)
    shifted = state_for("focus=1&mask=1&self=1&offset=7&base=10000", lexicons)
    assert today["matrix"] == shifted["matrix"] and today["rows"] == shifted["rows"]
    assert today["position"] == {"kind": "none", "offset": 0, "base": 10.0, "pairs": None, "slope": None,
                                 "encoding": None, "angles": None}


def test_pos_sets_the_active_heads_alibi_slope_by_hand(lexicons):
    """Under alibi, pos sets the active head's m (the others keep the paper's slopes)."""
    s, _ = schema.parse_params("position=alibi&pos=0.5&head=2&focus=1", lexicons)
    tokens, _ = schema.check_sentence(s.sentence, lexicons["it"])
    record = contract.compute(s, tokens)
    assert [r.slope for r in record.head_records] == [0.25, 1 / 16, 0.5, 1 / 256]
    assert contract.build_state(s, tokens, record)["position"]["slope"] == 0.5


@pytest.mark.parametrize("kind", KINDS)
def test_the_readable_and_the_fast_path_agree_bit_for_bit(kind, lexicons):
    """attention.attend with the readable attend_qkv and with the page's fast one: the same numbers."""
    tokens, _ = schema.check_sentence(SENTENCES[0], lexicons["it"])
    x = [t.card for t in tokens]
    m = attention.alibi_slopes(4)[1] if kind == "alibi" else 0.0
    records = [attention.attend(x, mask=True, include_self=True, w_q=heads.designed(1)[0], slope=m, qkv=qkv,
                                position=attention.Position(kind, 3)) for qkv in (None, attention_fast.attend_qkv)]
    for name in ("queries", "keys", "values", "dots", "logits", "exps", "weights", "outputs"):
        assert getattr(records[0], name) == getattr(records[1], name)


def test_the_command_line_takes_position_and_offset():
    """`python -m app --position rope --offset 3` publishes a RoPE state at offset 3."""
    import json
    import subprocess
    import sys
    done = subprocess.run([sys.executable, "-m", "app", "--position", "rope", "--offset", "3", "--json"],
                          capture_output=True, text=True, timeout=120, check=True)
    p = json.loads(done.stdout)["position"]
    assert p["kind"] == "rope" and p["offset"] == 3 and p["angles"][0] == [3.0, 3 * 10 ** -0.5]


def test_bad_position_values_fall_back_with_a_note(lexicons):
    """A bad kind or a negative offset in a link: the default, and a note for the page."""
    s, notes = schema.parse_params("position=spiral&offset=-2", lexicons)
    assert s.position == "none" and s.offset == 0 and len(notes) == 2


vectors = st.lists(st.floats(-5, 5, allow_nan=False), min_size=4, max_size=4)


@hsettings(max_examples=60, deadline=None)
@given(st.lists(vectors, min_size=2, max_size=6), st.lists(vectors, min_size=2, max_size=6),
       st.integers(1, 10_000), st.floats(2, 1e6))
def test_rope_logits_do_not_change_with_the_offset(q, k, shift, base):
    """RoPE: q_i·k_j after the turn depends only on i − j, so any offset leaves every logit as it was."""
    def logits(offset):
        p = attention.Position("rope", offset, base)
        rq, rk = p.rotate(q, k)
        return np.asarray(rq) @ np.asarray(rk).T
    np.testing.assert_allclose(logits(shift), logits(0), rtol=1e-9, atol=1e-8)


@hsettings(max_examples=40, deadline=None)
@given(st.lists(vectors, min_size=2, max_size=6), st.integers(1, 10_000), st.booleans())
def test_alibi_weights_do_not_change_with_the_offset(x, shift, mask):
    """ALiBi: the bias −m·|i − j| knows distances only; any offset leaves the weights as they were."""
    m = attention.alibi_slopes(4)[0]
    a, b = (attention.attend(x, mask=mask, include_self=True, slope=m, position=attention.Position("alibi", o))
            for o in (0, shift))
    assert a.weights == b.weights and a.logits == b.logits


@hsettings(max_examples=60, deadline=None)
@given(st.integers(1, 12), st.integers(1, 8), st.integers(0, 10_000), st.floats(2, 1e6))
def test_sinusoidal_rows_match_the_formula(n, d, offset, base):
    """PE(p, 2t) = sin(p / base^(2t/d)), PE(p, 2t + 1) = cos(p / base^(2t/d)) for each position and width."""
    np.testing.assert_allclose(attention.sinusoidal_encoding(n, d, offset, base), ref_pe(n, d, offset, base),
                               rtol=0, atol=1e-12)


@hsettings(max_examples=60, deadline=None)
@given(st.lists(vectors, min_size=2, max_size=6),
       st.lists(st.lists(st.floats(-3, 3, allow_nan=False), min_size=4, max_size=4), min_size=4, max_size=4),
       st.integers(0, 50), st.booleans())
def test_the_two_rope_conventions_agree_once_w_q_w_k_are_permuted(x, w, offset, mask):
    """Pairs (0,1),(2,3) with W and pairs (0,2),(1,3) with W's columns in order 0,2,1,3: other rotated
    vectors, the same weights (Meta's and Hugging Face's RoPE differ only by this permutation)."""
    perm = [0, 2, 1, 3]  # half's column t is interleaved's 2t, column t + 2 is interleaved's 2t + 1
    w_perm = [[row[c] for c in perm] for row in w]
    a = attention.attend(x, mask=mask, include_self=True, w_q=w, w_k=w,
                         position=attention.Position("rope", offset, 10.0, "interleaved"))
    b = attention.attend(x, mask=mask, include_self=True, w_q=w_perm, w_k=w_perm,
                         position=attention.Position("rope", offset, 10.0, "half"))
    np.testing.assert_allclose(np.asarray(b.queries), np.asarray(a.queries)[:, perm], rtol=1e-12, atol=1e-9)
    np.testing.assert_allclose(a.weights, b.weights, rtol=1e-9, atol=1e-12)


def test_rope_conventions_turn_other_dimensions():
    """The same q turned with each convention gives other vectors (why the permutation is needed)."""
    q = [[1.0, 2.0, 3.0, 4.0]]
    angles = [[1.0, 0.5]]
    assert attention.rotate(q, angles, "interleaved") != attention.rotate(q, angles, "half")
    np.testing.assert_allclose(attention.rotate(q, angles, "half"), ref_rope([[0, 0, 0, 0], q[0]], 0, 4.0, "half")[1:],
                               rtol=1e-12)


@pytest.mark.parametrize("count", range(1, 9))
def test_alibi_default_slopes_are_the_papers(count):
    """2^(−8h/H) and the paper's rule for head counts that are not powers of two, 1 to 8 heads."""
    assert attention.alibi_slopes(count) == paper_get_slopes(count)


def test_six_heads_have_the_papers_interleaved_slopes():
    """6 heads: the four of 4 heads, then every other one of 8 heads'."""
    assert attention.alibi_slopes(6) == [1 / 4, 1 / 16, 1 / 64, 1 / 256, 1 / 2, 1 / 8]


def table_cells(html, col):
    """The text of the steps table's cells of column `col`, in row order (the asking word's row,
    which spans the columns with a dash, left out)."""
    import re
    cells = [re.sub("<[^>]+>", "", c) for c in re.findall(rf'<td data-col="{col}"[^>]*>(.*?)</td>', html)]
    return [c for c in cells if c and not c.startswith("—")]


def english_vec(values):
    """A vector as the English page writes it (3 decimals, no trailing zeros, a true minus)."""
    def one(x):
        s = f"{round(x + 0.0, 3):.3f}".rstrip("0").rstrip(".")
        return "0" if s in ("-0", "") else s.replace("-", "−")
    return "[" + ", ".join(one(x) for x in values) + "]"


def table_for(query, lexicons):
    from app.views import steps
    s, _ = schema.parse_params(query + "&lang=en", lexicons)
    tokens, _ = schema.check_sentence(s.sentence, lexicons["en"], s.limit)
    record = contract.compute(s, tokens)
    return steps.render_table(record.row(s.focus), tokens, "en"), [t.card for t in tokens]


def test_steps_table_shows_the_pe_row_added_and_the_key_it_makes(lexicons):
    """Sinusoidal: each candidate's row shows PE(p_j) and k_j = card + PE (W_K = identity), by the formula,
    and the line above names the asking word's PE."""
    html, x = table_for("position=sinusoidal&offset=5&focus=1", lexicons)
    pe = ref_pe(len(x), 4, 5, 10.0)
    others = [j for j in range(len(x)) if j != 1]
    assert table_cells(html, "pe") == [english_vec(pe[j]) for j in others]
    assert table_cells(html, "key") == [english_vec(np.add(x[j], pe[j])) for j in others]
    assert f"PE = {english_vec(pe[1])}" in html


def test_steps_table_shows_the_turned_q_and_k_so_a_row_checks_by_hand(lexicons):
    """RoPE: the key column is k_j turned by p_j·θ, the line shows q before and after its turn, and the
    products written out add up (from the shown numbers) to the row's q·k."""
    html, x = table_for("position=rope&offset=3&focus=1", lexicons)
    w_q = np.asarray(heads.designed(0)[0])
    q = ref_rope(np.asarray(x, float) @ w_q, 3, 10.0)
    k = ref_rope(np.asarray(x, float), 3, 10.0)
    others = [j for j in range(len(x)) if j != 1]
    assert table_cells(html, "key") == [english_vec(k[j]) for j in others]
    assert f"becomes q = {english_vec(q[1])}" in html and "pairs (0,1),(2,3)" in html
    for written, dot in zip(table_cells(html, "products"), table_cells(html, "dot")):
        by_hand = sum(float(a.replace("−", "-")) * float(b.replace("−", "-"))
                      for a, b in (term.split("×") for term in written.split(" + ")))
        assert by_hand == pytest.approx(float(dot.replace("−", "-")), abs=0.02)


def test_steps_table_shows_alibis_bias_with_the_papers_slope(lexicons):
    """ALiBi: the bias column is −¼·|i − j| for the first head, and the line names m = 0.25."""
    html, x = table_for("position=alibi&focus=1", lexicons)
    others = [j for j in range(len(x)) if j != 1]
    assert table_cells(html, "bias") == [f"{-0.25 * abs(1 - j):.3f}".replace("-", "−") for j in others]
    assert "m = 0.25 for this head" in html


def test_steps_table_without_position_has_no_position_column(lexicons):
    """position=none: today's columns, no position line."""
    html, _ = table_for("focus=1", lexicons)
    assert 'data-col="pe"' not in html and 'data-col="key"' not in html and "position-line" not in html


def lab_html(query, lexicons):
    """The page's HTML for a link (English), with the record it shows."""
    from app import render
    s, notes = schema.parse_params(query + "&lang=en", lexicons)
    assert notes == []
    tokens, _ = schema.check_sentence(s.sentence, lexicons["en"], s.limit)
    record = contract.compute(s, tokens)
    shown = contract.shown_tokens(s, tokens, record)
    row = None if s.focus is None else record.row(s.focus)
    return render.render_app(s, shown, record, row), [t.card for t in tokens]


def section_of(html, view):
    start = html.index(f'<section id="view-{view}"')
    return html[start:html.index("</section>", start)]


def english_num(x):
    """A number as the English page writes it: 3 decimals, halves away from zero, a true minus."""
    from decimal import ROUND_HALF_UP, Decimal
    s = str(Decimal(repr(float(x))).quantize(Decimal("0.001"), rounding=ROUND_HALF_UP))
    return s.replace("-", "−") if float(s) != 0 else s.lstrip("-")


def test_sinusoidal_view_shows_each_pe_row_and_each_card_after(lexicons):
    """Step 2: the PE rows of positions offset + i by the formula, and each card + PE."""
    html, x = lab_html("path=position&step=2&offset=4&base=100", lexicons)
    view = section_of(html, "sinusoidal")
    pe = ref_pe(len(x), 4, 4, 100.0)
    assert table_cells(view, "pe") == [english_vec(r) for r in pe]
    assert table_cells(view, "sum") == [english_vec(np.add(c, r)) for c, r in zip(x, pe)]
    assert table_cells(view, "p") == [str(4 + i) for i in range(len(x))]
    assert "100^(2t/4)" in view and 'role="img"' in view


def test_rope_view_shows_each_pairs_angles_and_product_before_and_after(lexicons):
    """Step 4: for the selected word and its favourite key under RoPE, each pair's θ, angles p·θ, and
    its share of q·k before and after the turn; the totals are the unturned and the turned dots."""
    html, x = lab_html("path=position&step=4&position=rope&offset=2&focus=1", lexicons)
    view = section_of(html, "rope")
    x = np.asarray(x, float)
    q0, k0 = x @ np.asarray(heads.designed(0)[0]), x
    q1, k1 = ref_rope(q0, 2, 10.0), ref_rope(k0, 2, 10.0)
    _, weights, _ = ref_attention(q1, k1, k1, False, False)
    j = int(np.argmax(weights[1]))
    theta = np.array([1.0, 10 ** -0.5])
    assert table_cells(view, "theta") == [english_num(v) for v in theta]
    assert table_cells(view, "aq") == [english_num(v) for v in (2 + 1) * theta]
    assert table_cells(view, "ak") == [english_num(v) for v in (2 + j) * theta]
    pairs = [(0, 1), (2, 3)]
    assert table_cells(view, "before") == [english_num(q0[1, a] * k0[j, a] + q0[1, b] * k0[j, b]) for a, b in pairs] \
        + [english_num(q0[1] @ k0[j])]
    assert table_cells(view, "after") == [english_num(q1[1, a] * k1[j, a] + q1[1, b] * k1[j, b]) for a, b in pairs] \
        + [english_num(q1[1] @ k1[j])]
    assert view.count('<svg viewBox="-50 -50 100 100"') == 2 and "Why only i − j counts" in view


def test_rope_view_turns_the_key_the_student_picks(lexicons):
    """rope_key=0: the view turns the first word's key beside the selected word's query (its own
    pick, said as such), with numpy's angles and products; the menu offers every candidate."""
    html, x = lab_html("path=position&step=4&position=rope&offset=2&focus=3&rope_key=0", lexicons)
    view = section_of(html, "rope")
    x = np.asarray(x, float)
    q0, k0 = x @ np.asarray(heads.designed(0)[0]), x
    q1, k1 = ref_rope(q0, 2, 10.0), ref_rope(k0, 2, 10.0)
    theta = np.array([1.0, 10 ** -0.5])
    assert table_cells(view, "ak") == [english_num(v) for v in (2 + 0) * theta]
    assert table_cells(view, "after")[-1] == english_num(q1[3] @ k1[0])
    assert '<option value="0" selected>' in view and "which you chose" in view
    assert view.count("<option") == len(x) - 1  # (every word but itself: self is off)


def test_alibi_view_shows_the_active_heads_bias_matrix(lexicons):
    """Step 6: −m·|i − j| for the active head, the paper's m (head 3 of 4: 1/64), and the four slopes."""
    html, x = lab_html("path=position&step=6&position=alibi&head=2&focus=1", lexicons)
    view = section_of(html, "alibi")
    n = len(x)
    for j in range(n):
        assert table_cells(view, f"k{j}") == [english_num(-abs(i - j) / 64) for i in range(n)]
    assert "m = 1/64" in view and "1/4" in view and "1/256" in view


def test_compare_view_shows_the_row_under_each_position(lexicons):
    """Step 7: four bar sets, each with the selected row's percentages under its kind, from the formulas."""
    import re
    html, x = lab_html("path=position&step=7&focus=2&offset=3", lexicons)
    view = section_of(html, "compare")
    sets = re.findall(r'data-kind="(\w+)".*?</ul>', view)
    assert sets == list(KINDS)
    for kind, block in zip(KINDS, re.findall(r'data-kind="\w+"(.*?)</ul>', view)):
        ref = reference(x, *heads.designed(0), kind, 3, 10.0, False, False, 0.25 if kind == "alibi" else 0.0)
        shown = [float(v) for v in re.findall(r'aria-valuenow="([\d.]+)"', block)]
        expected = [100 * w for j, w in enumerate(ref[3][2]) if j != 2]
        np.testing.assert_allclose(shown, expected, atol=0.051)


def test_compare_view_follows_every_change_made_one_after_another(lexicons):
    """Changed one after another in one engine (the offset there and back, the mask, another
    sentence, another head, another kind, a slope by hand), the four sets are each time numpy's for
    what the page now says: none keeps a kind's weights from a state before."""
    import re
    other, alibi = "s=The+mouse+chased+the+cat+twice", "position=alibi&head=2"
    runs = [("offset=3", {}), (f"offset=3&{other}", {}), ("offset=3", {}), ("offset=3&mask=1", {"mask": True}),
            ("offset=3", {}), ("offset=5", {"offset": 5}), ("offset=3", {}), ("offset=3&head=2", {"head": 2}),
            (f"offset=3&{alibi}", {"head": 2}), (f"offset=3&{alibi}&pos=0.5", {"head": 2, "hand": 0.5}),
            ("offset=3&pos=0.5", {"hand": 0.5}), ("offset=3", {})]
    for query, change in runs:
        html, x = lab_html(f"path=position&step=7&focus=2&{query}", lexicons)
        head, offset, mask = change.get("head", 0), change.get("offset", 3), change.get("mask", False)
        view = section_of(html, "compare")
        for kind, block in zip(KINDS, re.findall(r'data-kind="\w+"(.*?)</ul>', view)):
            # (a slope set by hand is the distance bias under every kind; else ALiBi's paper slope)
            slope = change.get("hand") or (paper_get_slopes(4)[head] if kind == "alibi" else 0.0)
            weights = reference(x, *heads.designed(head), kind, offset, 10.0, mask, False, slope)[3][2]
            shown = [float(v) for v in re.findall(r'aria-valuenow="([\d.]+)"', block)]
            expected = [100 * w for j, w in enumerate(weights) if j != 2 and (not mask or j < 2)]
            np.testing.assert_allclose(shown, expected, atol=0.051, err_msg=f"{query}: {kind}")


def test_lab_views_compute_nothing_in_the_explorer(lexicons):
    """Outside the lab's path the RoPE and compare row parts are empty: a word click costs what it did."""
    html, _ = lab_html("focus=2&position=rope", lexicons)
    assert 'id="view-rope"' not in html and 'id="view-compare"' not in html
    from app import render
    s, _ = schema.parse_params("focus=2&position=rope", lexicons)
    tokens, _ = schema.check_sentence(s.sentence, lexicons["it"])
    parts = render.render_row_views(contract.compute(s, tokens).row(2), tokens, "it")
    assert parts["rope"] == "" and parts["compare"] == ""


@pytest.mark.parametrize("lang", ("it", "en"))
def test_model_mode_names_its_sinusoidal_positions_and_links_to_the_labs_step_2(lang, lexicons):
    """Model mode says its letters get sinusoidal positions (base 10000, d_model numbers) and links
    to step 2 of the position path."""
    import json
    from pathlib import Path
    from app import render
    d = json.loads((Path(__file__).resolve().parents[3] / "model" / "model.json").read_text())["d_model"]
    s, _ = schema.parse_params(f"mode=model&lang={lang}", lexicons)
    tokens, _ = schema.sentence_tokens(s, s.sentence, lexicons)
    record = contract.compute(s, tokens)
    view = section_of(render.render_app(s, contract.shown_tokens(s, tokens, record), record, None), "model-positions")
    assert f"10000^(2t/{d})" in view and f'href="?lang={lang}&amp;path=position&amp;step=2"' in view


def experiment(query, view, lexicons, lang="it"):
    """The sentence an experiment's view writes for a link."""
    import html as entities
    import re
    html, _ = lab_html(query, lexicons) if lang == "en" else lab_html_it(query, lexicons)
    return entities.unescape(re.search(rf'id="{view}-result"[^>]*>(.*?)</p>', html).group(1))


def lab_html_it(query, lexicons):
    from app import render
    s, _ = schema.parse_params(query, lexicons)
    tokens, _ = schema.check_sentence(s.sentence, lexicons["it"], s.limit)
    record = contract.compute(s, tokens)
    return render.render_app(s, contract.shown_tokens(s, tokens, record), record,
                             None if s.focus is None else record.row(s.focus)), None


def ref_row(sentence, lexicons, kind, focus, mask=False, offset=0, lang="it"):
    tokens, _ = schema.check_sentence(sentence, lexicons[lang])
    x = [t.card for t in tokens]
    return reference(x, *heads.designed(0), kind, offset, 10.0, mask, False, 0.25 if kind == "alibi" else 0.0)[3][focus]


def pct(w):
    return f"{100 * w:.0f}%"


def test_shuffle_says_the_weights_move_with_the_words_only_without_position_or_mask(lexicons):
    """Step 1: «insegue»'s weights on «gatto» and «topo», now and swapped (numpy's), and the verdict:
    moved with the words (none), changed by the position (RoPE), changed by the mask."""
    base = "s=il+gatto+insegue+il+topo&path=position&step=1&focus=2"
    said = experiment(base + "&position=rope", "pos-shuffle", lexicons)
    now = ref_row("il gatto insegue il topo", lexicons, "rope", 2)
    swapped = ref_row("il topo insegue il gatto", lexicons, "rope", 2)
    assert f"dà ora {pct(now[1])} a «gatto» e {pct(now[4])} a «topo»" in said
    assert f"darebbe {pct(swapped[4])} a «gatto» e {pct(swapped[1])} a «topo»" in said
    assert "la posizione (RoPE)" in said
    assert "equivariante" in experiment(base, "pos-shuffle", lexicons)
    assert "maschera causale" in experiment(base + "&mask=1", "pos-shuffle", lexicons)


def test_shift_says_rope_stays_and_sinusoidal_moves_with_numpys_numbers(lexicons):
    """Step 3: the top word's share at offset o and o + 5: equal under RoPE and ALiBi, not under sinusoidal."""
    for kind, verdict in (("rope", "non si muovono"), ("alibi", "non si muovono"), ("sinusoidal", "si muovono")):
        said = experiment(f"path=position&step=3&focus=2&offset=1&position={kind}", "pos-shift", lexicons)
        sentence = schema.default_settings("it").sentence
        a, b = ref_row(sentence, lexicons, kind, 2, offset=1), ref_row(sentence, lexicons, kind, 2, offset=6)
        top = int(np.argmax(a))
        assert f"dà {pct(a[top])} a" in said and f"e {pct(b[top])} con scostamento 6" in said
        assert f"Le barre {verdict}" in said


def test_convention_shows_other_turned_vectors_and_the_same_weights_once_permuted(lexicons):
    """Step 5: pairs (0,2),(1,3) with the same W give other weights; with W's columns permuted, numpy's
    interleaved weights again."""
    said = experiment("path=position&step=5&focus=2&position=rope&lang=en", "pos-convention", lexicons, "en")
    sentence = schema.default_settings("en").sentence
    w = ref_row(sentence, lexicons, "rope", 2, lang="en")
    shown = english_vec([x for j, x in enumerate(w) if j != 2])
    import re
    weights = re.findall(r"the weights (\[[^\]]*\])", said)
    assert weights[0] == weights[2] == shown and weights[1] != shown  # same once permuted, not before
    turned = re.findall(r"the turned q is (\[[^\]]*\])", said)
    assert len(set(turned)) == 3  # three different turned vectors


def test_the_query_line_says_how_q_came_under_each_position(lexicons):
    """The query view writes q = (x + PE(p))·W_Q under sinusoidal, x·W_Q turned under RoPE, x·W_Q otherwise."""
    for kind, line in (("none", "q = x · W_Q = ["), ("alibi", "q = x · W_Q = ["),
                       ("sinusoidal", "q = (x + PE(p)) · W_Q = ["), ("rope", "q = x · W_Q turned by p·θ = [")):
        html, _ = lab_html(f"focus=1&position={kind}", lexicons)
        assert line in section_of(html, "query").replace("&#x27;", "'"), kind


def test_compare_on_a_long_text_shows_each_kinds_favourites_and_the_selected_word(lexicons):
    """200 words: each set has the selected word and the five words each kind weighs most, not 200 bars."""
    import re
    words = "+".join(("Il gatto seduto sul tappeto dormiva e il cane guardava la luna".split() * 17)[:200])
    html, _ = lab_html_it(f"s={words}&limit=200&path=position&step=7&focus=1", lexicons)
    x = [t.card for t in schema.check_sentence(words.replace("+", " "), lexicons["it"], 200)[0]]
    view = section_of(html, "compare")
    for kind, block in zip(KINDS, re.findall(r'data-kind="\w+"(.*?)</ul>', view)):
        shown = [int(j) for j in re.findall(r'data-index="(\d+)"', block)]
        assert 1 in shown and len(shown) <= 4 * 5 + 1
        ref = reference(x, *heads.designed(0), kind, 0, 10.0, False, False, 0.25 if kind == "alibi" else 0.0)[3][1]
        assert set(np.argsort(-ref, kind="stable")[:5]) <= set(shown)
    assert "Con 200 parole" in view


@pytest.mark.parametrize("query, said", [
    ("position=alibi&head=1", "m = 0,0625, quella di ALiBi per questa testa"),
    ("position=alibi&head=0&lang=en", "m = 0.25, ALiBi's for this head"),
    ("position=alibi&head=1&pos=0.5", "m = 0,5"),
    ("position=rope", "spenta"),
    ("mode=matrix&position=alibi", "m = 0,25, quella di ALiBi per questa testa"),
])
def test_the_distance_slider_says_the_slope_that_applies(query, said, lexicons):
    """Under ALiBi with the slider at 0 the head's paper slope applies (1/16 for head 1), and the
    slider says so instead of "off"; a hand-set m or another kind reads as before."""
    s, _ = schema.parse_params(query, lexicons)
    html = render.render_settings(s)
    shown = re.search(r'<span id="pos-value"[^>]*>([^<]*)</span>', html)[1]
    assert shown == said.replace("'", "&#x27;")
