"""The position lab's ALiBi view: the bias −m·|i − j| every logit gets for the active head, with
the paper's slopes for the page's four heads, and what it means."""

from app import attention, heads
from app.i18n import num, short, text
from app.labs.position import controls as position
from app.views import registry
from app.views.html import Column, esc, table

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
    },
}

FRACTIONS = {0.25: "1/4", 1 / 16: "1/16", 1 / 64: "1/64", 1 / 256: "1/256"}


def render_alibi(ctx):
    tokens, record, lang = ctx.tokens, ctx.record, ctx.lang
    if not tokens or record is None or record.position is None:
        return registry.section("alibi", "", "alibi-section", view=False)
    h = position.active_head(record)
    m = position.slope_for(record, "alibi")
    t = lambda key, **p: esc(text(lang, key, **p))  # noqa: E731
    slopes = ", ".join(f'{text(lang, "head_name_" + heads.HEADS[k].id)} {FRACTIONS.get(s, short(s, lang, "full"))}'
                       for k, s in enumerate(attention.alibi_slopes(len(heads.HEADS))))
    shown = tokens[:SHOWN]
    columns = [Column("word", t("col_word"))] + [Column(f"k{j}", esc(tok.text)) for j, tok in enumerate(shown)]
    rows = [(esc(tok.text), [num(-m * abs(i - j), lang) for j in range(len(shown))], {"data_index": i})
            for i, tok in enumerate(shown)]
    more = f'<p class="note">{t("alibi_more", shown=SHOWN, n=len(tokens))}</p>' if len(tokens) > SHOWN else ""
    inner = (f'<h2>{t("alibi_heading")}</h2><p>{t("alibi_intro")}</p><p>{t("alibi_slopes", slopes=slopes)}</p>'
             f'<p class="alibi-head">{t("alibi_head", head=text(lang, "head_name_" + heads.HEADS[h].id), m=FRACTIONS.get(m, short(m, lang, "full")), hand=text(lang, "alibi_hand") if record.position.hand > 0 else "", far=short(1 / m, lang) if m else "∞")}</p>'
             f'<div class="table-wrap" role="region" tabindex="0" aria-label="{t("alibi_caption")}">'
             + table(columns, rows, t("alibi_caption"), class_="alibi-table") + "</div>" + more)
    return registry.section("alibi", inner, "alibi-section", view=False)


VIEW = registry.add(registry.View(id="alibi", place=18, explorer=False, draw=render_alibi, strings=STRINGS))
