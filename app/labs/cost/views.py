"""The cost lab (docs/DESIGN.md, "Cost of the pattern"): its controls (the pattern, the window, the
random keys, the global words picked by clicking), the cost of the pattern in numbers (cells
against n² as n grows, and the score matrix's memory), and linear attention beside softmax.
Its path is app/labs/cost/path.py; the maths, app/patterns.py and app/attention.py.

None of these views is in the explorer: they show on the path's steps (and a link may open a
step in an embedded widget)."""

import math

from app import attention, patterns, settings as schema
from app.i18n import num, percent, text
from app.numbers import whole
from app.views import registry
from app.views.html import Column, esc, table
from app.views.query import vec

POINTS = (10, 100, 1_000, 10_000, 100_000)  # the cost curve's n, from the sentence's length up
MEMORY_AT = (1_000, 100_000, 1_000_000)  # the score matrix's bytes at these n
BYTES_PER_CELL = 4  # float32

STRINGS = {
    "it": {
        "cost_legend": "Quali celle calcolare",
        "cost_full": "piena: ogni parola guarda ogni parola (il Transformer originale); costa n² prodotti.",
        "cost_window": ("finestra: solo le parole a distanza ≤ w, prima e dopo (la finestra a due lati di Longformer e "
                        "BigBird); costa circa (2w + 1)·n, ma una parola non vede più lontano di w. Quella di Mistral "
                        "ha un lato solo: la parola e le w prima."),
        "cost_local_global": ("locale + globali: la finestra e alcune parole globali che vedono e sono viste da tutte "
                              "(Longformer); le globali vanno scelte bene."),
        "cost_bigbird": ("BigBird: finestra, globali e qualche chiave a caso per riga; il caso collega parti lontane, "
                         "ma una coppia precisa può restare esclusa."),
        "cost_linear": ("lineare: nessuna softmax, φ(q)·φ(k) con φ = elu + 1 (Katharopoulos e altri, 2020); costa n·d² "
                        "invece di n²·d, ma i pesi cambiano: è un'approssimazione."),
        "cost_window_label": "Finestra w",
        "cost_random_label": "Chiavi a caso per riga (BigBird)",
        "cost_global_legend": "Parole globali (clicca per sceglierle)",
        "cost_seed_note": "Le chiavi a caso vengono dal seme {seed} (parametro seed nel link).",
        "cost_heading": "Quanto costa: celle calcolate contro n²",
        "cost_now": ("Questa frase: {n} parole, {cells} celle calcolate su {full} ({pct}). Con mille parole la "
                     "matrice piena ha un milione di celle per testa; con centomila, dieci miliardi."),
        "cost_chart": ("Grafico su scale logaritmiche: celle calcolate al crescere di n, per il pattern scelto "
                       "e per quello pieno; il punto è questa frase."),
        "cost_rule_differs": ("La riga evidenziata, n = {n}, conta le celle di questa frase una per una: {cells}. Le "
                              "altre righe seguono la regola del pattern, che a n = {n} darebbe {rule}: conta intere la "
                              "riga e la colonna di ogni parola globale, anche le celle che la finestra ha già, e r "
                              "chiavi a caso in ogni riga, anche dove ne restano meno. Per questo è un limite superiore."),
        "cost_col_n": "n parole",
        "cost_col_pattern": "celle calcolate: {pattern}",
        "cost_col_full": "tutte le celle: n²",
        "cost_caption": ("Celle calcolate al crescere di n (la riga di questa frase contata sulla sua matrice, le "
                         "altre dalla regola del pattern; con parole globali, un limite superiore)"),
        "cost_memory_heading": "La memoria della matrice dei punteggi",
        "cost_memory_intro": "In float32, 4 byte per cella, per una testa di un livello:",
        "cost_col_bytes_full": "byte, matrice intera (n²)",
        "cost_col_bytes_pattern": "byte, celle calcolate: {pattern}",
        "cost_memory_caption": "Byte della matrice dei punteggi, a n parole",
        "cost_name_full": "piena",
        "cost_name_window": "finestra",
        "cost_name_local_global": "locale + globali",
        "cost_name_bigbird": "BigBird",
        "cost_name_linear": "lineare",
        "linear_heading": "Attenzione lineare accanto alla softmax",
        "linear_intro": ("Con φ(x) = elu(x) + 1 ogni peso è φ(q)·φ(k) diviso la somma della riga: niente esponenziale, "
                         "niente divisione per √d_k."),
        "linear_col_word": "parola",
        "linear_col_kernel": "φ(q)·φ(k)",
        "linear_col_linear": "peso lineare",
        "linear_col_softmax": "peso softmax",
        "linear_caption": "I pesi di «{word}»: nucleo lineare e softmax sulle stesse chiavi",
        "linear_differ": ("Non sono gli stessi: la parola più guardata pesa {lin} con il nucleo e {soft} con la softmax. "
                          "L'attenzione lineare approssima, non ricalcola."),
        "linear_orders": ("Lo stesso risultato in due ordini: (φ(q)·φ(K)ᵀ)·V = {left} e φ(q)·(φ(K)ᵀ·V) = {right}. "
                          "Il secondo ordine somma prima φ(k)·vᵀ su tutte le chiavi: una matrice d × d che serve a "
                          "ogni riga."),
        "linear_mask": ("Con la maschera causale ogni riga ha la sua somma: la si tiene corrente, aggiungendo una "
                        "chiave alla volta, ed è la stessa cosa."),
        "linear_products": ("Prodotti: {n} parole con d = {d}: (φ(Q)φ(K)ᵀ)V ne fa n²·d = {quad}, φ(Q)(φ(K)ᵀV) n·d² = "
                            "{lin}. A n = 100.000: {quad_big} contro {lin_big}."),
        "linear_off": "Scegli il pattern «lineare» per confrontarlo con la softmax.",
        "linear_none": "«{word}» non guarda nessuna parola.",
        "heatmap_cost_window": ("{n} parole → {cells} punteggi calcolati; 1.000 parole → {big}: con la finestra ogni "
                                "riga ha al più 2w + 1 = {row} celle, quindi il costo cresce come n (in modo lineare), "
                                "non come n²."),
        "heatmap_cost_local_global": ("{n} parole → {cells} punteggi calcolati; 1.000 parole → al più {big}: la finestra "
                                      "dà al più 2w + 1 = {row} celle per riga; parole globali: {g}, ognuna con una riga e "
                                      "una colonna intere (2n celle); con poche globali il costo cresce come n, non come n²."),
        "heatmap_cost_bigbird": ("{n} parole → {cells} punteggi calcolati; 1.000 parole → al più {big}: la finestra dà "
                                 "al più 2w + 1 = {row} celle per riga, il caso {r} chiavi per riga; parole globali: {g}, "
                                 "ognuna con una riga e una colonna intere (2n celle); il costo cresce come n, non "
                                 "come n²."),
        "heatmap_cost_linear": ("{n} parole → {cells} pesi; ma senza softmax i prodotti si raggruppano come "
                                "φ(Q)·(φ(K)ᵀ·V): n·d² invece di n²·d, il costo cresce come n, non come n²."),
    },
    "en": {
        "cost_legend": "Which cells to compute",
        "cost_full": "full: every word looks at every word (the original Transformer); it costs n² products.",
        "cost_window": ("window: only the words at distance ≤ w, before and after (Longformer's and BigBird's "
                        "two-sided window); it costs about (2w + 1)·n, but a word sees no farther than w. Mistral's "
                        "is one-sided: the word and the w before it."),
        "cost_local_global": ("local + global: the window and a few global words that see and are seen by all "
                              "(Longformer); the global words must be chosen well."),
        "cost_bigbird": ("BigBird: window, globals and a few random keys a row; chance links far parts, but one "
                         "given pair may stay out."),
        "cost_linear": ("linear: no softmax, φ(q)·φ(k) with φ = elu + 1 (Katharopoulos et al., 2020); it costs n·d² "
                        "instead of n²·d, but the weights change: it is an approximation."),
        "cost_window_label": "Window w",
        "cost_random_label": "Random keys a row (BigBird)",
        "cost_global_legend": "Global words (click to choose them)",
        "cost_seed_note": "The random keys come from seed {seed} (the link's seed parameter).",
        "cost_heading": "What it costs: cells computed against n²",
        "cost_now": ("This sentence: {n} words, {cells} cells computed of {full} ({pct}). With a thousand words the "
                     "full matrix has a million cells a head; with a hundred thousand, ten billion."),
        "cost_chart": ("Chart on log scales: the cells computed as n grows, for the chosen pattern and for the full "
                       "one; the dot is this sentence."),
        "cost_rule_differs": ("The highlighted row, n = {n}, counts this sentence's cells one by one: {cells}. The "
                              "other rows follow the pattern's rule, which at n = {n} would give {rule}: it counts each "
                              "global word's row and column whole, also the cells the window already has, and r random "
                              "keys in every row, also where fewer are left. So it is an upper bound."),
        "cost_col_n": "n words",
        "cost_col_pattern": "cells computed: {pattern}",
        "cost_col_full": "every cell: n²",
        "cost_caption": ("Cells computed as n grows (this sentence's row counted on its matrix, the others by the "
                         "pattern's rule; with global words, an upper bound)"),
        "cost_memory_heading": "The score matrix's memory",
        "cost_memory_intro": "In float32, 4 bytes a cell, for one head of one layer:",
        "cost_col_bytes_full": "bytes, whole matrix (n²)",
        "cost_col_bytes_pattern": "bytes, cells computed: {pattern}",
        "cost_memory_caption": "Bytes of the score matrix, at n words",
        "cost_name_full": "full",
        "cost_name_window": "window",
        "cost_name_local_global": "local + global",
        "cost_name_bigbird": "BigBird",
        "cost_name_linear": "linear",
        "linear_heading": "Linear attention beside softmax",
        "linear_intro": ("With φ(x) = elu(x) + 1 each weight is φ(q)·φ(k) divided by the row's sum: no exponential, "
                         "no division by √d_k."),
        "linear_col_word": "word",
        "linear_col_kernel": "φ(q)·φ(k)",
        "linear_col_linear": "linear weight",
        "linear_col_softmax": "softmax weight",
        "linear_caption": "The weights of “{word}”: the linear kernel and softmax over the same keys",
        "linear_differ": ("They are not the same: the word looked at most weighs {lin} under the kernel and {soft} "
                          "under softmax. Linear attention approximates; it does not compute the same."),
        "linear_orders": ("The same result in two orders: (φ(q)·φ(K)ᵀ)·V = {left} and φ(q)·(φ(K)ᵀ·V) = {right}. "
                          "The second order first sums φ(k)·vᵀ over every key: one d × d matrix that serves every "
                          "row."),
        "linear_mask": ("Under the causal mask each row has its own sum: it is kept running, adding one key at a "
                        "time, and gives the same."),
        "linear_products": ("Products: {n} words with d = {d}: (φ(Q)φ(K)ᵀ)V makes n²·d = {quad}, φ(Q)(φ(K)ᵀV) n·d² = "
                            "{lin}. At n = 100,000: {quad_big} against {lin_big}."),
        "linear_off": "Choose the “linear” pattern to compare it with softmax.",
        "linear_none": "“{word}” looks at no word.",
        "heatmap_cost_window": ("{n} words → {cells} scores computed; 1,000 words → {big}: under the window each row "
                                "has at most 2w + 1 = {row} cells, so the cost grows like n (linearly), not like n²."),
        "heatmap_cost_local_global": ("{n} words → {cells} scores computed; 1,000 words → at most {big}: the window "
                                      "gives at most 2w + 1 = {row} cells a row; global words: {g}, each with a whole row "
                                      "and column (2n cells); with few global words the cost grows like n, not like n²."),
        "heatmap_cost_bigbird": ("{n} words → {cells} scores computed; 1,000 words → at most {big}: the window gives at "
                                 "most 2w + 1 = {row} cells a row, chance {r} keys a row; global words: {g}, "
                                 "each with a whole row and column (2n cells); the cost grows like n, not like n²."),
        "heatmap_cost_linear": ("{n} words → {cells} weights; but without softmax the products can be grouped as "
                                "φ(Q)·(φ(K)ᵀ·V): n·d² instead of n²·d, the cost grows like n, not like n²."),
    },
}


def render_controls(ctx):
    """The pattern (five radio buttons, each with its sentence), the window, the random keys, and
    one checkbox a word for the global words; each named after its setting (app/settings.py)."""
    settings, lang, tokens = ctx.settings, ctx.lang, ctx.tokens or []
    off = "" if ctx.interactive is True and not settings.lock else " disabled"
    t = lambda key, **p: esc(text(lang, key, **p))  # noqa: E731
    kinds = "".join(
        f'<label class="cost-choice"><input type="radio" id="pattern-{p}" name="pattern" value="{p}"'
        f'{" checked" if p == settings.pattern else ""}{off}> {t("cost_" + p)}</label>' for p in patterns.PATTERNS)
    window = patterns.DEFAULT_WINDOW if settings.window is None else settings.window
    random_keys = patterns.DEFAULT_RANDOM if settings.random_keys is None else settings.random_keys
    chosen = set(registry_globals(settings))
    words = "".join(
        f'<label class="cost-global"><input type="checkbox" id="global-{j}" name="global-word" value="{j}"'
        f'{" checked" if j in chosen else ""}{off}> {esc(tok.text)}</label>' for j, tok in enumerate(tokens))
    return registry.section("cost-controls", (
        f'<fieldset class="cost-patterns"><legend>{t("cost_legend")}</legend>{kinds}</fieldset>'
        '<div class="cost-numbers">'
        f'<label for="window">{t("cost_window_label")}</label>'
        f'<input type="number" id="window" name="window" min="0" max="500" step="1" value="{window}"{off}>'
        f'<label for="random">{t("cost_random_label")}</label>'
        f'<input type="number" id="random" name="random" min="0" max="500" step="1" value="{random_keys}"{off}></div>'
        f'<fieldset class="cost-globals"><legend>{t("cost_global_legend")}</legend>{words}</fieldset>'
        f'<p class="note">{t("cost_seed_note", seed=settings.seed or 0)}</p>'), "cost-controls-section", view=False)


def registry_globals(settings):
    return schema.global_indices(settings)


def toggle_global(page, target):
    """A global word's checkbox: that word joins or leaves the global words; the focus stays on it."""
    chosen = set(schema.global_indices(page.settings))
    j = int(target.value)
    chosen = chosen | {j} if target.checked else chosen - {j}
    page.apply(schema.BY_ATTR["global_tokens"], ",".join(str(k) for k in sorted(chosen)))
    page.region(f"global-{j}").focus()


# The chart's words: its axes' titles and its key (what each line and the dot are).
registry.add_strings({
    "it": {"cost_axis_n": "parole n (scala logaritmica)", "cost_axis_cells": "celle calcolate",
           "cost_key_pattern": "questo schema", "cost_key_full": "piena, n²", "cost_key_dot": "questa frase"},
    "en": {"cost_axis_n": "words n (log scale)", "cost_axis_cells": "cells computed",
           "cost_key_pattern": "this pattern", "cost_key_full": "full, n²", "cost_key_dot": "this sentence"},
})
CHART_W, CHART_H = 360, 250  # the chart's drawing (SVG units)
LEFT, RIGHT, TOP, BOTTOM = 62, 12, 40, 42  # its margins: the cells' ticks, the key above, the words' ticks and title


def chart(points, lang, sentence):
    """An SVG of the cells against n on log–log axes, with ticks at each power of ten on both axes,
    their titles and a key: the pattern's curve, the full one (n², dashed, drawn over the pattern's so
    both show where they meet), and this sentence's dot; its numbers are in the table beside it (a
    text alternative)."""
    top = max(2, math.ceil(math.log10(max(max(p[2] for p in points), 10))))
    right = math.log10(POINTS[-1])
    x = lambda n: LEFT + (CHART_W - LEFT - RIGHT) * math.log10(n) / right  # noqa: E731
    y = lambda c: CHART_H - BOTTOM - (CHART_H - TOP - BOTTOM) * math.log10(max(c, 1)) / top  # noqa: E731
    line = lambda k: " ".join(f"{x(p[0]):.1f},{y(p[k]):.1f}" for p in points)  # noqa: E731
    t = lambda key: esc(text(lang, key))  # noqa: E731
    n, cells = sentence
    base = CHART_H - BOTTOM
    ticks = []
    for k in range(int(right) + 1):  # (n = 1, 10, …, 100.000)
        ticks.append(f'<line class="axis" x1="{x(10 ** k):.1f}" y1="{base}" x2="{x(10 ** k):.1f}" y2="{base + 4}"></line>'
                     f'<text class="tick" x="{x(10 ** k):.1f}" y="{base + 15}" '
                     f'text-anchor="{"end" if k == int(right) else "middle"}">{whole(10 ** k, lang)}</text>')
    for k in range(0, top + 1, 2):  # (cells 1, 100, 10.000, …: every other power, so labels stay apart)
        ticks.append(f'<line class="axis" x1="{LEFT - 4}" y1="{y(10 ** k):.1f}" x2="{LEFT}" y2="{y(10 ** k):.1f}"></line>'
                     f'<text class="tick" x="{LEFT - 6}" y="{y(10 ** k) + 4:.1f}" text-anchor="end">10<tspan '
                     f'dy="-5" font-size="8">{k}</tspan></text>')
    key = (f'<line class="cost-pattern" x1="{LEFT}" y1="10" x2="{LEFT + 20}" y2="10"></line>'
           f'<text x="{LEFT + 25}" y="14">{t("cost_key_pattern")}</text>'
           f'<line class="cost-full" x1="{LEFT + 125}" y1="10" x2="{LEFT + 145}" y2="10"></line>'
           f'<text x="{LEFT + 150}" y="14">{t("cost_key_full")}</text>'
           f'<circle class="cost-dot" cx="{LEFT + 5}" cy="27" r="4"></circle>'
           f'<text x="{LEFT + 25}" y="31">{t("cost_key_dot")}</text>')
    return (f'<svg class="cost-chart" viewBox="0 0 {CHART_W} {CHART_H}" width="{CHART_W}" height="{CHART_H}" '
            f'role="img" aria-label="{esc(text(lang, "cost_chart"))}" focusable="false">'
            f'<line class="axis" x1="{LEFT}" y1="{base}" x2="{CHART_W - RIGHT}" y2="{base}"></line>'
            f'<line class="axis" x1="{LEFT}" y1="{TOP - 4}" x2="{LEFT}" y2="{base}"></line>'
            + "".join(ticks)
            + f'<polyline class="cost-pattern" fill="none" points="{line(1)}"></polyline>'
            f'<polyline class="cost-full" fill="none" points="{line(2)}"></polyline>'
            f'<circle class="cost-dot" cx="{x(n):.1f}" cy="{y(cells):.1f}" r="4"></circle>'
            f'<text class="axis-title" x="{(LEFT + CHART_W - RIGHT) / 2:.0f}" y="{CHART_H - 6}" '
            f'text-anchor="middle">{t("cost_axis_n")}</text>'
            f'<text class="axis-title" transform="translate(14 {(TOP + base) / 2:.0f}) rotate(-90)" '
            f'text-anchor="middle">{t("cost_axis_cells")}</text>'
            + key + "</svg>")


def render_cost(ctx):
    """Cells computed against n² as n grows (chart and table), and the score matrix's bytes."""
    settings, lang, record = ctx.settings, ctx.lang, ctx.record
    if record is None:
        return registry.section("cost", "", "cost-section", view=False)
    t = lambda key, **p: esc(text(lang, key, **p))  # noqa: E731
    n = record.n_k
    cells = sum(sum(1 for c in record.candidates[i] if c) for i in range(record.n_q))
    full = record.n_q * record.n_k
    rule = dict(window=settings.window, n_global=len(registry_globals(settings)), random_keys=settings.random_keys,
                mask=settings.mask, include_self=settings.include_self)
    shown = sorted({n, *POINTS})
    # The row of this sentence's n is its own matrix counted (the line above it and the dot say the
    # same number); the others follow the rule, an upper bound with global words.
    by_rule = patterns.cells_at(settings.pattern, n, **rule)
    points = [(m, cells if m == n else patterns.cells_at(settings.pattern, m, **rule), m * m) for m in shown]
    name = text(lang, "cost_name_" + settings.pattern)
    rows = [(whole(m, lang), [whole(c, lang), whole(f, lang)], {"class_": "cost-here"} if m == n else {})
            for m, c, f in points]
    columns = [Column("n", t("cost_col_n")), Column("cells", t("cost_col_pattern", pattern=name)),
               Column("full", t("cost_col_full"))]
    memory = [(whole(m, lang), [whole(BYTES_PER_CELL * m * m, lang),
                                whole(BYTES_PER_CELL * patterns.cells_at(settings.pattern, m, **rule), lang)], {})
              for m in MEMORY_AT]
    memory_columns = [Column("n", t("cost_col_n")), Column("full", t("cost_col_bytes_full")),
                      Column("pattern", t("cost_col_bytes_pattern", pattern=name))]
    inner = (f'<h2>{t("cost_heading")}</h2>'
             f'<p class="cost-now">{t("cost_now", n=n, cells=whole(cells, lang), full=whole(full, lang), pct=percent(cells / full, lang, "table"))}</p>'
             + (f'<p class="cost-rule-note">{t("cost_rule_differs", n=n, cells=whole(cells, lang), rule=whole(by_rule, lang))}</p>'
                if by_rule != cells else "")
             + chart(points, lang, (n, cells))
             + f'<div class="table-wrap" role="region" tabindex="0" aria-label="{t("cost_caption")}">'
             + table(columns, rows, t("cost_caption"), class_="cost-table") + "</div>"
             + f'<h3>{t("cost_memory_heading")}</h3><p>{t("cost_memory_intro")}</p>'
             + f'<div class="table-wrap" role="region" tabindex="0" aria-label="{t("cost_memory_caption")}">'
             + table(memory_columns, memory, t("cost_memory_caption"), class_="cost-memory") + "</div>")
    return registry.section("cost", inner, "cost-section", view=False)


def cost_rule(settings, tokens=None, record=None):
    """The record part the heatmap's cost line reads (app/views/heatmap.py, `cost_line`): the
    pattern, its w, its global words and random keys as they apply, and the cells of its rule at
    n = 1,000 (`patterns.cells_at`, with the sentence's mask and self rule)."""
    named = patterns.named(settings.pattern, record.n_q, record.n_k, settings.window,
                           schema.global_indices(settings), settings.random_keys)
    return {"pattern": settings.pattern, "window": named["window"] or 0, "globals": len(named["global"]),
            "random": named["random"] or 0,
            "at_1000": patterns.cells_at(settings.pattern, 1000, window=settings.window, n_global=len(named["global"]),
                                         random_keys=settings.random_keys, mask=settings.mask,
                                         include_self=settings.include_self)}


registry.add_record_part("cost_rule", cost_rule)


def phi(vector):
    return [attention.elu_plus_one(x) for x in vector]


def render_linear(row, tokens, lang, word=None):
    """The selected row under the kernel beside softmax over the same keys, the two orders of the
    product, and what each costs."""
    record = row.record
    if record.cost != "linear":
        return f'<p class="note">{esc(text(lang, "linear_off"))}</p>'
    word = word or tokens[row.focus].text
    t = lambda key, **p: esc(text(lang, key, **p))  # noqa: E731
    head = f'<h2>{t("linear_heading")}</h2><p>{t("linear_intro")}</p>'
    picked = [j for j in range(row.n) if row.candidates[j]]
    if not picked:
        return head + f'<p>{t("linear_none", word=word)}</p>'
    top = max(row.logits[j] for j in picked)
    soft = {j: math.exp(row.logits[j] - top) for j in picked}
    total = math.fsum(soft.values())
    soft = {j: w / total for j, w in soft.items()}
    names = [tok.text for tok in tokens][:row.n] if len(tokens) >= row.n else [f"k{j + 1}" for j in range(row.n)]
    rows = [(esc(names[j]), [num(row.exps[j], lang), percent(row.weights[j], lang, "table"),
                             percent(soft[j], lang, "table")], {"data_index": j}) for j in picked]
    columns = [Column("word", t("linear_col_word")), Column("kernel", t("linear_col_kernel")),
               Column("linear", t("linear_col_linear")), Column("softmax", t("linear_col_softmax"))]
    most = max(picked, key=lambda j: (row.weights[j], -j))
    q = phi(row.query)
    keys = [phi(record.keys[j]) for j in picked]
    values = [record.values[j] for j in picked]
    d_v = len(values[0])
    left = [math.fsum(sum(a * b for a, b in zip(q, k)) * v[c] for k, v in zip(keys, values)) for c in range(d_v)]
    kv = [[math.fsum(k[a] * v[c] for k, v in zip(keys, values)) for c in range(d_v)] for a in range(len(q))]
    right = [math.fsum(q[a] * kv[a][c] for a in range(len(q))) for c in range(d_v)]
    norm = math.fsum(sum(a * b for a, b in zip(q, k)) for k in keys)
    n, d = record.n_k, len(row.query)
    big = 100_000
    return (head
            + f'<div class="table-wrap" role="region" tabindex="0" aria-label="{t("linear_caption", word=word)}">'
            + table(columns, rows, t("linear_caption", word=word), class_="linear-table") + "</div>"
            + f'<p>{t("linear_differ", lin=percent(row.weights[most], lang, "table"), soft=percent(soft[most], lang, "table"))}</p>'
            + f'<p class="linear-orders">{t("linear_orders", left=vec([x / norm for x in left], lang), right=vec([x / norm for x in right], lang))}</p>'
            + (f'<p>{t("linear_mask")}</p>' if record.mask else "")
            + f'<p>{t("linear_products", n=n, d=d, quad=whole(n * n * d, lang), lin=whole(n * d * d, lang), quad_big=whole(big * big * d, lang), lin_big=whole(big * d * d, lang))}</p>')


CONTROLS = registry.add(registry.View(id="cost-controls", place=7, explorer=False, draw=render_controls,
                                      strings=STRINGS, settings=("pattern", "window", "global_tokens", "random_keys")))
COST = registry.add(registry.View(id="cost", place=8, explorer=False, draw=render_cost))
LINEAR = registry.add(registry.View(
    id="linear", place=9, modes=("sentence", "matrix"), explorer=False, row=render_linear,
    draw=lambda ctx: registry.section("linear", ctx.part("linear"), "linear-section", view=False)))
