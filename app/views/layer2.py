"""A second layer: the first layer's output cards are its input (seed 000: in a real
transformer the vector entering layer n already carries its context)."""

from app import heads
from app.contract import ALL_HEADS_MAX, layer2_cards  # (a choice among numbers already computed)
from app.i18n import percent, text
from app.views.html import Column, esc, table
from app.views.query import vec
from app.views import registry

SHORT = 12  # sentences up to this many words show every word in the table
TOP = 5  # longer ones: each layer's five favourites and the selected word


def shown_words(one, two, i):
    """Every word of a short sentence; past SHORT words, the selected one and each
    layer's TOP favourites (in sentence order), so a click stays cheap at 200 words."""
    if one.n <= SHORT:
        return range(one.n)

    def top(row):
        return sorted(range(row.n), key=lambda j: -row.weights[j])[:TOP]

    return sorted({i, *top(one), *top(two)})


def render_layer2(record, i, tokens, lang):
    """For the selected word: every word's card in layer 1 and in layer 2, and where the
    word looks in each layer (the active head)."""
    second = record.layer2
    word = tokens[i].text
    if second is None:
        return (f'<h2>{esc(text(lang, "l2_heading"))}</h2>'
                f'<p class="note">{esc(text(lang, "heads_long", n=ALL_HEADS_MAX))}</p>')
    h, n = len(record.head_records), record.n_q
    head = text(lang, "head_name_" + heads.HEADS[record.head_records.index(record)].id)
    one, two = record.row(i), second.row(i)

    def weight(row, j):
        return percent(row.weights[j], lang) if row.candidates[j] else "—"

    columns = [Column("word", esc(text(lang, "col_word"))), Column("card1", esc(text(lang, "l2_card1"))),
               Column("card2", esc(text(lang, "l2_card2"))), Column("w1", esc(text(lang, "l2_w1", word=word))),
               Column("w2", esc(text(lang, "l2_w2", word=word)))]
    cards = layer2_cards(record, [t.card for t in tokens])
    rows = [(esc(tokens[j].text), [esc(vec(tokens[j].card, lang)), esc(vec(cards[j], lang)), weight(one, j),
                                   weight(two, j)], {"class": "selected" if j == i else None})
            for j in shown_words(one, two, i)]
    return (f'<h2>{esc(text(lang, "l2_heading"))}</h2>'
            f'<p>{esc(text(lang, "l2_intro"))}</p>'
            f'<p class="multi-shapes">{esc(text(lang, "l2_shapes", n=n, h=h, head=head))}</p>'
            f'<div class="table-wrap" role="region" tabindex="0" aria-label="{esc(text(lang, "l2_heading"))}">'
            + table(columns, rows, esc(text(lang, "l2_caption", word=word)), class_="layer2") + "</div>")


VIEW = registry.add(registry.View(
    id="layer2", place=90, row=lambda row, tokens, lang, word: render_layer2(row.record, row.focus, tokens, lang),
    draw=lambda ctx: registry.section("layer2", ctx.part("layer2"), "layer2-section", view=False)))
