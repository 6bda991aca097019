"""The model writes (generate=N, app/generate.py): the cached letters and probabilities equal a full
recomputation at every step, on every kept checkpoint; a window matches a numpy pass with the same
mask; the counters and the real models' caches equal hand-worked sums; the state, the command line
and the notebook carry the letters."""

import json

import jsonschema
import numpy as np
import pytest
from hypothesis import HealthCheck, example, given, settings as hypothesis_settings, strategies as st

from app import __main__ as cli, contract, generate, model
from app.notebook import explore
from app.labs.generation import views
from tests import model_reference as ref
from tests.reference import ROOT

CONFIG = ref.config()
STEPS = [c["step"] for c in CONFIG["checkpoints"]]
LETTERS = "abcdefghijklmnopqrstuvwxyz"
SCHEMA = json.loads((ROOT / "docs" / "state-v2.schema.json").read_text(encoding="utf-8"))
WEIGHTS = {c["step"]: ref.weights(c["file"]) for c in CONFIG["checkpoints"]}


def ids_of(tokens):
    return [CONFIG["vocab"].index(t) for t in tokens]


def forward(w, ids, window=None):
    """The tests' own numpy pass with a causal window: position i sees j with i − window ≤ j ≤ i
    (window None: every j ≤ i). Returns the probabilities, n × 26."""
    ids = np.asarray(ids)
    n = len(ids)
    x = w["embed"][ids] + ref.sinusoidal(n, w["embed"].shape[1])
    i, j = np.arange(n)[:, None], np.arange(n)[None, :]
    seen = (j <= i) & ((i - j <= window) if window is not None else True)
    for layer in w["layers"]:
        q, k, v = (np.einsum("nd,hde->hne", x, layer[name]) for name in ("w_q", "w_k", "w_v"))
        scores = np.where(seen, q @ k.transpose(0, 2, 1) / np.sqrt(q.shape[-1]), -np.inf)
        a = np.exp(scores - scores.max(axis=-1, keepdims=True))
        x = x + np.einsum("hne,hed->nd", (a / a.sum(axis=-1, keepdims=True)) @ v, layer["w_o"])
    logits = x @ w["unembed"]
    e = np.exp(logits - logits.max(axis=-1, keepdims=True))
    return e / e.sum(axis=-1, keepdims=True)


def recomputed(step, prompt, n, window=None):
    """Writing without a cache: a whole numpy pass over the prefix for each letter; the letters
    and, for every position read, its probabilities."""
    tokens = [model.START] + list(prompt)
    probs = list(forward(WEIGHTS[step], ids_of(tokens), window))
    while len(tokens) - 1 - len(prompt) < n and len(tokens) < CONFIG["n_ctx"]:
        tokens.append(LETTERS[int(np.argmax(probs[-1]))])  # (argmax: the first on a tie)
        probs = list(forward(WEIGHTS[step], ids_of(tokens), window))
    return tokens[1 + len(prompt):], probs


@pytest.mark.parametrize("step", STEPS)
@hypothesis_settings(max_examples=3, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(prompt=st.text(alphabet=LETTERS, min_size=1, max_size=30), n=st.integers(1, 40))
@example(prompt="qwertyuiop", n=40)  # (the most letters the page writes)
@example(prompt="abcdefghij" * 3, n=40)  # (past the model's 64 positions: 7 are not written)
def test_cached_writing_equals_full_recomputation(step, prompt, n):
    """On every checkpoint, the cache writes the letters a full pass a letter writes, every
    probability of every position equal to the page's full pass to 1e-12 (and numpy's to 1e-9)."""
    weights = model.checkpoint(step)
    g = generate.Generation(weights, [model.START] + list(prompt), n)
    letters, probs = recomputed(step, prompt, n)
    assert g.written == letters
    assert g.cut == n - len(letters) and len(g.cache) == 1 + len(prompt) + len(letters)
    full = weights.run(ids_of([model.START] + list(prompt) + letters))["probs"]
    for read in g.cache.steps:
        assert max(abs(a - b) for a, b in zip(read.probs, full[read.position])) <= 1e-12
        np.testing.assert_allclose(read.probs, probs[read.position], rtol=0, atol=1e-9)


@pytest.mark.parametrize("window", [0, 2, 3, 7])
def test_windowed_cache_equals_numpy_with_the_same_mask(window):
    """With window w each new position attends over the last w + 1 cached rows: the letters and
    probabilities of a numpy pass where i sees j only for i − w ≤ j ≤ i."""
    step = STEPS[-1]
    g = generate.Generation(model.checkpoint(step), [model.START] + list("abcdefghabc"), 8, window)
    letters, probs = recomputed(step, "abcdefghabc", 8, window)
    assert g.written == letters
    for read in g.cache.steps:
        assert len(read.attention[1][3]) == min(read.position + 1, window + 1)
        np.testing.assert_allclose(read.probs, probs[read.position], rtol=0, atol=1e-9)


def test_the_induction_head_writes_the_rest_of_the_repeat():
    """On «a b c d e f g h a b c» the trained model writes «d e f g h», the cache's K gaining a
    row per letter; with a window of 3 the earlier occurrence is out of reach and it does not."""
    record = generate.compute("a b c d e f g h a b c", None, 5)
    assert record.generation.written == list("defgh")
    assert record.tokens[-5:] == list("defgh")
    layer, head = record.induction_head
    assert len(record.generation.cache.k[layer][head]) == 12 + 5
    windowed = generate.compute("a b c d e f g h a b c", None, 5, 3)
    assert windowed.generation.written != list("defgh")


def test_counters_hand_worked():
    """Two typed letters after the start token (3 positions), two written, 2 layers × 4 heads of
    d_head 8: T = 5; numbers 2·2·4·8·5 = 640; with the cache the positions see 1+2+3+4+5 = 15
    keys, 15·2·8·8 = 1920 multiply-adds; recomputing: the prompt (6 keys) + the pass over 4 (10)
    + over 5 (15) = 31 keys, 3968. Window 1: 1+2+2+2+2 = 9 → 1152; 5 + 7 + 9 = 21 → 2688."""
    assert generate.counters(3, 2, 2, 4, 8) == {"tokens": 5, "numbers": 640, "products_cached": 1920,
                                                "products_recomputed": 3968}
    assert generate.counters(3, 2, 2, 4, 8, window=1) == {"tokens": 5, "numbers": 640, "products_cached": 1152,
                                                          "products_recomputed": 2688}
    assert generate.counters(4, 0, 2, 4, 8)["products_recomputed"] == generate.counters(4, 0, 2, 4, 8)["products_cached"]


def test_real_models_caches_hand_worked():
    """GPT-2 small 2·12·12·64 = 18,432 numbers a token (36,864,000 bytes in float16 at 1,000
    tokens); LLaMA 2 70B 2·80·8·128 = 163,840 (1,310,720 with 64 key/value heads; 32,768,000,000
    bytes at 100,000); DeepSeek-V2 (512 + 64)·60 = 34,560."""
    rows = {key: (per_token, at) for key, per_token, at in views.real_rows()}
    assert rows["gen_real_gpt2"][0] == 18_432 and rows["gen_real_gpt2"][1][0] == (1_000, 18_432_000, 36_864_000)
    assert rows["gen_real_llama_mha"][0] == 1_310_720
    assert rows["gen_real_llama"][0] == 163_840
    assert rows["gen_real_llama"][1][1] == (100_000, 16_384_000_000, 32_768_000_000)
    assert rows["gen_real_deepseek"][0] == 34_560
    assert views.size(36_864_000, "it") == "36,9 MB" and views.size(32_768_000_000, "en") == "32.8 GB"


def test_state_carries_the_letters_and_the_cache():
    """The state's model.generated are the written letters, the last tokens too; model.cache has
    2·L·H·d_head·T numbers; the state is valid against the schema."""
    settings, tokens, record, notes = contract.from_link({"mode": ["model"], "s": ["a b c d a b"], "generate": ["4"]})
    state = contract.build_state(settings, tokens, record)
    jsonschema.validate(state, SCHEMA)
    written = state["model"]["generated"]
    assert len(written) == 4 and state["model"]["tokens"][-4:] == written
    assert state["model"]["cache"]["tokens"] == 11
    assert state["model"]["cache"]["numbers"] == 2 * 2 * 4 * 8 * 11


def test_generate_absent_leaves_every_number_as_it_was():
    """Without generate the state is the model's full pass as before: no letter written, no cache."""
    settings, tokens, record, _ = contract.from_link({"mode": ["model"], "s": ["a b c d a b"]})
    state = contract.build_state(settings, tokens, record)
    assert state["model"]["generated"] == [] and state["model"]["cache"] is None
    plain = model.compute("a b c d a b", None)
    assert state["model"]["attention"] == plain.attention and state["model"]["tokens"] == plain.tokens


def test_command_line_prints_the_written_letters(capsys):
    """python -m app --mode model "a b c d a b" --generate 4 says the four letters; --json has them."""
    assert cli.main(["--mode", "model", "a b c d a b", "--generate", "4", "--lang", "en"]) == 0
    out = capsys.readouterr().out
    letters = generate.compute("a b c d a b", None, 4).generation.written
    assert f"Written by the model (4): {' '.join(letters)}" in out
    assert cli.main(["--mode", "model", "a b c d a b", "--generate", "4", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["model"]["generated"] == letters


def test_notebook_takes_generate():
    """explore(…, mode="model", generate=3) writes three letters and shows them."""
    x = explore("a b c d a b", mode="model", generate=3, lang="en")
    assert len(x.state["model"]["generated"]) == 3
    assert "Written by the model (3)" in x.html()


def test_a_generate_past_forty_is_refused_with_a_note():
    """generate=41 in a link falls back to none, with the page's note."""
    settings, _, record, notes = contract.from_link({"mode": ["model"], "s": ["a b"], "generate": ["41"]})
    assert settings.generate == 0 and notes


def lab_html(lang, **link):
    from app.views import registry
    settings, _, record, _ = contract.from_link({"mode": ["model"], "lang": [lang], **{k: [v] for k, v in link.items()}})
    ctx = registry.Context(settings=settings, tokens=None, record=record, row=None, parts={}, interactive=True)
    return views.render_generation(ctx)


def test_the_lab_names_the_head_that_writes_and_the_window_that_stops_it():
    """After «a b c d e f g h a b c» the first letter written, «d», is said to come from the induction
    head (layer 2, head 4) looking at position 4; with window=3 the sentence says position 4 is out
    of reach; the prediction under the cache and the full pass are the same numbers."""
    html = lab_html("en", s="a b c d e f g h a b c", generate="1")
    assert "Why “d”: the induction head (layer 2, head 4)" in html and "“d” (position 4)" in html
    assert "The cache and the full pass give the same numbers" in html
    assert "Largest difference between the probabilities: 0." in html
    windowed = lab_html("it", s="a b c d e f g h a b c", generate="1", window="3")
    assert "con la finestra w = 3 la posizione 11 guarda solo le 3 prima di sé" in windowed


def test_in_italian_the_side_by_side_probabilities_have_every_digit_and_a_decimal_comma():
    """The cache's and the full pass's probabilities, written with every digit the float holds (so
    that the same number reads the same to the last digit), have the Italian decimal comma: each
    reads back as the very float the model computed, and no number has a decimal point."""
    import re
    settings, _, record, _ = contract.from_link({"mode": ["model"], "lang": ["it"], "s": ["a b c d e f g h a b c"],
                                                 "generate": ["2"]})
    html = lab_html("it", s="a b c d e f g h a b c", generate="2")
    table = html[html.index('class="steps gen-same"'):]
    cells = re.findall(r"<td>([^<]*)</td>", table[:table.index("</table>")])
    step = record.generation.steps[-1]
    ranked = sorted(range(len(record.probs[step.position])), key=lambda c: -record.probs[step.position][c])[:3]
    expected = [x for c in ranked for x in (step.probs[c], record.probs[step.position][c])]
    assert len(cells) == 6 and [float(c.replace(",", ".")) for c in cells] == expected
    assert all(re.fullmatch(r"\d+,\d+", c) for c in cells)
    assert "Differenza più grande fra le probabilità: 0." in html
    assert not re.search(r"\d\.\d", re.sub(r"<[^>]+>", " ", html))


def test_past_the_models_positions_the_page_says_how_many_were_not_written():
    """63 typed letters fill the model's 64 positions: generate=5 writes none, and says 5 were not
    (not that nothing is written yet, as if a press could help)."""
    html = lab_html("en", s="abcdefghi" * 7, generate="5")
    assert "The model has written nothing yet" not in html
    assert "The model reads at most 64 positions: 5 letters were not written." in html
    assert '<button type="button" id="gen-step" disabled>' in html
