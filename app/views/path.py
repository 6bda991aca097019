"""The guided path's bar and the step's text (app/path.py): back, "3 / 12", next and the way
out to the explorer; the step's title, what it adds, one thing to try and its answer behind a
disclosure. Empty in the explorer."""

from app import path
from app.i18n import text
from app.views.html import esc


def render_path(settings, interactive=True):
    number = settings.step
    if number is None:
        return ""
    lang, way = settings.lang, path.path_of(settings.path)
    count = len(way.steps)

    def say(key, **params):
        return esc(text(lang, key, **params))

    def own(key):
        return say(path.step_key(number, key, way.id))

    off = "" if interactive is True else " disabled"
    first, last = (" disabled" if number == 1 else off), (" disabled" if number == count else off)
    return (
        f'<div class="path-bar" role="group" aria-label="{say("path_bar_aria")}">'
        f'<span class="path-name">{say(way.prefix + "name")}</span>'
        f'<button type="button" class="secondary" id="step-prev"{first}>'
        f'<span aria-hidden="true">← </span>{say("path_prev")}</button>'
        f'<span class="path-progress"><span aria-hidden="true">{say("path_progress", n=number, count=count)}'
        f'</span><span class="sr-only">{say("path_progress_aria", n=number, count=count)}</span></span>'
        f'<button type="button" id="step-next"{last}>{say("path_next")}<span aria-hidden="true"> →</span></button>'
        f'<button type="button" class="secondary" id="step-exit"{off}>{say("path_exit")}</button></div>'
        f'<h2 id="path-title" tabindex="-1">{number}. {own("title")}</h2>'
        f'<p class="path-text">{own("text")}</p>'
        f'<div class="path-try"><p><strong>{say("path_try")}</strong> {own("try")}</p>'
        f'<details><summary>{say("path_answer")}</summary><p>{own("answer")}</p></details></div>'
    )
