"""The selected word's output: out = Σ_j w_j · v_j, its new context-mixed card beside the
old one, the sum written out with the table's weights."""

from app.i18n import num, text
from app.views.html import esc
from app.views.sentence import render_card
from app.views.query import vec
from app.views import registry

WEIGHT_DECIMALS = 3  # the steps table's weights: 0,424
CARD_DECIMALS = 2  # cards show two decimals


def written_sum(row, tokens, lang):
    """'0,424 × gatto + 0,251 × tappeto + …', largest weight first (candidates only)."""
    idx = sorted((j for j in range(row.n) if row.candidates[j]), key=lambda j: (-row.weights[j], j))
    return " + ".join(f"{num(row.weights[j], lang, WEIGHT_DECIMALS)} × {tokens[j].text}" for j in idx)


def digits_differ(row, lang):
    """Whether Σ (shown weight × value) differs in a shown digit from the full-precision output."""
    values = row.record.values
    for c, exact in enumerate(row.output):
        approx = sum(float(num(row.weights[j], "en", WEIGHT_DECIMALS)) * values[j][c]
                     for j in range(row.n) if row.candidates[j])
        if num(approx, lang, CARD_DECIMALS) != num(exact, lang, CARD_DECIMALS):
            return True
    return False


def render_output(row, tokens, lang):
    word = tokens[row.focus].text
    heading = f'<h2>{esc(text(lang, "output_heading", word=word))}</h2>'
    if row.output is None:
        return heading + f'<p class="note">{esc(text(lang, "output_none", word=word))}</p>'
    old = tokens[row.focus].card
    cards = (
        '<div class="output-cards">'
        f'<div class="output-card"><span class="output-label">{esc(text(lang, "output_old"))}</span>'
        f'{render_card(old, lang, text(lang, "output_old"))}</div>'
        '<span class="output-arrow" aria-hidden="true">→</span>'
        f'<div class="output-card new"><span class="output-label">{esc(text(lang, "output_new"))}</span>'
        f'{render_card(row.output, lang, text(lang, "output_new"))}</div></div>'
    )
    note = f'<p class="note">{esc(text(lang, "output_digits"))}</p>' if digits_differ(row, lang) else ""
    return (
        heading
        + f'<p class="output-sum">{esc(text(lang, "output_sum", word=word, terms=written_sum(row, tokens, lang)))}</p>'
        + f'<p class="vector">{esc(text(lang, "output_line", vector=vec(row.output, lang)))}</p>'
        + cards + note
        + f'<p class="output-meaning">{esc(text(lang, "output_meaning", word=word))}</p>'
    )


VIEW = registry.add(registry.View(
    id="output", place=60, tab=True, row=lambda row, tokens, lang, word: render_output(row, tokens, lang),
    draw=lambda ctx: registry.section("output", ctx.part("output"), "output-section")))
