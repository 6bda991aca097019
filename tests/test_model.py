"""The trained model (mode=model): its forward pass against numpy and PyTorch, the induction head
it learned, its letters, its state JSON, links, host messages and the command line."""

import json
import random
import subprocess
import sys

import jsonschema
import numpy as np
import pytest

from app import contract, model, settings as schema
from app.lexicon import load_lexicon
from app.render import render_analysis
from tests import model_reference as ref
from tests.reference import ROOT

CONFIG = ref.config()
STEPS = [c["step"] for c in CONFIG["checkpoints"]]
LETTERS = "abcdefghijklmnopqrstuvwxyz"
SCHEMA = json.loads((ROOT / "docs" / "state-v2.schema.json").read_text(encoding="utf-8"))
LEXICONS = {lang: load_lexicon(lang) for lang in ("it", "en")}


def ids_of(letters):
    return [0] + [1 + LETTERS.index(c) for c in letters]


def repeated(count, length=9, seed=2026):
    """Held-out sequences: `length` distinct random letters typed twice, nothing around them."""
    rng = random.Random(seed)
    return ["".join(rng.sample(LETTERS, length)) * 2 for _ in range(count)]


def sequences():
    rng = random.Random(7)
    return ["abcdabc", "abcdefghiabcdefghi", "".join(rng.choice(LETTERS) for _ in range(39)), "z"]


def test_the_committed_model_is_the_documented_shape():
    """model.json says what the page relies on: the letters a–z as tokens, a start token, two layers."""
    assert CONFIG["vocab"][0] == model.START and CONFIG["vocab"][1:] == list(LETTERS)
    assert CONFIG["outputs"] == list(LETTERS)
    assert CONFIG["n_layers"] == 2 and CONFIG["positions"] == "sinusoidal"
    assert len(STEPS) >= 10 and STEPS == sorted(STEPS) and STEPS[0] == 0
    assert (ROOT / "model" / CONFIG["checkpoints"][-1]["file"]).stat().st_size <= 200_000


@pytest.mark.parametrize("step", STEPS)
def test_forward_pass_equals_numpy_on_every_checkpoint(step):
    """Every head's weights and every logit equal the tests' own numpy forward pass to 1e-9."""
    weights = ref.weights(next(c["file"] for c in CONFIG["checkpoints"] if c["step"] == step))
    ours = model.checkpoint(step)
    for letters in sequences():
        run = ours.run(ids_of(letters))
        patterns, logits = ref.forward(weights, ids_of(letters))
        for layer in range(CONFIG["n_layers"]):
            np.testing.assert_allclose(run["attention"][layer], patterns[layer], rtol=0, atol=1e-9)
        np.testing.assert_allclose(run["logits"], logits, rtol=0, atol=1e-9)


def test_forward_pass_equals_pytorch_on_the_committed_weights():
    """The fixture `make model` wrote from PyTorch's own forward pass matches the page's to 1e-9."""
    fixture = json.loads((ROOT / "tests" / "data" / "model_torch.json").read_text(encoding="utf-8"))
    assert len(fixture["cases"]) >= 6
    for case in fixture["cases"]:
        run = model.checkpoint(case["checkpoint"]).run(ids_of(case["letters"]))
        np.testing.assert_allclose(np.array(run["attention"]), np.array(case["attention"]), rtol=0, atol=1e-9)
        np.testing.assert_allclose(np.array(run["logits"]), np.array(case["logits"]), rtol=0, atol=1e-9)


def test_every_row_sums_to_one_and_nothing_looks_ahead():
    """Softmax rows sum to 1 and the causal mask holds: no weight after the diagonal."""
    run = model.checkpoint(STEPS[-1]).run(ids_of(sequences()[2]))
    for layer in run["attention"]:
        for pattern in layer:
            a = np.array(pattern)
            np.testing.assert_allclose(a.sum(axis=1), 1.0, rtol=0, atol=1e-12)
            assert np.all(np.triu(a, k=1) == 0.0)
    np.testing.assert_allclose(np.array(run["probs"]).sum(axis=1), 1.0, rtol=0, atol=1e-12)


def induction_figures(step, texts):
    """(mean weight of the induction head on the token after the earlier occurrence, next-token
    accuracy) over the second repeat of each text (9 letters typed twice: positions 10…17)."""
    layer, head = CONFIG["heads"]["induction"]
    weights, right, total = [], 0, 0
    for letters in texts:
        ids = ids_of(letters)
        patterns, logits = ref.forward(ref.weights(next(c["file"] for c in CONFIG["checkpoints"]
                                                        if c["step"] == step)), ids)
        for i in range(10, 18):
            weights.append(patterns[layer][head][i][i - 8])
            right += int(np.argmax(logits[i])) + 1 == ids[i + 1]
            total += 1
    return float(np.mean(weights)), right / total


def test_the_last_checkpoint_has_an_induction_head_and_the_first_has_none():
    """On held-out repeats the trained model copies (weight ≥ 0.5, accuracy ≥ 90%); at step 0 it cannot."""
    texts = repeated(40)
    weight, accuracy = induction_figures(STEPS[-1], texts)
    assert weight >= 0.5 and accuracy >= 0.9, (weight, accuracy)
    weight, accuracy = induction_figures(STEPS[0], texts)
    assert weight < 0.5 and accuracy < 0.9, (weight, accuracy)


def test_the_induction_head_looks_from_the_second_c_to_the_d():
    """In "a b c d a b c" the induction head looks from the second c (7) to the d (4) most."""
    record = model.compute("a b c d a b c", None)
    layer, head = record.induction_head
    row = record.attention[layer][head][7]
    assert max(range(8), key=row.__getitem__) == 4
    assert record.circuit(7)[:2] == (3, 4)
    assert record.next[7] == "d"


def test_the_previous_token_head_looks_one_back():
    """The head named previous-token puts most weight on the position just before, on held-out text."""
    layer, head = CONFIG["heads"]["previous_token"]
    run = model.checkpoint(STEPS[-1]).run(ids_of(sequences()[2]))
    a = run["attention"][layer][head]
    assert np.mean([a[i][i - 1] for i in range(2, len(a))]) >= 0.5


def test_spaces_only_separate_letters_and_other_characters_are_skipped():
    """"a b c" and "abc" are the same tokens; capitals are letters; anything else is skipped once."""
    assert model.letters("a b c", 63) == model.letters("abc", 63) == (["a", "b", "c"], [], 0)
    assert model.letters("A-b!c-è", 63) == (["a", "b", "c"], ["-", "!", "è"], 0)
    assert model.letters("ab" * 40, 63)[2] == 17
    assert model.letters("İ ß 3", 63) == ([], ["İ", "ß", "3"], 0)


def state_for(**params):
    settings, tokens, record, notes = contract.from_link({k: [v] for k, v in params.items()})
    return settings, record, notes, contract.build_state(settings, tokens, record)


def test_the_state_of_model_mode_follows_the_contract():
    """mode=model's state validates, its per-position arrays share one length, numbers match numpy."""
    settings, record, notes, state = state_for(mode="model", s="a b c d a b c", focus="7")
    assert notes == []
    jsonschema.validate(state, SCHEMA)
    m = state["model"]
    n = len(m["tokens"])
    assert m["tokens"] == ["<s>", "a", "b", "c", "d", "a", "b", "c"]
    assert len(m["next"]) == len(m["top"]) == n and state["focus"] == 7
    assert m["checkpoint"] == STEPS[-1]
    patterns, logits = ref.forward(ref.weights(CONFIG["checkpoints"][-1]["file"]), ids_of("abcdabc"))
    for layer in range(2):
        for head in range(CONFIG["n_heads"]):
            assert len(m["attention"][layer][head]) == n
            np.testing.assert_allclose(m["attention"][layer][head], patterns[layer][head], rtol=0, atol=1e-9)
    probs = np.exp(logits - logits.max(axis=1, keepdims=True))
    probs /= probs.sum(axis=1, keepdims=True)
    assert m["next"] == [LETTERS[int(i)] for i in np.argmax(logits, axis=1)]
    for i, top in enumerate(m["top"]):
        assert [t for t, _ in top] == [LETTERS[int(j)] for j in np.argsort(-probs[i])[:3]]
        np.testing.assert_allclose([p for _, p in top], np.sort(probs[i])[::-1][:3], rtol=0, atol=1e-12)
    assert state["rows"] == [] and state["w_q"] is None and state["matrix"] is None and state["step"] is None


def test_a_checkpoint_in_a_link_is_the_nearest_kept_one_and_round_trips():
    """checkpoint=N shows the kept checkpoint nearest to N, and the link written back says it."""
    middle = STEPS[len(STEPS) // 2]
    settings, record, notes, state = state_for(mode="model", s="abcabc", checkpoint=str(middle + 1))
    assert notes == [] and state["model"]["checkpoint"] == middle == record.step
    pairs = dict(schema.param_pairs(settings))
    assert pairs["checkpoint"] == str(middle) and pairs["mode"] == "model" and pairs["s"] == "abcabc"
    again, _ = schema.parse_params({k: [v] for k, v in pairs.items()}, LEXICONS)
    assert again == settings
    _, _, notes, _ = state_for(mode="model", checkpoint="soon")
    assert [n.key for n in notes] == ["link_value_bad"]


def test_a_host_message_sets_the_mode_the_letters_and_the_checkpoint():
    """attention:set {mode, sentence, checkpoint} draws that checkpoint; null goes back to the last."""
    start = schema.default_settings()
    settings, tokens, warnings, notes = schema.host_update(
        start, [], {"mode": "model", "sentence": "xyzxyz", "checkpoint": STEPS[1], "focus": 4}, LEXICONS)
    assert warnings == [] and notes == []
    assert (settings.mode, settings.sentence, settings.checkpoint, settings.focus) == ("model", "xyzxyz", STEPS[1], 4)
    assert [t.text for t in tokens] == ["<s>", "x", "y", "z", "x", "y", "z"]
    settings, _, warnings, _ = schema.host_update(settings, tokens, {"checkpoint": None}, LEXICONS)
    assert settings.checkpoint is None and contract.compute(settings, tokens).step == STEPS[-1]
    _, _, warnings, _ = schema.host_update(settings, tokens, {"checkpoint": "late"}, LEXICONS)
    assert warnings and "checkpoint" in warnings[0]


def test_unknown_characters_get_a_note_and_the_text_is_kept():
    """Characters that are no letter are skipped with a note; the link keeps what was typed."""
    settings, record, notes, state = state_for(mode="model", s="ab?c 3!", lang="en")
    assert settings.sentence == "ab?c 3!" and dict(schema.param_pairs(settings))["s"] == "ab?c 3!"
    assert state["model"]["tokens"] == ["<s>", "a", "b", "c"] and record.skipped == ["?", "3", "!"]
    html = render_analysis(settings, [], record, None)
    assert "skipped “?” “3” “!”" in html
    settings, record, notes, _ = state_for(mode="model", s="123")
    assert [n.key for n in notes] == ["link_sentence_bad"] and settings.sentence == "a b c d a b c"


def test_choosing_the_model_and_back_brings_each_mode_its_example():
    """The model starts on its letters; back to sentences, the first example returns; a step is left."""
    settings = schema.default_settings("en").copy(step=3)
    change = schema.Change(None, LEXICONS)
    model_settings = schema.BY_ATTR["mode"].apply(settings, "model", change)
    assert (model_settings.sentence, model_settings.focus, model_settings.step) == ("a b c d a b c", 7, None)
    assert [t.text for t in change.tokens][:3] == ["<s>", "a", "b"]
    back = schema.BY_ATTR["mode"].apply(model_settings, "sentence", change)
    assert back.sentence == "The cat sat on the mat and slept" and change.tokens[0].text == "The"


def test_the_files_cannot_be_read_and_the_page_says_so(monkeypatch, tmp_path):
    """Without the model's files the analysis says so, and the state's `model` is null."""
    monkeypatch.setattr(model, "FOLDER", str(tmp_path))
    model.config.cache_clear()
    model.checkpoint.cache_clear()
    model.compute.cache_clear()
    try:
        settings = schema.switch_mode(schema.default_settings("en"), "model")
        tokens, _ = schema.model_tokens(settings.sentence)
        record = contract.compute(settings, tokens)
        assert record is None
        assert "could not be loaded" in render_analysis(settings, tokens, record, None)
        state = contract.build_state(settings, tokens, record)
        jsonschema.validate(state, SCHEMA)
        assert state["model"] is None
    finally:
        model.config.cache_clear()
        model.checkpoint.cache_clear()
        model.compute.cache_clear()


def test_the_command_line_gives_the_same_numbers():
    """python -m app --mode model prints the predictions, and --json the state the page publishes."""
    run = subprocess.run([sys.executable, "-m", "app", "--mode", "model", "a b c d a b c", "--focus", "7",
                          "--lang", "en"], capture_output=True, text=True, cwd=ROOT, check=True)
    assert "induction head" in run.stdout and "Right predictions:" in run.stdout
    record = model.compute("a b c d a b c", None)
    assert f"predicts “d”" in run.stdout and record.next[7] == "d"
    out = subprocess.run([sys.executable, "-m", "app", "--mode", "model", "a b c a b", "--json"],
                         capture_output=True, text=True, cwd=ROOT, check=True)
    state = json.loads(out.stdout)
    assert state["model"]["tokens"] == ["<s>", "a", "b", "c", "a", "b"]
    assert state == state_for(mode="model", s="a b c a b")[3]


def test_a_notebook_shows_the_model_with_the_same_numbers():
    """explore(mode="model") gives the record and a static view: letters, path, predictions, two heads."""
    from app.notebook import explore
    x = explore("a b c d a b c", focus=7, mode="model", lang="en")
    assert x.record.next == model.compute("a b c d a b c", None).next
    html = x._repr_html_()
    assert "<input" not in html and "<script" not in html
    assert "induction head" in html and "previous-token head" in html and "Right predictions" in html
    assert 'selected" data-index="7"' in html


def select(row_html, selected):
    """A head's row as static/page.js `pickRow` leaves it: its selection on or off, nothing else."""
    row_html = row_html.replace(' class="selected">', ">", 1).replace('aria-pressed="true"', 'aria-pressed="false"', 1)
    if selected:
        row_html = row_html.replace(">", ' class="selected">', 1).replace('aria-pressed="false"', 'aria-pressed="true"', 1)
    return row_html


@pytest.mark.parametrize("before, after", [(7, 6), (6, 7), (3, 7), (7, 7), (0, 5)])
def test_a_pick_patched_in_place_draws_every_head_as_if_drawn_whole(before, after):
    """A click on another position redraws only the rows whose path cell comes or goes and moves
    the selection in place: every head's table then reads as a table drawn for the new position."""
    from app.views import model as view
    record = model.compute("a b c d a b c", None)
    shape = [(layer, head) for layer in range(len(record.attention)) for head in range(len(record.attention[layer]))]
    marks = view.path_cells(record, before), view.path_cells(record, after)
    shown = {key: [view.head_row(record, *key, i, before, "en", marks[0].get(key)) for i in range(record.n_q)]
             for key in shape}
    for layer, head, row, html in view.moved_path(record, before, after, "en"):
        shown[layer, head][row] = html
    for key in shape:
        patched = [select(html, i == after) if i in (before, after) else html for i, html in enumerate(shown[key])]
        assert patched == [view.head_row(record, *key, i, after, "en", marks[1].get(key))
                           for i in range(record.n_q)], key
    assert marks[0] != marks[1] or before == after  # (the cases move the path)


def test_a_link_to_a_position_the_letters_do_not_have_says_position():
    """focus=9 on three letters: no position picked, and the note speaks of a position (not a word)
    in both languages."""
    from app.i18n import text
    settings, _, _, notes = contract.from_link({"mode": ["model"], "s": ["a b c"], "focus": ["9"]})
    assert settings.focus is None and [n.key for n in notes] == ["link_focus_bad_model"]
    assert "posizione numero «9»" in text("it", notes[0].key, **notes[0].params)
    assert "position number “9”" in text("en", notes[0].key, **notes[0].params)
