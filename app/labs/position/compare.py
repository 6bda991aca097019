"""The position lab's comparison: the selected word's weights under none, sinusoidal, RoPE and
ALiBi, as four small bar sets side by side, on the same sentence and settings."""

from app.i18n import text
from app.labs.position import controls as position
from app.views import registry
from app.views.bars import bar_item
from app.views.html import esc

SHORT = 12  # up to this many words every word has its bar in each set
TOP = 5  # longer texts: each kind's five favourites (and the selected word)

STRINGS = {
    "it": {
        "pcmp_heading": "Le quattro posizioni a confronto",
        "pcmp_intro": "Dove guarda «{word}» con ciascun modo di dare l'ordine, sulla stessa frase.",
        "pcmp_set": "«{word}» con posizione {kind}",
        "pcmp_some": "Con {n} parole: le {top} che ciascun modo preferisce e la parola scelta.",
    },
    "en": {
        "pcmp_heading": "The four positions side by side",
        "pcmp_intro": "Where “{word}” looks under each way of giving order, on the same sentence.",
        "pcmp_set": "“{word}” with position {kind}",
        "pcmp_some": "With {n} words: the {top} each way favours most, and the selected word.",
    },
}


def render_compare(row, tokens, lang, word=None):
    record = row.record
    if not position.lab_on(record):
        return ""
    word = tokens[row.focus].text
    rows = [position.run(record, tokens, kind).row(row.focus) for kind in position.KINDS]
    shown = range(len(tokens))
    if len(tokens) > SHORT:  # a long text: each kind's favourites (four sets of 200 bars say less, slower)
        shown = sorted({row.focus}.union(*(sorted(range(r.n), key=lambda j: -r.weights[j])[:TOP] for r in rows)))
    sets = []
    for kind, other in zip(position.KINDS, rows):
        name = text(lang, "pos_kind_" + kind)
        items = "".join(bar_item(other, j, tokens[j], lang) for j in shown)
        sets.append(f'<figure class="compare-set" data-kind="{kind}"><figcaption>{esc(name)}</figcaption>'
                    f'<ul class="bars" data-plain aria-label="{esc(text(lang, "pcmp_set", word=word, kind=name))}">{items}</ul></figure>')
    some = f'<p class="note">{esc(text(lang, "pcmp_some", n=len(tokens), top=TOP))}</p>' if len(tokens) > SHORT else ""
    return (f'<h2>{esc(text(lang, "pcmp_heading"))}</h2><p>{esc(text(lang, "pcmp_intro", word=word))}</p>{some}'
            f'<div class="compare-sets">{"".join(sets)}</div>')


VIEW = registry.add(registry.View(
    id="compare", place=19, explorer=False, row=render_compare,
    draw=lambda ctx: registry.section("compare", ctx.part("compare"), "compare-section", view=False),
    strings=STRINGS))
