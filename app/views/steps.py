"""The steps table of the selected row: card, q·k written out, q·k, logit, e^logit,
weight and percentage, with the totals. Every number checks by hand against its row."""

from app.i18n import num, percent, short, text
from app.views.html import Cell, Column, esc, table
from app.views.query import vec

COLUMNS = ("word", "card", "products", "dot", "logit", "exp", "weight", "percent")
PERCENT_DECIMALS = 1  # the table's percentages: 42,4%


def products(query, card, lang):
    """q·k written out: 3×0,95 + 0×0,05 + 2×0,1 + 0×0."""
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


def columns_of(record):
    """The table's columns: with the distance bias on, −m·|i−j| gets its own after q·k."""
    if not record.slope:
        return COLUMNS
    at = COLUMNS.index("dot") + 1
    return COLUMNS[:at] + ("bias",) + COLUMNS[at:]


def rounding_note(row, lang):
    """'' or why the shown percentages do not add up to the total (each is rounded alone)."""
    shown = [percent(row.weights[j], lang, PERCENT_DECIMALS) for j in range(row.n) if row.candidates[j]]
    tenths = sum(int(p[:-1].replace(",", "").replace(".", "")) for p in shown)
    if not shown or tenths == 1000:
        return ""
    return text(lang, "rounding_note", sum=num(tenths / 10, lang, PERCENT_DECIMALS) + "%")


def render_table(row, tokens, lang, word=None):
    """The steps table; `word`: the asking row's name when it is not one of `tokens`."""
    t = lambda key, **p: esc(text(lang, key, **p))  # noqa: E731
    record = row.record
    word = tokens[row.focus].text if word is None else word
    divisor = divisor_text(record, lang)
    keys = columns_of(record)
    biased = "bias" in keys
    columns = [Column(key, t("col_" + key, divisor=divisor)) for key in keys]
    body = []
    for j, tok in enumerate(tokens):
        status = row.status(j)
        cells = [esc(vec(tok.card, lang))]
        if status == "candidate":
            bias = [esc(num(-record.slope * abs(row.focus - j), lang))] if biased else []
            cells += [esc(products(row.query, tok.card, lang)), esc(num(row.dots[j], lang))] + bias + [
                      esc(num(row.logits[j], lang)), esc(num(row.exps[j], lang)),
                      esc(num(row.weights[j], lang)), percent(row.weights[j], lang, PERCENT_DECIMALS)]
        elif status == "masked":
            cells += ["—", "—"] + (["—"] if biased else []) + [
                      t("masked_logit"), "0", "0", percent(0.0, lang, PERCENT_DECIMALS)]
        else:
            cells.append(Cell(f'— {t("is_query")}', until="percent"))
        body.append((esc(tok.text), cells, {"class": status, "data_index": j}))
    if row.has_candidates:
        foot = [(t("total"), [Cell("", until="logit"), Cell(f"Σ = {esc(num(row.exp_sum, lang))}", data_col="exp-sum"),
                              Cell(esc(num(sum(row.weights), lang)), data_col="weight-sum"),
                              Cell(percent(sum(row.weights), lang, PERCENT_DECIMALS),
                                   data_col="percent-sum")], {})]
    else:
        foot = [(t("total"), [Cell("—", until="percent")], {})]
    note = rounding_note(row, lang)
    return (
        f'<h2>{t("steps_heading")}</h2>'
        f'<p class="formula">{esc(formula(record, lang))}</p>'
        + (f'<p class="note pos-line">{t("pos_line")}</p>' if biased else "") +
        f'<div class="table-wrap" role="region" tabindex="0" aria-label="{t("steps_heading")}">'
        + table(columns, body, t("table_caption", word=word, divisor=divisor), foot, class_="steps")
        + "</div>" + (f'<p class="note rounding">{esc(note)}</p>' if note else "")
    )
