"""The steps table of the selected row: card, q·k written out, q·k, logit, e^logit,
weight and percentage, with the totals. Every number checks by hand against its row."""

import functools
import math

from app import attention
from app.i18n import num, percent, short, text
from app.numbers import shown_sum
from app.views.html import Cell, Column, esc, table, table_rows
from app.views.query import vec
from app.views import registry

COLUMNS = ("word", "card", "products", "dot", "logit", "exp", "weight", "percent")


def products(query, card, lang):
    """q·k written out: 3×0,95 + 0×0,05 + 2×0,1 + 0×0."""
    return _products(tuple(query), tuple(card), lang)


@functools.lru_cache(maxsize=4096)  # cards repeat: a 200-word table writes each pair once
def _products(query, card, lang):
    return " + ".join(f"{short(q, lang)}×{short(k, lang)}" for q, k in zip(query, card))


def divisor_text(record, lang):
    return short(record.divisor, lang)


def formula(record, lang):
    """The formula line with the divisor actually used: ÷ 2, ÷ 1, ÷ 4."""
    key = "formula_scaled" if record.scaled else "formula_unscaled"
    line = text(lang, key, d_k=record.d_k, root=short(record.d_k ** 0.5, lang),
                t=short(record.temperature, lang), divisor=divisor_text(record, lang))
    if record.slope:  # the distance bias, its own step (ALiBi-style)
        line = text(lang, "formula_pos", formula=line, m=short(record.slope, lang))
    return line


def lab_columns(record):
    """The columns the labs add after the card (registry.StepsPart: the position lab's PE and key)."""
    return tuple(key for part in registry.steps_parts() for key in part.columns(record))


def columns_of(record):
    """The table's columns: with the distance bias on, −m·|i−j| gets its own after q·k."""
    shown = COLUMNS[:2] + lab_columns(record) + COLUMNS[2:]  # (a lab's part after the card: the position's)
    if not record.slope:
        return shown
    at = shown.index("dot") + 1
    return shown[:at] + ("bias",) + shown[at:]


def rounding_note(row, lang):
    """'' or why the shown percentages do not add up to the total (each is rounded alone)."""
    said = shown_sum([row.weights[j] for j in range(row.n) if row.candidates[j]], lang, "table")
    return "" if said is None else text(lang, "rounding_note", sum=said)


def exp_note(row, tokens, lang):
    """'' or, when e^(the logit as shown) differs in a shown digit from the e^logit shown, one line
    saying that each column comes from the full value, with the first such word as its example
    (e^0,998 = 2,713, while the table's 2,711 is e^0,9975)."""
    for j in range(row.n):
        if not row.candidates[j] or row.exps[j] is None:
            continue
        logit = float(num(row.logits[j], "en").replace("−", "-"))
        if logit < attention.EXP_CAP and num(math.exp(logit), lang) != num(row.exps[j], lang):
            return text(lang, "exp_note", word=tokens[j].text, logit=num(row.logits[j], lang),
                        approx=num(math.exp(logit), lang), full=short(row.logits[j], lang, "full"),
                        exp=num(row.exps[j], lang))
    return ""


def step_values(row, j, tok, lang, biased):
    """A candidate's numbers as the table writes them: q·k written out, q·k, (−m·|i−j|),
    logit, e^logit, weight, percentage."""
    bias = [num(-row.record.slope * abs(row.focus - j), lang)] if biased else []
    parts = [v for part in registry.steps_parts() for v in part.values(row.record, j, lang)]  # (the key as used)
    key = row.record.keys[j] if parts else tok.card
    return parts + [products(row.query, key, lang), num(row.dots[j], lang)] + bias + [
        num(row.logits[j], lang), num(row.exps[j], lang), num(row.weights[j], lang),
        percent(row.weights[j], lang, "table")]


def step_row(row, j, tok, lang, biased):
    """Word j's row of the table: (header, cells, attributes) as html.table takes it."""
    t = lambda key: esc(text(lang, key))  # noqa: E731
    status = row.status(j)
    cells = [esc(vec(tok.card, lang))]
    if status == "candidate":
        cells += [esc(v) for v in step_values(row, j, tok, lang, biased)]
    elif status in ("masked", "skipped"):  # (hidden by the mask, or left out by the cost lab's pattern)
        cells += ["—"] * len(lab_columns(row.record)) + ["—", "—"] + (["—"] if biased else []) + [
                  t("masked_logit" if status == "masked" else "skipped_logit"), "0", "0", percent(0.0, lang, "table")]
    else:
        cells.append(Cell(f'— {t("is_query")}', until="percent"))
    return esc(tok.text), cells, {"class": status, "data_index": j}


def _columns(record, lang):
    divisor = divisor_text(record, lang)
    return [Column(key, esc(text(lang, "col_" + key, divisor=divisor))) for key in columns_of(record)]


def _totals(row, lang):
    """The foot's three sums: Σ e^logit, Σ weights, Σ percentages (by the table's rule)."""
    return (f"Σ = {num(row.exp_sum, lang)}", num(sum(row.weights), lang),
            percent(sum(row.weights), lang, "table"))


def render_table(row, tokens, lang, word=None):
    """The steps table; `word`: the asking row's name when it is not one of `tokens`."""
    t = lambda key, **p: esc(text(lang, key, **p))  # noqa: E731
    record = row.record
    word = tokens[row.focus].text if word is None else word
    divisor = divisor_text(record, lang)
    columns = _columns(record, lang)
    biased = record.slope != 0
    body = [step_row(row, j, tok, lang, biased) for j, tok in enumerate(tokens)]
    if row.has_candidates:
        exp_sum, weight_sum, percent_sum = _totals(row, lang)
        foot = [(t("total"), [Cell("", until="logit"), Cell(esc(exp_sum), data_col="exp-sum"),
                              Cell(esc(weight_sum), data_col="weight-sum"),
                              Cell(percent_sum, data_col="percent-sum")], {})]
    else:
        foot = [(t("total"), [Cell("—", until="percent")], {})]
    note = rounding_note(row, lang)
    from_full = exp_note(row, tokens, lang)
    return (
        f'<h2>{t("steps_heading")}</h2>'
        f'<p class="formula">{esc(formula(record, lang))}</p>'
        + (f'<p class="note pos-line">{t("pos_line")}</p>' if biased else "")
        + "".join(part.line(row, word, lang) for part in registry.steps_parts()) +
        f'<div class="table-wrap" role="region" tabindex="0" aria-label="{t("steps_heading")}">'
        + table(columns, body, t("table_caption", word=word, divisor=divisor), foot, class_="steps")
        + "</div>" + (f'<p class="note rounding">{esc(note)}</p>' if note else "")
        + f'<p class="note exp-full">{esc(from_full)}</p>'
    )


def table_patch(before, row, tokens, lang, word=None):
    """The changes in place (app/page.py, `_patch`) that turn the table of row `before` into that of
    `row`, or None when it must be drawn whole (a foot or a rounding note that comes or
    goes). The words whose status changed are redrawn; every candidate gets its numbers;
    the scroll of the table's box stays where the student left it."""
    note = rounding_note(row, lang)
    if before.has_candidates != row.has_candidates or bool(rounding_note(before, lang)) != bool(note):
        return None
    record = row.record
    word = tokens[row.focus].text if word is None else word
    biased = record.slope != 0
    columns = _columns(record, lang)
    changes = [(f'tbody tr[data-index="{j}"]', "outerHTML",
                [table_rows(columns, [step_row(row, j, tokens[j], lang, biased)])])
               for j in range(row.n) if before.status(j) != row.status(j)]
    keys = [c.key for c in columns][2:]  # the columns after the card
    values = list(zip(*(step_values(row, j, tokens[j], lang, biased) for j in range(row.n) if row.candidates[j])))
    changes += [(f'tr.candidate td[data-col="{key}"]', "", column) for key, column in zip(keys, values)]
    changes.append(("caption", "", [text(lang, "table_caption", word=word, divisor=divisor_text(record, lang))]))
    if row.has_candidates:
        changes += [(f'tfoot td[data-col="{key}"]', "", [value])
                    for key, value in zip(("exp-sum", "weight-sum", "percent-sum"), _totals(row, lang))]
    if note:
        changes.append(("p.note.rounding", "", [note]))
    changes.append(("p.note.exp-full", "", [exp_note(row, tokens, lang)]))
    return changes


VIEW = registry.add(registry.View(
    id="table", place=40, modes=("sentence", "matrix"), tab=True, row=render_table,
    draw=lambda ctx: registry.section("table", ctx.part("table"), "steps-section")))
