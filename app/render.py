"""The page assembled from its views (app/views/): pure functions from the settings, the
tokens and the attention record to HTML strings.

Nothing here touches the DOM or recomputes the maths: every number comes from the
`Attention` record (app/attention.py) and every piece of user text is escaped. The same
functions pre-render the static page at build time (on CPython) and update it in the
browser, so what a student sees before and after Python starts is the same HTML.

On the full page every view is visible; an embedded widget (html.embed) shows one view
at a time, chosen with the view tabs (the `view` setting). Which views a mode draws, in which
order, and which follow the selected row, comes from their declarations
(app/views/registry.py): nothing here names a view but the bars' and the table's changes in
place.
"""

from app import settings as schema
from app.i18n import text
from app.views.bars import announcement, bars_patch, explain
from app.views import matrix_mode
from app.views import model as model_view
from app.views.controls import render_about, render_controls, render_header, render_settings, render_share
from app.views.editor import render_editor
from app.views.order import render_order
from app.views.heatmap import heatmap_rows
from app.views.html import esc, labelled
from app.views.messages import render_messages
from app.views.path import prose_terms, render_path
from app.views.query import query_section
from app.views.quiz import quiz_announcement, render_quiz
from app.views.sentence import render_sentence
from app.views.steps import table_patch
from app.views import registry

registry.load()  # (every view module declares its views: the lists below are theirs)

def view_tabs(view, lang, interactive=True, locked=False):
    """The view choice of an embedded widget: native radio buttons styled as tabs (`locked`, a
    graded exercise: no tab of a view that shows every row's weights, which it never draws)."""
    off = "" if interactive else " disabled"
    items = "".join(
        f'<label class="view-tab"><input type="radio" name="view" value="{v}"'
        f'{" checked" if v == view else ""}{off}> {esc(registry.tab_title(v, lang))}</label>'
        for v in schema.VIEWS if not (locked and registry.every_row(v)))
    return (f'<fieldset class="view-tabs"><legend class="sr-only">{esc(text(lang, "view_legend"))}</legend>'
            f'{items}</fieldset>')


# The element each part of `render_row_views` fills: a word click redraws only these (the
# disclosures of W_Q and W_O around them stay as the student left them): the views declared
# with a row part (app/views/registry.py).
ROW_PARTS = registry.row_parts()


def undrawn_parts(settings, mode="sentence"):
    """The row parts of the views `settings` do not draw (a step's others: app/views/registry.py,
    `draws`): nothing computes them."""
    return {view.id for view in registry.views(mode) if view.row is not None and not registry.draws(settings, view)}


def render_row_views(row, tokens, lang, skip=(), terms=None):
    """The views that show the selected row: query, bars (with its explanation), steps,
    output, every head side by side and the multi-head output (matrix mode: bars and
    steps of the query row qi). `skip`: parts not to render (changed in place instead, or not
    drawn). A table written by hand gets its cells' column names (app/views/html.py `labelled`)."""
    matrix = row.record.head_records is None
    word = text(lang, "mm_row", i=row.focus + 1) if matrix else None
    return {view.id: labelled(registry.glossed((registry.row_draw(view.id, row) or view.row)(row, tokens, lang, word),
                                               lang, terms))
            for view in registry.views("matrix" if matrix else "sentence") if view.row is not None and view.id not in skip}


def view_inside(settings, tokens, record, row, view_id):
    """What the section of the view `view_id` (one drawn whole: `draw`) holds, drawn again for
    `settings` on the same record (a setting its `light` says only it shows: the state stepper)."""
    view = registry.view(view_id)
    terms = prose_terms(settings, tokens)
    ctx = registry.Context(settings=settings, tokens=tokens, record=record, row=row, parts={}, terms=terms)
    html = labelled(registry.glossed(view.draw(ctx), settings.lang, terms))
    return html[html.index(">") + 1:html.rindex("</section>")]


def row_changes(befores, row, tokens, lang):
    """A word click to `row` of the same record: the bars and the table as changes in
    place ({part: [(selector, attribute or "" for text or "outerHTML", [value for each
    element found])]}). `befores`: {part: the row it shows now} for the parts to change
    ("bars", "table"; others are ignored); a part left out of the answer is drawn whole."""
    word = text(lang, "mm_row", i=row.focus + 1) if row.record.head_records is None else None
    patches = {"bars": bars_patch, "table": table_patch}
    changes = {name: patches[name](before, row, tokens, lang, word)
               for name, before in befores.items() if name in patches and registry.row_draw(name, row) is None
               and registry.row_draw(name, before) is None}  # (a lab's drawing: drawn whole)
    if word is None and changes.get("bars") is not None:  # sentence mode: the bars' explanation
        changes["bars"].append(("p.explain", "", [explain(row, tokens, lang)]))
    return {name: change for name, change in changes.items() if change is not None}


def row_names(settings, tokens, record):
    """The heatmap's asking rows: the words (matrix mode: q1, q2, …)."""
    if settings.mode == "matrix":
        return [text(settings.lang, "mm_row", i=i + 1) for i in range(record.n_q)]
    return [t.text for t in tokens]


def heatmap_more(settings, tokens, record, start, stop, columns=None):
    """Rows start…stop of the heatmap, for a long grid's window, with the columns (c0, c1) of a
    wide one's (views/heatmap.py; None: all)."""
    return heatmap_rows(record, row_names(settings, tokens, record), settings.focus, start, stop, columns)


def render_matrix_analysis(settings, tokens, record, row, interactive=True, grid_first=(0, 0)):
    """Matrix mode: every step as a matrix with its shape, the grid, the selected row's
    bars and steps table, and the compare field."""
    terms = prose_terms(settings, tokens)
    parts = render_row_views(row, tokens, settings.lang, undrawn_parts(settings, "matrix"),
                             terms) if row is not None else {}
    ctx = registry.Context(settings=settings, tokens=tokens, record=record, row=row, parts=parts, terms=terms,
                           grid_first=grid_first, interactive=interactive)
    return registry.drawn(ctx, "matrix")


def render_analysis(settings, tokens, record, row, interactive=True, quiz=None, grid_first=(0, 0), later=()):
    """Query, bars, steps table, heatmap and output (or a prompt to pick a word).
    `grid_first`: a long grid is drawn from about this (row, column) (views/heatmap.py).
    `later`: row parts ("bars", "table") left empty, to be drawn later (app/page.py).

    With guess-first on (`quiz`: the tab's quiz.Session) the quiz section comes first;
    until the student guesses, only the question (query) and the guess form are shown,
    and no heatmap either (it would show every row's answer)."""
    lang = settings.lang
    if settings.mode == "model":  # the trained model (app/views/model.py)
        return model_view.render_model_analysis(settings, record, interactive, prose_terms(settings, tokens))
    if record is None:
        return f'<p class="prompt">{esc(text(lang, "pick_word"))}</p>'
    if settings.quiz and quiz is not None:
        quiz_html = render_quiz(row, tokens, quiz, lang)
        if row is None:
            return f'<p class="prompt">{esc(text(lang, "pick_word"))}</p>' + quiz_html
        if not quiz.revealed(row):
            return query_section(row, tokens, lang) + quiz_html
        return quiz_html + render_analysis(settings.copy(quiz=False), tokens, record, row, interactive,
                                           grid_first=grid_first)
    if settings.mode == "matrix":
        return render_matrix_analysis(settings, tokens, record, row, interactive, grid_first)
    if row is None:  # (no word picked: the views that follow it wait; a prompt stands in their place)
        ctx = registry.Context(settings=settings, tokens=tokens, record=record, row=None, parts={},
                               terms=prose_terms(settings, tokens),
                               grid_first=grid_first, interactive=interactive)
        return (view_tabs(settings.view, lang, interactive, settings.lock)
                + f'<p class="prompt">{esc(text(lang, "pick_word"))}</p>'
                + registry.drawn(ctx, "sentence", following=False))
    terms = prose_terms(settings, tokens)
    parts = render_row_views(row, tokens, lang, skip=set(later) | undrawn_parts(settings), terms=terms)
    parts.update(dict.fromkeys(later, ""))
    ctx = registry.Context(settings=settings, tokens=tokens, record=record, row=row, parts=parts, terms=terms,
                           grid_first=grid_first, interactive=interactive)
    return view_tabs(settings.view, lang, interactive, settings.lock) + registry.drawn(ctx, "sentence")


def announcement_of(settings, tokens, record, row, quiz=None):
    """The live region's sentence for what is selected (model mode: a position)."""
    if settings.mode == "model":
        return model_view.announcement(record, settings.focus, settings.lang)
    return row_announcement(row, tokens, settings.lang, quiz)


def row_announcement(row, tokens, lang, quiz=None):
    """The live region's sentence; with guess-first on (`quiz`: the session) the question
    until a guess, then the feedback before it."""
    lab = None if row is None else registry.row_draw("announce", row)  # (a lab's sentence: the beyond lab's scores)
    said = lab(row, tokens, lang, None) if lab else announcement(row, tokens, lang, "" if row is None else explain(row, tokens, lang))
    return said if quiz is None else quiz_announcement(row, tokens, quiz, lang, said)


def render_app(settings, tokens, record, row, notes=(), problems=(), interactive=True):
    """Everything inside <main id="app">, with one element per region page.py updates.
    `interactive` "early": the pre-rendered page, whose only enabled controls are those
    static/early.js answers before Python is up (the words, the mask and include-self)."""
    lang = settings.lang
    early, interactive = interactive, interactive is True
    return (
        f'<header id="header">{render_header(lang)}</header>'
        f'<section id="controls" class="controls">{render_controls(settings, early)}</section>'
        f'<div id="messages" class="messages">{render_messages(notes, problems, lang)}</div>'
        f'<section id="path" class="path">{render_path(settings, early, tokens, record)}</section>'
        f'<section id="sentence" class="sentence">{render_words(settings, tokens, record, early)}</section>'
        f'<section id="settings" class="settings">'
        f'{render_settings(settings, early)}</section>'
        f'<div id="analysis" class="analysis" data-view="{esc(settings.view)}">'
        f'{render_analysis(settings, tokens, record, row, interactive)}</div>'
        f'<section id="editor" class="editor">{render_edits(settings, tokens, record, interactive)}</section>'
        f'<section id="share" class="share">{render_share(lang, interactive, settings.mode, settings.lock)}</section>'
        f'<section id="about" class="about">{render_about(lang, interactive, settings.mode, settings.lock)}</section>'
    )


def render_words(settings, tokens, record, interactive=True, typed=None, problems=None):
    """The sentence with its cards, in matrix mode the boxes for Q, K, V and the rows, in model
    mode the letters as positions."""
    if settings.mode == "model":
        return model_view.render_tokens([t.text for t in tokens], settings.focus, settings.lang, interactive)
    if settings.mode == "matrix" and record is not None:
        off = "" if interactive is True else " disabled"
        return matrix_mode.render_inputs(settings, record, settings.lang, typed, problems, off)
    return render_sentence(tokens, settings.focus, settings.lang, interactive)


def has_editor(settings, record):
    """Whether `settings` show the editable matrices and cards (sentence mode, heads computed)."""
    return settings.mode == "sentence" and record is not None and record.head_records is not None


def render_edits(settings, tokens, record, interactive=True, designed_cards=None, matrices=True):
    """The word-order swap, the editable matrices and cards (sentence mode), or nothing;
    `interactive` not True (the pre-rendered page): the cells' numbers as text, which the
    engine makes inputs (app/page.py); `matrices` False (an embedded widget, which never shows
    them): the swap alone."""
    if not has_editor(settings, record):
        return ""
    cards = designed_cards if designed_cards is not None else [t.card for t in tokens]
    if settings.lock:  # a graded exercise: nothing to edit (the cards are on the words, q under them)
        return ""
    order = f'<div class="order">{render_order(tokens, settings.lang)}</div>'
    return order + (render_editor(settings, record, tokens, cards, settings.lang, live=interactive is True)
                    if matrices else "")
