"""The position lab's RoPE view: for the selected word, each pair of its q's dimensions and of a
key's (the word the student picks in the view, `rope_key`; at first the one it looks at most under
RoPE) as arrows on a circle, before and after the turn, the
angle p·θ of each pair, and the product before and after: the score depends only on i − j."""

import math

from app import attention
from app.i18n import num, short, text
from app.labs.position import controls as position
from app.views import registry
from app.views.html import Column, esc, table
from app.views.query import vec

R = 44  # the circle's radius, in SVG units (the longest of a pair's four arrows reaches it)

STRINGS = {
    "it": {
        "rope_heading": "RoPE: q e k girano",
        "rope_intro": ("RoPE non somma niente alla carta: gira q e k (non v) dopo la proiezione. Ogni coppia di "
                       "dimensioni {pairs} gira dell'angolo p·θ, con θ_t = {base}^(−2t/{d}) e p = {offset} + i."),
        "rope_which": ("«{word}» (p = {p}) e la chiave di «{other}» (p = {pk}), la parola che «{word}» guarda di più "
                       "con RoPE."),
        "rope_pair": "Coppia {pair}",
        "rope_svg": ("Coppia {pair}: q prima ({q0}) e dopo ({q1}) la rotazione di {aq} rad; k prima ({k0}) e dopo "
                     "({k1}) la rotazione di {ak} rad. Tratteggio: prima; pieno: dopo; blu: q; arancione: k."),
        "rope_col_pair": "Coppia",
        "rope_col_theta": "θ_t",
        "rope_col_aq": "rotazione di q: p·θ",
        "rope_col_ak": "rotazione di k: p·θ",
        "rope_col_before": "prodotto prima",
        "rope_col_after": "prodotto dopo",
        "rope_caption": "Ogni coppia: di quanto girano q e k, e il suo pezzo del prodotto q · k",
        "rope_total": "Totale q · k",
        "rope_why": ("Perché conta solo i − j: girare q di p_i·θ e k di p_j·θ cambia il loro prodotto come girare "
                     "solo k di (p_j − p_i)·θ = (j − i)·θ; lo scostamento si cancella, quindi spostare la frase "
                     "non cambia il punteggio."),
        "rope_none": "«{word}» non guarda nessuna parola: non c'è una chiave da mostrare.",
        "rope_legend": "Blu: q; arancione: k; tratteggio: prima della rotazione; pieno: dopo.",
        "rope_key_label": "La chiave da girare accanto a «{word}»",
        "rope_key_most": ", la più guardata",
        "rope_which_chosen": "«{word}» (p = {p}) e la chiave di «{other}» (p = {pk}), scelta da te.",
    },
    "en": {
        "rope_heading": "RoPE: q and k turn",
        "rope_intro": ("RoPE adds nothing to the card: it turns q and k (not v) after the projection. Each pair of "
                       "dimensions {pairs} turns by the angle p·θ, with θ_t = {base}^(−2t/{d}) and p = {offset} + i."),
        "rope_which": ("“{word}” (p = {p}) and the key of “{other}” (p = {pk}), the word “{word}” looks at most under "
                       "RoPE."),
        "rope_pair": "Pair {pair}",
        "rope_svg": ("Pair {pair}: q before ({q0}) and after ({q1}) its turn by {aq} rad; k before ({k0}) and after "
                     "({k1}) its turn by {ak} rad. Dashed: before; solid: after; blue: q; orange: k."),
        "rope_col_pair": "Pair",
        "rope_col_theta": "θ_t",
        "rope_col_aq": "q turned by: p·θ",
        "rope_col_ak": "k turned by: p·θ",
        "rope_col_before": "product before",
        "rope_col_after": "product after",
        "rope_caption": "Each pair: how far q and k turn, and its share of the product q · k",
        "rope_total": "Total q · k",
        "rope_why": ("Why only i − j counts: turning q by p_i·θ and k by p_j·θ changes their product as turning only "
                     "k by (p_j − p_i)·θ = (j − i)·θ would; the offset cancels, so moving the sentence does not "
                     "change the score."),
        "rope_none": "“{word}” looks at no word: there is no key to show.",
        "rope_legend": "Blue: q; orange: k; dashed: before the turn; solid: after.",
        "rope_key_label": "The key to turn beside “{word}”",
        "rope_key_most": ", the most looked at",
        "rope_which_chosen": "“{word}” (p = {p}) and the key of “{other}” (p = {pk}), which you chose.",
    },
}


def arrow(x, y, scale, klass):
    """An arrow from the centre to (x, y) (y up), as a line and a dot at its tip."""
    tx, ty = x * scale, -y * scale
    return (f'<line class="{klass}" x1="0" y1="0" x2="{tx:.2f}" y2="{ty:.2f}"></line>'
            f'<circle class="{klass}" cx="{tx:.2f}" cy="{ty:.2f}" r="2.5"></circle>')


def pair_circle(pair, q0, q1, k0, k1, aq, ak, lang):
    """One pair's four arrows on a circle (an image, with its numbers said in its label)."""
    longest = max(math.hypot(*v) for v in (q0, q1, k0, k1)) or 1.0
    scale = R / longest
    said = text(lang, "rope_svg", pair=pair, q0=vec(q0, lang), q1=vec(q1, lang), k0=vec(k0, lang),
                k1=vec(k1, lang), aq=short(aq, lang), ak=short(ak, lang))
    return (f'<figure class="rope-pair"><svg viewBox="-50 -50 100 100" width="150" height="150" role="img" '
            f'aria-label="{esc(said)}" focusable="false"><circle class="rope-circle" cx="0" cy="0" r="{R}"></circle>'
            + arrow(*q0, scale, "rope-q before") + arrow(*k0, scale, "rope-k before")
            + arrow(*q1, scale, "rope-q") + arrow(*k1, scale, "rope-k")
            + f'</svg><figcaption>{esc(text(lang, "rope_pair", pair=pair))}</figcaption></figure>')


def render_rope(row, tokens, lang, word=None):
    record = row.record
    if not position.lab_on(record):
        return ""
    roped = position.run(record, tokens, "rope")
    turned = roped.row(row.focus)
    where = roped.position
    i, word = row.focus, tokens[row.focus].text
    t = lambda name, **p: esc(text(lang, name, **p))  # noqa: E731
    d = len(turned.query)
    head = (f'<h2>{t("rope_heading")}</h2><p>{t("rope_intro", pairs=position.PAIR_NAMES[where.pairs], base=short(where.base, lang), d=d, offset=where.offset)}</p>')
    if not turned.has_candidates:
        return head + f'<p>{t("rope_none", word=word)}</p><p>{t("rope_why")}</p>'
    candidates = [k for k in range(turned.n) if turned.candidates[k]]
    most = max(candidates, key=lambda k: (turned.weights[k], -k))
    j = record.position.key if record.position.key in candidates else most
    q0, k0, q1, k1 = where.queries[i], where.keys[j], roped.queries[i], roped.keys[j]
    circles, rows = [], []
    before_sum = after_sum = 0.0
    for pair_t, (a, b) in enumerate(attention.rope_pairs(d, where.pairs)):
        name = f"({a},{b})"
        aq, ak = where.angles[i][pair_t], where.angles[j][pair_t]
        circles.append(pair_circle(name, (q0[a], q0[b]), (q1[a], q1[b]), (k0[a], k0[b]), (k1[a], k1[b]), aq, ak, lang))
        before, after = q0[a] * k0[a] + q0[b] * k0[b], q1[a] * k1[a] + q1[b] * k1[b]
        before_sum, after_sum = before_sum + before, after_sum + after
        theta = where.base ** (-2 * pair_t / d)
        rows.append((esc(name), [num(theta, lang), num(aq, lang), num(ak, lang), num(before, lang), num(after, lang)],
                     {"data_pair": pair_t}))
    columns = [Column(k, t("rope_col_" + k)) for k in ("pair", "theta", "aq", "ak", "before", "after")]
    foot = [(t("rope_total"), ["", "", "", num(before_sum, lang), num(after_sum, lang)], {})]
    options = "".join(f'<option value="{k}"{" selected" if k == j else ""}>'
                      f'{esc(tokens[k].text)} (p = {where.offset + k}){t("rope_key_most") if k == most else ""}</option>'
                      for k in candidates)
    choice = (f'<p class="rope-key"><label for="rope-key">{t("rope_key_label", word=word)}</label> '
              f'<select id="rope-key" name="rope_key">{options}</select></p>')
    which = "rope_which" if j == most else "rope_which_chosen"
    return (head + choice + f'<p class="rope-which">{t(which, word=word, p=where.offset + i, other=tokens[j].text, pk=where.offset + j)}</p>'
            f'<div class="rope-pairs">{"".join(circles)}</div><p class="note">{t("rope_legend")}</p>'
            f'<div class="table-wrap" role="region" tabindex="0" aria-label="{t("rope_caption")}">'
            + table(columns, rows, t("rope_caption"), foot, class_="rope-table") + "</div>"
            f'<p class="rope-why">{t("rope_why")}</p>')


VIEW = registry.add(registry.View(
    id="rope", place=17, explorer=False, row=render_rope,
    draw=lambda ctx: registry.section("rope", ctx.part("rope"), "rope-section", view=False), strings=STRINGS,
    settings=("rope_key",)))
