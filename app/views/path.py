"""The guided path's bar and the step's text (app/path.py): back, "3 / 12", next and the way
out to the explorer; the step's title, what it adds, one thing to try and its answer behind a
disclosure. Empty in the explorer."""

from app import path, path_answers
from app.i18n import text
from app.views.html import esc


def render_path(settings, interactive=True, tokens=None, record=None):
    """The bar and the step's text; its answer written from `record` (the tokens shown and their
    record; app/path_answers.py), which the page rewrites in place after every change."""
    number = settings.step
    if number is None:
        return ""
    lang, step = settings.lang, path.step_of(number)

    def say(key, **params):
        return esc(text(lang, key, **params))

    def own(key):
        return say(f"path_{step.id}_{key}")

    off = "" if interactive is True else " disabled"
    first, last = (" disabled" if number == 1 else off), (" disabled" if number == path.COUNT else off)
    return (
        f'<div class="path-bar" role="group" aria-label="{say("path_bar_aria")}">'
        f'<span class="path-name">{say("path_name")}</span>'
        f'<button type="button" class="secondary" id="step-prev"{first}>'
        f'<span aria-hidden="true">← </span>{say("path_prev")}</button>'
        f'<span class="path-progress"><span aria-hidden="true">{say("path_progress", n=number, count=path.COUNT)}'
        f'</span><span class="sr-only">{say("path_progress_aria", n=number, count=path.COUNT)}</span></span>'
        f'<button type="button" id="step-next"{last}>{say("path_next")}<span aria-hidden="true"> →</span></button>'
        f'<button type="button" class="secondary" id="step-exit"{off}>{say("path_exit")}</button></div>'
        f'<h2 id="path-title" tabindex="-1">{number}. {own("title")}</h2>'
        f'<p class="path-text">{own("text")}</p>'
        f'<div class="path-try"><p><strong>{say("path_try")}</strong> <span id="path-try-text">'
        f'{esc(try_text(step, settings, tokens))}</span></p>'
        f'<details><summary>{say("path_answer")}</summary><p id="path-answer">'
        f'{esc(answer_text(step, settings, tokens, record))}</p></details></div>'
        + (render_end(lang, off) if number == path.COUNT else "")
    )


def try_text(step, settings, tokens):
    return text(settings.lang, f"path_{step.id}_try", **path_answers.try_params(step, tokens or []))


def answer_text(step, settings, tokens, record):
    return path_answers.answer(step, settings, tokens or [], record)


def render_end(lang, off=""):
    """The path's last words: what it went through, and the ways on (the explorer, the trained model)."""
    return (f'<div class="path-end"><p>{esc(text(lang, "path_end"))}</p>'
            f'<p class="path-end-ways"><button type="button" id="path-end-exit"{off}>{esc(text(lang, "path_end_explore"))}'
            f'</button> <button type="button" class="secondary" id="path-end-model"{off}>'
            f'{esc(text(lang, "path_end_model"))}</button></p></div>')
