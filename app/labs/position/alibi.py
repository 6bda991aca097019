"""The position lab's ALiBi view: the bias −m·|i − j| every logit gets for the active head, with
the paper's slopes for the page's four heads, and what it means; and, as its row part, the selected
word's weights under every slope with the same head, so that only m changes (a change of head also
changes W_Q, the question itself)."""

from app import attention, heads
from app.i18n import num, percent, short, text
from app.labs.position import controls as position
from app.labs.position import experiments
from app.views import registry
from app.views.html import Cell, Column, esc, table

SHOWN = 12  # the bias matrix's first words (it goes on alike: −m per word of distance)

STRINGS = {
    "it": {
        "alibi_heading": "ALiBi: una penalità per la distanza",
        "alibi_intro": ("ALiBi non tocca le carte né q e k: a ogni punteggio toglie m·|i − j|. Una parola lontana è "
                        "penalizzata in proporzione alla distanza, e ogni testa ha la sua pendenza m, quindi guarda a "
                        "una distanza diversa."),
        "alibi_slopes": "Le pendenze dell'articolo per quattro teste, 2^(−8h/4): {slopes}.",
        "alibi_head": ("Testa attiva «{head}»: m = {m}{hand}. Una parola a {far} posti di distanza perde 1 dal suo "
                       "logit: il suo e^logit si divide per e ≈ 2,718."),
        "alibi_hand": " (scelta a mano con la pendenza della distanza)",
        "alibi_caption": "La penalità −m·|i − j| sommata a ogni logit (riga: chi guarda; colonna: chi è guardato)",
        "alibi_more": "Le prime {shown} parole di {n}.",
        "alibi_slopes_heading": "Stessa testa, un'altra pendenza",
        "alibi_slopes_intro": ("Qui la testa resta «{head}», con la sua W_Q: la domanda q di «{word}» è la stessa in "
                               "ogni colonna, e cambia solo m (m = 0: senza ALiBi). Cambiare testa cambierebbe anche "
                               "la domanda."),
        "alibi_slopes_caption": "Dove guarda «{word}» con la testa «{head}», per ogni pendenza m",
        "alibi_col_far": "|i − j|",
        "alibi_col_here": "In evidenza la colonna di m = {m}, la pendenza che la pagina usa ora.",
    },
    "en": {
        "alibi_heading": "ALiBi: a penalty for distance",
        "alibi_intro": ("ALiBi touches neither the cards nor q and k: it takes m·|i − j| off every score. A far word is "
                        "penalised in proportion to its distance, and each head has its own slope m, so each looks at "
                        "a different distance."),
        "alibi_slopes": "The paper's slopes for four heads, 2^(−8h/4): {slopes}.",
        "alibi_head": ("Active head “{head}”: m = {m}{hand}. A word {far} places away loses 1 from its logit: its "
                       "e^logit is divided by e ≈ 2.718."),
        "alibi_hand": " (set by hand with the distance slope)",
        "alibi_caption": "The penalty −m·|i − j| added to each logit (row: who looks; column: who is looked at)",
        "alibi_more": "The first {shown} words of {n}.",
        "alibi_slopes_heading": "The same head, another slope",
        "alibi_slopes_intro": ("Here the head stays “{head}”, with its W_Q: the question q of “{word}” is the same in "
                               "every column, and only m changes (m = 0: no ALiBi). Changing the head would change the "
                               "question too."),
        "alibi_slopes_caption": "Where “{word}” looks with the head “{head}”, for each slope m",
        "alibi_col_far": "|i − j|",
        "alibi_col_here": "Marked: the column of m = {m}, the slope the page uses now.",
    },
}

FRACTIONS = {0.25: "1/4", 1 / 16: "1/16", 1 / 64: "1/64", 1 / 256: "1/256"}


def fraction(m, lang):
    return FRACTIONS.get(m, short(m, lang, "full"))


def slopes_of(record):
    """The slopes the row part compares: none, the paper's four, and the page's own when set by hand."""
    page = position.slope_for(record, "alibi")
    return sorted({0.0, *attention.alibi_slopes(len(heads.HEADS)), page})


def render_slopes(row, tokens, lang, word=None):
    """The selected word's weights with the active head under each slope (its W_Q fixed), the
    column of the slope the page applies marked: a far word's weight falls as m grows."""
    record = row.record
    if not position.lab_on(record):
        return ""
    if not row.has_candidates:
        return f'<p>{esc(text(lang, "pick_word"))}</p>'
    i, cards = row.focus, [t.card for t in tokens]
    slopes = slopes_of(record)
    runs = [position.kept(record, ("slope", m), lambda m=m: experiments.attend_like(record, cards, "alibi", slope=m)).row(i)
            for m in slopes]
    here = position.slope_for(record, "alibi") if record.position.kind == "alibi" else None
    head = text(lang, "head_name_" + heads.HEADS[position.active_head(record)].id)
    t = lambda key, **p: esc(text(lang, key, **p))  # noqa: E731

    def header(m):
        return "m = 0" if m == 0 else esc(fraction(m, lang))

    columns = ([Column("word", t("col_word")), Column("far", t("alibi_col_far"))]
               + [Column(f"m{k}", header(m)) for k, m in enumerate(slopes)])
    rows = [(esc(tokens[j].text), [str(abs(i - j))] + [Cell(esc(percent(r.weights[j], lang)),
                                                            class_="conv-here" if m == here else None)
                                                       for m, r in zip(slopes, runs)], {"data_index": j})
            for j in range(row.n) if row.candidates[j]]
    caption = t("alibi_slopes_caption", word=tokens[i].text, head=head)
    marked = "" if here is None else " " + t("alibi_col_here", m=fraction(here, lang))
    return (f'<h3>{t("alibi_slopes_heading")}</h3><p>{t("alibi_slopes_intro", head=head, word=tokens[i].text)}{marked}</p>'
            f'<div class="table-wrap" role="region" tabindex="0" aria-label="{caption}">'
            + table(columns, rows, caption, class_="slopes-table") + "</div>")


def render_alibi(ctx):
    tokens, record, lang = ctx.tokens, ctx.record, ctx.lang
    if not tokens or record is None or record.position is None:
        return registry.section("alibi", "", "alibi-section", view=False)
    h = position.active_head(record)
    m = position.slope_for(record, "alibi")
    t = lambda key, **p: esc(text(lang, key, **p))  # noqa: E731
    slopes = ", ".join(f'{text(lang, "head_name_" + heads.HEADS[k].id)} {fraction(s, lang)}'
                       for k, s in enumerate(attention.alibi_slopes(len(heads.HEADS))))
    shown = tokens[:SHOWN]
    columns = [Column("word", t("col_word"))] + [Column(f"k{j}", esc(tok.text)) for j, tok in enumerate(shown)]
    rows = [(esc(tok.text), [num(-m * abs(i - j), lang) for j in range(len(shown))], {"data_index": i})
            for i, tok in enumerate(shown)]
    more = f'<p class="note">{t("alibi_more", shown=SHOWN, n=len(tokens))}</p>' if len(tokens) > SHOWN else ""
    said = t("alibi_head", head=text(lang, "head_name_" + heads.HEADS[h].id), m=fraction(m, lang),
             hand=text(lang, "alibi_hand") if record.position.hand > 0 else "", far=short(1 / m, lang) if m else "∞")
    inner = (f'<h2>{t("alibi_heading")}</h2><p>{t("alibi_intro")}</p><p>{t("alibi_slopes", slopes=slopes)}</p>'
             f'<p class="alibi-head">{said}</p>'
             f'<div id="alibi-row">{ctx.part("alibi") or esc(text(lang, "pick_word"))}</div>'
             f'<div class="table-wrap" role="region" tabindex="0" aria-label="{t("alibi_caption")}">'
             + table(columns, rows, t("alibi_caption"), class_="alibi-table") + "</div>" + more)
    return registry.section("alibi", inner, "alibi-section", view=False)


VIEW = registry.add(registry.View(id="alibi", place=18, explorer=False, draw=render_alibi, row=render_slopes,
                                  part="alibi-row", strings=STRINGS))
