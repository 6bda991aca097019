"""Model mode: what a small trained transformer learned (app/model.py), as HTML.

The letters as positions to pick (radios name="word", the start token first), the training
slider with the loss curve, the path of the induction circuit from the picked position, one
attention table per layer and head (the heatmap's cells, row headers and reading order, the
two heads the course names marked), and the prediction at each position with its most
likely letters. Every number comes from the record (app/model.py `Record`).
"""

from app import model
from app.i18n import num, percent, text
from app.numbers import whole
from app.views.heatmap import CELLS, row_start, shade, whole_percent
from app.views.html import esc
from app.views import registry

OUTSIDE = '<td class="skipped">×</td>'  # a key outside the sliding window: never computed
LONG_HEAD = 16  # positions: a head's table longer than this scrolls in a box of its own (style.css)
CURVE_W, CURVE_H = 640, 216  # the loss curve's drawing (SVG units)
LEFT, RIGHT, TOP, BOTTOM = 58, 14, 30, 42  # its margins: tick labels and title left, the key above, steps and title below


def quote(s, lang):
    """«s» in Italian, “s” in English."""
    return f"«{s}»" if lang == "it" else f"“{s}”"


def token_name(token, lang):
    """What a token is called on the page: a letter, or the start token's word."""
    return text(lang, "model_start") if token == model.START else token


def render_tokens(tokens, focus, lang, interactive=True):
    """The positions as native radio buttons (name="word", value = position), start token first."""
    off = "" if interactive else " disabled"
    items = []
    for i, token in enumerate(tokens):
        checked = " checked" if focus == i else ""
        start = " start" if token == model.START else ""
        items.append(
            f'<label class="word letter{start}" data-index="{i}"><input type="radio" name="word" value="{i}"'
            f'{checked}{off}><span class="w">{esc(token_name(token, lang))}</span>'
            f'<span class="pos" aria-hidden="true">{i}</span>'
            f'<span class="sr-only">, {esc(text(lang, "model_position", i=i))}</span></label>')
    return (f'<fieldset class="words-fieldset letters"><legend>{esc(text(lang, "model_tokens_legend"))}</legend>'
            f'<div class="words">{"".join(items)}</div></fieldset>')


def jump_step(curve):
    """The training step where the in-context score first passes halfway from its first value to
    its last: the loss's step, where the induction head forms (None without a score)."""
    scored = [(step, icl) for step, _, icl in curve if icl is not None]
    if len(scored) < 2:
        return None
    half = (scored[0][1] + scored[-1][1]) / 2
    return next(step for step, icl in scored if icl <= half)


def render_curve(config, step, lang):
    """The loss (and in-context score) over training as an SVG, the kept checkpoints as dots and
    the one shown as a line; its words say the same for a screen reader."""
    curve = config["curve"]
    last = curve[-1][0] or 1
    values = [v for _, loss, icl in curve for v in (loss, icl) if v is not None]
    low, high = min(0.0, min(values)), max(values)
    x = lambda s: LEFT + (CURVE_W - LEFT - RIGHT) * s / last  # noqa: E731
    y = lambda v: TOP + (CURVE_H - TOP - BOTTOM) * (high - v) / ((high - low) or 1)  # noqa: E731

    def line(points, klass):
        return f'<polyline class="{klass}" points="{" ".join(f"{x(s):.1f},{y(v):.1f}" for s, v in points)}"/>'

    def key(at, klass, words):  # a short line of the series' style and its name, above the plot
        return (f'<line class="{klass}" x1="{at}" y1="12" x2="{at + 22}" y2="12"/>'
                f'<text class="key {klass}" x="{at + 28}" y="16">{esc(words)}</text>')

    losses = [(s, loss) for s, loss, _ in curve]
    icls = [(s, icl) for s, _, icl in curve if icl is not None]
    now = next((c for c in config["checkpoints"] if c["step"] == step), config["checkpoints"][-1])
    aria = text(lang, "model_curve_aria", first=num(losses[0][1], lang, "loss"), end=num(losses[-1][1], lang, "loss"),
                step=step, loss=num(now["loss"], lang, "loss"))
    kept = "".join(f'<circle class="kept" cx="{x(c["step"]):.1f}" cy="{y(c["loss"]):.1f}" r="3"/>'
                   for c in config["checkpoints"])
    bottom = CURVE_H - BOTTOM
    return (
        f'<svg class="curve" viewBox="0 0 {CURVE_W} {CURVE_H}" role="img" aria-label="{esc(aria)}">'
        f'<line class="axis" x1="{LEFT}" y1="{y(0):.1f}" x2="{CURVE_W - RIGHT}" y2="{y(0):.1f}"/>'
        f'<line class="axis" x1="{LEFT}" y1="{TOP}" x2="{LEFT}" y2="{bottom}"/>'
        f'<text class="tick" x="{LEFT - 6}" y="{y(0) + 4:.1f}" text-anchor="end">0</text>'
        f'<text class="tick" x="{LEFT - 6}" y="{y(high) + 4:.1f}" text-anchor="end">{esc(num(high, lang, "axis"))}</text>'
        + (f'<text class="tick" x="{LEFT - 6}" y="{y(low) + 4:.1f}" text-anchor="end">{esc(num(low, lang, "axis"))}</text>'
           if low < 0 else "")
        + x_ticks(x, last, lang)
        + line(losses, "loss") + (line(icls, "icl") if icls else "") + kept
        + f'<line class="now" x1="{x(step):.1f}" y1="{TOP - 4}" x2="{x(step):.1f}" y2="{bottom}"/>'
        + f'<text class="axis-title" x="{(LEFT + CURVE_W - RIGHT) / 2:.0f}" y="{CURVE_H - 4}" text-anchor="middle">'
        f'{esc(text(lang, "model_curve_step"))}</text>'
        f'<text class="axis-title" transform="translate(16 {(TOP + bottom) / 2:.0f}) rotate(-90)" text-anchor="middle">'
        f'{esc(text(lang, "model_curve_nats"))}</text>'
        + key(LEFT + 10, "loss", text(lang, "model_curve_loss"))
        + (key(LEFT + 130, "icl", text(lang, "model_curve_icl")) if icls else "")
        + "</svg>")


def x_ticks(x, last, lang, every=1000):
    """The training steps marked under the curve (0, 1000, 2000, 3000: at a phone's width the
    labels stay apart); the axis's title is under them (`render_curve`)."""
    marks = list(range(0, int(last) + 1, every)) or [0]
    bottom = CURVE_H - BOTTOM
    out = [f'<line class="axis" x1="{x(s):.1f}" y1="{bottom}" x2="{x(s):.1f}" y2="{bottom + 5}"/>'
           f'<text class="tick" x="{x(s):.1f}" y="{bottom + 17}" '
           f'text-anchor="{"start" if s == 0 else "end" if s == last else "middle"}">{whole(s, lang)}</text>'
           for s in marks]
    return "".join(out)


def drop_ends(checkpoints):
    """The kept checkpoints around the in-context score's drop: the last before a tenth of it is
    done, the first after four fifths are (700 and 900 in the run kept), or None."""
    scored = [c for c in checkpoints if c.get("icl") is not None]
    if len(scored) < 2:
        return None
    first, last = scored[0]["icl"], scored[-1]["icl"]
    before = [c for c in scored if c["icl"] > first + 0.1 * (last - first)]
    after = [c for c in scored if c["icl"] <= first + 0.8 * (last - first)]
    return (before[-1], after[0]) if before and after and before[-1]["step"] < after[0]["step"] else None


def copier(config):
    """What copies in a trained model (its config): "head" (an induction head, named by training),
    "state" (layer 2 selective: the state, if anything) or "unformed" (attention, but training formed
    no induction head: the block model's)."""
    if config["heads"]["induction"] is not None:
        return "head"
    return "state" if "selective" in config.get("layers", ()) else "unformed"


def jump_text(checkpoints, jump, lang, copies="head"):
    """What the chart shows at the drop: the dashed in-context line falls there (the loss, by
    comparison, only steps down), with the kept steps around it and their scores; `copies`
    (`copier`) "state": a model with no induction head (an `arch` whose layer 2 is selective),
    which copies through its state if at all; "unformed": the loss falls from the first kept
    step to the last, the score barely."""
    if copies == "unformed":
        a, b = checkpoints[0], checkpoints[-1]
        return text(lang, "model_jump_unformed", a=a["step"], b=b["step"], icl_a=num(a["icl"], lang, "loss"),
                    icl_b=num(b["icl"], lang, "loss"), loss_a=num(a["loss"], lang, "loss"), loss_b=num(b["loss"], lang, "loss"))
    ends = drop_ends(checkpoints)
    head = copies == "head"
    if ends is None:
        return text(lang, "model_jump_plain" if head else "model_jump_state_plain", step=jump)
    a, b = ends
    return text(lang, "model_jump" if head else "model_jump_state", step=jump, a=a["step"], b=b["step"], icl_a=num(a["icl"], lang, "loss"),
                icl_b=num(b["icl"], lang, "loss"), loss_a=num(a["loss"], lang, "loss"), loss_b=num(b["loss"], lang, "loss"))


def render_training(config, step, lang, curve=True):
    """What the training slider shows now: the loss and in-context score at the step, the curve
    (`curve` False: not, for text), and where the loss drops."""
    now = next((c for c in config["checkpoints"] if c["step"] == step), config["checkpoints"][-1])
    jump = jump_step(config["curve"])
    icl = "—" if now.get("icl") is None else num(now["icl"], lang, "loss")
    return (
        f'<h2>{esc(text(lang, "model_training_heading"))}</h2>'
        f'<p class="model-now">{esc(text(lang, "model_now", step=step, loss=num(now["loss"], lang), icl=icl))}</p>'
        + (render_curve(config, step, lang) if curve else "")
        + (f'<p class="model-jump">{esc(jump_text(config["checkpoints"], jump, lang, copier(config)))}</p>'
           if jump is not None else "")
        + f'<p class="hint">{esc(text(lang, "model_icl_help"))}</p>')


def render_circuit(record, focus, lang):
    """The induction path from the picked position: the letter, its earlier occurrence, the
    letter after it, the induction head's weight there, the prediction."""
    if focus is None or not 0 <= focus < record.n_q:
        return f'<p class="prompt">{esc(text(lang, "model_circuit_pick"))}</p>'
    token, top = record.tokens[focus], record.top[focus]
    predicted = dict(next=top[0][0], p=percent(top[0][1], lang, "table"))
    found = record.circuit(focus)
    if record.induction_head is None:  # (no head copies: no attention in layer 2, or none learned to)
        key = "model_circuit_state" if "selective" in record.model.kinds else "model_circuit_unformed"
        said = text(lang, key, token=token_name(token, lang), i=focus, **predicted)
    elif found is None:
        layer, head = record.induction_head
        row = record.attention[layer][head][focus]
        where = max(range(focus + 1), key=row.__getitem__)
        said = text(lang, "model_circuit_none", token=token_name(token, lang), i=focus,
                    where=f"{quote(token_name(record.tokens[where], lang), lang)} "
                          f"({text(lang, 'model_position', i=where)})",
                    weight=percent(row[where], lang, "table"), **predicted)
    else:
        j, k, weight = found
        key = "model_circuit_self" if k == focus else "model_circuit"
        said = text(lang, key, token=token, i=focus, j=j, after=record.tokens[k], k=k,
                    weight=percent(weight, lang, "table"), **predicted)
        if k < record.start(focus):  # (the window: the head cannot look there, the path breaks)
            said += " " + text(lang, "model_circuit_outside", k=k, w=record.window, i=focus)
    return f'<p class="circuit" id="circuit-text">{esc(said)}</p>'


def render_circuit_section(record, focus, lang):
    """The induction path's section, inside: its heading and the path from the picked position."""
    return f'<h2>{esc(text(lang, "model_circuit_heading"))}</h2>{render_circuit(record, focus, lang)}'


def head_name(record, layer, head, lang):
    if record.model.kinds[layer] == "selective":
        return text(lang, "model_selective_name")
    if (layer, head) == record.induction_head:
        return text(lang, "model_induction_name")
    if (layer, head) == record.previous_head:
        return text(lang, "model_previous_name")
    return ""


def head_caption(record, layer, head, lang):
    """'Layer 2, head 3 — induction head' (layers and heads counted from 1 on the page)."""
    name = head_name(record, layer, head, lang)
    return text(lang, "model_head_caption", layer=layer + 1, head=head + 1) + (f" — {name}" if name else "")


def path_cells(record, focus):
    """{(layer, head): (row, column)} of the cells the induction path goes through."""
    found = None if focus is None else record.circuit(focus)
    if found is None:
        return {}
    j, k, _ = found
    return {record.induction_head: (focus, k), record.previous_head: (k, j)}


def score_cells(row, top, lang):
    """A selective layer's row (`Model.run`: signed scores, not percentages): each number with 3
    digits, shaded by its size against the table's largest `top`."""
    return [f'<td class="s{shade(round(100 * abs(w) / top)) if top else 0}">{esc(num(w, lang, "value"))}</td>'
            for w in row]


def head_row(record, layer, head, i, focus, lang, mark=None):
    """Row i of one head's table: its button, its cells; `mark`: the (row, column) on the path."""
    n = record.n_q
    # (after the diagonal, masked: one cell spans the row's rest, half the table's cells at no loss)
    # (under a window, the positions before row i's first key are outside it: not computed at all)
    start = record.start(i)
    if record.model.kinds[layer] == "selective":  # (no window: a state reads every word before)
        table = record.attention[layer][head]
        cells = score_cells(table[i][:i + 1], max(abs(w) for r in table for w in r), lang)
    else:
        cells = [OUTSIDE] * start + [CELLS[whole_percent(w)] for w in record.attention[layer][head][i][start:i + 1]]
    if i < n - 1:
        cells.append(f'<td class="masked" colspan="{n - 1 - i}">·</td>')
    if mark is not None and mark[0] == i:  # (its number, then said to be on the path)
        cells[mark[1]] = (cells[mark[1]].replace('">', ' path">', 1)
                          .replace("</td>", f'<span class="sr-only"> {esc(text(lang, "model_on_path"))}</span></td>'))
    # (a click picks the position; the keyboard picks it with the letters' radios: no tab stop a row)
    return (row_start(i, token_name(record.tokens[i], lang), i == focus,
                      button=f' tabindex="-1" data-head="{layer}-{head}"') + "".join(cells) + "</tr>")


def render_head(record, layer, head, focus, lang, mark=None):
    """One head's attention table: the heatmap's cells (whole percentages, shaded), rows the
    positions that look, a button each to pick it; `mark`: the (row, column) on the path."""
    names = [token_name(t, lang) for t in record.tokens]
    head_cells = "".join(f'<th scope="col" data-col="{j}"><span>{esc(name)}</span></th>' for j, name in enumerate(names))
    n = record.n_q
    rows = [head_row(record, layer, head, i, focus, lang, mark) for i in range(n)]
    caption = head_caption(record, layer, head, lang)
    named = " named" if head_name(record, layer, head, lang) else ""
    # (a table of up to LONG_HEAD rows shows them all: in a box of its own the last one, where the
    # induction path ends, hid below the fold of a phone's screen; longer ones scroll)
    named += " long" if n > LONG_HEAD else ""
    return (
        f'<div class="model-head{named}" data-head="{layer}-{head}">'
        f'<div class="heatmap-wrap" role="region" tabindex="0" aria-label="{esc(caption)}">'
        f'<table class="heatmap model-table" aria-rowcount="{n + 1}"><caption>{esc(caption)}</caption>'
        f'<thead><tr aria-rowindex="1"><td class="corner">{esc(text(lang, "heatmap_corner"))}</td>{head_cells}</tr></thead>'
        f'<tbody>{"".join(rows)}</tbody></table></div></div>')


def moved_path(record, before, focus, lang):
    """A pick moved from position `before` to `focus`: [(layer, head, row, its HTML)] for each
    row of a head's table whose path cell comes or goes (the rows' selection moves in place:
    static/page.js, pickRow)."""
    marks, rows = path_cells(record, focus), set()
    for key, (row, _) in [*path_cells(record, before).items(), *marks.items()]:
        rows.add((*key, row))
    return [(layer, head, row, head_row(record, layer, head, row, focus, lang, marks.get((layer, head))))
            for layer, head, row in sorted(rows)]


def named_heads(record):
    """The heads the course names, (layer, head) each: previous-token, then induction; an `arch`
    model's selective layer names none, and then its first head of each layer stands for it."""
    named = [h for h in (record.previous_head, record.induction_head) if h is not None]
    return named + [(layer, 0) for layer, kind in enumerate(record.model.kinds)
                    if kind == "selective" and all(layer != h[0] for h in named)]


def render_heads(record, focus, lang):
    """Every head, the path's cells marked: first the two the course names (previous-token, then
    induction), then the others layer by layer."""
    marks = path_cells(record, focus)
    named = [h for h in (record.previous_head, record.induction_head) if h is not None]
    order = named + [(layer, head) for layer in range(len(record.attention))
                     for head in range(len(record.attention[layer])) if (layer, head) not in named]
    return "".join(render_head(record, layer, head, focus, lang, marks.get((layer, head))) for layer, head in order)


def render_predictions(record, focus, lang):
    """The prediction at each position: the letter that comes next, the model's, its top ones."""
    rows, right, total = [], 0, 0
    for i, token in enumerate(record.tokens):
        actual = record.tokens[i + 1] if i + 1 < record.n_q else None
        guess = record.next[i]
        mark = ""
        if actual is not None:
            total += 1
            right += guess == actual
            mark = (f' <span class="{"right" if guess == actual else "wrong"}">'
                    f'{esc(text(lang, "model_right" if guess == actual else "model_wrong"))}</span>')
        top = " · ".join(f"{esc(t)} {esc(percent(p, lang, 'table'))}" for t, p in record.top[i])
        selected = ' class="selected"' if i == focus else ""
        rows.append(f'<tr data-row="{i}"{selected}><td>{i}</td><td>{esc(token_name(token, lang))}</td>'
                    f'<td>{esc(actual or "—")}</td><td>{esc(guess)}{mark}</td><td>{top}</td></tr>')
    head = "".join(f'<th scope="col">{esc(text(lang, key, n=model.TOP))}</th>' for key in (
        "model_col_position", "model_col_token", "model_col_actual", "model_col_next", "model_col_top"))
    return (f'<h2>{esc(text(lang, "model_predictions_heading"))}</h2>'
            f'<p class="model-accuracy">{esc(text(lang, "model_accuracy", right=right, total=total))}</p>'
            f'<div class="table-wrap" role="region" tabindex="0" aria-label="{esc(text(lang, "model_predictions_heading"))}">'
            f'<table class="steps predictions"><thead><tr>{head}</tr></thead><tbody>{"".join(rows)}</tbody></table></div>')


def render_notes(record, lang):
    """What was left out of the typed text: characters that are no letter, letters past the limit."""
    notes = []
    if record.skipped:
        notes.append(text(lang, "model_skipped", chars=" ".join(quote(c, lang) for c in record.skipped[:20])))
    if record.cut:
        notes.append(text(lang, "model_cut", limit=record.model.n_ctx - 1, count=record.cut))
    return "".join(f'<p class="note" role="status">{esc(n)}</p>' for n in notes)


def render_model_analysis(settings, record, interactive=True, terms=None):
    """Everything model mode shows under the letters: the record's notes, then the views model
    mode draws (app/views/registry.py: those below, the heads' tables, and any declared for it;
    `terms`: on a step, those its text links to the glossary, registry.Context)."""
    lang = settings.lang
    if record is None:
        return f'<p class="note error" role="alert">{esc(text(lang, model.unavailable_key()))}</p>'
    ctx = registry.Context(settings=settings, tokens=None, record=record, row=None, parts={}, interactive=interactive,
                           terms=terms)
    return render_notes(record, lang) + registry.drawn(ctx, "model")


def heads_section(ctx):
    """One attention table per layer and head (model mode's `heatmap` view, app/views/heatmap.py)."""
    lang = ctx.lang
    return (f'<section id="view-heatmap" class="heatmap-section model-heads"><h2>{esc(text(lang, "model_heads_heading"))}</h2>'
            f'<p class="heatmap-help">{esc(text(lang, "model_heads_help" if ctx.record.induction_head else "model_heads_help_no_induction"))}</p>'
            + (f'<p class="heatmap-help">{esc(text(lang, "model_heads_selective"))}</p>'
               if "selective" in ctx.record.model.kinds else "")
            + (f'<p class="heatmap-help model-window-cells">{esc(text(lang, "model_window_cells", w=ctx.record.window))}</p>'
               if ctx.record.window is not None else "")
            + f'<div class="model-heads-grid">{render_heads(ctx.record, ctx.settings.focus, lang)}</div></section>')


def _about(ctx):
    lang, off = ctx.lang, "" if ctx.interactive is True else " disabled"
    return (f'<section id="view-model-about" class="model-about"><h2>{esc(text(lang, "model_about_heading"))}</h2>'
            + "".join(f'<p>{esc(text(lang, key))}</p>' for key in (
                "model_about_previous", "model_about_induction", "model_about_icl", "model_about_not"))
            + f'<button type="button" class="secondary" id="model-back"{off}>{esc(text(lang, "model_back"))}</button>'
            "</section>")


# Model mode's views, around the heads' tables (place 50, app/views/heatmap.py).
MODEL = ("model",)
INTRO = registry.add(registry.View(
    id="model-intro", place=46, modes=MODEL,
    draw=lambda ctx: (f'<section id="view-model-intro" class="model-intro"><h2>{esc(text(ctx.lang, "model_heading"))}</h2>'
                      f'<p>{esc(text(ctx.lang, "model_intro", heads=model.config()["n_heads"]))}</p>'
                      + (f'<p>{esc(text(ctx.lang, "model_intro_" + ctx.record.model.arch))}</p>'
                         if ctx.record.model.arch != "attention" else "") + '</section>')))
CIRCUIT = registry.add(registry.View(
    id="circuit", place=47, modes=MODEL,
    draw=lambda ctx: registry.section("circuit", render_circuit_section(ctx.record, ctx.settings.focus, ctx.lang),
                                      "model-circuit", view=False)))
TRAINING = registry.add(registry.View(
    id="training", place=200, modes=MODEL,
    draw=lambda ctx: registry.section("training", render_training(model.config(ctx.record.model.variant),
                                                                  ctx.record.step, ctx.lang),
                                      "model-training", view=False)))
PREDICTIONS = registry.add(registry.View(
    id="predictions", place=210, modes=MODEL,
    draw=lambda ctx: registry.section("predictions", render_predictions(ctx.record, ctx.settings.focus, ctx.lang),
                                      "model-predictions", view=False)))
ABOUT = registry.add(registry.View(id="model-about", place=220, modes=MODEL, draw=_about))
registry.add_draw("heatmap", "model", heads_section)


def announcement(record, focus, lang):
    """The live region's sentence for a picked position."""
    if record is None or focus is None or not 0 <= focus < record.n_q:
        return ""
    top = record.top[focus][0]
    return text(lang, "model_announce", i=focus, token=token_name(record.tokens[focus], lang),
                next=top[0], p=percent(top[1], lang, "table"))
