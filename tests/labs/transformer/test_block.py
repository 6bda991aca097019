"""The letter model with whole blocks (`arch` = block; docs/model.md, "The whole block"): its forward
pass against the tests' numpy (LayerNorm as torch defines it, GELU's erf form, the residuals) and
PyTorch's, its stages, logit lens, LayerNorm and FFN units in the state against numpy, a LayerNorm
number worked by hand, and the encoder and decoder view against numpy's attention."""

import json
import math

import numpy as np
import pytest

from app import contract, model, settings as schema
from app.lexicon import Lexicons
from tests import model_reference as ref
from tests.labs.beyond.test_page import section, started
from tests.reference import ROOT, attention_matrix, shown

LETTERS = "abcdefghijklmnopqrstuvwxyz"
CONFIG = ref.config("block")
FIXTURE = json.loads((ROOT / "tests" / "data" / "model_block_torch.json").read_text(encoding="utf-8"))["cases"]
TEXTS = ("ilgattodorme", "lacasalacasa", "quandoilcanegiocaquandoilcane")


def ids_of(letters):
    return [0] + [1 + LETTERS.index(c) for c in letters]


def weights(step):
    return ref.weights(next(c["file"] for c in CONFIG["checkpoints"] if c["step"] == step), "block")


def three_steps():
    steps = [c["step"] for c in CONFIG["checkpoints"]]
    return steps[0], steps[len(steps) // 2], steps[-1]


def state(text, focus=None, lang="en"):
    settings = schema.Settings(sentence=text, mode="model", lang=lang, arch="block", focus=focus)
    return contract.build_state(settings, [], contract.compute(settings, []))


def test_the_block_model_is_the_documented_shape():
    """Two pre-norm blocks of 4 heads of 5 and an FFN of 4·20 units, LayerNorm's ε 1e-5, checkpoints kept
    at the page's model's steps."""
    assert CONFIG["arch"] == "block" and CONFIG["layers"] == ["block", "block"]
    assert CONFIG["d_ff"] == 4 * CONFIG["d_model"] and CONFIG["eps"] == 1e-5
    assert [c["step"] for c in CONFIG["checkpoints"]] == [c["step"] for c in ref.config()["checkpoints"]]
    w = weights(CONFIG["checkpoints"][-1]["step"])
    assert w["layers"][0]["w_1"].shape == (20, 80) and w["layers"][0]["w_2"].shape == (80, 20)
    assert w["layers"][0]["w_q"].shape == (4, 20, 5)


@pytest.mark.parametrize("step", three_steps())
def test_forward_pass_equals_numpy_on_three_checkpoints(step):
    """Every head's weights, every stage of the stream and every logit equal numpy's to 1e-9."""
    ours = model.checkpoint(step, "block")
    for letters in TEXTS:
        run = ours.run(ids_of(letters))
        patterns, logits, stages, hidden = ref.block_forward(weights(step), ids_of(letters))
        for layer in range(2):
            np.testing.assert_allclose(run["attention"][layer], patterns[layer], rtol=0, atol=1e-9)
            np.testing.assert_allclose(run["hidden"][layer], hidden[layer], rtol=0, atol=1e-9)
        np.testing.assert_allclose(run["stages"], stages, rtol=0, atol=1e-9)
        np.testing.assert_allclose(run["logits"], logits, rtol=0, atol=1e-9)


def test_forward_pass_equals_pytorch_on_the_committed_weights():
    """PyTorch's float64 forward (its own LayerNorm and GELU), written by `make model` on three
    checkpoints, equals the page's stages and logits to 1e-9."""
    assert len({case["checkpoint"] for case in FIXTURE}) == 3
    for case in FIXTURE:
        run = model.checkpoint(case["checkpoint"], "block").run(ids_of(case["letters"]))
        np.testing.assert_allclose(run["logits"], case["logits"], rtol=0, atol=1e-9)
        np.testing.assert_allclose(run["stages"], case["stages"], rtol=0, atol=1e-9)
        np.testing.assert_allclose(run["attention"], case["attention"], rtol=0, atol=1e-9)


@pytest.mark.parametrize("focus", (None, 3))
def test_the_state_holds_the_stages_lens_layernorm_and_ffn_of_numpy(focus):
    """At the selected position (else the last): the stages' names and vectors, the logit lens's top 3
    letters and probabilities, layer 1's LN₁ mean, variance and normalised vector, and each layer's 3
    units that fire most with the letters their W₂ row pushes up: all numpy's."""
    text = "ilgattodormeilgatto"
    s = state(text, focus)["model"]
    w = weights(CONFIG["checkpoints"][-1]["step"])
    _, _, stages, hidden = ref.block_forward(w, ids_of(text))
    i = len(text) if focus is None else focus
    assert [st["name"] for st in s["stages"]] == ["embed", "attn1", "ffn1", "attn2", "ffn2"]
    np.testing.assert_allclose([st["x"] for st in s["stages"]], [x[i] for x in stages], rtol=0, atol=1e-9)
    for x, lens in zip(stages, s["lens"]):
        logits = ref.layer_norm(x[i], *w["ln_f"]) @ w["unembed"]
        p = np.exp(logits - logits.max())
        p /= p.sum()
        order = np.argsort(-p, kind="stable")[:3]
        assert [c for c, _ in lens] == [LETTERS[c] for c in order]
        np.testing.assert_allclose([q for _, q in lens], p[order], rtol=0, atol=1e-12)
    u = stages[0][i]
    assert math.isclose(s["ln"]["mean"], u.mean(), abs_tol=1e-12) and math.isclose(s["ln"]["var"], u.var(), abs_tol=1e-12)
    np.testing.assert_allclose(s["ln"]["normed"], (u - u.mean()) / np.sqrt(u.var() + 1e-5), rtol=0, atol=1e-12)
    assert abs(np.mean(s["ln"]["normed"])) < 1e-12 and abs(np.var(s["ln"]["normed"]) - 1) < 1e-3
    expected = []
    for layer, h in enumerate(hidden):
        for unit in np.argsort(-h[i], kind="stable")[:3]:
            pushed = w["layers"][layer]["w_2"][unit] @ w["unembed"]
            expected.append((layer, int(unit), [LETTERS[c] for c in np.argsort(-pushed, kind="stable")[:3]]))
    assert [(u["layer"], u["unit"], u["promotes"]) for u in s["ffn"]] == expected


def test_the_other_models_have_no_stages():
    """The page's model and the ssm have no blocks: model.stages, lens, ln and ffn are null."""
    settings = schema.Settings(sentence="abcabc", mode="model", lang="en")
    s = contract.build_state(settings, [], contract.compute(settings, []))["model"]
    assert s["stages"] is None and s["lens"] is None and s["ln"] is None and s["ffn"] is None


def copy_weights(step):
    """For each layer-2 head, numpy's mean weight from a repeated made-up word's letters 2..10 on the
    letter after their first occurrence, the letter to copy, amid Italian words."""
    word = "bqxzfwjkvy"
    weights_, got = weights(step), []
    for before, between in (("ilgatto", "dorme"), ("lacasa", "sulfiume"), ("", "quandoilcane")):
        letters = before + word + between + word
        first, second = 1 + len(before), 1 + len(before) + len(word) + len(between)
        patterns = ref.block_forward(weights_, ids_of(letters))[0][1]
        got.append([[patterns[h][second + k][first + k + 1] for k in range(len(word) - 1)] for h in range(len(patterns))])
    return np.mean(np.array(got), axis=(0, 2))


def test_an_induction_head_is_named_only_where_one_formed():
    """Training names the block model's induction head only when a layer-2 head copies (numpy's weights
    on the letter to copy agree); without one the circuit says no head learned to copy, in both languages."""
    from app.views import model as view
    scores = copy_weights(CONFIG["checkpoints"][-1]["step"])
    named = CONFIG["heads"]["induction"]
    if named is None:
        assert scores.max() < 0.25, scores
        record = model.compute("ilgattobqxzfwjkvydormebqxzfwjkvy", None, None, "block")
        assert record.induction_head is None
        assert "No head of this model has learned to copy" in view.render_circuit(record, 25, "en")
        assert "nessuna testa ha imparato a copiare" in view.render_circuit(record, 25, "it")
        config = model.config("block")
        first, last = config["checkpoints"][0], config["checkpoints"][-1]
        said = view.jump_text(config["checkpoints"], view.jump_step(config["curve"]), "en", view.copier(config))
        assert f"{first['loss']:.2f}" in said and f"{last['loss']:.2f}" in said and "no head has learned to copy" in said
    else:
        assert scores[named[1]] == scores.max() and scores.max() >= 0.2, scores


@pytest.mark.parametrize("lang", ("it", "en"))
def test_the_layernorm_view_works_one_number_by_hand(lang):
    """Step 2 writes the mean, √(var + ε) and the first number's way through LN₁ as a student checks it:
    (x₀ − mean)/√(var + ε), then × γ₀ + β₀, each number numpy's as the page writes it, the numbers
    worked from with a digit more than the results; worked by hand from them, each result is the
    page's or one unit of its last digit off."""
    _, html = started([("lang", lang), ("path", "transformer"), ("step", "2")], Lexicons())
    view = section(html, "block-ln")
    s = state("il gatto dorme sul divano il gatto dorme", None, lang)["model"]
    w = weights(CONFIG["checkpoints"][-1]["step"])
    text = "ilgattodormesuldivanoilgattodorme"
    u = ref.block_forward(w, ids_of(text))[2][0][len(text)]
    sd = math.sqrt(u.var() + 1e-5)
    g, b = w["layers"][0]["ln1_g"][0], w["layers"][0]["ln1_b"][0]
    normed, y = (u[0] - u.mean()) / sd, (u[0] - u.mean()) / sd * g + b
    for value in (u.mean(), sd, u[0], g, b):
        assert shown(value, 4, lang) in view, (value, view)
    for value in (normed, y):
        assert shown(value, 3, lang) in view, (value, view)
    read = lambda value, digits: float(shown(value, digits, "en").replace("−", "-"))  # noqa: E731 (as written)
    by_hand = (read(u[0], 4) - read(u.mean(), 4)) / read(sd, 4)
    assert abs(by_hand - read(normed, 3)) <= 0.0015
    assert abs(read(normed, 3) * read(g, 4) + read(b, 4) - read(y, 3)) <= 0.0015
    assert s["arch"] == "block"


@pytest.mark.parametrize("lang", ("it", "en"))
def test_encoder_and_decoder_are_the_same_head_without_and_with_the_mask(lang):
    """Step 5: the active head's matrix twice; the encoder's rows are numpy's softmax over every word,
    the decoder's over the words up to the row's, with · above the diagonal."""
    text = "il gatto dorme sul divano"
    page, html = started([("lang", lang), ("path", "transformer"), ("step", "5"), ("s", text)], Lexicons())
    view = section(html, "encdec")
    published = contract.build_state(page.settings, page.tokens, page.record)
    cards = np.array([t["card"] for t in published["tokens"]])
    q, k, v = (cards @ np.array(published[name]) for name in ("w_q", "w_k", "w_v"))
    for masked, part in ((False, view[:view.index('data-masked="true"')]), (True, view[view.index('data-masked="true"'):])):
        w = attention_matrix(q, k, v, mask=masked, include_self=True)["weights"]
        rows = part.split("<tbody>")[1].split("</tbody>")[0].split("</tr>")[:-1]
        assert len(rows) == 5
        for i, row in enumerate(rows):
            cells = [c.split(">")[-1] for c in row.split("</td>")[:-1]]
            expected = ["·" if masked and j > i else shown(100 * w[i][j], 0, lang) for j in range(5)]
            assert cells == expected, (masked, i, cells, expected)


PAIRS = (("it", "Il gatto dorme sul divano", "The cat sleeps on the sofa"),
         ("en", "The cat sleeps on the sofa", "Il gatto dorme sul divano"))


def cross_state(lang, source, target, head):
    page, html = started([("lang", lang), ("path", "transformer"), ("step", "6"), ("s", source), ("target", target),
                          ("head", str(head))], Lexicons())
    return contract.build_state(page.settings, page.tokens, page.record), section(html, "cross")


@pytest.mark.parametrize("lang,source,target", PAIRS)
@pytest.mark.parametrize("head", range(4))
def test_cross_attention_is_numpys_for_both_directions_and_every_head(lang, source, target, head):
    """The target's cards (its own language's lexicon) through W_Q ask, the sentence's cards through W_K and
    W_V answer, no mask, the page's divisor: weights and output equal numpy's; the table shows them."""
    s, view = cross_state(lang, source, target, head)
    other = "en" if lang == "it" else "it"
    target_cards = ref_cards(other, s["cross"]["target"])
    source_cards = np.array([t["card"] for t in s["tokens"]])
    h = s["heads"][head]
    q, k, v = target_cards @ np.array(h["w_q"]), source_cards @ np.array(h["w_k"]), source_cards @ np.array(h["w_v"])
    expected = attention_matrix(q, k, v)  # (no mask, no self rule: n_t ≠ n_s, every source word a candidate)
    np.testing.assert_allclose(s["cross"]["weights"], expected["weights"], rtol=0, atol=1e-12)
    np.testing.assert_allclose(s["cross"]["output"], expected["output"], rtol=0, atol=1e-12)
    assert s["cross"]["source"] == [t["text"] for t in s["tokens"]]
    rows = view.split("<tbody>")[1].split("</tbody>")[0].split("</tr>")[:-1]
    for row, weights in zip(rows, expected["weights"]):
        assert [c.split(">")[-1] for c in row.split("</td>")[:-1]] == [shown(100 * w, 0, lang) for w in weights]


def ref_cards(lang, words):
    """The cards of `words` in `lang`'s lexicon, as the tests read the lexicon files (tests/reference.py)."""
    from tests.reference import lexicon_cards
    cards = lexicon_cards(lang)
    return np.array([cards[w.lower()] for w in words])


@pytest.mark.parametrize("lang,source,target", PAIRS)
def test_like_with_like_aligns_translations_and_who_does_what_finds_the_subject(lang, source, target):
    """Hand-checked on the example pair: «Simile cerca simile» sends cat to gatto, sleeps to dorme, sofa to
    divano; «Chi fa cosa» sends the translation's verb to the sentence's subject."""
    align = {}
    for head in (3, 0):
        s, _ = cross_state(lang, source, target, head)
        c = s["cross"]
        align[head] = {w: c["source"][int(np.argmax(row))] for w, row in zip(c["target"], c["weights"])}
    pairs = {"cat": "gatto", "sleeps": "dorme", "sofa": "divano"}
    if lang == "en":
        pairs = {b: a for a, b in pairs.items()}
    for word, counterpart in pairs.items():
        assert align[3][word] == counterpart
    verb, subject = ("sleeps", "gatto") if lang == "it" else ("dorme", "cat")
    assert align[0][verb] == subject


def test_no_target_no_cross_and_an_unreadable_one_keeps_the_old():
    """Without a target the state's cross is null; an empty target is none."""
    page, _ = started([("path", "transformer"), ("step", "6"), ("s", "Il gatto dorme")], Lexicons())
    assert contract.build_state(page.settings, page.tokens, page.record)["cross"] is None
    page, _ = started([("path", "transformer"), ("step", "6"), ("s", "Il gatto dorme"), ("target", " ")], Lexicons())
    assert page.settings.target == ""


def test_the_command_line_reads_a_translation_and_runs_the_block_model():
    """`python -m app --target … --json` gives the cross-attention of the translation; `--mode model
    --arch block` the block model's stages, the last lens equal to the prediction's top letters."""
    import subprocess
    import sys
    out = subprocess.run([sys.executable, "-m", "app", "--target", "The cat sleeps", "Il gatto dorme", "--json"],
                         cwd=ROOT, capture_output=True, text=True, check=True)
    cross = json.loads(out.stdout)["cross"]
    assert cross["source"] == ["Il", "gatto", "dorme"] and cross["target"] == ["The", "cat", "sleeps"]
    assert all(abs(sum(row) - 1) < 1e-12 for row in cross["weights"])
    out = subprocess.run([sys.executable, "-m", "app", "--mode", "model", "--arch", "block", "il gatto", "--json"],
                         cwd=ROOT, capture_output=True, text=True, check=True)
    got = json.loads(out.stdout)["model"]
    assert [s["name"] for s in got["stages"]] == ["embed", "attn1", "ffn1", "attn2", "ffn2"]
    assert [c for c, _ in got["lens"][-1]] == [c for c, _ in got["top"][-1]]


def test_the_terminal_prints_the_block_and_the_alignment():
    """Without --json the terminal prints the block model's stream with numpy's ‖x‖ at each stage, and
    with --target the alignment, a row for each word of the translation."""
    import subprocess
    import sys
    out = subprocess.run([sys.executable, "-m", "app", "--mode", "model", "--arch", "block", "ilgattodorme",
                          "--focus", "5", "--lang", "en"], cwd=ROOT, capture_output=True, text=True, check=True).stdout
    assert "The residual stream" in out and "LayerNorm, by hand" in out and "The logit lens" in out
    for stage in ref.block_forward(weights(CONFIG["checkpoints"][-1]["step"]), ids_of("ilgattodorme"))[2]:
        assert f"{np.linalg.norm(stage[5]):.3f}" in out
    out = subprocess.run([sys.executable, "-m", "app", "Il gatto dorme", "--target", "The cat sleeps", "--focus", "1"],
                         cwd=ROOT, capture_output=True, text=True, check=True).stdout
    rows = [line.split() for line in out.splitlines() if line.split()[:1] in (["The"], ["cat"], ["sleeps"])]
    assert [r[0] for r in rows] == ["The", "cat", "sleeps"]
    assert all(sum(int(v) for v in r[1:]) in (99, 100, 101) for r in rows)


@pytest.mark.parametrize("arch", ("ssm", "hybrid", "block"))
def test_the_explorer_in_model_mode_draws_every_arch(arch):
    """A link to model mode with another arch opens the explorer whole: its views drawn (the generation
    lab's among them), no error said in place of them."""
    page, html = started([("mode", "model"), ("arch", arch), ("s", "abcabc")], Lexicons())
    assert page.settings.arch == arch
    assert 'id="view-predictions"' in html and 'id="view-generation"' in html
    assert "Traceback" not in html and 'class="error"' not in html


def test_the_positions_line_gives_the_running_models_own_size():
    """Under arch=block the line on where order comes from gives the block model's numbers per position
    (its d_model), not the page's model's."""
    page, html = started([("mode", "model"), ("arch", "block"), ("s", "abcabc"), ("lang", "en")], Lexicons())
    ours, pages = CONFIG["d_model"], ref.config()["d_model"]
    assert ours != pages
    assert f"{ours} numbers per position" in html and f"{pages} numbers per position" not in html


def test_a_notebook_shows_the_block_and_a_translation_with_nothing_to_press():
    """explore(arch="block") shows the stream, LayerNorm, FFN units and lens with numpy's ‖x‖ at each stage;
    explore(target=…) shows the alignment; neither has a box or a button."""
    from app.notebook import explore
    x = explore("ilgattodorme", focus=5, mode="model", arch="block", lang="en")
    html = x._repr_html_()
    for view_id in ("block-stream", "block-ln", "block-ffn", "block-lens"):
        assert f'id="view-{view_id}"' in html
    stages = ref.block_forward(weights(CONFIG["checkpoints"][-1]["step"]), ids_of("ilgattodorme"))[2]
    for stage in stages:
        assert f"{np.linalg.norm(stage[5]):.3f}" in html
    y = explore("Il gatto dorme", target="The cat sleeps", focus=1, lang="it")
    html = y._repr_html_()
    assert "cross-table" in html and "The" in html and "sleeps" in html
    for doc in (x._repr_html_(), html):
        assert "<input" not in doc and "<button" not in doc and "<script" not in doc
