"""What the cost lab's steps say on screen, in both languages: the heatmap's cost line follows the
pattern, the cost table's row of this sentence agrees with its line, the memory answer, the names of
the windows, the tables' headers, step 1's count and FlashAttention's step. Counts are worked by
hand in each test."""

import json
import re
from html import unescape
from urllib.parse import parse_qsl

import pytest

from app.lexicon import Lexicons
from app.page import Page
from app.remote import Screen
from tests.test_engine_page import Timers


@pytest.fixture(scope="module")
def page_lexicons():
    return Lexicons()


def page_html(link, lexicons):
    """Every piece of HTML the page draws when it starts at `link`, joined."""
    page = Page(Screen(lambda ops: None), lexicons, Timers())
    ops = json.loads(page.receive({"type": "start", "framed": False, "early": None, "state": "", "queue": [],
                                   "address": {"base": "http://x/", "pairs": parse_qsl(link)}}))
    found = []

    def walk(o):
        if isinstance(o, str) and "<" in o:
            found.append(o)
        elif isinstance(o, (list, tuple)):
            for x in o:
                walk(x)
        elif isinstance(o, dict):
            for x in o.values():
                walk(x)
    walk(ops)
    return "".join(found)


def plain(html):
    """The text a reader sees, tags dropped (a link's, inside a sentence, with no space) and spaces folded."""
    html = re.sub(r"</?a\b[^>]*>", "", html)
    return re.sub(r"\s+", " ", unescape(re.sub(r"<[^>]+>", " ", html))).strip()


def element(html, css_class):
    """The text of the first element with class `css_class`."""
    match = re.search(rf'<(\w+) class="{css_class}"[^>]*>(.*?)</\1>', html, re.S)
    assert match, f"no .{css_class}"
    return plain(match[2])


EIGHT_EN = "lang=en&s=The+cat+sat+on+the+mat+and+slept"
EIGHT_IT = "s=Il+gatto+seduto+sul+tappeto+dormiva+e+sogna"


@pytest.mark.parametrize("lang, base, words, big", [("en", EIGHT_EN, "8 words", "1,000 words → 3,994"),
                                                    ("it", EIGHT_IT, "8 parole", "1.000 parole → 3.994")])
def test_the_heatmaps_cost_line_under_a_window_says_it_grows_like_n(lang, base, words, big, page_lexicons):
    """Window w = 2 without the word itself on 8 words: 2·(7 + 6) = 26 cells, at 1,000 words
    2·(999 + 998) = 3,994; the line says 2w + 1 = 5 a row and linear growth, not the square."""
    line = element(page_html(base + "&path=cost&step=3&pattern=window&window=2", page_lexicons), "heatmap-cost")
    assert line.startswith(words) and "26" in line and big in line and "2w + 1 = 5" in line
    assert ("not like n²" if lang == "en" else "non come n²") in line
    assert "square" not in line and "quadrato" not in line


@pytest.mark.parametrize("lang, base", [("en", EIGHT_EN), ("it", EIGHT_IT)])
@pytest.mark.parametrize("pattern, at_1000", [("local_global", (3994 + 2 * 1000,)),
                                              ("bigbird", (3994 + 2 * 1000 + 2 * 1000,))])
def test_the_cost_line_under_globals_and_bigbird_says_how_each_part_grows(lang, base, pattern, at_1000,
                                                                          page_lexicons):
    """One global word, w = 2, r = 2: at 1,000 words the window's 3,994, 2·1,000 for the global
    row and column, 2·1,000 random keys (an upper bound); the line names each part, not n²'s square."""
    link = base + f"&path=cost&step={4 if pattern == 'local_global' else 5}&pattern={pattern}&window=2&global=0"
    line = element(page_html(link, page_lexicons), "heatmap-cost")
    sep = "," if lang == "en" else "."
    assert f"{at_1000[0] // 1000}{sep}{at_1000[0] % 1000:03d}" in line
    assert ("global words: 1" if lang == "en" else "parole globali: 1") in line and "2n" in line
    if pattern == "bigbird":
        assert ("2 keys a row" if lang == "en" else "2 chiavi per riga") in line
    assert "square" not in line and "quadrato" not in line


def test_under_full_the_cost_line_still_says_the_square(page_lexicons):
    """No pattern: 8 words → 64 scores, the square of the words."""
    line = element(page_html(EIGHT_EN + "&path=cost&step=1", page_lexicons), "heatmap-cost")
    assert line.startswith("8 words → 64 scores") and "square" in line


def here_row(html):
    """The cells of the cost table's highlighted row (this sentence's n)."""
    match = re.search(r'<tr[^>]*class="cost-here"[^>]*>(.*?)</tr>', html, re.S)
    assert match, "no highlighted row"
    return [plain(c) for c in re.findall(r"<t[hd][^>]*>(.*?)</t[hd]>", match[1], re.S)]


@pytest.mark.parametrize("lang, base, said", [("en", EIGHT_EN, "36 cells computed of 64"),
                                              ("it", EIGHT_IT, "36 celle calcolate su 64")])
def test_the_sentences_line_and_its_highlighted_row_say_one_number(lang, base, said, page_lexicons):
    """Local + global, w = 2, the first word global, the word itself off, 8 words: by hand the
    window's 2·(7 + 6) = 26 cells, and the global row and column add 5 each beyond the window: 36.
    The line and the highlighted row both say 36; the rule's 26 + 2·8 = 42 is named as an upper
    bound, with why."""
    html = page_html(base + "&path=cost&step=5&pattern=local_global&window=2&global=0", page_lexicons)
    assert said in plain(html)
    assert here_row(html)[:2] == ["8", "36"]
    note = element(html, "cost-rule-note")
    assert "42" in note and "36" in note
    assert ("upper bound" if lang == "en" else "limite superiore") in note


def test_the_note_on_the_rule_is_not_there_when_the_rule_is_exact(page_lexicons):
    """A window alone: the rule counts exactly (26 cells on 8 words, w = 2), one number, no note."""
    html = page_html(EIGHT_EN + "&path=cost&step=5&pattern=window&window=2", page_lexicons)
    assert here_row(html)[:2] == ["8", "26"] and "cost-rule-note" not in html


def answer_of(html):
    """The text of the step's answer (hidden until asked for)."""
    match = re.search(r'<p[^>]*id="path-answer"[^>]*>(.*?)</p>', html, re.S) or \
        re.search(r'class="path-answer[^"]*"[^>]*>(.*?)</', html, re.S)
    assert match, "no answer"
    return plain(match[1])


@pytest.mark.parametrize("lang, base, gpu", [("en", EIGHT_EN, "80 GB"), ("it", EIGHT_IT, "80 GB")])
def test_the_memory_answer_compares_40_gb_with_an_80_gb_gpu(lang, base, gpu, page_lexicons):
    """4 bytes · 100,000² = 40·10⁹ bytes = 40 GB: half of an 80 GB H100 (NVIDIA's page, cited in
    docs/DESIGN.md); 16 heads · 16 layers · 40 GB / 80 GB = 128 GPUs. No claim that no card holds it."""
    assert 4 * 100_000 ** 2 == 40 * 10 ** 9 and 16 * 16 * 40 // 80 == 128
    answer = answer_of(page_html(base + "&path=cost&step=2", page_lexicons))
    assert "40 GB" in answer and gpu in answer and "H100" in answer and "128" in answer
    assert "no graphics card" not in answer and "nessuna scheda" not in answer


def test_the_gpus_memory_is_cited_from_nvidias_page():
    """docs/DESIGN.md names the vendor's page for the 80 GB the answer quotes."""
    from pathlib import Path
    design = (Path(__file__).parents[3] / "docs" / "DESIGN.md").read_text()
    assert "https://docs.nvidia.com/launchpad/ai/h100-mig/latest/h100-mig-gpu.html" in design


@pytest.mark.parametrize("lang, base, two, one", [
    ("en", EIGHT_EN, "Longformer's and BigBird's two-sided window", "the w before it"),
    ("it", EIGHT_IT, "a due lati di Longformer e BigBird", "le w prima")])
def test_the_two_sided_window_is_longformers_and_bigbirds_and_mistrals_is_one_sided(lang, base, two, one,
                                                                                     page_lexicons):
    """|i − j| ≤ w looks both ways: step 3's text and the window's choice name Longformer and BigBird
    for it, and say Mistral's sees only the word and the w before it."""
    html = page_html(base + "&path=cost&step=3&pattern=window", page_lexicons)
    step = element(html, "path-text")
    choice = plain(re.search(r'<label class="cost-choice"><input[^>]*value="window"[^>]*>(.*?)</label>', html, re.S)[1])
    for said in (step, choice):
        assert two in said and one in said
        assert not re.search(r"Mistral's sliding window\)|finestra scorrevole di Mistral\)", said)


def headers(html, css_class):
    """The column headers of the table with class `css_class`."""
    match = re.search(rf'<table class="{css_class}"[^>]*>(.*?)</thead>', html, re.S)
    assert match, f"no table.{css_class}"
    return [plain(h) for h in re.findall(r"<th[^>]*>(.*?)</th>", match[1], re.S)]


@pytest.mark.parametrize("lang, base, cells, memory", [
    ("en", EIGHT_EN, ["n words", "cells computed: full", "every cell: n²"],
     ["n words", "bytes, whole matrix (n²)", "bytes, cells computed: full"]),
    ("it", EIGHT_IT, ["n parole", "celle calcolate: piena", "tutte le celle: n²"],
     ["n parole", "byte, matrice intera (n²)", "byte, celle calcolate: piena"])])
def test_each_cost_column_says_what_it_counts_under_the_full_pattern(lang, base, cells, memory, page_lexicons):
    """Under full the two columns were both "full": now one is the cells computed (56 of 64 without
    the word itself: 64 − 8), the other every cell, n²; no two headers of a table read alike."""
    html = page_html(base + "&path=cost&step=1", page_lexicons)
    assert headers(html, "cost-table") == cells and headers(html, "cost-memory") == memory
    assert here_row(html) == ["8", "56", "64"]


@pytest.mark.parametrize("lang, base, text_says, answer_says", [
    ("en", EIGHT_EN, "n² − n products", "56 are computed: n² − n = 64 − 8"),
    ("it", EIGHT_IT, "n² − n prodotti", "se ne calcolano 56: n² − n = 64 − 8")])
def test_step_1_says_the_word_itself_is_left_out_of_the_n_squared(lang, base, text_says, answer_says, page_lexicons):
    """8 words with the word itself off: 8² − 8 = 56 cells of 64, the number the cost line shows;
    the step's text and answer say why it is not n²."""
    html = page_html(base + "&path=cost&step=1", page_lexicons)
    assert text_says in element(html, "path-text")
    assert answer_says in answer_of(html)
    assert ("56 cells computed of 64" if lang == "en" else "56 celle calcolate su 64") in plain(html)


def test_step_1_with_the_word_itself_on_counts_every_cell(page_lexicons):
    """self=1: all 8² = 64 cells computed; the answer does not speak of a word left out."""
    html = page_html(EIGHT_EN + "&path=cost&step=1&self=1", page_lexicons)
    assert "64 cells computed of 64" in plain(html) and "left out" not in answer_of(html)


@pytest.mark.parametrize("lang, sentence, word, alpha, self_out, vector", [
    ("en", "The+cat+sleeps+on+the+mat", "on", "e^(−∞ − new m) = 0", "“Include the word itself” is off",
     "a vector o as long as v"),
    ("it", "Il+gatto+dorme+sul+tappeto", "sul", "e^(−∞ − m nuovo) = 0", "«Includi la parola stessa» è spento",
     "un vettore o lungo quanto v")])
def test_flashattentions_step_explains_the_first_alpha_the_missing_self_and_o_as_a_vector(
        lang, sentence, word, alpha, self_out, vector, page_lexicons):
    """Step 6, B = 2, the fourth word selected, the word itself off: the first block's α is 0 and the
    view says why (m starts at −∞); it says why the asking word is no candidate of its own row; o is
    a vector as long as v, not one of "three numbers a row"."""
    html = page_html(f"lang={lang}&path=cost&step=6&flash=2&flash_step=1&s={sentence}&focus=3", page_lexicons)
    view = plain(html[html.index('id="view-flash"'):])
    assert alpha in view and self_out in view and word in element(html, "flash-self") and vector in view
    assert "three numbers" not in view and "tre numeri" not in view
    first = re.search(r'<tr[^>]*data-block="1"[^>]*>(.*?)</tr>', html, re.S)[1]
    cells = [plain(c) for c in re.findall(r"<t[hd][^>]*>(.*?)</t[hd]>", first, re.S)]
    assert float(cells[4].replace(",", ".")) == 0  # block, keys, block's max, m, then α: e^(−∞) = 0


def test_with_the_word_itself_on_the_view_does_not_say_it_is_left_out(page_lexicons):
    """self=1: the asking word is a candidate of its own row, and no sentence says otherwise."""
    html = page_html("lang=en&path=cost&step=6&flash=2&self=1&s=The+cat+sleeps+on+the+mat&focus=3", page_lexicons)
    assert 'id="view-flash"' in html and "flash-self" not in html
