"""Guess first, on the page: the guess form sent, the next word, the score reset.

The quiz itself (who wins, the score, what is revealed) is app/quiz.py's Session, one per
widget (`page.quiz`); its views are views/quiz.py. Each function takes the widget (an
app.page.Page).
"""

from app.i18n import text


def first_guess(page):
    """The first of the guess form's choices (focused after a move)."""
    page.document.querySelector('input[name="guess"]').focus()


def take_guess(page):
    """The guess form was sent: score the guess and reveal the answer (or ask for a word)."""
    picked = page.screen.context.checked.get("guess")
    if picked is None or page.row is None:
        page.region("guess-status").textContent = text(page.settings.lang, "quiz_need_guess")
        first_guess(page)
        return
    pct = page.region("guess-pct").value
    page.quiz.take_guess(page.row, int(picked), int(pct) if pct.isdigit() else None)
    page.show_analysis()
    page.publish()
    page.region("next-word").focus()


def next_word(page):
    """Go on to the next word that has someone to look at."""
    record = page.record
    if record is None:
        return
    n = record.n_q
    start = -1 if page.row is None else page.row.focus
    for step in range(1, n + 1):
        i = (start + step) % n
        if any(record.candidates[i]):
            page.select_row(i)
            break
    first_guess(page)


def reset_score(page):
    """The score back to 0 (this tab's only: it is never sent)."""
    page.quiz.reset_score()
    page.show_analysis()
    page.publish()
    page.region("quiz-reset-score").focus()
    page.region("announce").textContent = text(page.settings.lang, "quiz_score_reset")
