"""The picture for slides (app/picture.py): an SVG that parses, holds the words, the bars' and the
matrix's percentages by the page's rule (checked with numpy), the sentence and the settings."""

import xml.etree.ElementTree as ET

import numpy as np

from app import contract, picture, render
from tests.reference import W_Q, attention_matrix, lexicon_cards, rule_percent

NS = "{http://www.w3.org/2000/svg}"


def draw(params, lang="it"):
    settings, tokens, record, notes = contract.from_link(params)
    assert notes == []
    row = contract.selected_row(settings, record)
    tokens = contract.shown_tokens(settings, tokens, record)  # (matrix mode: k1, k2, …)
    svg = picture.picture_svg(settings, tokens, record, row, render.row_names(settings, tokens, record), lang)
    return settings, ET.fromstring(svg)


def texts(root):
    return [t.text for t in root.iter(NS + "text")]


def test_the_picture_holds_the_bars_and_the_matrix_numpy_computes():
    """Default example, mask on: every bar's percentage and every matrix cell are numpy's, by the page's rule."""
    settings, root = draw({"mask": ["1"], "focus": ["4"]})
    words = settings.sentence.split()
    known = lexicon_cards("it")
    x = np.array([known[w.lower()] for w in words])
    m = attention_matrix(x @ np.array(W_Q), x, x, mask=True)
    shown = texts(root)
    assert all(w in shown for w in words)
    bars = [t for t in shown if t.endswith("%")]
    assert bars == [rule_percent(w, 0, "it") for w in m["weights"][4][:4]]  # the four words before it
    cells = [t for t in shown if t.isdigit() or t in ("·", "—")]
    expected = []
    for i in range(len(words)):
        for j in range(len(words)):
            allowed = m["allowed"][i][j]
            expected.append(rule_percent(m["weights"][i][j], 0, "it")[:-1] if allowed else "·" if j > i else "—")
    assert cells == expected
    assert int(root.get("width")) == picture.WIDTH and int(root.get("height")) > 300
    caption = " ".join(shown[-3:])
    assert settings.sentence in caption and "Maschera causale: sì" in caption


def test_markup_in_the_sentence_is_text_in_the_picture():
    """A sentence with <b> and & is written, not drawn: the SVG still parses and shows it as typed."""
    _, root = draw({"s": ['Il <b>gatto</b> & "io"'], "lang": ["it"]})
    assert any('<b>gatto</b> & "io"' in t for t in texts(root))


def test_a_long_text_says_its_matrix_is_in_the_csv_and_matrix_mode_names_its_rows():
    """Past 40 words the picture leaves the matrix to the CSV and draws the 20 bars looked at most;
    matrix mode labels q1…, k1… and the shapes."""
    long = " ".join(["il gatto dorme"] * 15)
    _, root = draw({"s": [long], "focus": ["2"]}, "it")
    shown = texts(root)
    assert any("CSV" in t for t in shown) and not any(t.isdigit() for t in shown)  # (no cells)
    assert len([t for t in shown if t.endswith("%")]) == 20 and int(root.get("height")) < 1200
    _, root = draw({"mode": ["matrix"], "seed": ["7"], "mask": ["1"]}, "en")
    shown = texts(root)
    assert "q1" in shown and "k8" in shown and any("Q 8×4" in t for t in shown)


def test_control_characters_in_a_sentence_leave_the_picture_well_formed():
    """A pasted vertical tab or control character is left out: the SVG still parses, the words stay."""
    _, root = draw({"s": ["Il gatto\x0b dorme\x01 qui"]})
    assert any("gatto" in t and "dorme" in t for t in texts(root))


def test_a_very_long_word_is_cut_to_its_column():
    """A 40-letter word is shown cut with "…" in the bars and the matrix, never past the picture's edge."""
    word = "precipitevolissimevolmente" * 2
    _, root = draw({"s": [f"il {word} dorme"], "focus": ["2"]})
    shown = texts(root)
    assert word not in " ".join(shown[:-3]) and any(t.startswith("precipitevol") and t.endswith("…") for t in shown)
