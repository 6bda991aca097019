"""A graded exercise (lock=1), driven as static/page.js drives the engine's Page: guess first stays
on, and nothing the page draws or publishes holds a row's weights before its guess."""

import json

import numpy as np
import pytest

from app import settings as schema
from app.lexicon import Lexicons
from app.page import Page
from app.remote import Screen
from tests.contract_check import assert_valid_state
from tests.reference import W_Q, attention_row, lexicon_cards

SENTENCE = "Il gatto seduto sul tappeto dormiva"
EXERCISE = [("s", SENTENCE), ("focus", "5"), ("quiz", "1"), ("lock", "1"), ("questions", "3")]


class Timers:
    @staticmethod
    def setTimeout(work, ms):  # noqa: N802 - the browser's name
        return 0

    proxy = staticmethod(lambda work: work)


class Graded:
    """One widget's Page and everything it wrote, as the page's thread would apply it."""

    def __init__(self, pairs=EXERCISE, resume=None):
        self.page = Page(Screen(lambda ops: None), Lexicons(), Timers())
        self.ops = []
        message = {"type": "start", "framed": False, "address": {"base": "http://x/", "pairs": list(pairs)},
                   "early": None, "state": "", "queue": []}
        if resume is not None:
            message["resume"] = resume
        self.take(message)

    def take(self, message):
        answer = self.page.receive(message)
        ops = json.loads(answer) if answer else []
        self.ops += ops
        return ops

    def send(self, kind, **context):
        context.setdefault("ids", ["view-bars", "view-table", "view-output", "query-row"])
        return self.take({"type": kind, "context": context})

    def state(self):
        return json.loads(next(op[3] for op in reversed(self.ops)
                               if op[:3] == ["set", [{"id": "attention-state"}], "textContent"]))

    def html(self, region):
        return next(op[3] for op in reversed(self.ops) if op[:3] == ["set", [{"id": region}], "innerHTML"])

    def guess(self, word):
        return self.send("submit", target={"id": "guess-form"}, checked={"guess": str(word)},
                         values={"guess-pct": ""})

    def pick(self, word):
        return self.send("change", target={"name": "word", "value": str(word), "type": "radio", "checked": True},
                         checked={"word": str(word)})


def reference_weights(focus):
    cards = lexicon_cards("it")
    cards = [cards[w.lower()] for w in SENTENCE.split()]
    return attention_row(cards, W_Q, focus)[2]


@pytest.fixture(scope="module")
def answered():
    """An exercise whose «dormiva» was guessed (wrong: «sul»)."""
    graded = Graded()
    before = graded.state()
    graded.guess(3)
    return graded, before


def test_a_locked_link_publishes_no_weight_before_the_guess():
    """lock=1: the state says guess first and the lock, has null weights, dots, logits and
    percentages for every word, no winners and no matrix; the page draws no bars, table or grid."""
    graded = Graded()
    state = graded.state()
    assert_valid_state(state)
    assert state["quiz"]["locked"] is True and state["quiz"]["questions"] == 3
    assert state["quiz"]["winners"] == [] and state["matrix"] is None
    assert all(r["weight"] is None and r["dot"] is None and r["logit"] is None and r["percent"] is None
               for r in state["rows"])
    analysis = graded.html("analysis")
    assert 'id="guess-form"' in analysis
    assert "view-bars" not in analysis and "view-table" not in analysis and "view-heatmap" not in analysis


def test_guess_first_cannot_be_switched_off():
    """Unticking «Prima indovina» in a locked exercise changes nothing: no weight appears, and the
    switch is drawn ticked and disabled; a link's quiz=0 does not unlock it either."""
    graded = Graded()
    graded.send("change", target={"name": "quiz", "type": "checkbox", "checked": False})
    state = graded.state()
    assert state["quiz"] is not None and all(r["weight"] is None for r in state["rows"])
    settings_html = graded.html("settings")
    assert 'id="quiz" name="quiz" checked disabled' in settings_html
    link = Graded([("s", SENTENCE), ("quiz", "0"), ("lock", "1")])
    assert link.page.settings.quiz is True and link.state()["matrix"] is None


@pytest.mark.parametrize("button", ["export-csv", "export-matrix", "export-png", "export-svg", "quiz-reset-score",
                                    "reset", "step-start", "model-start"])
def test_no_download_reset_or_other_view_before_the_guess(button):
    """The CSV, picture, reset and other views' buttons do nothing in a locked exercise (and the
    downloads are not drawn): no file is offered, the score and the lock stay."""
    graded = Graded()
    assert button.startswith("export") is False or f'id="{button}"' not in graded.html("share")
    ops = graded.send("click", target={"id": button, "className": "secondary"})
    assert not any(op[0] == "helper" and op[1] in ("download", "picture") for op in ops)
    assert graded.page.settings.lock and graded.page.settings.quiz and graded.page.settings.step is None
    assert graded.page.settings.mode == "sentence"


def test_after_the_guess_its_row_shows_numpys_weights_and_no_other_row(answered):
    """After the guess on «dormiva» the state has its weights, as numpy computes them; the grid of
    every row stays out, and the matrix stays null."""
    graded, _ = answered
    state = graded.state()
    assert_valid_state(state)
    weights = [r["weight"] for r in state["rows"]]
    assert np.allclose(weights, reference_weights(5), atol=1e-12)
    assert state["quiz"]["tried"] == 1 and state["quiz"]["winners"] == [1] and state["quiz"]["correct"] is False
    assert state["quiz"]["answered"] == [[5, 3, None]]
    assert state["matrix"] is None
    analysis = graded.html("analysis")
    assert "view-bars" in analysis and "view-heatmap" not in analysis


def test_an_answered_word_stays_answered_and_counts_once():
    """Another word asks again (no weight); back on «dormiva» its answer is shown, not asked again,
    and the score still counts one guess."""
    graded = Graded()
    graded.guess(1)
    graded.pick(2)
    state = graded.state()
    assert all(r["weight"] is None for r in state["rows"]) and state["quiz"]["guess"] is None
    graded.pick(5)
    state = graded.state()
    assert state["quiz"]["guess"] == 1 and state["quiz"]["tried"] == 1 and state["quiz"]["right"] == 1
    graded.guess(4)  # (the form is not there: a stale submit changes nothing)
    assert graded.state()["quiz"]["tried"] == 1


def test_the_sentence_and_switches_stay_as_the_teacher_set_them():
    """A typed sentence, an example, the mask and a host message asking for matrix mode are all
    refused; the controls are drawn disabled."""
    graded = Graded()
    graded.send("submit", target={"id": "sentence-form"}, values={"sentence-input": "Il cane dorme"})
    graded.send("change", target={"name": "mask", "type": "checkbox", "checked": True})
    graded.take({"type": "host", "data": {"type": "attention:set", "mode": "matrix", "quiz": False, "focus": 1},
                 "context": {}})
    settings = graded.page.settings
    assert (settings.sentence, settings.mask, settings.mode, settings.quiz) == (SENTENCE, False, "sentence", True)
    assert settings.focus == 1  # (a word is left open)
    assert 'id="sentence-input" name="s" type="text" value="' in graded.html("controls")
    assert "spellcheck=\"false\" disabled" in graded.html("controls")


def test_a_resumed_exercise_keeps_its_score_and_answers():
    """What static/scorm.js kept (the score and the answered words) comes back at the start: the
    score is the kept one, and «dormiva» shows its answer, not the question."""
    graded = Graded(resume={"right": 1, "tried": 2, "answered": [[5, 1, 40], [2, 0, None], [99, 1, None]]})
    state = graded.state()
    assert state["quiz"]["right"] == 1 and state["quiz"]["tried"] == 2
    assert state["quiz"]["guess"] == 1 and state["quiz"]["answered"] == [[5, 1, 40], [2, 0, None]]
    assert np.allclose([r["weight"] for r in state["rows"]], reference_weights(5), atol=1e-12)


def test_a_resume_without_lock_is_ignored():
    """An exercise link with no lock resumes nothing (only a graded exercise keeps a score)."""
    graded = Graded([("s", SENTENCE), ("focus", "5"), ("quiz", "1")], resume={"right": 3, "tried": 3})
    assert graded.state()["quiz"]["tried"] == 0


def test_lock_puts_a_link_in_the_explorer_of_a_sentence():
    """lock=1 with matrix mode or a step of the path: the sentence's explorer, guess first on."""
    lexicons = Lexicons()
    for query in ("?mode=matrix&lock=1", "?step=4&lock=1", "?mode=model&lock=1"):
        settings, notes = schema.parse_params(query, lexicons)
        assert (settings.mode, settings.step, settings.quiz, settings.lock) == ("sentence", None, True, True), query


def test_the_number_of_questions_is_a_setting_with_a_default_and_a_range():
    """questions defaults to 5; a bad value falls back to it with the page's note."""
    lexicons = Lexicons()
    assert schema.parse_params("", lexicons)[0].questions == 5
    settings, notes = schema.parse_params("?questions=0", lexicons)
    assert settings.questions == 5 and [n.key for n in notes] == ["link_value_bad"]
    assert schema.parse_params("?questions=8", lexicons)[0].questions == 8


def test_the_score_line_says_how_far_the_exercise_is():
    """The graded score line counts the questions and says when they are all answered (no reset)."""
    graded = Graded()
    assert "Domande: 0 di 3." in graded.html("analysis") and "quiz-reset-score" not in graded.html("analysis")
    for word in (5, 2, 4):
        graded.pick(word)
        graded.guess(next(i for i, r in enumerate(graded.state()["rows"]) if r["candidate"]))
    assert "Hai risposto a tutte le 3 domande" in graded.html("analysis")


def test_the_package_button_packs_the_exercise_on_screen_locked():
    """The package button (sentence mode only, never in a locked exercise) asks the page's thread
    for a zip of the exercise on screen: its sentence and switches, guess first on and lock=1."""
    teacher = Graded([("s", "Il cane guarda la palla"), ("mask", "1"), ("questions", "4")])
    assert 'id="package-scorm"' in teacher.html("share") and 'id="package-progress"' in teacher.html("share")
    ops = teacher.send("click", target={"id": "package-scorm", "className": "secondary"},
                       values={"package-kind": "2004"})
    call = next(op for op in ops if op[:2] == ["helper", "package"])
    kind, parameters = call[2][0], call[2][1]
    settings, notes = schema.parse_params(parameters, Lexicons())
    assert kind == "2004" and notes == []
    assert (settings.sentence, settings.mask, settings.questions, settings.quiz, settings.lock) == \
        ("Il cane guarda la palla", True, 4, True, True)
    assert 'id="package-scorm"' not in Graded().html("share")
    matrix = Graded([("mode", "matrix")])
    assert 'id="package-scorm"' not in matrix.html("share")
    assert not any(op[:2] == ["helper", "package"] for op in matrix.send(
        "click", target={"id": "package-scorm", "className": "secondary"}, values={"package-kind": "1.2"}))


def test_an_embedded_graded_exercise_offers_no_heatmap_tab():
    """embed=1 with lock=1: the view tabs leave out the heatmap, and a link's view=heatmap opens
    the bars."""
    graded = Graded(EXERCISE + [("embed", "1"), ("view", "heatmap")])
    assert graded.page.settings.view == "bars"
    graded.guess(1)
    analysis = graded.html("analysis")
    assert 'value="bars"' in analysis and 'value="heatmap"' not in analysis
