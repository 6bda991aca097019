"""The position lab's comparison: the selected word's weights under none, sinusoidal, RoPE and
ALiBi, as four small bar sets side by side, on the same sentence and settings."""

from app.i18n import text
from app.views import position, registry
from app.views.bars import bar_item
from app.views.html import esc

STRINGS = {
    "it": {
        "pcmp_heading": "Le quattro posizioni a confronto",
        "pcmp_intro": "Dove guarda «{word}» con ciascun modo di dare l'ordine, sulla stessa frase.",
        "pcmp_set": "«{word}» con posizione {kind}",
    },
    "en": {
        "pcmp_heading": "The four positions side by side",
        "pcmp_intro": "Where “{word}” looks under each way of giving order, on the same sentence.",
        "pcmp_set": "“{word}” with position {kind}",
    },
}


def render_compare(row, tokens, lang, word=None):
    record = row.record
    if not position.lab_on(record):
        return ""
    word = tokens[row.focus].text
    sets = []
    for kind in position.KINDS:
        other = position.run(record, tokens, kind).row(row.focus)
        name = text(lang, "pos_kind_" + kind)
        items = "".join(bar_item(other, j, tok, lang) for j, tok in enumerate(tokens))
        sets.append(f'<figure class="compare-set" data-kind="{kind}"><figcaption>{esc(name)}</figcaption>'
                    f'<ul class="bars" aria-label="{esc(text(lang, "pcmp_set", word=word, kind=name))}">{items}</ul></figure>')
    return (f'<h2>{esc(text(lang, "pcmp_heading"))}</h2><p>{esc(text(lang, "pcmp_intro", word=word))}</p>'
            f'<div class="compare-sets">{"".join(sets)}</div>')


VIEW = registry.add(registry.View(
    id="compare", place=19, explorer=False, row=render_compare,
    draw=lambda ctx: registry.section("compare", ctx.part("compare"), "compare-section", view=False),
    strings=STRINGS))
