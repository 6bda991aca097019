"""The page's model's other architectures (`arch`: ssm, hybrid; docs/model.md, "Other
architectures"): their forward passes against the tests' numpy and PyTorch's, the selective layer
as a state read word by word, `model.copy` against a measure of the tests' own, the copy view and
the path's step "who can still copy", the command line."""

import json
import random
from decimal import ROUND_HALF_UP, Decimal
import subprocess
import sys

import numpy as np
import pytest

from app import contract, model, settings as schema
from app.labs import beyond
from app.labs.beyond import copy as copy_view, path as beyond_path
from app.lexicon import load_lexicon
from app.lexicon import Lexicons
from tests import model_reference as ref
from tests.labs.beyond.test_page import section, started
from tests.reference import ROOT

ARCHS = ("ssm", "hybrid")
LETTERS = "abcdefghijklmnopqrstuvwxyz"
FIXTURE = json.loads((ROOT / "tests" / "data" / "model_arch_torch.json").read_text(encoding="utf-8"))["cases"]
LEXICONS = {lang: load_lexicon(lang) for lang in ("it", "en")}


def ids_of(letters):
    return [0] + [1 + LETTERS.index(c) for c in letters]


def three_steps(arch):
    """The first, the middle and the last kept checkpoint of `arch`."""
    steps = [c["step"] for c in ref.config(arch)["checkpoints"]]
    return steps[0], steps[len(steps) // 2], steps[-1]


def file_of(arch, step):
    return next(c["file"] for c in ref.config(arch)["checkpoints"] if c["step"] == step)


def state(text, arch, lang="en", **extra):
    settings = schema.Settings(sentence=text, mode="model", lang=lang, arch=arch, **extra)
    return contract.build_state(settings, [], contract.compute(settings, []))


def test_each_arch_is_the_documented_shape():
    """ssm is selective in both layers, hybrid in layer 1 with attention in layer 2, each head's
    state d_key × d_head numbers, their checkpoints kept at the page's model's steps."""
    page = [c["step"] for c in ref.config()["checkpoints"]]
    for arch, kinds in (("ssm", ["selective", "selective"]), ("hybrid", ["selective", "attention"])):
        config = ref.config(arch)
        assert config["arch"] == arch and config["layers"] == kinds
        assert config["d_state"] == config["d_key"] * config["d_head"]
        assert [c["step"] for c in config["checkpoints"]] == page
        assert [layer["kind"] for layer in ref.weights(file_of(arch, page[-1]), arch)["layers"]] == kinds


@pytest.mark.parametrize("arch", ARCHS)
def test_forward_pass_equals_numpy_on_three_checkpoints(arch):
    """Every mixing matrix and logit of the page's forward pass equals the tests' numpy one to 1e-9."""
    rng = random.Random(11)
    texts = ["abcdabc", "qwertyuiop" * 2, "".join(rng.choice(LETTERS) for _ in range(40))]
    for step in three_steps(arch):
        weights = ref.weights(file_of(arch, step), arch)
        ours = model.checkpoint(step, arch)
        for letters in texts:
            run = ours.run(ids_of(letters))
            patterns, logits = ref.forward(weights, ids_of(letters))
            for layer in range(2):
                np.testing.assert_allclose(run["attention"][layer], patterns[layer], rtol=0, atol=1e-9)
            np.testing.assert_allclose(run["logits"], logits, rtol=0, atol=1e-9)


def test_forward_pass_equals_pytorch_on_the_committed_weights():
    """PyTorch's float64 forward, written by `make model` on three checkpoints of each arch, equals
    the page's to 1e-9."""
    assert {case["arch"] for case in FIXTURE} == set(ARCHS)
    for case in FIXTURE:
        run = model.checkpoint(case["checkpoint"], case["arch"]).run(ids_of(case["letters"]))
        np.testing.assert_allclose(run["logits"], case["logits"], rtol=0, atol=1e-9)
        np.testing.assert_allclose(run["attention"], case["attention"], rtol=0, atol=1e-9)


@pytest.mark.parametrize("arch", ARCHS)
def test_a_selective_layer_is_a_state_read_word_by_word(arch):
    """Layer 1's heads keep S_i = a_i·S_{i−1} + Δ_i·k_i v_iᵀ (N × d_head numbers); q_iᵀS_i/√N is the
    matrix form's row z_i = (s·v)_i at every position, to 1e-12."""
    ours = model.checkpoint(model.steps(arch)[-1], arch)
    run = ours.run(ids_of("helloworldhelloworld"))
    layer = ours.layers[0]
    for h in range(ours.heads):
        q, k, v = (np.array(run[name][0][h]) for name in ("q", "k", "v"))
        delta = np.array(run["delta"][0][h])
        a = np.exp(-layer["a"][h] * delta)
        S = np.zeros((k.shape[1], v.shape[1]))
        for i in range(len(q)):
            S = a[i] * S + delta[i] * np.outer(k[i], v[i])
            np.testing.assert_allclose(q[i] @ S / np.sqrt(k.shape[1]), run["z"][0][h][i], rtol=0, atol=1e-12)
        assert S.size == ref.config(arch)["d_state"]


def test_the_copy_figures_are_what_the_models_measure():
    """`model.copy` holds, for lengths 2 to 26, each model's share of a repeat's letters copied right;
    the tests' own measure (numpy, other sequences) agrees within sampling error, and attention copies
    at every length (what the literature expects of it, and what was measured)."""
    copy = model.config()["copy"]
    assert copy["lengths"] == list(range(2, 27))
    rng = random.Random(5)
    for arch in ("attention", *ARCHS):
        figures = copy["accuracy"][arch]
        assert len(figures) == len(copy["lengths"]) and all(0 <= a <= 1 for a in figures)
        config = ref.config(None if arch == "attention" else arch)
        weights = ref.weights(config["checkpoints"][-1]["file"], None if arch == "attention" else arch)
        for L in (8, 14, 20, 26):
            right = total = 0
            for _ in range(24):
                s = "".join(rng.sample(LETTERS, L))
                logits = ref.forward(weights, ids_of(s + s))[1]
                guesses = logits[L + 1:2 * L].argmax(axis=1)  # the second copy's letters 2..L, each from the one before
                right += sum(LETTERS[g] == c for g, c in zip(guesses, s[1:]))
                total += L - 1
            assert abs(right / total - figures[L - 2]) < 0.12, (arch, L, right / total, figures[L - 2])
    assert min(copy["accuracy"]["attention"][2:]) >= 0.9


def test_the_state_says_which_model_runs_and_holds_the_copy_figures():
    """model.arch and model.layers name the model; model.copy is the training's figures; the
    prediction at each position is the arch's own argmax (numpy)."""
    for arch in ARCHS:
        s = state("abcabc", arch)
        assert s["model"]["arch"] == arch and s["model"]["layers"] == ref.config(arch)["layers"]
        copy = model.config()["copy"]
        assert s["model"]["copy"] == {"lengths": copy["lengths"], "accuracy": copy["accuracy"]}
        weights = ref.weights(ref.config(arch)["checkpoints"][-1]["file"], arch)
        logits = ref.forward(weights, ids_of("abcabc"))[1]
        assert s["model"]["next"] == [LETTERS[i] for i in logits.argmax(axis=1)]
    assert state("abcabc", "attention")["model"]["arch"] == "attention"


def test_the_positions_that_can_be_copied_are_hand_worked():
    """«<s> a b c x a b c»: after the second a (5) comes b as after the first; after b (6), c; after
    the second c (7) nothing follows; after x nothing is known: positions 5 and 6."""
    tokens = [model.START, *"abcxabc"]
    assert copy_view.copiable(tokens) == [(5, 1), (6, 2)]
    assert copy_view.copiable([model.START, *"abab"]) == [(3, 1)]
    assert copy_view.copiable([model.START, *"abcd"]) == []


@pytest.mark.parametrize("lang", ("it", "en"))
def test_the_copy_view_shows_the_figures_and_each_models_copy(lang):
    """The step's table holds model.copy as percentages; the student's letters get a row for each
    position that can be copied, with each model's prediction (numpy's argmax) marked right or wrong."""
    text = "qwertyuiop qwertyuiop"
    _, html = started([("lang", lang), ("path", "beyond"), ("step", "6"), ("mode", "model"), ("s", text)],
                      Lexicons())
    copy = model.config()["copy"]
    view = section(html, "model-copy")
    pct = "%"
    for n, L in enumerate(copy["lengths"]):
        row = view[view.index(f'data-length="{L}"'):]
        row = row[:row.index("</tr>")]
        for arch in ("attention", *ARCHS):
            tenths = (Decimal(repr(copy["accuracy"][arch][n])) * 100).quantize(Decimal("0.1"), ROUND_HALF_UP)
            shown = str(tenths).replace(".", "," if lang == "it" else ".") + pct  # (half up, as the page writes)
            assert shown in row
    tokens = [model.START, *text.replace(" ", "")]
    where = copy_view.copiable(tokens)
    assert len(where) == 9  # (the second copy's letters 2..10, each after the one before)
    for arch in ("attention", *ARCHS):
        weights = ref.weights(ref.config(None if arch == "attention" else arch)["checkpoints"][-1]["file"],
                              None if arch == "attention" else arch)
        guesses = ref.forward(weights, ids_of("qwertyuiop" * 2))[1].argmax(axis=1)
        right = sum(LETTERS[guesses[i]] == tokens[i + 1] for i, _ in where)
        said = {"it": f"{right} giuste su 9", "en": f"{right} right of 9"}[lang]
        assert said in view, (arch, said)
        for i, _ in where:
            row = view[view.index(f'data-row="{i}"'):]
            cell = row[row.index(f'class="arch-{arch}"'):]
            cell = cell[cell.index(">") + 1:]
            assert cell.startswith(LETTERS[guesses[i]] + " ")
    assert 'name="arch"' in view and view.count("<polyline") == 3


@pytest.mark.parametrize("lang", ("it", "en"))
def test_the_copy_steps_answer_quotes_the_chart(lang):
    """Step 6's answer quotes the chart's first and last lengths and what the SSM keeps, as on screen."""
    settings = schema.Settings(sentence=beyond_path.COPY_EXAMPLE, mode="model", lang=lang, path="beyond", step=6)
    said = beyond_path.answer(beyond_path.STEPS[5], settings, [], None)
    copy = model.config()["copy"]
    from app.i18n import percent
    for arch in ("attention", *ARCHS):
        assert percent(copy["accuracy"][arch][0], lang, "bar") in said
        assert percent(copy["accuracy"][arch][-1], lang, "bar") in said
    assert f"L = {copy['lengths'][0]}" in said and f"L = {copy['lengths'][-1]}" in said


def test_the_command_line_runs_an_arch():
    """`python -m app --mode model --arch ssm --json` gives the ssm model's predictions."""
    out = subprocess.run([sys.executable, "-m", "app", "--mode", "model", "--arch", "ssm", "--json", "abcabc"],
                         cwd=ROOT, capture_output=True, text=True, check=True)
    got = json.loads(out.stdout)["model"]
    assert got["arch"] == "ssm" and got["next"] == state("abcabc", "ssm")["model"]["next"]


def test_an_arch_writes_no_letters_with_a_cache():
    """Under ssm the model keeps a state, no KV cache: the generation lab's `generate` writes nothing."""
    s = state("abcabc", "ssm", generate=3)
    assert s["model"]["generated"] == [] and s["model"]["cache"] is None
    assert beyond.LAB.settings[-1].attr == "arch"
