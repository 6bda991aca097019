"""The position lab's sinusoidal view: each card before and after its PE row is added (right below
the controls, where the student has just chosen "sinusoidal"; on a phone each row a small card, so
x + PE is in view without scrolling sideways), the formula and its base, a small heatmap of the PE
rows, and why the page's base is 10 where the paper's is 10,000, with a button that sets 10,000
(or back to 10)."""

import math
from fractions import Fraction

from app import attention, settings as schema
from app.i18n import short, text
from app.labs.position import experiments
from app.numbers import whole
from app.views import registry
from app.views.html import Cell, Column, esc, table
from app.views.query import vec

SHOWN = 24  # the first positions shown (a long text: the same rows, the rest alike)
CELL = 16  # the heatmap's cell, in SVG units
PAPER_BASE = 10_000.0  # the Transformer paper's base (Vaswani et al. 2017, section 3.5)

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
        "sin_base": ("L'articolo del Transformer usa la base {paper}; questa pagina parte da 10, perché una carta ha "
                     "solo {d} numeri, cioè {h} coppie. La coppia lenta gira di base^(−{e}) radianti a parola: con "
                     "{paper}, {paper_rad} rad, e su {n} parole {paper_deg}° in tutto, quasi ferma; con 10, "
                     "{ten_rad} rad, {ten_deg}° in tutto: si vedono girare tutte e due le coppie, a velocità "
                     "diverse. I modelli veri hanno centinaia di numeri per parola e testi di migliaia di parole: "
                     "lì le coppie lente distinguono le posizioni lontane, e serve {paper}."),
        "sin_base_paper": "Usa la base {paper}, come l'articolo",
        "sin_base_page": "Torna alla base 10",
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
        "sin_base": ("The Transformer paper uses the base {paper}; this page starts from 10, because a card has only "
                     "{d} numbers, that is {h} pairs. The slow pair turns by base^(−{e}) radians a word: with "
                     "{paper}, {paper_rad} rad, and over {n} words {paper_deg}° in all, nearly still; with 10, "
                     "{ten_rad} rad, {ten_deg}° in all: both pairs are seen turning, at different speeds. Real "
                     "models have hundreds of numbers a word and texts of thousands of words: there the slow pairs "
                     "tell far positions apart, and {paper} is what they need."),
        "sin_base_paper": "Use the base {paper}, as the paper does",
        "sin_base_page": "Back to the base 10",
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


def slow_turn(base, d):
    """The slowest pair's angle a word, base^(−2(h − 1)/d) radians (h = d/2 pairs)."""
    return base ** (-2 * (d // 2 - 1) / d)


def base_note(settings, n, d, lang, off):
    """Why the page's base is 10 and the paper's 10,000 (the slow pair's turn over these n words
    under each), and the button that sets the paper's base, or back to 10 from it."""
    h = d // 2
    paper, ten = slow_turn(PAPER_BASE, d), slow_turn(attention.DEFAULT_BASE, d)
    spread = max(n - 1, 1)  # (the first word to the last)
    said = text(lang, "sin_base", paper=whole(int(PAPER_BASE), lang), d=d, h=h, e=str(Fraction(2 * (h - 1), d)), n=n,
                paper_rad=short(paper, lang), paper_deg=short(math.degrees(spread * paper), lang, 0),
                ten_rad=short(ten, lang), ten_deg=short(math.degrees(spread * ten), lang, 0))
    at_paper = settings.base == PAPER_BASE
    label = text(lang, "sin_base_page") if at_paper else text(lang, "sin_base_paper", paper=whole(int(PAPER_BASE), lang))
    return (f'<p class="sin-base">{esc(said)}</p>'
            f'<p><button type="button" class="secondary" id="pos-base-paper"{off}>{esc(label)}</button></p>')


def render_sinusoidal(ctx):
    settings, tokens, lang = ctx.settings, ctx.tokens, ctx.lang
    if not tokens:
        return registry.section("sinusoidal", "", "sinusoidal-section", view=False)
    d = len(tokens[0].card)
    shown = tokens[:SHOWN]
    encoding = attention.sinusoidal_encoding(len(shown), d, settings.offset, settings.base)
    t = lambda key, **p: esc(text(lang, key, **p))  # noqa: E731
    names = {key: text(lang, "sin_col_" + key) for key in ("p", "card", "pe", "sum")}
    columns = [Column("word", t("col_word"))] + [Column(key, esc(name)) for key, name in names.items()]

    def cell(key, value):  # (its column's name beside it when a phone shows the row as a card)
        return Cell(value, data_label=names[key])

    rows = [(esc(tok.text), [cell("p", str(settings.offset + i)), cell("card", esc(vec(tok.card, lang))),
                             cell("pe", esc(vec(pe, lang))),
                             cell("sum", esc(vec(attention.add_rows([tok.card], [pe])[0], lang)))],
             {"data_index": i})
            for i, (tok, pe) in enumerate(zip(shown, encoding))]
    more = f'<p class="note">{t("sin_more", shown=SHOWN, n=len(tokens))}</p>' if len(tokens) > SHOWN else ""
    inner = (f'<h2>{t("sin_heading")}</h2><p>{t("sin_intro")}</p>'
             f'<div class="table-wrap" role="region" tabindex="0" aria-label="{t("sin_caption")}">'
             + table(columns, rows, t("sin_caption"), class_="pe-table") + "</div>" + more
             + base_note(settings, len(tokens), d, lang, experiments.off_of(ctx))
             + f'<p class="formula">{t("sin_formula", base=short(settings.base, lang), d=d, offset=settings.offset)}</p>'
             + heatmap(encoding, settings.offset, lang))
    return registry.section("sinusoidal", inner, "sinusoidal-section", view=False)


def paper_base(page):
    """The base button: the paper's 10,000, or back to the page's 10 from it (the focus stays on it)."""
    setting = schema.BY_ATTR["base"]
    page.apply(setting, setting.default if page.settings.base == PAPER_BASE else PAPER_BASE)
    page.region("pos-base-paper").focus()


VIEW = registry.add(registry.View(id="sinusoidal", place=16, explorer=False, draw=render_sinusoidal,
                                  strings=STRINGS))
