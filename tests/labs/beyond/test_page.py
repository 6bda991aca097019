"""What the beyond lab's student sees and does, driven as static/page.js drives the engine: the bars and
the steps table under a mixer are signed scores with no "%", the mixer's view puts its four masks side
by side, the stepper's buttons move the state word by word and its y equals the matrix form's row, and
the Δ sentence names the words the state keeps."""

import json
import re

import pytest

from app.lexicon import Lexicons
from app.page import Page
from app.remote import Screen
from tests.test_engine_page import Timers, press
from tests.test_glossary import written_html


@pytest.fixture(scope="module")
def lexicons():
    return Lexicons()


def started(pairs, lexicons):
    page = Page(Screen(lambda ops: None), lexicons, Timers())
    ops = page.receive({"type": "start", "framed": False, "address": {"base": "http://x/", "pairs": pairs},
                        "early": None, "state": "", "queue": []})
    return page, written_html(ops)[1]


def section(html, view_id):
    start = html.index(f'id="view-{view_id}"')
    return html[start: html.index("</section>", start)]


@pytest.mark.parametrize("lang", ("it", "en"))
def test_bars_and_table_show_signed_scores_never_percentages(lang, lexicons):
    """On step 1 under retention the bars and the steps table write scores with no "%", and say why;
    under softmax the same step's table writes percentages again."""
    pairs = [("lang", lang), ("path", "beyond"), ("step", "1"), ("mixer", "retention"), ("focus", "2")]
    _, shown = started(pairs, lexicons)
    bars, table = section(shown, "bars"), section(shown, "table")
    assert "%" not in re.sub(r"<[^>]+>", "", bars) and "%" not in re.sub(r"<[^>]+>", "", table)
    assert "per cento" not in bars and "role=\"meter\"" not in bars
    assert "punteggi con segno" in bars or "signed scores" in bars
    _, plain = started([("lang", lang), ("path", "beyond"), ("step", "1"), ("focus", "2")], lexicons)
    assert "%" in re.sub(r"<[^>]+>", "", section(plain, "table"))


def test_the_mixer_view_draws_the_four_masks_side_by_side(lexicons):
    """The mixer's view has one heatmap a mixer, the chosen one marked, and the four radios."""
    _, shown = started([("path", "beyond"), ("step", "1"), ("mixer", "selective")], lexicons)
    view = section(shown, "mixer")
    assert view.count('class="mixer-map"') == 4 and view.count('name="mixer"') == 4
    assert 'class="mixer-figure chosen"' in view and 'id="mixer-selective" name="mixer" value="selective" checked' in view


def test_the_stepper_moves_the_state_word_by_word(lexicons):
    """Next and back move the words read by one, never past the sentence's ends; at each word the
    difference between y from the state and the matrix form's row is shown as 0."""
    page, shown = started([("path", "beyond"), ("step", "2"), ("mixer", "linear"),
                           ("s", "Il gatto dorme sul tappeto"), ("mixer_step", "1")], lexicons)
    assert page.settings.mixer_step == 1
    for expected in (2, 3, 4, 5, 5):
        press(page, "mixer-next")
        assert page.settings.mixer_step == expected
    ops = press(page, "mixer-back")
    assert page.settings.mixer_step == 4
    drawn = json.dumps(json.loads(ops), ensure_ascii=False)
    assert "parola 4 di 5" in drawn and re.search(r"Differenza più grande: [0-9,e−]+\. Sono lo stesso numero", drawn)
    # (a step redraws the state's view alone, on the record it has: nothing else of the analysis)
    redrawn = [op[2][0] for op in json.loads(ops) if op[:2] == ["helper", "redrawPart"]]
    assert redrawn == [{"$": [{"id": "view-mixer-state"}]}]
    assert not any(op[:2] == ["set", [{"id": "analysis"}]] for op in json.loads(ops))


def test_the_delta_sentence_names_the_nouns_the_state_keeps(lexicons):
    """Under the designed Δ, at the last word of «Il gatto insegue il topo» the state keeps the nouns, not
    the articles."""
    _, shown = started([("path", "beyond"), ("step", "4"), ("mixer", "selective"),
                        ("s", "Il gatto insegue il topo"), ("focus", "4")], lexicons)
    said = re.search(r'class="mixer-keeps">([^<]*)<', section(shown, "mixer-delta")).group(1)
    assert "topo" in said and "Il" not in said.split(":")[1]


def test_the_terminal_prints_the_mixers_scores(lexicons):
    """`python -m app --mixer selective` prints the lab's table: q·k, L and the signed score, no percentage."""
    from app import contract, plain_text
    settings, tokens, record, _ = contract.from_link({"mixer": ["selective"], "s": ["Il gatto dorme"], "focus": ["2"]})
    printed = "\n".join(plain_text.steps_text(settings, tokens, record))
    assert "punteggio s" in printed and "%" not in printed
