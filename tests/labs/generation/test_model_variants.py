"""The trained model's grouped-query and multi-query variants (model/kv-2/, model/kv-1/; `make
model`, docs/model.md): their forward pass against the tests' own numpy with the key/value heads
repeated, the cache against recomputation, and what the student reads of them in model mode."""

import json

import numpy as np
import pytest

from app import contract, generate, model, settings as schema
from app.lexicon import load_lexicon
from app.render import render_analysis
from tests import model_reference as ref
from tests.reference import ROOT

LEXICONS = {lang: load_lexicon(lang) for lang in ("it", "en")}
LETTERS = "abcdefghijklmnopqrstuvwxyz"
DEFAULT = ref.config()


def variant_config(g):
    return json.loads((ROOT / "model" / f"kv-{g}" / "model.json").read_text(encoding="utf-8"))


def ids_of(letters):
    return [0] + [1 + LETTERS.index(c) for c in letters]


@pytest.mark.parametrize("g", [2, 1])
def test_a_variant_has_the_models_shape_with_fewer_key_value_heads_and_its_checkpoints(g):
    """kv-g: 4 query heads, g key/value heads (W_K, W_V of g heads in every file), checkpoints at the same steps."""
    config = variant_config(g)
    assert config["n_heads"] == 4 and config["n_kv_heads"] == g and config["d_head"] == DEFAULT["d_head"]
    assert [c["step"] for c in config["checkpoints"]] == [c["step"] for c in DEFAULT["checkpoints"]]
    weights = ref.weights(f"kv-{g}/" + config["checkpoints"][-1]["file"])
    for layer in weights["layers"]:
        assert layer["w_q"].shape[0] == 4 and layer["w_k"].shape[0] == g == layer["w_v"].shape[0]
    assert config["training"]["seed"] == DEFAULT["training"]["seed"]


@pytest.mark.parametrize("g", [2, 1])
def test_a_variants_forward_pass_equals_numpy_with_the_heads_repeated(g):
    """Every head's weights and every logit, on three checkpoints, equal numpy's (repeat_interleave) to 1e-9."""
    config = variant_config(g)
    picked = [config["checkpoints"][i] for i in (0, len(config["checkpoints"]) // 2, -1)]
    for entry in picked:
        weights = ref.weights(f"kv-{g}/" + entry["file"])
        ours = model.checkpoint(entry["step"], g)
        assert ours.kv_heads == g and ours.group == 4 // g
        for letters in ("abcdefghabcdefgh", "qwertyuiop", "abcabcabcabcabc"):
            run = ours.run(ids_of(letters))
            patterns, logits = ref.forward(weights, ids_of(letters))
            for layer in range(2):
                np.testing.assert_allclose(run["attention"][layer], patterns[layer], rtol=0, atol=1e-9)
            np.testing.assert_allclose(run["logits"], logits, rtol=0, atol=1e-9)


@pytest.mark.parametrize("g", [2, 1])
def test_a_variants_cache_keeps_g_heads_and_gives_the_full_pass(g):
    """Writing 6 letters: g rows of K and V a layer and position, and every probability the full pass's to 1e-12."""
    record = generate.compute("a b c d e f g h a b c", None, 6, None, g)
    cache = record.generation.cache
    assert [len(layer) for layer in cache.k] == [g, g]
    assert all(len(rows) == len(record.tokens) for layer in cache.k for rows in layer)
    for step in cache.steps:
        np.testing.assert_allclose(step.probs, record.probs[step.position], rtol=0, atol=1e-12)
    assert record.generation.counters["numbers"] == 2 * 2 * g * 8 * len(record.tokens)


@pytest.mark.parametrize("g", [2, 1])
def test_the_variants_induction_head_still_copies(g):
    """Trained alike with fewer key/value heads, each variant writes «d e f g h» after «a … h a b c», and its
    model.json says how well its induction head formed."""
    record = generate.compute("a b c d e f g h a b c", None, 5, None, g)
    assert record.generation.written == list("defgh")
    found = variant_config(g)["acceptance"]
    assert found["pass"] is True and found["induction_weight"] >= 0.5 and found["accuracy"] >= 0.9


def test_multi_query_in_model_mode_shrinks_the_cache_in_the_state_and_the_view():
    """mode=model&kv_heads=1&generate=3: cache_per_token 2·1·8 = 16, model.cache.numbers 2·2·1·8·T, and the
    lab's counters and its one key/value head's tables say so; back to sentence mode, kv_heads is 4 again."""
    params = {"mode": ["model"], "s": ["a b c d e f g h a b c"], "kv_heads": ["1"], "generate": ["3"],
              "path": ["generation"], "step": ["2"]}
    settings, notes = schema.parse_params(params, LEXICONS)
    assert notes == [] and settings.kv_heads == 1
    record = contract.compute(settings, None)
    state = contract.build_state(settings, [], record)
    tokens = len(state["model"]["tokens"])
    assert state["kv_heads"] == 1 and state["cache_per_token"] == 16
    assert state["model"]["cache"]["numbers"] == 2 * 2 * 1 * 8 * tokens
    html = render_analysis(settings, None, record, None)
    assert html.count('<details class="gen-cache"') == 2  # one key/value head a layer
    assert "testa chiave/valore 1 (la usano le teste 1–4)" in html
    assert f"2 · 2 · 1 · 8 · {tokens}" in html
    assert schema.switch_mode(settings, "sentence").kv_heads == 4
