"""The n×n grid of all weights: who looks at whom.

Rows are the words that ask (queries), columns the words looked at (keys). Each cell
shows its percentage (rounded on its own, as everywhere) and is shaded by weight; a
masked cell shows · (logit −∞, weight 0), the word itself when it is no candidate —.
Row headers are buttons (one tab stop a row, Enter/Space selects the word): choosing a
row selects that word everywhere. A real <table>, so a screen reader can walk it.

A long grid (more than WINDOW rows) draws only a window of WINDOW rows, around what its
box shows: 200 words make 40,000 cells, and a browser lays out a table whole, so every
setting change would cost a second of layout. Two empty rows (class "gap", hidden from
screen readers) stand for the rows above and below the window, so the box scrolls as if
all were there; app/page.py sizes them and moves the window as the box scrolls (a row
header reached with Tab scrolls into view, so the next one is drawn in time). The table
says aria-rowcount, each row its aria-rowindex, so a screen reader tells "row 57 of 201";
printing draws every row; the CSV export of the matrix has them all.
"""

from app.i18n import half_up, text
from app.views.html import esc

WINDOW = 32  # rows of a long grid drawn at a time (its box shows about 14)
SHADES = 8  # shading classes s0…s7 by √(shown percentage), so middle weights show (the number is written too)


def whole(n, lang):
    """A whole number with the language's thousands mark: 1.000.000 / 1,000,000."""
    return f"{n:,}".replace(",", "." if lang == "it" else ",")


def cost_line(n, lang):
    """'6 parole → 36 punteggi; 1.000 parole → 1.000.000': the n² cost of attention."""
    return text(lang, "heatmap_cost", n=whole(n, lang), cells=whole(n * n, lang))


def whole_percent(w):
    """100 × w rounded half up to a whole number by the page's rule (i18n.half_up), taking
    the quick float route except within 1e-9 of a half, where the rule decides."""
    x = 100.0 * w
    if abs(x - int(x) - 0.5) < 1e-9:
        return half_up(x, 0)
    return int(x + 0.5)


# A candidate's cell for each whole percentage 0…100, shaded by √weight: built once.
CELLS = [f'<td class="s{min(int((p / 100) ** 0.5 * SHADES), SHADES - 1)}">{p}</td>' for p in range(101)]


def cells(record, i):
    """The <td>s of row i: whole percentages by the page's rule, shaded by √weight."""
    candidates, masked = record.candidates[i], record.masked[i]
    return "".join(CELLS[whole_percent(w)] if candidates[j] else
                   ('<td class="masked">·</td>' if masked[j] else '<td class="self">—</td>')
                   for j, w in enumerate(record.weights[i]))


def window_of(n, first, size=WINDOW):
    """The rows (start, stop) drawn of a grid of n rows: `size` of them, from about row
    `first` on (clamped to the grid)."""
    if n <= size:
        return 0, n
    start = max(0, min(int(first), n - size))
    return start, start + size


def heatmap_rows(record, names, focus, start=0, stop=None):
    """The <tr>s of rows start…stop (all by default); `names`: every asking row's name."""
    rows = []
    for i in range(start, len(names) if stop is None else min(stop, len(names))):
        selected = i == focus
        rows.append(
            f'<tr data-row="{i}" aria-rowindex="{i + 2}"{" class=" + chr(34) + "selected" + chr(34) if selected else ""}>'
            f'<th scope="row"><button type="button" class="row-pick" data-row="{i}" '
            f'aria-pressed="{"true" if selected else "false"}">{esc(names[i])}</button></th>{cells(record, i)}</tr>')
    return "".join(rows)


def gap_row(where, n_k):
    """An empty row standing for the undrawn rows above ("top") or below ("bottom")."""
    return f'<tr class="gap" data-gap="{where}" aria-hidden="true"><td colspan="{n_k + 1}"></td></tr>'


def render_heatmap(record, tokens, focus, lang, row_names=None, first=0):
    """The grid; `focus` is the selected row (highlighted), or None. `row_names`: the
    asking rows' names when they are not `tokens` (matrix mode: q1, q2, …). A long grid
    draws the WINDOW rows from about row `first` (see the module's note); `first=None`
    draws every row (printing, a notebook)."""
    head = "".join(f'<th scope="col"><span>{esc(t.text)}</span></th>' for t in tokens)
    names = row_names or [t.text for t in tokens]
    n = len(names)
    start, stop = (0, n) if first is None else window_of(n, first)
    body = heatmap_rows(record, names, focus, start, stop)
    windowed = stop - start < n
    if windowed:
        body = gap_row("top", len(tokens)) + body + gap_row("bottom", len(tokens))
    caption = text(lang, "heatmap_caption") + (text(lang, "heatmap_window") if windowed else "")
    corner = esc(text(lang, "heatmap_corner"))
    return (
        f'<h2>{esc(text(lang, "heatmap_heading"))}</h2>'
        f'<p class="heatmap-help">{esc(text(lang, "heatmap_help"))}</p>'
        f'<div class="heatmap-wrap" role="region" tabindex="0" aria-label="{esc(text(lang, "heatmap_heading"))}">'
        f'<table class="heatmap" aria-rowcount="{n + 1}" data-start="{start}" data-stop="{stop}">'
        f'<caption>{esc(caption)}</caption>'
        f'<thead><tr aria-rowindex="1"><td class="corner">{corner}</td>{head}</tr></thead>'
        f'<tbody>{body}</tbody></table></div>'
        f'<p class="heatmap-cost">{esc(cost_line(len(tokens), lang))}</p>'
    )
