"""The guided path's bar and the step's text (app/path.py): back, "3 / 12", next and the way
out to the explorer; the step's title, what it adds, one thing to try and its answer behind a
disclosure. Empty in the explorer."""

from app import glossary, labs, model, path
from app.i18n import STRINGS, text
from app.views.html import esc


def render_path(settings, interactive=True, tokens=None, record=None):
    """The bar and the step's text; its answer written from `record` (the tokens shown and their
    record; app/path_answers.py), which the page rewrites in place after every change."""
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
    seen = set()
    explained = glossary.link(own("text"), lang, seen)
    tried, answered = linked_try_and_answer(settings, tokens, record, seen)
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
        f'<p class="path-text">{explained}</p>'
        f'<div class="path-try"><p><strong>{say("path_try")}</strong> <span id="path-try-text">'
        f'{tried}</span></p>'
        f'<details><summary>{say("path_answer")}</summary><p id="path-answer">'
        f'{answered}</p></details></div>'
        + (render_end(lang, off, way.prefix, seen, settings.mode == "model") if number == count else "")
        + render_glossary(lang)
    )


def linked_try_and_answer(settings, tokens, record, seen):
    """`try_and_answer` as HTML, each term's first use on the step (after those in `seen`: the
    step's text) a link to its glossary entry (app/glossary.py)."""
    lang = settings.lang
    if not seen:  # (the step's text comes first: its terms are linked there)
        glossary.link(esc(text(lang, path.step_key(settings.step, "text", settings.path))), lang, seen)
    tried, answered = try_and_answer(settings, tokens, record)
    return glossary.link(esc(tried), lang, seen), glossary.link(esc(answered), lang, seen)


def render_glossary(lang):
    """The glossary under the step, closed: each term, its definition and the step that shows it
    (a link the page follows without loading again: static/page.js)."""
    items = []
    for term in glossary.entries(lang):
        where = ""
        if term.where and labs.path_here(term.where[0]):  # (never a lab fetched for a link's words)
            way = path.path_of(term.where[0])
            title = text(lang, path.step_key(term.where[1], "title", way.id))
            where = (f' <a class="go" href="{glossary.address(term, lang)}">'
                     f'{esc(text(lang, "glossary_where", n=term.where[1], path=text(lang, way.prefix + "name"), title=title))}</a>')
        items.append(f'<dt id="term-{term.id}" tabindex="-1">{esc(term.words[lang][0])}</dt>'
                     f'<dd>{esc(term.text[lang])}{where}</dd>')
    return (f'<details class="glossary" id="glossary"><summary>{esc(text(lang, "glossary"))}</summary>'
            f'<dl>{"".join(items)}</dl></details>')


def prose_terms(settings, tokens):
    """The terms the step's text and its task link (a view links the others, its own first use of
    each: glossary.in_prose); None in the explorer, which has no glossary."""
    if settings.step is None:
        return None
    way, lang, seen = path.path_of(settings.path), settings.lang, set()
    glossary.link(esc(text(lang, path.step_key(settings.step, "text", way.id))), lang, seen)
    glossary.link(esc(try_text(settings, tokens)), lang, seen)
    return frozenset(seen)


def try_text(settings, tokens):
    """Step `settings.step`'s "try this", as plain text."""
    way, number = path.path_of(settings.path), settings.step
    live = path.answers_of(way)
    params = live.try_params(way.steps[number - 1], tokens or []) if live else {}
    return text(settings.lang, path.step_key(number, "try", way.id), **params)


def try_and_answer(settings, tokens, record):
    """Step `settings.step`'s "try this" and its answer, as plain text: written from the record on
    screen where its path has a module for that (path.Path.answers), else its strings."""
    way, number, lang = path.path_of(settings.path), settings.step, settings.lang
    step, live = way.steps[number - 1], path.answers_of(way)
    tried = try_text(settings, tokens)
    if live:
        return tried, live.answer(step, settings, tokens or [], record)
    return tried, text(lang, path.step_key(number, "answer", way.id))


def render_end(lang, off="", prefix="path_", seen=None, in_model=False):
    """The path's last words (its string <prefix>end, if it has one: what it went through; a term
    not in `seen` a link to its glossary entry), and the ways on: the explorer, and the trained model
    unless the last step is in it already (`in_model`: the explorer is then the model's) or its
    files were found left out of this copy (app/model.py)."""
    summary = STRINGS[lang].get(prefix + "end")
    said = "" if summary is None else glossary.link(esc(summary), lang, set() if seen is None else seen)
    to_model = "" if in_model or model.left_out() else (
        f' <button type="button" class="secondary" id="path-end-model"{off}>{esc(text(lang, "path_end_model"))}</button>')
    return (f'<div class="path-end">{"" if summary is None else f"<p>{said}</p>"}'
            f'<p class="path-end-ways"><button type="button" id="path-end-exit"{off}>{esc(text(lang, "path_end_explore"))}'
            f'</button>{to_model}</p></div>')
