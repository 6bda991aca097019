"""Matrix mode (seed 003's exercise): Q, K, V typed in, every step as a matrix with its
shape, the mask as 0/−∞, and a field to compare the page's numbers with one's own."""

from app import matrices
from app.i18n import num, text
from app.views.html import Column, esc, table
from app.views import registry

DECIMALS = 3  # every matrix of the steps shows three decimals
INPUTS = ("q", "k", "v")
COMPARE_STEPS = ("weights", "output", "logits", "dots")  # what the compare field can check


def cell(x, lang):
    return "—" if x is None else esc(num(x, lang, DECIMALS))


def labels(prefix, n, lang):
    return [text(lang, prefix, i=i + 1, j=i + 1) for i in range(n)]


def matrix_view(values, row_names, col_names, caption, lang, klass="matrix", shown=None):
    """A matrix as a table; `shown(r, c, x)` may write a cell another way."""
    columns = [Column("corner", "")] + [Column(f"c{c}", esc(n)) for c, n in enumerate(col_names)]
    rows = []
    for r, row in enumerate(values):
        if row is None:
            row = [None] * len(col_names)
        rows.append((esc(row_names[r]), [shown(r, c, x) if shown else cell(x, lang) for c, x in enumerate(row)], {}))
    return f'<div class="table-wrap">{table(columns, rows, esc(caption), cards=False, class_=klass)}</div>'


def _shapes(record):
    return dict(nq=record.n_q, nk=record.n_k, dk=len(record.keys[0]), dv=len(record.values[0]))


def step_matrix(record, step):
    """The matrix of a named step (as the compare field reads it)."""
    return {"weights": record.weights, "output": record.outputs, "logits": record.logits,
            "dots": record.dots}[step]


def render_inputs(settings, record, lang, typed=None, problems=None, off=""):
    """The three boxes, the buttons, the examples, the random note and the row choice.
    `typed`/`problems`: what the student typed in each box and why it cannot be read."""
    typed, problems = typed or {}, problems or {}
    used = {"q": record.queries, "k": record.keys, "v": record.values}
    boxes = []
    for name in INPUTS:
        value = typed.get(name, matrices.to_text(used[name], lang))
        problem = problems.get(name)
        message = (f'<p id="mm-{name}-message" class="cell-message" role="alert">{esc(problem)}</p>'
                   if problem else f'<p id="mm-{name}-message" class="cell-message" role="alert"></p>')
        invalid = ' aria-invalid="true"' if problem else ""
        boxes.append(f'<div class="mm-box"><label for="mm-{name}">{esc(text(lang, "mm_label_" + name))}</label>'
                     f'<textarea id="mm-{name}" name="mm-{name}" rows="4" spellcheck="false" '
                     f'aria-describedby="mm-formats mm-{name}-message"{invalid}{off}>{esc(value)}</textarea>'
                     f'{message}</div>')
    options = [f'<option value="">{esc(text(lang, "mm_example_pick"))}</option>'] + [
        f'<option value="{i}">{esc(text(lang, "mm_example_" + ex[0]))}</option>'
        for i, ex in enumerate(matrices.EXAMPLES)]
    seed_note = (f'<p class="note mm-random-note">{esc(text(lang, "mm_random_note", seed=settings.seed))}</p>'
                 if settings.seed is not None else "")
    rows = "".join(
        f'<label class="mm-row"><input type="radio" name="word" value="{i}"'
        f'{" checked" if i == settings.focus else ""}{off}> {esc(name)}</label>'
        for i, name in enumerate(labels("mm_row", record.n_q, lang)))
    return (
        f'<h2>{esc(text(lang, "mm_heading"))}</h2>'
        f'<p class="mm-intro">{esc(text(lang, "mm_intro"))}</p>'
        f'<p id="mm-formats" class="mm-formats">{esc(text(lang, "mm_formats"))}</p>'
        f'<div class="mm-boxes">{"".join(boxes)}</div>'
        '<div class="mm-actions">'
        f'<button type="button" id="mm-apply"{off}>{esc(text(lang, "mm_apply"))}</button>'
        f'<button type="button" class="secondary" id="mm-random"{off}>{esc(text(lang, "mm_random"))}</button>'
        f'<label for="mm-example">{esc(text(lang, "mm_examples"))}</label>'
        f'<select id="mm-example" name="mm-example"{off}>{"".join(options)}</select></div>'
        + seed_note
        + f'<p class="mm-limits">{esc(text(lang, "mm_limits"))}</p>'
        f'<fieldset class="mm-rows"><legend>{esc(text(lang, "mm_rows_legend"))}</legend>{rows}</fieldset>'
    )


def render_steps(record, lang):
    """Q, K, V, QKᵀ, the logits, the mask, the weights and the output, each with its shape."""
    s = _shapes(record)
    q_names, k_names = labels("mm_row", s["nq"], lang), labels("mm_col", s["nk"], lang)
    d_names = [str(c + 1) for c in range(max(s["dk"], s["dv"]))]
    divisor = num(record.divisor, lang, DECIMALS).rstrip("0").rstrip(",.")
    parts = [
        matrix_view(record.queries, q_names, d_names[:s["dk"]], text(lang, "mm_step_q", **s), lang),
        matrix_view(record.keys, k_names, d_names[:s["dk"]], text(lang, "mm_step_k", **s), lang),
        matrix_view(record.values, k_names, d_names[:s["dv"]], text(lang, "mm_step_v", **s), lang),
        matrix_view(record.dots, q_names, k_names, text(lang, "mm_step_dots", **s), lang),
        matrix_view(record.logits, q_names, k_names, text(lang, "mm_step_scale", divisor=divisor, **s), lang),
    ]
    if not record.square:
        parts.append(f'<p class="note mm-mask">{esc(text(lang, "mm_mask_cross", **s))}</p>')
    elif record.mask:
        mask = [["−∞" if m else "0" for m in row] for row in record.masked]
        parts.append(matrix_view(mask, q_names, k_names, text(lang, "mm_step_mask", **s), lang,
                                 shown=lambda r, c, x: x))
    else:
        parts.append(f'<p class="note mm-mask">{esc(text(lang, "mm_mask_off"))}</p>')
    parts.append(matrix_view(record.weights, q_names, k_names, text(lang, "mm_step_softmax", **s), lang,
                             klass="matrix weights"))
    parts.append(matrix_view(record.outputs, q_names, d_names[:s["dv"]], text(lang, "mm_step_output", **s),
                             lang))
    return (f'<h2>{esc(text(lang, "mm_steps_heading"))}</h2><div class="mm-steps">' + "".join(parts) + "</div>"
            + render_compare_form(lang))


def render_compare_form(lang, typed="", step="weights"):
    options = "".join(f'<option value="{s}"{" selected" if s == step else ""}>{esc(text(lang, "cmp_" + s))}</option>'
                      for s in COMPARE_STEPS)
    return (f'<section class="compare" aria-labelledby="cmp-heading">'
            f'<h2 id="cmp-heading">{esc(text(lang, "cmp_heading"))}</h2>'
            f'<p id="cmp-help">{esc(text(lang, "cmp_help"))}</p>'
            f'<label for="cmp-text">{esc(text(lang, "cmp_label"))}</label>'
            f'<textarea id="cmp-text" name="cmp-text" rows="3" spellcheck="false" '
            f'aria-describedby="cmp-help">{esc(typed)}</textarea>'
            f'<label for="cmp-step">{esc(text(lang, "cmp_step"))}</label>'
            f'<select id="cmp-step" name="cmp-step">{options}</select>'
            f'<button type="button" id="cmp-go">{esc(text(lang, "cmp_button"))}</button>'
            f'<div id="compare-result" role="status"></div></section>')


def compare(record, typed, step, lang):
    """HTML marking the typed cells that differ from the step's by more than half a unit
    of their last digit (or why the typed matrix cannot be compared)."""
    step_name = text(lang, "cmp_" + step)
    try:
        raw = [matrices.row_tokens(line) for line in matrices.rows_of(typed)]
        raw = [r for r in raw if r]
        numbers = matrices.checked([[matrices.number(t, decimal_comma=False) for t in r] for r in raw])
    except matrices.Unreadable as problem:
        return f'<p class="cell-message">{esc(text(lang, problem.key, **problem.params))}</p>'
    target = step_matrix(record, step)
    rr, cc = len(target), len(next((r for r in target if r is not None), []))
    if (len(numbers), len(numbers[0])) != (rr, cc):
        return f'<p class="cell-message">{esc(text(lang, "cmp_shape", r=len(numbers), c=len(numbers[0]), step=step_name, rr=rr, cc=cc))}</p>'
    bad = 0
    marks = []
    for r, row in enumerate(raw):
        line = []
        for c, token in enumerate(row):
            value = target[r][c] if target[r] is not None else None
            typed_shown = token.replace(".", ",") if lang == "it" else token
            if value is None or matrices.differs(token, value):
                bad += 1
                line.append(("bad", text(lang, "cmp_cell_bad", typed=typed_shown, value=cell(value, lang))))
            else:
                line.append(("ok", text(lang, "cmp_cell_ok", typed=typed_shown)))
        marks.append(line)
    n = rr * cc
    summary = text(lang, "cmp_all_ok", n=n) if not bad else text(lang, "cmp_some", bad=bad, n=n)
    names = labels("mm_row", rr, lang)
    cols = labels("mm_col", cc, lang) if step != "output" else [str(c + 1) for c in range(cc)]
    view = matrix_view(marks, names, cols, text(lang, "cmp_caption", step=step_name), lang, klass="matrix compared",
                       shown=lambda r, c, x: f'<span class="cmp-{x[0]}">{esc(x[1])}</span>')
    return f'<p class="cmp-summary">{esc(summary)}</p>' + view


VIEW = registry.add(registry.View(
    id="steps", place=10, modes=("matrix",),
    draw=lambda ctx: registry.section("steps", render_steps(ctx.record, ctx.lang), "mm-steps-section", view=False)))
