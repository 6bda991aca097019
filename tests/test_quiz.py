"""Guess first (app/quiz.py, app/views/quiz.py): winners, ties, the score, what stays hidden."""

import numpy as np
import pytest
from hypothesis import given, settings as hsettings, strategies as st

from app import contract, render, settings as schema
from app.attention import attend
from app.quiz import Session, decisive_product, winners
from app.views.quiz import feedback
from tests.contract_check import assert_valid_state
from tests.reference import attention_matrix

DEFAULT_CARDS = [[0, 0, 0, 1], [0.95, 0.05, 0.1, 0], [0.1, 0.7, 0.2, 0], [0, 0, 0.1, 0.9],
                 [0, 0, 1, 0], [0, 1, 0, 0]]  # Il gatto seduto sul tappeto dormiva
ROW_IDS = ("view-bars", "view-table", "view-heatmap", "view-output")


def page(lexicons, query):
    """(settings, tokens, record, row) for a link, as the page computes them."""
    s, notes = schema.parse_params(query, lexicons)
    assert notes == []
    tokens, _ = schema.check_sentence(s.sentence, lexicons[s.lang], s.limit)
    record = contract.compute(s, tokens)
    return s, tokens, record, contract.selected_row(s, record)


def test_dormiva_looks_most_at_gatto():
    """In the first example «dormiva» gives the most attention to «gatto» (index 1), as numpy says."""
    row = attend(DEFAULT_CARDS).row(5)
    ref = attention_matrix(np.array(DEFAULT_CARDS) @ np.array(row.record.w_q), DEFAULT_CARDS, DEFAULT_CARDS)
    assert winners(row) == [int(np.argmax(ref["weights"][5]))] == [1]


cards = st.integers(2, 8).flatmap(lambda n: st.lists(
    st.lists(st.sampled_from([0.0, 0.1, 0.5, 0.9, 1.0]), min_size=4, max_size=4), min_size=n, max_size=n))


@hsettings(max_examples=150, deadline=None)
@given(cards, st.booleans(), st.booleans(), st.sampled_from([0.25, 1.0, 4.0]))
def test_winners_are_the_largest_weights_of_the_row_as_numpy_computes_them(cards, mask, include_self, temp):
    """For every row (mask, self, temperature): the winners are numpy's argmax set of the
    candidates' weights; identical cards tie and all count."""
    record = attend(cards, mask=mask, include_self=include_self, temperature=temp)
    ref = attention_matrix(np.array(cards) @ np.array(record.w_q), cards, cards, mask=mask,
                           include_self=include_self, temperature=temp)
    for i in range(len(cards)):
        allowed = ref["allowed"][i]
        if not allowed.any():
            assert winners(record.row(i)) == []
            continue
        top = ref["weights"][i][allowed].max()
        expected = [j for j in range(len(cards)) if allowed[j] and np.isclose(ref["weights"][i][j], top, rtol=1e-9)]
        assert winners(record.row(i)) == expected


def test_a_tie_counts_either_guess_as_right(lexicons):
    """'gatto gatto dormiva', dormiva: both «gatto» tie; guessing the second one is right."""
    s, tokens, record, row = page(lexicons, "s=gatto+gatto+dormiva&focus=2&quiz=1")
    assert winners(row) == [0, 1]
    quiz = Session()
    assert quiz.take_guess(row, 1) is True
    state = contract.build_state(s, tokens, record, quiz)
    assert state["quiz"] == {"guess": 1, "winners": [0, 1], "correct": True, "right": 1, "tried": 1}
    assert_valid_state(state)
    assert "sono alla pari" in feedback(row, tokens, quiz, "it")[0]


def test_score_counts_each_question_once_and_resets(lexicons):
    """A wrong then a right guess make 1 out of 2; a second guess on the same question is
    ignored; reset gives 0 out of 0."""
    s, tokens, record, row = page(lexicons, "quiz=1")
    quiz = Session()
    assert quiz.take_guess(row, 4) is False  # tappeto
    assert quiz.take_guess(row, 1) is False and (quiz.right, quiz.tried) == (0, 1)  # already answered
    quiz.follow(record.row(0))  # another word: a new question
    assert quiz.guess is None and not quiz.revealed(record.row(0))
    assert quiz.take_guess(record.row(0), winners(record.row(0))[0]) is True
    assert (quiz.right, quiz.tried) == (1, 2)
    quiz.reset_score()
    assert (quiz.right, quiz.tried) == (0, 0)


def test_a_temperature_change_keeps_the_reveal_but_new_winners_ask_again(lexicons):
    """After a guess, T = 4 keeps the same winner (the answer stays shown); the mask on
    «gatto» changes its winner, so the student is asked again."""
    s, tokens, record, row = page(lexicons, "quiz=1")
    quiz = Session()
    quiz.take_guess(row, 1)
    quiz.follow(contract.compute(s.copy(temperature=4.0), tokens).row(5))
    assert quiz.guess == 1
    quiz = Session()
    gatto = record.row(1)
    quiz.take_guess(gatto, winners(gatto)[0])
    masked = contract.compute(s.copy(mask=True), tokens).row(1)
    assert winners(masked) != winners(gatto)
    quiz.follow(masked)
    assert quiz.guess is None


def test_the_product_that_decided_it_is_worked_by_hand(lexicons):
    """dormiva asks q = [3, 0, 2, 0]; gatto [0,95; 0,05; 0,1; 0] beats tappeto [0; 0; 1; 0]
    on 'alive': 3 × 0,95 = 2,85 against 3 × 0 = 0 (the 'thing' product favours tappeto)."""
    s, tokens, record, row = page(lexicons, "quiz=1")
    assert decisive_product(row, 4, 1) == (0, 3.0, 0.95, 0.0)
    quiz = Session()
    quiz.take_guess(row, 4, pct=40)
    said = feedback(row, tokens, quiz, "it")
    assert said[0] == "Non proprio: la più guardata è «gatto» (42%); il peso di «tappeto» è 25%."
    assert said[1] == ("Ha deciso il prodotto di «vivo»: 3 × 0,95 = 2,85 per «gatto», "
                       "contro 3 × 0 = 0 per «tappeto».")
    assert said[2] == "Avevi detto circa 40% per «tappeto»: è 25%."


def test_the_answer_stays_hidden_until_a_guess(lexicons):
    """With guess-first on, the page shows the question and a radio group of the candidates
    (the masked words are not offered) but no bars, table, matrix or new card; after the
    guess all four are there."""
    s, tokens, record, row = page(lexicons, "quiz=1&mask=1")
    quiz = Session()
    html = render.render_analysis(s, tokens, record, row, quiz=quiz)
    assert not any(f'id="{v}"' in html for v in ROW_IDS)
    assert html.count('name="guess"') == 5 and 'id="view-query"' in html
    quiz.take_guess(row, 1)
    html = render.render_analysis(s, tokens, record, row, quiz=quiz)
    assert all(f'id="{v}"' in html for v in ROW_IDS) and 'name="guess"' not in html
    assert "Hai indovinato" in html


def test_nothing_to_guess_shows_the_explanation(lexicons):
    """The first word with the mask has no candidate: no question, the explanation at once."""
    s, tokens, record, row = page(lexicons, "quiz=1&mask=1&focus=0")
    quiz = Session()
    html = render.render_analysis(s, tokens, record, row, quiz=quiz)
    assert 'name="guess"' not in html and "è la prima parola" in html
    assert contract.build_state(s, tokens, record, quiz)["quiz"]["winners"] == []


@pytest.mark.parametrize("query", ["", "quiz=1", "quiz=1&s=Il+cane+abbaia"])
def test_quiz_field_follows_the_contract(lexicons, query):
    """quiz is null with guess-first off, an object (guess null, 0 of 0) when on; both valid."""
    s, tokens, record, row = page(lexicons, query)
    state = contract.build_state(s, tokens, record)
    assert_valid_state(state)
    if s.quiz:
        assert state["quiz"] == {"guess": None, "winners": [] if row is None else winners(row),
                                 "correct": None, "right": 0, "tried": 0}
    else:
        assert state["quiz"] is None
