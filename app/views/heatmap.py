"""The n×n grid of all weights: who looks at whom.

Rows are the words that ask (queries), columns the words looked at (keys); the corner says
so, and a word pointed at anywhere marks its row and column header (static/page.js). Each cell
shows its percentage (rounded on its own, as everywhere) and is shaded by weight; a
masked cell shows · (logit −∞, weight 0), the word itself when it is no candidate —.
Row headers are buttons (one tab stop a row, Enter/Space selects the word): choosing a
row selects that word everywhere. A real <table>, so a screen reader can walk it.

A long grid (more than WINDOW rows) draws only a window of WINDOW rows, around what its
box shows: 200 words make 40,000 cells, and a browser lays out a table whole, so every
setting change would cost a second of layout. Two empty rows (class "gap", hidden from
screen readers) stand for the rows above and below the window, so the box scrolls as if
all were there; app/grid.py sizes them and moves the window as the box scrolls (a row
header reached with Tab scrolls into view, so the next one is drawn in time). The table
says aria-rowcount, each row its aria-rowindex, so a screen reader tells "row 57 of 201";
printing draws every row; the CSV export of the matrix has them all.

A wide grid (more than COLUMNS words) draws, in each drawn row, only COLUMNS columns
around what the box shows (32 rows of 200 columns still cost ~130 ms of layout; of 40,
~30 ms). The column headers are all drawn, so each column keeps its width; in a row, an
empty cell spanning the columns left out (class "skip", hidden from screen readers) stands
before and after the drawn ones, and each cell says its aria-colindex ("column 57 of 201").
"""

from app.i18n import text
from app.numbers import whole, whole_percent
from app.views.html import esc
from app.views import registry

WINDOW = 32  # rows of a long grid drawn at a time (its box shows about 14)
COLUMNS = 40  # columns of a wide grid drawn at a time (its box shows about 21 at 1280 px, 6 at 360)
SHADES = 8  # shading classes s0…s7 by √(shown percentage), so middle weights show (the number is written too)


def cost_line(n, lang, record=None):
    """'6 parole → 36 punteggi; 1.000 parole → 1.000.000': the n² cost of attention. Under a
    pattern of the cost lab (its record part "cost_rule": the pattern, w, g, r and the cells of its
    rule at n = 1,000) the line is the pattern's own (`heatmap_cost_<pattern>`), saying how it grows."""
    rule = (getattr(record, "parts", None) or {}).get("cost_rule")
    if rule is None or rule["pattern"] == "full":
        return text(lang, "heatmap_cost", n=whole(n, lang), cells=whole(n * n, lang))
    return text(lang, "heatmap_cost_" + rule["pattern"], n=whole(n, lang), cells=whole(record.computed_cells, lang),
                big=whole(rule["at_1000"], lang), w=rule["window"], row=2 * rule["window"] + 1, g=rule["globals"],
                r=rule["random"])


def shade(p):
    """The shading class 0…SHADES−1 of a cell showing whole percentage p: by √p, so middle
    weights show (app/picture.py draws the same shades)."""
    return min(int((p / 100) ** 0.5 * SHADES), SHADES - 1)


# A candidate's cell for each whole percentage 0…100, shaded by √weight: built once. (A cell shows
# the whole percentage, numbers.whole_percent: the grid's cells are too small for more digits.)
CELLS = [f'<td class="s{shade(p)}">{p}</td>' for p in range(101)]


def cell(candidate, masked, weight, allowed=True):
    """One cell: a candidate's whole percentage by the page's rule, shaded by √weight; · a
    masked word; × a key the cost lab's pattern leaves out (`allowed` False: never computed);
    — the word itself when it is no candidate."""
    if candidate:
        return CELLS[whole_percent(weight)]
    if masked:
        return '<td class="masked">·</td>'
    return '<td class="self">—</td>' if allowed else '<td class="skipped">×</td>'


def cells(record, i):
    """The <td>s of row i."""
    if record.pattern is not None:
        return "".join(map(cell, record.candidates[i], record.masked[i], record.weights[i], record.pattern[i]))
    return "".join(map(cell, record.candidates[i], record.masked[i], record.weights[i]))


def cells_window(record, i, c0, c1):
    """The <td>s of columns c0…c1 of row i, each with its aria-colindex (the row header is
    column 1), between the cells that stand for the columns left out."""
    candidates, masked, weights = record.candidates[i], record.masked[i], record.weights[i]
    allowed = record.pattern[i] if record.pattern is not None else [True] * len(weights)
    out = [f'<td class="skip" colspan="{c0}" aria-hidden="true"></td>' if c0 > 0 else ""]
    out += [f'<td aria-colindex="{j + 2}"{cell(candidates[j], masked[j], weights[j], allowed[j])[3:]}'
            for j in range(c0, c1)]
    if c1 < len(weights):
        out.append(f'<td class="skip" colspan="{len(weights) - c1}" aria-hidden="true"></td>')
    return "".join(out)


def window_of(n, first, size=WINDOW):
    """The rows (start, stop) drawn of a grid of n rows: `size` of them, from about row
    `first` on (clamped to the grid)."""
    if n <= size:
        return 0, n
    start = max(0, min(int(first), n - size))
    return start, start + size


def heatmap_rows(record, names, focus, start=0, stop=None, columns=None):
    """The <tr>s of rows start…stop (all by default); `names`: every asking row's name;
    `columns`: the (c0, c1) drawn of a wide grid (None: all)."""
    rows = []
    draw = (lambda i: cells(record, i)) if columns is None else (lambda i: cells_window(record, i, *columns))
    head = ' aria-colindex="1"' if columns is not None else ""
    for i in range(start, len(names) if stop is None else min(stop, len(names))):
        rows.append(row_start(i, names[i], i == focus, head) + draw(i) + "</tr>")
    return "".join(rows)


def row_start(i, name, selected, head="", button=""):
    """A row's <tr> and its header: a button that picks row i (pressed when selected); `head`,
    `button`: more attributes for the header cell and the button (the trained model's tables)."""
    return (f'<tr data-row="{i}" aria-rowindex="{i + 2}"{" class=" + chr(34) + "selected" + chr(34) if selected else ""}>'
            f'<th scope="row"{head}><button type="button" class="row-pick"{button} data-row="{i}" '
            f'aria-pressed="{"true" if selected else "false"}">{esc(name)}</button></th>')


def gap_row(where, n_k):
    """An empty row standing for the undrawn rows above ("top") or below ("bottom")."""
    return f'<tr class="gap" data-gap="{where}" aria-hidden="true"><td colspan="{n_k + 1}"></td></tr>'


def render_heatmap(record, tokens, focus, lang, row_names=None, first=0, first_column=0):
    """The grid; `focus` is the selected row (highlighted), or None. `row_names`: the
    asking rows' names when they are not `tokens` (matrix mode: q1, q2, …). A long grid
    draws the WINDOW rows from about row `first`, a wide one the COLUMNS columns from about
    column `first_column` (see the module's note); `first=None` draws every cell (printing,
    a notebook)."""
    names = row_names or [t.text for t in tokens]
    n, n_k = len(names), len(tokens)
    start, stop = (0, n) if first is None else window_of(n, first)
    c0, c1 = (0, n_k) if first is None else window_of(n_k, first_column, COLUMNS)
    columns = (c0, c1) if c1 - c0 < n_k else None
    mark = (lambda j: f' aria-colindex="{j + 2}"') if columns else (lambda j: "")
    head = "".join(f'<th scope="col" data-col="{j}"{mark(j)}><span>{esc(t.text)}</span></th>'
                   for j, t in enumerate(tokens))
    body = heatmap_rows(record, names, focus, start, stop, columns)
    windowed = stop - start < n
    if windowed:
        body = gap_row("top", len(tokens)) + body + gap_row("bottom", len(tokens))
    caption = text(lang, "heatmap_caption") + (text(lang, "heatmap_window") if windowed else "")
    corner = esc(text(lang, "heatmap_corner"))
    wide = f' aria-colcount="{n_k + 1}" data-cstart="{c0}" data-cstop="{c1}"' if columns else ""
    return (
        f'<h2>{esc(text(lang, "heatmap_heading"))}</h2>'
        f'<p class="heatmap-help">{esc(text(lang, "heatmap_help"))}'
        + (f' {esc(text(lang, "heatmap_skipped", cells=whole(record.computed_cells, lang), full=whole(n * n_k, lang)))}'
           if record.pattern is not None else "") + '</p>'
        f'<div class="heatmap-wrap" role="region" tabindex="0" aria-label="{esc(text(lang, "heatmap_heading"))}">'
        f'<table class="heatmap" aria-rowcount="{n + 1}" data-start="{start}" data-stop="{stop}"{wide}>'
        f'<caption>{esc(caption)}</caption>'
        f'<thead><tr aria-rowindex="1"><td class="corner"{mark(-1)}>{corner}</td>{head}</tr></thead>'
        f'<tbody>{body}</tbody></table></div>'
        f'<p class="heatmap-cost">{esc(cost_line(len(tokens), lang, record))}</p>'
    )


SMALL_GRID = 10  # words: a grid this narrow shares the width with the new card (style.css)


def _section(ctx):
    """The grid of every row; in sentence mode a small one leaves room beside it on a wide screen
    (the new card goes there, style.css); in matrix mode its rows are q1, q2, …; in model mode one
    table per layer and head, which app/views/model.py draws (registry.add_draw)."""
    settings, record = ctx.settings, ctx.record
    if settings.mode == "matrix":
        names = [text(ctx.lang, "mm_row", i=i + 1) for i in range(record.n_q)]
        small = ""
    else:
        names, small = None, (" small-grid" if record.n_k <= SMALL_GRID else "")
    return registry.section("heatmap", render_heatmap(record, ctx.tokens, settings.focus, ctx.lang, names,
                                                      *ctx.grid_first), "heatmap-section" + small)


VIEW = registry.add(registry.View(id="heatmap", place=50, modes=("sentence", "matrix", "model"), tab=True,
                                  every_row=True, draw=_section))
