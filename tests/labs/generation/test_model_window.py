"""A sliding window in model mode (docs/DESIGN.md, "Generation"): the full pass, the heads' tables,
the copying it breaks (app/views/model_window.py), and the window left behind on a mode change."""

import re

import numpy as np
import pytest

from app import contract, generate, model, settings as schema
from app.lexicon import load_lexicon
from app.render import render_analysis
from app.labs.generation import model_window
from tests import model_reference as ref

CONFIG = ref.config()
STEPS = [c["step"] for c in CONFIG["checkpoints"]]
LETTERS = "abcdefghijklmnopqrstuvwxyz"
LEXICONS = {lang: load_lexicon(lang) for lang in ("it", "en")}
REPEAT = "a b c d e f g h a b c d e f g h"


def ids_of(letters):
    return [0] + [1 + LETTERS.index(c) for c in letters]


def plain(html):
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", html))


def page(**params):
    """(settings, record, the analysis HTML) of a link's parameters, as the page computes them."""
    settings, notes = schema.parse_params({k: [str(v)] for k, v in params.items()}, LEXICONS)
    assert notes == []
    record = contract.compute(settings, None)
    return settings, record, render_analysis(settings, None, record, None)


@pytest.mark.parametrize("step", [STEPS[0], STEPS[len(STEPS) // 2], STEPS[-1]])
@pytest.mark.parametrize("window", [0, 1, 3, 10])
def test_the_windowed_pass_equals_numpy_with_the_same_mask(step, window):
    """Every head's weights and every logit under a window w equal numpy's pass with |i − j| ≤ w, to 1e-9."""
    weights = ref.weights(next(c["file"] for c in CONFIG["checkpoints"] if c["step"] == step))
    for letters in ("abcdefghabcdefgh", "zyxwvutzyxwvut", "abcabcabcabcabcabcabcabcabcabcabcabc"):
        run = model.checkpoint(step).run(ids_of(letters), window)
        patterns, logits = ref.forward(weights, ids_of(letters), window)
        for layer in range(CONFIG["n_layers"]):
            np.testing.assert_allclose(run["attention"][layer], patterns[layer], rtol=0, atol=1e-9)
        np.testing.assert_allclose(run["logits"], logits, rtol=0, atol=1e-9)


def test_a_window_as_long_as_the_text_changes_nothing():
    """w ≥ n − 1 leaves every position all it saw: the same numbers as no window, bit for bit."""
    letters = ids_of("abcdefgh")
    weights = model.checkpoint(STEPS[-1])
    assert weights.run(letters, len(letters) - 1)["probs"] == weights.run(letters)["probs"]


def test_the_cache_under_a_window_gives_the_windowed_full_pass():
    """With a window the written letters' probabilities with the cache equal the windowed full pass's, to 1e-12."""
    record = generate.compute("a b c d e f g h a b c", None, 6, 3)
    for step in record.generation.cache.steps:
        np.testing.assert_allclose(step.probs, record.probs[step.position], rtol=0, atol=1e-12)
        for layer in range(2):
            for head, row in enumerate(step.attention[layer]):
                full = record.attention[layer][head][step.position]
                assert full[:step.start] == [0.0] * step.start
                np.testing.assert_allclose(row, full[step.start:step.position + 1], rtol=0, atol=1e-12)


def test_a_window_of_3_breaks_the_copy_on_the_second_repeat():
    """On «a … h a … h» the full model predicts the 7 copies right, with w = 3 none: each is 7 back."""
    full = model.compute(REPEAT, None)
    windowed = model.compute(REPEAT, None, 3)
    places = model_window.copies(full, len(full.tokens))
    assert [i for i, _ in places] == list(range(9, 16)) and all(i - k == 7 for i, k in places)
    tokens = full.tokens
    assert model_window.score(full, places, tokens) == 7
    assert model_window.score(windowed, places, tokens) == 0
    # and with a window wider than the distance, the copy comes back
    assert model_window.score(model.compute(REPEAT, None, 8), places, tokens) == 7


def test_the_view_puts_both_accuracies_and_the_reach_side_by_side():
    """The step's view says 7 of 7 without a window and 0 with w = 3, marks every copy out of reach,
    and gives 2 layers × 3 = 6 as the stacked reach."""
    settings, record, html = page(mode="model", s=REPEAT, path="generation", step=6, window=3)
    assert settings.window == 3 and record.window == 3
    section = re.search(r'<section id="view-model-window".*?</section>', html, re.S).group(0)
    text = plain(section)
    assert "(7 posizioni)" in text and "giusto 7 (100,0%)" in text and "w = 3: 0 (0,0%)" in text
    assert text.count(" no ") == 7 and "2 · w = 6" in text
    assert 'id="model-window-w"' in section and 'value="3"' in section


def test_the_view_says_what_each_model_writes():
    """With letters written, the full model writes the copy and the windowed one does not."""
    _, record, html = page(mode="model", s="a b c d e f g h a b c", path="generation", step=6, window=3, generate=5,
                           lang="en")
    text = plain(re.search(r'<section id="view-model-window".*?</section>', html, re.S).group(0))
    full = generate.compute("a b c d e f g h a b c", None, 5, None).generation.written
    assert full == list("defgh")
    assert f"Without a window the model writes “{' '.join(full)}”" in text
    assert f"it writes “{' '.join(record.generation.written)}”" in text and record.generation.written != full


def test_the_heads_tables_mark_the_cells_outside_the_window():
    """Under w = 2 row i of every head's table shows × for the i − 2 positions before its window, and says why."""
    _, record, html = page(mode="model", s="a b c d e f", window=2)
    table = re.search(r'<div class="model-head[^"]*" data-head="1-3">.*?</table>', html, re.S).group(0)
    last = re.findall(r"<tr.*?</tr>", table, re.S)[-1]  # position 6: sees 4, 5, 6
    assert last.count('class="skipped">×') == 4
    assert "fuori dalla finestra w = 2" in plain(html)


def test_the_circuit_says_the_path_breaks_outside_the_window():
    """The induction path from the second «c» names position 4 as outside a window of 3."""
    _, record, _ = page(mode="model", s="a b c d e f g h a b c", window=3, focus=11)
    from app.views.model import render_circuit
    said = plain(render_circuit(record, 11, "en"))
    assert "position 4 is outside, the path breaks" in said


def test_leaving_model_mode_takes_the_window_away():
    """A window set on the trained model does not follow the student to the designed heads, nor back."""
    settings, _ = schema.parse_params({"mode": ["model"], "window": ["3"]}, LEXICONS)
    assert settings.window == 3
    assert schema.switch_mode(settings, "sentence").window is None
    cost = schema.parse_params({"pattern": ["window"], "window": ["2"]}, LEXICONS)[0]
    assert schema.switch_mode(cost, "model").window is None


def test_an_empty_window_box_means_no_window_and_a_bad_one_says_why():
    """The view's box: empty is none; 'x', −1, 2.5 or past the longest text is refused with the page's note."""
    setting = schema.BY_ATTR["window"]

    class Box:
        def __init__(self, value):
            self.value = value

    assert setting.from_control(Box("")) is None
    assert setting.from_control(Box(" 4 ")) == 4
    for bad in ("x", "-1", "2.5", str(schema.MAX_LIMIT + 1)):
        with pytest.raises(schema.Bad) as refused:
            setting.from_control(Box(bad))
        assert isinstance(refused.value.note, schema.Note)


def test_the_window_compares_a_variant_with_itself_without_a_window():
    """With the multi-query variant chosen, the "no window" column is that variant's own predictions."""
    settings, record, html = page(mode="model", s=REPEAT, path="generation", step=6, window=3, kv_heads=1)
    assert record.model.kv_heads == 1
    full = model_window.full_record(settings)
    assert full.model.kv_heads == 1 and full.window is None
    assert full.next == model.compute(REPEAT, None, None, 1).next
    text = plain(re.search(r'<section id="view-model-window".*?</section>', html, re.S).group(0))
    right = model_window.score(full, model_window.copies(full, len(full.tokens)), full.tokens)
    assert f"giusto {right} (" in text
