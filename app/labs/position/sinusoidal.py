"""The position lab's sinusoidal view: the PE rows of the sentence's positions with the formula
and its base, a small heatmap of them, and each card before and after its PE is added."""

from app import attention
from app.i18n import short, text
from app.views import registry
from app.views.html import Column, esc, table
from app.views.query import vec

SHOWN = 24  # the first positions shown (a long text: the same rows, the rest alike)
CELL = 16  # the heatmap's cell, in SVG units

STRINGS = {
    "it": {
        "sin_heading": "Posizioni sinusoidali",
        "sin_formula": ("PE(p, 2t) = sin(p / {base}^(2t/{d})), PE(p, 2t+1) = cos(p / {base}^(2t/{d})), con p = "
                        "{offset} + i: ogni coppia di numeri gira a una sua velocità, la prima di 1 radiante a "
                        "parola, la seconda di 1/√{base}."),
        "sin_intro": ("Il Transformer originale somma a ogni carta una riga di seni e coseni che dipende solo dalla "
                      "posizione: due parole uguali in posti diversi diventano vettori diversi."),
        "sin_caption": "Ogni carta prima e dopo la sua riga PE",
        "sin_col_p": "p",
        "sin_col_card": "Carta x",
        "sin_col_pe": "PE(p)",
        "sin_col_sum": "x + PE(p)",
        "sin_map": ("Mappa di calore di PE: una riga per posizione (p = {first}…{last}), una colonna per dimensione; "
                    "arancione = +1, bianco = 0, blu = −1. I numeri sono nella tabella."),
        "sin_more": "Le prime {shown} posizioni di {n}.",
    },
    "en": {
        "sin_heading": "Sinusoidal positions",
        "sin_formula": ("PE(p, 2t) = sin(p / {base}^(2t/{d})), PE(p, 2t+1) = cos(p / {base}^(2t/{d})), with p = "
                        "{offset} + i: each pair of numbers turns at its own speed, the first 1 radian a word, the "
                        "second 1/√{base}."),
        "sin_intro": ("The original Transformer adds to each card a row of sines and cosines that depends only on "
                      "the position: the same word in two places becomes two different vectors."),
        "sin_caption": "Each card before and after its PE row",
        "sin_col_p": "p",
        "sin_col_card": "Card x",
        "sin_col_pe": "PE(p)",
        "sin_col_sum": "x + PE(p)",
        "sin_map": ("Heatmap of PE: one row per position (p = {first}…{last}), one column per dimension; orange = +1, "
                    "white = 0, blue = −1. The numbers are in the table."),
        "sin_more": "The first {shown} positions of {n}.",
    },
}


def colour(x):
    """−1 blue · 0 white · +1 orange (the heatmap's scale)."""
    x = max(-1.0, min(1.0, x))
    far = (33, 102, 172) if x < 0 else (214, 96, 17)
    r, g, b = (round(255 + abs(x) * (c - 255)) for c in far)
    return f"rgb({r},{g},{b})"


def heatmap(encoding, offset, lang):
    """The PE rows as coloured cells (an image; its numbers are the table's)."""
    n, d = len(encoding), len(encoding[0]) if encoding else 0
    said = esc(text(lang, "sin_map", first=offset, last=offset + n - 1))
    cells = "".join(f'<rect x="{c * CELL}" y="{i * CELL}" width="{CELL}" height="{CELL}" fill="{colour(v)}"></rect>'
                    for i, row in enumerate(encoding) for c, v in enumerate(row))
    return (f'<figure class="pe-map"><svg viewBox="0 0 {d * CELL} {n * CELL}" width="{d * CELL * 2}" '
            f'height="{n * CELL * 2}" role="img" aria-label="{said}" focusable="false">{cells}</svg>'
            f'<figcaption>{said}</figcaption></figure>')


def render_sinusoidal(ctx):
    settings, tokens, lang = ctx.settings, ctx.tokens, ctx.lang
    if not tokens:
        return registry.section("sinusoidal", "", "sinusoidal-section", view=False)
    d = len(tokens[0].card)
    shown = tokens[:SHOWN]
    encoding = attention.sinusoidal_encoding(len(shown), d, settings.offset, settings.base)
    t = lambda key, **p: esc(text(lang, key, **p))  # noqa: E731
    columns = [Column("word", t("col_word")), Column("p", t("sin_col_p")), Column("card", t("sin_col_card")),
               Column("pe", t("sin_col_pe")), Column("sum", t("sin_col_sum"))]
    rows = [(esc(tok.text), [str(settings.offset + i), esc(vec(tok.card, lang)), esc(vec(pe, lang)),
                             esc(vec(attention.add_rows([tok.card], [pe])[0], lang))], {"data_index": i})
            for i, (tok, pe) in enumerate(zip(shown, encoding))]
    more = f'<p class="note">{t("sin_more", shown=SHOWN, n=len(tokens))}</p>' if len(tokens) > SHOWN else ""
    inner = (f'<h2>{t("sin_heading")}</h2><p>{t("sin_intro")}</p>'
             f'<p class="formula">{t("sin_formula", base=short(settings.base, lang), d=d, offset=settings.offset)}</p>'
             '<div class="position-pair">'
             f'<div class="table-wrap" role="region" tabindex="0" aria-label="{t("sin_caption")}">'
             + table(columns, rows, t("sin_caption"), class_="pe-table") + "</div>"
             + heatmap(encoding, settings.offset, lang) + "</div>" + more)
    return registry.section("sinusoidal", inner, "sinusoidal-section", view=False)


VIEW = registry.add(registry.View(id="sinusoidal", place=16, explorer=False, draw=render_sinusoidal,
                                  strings=STRINGS))
