"""Word order (docs/DESIGN.md, "Position"): sinusoidal, RoPE and ALiBi, checked against a numpy
reference written here from the papers' formulas, never against the page's own numbers."""

import math
import re

import numpy as np
import pytest
from hypothesis import given, settings as hsettings, strategies as st
from app import attention, attention_fast, contract, heads, i18n, render, settings as schema
from tests.contract_check import assert_valid_state
from tests.reference import rule_percent, shown_short

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


def reference(x, w_q, w_k, w_v, kind, offset, base, mask, include_self, slope, pairs="interleaved"):
    """Every query, key and weight of one head under a position kind, from the formulas."""
    x = np.asarray(x, float)
    if kind == "sinusoidal":
        x = x + ref_pe(len(x), x.shape[1], offset, base)
    q, k, v = x @ np.asarray(w_q), x @ np.asarray(w_k), x @ np.asarray(w_v)
    if kind == "rope":
        q, k = ref_rope(q, offset, base, pairs), ref_rope(k, offset, base, pairs)
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


@pytest.mark.parametrize("base", (10.0, 10_000.0))
def test_sinusoidal_view_says_why_the_base_is_10_and_offers_the_papers(base, lexicons):
    """Step 2 says the paper's base is 10,000 and the page's 10, with the slow pair's turn a word and
    over the sentence under each (numpy's θ_1 = base^(−1/2), in degrees over the n − 1 steps), and its
    button sets 10,000, or 10 again once there; the table's x + PE cells carry their column's name."""
    html, x = lab_html(f"path=position&step=2&position=sinusoidal&base={base:g}", lexicons)
    view = section_of(html, "sinusoidal")
    n = len(x)
    said = re.search(r'<p class="sin-base">(.*?)</p>', view).group(1)
    for b in (10.0, 10_000.0):
        turn = b ** -0.5
        assert shown_short(turn, 3, "en") + " rad" in said
        assert shown_short(np.degrees((n - 1) * turn), 0, "en") + "° in all" in said
    assert "base 10,000" in said and "base^(−1/2)" in said and "2 pairs" in said
    label = re.search(r'<button[^>]*id="pos-base-paper"[^>]*>(.*?)</button>', view).group(1)
    assert label == ("Back to the base 10" if base == 10_000.0 else "Use the base 10,000, as the paper does")
    pe = ref_pe(n, 4, 0, base)
    sums = re.findall(r'<td data-col="sum" data-label="x \+ PE\(p\)"[^>]*>(.*?)</td>', view)
    assert sums == [english_vec(np.add(c, r)) for c, r in zip(x, pe)]


def test_the_base_button_sets_the_papers_base_and_back(lexicons):
    """The button, pressed in the engine: 10 → 10,000 (the state's base, the PE rows numpy's at
    10,000), pressed again → 10."""
    from tests.test_engine_page import click, started_page
    page = started_page([("path", "position"), ("step", "2"), ("position", "sinusoidal"), ("focus", "1")])
    state = click(page, "pos-base-paper")
    assert state["position"]["base"] == 10_000.0
    np.testing.assert_allclose(state["position"]["encoding"], ref_pe(len(state["tokens"]), 4, 0, 10_000.0), atol=1e-12)
    assert click(page, "pos-base-paper")["position"]["base"] == 10.0


def test_a_word_click_writes_each_experiments_numbers_for_the_new_word(lexicons):
    """Steps 1, 3 and 5: a click on another word redraws the experiment's sentence or table for it
    (its row part), with numpy's numbers: no sentence stays about the word selected before."""
    import html as entities
    import json
    from tests.test_engine_page import started_page
    for step, part in ((1, "pos-shuffle-result"), (3, "pos-shift-result"), (5, "pos-convention-row")):
        page = started_page([("path", "position"), ("step", str(step)), ("focus", "2"), ("lang", "en"),
                             ("position", "rope")])
        context = {"target": {"name": "word", "value": "7", "type": "radio", "checked": True},
                   "checked": {"word": "7"}, "ids": list(render.ROW_PARTS.values()), "off": []}
        ops = json.loads(page.receive({"type": "change", "context": context}))
        written = [op[2][1] for op in ops if op[:2] == ["helper", "redrawPart"] and op[2][0] == {"$": [{"id": part}]}]
        assert len(written) == 1, step
        said = entities.unescape(written[0])
        tokens, _ = schema.check_sentence(page.settings.sentence, lexicons["en"])
        w = reference([t.card for t in tokens], *heads.designed(0), "rope", 0, 10.0, False, False, 0.0)[3][7]
        word = tokens[7].text
        if step == 5:
            assert f"“{word}” under each convention" in said
            assert all(rule_percent(w[j], 1, "en") in said for j in range(7))
        elif step == 3:
            assert f"“{word}” gives {rule_percent(w.max(), 0, 'en')} to" in said
        else:
            assert f"“{word}” now gives {rule_percent(w[1], 0, 'en')} to “cat” and {rule_percent(w[5], 0, 'en')}" in said


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


@pytest.mark.parametrize("query, head, marked", [
    ("position=alibi&head=0", 0, 0.25), ("position=alibi&head=2", 2, 1 / 64),
    ("position=alibi&head=1&pos=0.5", 1, 0.5), ("position=none&head=3", 3, None)])
def test_alibi_slopes_table_changes_only_the_slope(query, head, marked, lexicons):
    """Step 6: the selected word's weights with the active head's W_Q under m = 0 and the paper's four
    slopes (and the page's own when set by hand), numpy's in each column; the distance of each word;
    the column of the slope the page applies marked (none when ALiBi is off)."""
    html, x = lab_html(f"path=position&step=6&focus=5&{query}", lexicons)
    view = section_of(html, "alibi")
    rows = table_rows(view, "slopes-table")
    slopes = sorted({0.0, 1 / 4, 1 / 16, 1 / 64, 1 / 256} | ({marked} if marked else set()))
    refs = [reference(x, *heads.designed(head), "alibi", 0, 10.0, False, False, m)[3][5] for m in slopes]
    words = list(rows)
    for j, word in zip([j for j in range(len(x)) if j != 5], words, strict=True):
        assert rows[word] == [str(abs(5 - j))] + [rule_percent(r[j], 0, "en") for r in refs], word
    assert float(rows[words[0]][-1].rstrip("%")) < float(rows[words[0]][1].rstrip("%"))  # (the farthest loses)
    tinted = [k for k, c in enumerate(re.findall(r"<td([^>]*)>", re.search(r'<table class="slopes-table"[^>]*>.*?<tbody><tr[^>]*>(.*?)</tr>', view, re.S).group(1))) if "conv-here" in c]
    assert tinted == ([] if marked is None else [1 + slopes.index(marked)])
    head_name = text_of(f"head_name_{heads.HEADS[head].id}")
    assert f"with the head “{head_name}”" in view


def text_of(key):
    return i18n.STRINGS["en"][key]


def test_rope_table_names_the_turn_angles():
    """RoPE's table says what p·θ is: how far q and k turn, not the angle they point at."""
    from app.labs.position import rope
    assert rope.STRINGS["en"]["rope_col_aq"] == "q turned by: p·θ"
    assert rope.STRINGS["it"]["rope_col_aq"] == "rotazione di q: p·θ"


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
    """The sentence an experiment's view writes for a link, as read (a glossary link's words kept)."""
    import html as entities
    import re
    html, _ = lab_html(query, lexicons) if lang == "en" else lab_html_it(query, lexicons)
    return entities.unescape(re.sub(r"<[^>]+>", "", re.search(rf'id="{view}-result"[^>]*>(.*?)</p>', html).group(1)))


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
    """Step 1: «legge»'s weights on «bambino» and «libro», now and swapped (numpy's), and the verdict:
    moved with the words (none), changed by the position (RoPE), changed by the mask."""
    base = "s=il+bambino+legge+il+libro&path=position&step=1&focus=2"
    said = experiment(base + "&position=rope", "pos-shuffle", lexicons)
    now = ref_row("il bambino legge il libro", lexicons, "rope", 2)
    swapped = ref_row("il libro legge il bambino", lexicons, "rope", 2)
    assert f"dà ora {rule_percent(now[1], 0, 'it')} a «bambino» e {rule_percent(now[4], 0, 'it')} a «libro»" in said
    assert f"darebbe {rule_percent(swapped[4], 0, 'it')} a «bambino» e {rule_percent(swapped[1], 0, 'it')} a «libro»" in said
    assert "la posizione (RoPE)" in said
    assert "equivariante" in experiment(base, "pos-shuffle", lexicons)
    assert "maschera causale" in experiment(base + "&mask=1", "pos-shuffle", lexicons)


def quoted(key, lang):
    """The fragments a string of the page quotes («…» or “…”)."""
    return [a or b for a, b in re.findall(r"«([^»]*)»|“([^”]*)”", i18n.STRINGS[lang][key])]


@pytest.mark.parametrize("lang", ("it", "en"))
def test_the_shuffle_steps_sentences_swap_two_words_of_different_cards_and_the_weights_follow(lang, lexicons):
    """Step 1's two sentences, as its text quotes them: the second is the first with the button's two
    words swapped; those two words have different cards; the word the step names gives them weights
    that differ on screen (numpy's), and after the swap each weight is still its word's."""
    from app.labs.position import experiments
    from app import order
    first, second = [q for q in quoted("path_position_shuffle_text", lang) if " " in q]
    asker = [q for q in quoted("path_position_shuffle_try", lang) if " " not in q and q in first.split()][0]
    tokens, _ = schema.check_sentence(first, lexicons[lang])
    a, b = experiments.nouns(tokens)
    assert " ".join(order.swapped(first.split(), a, b)) == second
    assert tokens[a].card != tokens[b].card
    f = first.split().index(asker)
    now = reference([t.card for t in tokens], *heads.designed(0), "none", 0, 10.0, False, False, 0.0)[3][f]
    assert rule_percent(now[a], 0, lang) != rule_percent(now[b], 0, lang)  # (visibly different)
    wa, wb = tokens[a].text, tokens[b].text
    link = lambda s: f"s={s.replace(' ', '+')}&lang={lang}&path=position&step=1&focus={f}"  # noqa: E731
    before, after = (experiment(link(s), "pos-shuffle", lexicons, lang) for s in (first, second))
    open_, close = ("«", "»") if lang == "it" else ("“", "”")
    on = lambda word, w: f"{rule_percent(w, 0, lang)} {'a' if lang == 'it' else 'to'} {open_}{word}{close}"  # noqa: E731
    and_ = " e " if lang == "it" else " and "
    assert on(wa, now[a]) + and_ + on(wb, now[b]) in before
    assert on(wb, now[b]) + and_ + on(wa, now[a]) in after  # (the other way round, each weight its word's)
    assert ("equivariante" if lang == "it" else "equivariant") in after


def test_the_shuffle_swaps_two_different_cards_when_the_first_two_nouns_are_alike(lexicons):
    """«il gatto guarda il topo il libro»: «gatto» and «topo» have one card, so the button swaps
    «gatto» and «libro»; with only alike nouns it swaps them and the sentence says why nothing moves."""
    from app.labs.position import experiments
    tokens, _ = schema.check_sentence("il gatto guarda il topo e il libro", lexicons["it"])
    assert tokens[1].card == tokens[4].card != tokens[7].card
    assert experiments.nouns(tokens) == (1, 7)
    said = experiment("s=il+gatto+guarda+il+topo&path=position&step=1&focus=2", "pos-shuffle", lexicons)
    assert "«gatto» e «topo» hanno la stessa carta" in said


def test_shift_says_rope_stays_and_sinusoidal_moves_with_numpys_numbers(lexicons):
    """Step 3: the top word's share at offset o and o + 5: equal under RoPE and ALiBi, not under sinusoidal."""
    for kind, verdict in (("rope", "non si muovono"), ("alibi", "non si muovono"), ("sinusoidal", "si muovono")):
        said = experiment(f"path=position&step=3&focus=2&offset=1&position={kind}", "pos-shift", lexicons)
        sentence = schema.default_settings("it").sentence
        a, b = ref_row(sentence, lexicons, kind, 2, offset=1), ref_row(sentence, lexicons, kind, 2, offset=6)
        top = int(np.argmax(a))
        assert f"dà {pct(a[top])} a" in said and f"e {pct(b[top])} con scostamento 6" in said
        assert f"Le barre {verdict}" in said


def table_rows(view, klass):
    """{row header: [cell texts]} of the table of class `klass` in a view's HTML."""
    import html as entities
    body = re.search(rf'<table class="{klass}"[^>]*>.*?<tbody>(.*?)</tbody>', view, re.S).group(1)
    rows = {}
    for tr in re.findall(r"<tr[^>]*>(.*?)</tr>", body, re.S):
        head = entities.unescape(re.sub("<[^>]+>", "", re.search(r"<th[^>]*>(.*?)</th>", tr, re.S).group(1)))
        rows[head] = [entities.unescape(re.sub("<[^>]+>", "", c)) for c in re.findall(r"<td[^>]*>(.*?)</td>", tr, re.S)]
    return rows


def test_convention_table_shows_each_conventions_turned_q_and_weights(lexicons):
    """Step 5: a column a convention, numpy's turned q and weights in each: (0,1),(2,3) with W; (0,2),(1,3)
    with W, other numbers; (0,2),(1,3) with W_Q's and W_K's columns permuted, the first's weights again.
    The page's own pairing is the column marked."""
    for pairs, marked in (("interleaved", 0), ("half", 1)):
        html, x = lab_html(f"path=position&step=5&focus=2&position=rope&pairs={pairs}", lexicons)
        view = section_of(html, "pos-convention")
        rows = table_rows(view, "conv-table")
        w_q, w_k, w_v = (np.asarray(m) for m in heads.designed(0))
        perm = [0, 2, 1, 3]
        refs = [reference(x, w_q, w_k, w_v, "rope", 0, 10.0, False, False, 0.0, "interleaved"),
                reference(x, w_q, w_k, w_v, "rope", 0, 10.0, False, False, 0.0, "half"),
                reference(x, w_q[:, perm], w_k[:, perm], w_v, "rope", 0, 10.0, False, False, 0.0, "half")]
        assert rows["turned q"] == [english_vec(r[0][2]) for r in refs]
        words = [t for t in rows if t != "turned q"]
        for j, word in zip([j for j in range(len(x)) if j != 2], words, strict=True):
            assert rows[word] == [rule_percent(r[3][2][j], 1, "en") for r in refs], word
        first, second, third = zip(*(rows[w] for w in words))
        assert first == third and first != second
        head = re.search(r"<thead>(.*?)</thead>", view, re.S).group(1)
        marks = [("on this page" in th) for th in re.findall(r"<th[^>]*>(.*?)</th>", head, re.S)[1:]]
        assert marks == [k == marked for k in range(3)]
        assert f'name="pairs" value="{pairs}" checked' in view


def test_pairs_half_turns_0_2_and_1_3_everywhere_the_page_shows_rope(lexicons):
    """pairs=half: the state names it, its queries, keys and weights are numpy's rotate_half RoPE,
    and the RoPE view's arrows and table are the pairs (0,2),(1,3) with their angles and products."""
    st_ = state_for("position=rope&pairs=half&offset=2&focus=1", lexicons)
    assert_valid_state(st_)
    tokens, _ = schema.check_sentence(st_["sentence"], lexicons["it"])
    x = [t.card for t in tokens]
    ref = reference(x, *heads.designed(0), "rope", 2, 10.0, False, False, 0.0, "half")
    assert_matches(st_["matrix"], *ref)
    assert st_["position"]["pairs"] == "half"
    html, x = lab_html("path=position&step=5&position=rope&pairs=half&offset=2&focus=1", lexicons)
    view = section_of(html, "rope")
    assert re.findall(r"<figcaption>(.*?)</figcaption>", view) == ["Pair (0,2)", "Pair (1,3)"]
    q0, k0 = np.asarray(x, float) @ np.asarray(heads.designed(0)[0]), np.asarray(x, float)
    q1, k1 = ref_rope(q0, 2, 10.0, "half"), ref_rope(k0, 2, 10.0, "half")
    j = int(np.argmax(ref[3][1]))
    pairs = [(0, 2), (1, 3)]
    assert table_cells(view, "after") == [english_num(q1[1, a] * k1[j, a] + q1[1, b] * k1[j, b]) for a, b in pairs] \
        + [english_num(q1[1] @ k1[j])]
    assert "dimensions (0,2),(1,3) turns" in view


def test_pairs_is_a_setting_of_the_convention_step_only(lexicons):
    """Step 5 owns `pairs`: a link's pairs=half stays there; entering step 4 or the explorer from it sets
    (0,1),(2,3) back."""
    from app.views import registry
    assert registry.view("pos-convention").settings == ("pairs",)
    s, _ = schema.parse_params("path=position&step=5&pairs=half", lexicons)
    assert s.pairs == "half"
    later, _ = schema.parse_params("path=position&step=4", lexicons)
    assert later.pairs == "interleaved"
    bad, notes = schema.parse_params("pairs=diagonal", lexicons)
    assert bad.pairs == "interleaved" and len(notes) == 1


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
