"""Every chart a student can read: the cost lab's curve and the trained model's training curve each
have ticks on both axes, a title for each axis and a key naming each line, in both languages; the
cost chart's n² line is drawn over its pattern's, so both show where they meet."""

import re

from tests.test_glossary import step_html

# {chart's svg class: the link that shows it}
CHARTS = {"cost-chart": [("path", "cost"), ("step", "1")], "curve": [("mode", "model")]}
TITLES = {"cost-chart": {"it": ("parole n", "celle calcolate"), "en": ("words n", "cells computed")},
          "curve": {"it": ("passo di addestramento", "nat"), "en": ("training step", "nats")}}


def svg(klass, lang):
    _, whole = step_html([("lang", lang), *CHARTS[klass]])
    return re.search(rf'<svg class="{klass}".*?</svg>', whole, re.S).group(0)


def ticks(drawing):
    """(x positions of ticks under the plot, y positions of ticks left of it), from their labels."""
    labels = re.findall(r'<text class="tick" x="([\d.]+)" y="([\d.]+)" text-anchor="(\w+)"', drawing)
    left = min(float(x) for x, _, _ in labels)  # (the labels beside the plot end at its left edge)
    return ({x for x, _, _ in labels if float(x) > left}, {y for x, y, _ in labels if float(x) == left})


def test_each_chart_has_ticks_on_both_axes_their_titles_and_a_key():
    """Three or more ticks under each plot and two or more beside it, both axes' titles in the page's
    language, and the key's words for each line."""
    for klass in CHARTS:
        for lang in ("it", "en"):
            drawing = svg(klass, lang)
            under, beside = ticks(drawing)
            assert len(under) >= 3 and len(beside) >= 2, (klass, lang, under, beside)
            titles = re.findall(r'<text class="axis-title"[^>]*>([^<]*)</text>', drawing)
            assert all(any(t.startswith(w) for t in titles) for w in TITLES[klass][lang]), (klass, lang, titles)
    cost = svg("cost-chart", "en")
    for words in ("this pattern", "full, n²", "this sentence"):
        assert f">{words}</text>" in cost
    curve = svg("curve", "it")
    assert ">loss</text>" in curve and ">in contesto</text>" in curve


def test_the_full_line_is_drawn_over_the_patterns_so_both_show_where_they_meet():
    """Under the full pattern (step 1) the two lines nearly meet (n·(n − 1) cells against n²); the dashed
    n² line comes after the pattern's (drawn on top), and the ticks under the plot read 1 to 100.000
    in Italian."""
    _, whole = step_html([("lang", "it"), ("path", "cost"), ("step", "1")])
    drawing = re.search(r'<svg class="cost-chart".*?</svg>', whole, re.S).group(0)
    lines = re.findall(r'<polyline class="(cost-\w+)" fill="none" points="([^"]*)"', drawing)
    assert [k for k, _ in lines] == ["cost-pattern", "cost-full"]
    apart = [abs(float(a.split(",")[1]) - float(b.split(",")[1])) for a, b in zip(lines[0][1].split(), lines[1][1].split())]
    assert max(apart[1:]) < 1  # (in SVG units: one over the other from n = 100 on)
    labels = re.findall(r'y="2\d\d" text-anchor="\w+">([\d.]+)</text>', drawing)
    assert labels == ["1", "10", "100", "1.000", "10.000", "100.000"]
