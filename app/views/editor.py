"""W_Q, W_K, W_V of the active head and the words' cards as tables of editable cells.

Once the engine is up, every cell is a text input (name="cell"; data-matrix, data-r, data-c
say which number it is; data-value the number in use). app/page.py commits a cell on Enter, Tab or leaving
it, cancels on Escape, and on a bad number keeps the text, marks the cell invalid and
says why in #edit-message, recomputing nothing. A changed value is marked ✎ (and said in
the cell's label); one button goes back to the designed values.

The pre-rendered page (`live=False`) shows the numbers as text: no cell can be edited before
the engine is up, and a browser's autofill reads every text field of a page each time it loads,
which at 72 fields took ~100 ms of the browser's CPU for each widget of a lesson page. The
engine draws the inputs when it takes over (app/page.py); in an embedded widget, which never
shows the matrices (only the word-order swap, on its step of the path), it draws none.
"""

from app import heads, i18n
from app.i18n import short, text
from app.views.html import Column, esc, table
from app.views import registry

MATRICES = ("w_q", "w_k", "w_v")
NAMES = {"w_q": "W_Q", "w_k": "W_K", "w_v": "W_V", "cards": "cards"}


def cell_input(matrix, r, c, value, designed, label, lang, live=True):
    """One editable number: the input, and ✎ when it differs from the designed value
    (`live` False: the number as text, boxed as the input will be)."""
    edited = value != designed
    said = label + (f" ({text(lang, 'edited_mark')})" if edited else "")
    shown = short(value, lang, "full")
    if not live:
        return (f'<span class="cell{" edited" if edited else ""}">{esc(shown)}</span>'
                f'<span class="edit-mark" aria-hidden="true">{"✎" if edited else ""}</span>')
    return (f'<input type="text" inputmode="decimal" class="cell{" edited" if edited else ""}" name="cell" '
            f'id="cell-{matrix}-{r}-{c}" data-matrix="{matrix}" data-r="{r}" data-c="{c}" '
            f'data-value="{esc(shown)}" data-designed="{float(designed)!r}" data-label="{esc(label)}" '
            f'value="{esc(shown)}" aria-label="{esc(said)}" '
            f'autocomplete="off" spellcheck="false">'
            f'<span class="edit-mark" aria-hidden="true">{"✎" if edited else ""}</span>')


def matrix_table(matrix, values, designed, row_names, col_names, caption, lang, live=True):
    columns = [Column("corner", "")] + [Column(f"c{c}", esc(n)) for c, n in enumerate(col_names)]
    rows = []
    for r, row in enumerate(values):
        cells = [cell_input(matrix, r, c, v, designed[r][c],
                            text(lang, "cell_label", matrix=NAMES[matrix], row=row_names[r], col=col_names[c]),
                            lang, live) for c, v in enumerate(row)]
        rows.append((esc(row_names[r]), cells, {}))
    return (f'<div class="table-wrap" data-edit="{matrix}">'
            f'{table(columns, rows, esc(caption), cards=False, class_="matrix editable")}</div>')


def editor_tables(settings, record, tokens, designed_cards, lang, live=True):
    """(name, summary, the table's HTML) of W_Q, W_K, W_V of the active head and of the cards."""
    features = i18n.STRINGS[lang]["features"]
    head_name = text(lang, "head_name_" + heads.HEADS[settings.head].id)
    for name, used, plain in zip(MATRICES, (record.w_q, record.w_k, record.w_v), heads.designed(settings.head)):
        caption = text(lang, "edit_caption", name=NAMES[name], head=head_name)
        yield name, NAMES[name], matrix_table(name, used, plain, features, features, caption, lang, live)
    words = [f"{j + 1}. {t.text}" for j, t in enumerate(tokens)]
    caption = text(lang, "edit_cards_caption")
    yield "cards", caption, matrix_table("cards", [t.card for t in tokens], designed_cards, words, features,
                                         caption, lang, live)


def render_editor(settings, record, tokens, designed_cards, lang, live=True):
    """The editable W_Q, W_K, W_V of the active head and the cards (a disclosure each; W_Q's open)."""
    parts = [f'<details class="edit-matrix"{" open" if name == "w_q" else ""}><summary>{esc(summary)}</summary>'
             f'{html}</details>'
             for name, summary, html in editor_tables(settings, record, tokens, designed_cards, lang, live)]
    return (f'<h2>{esc(text(lang, "edit_heading"))}</h2>'
            f'<p class="edit-help">{esc(text(lang, "edit_help"))}</p>'
            + "".join(parts)
            + '<p id="edit-message" class="edit-message" role="alert"></p>'
            f'<button type="button" class="secondary" id="reset-edits">{esc(text(lang, "reset_edits"))}</button>')


# Drawn in #editor (app/render.py's render_edits), beside the word-order swap: a step shows it by name.
VIEW = registry.add(registry.View(id="editor", place=110, selector="#editor > :not(.order)"))
