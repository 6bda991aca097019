"""Guess first: the guess form (a radio group of the candidates and an optional rough
percentage), the feedback after the reveal, and the score with its reset."""

from app import i18n
from app.i18n import join_words, percent, short, text
from app.quiz import decisive_product, winners
from app.views.html import esc

PCT_CHOICES = tuple(range(0, 101, 10))  # the optional rough percentage: 0%, 10%, … 100%


def quoted(word, lang):
    return f"«{word}»" if lang == "it" else f"“{word}”"


def feature_name(c, d, lang):
    """The name of component c of a key: the card's feature, or 'n. c+1' for other widths."""
    names = i18n.STRINGS[lang]["features"]
    return names[c] if d == len(names) else f"#{c + 1}"


def score_line(session, lang):
    if session.kept is not None:  # a graded exercise: how far it is, and no reset
        return graded_score_line(session, lang)
    return (f'<div class="quiz-score"><p>{esc(text(lang, "quiz_score", right=session.right, tried=session.tried))}</p>'
            f'<button type="button" class="secondary" id="quiz-reset-score">{esc(text(lang, "quiz_reset"))}</button></div>')


def graded_score_line(session, lang):
    """A graded exercise's score: right of tried, the questions answered of those it asks, and
    once they are all answered, that it is complete (its score can no longer be reset)."""
    questions = session.questions or 1
    done = session.tried >= questions
    progress = text(lang, "exam_done" if done else "exam_progress", tried=min(session.tried, questions),
                    questions=questions)
    return (f'<div class="quiz-score graded"><p>{esc(text(lang, "quiz_score", right=session.right, tried=session.tried))}'
            f' {esc(progress)}</p></div>')


def render_guess(row, tokens, session, lang):
    """The question: a radio group of the candidates, a rough percentage, a button."""
    word = tokens[row.focus].text
    options = "".join(
        f'<label class="guess-choice"><input type="radio" name="guess" value="{j}"> {esc(tokens[j].text)}</label>'
        for j in range(row.n) if row.candidates[j])
    pcts = [f'<option value="">{esc(text(lang, "quiz_pct_none"))}</option>'] + [
        f'<option value="{p}">{esc(text(lang, "quiz_pct_about", pct=percent(p / 100, lang)))}</option>'
        for p in PCT_CHOICES]
    return (
        f'<h2>{esc(text(lang, "quiz_heading", word=word))}</h2>'
        '<form id="guess-form" class="guess-form" autocomplete="off">'
        f'<fieldset class="guess-choices"><legend>{esc(text(lang, "quiz_legend", word=word))}</legend>'
        f'{options}</fieldset>'
        f'<p class="guess-pct"><label for="guess-pct">{esc(text(lang, "quiz_pct_label"))}</label> '
        f'<select id="guess-pct" name="guess-pct">{"".join(pcts)}</select></p>'
        f'<button type="submit" id="guess-submit">{esc(text(lang, "quiz_submit"))}</button>'
        '<p id="guess-status" class="guess-status" role="status"></p>'
        "</form>" + score_line(session, lang)
    )


def feedback(row, tokens, session, lang):
    """Sentences after the reveal: right or which word won, the product that decided it,
    and the rough percentage against the real one."""
    guess, won = session.guess, winners(row)
    q = lambda j: quoted(tokens[j].text, lang)  # noqa: E731
    top = percent(row.weights[won[0]], lang)
    if guess in won:
        said = [text(lang, "quiz_right", word=q(guess), pct=top) if len(won) == 1 else
                text(lang, "quiz_right_tie", words=join_words([q(j) for j in won], lang), pct=top)]
    else:
        said = [text(lang, "quiz_wrong", words=join_words([q(j) for j in won], lang), pct=top,
                     guess=q(guess), guess_pct=percent(row.weights[guess], lang))]
    winner = guess if guess in won else won[0]
    c, qc, kw, kg = decisive_product(row, guess, winner)
    name = feature_name(c, len(row.query), lang)
    if kg is None:
        said.append(text(lang, "quiz_decided_right", feature=name, q=short(qc, lang), k=short(kw, lang),
                         p=short(qc * kw, lang), winner=q(winner)))
    else:
        said.append(text(lang, "quiz_decided", feature=name, q=short(qc, lang), k=short(kw, lang),
                         p=short(qc * kw, lang), k2=short(kg, lang), p2=short(qc * kg, lang),
                         winner=q(winner), guess=q(guess)))
    if session.pct is not None:
        said.append(text(lang, "quiz_pct_said", said=percent(session.pct / 100, lang),
                         pct=percent(row.weights[guess], lang), word=q(guess)))
    return said


def render_feedback(row, tokens, session, lang):
    """After the reveal: the feedback, 'next word' and the score."""
    right = session.guess in winners(row)
    items = "".join(f"<p>{esc(s)}</p>" for s in feedback(row, tokens, session, lang))
    return (f'<h2>{esc(text(lang, "quiz_feedback_heading"))}</h2>'
            f'<div class="quiz-feedback {"right" if right else "wrong"}">{items}</div>'
            f'<button type="button" id="next-word">{esc(text(lang, "quiz_next"))}</button>'
            + score_line(session, lang))


def render_quiz(row, tokens, session, lang):
    """The quiz section for the selected row: the question, the feedback, or only the score
    (no word selected, or nothing to guess: no candidate)."""
    if row is not None and not session.revealed(row):
        inner = render_guess(row, tokens, session, lang)
    elif row is not None and session.guess is not None:
        inner = render_feedback(row, tokens, session, lang)
    else:
        inner = score_line(session, lang)
    return f'<section id="quiz-section" class="quiz" aria-label="{esc(text(lang, "quiz"))}">{inner}</section>'


def quiz_announcement(row, tokens, session, lang, otherwise):
    """What the live region says with guess-first on: the question, or the feedback then
    where the word looks (`otherwise`)."""
    if row is not None and not session.revealed(row):
        return text(lang, "quiz_prompt", word=quoted(tokens[row.focus].text, lang))
    if row is not None and session.guess is not None:
        return " ".join(feedback(row, tokens, session, lang) + [otherwise])
    return otherwise
