"""A picture for slides and worksheets: the selected word's bars and the whole matrix of
weights as one SVG, with the sentence and the settings written under them.

Drawn here from the attention record alone, with the numbers the page shows (each percentage
by the page's rule, app/i18n.py), in the page's own fonts (the system fonts of style.css:
nothing is loaded). The page's thread turns the same SVG into a PNG at twice its size
(static/page.js, `picture`), drawing the SVG onto a canvas: the canvas writes no text of its
own. Past MAX_GRID words the matrix would be too small to read: the picture then says so and
the matrix's CSV has it whole.
"""

import re

from app import heads
from app.i18n import percent, short, text
from app.views.bars import STATUS_NOTE
from app.views.controls import slope_said
from app.views import heatmap
from app.views.html import esc

FONT = 'system-ui, -apple-system, &quot;Segoe UI&quot;, Roboto, &quot;DejaVu Sans&quot;, sans-serif'
WIDTH = 800  # px: the SVG's width (the PNG's is twice this)
PAD = 24
LINE = 26  # px: one bar's row
LABEL = 150  # px: the words' column, left of the bars and the grid
BAR = 400  # px: a 100% bar
MAX_GRID = 40  # the most words whose matrix the picture draws (and whose bars it draws all of)
MAX_BARS = 20  # past MAX_GRID words: the bars of the words looked at most, this many
LABEL_CHARS, COLUMN_CHARS = 18, 12  # a longer word is cut with "…" (its row, its slanted column name)
INK, MUTED, BAR_FILL, BAR_BG, PAPER = "#1d2330", "#4a5263", "#1f5fbf", "#e2e7f0", "#ffffff"


def shade(p):
    """The fill of a cell showing percentage p: the page's shade k (views/heatmap.py) mixes
    k × 9% of the bar's blue into white, as style.css does (its number stays dark ink: ≥ 5:1
    on every shade)."""
    a = 0.09 * heatmap.shade(p)
    mix = [round(255 * (1 - a) + c * a) for c in (0x1F, 0x5F, 0xBF)]
    return "#%02x%02x%02x" % tuple(mix), INK


# Characters XML does not allow (a control character pasted with a sentence): left out of the SVG.
NOT_XML = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\ufffe\uffff\ud800-\udfff]")


def _text(x, y, words, size=14, weight=None, anchor=None, fill=INK, extra=""):
    attrs = f' font-weight="{weight}"' if weight else ""
    attrs += f' text-anchor="{anchor}"' if anchor else ""
    return f'<text x="{x:g}" y="{y:g}" font-size="{size}" fill="{fill}"{attrs}{extra}>{esc(NOT_XML.sub("", words))}</text>'


def fit(word, chars):
    """`word`, cut to `chars` characters with "…" when longer."""
    return word if len(word) <= chars else word[:chars - 1] + "…"


def settings_line(settings, lang):
    """'Maschera causale: sì · Includi la parola stessa: no · Dividi per √d_k: sì · T = 1 · …'"""
    yes, no = text(lang, "pic_yes"), text(lang, "pic_no")
    parts = [f'{text(lang, "mask")}: {yes if settings.mask else no}',
             f'{text(lang, "self")}: {yes if settings.include_self else no}',
             f'{text(lang, "scaled")}: {yes if settings.scaled else no}',
             f'T = {short(settings.temperature, lang)}']
    if settings.mode != "matrix":
        parts.append(f'{text(lang, "pos")}: {slope_said(settings)}')
        parts.append(f'{text(lang, "head")}: {text(lang, "head_name_" + heads.HEADS[settings.head].id)}')
    return " · ".join(parts)


def wrap(words, chars):
    """`words` in lines of at most about `chars` characters."""
    lines, line = [], ""
    for word in words.split(" "):
        if line and len(line) + 1 + len(word) > chars:
            lines.append(line)
            line = word
        else:
            line = f"{line} {word}" if line else word
    return lines + [line] if line else lines


def picture_svg(settings, tokens, record, row, row_names, lang):
    """The SVG text: bars of `row` (None: no bars), the matrix, the sentence and the settings."""
    out, y = [], PAD
    word = row_names[row.focus] if row is not None else ""
    if row is not None:
        y += 18
        out.append(_text(PAD, y, text(lang, "bars_heading", word=word), 20, "700"))
        y += 14
        shown = range(len(tokens))
        if len(tokens) > MAX_GRID:  # (a long text: the words it looks at most, in the sentence's order)
            ranked = sorted((j for j in shown if row.status(j) == "candidate"), key=lambda j: -row.weights[j])
            shown = sorted(ranked[:MAX_BARS])
            y += 14
            out.append(_text(PAD, y, text(lang, "pic_bars_top", n=len(shown)), 13, fill=MUTED))
            y += 6
        for j in shown:
            tok = tokens[j]
            mid = y + LINE / 2
            out.append(_text(PAD + LABEL - 8, mid + 5, fit(tok.text, LABEL_CHARS), 14, "600", "end"))
            status = row.status(j)
            if status == "candidate":
                w = row.weights[j]
                out.append(f'<rect x="{PAD + LABEL}" y="{mid - 8}" width="{BAR}" height="16" fill="{BAR_BG}"/>'
                           f'<rect x="{PAD + LABEL}" y="{mid - 8}" width="{BAR * w:.2f}" height="16" fill="{BAR_FILL}"/>')
                out.append(_text(PAD + LABEL + BAR + 8, mid + 5, percent(w, lang), 14))
            else:
                note = text(lang, STATUS_NOTE[status])
                out.append(_text(PAD + LABEL, mid + 5, "— " + note, 13, fill=MUTED))
            y += LINE
        y += 20
    n_q, n_k = record.n_q, record.n_k
    y += 18
    out.append(_text(PAD, y, text(lang, "heatmap_heading"), 20, "700"))
    y += 10
    if max(n_q, n_k) > MAX_GRID:
        y += 20
        out.append(_text(PAD, y, text(lang, "pic_grid_too_big", n=max(n_q, n_k)), 14, fill=MUTED))
    else:
        cell = min(44.0, (WIDTH - 2 * PAD - LABEL) / n_k)
        numbers = cell >= 22
        head = 70  # room for the slanted column names
        y += head
        out.append(_text(PAD, y - 8, text(lang, "heatmap_corner"), 12, fill=MUTED))
        for j, tok in enumerate(tokens):
            x = PAD + LABEL + (j + 0.5) * cell
            out.append(_text(x, y - 8, fit(tok.text, COLUMN_CHARS), 13, "600",
                             extra=f' transform="rotate(-45 {x:g} {y - 8:g})"'))
        for i in range(n_q):
            top = y + i * cell
            out.append(_text(PAD + LABEL - 8, top + cell / 2 + 5, fit(row_names[i], LABEL_CHARS), 14, "600", "end"))
            for j in range(n_k):
                x = PAD + LABEL + j * cell
                if record.candidates[i][j]:
                    p = heatmap.whole_percent(record.weights[i][j])
                    fill, ink = shade(p)
                    label = str(p) if numbers else ""
                else:
                    fill, ink = BAR_BG, MUTED
                    label = "·" if record.masked[i][j] else "—"
                out.append(f'<rect x="{x:.2f}" y="{top:.2f}" width="{cell:.2f}" height="{cell:.2f}" '
                           f'fill="{fill}" stroke="{PAPER}"/>')
                if label and (numbers or not record.candidates[i][j]) and cell >= 12:
                    out.append(_text(x + cell / 2, top + cell / 2 + 4, label, min(13, cell * 0.45), None, "middle", ink))
        if row is not None:
            top = y + row.focus * cell
            out.append(f'<rect x="{PAD + LABEL - 1}" y="{top - 1:.2f}" width="{n_k * cell + 2:.2f}" '
                       f'height="{cell + 2:.2f}" fill="none" stroke="{INK}" stroke-width="2"/>')
        y += n_q * cell
    y += 30
    if settings.mode == "matrix":
        caption = text(lang, "pic_matrices", nq=n_q, nk=n_k, dk=record.d_k)
    else:
        caption = text(lang, "pic_sentence", sentence=settings.sentence)
    for line in wrap(caption, 95) + wrap(settings_line(settings, lang), 100):
        out.append(_text(PAD, y, line, 13, fill=INK))
        y += 20
    height = int(y + PAD - 10)
    return (f'<svg xmlns="http://www.w3.org/2000/svg" width="{WIDTH}" height="{height}" '
            f'viewBox="0 0 {WIDTH} {height}" font-family="{FONT}" lang="{lang}">'
            f'<title>{esc(NOT_XML.sub("", text(lang, "pic_title", word=word) if row is not None else text(lang, "heatmap_heading")))}</title>'
            f'<rect width="{WIDTH}" height="{height}" fill="{PAPER}"/>' + "".join(out) + "</svg>")


def picture_name(row_names, row, lang, ext):
    """'attenzione-dormiva.svg' ('attention-matrix.png' with no word selected)."""
    stem = "attenzione" if lang == "it" else "attention"
    word = "".join(c for c in row_names[row.focus] if c.isalnum())[:30] if row is not None else ""
    return f"{stem}-{word or text(lang, 'pic_matrix_name')}.{ext}"
