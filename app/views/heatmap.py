"""The n×n grid of all weights: who looks at whom.

Rows are the words that ask (queries), columns the words looked at (keys). Each cell
shows its percentage (rounded on its own, as everywhere) and is shaded by weight; a
masked cell shows · (logit −∞, weight 0), the word itself when it is no candidate —.
Row headers are buttons (one tab stop a row, Enter/Space selects the word): choosing a
row selects that word everywhere. A real <table>, so a screen reader can walk it.
"""

from app.i18n import half_up, text
from app.views.html import esc

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


def heatmap_rows(record, names, focus, start=0, stop=None):
    """The <tr>s of rows start…stop (all by default); `names`: every asking row's name."""
    rows = []
    for i in range(start, len(names) if stop is None else min(stop, len(names))):
        selected = i == focus
        rows.append(
            f'<tr data-row="{i}"{" class=" + chr(34) + "selected" + chr(34) if selected else ""}>'
            f'<th scope="row"><button type="button" class="row-pick" data-row="{i}" '
            f'aria-pressed="{"true" if selected else "false"}">{esc(names[i])}</button></th>{cells(record, i)}</tr>')
    return "".join(rows)


def render_heatmap(record, tokens, focus, lang, row_names=None, rows=None):
    """The grid; `focus` is the selected row (highlighted), or None. `row_names`: the
    asking rows' names when they are not `tokens` (matrix mode: q1, q2, …). `rows`: how
    many rows to draw now (None: all); the table says aria-busy until the others follow
    (app/page.py draws them in tasks of their own, so a long text's grid costs no long
    wait)."""
    head = "".join(f'<th scope="col"><span>{esc(t.text)}</span></th>' for t in tokens)
    names = row_names or [t.text for t in tokens]
    busy = ' aria-busy="true"' if rows is not None and rows < len(names) else ""
    corner = esc(text(lang, "heatmap_corner"))
    return (
        f'<h2>{esc(text(lang, "heatmap_heading"))}</h2>'
        f'<p class="heatmap-help">{esc(text(lang, "heatmap_help"))}</p>'
        f'<div class="heatmap-wrap" role="region" tabindex="0" aria-label="{esc(text(lang, "heatmap_heading"))}">'
        f'<table class="heatmap"{busy}><caption>{esc(text(lang, "heatmap_caption"))}</caption>'
        f'<thead><tr><td class="corner">{corner}</td>{head}</tr></thead>'
        f'<tbody>{heatmap_rows(record, names, focus, 0, rows)}</tbody></table></div>'
        f'<p class="heatmap-cost">{esc(cost_line(len(tokens), lang))}</p>'
    )
