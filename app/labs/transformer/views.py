"""The whole-Transformer lab's views (docs/DESIGN.md, "The whole Transformer").

Model mode, the letter model with whole blocks (`arch` = block), at the selected position (else the
last, where the next letter is predicted): the residual stream after each stage, as numbers and
bars; layer 1's LayerNorm, with one number worked out by hand; each FFN's units that fire most and
the letters they push up (Geva et al. 2021); the logit lens (nostalgebraist 2020). Every number is
the record's (`Record.block_fields`, the state's model.stages, lens, ln, ffn). Sentence mode: the
active head's matrix twice, without the mask (an encoder) and with it (a decoder).
"""

import math

from app import attention_fast, contract
from app.i18n import num, percent, text
from app.model import EPS
from app.views import registry
from app.views.heatmap import CELLS, whole_percent
from app.views.html import esc

SHOWN = 4  # the stream's numbers written out a stage: the first 4 of d_model (all of them in the bars)

STRINGS = {
    "it": {
        "block_need": "Queste viste leggono il modello a blocchi interi: scegli «blocchi interi» qui sopra.",
        "block_arch": "Il modello a blocchi interi",
        "block_intro": ("Un modello di lettere con blocchi interi, addestrato come quello della pagina ma su parole "
                        "italiane: in ogni strato prima LayerNorm e le teste, poi LayerNorm e una FFN di {d_ff} "
                        "unità; un'ultima LayerNorm prima di W_U. Le viste leggono la posizione {i} («{token}»)."),
        "block_stream_heading": "Il flusso residuo",
        "block_stream_text": ("Ogni stadio aggiunge il suo vettore al flusso: x resta lo stesso, cambia solo quello "
                              "che ci si somma. La tabella dà la lunghezza ‖x‖ dopo ogni stadio e quella di ciò che "
                              "lo stadio ha aggiunto."),
        "block_col_stage": "stadio", "block_col_norm": "‖x‖", "block_col_added": "‖aggiunto‖",
        "block_col_first": "i primi {n} numeri", "block_col_bars": "tutti i {d} numeri",
        "block_stage_embed": "embedding", "block_stage_attn": "attention {l}", "block_stage_ffn": "FFN {l}",
        "block_bars_label": "{stage}: {d} barre, in su i positivi",
        "block_at": "Alla posizione {i} («{token}»): scegli un'altra lettera per leggere la sua.",
        "block_ln_heading": "LayerNorm, a mano",
        "block_ln_text": ("Prima delle teste dello strato 1, LayerNorm centra il vettore della posizione (toglie la "
                          "media), lo divide per la sua deviazione standard, poi lo moltiplica per γ e aggiunge β, "
                          "due vettori imparati."),
        "block_ln_numbers": "media {mean}, varianza {var} (senza correzione di Bessel), √(varianza + ε) = {sd}",
        "block_ln_check": ("Il primo numero: ({x} − {mean}) / {sd} = {normed}; poi × γ ({g}) + β ({b}) = {y}."),
        "block_ffn_heading": "La FFN come memoria",
        "block_ffn_text": ("Ogni unità della FFN ha una chiave (la sua colonna di W₁) e un valore (la sua riga di "
                           "W₂): quando la chiave somiglia al vettore della posizione, l'unità si accende e il suo "
                           "valore si somma al flusso. Come l'attention, chiavi che combaciano e valori che si "
                           "sommano, ma senza softmax e con chiavi fisse, imparate."),
        "block_col_layer": "strato", "block_col_unit": "unità", "block_col_activation": "attivazione",
        "block_col_promotes": "spinge in su",
        "block_lens_heading": "La lente sui logit",
        "block_lens_text": ("Si legge il flusso dopo ogni stadio come se fosse l'ultimo: LayerNorm finale e W_U. "
                            "L'ultimo stadio è la previsione del modello."),
        "block_col_top": "le {n} lettere più probabili",
        "encdec_heading": "Encoder e decoder",
        "encdec_text": ("La stessa frase, la stessa testa, due volte. Senza maschera è un encoder, come BERT: ogni "
                        "parola vede tutte le altre. Con la maschera è un decoder, come GPT: una parola vede solo "
                        "quelle prima di sé, perché deve prevedere la seguente."),
        "encdec_both": ("Il Transformer del 2017 e T5 usano tutti e due: l'encoder legge la frase di partenza, il "
                        "decoder scrive la traduzione e guarda l'encoder con la cross-attention."),
        "encdec_encoder": "Encoder (senza maschera)", "encdec_decoder": "Decoder (con la maschera)",
        "encdec_first": "Le tabelle mostrano le prime {n} parole.",
    },
    "en": {
        "block_need": "These views read the model with whole blocks: choose “whole blocks” above.",
        "block_arch": "The model with whole blocks",
        "block_intro": ("A letter model with whole blocks, trained like the page's but on Italian words: in each "
                        "layer first LayerNorm and the heads, then LayerNorm and an FFN of {d_ff} units; a last "
                        "LayerNorm before W_U. The views read position {i} (“{token}”)."),
        "block_stream_heading": "The residual stream",
        "block_stream_text": ("Each stage adds its vector to the stream: x stays the same, only what is added to it "
                              "changes. The table gives the length ‖x‖ after each stage and that of what the stage "
                              "added."),
        "block_col_stage": "stage", "block_col_norm": "‖x‖", "block_col_added": "‖added‖",
        "block_col_first": "the first {n} numbers", "block_col_bars": "all {d} numbers",
        "block_stage_embed": "embedding", "block_stage_attn": "attention {l}", "block_stage_ffn": "FFN {l}",
        "block_bars_label": "{stage}: {d} bars, positive ones up",
        "block_at": "At position {i} (“{token}”): pick another letter to read its own.",
        "block_ln_heading": "LayerNorm, by hand",
        "block_ln_text": ("Before layer 1's heads, LayerNorm centres the position's vector (takes the mean away), "
                          "divides it by its standard deviation, then multiplies it by γ and adds β, two learned "
                          "vectors."),
        "block_ln_numbers": "mean {mean}, variance {var} (no Bessel's correction), √(variance + ε) = {sd}",
        "block_ln_check": "The first number: ({x} − {mean}) / {sd} = {normed}; then × γ ({g}) + β ({b}) = {y}.",
        "block_ffn_heading": "The FFN as memory",
        "block_ffn_text": ("Each FFN unit has a key (its column of W₁) and a value (its row of W₂): when the key "
                           "matches the position's vector the unit fires, and its value is added to the stream. "
                           "Like attention, keys that match and values that get added, but with no softmax and "
                           "with fixed, learned keys."),
        "block_col_layer": "layer", "block_col_unit": "unit", "block_col_activation": "activation",
        "block_col_promotes": "pushes up",
        "block_lens_heading": "The logit lens",
        "block_lens_text": ("The stream after each stage is read as if it were the last: the final LayerNorm and "
                            "W_U. The last stage is the model's prediction."),
        "block_col_top": "the {n} most likely letters",
        "encdec_heading": "Encoder and decoder",
        "encdec_text": ("The same sentence, the same head, twice. Without the mask it is an encoder, like BERT: "
                        "every word sees every other. With the mask it is a decoder, like GPT: a word sees only "
                        "those before it, because it must predict the next."),
        "encdec_both": ("The 2017 Transformer and T5 use both: the encoder reads the source sentence, the decoder "
                        "writes the translation and looks at the encoder through cross-attention."),
        "encdec_encoder": "Encoder (no mask)", "encdec_decoder": "Decoder (with the mask)",
        "encdec_first": "The tables show the first {n} words.",
    },
}
registry.add_strings(STRINGS)
ENCDEC_WORDS = 12  # the two tables' words: past these a phone cannot show them side by side


def stage_name(name, lang):
    if name == "embed":
        return text(lang, "block_stage_embed")
    return text(lang, "block_stage_" + name[:-1], l=name[-1])


def norm(x):
    return math.sqrt(sum(v * v for v in x))


def block_of(ctx):
    """(position, the record's block fields there), or None when the model has no blocks."""
    record = ctx.record
    if record is None or getattr(record, "model", None) is None or record.model.ln_f is None:
        return None
    i = contract.block_position(ctx.settings, record)
    return i, record.block_fields(i)


def at(ctx, i):
    """The line that says which position the view reads."""
    token = ctx.record.tokens[i]
    return (f'<p class="block-at">{esc(text(ctx.lang, "block_at", i=i, token=text(ctx.lang, "model_start") if i == 0 else token))}'
            "</p>")


def needs_block(view_id, heading, ctx):
    return registry.section(view_id, f'<h2>{esc(text(ctx.lang, heading))}</h2>'
                            f'<p class="prompt">{esc(text(ctx.lang, "block_need"))}</p>', "block-section")


def bars(x, label):
    """The d numbers of a vector as small signed bars (SVG), the largest magnitude full height."""
    top = max(abs(v) for v in x) or 1
    w = 192 / len(x)
    parts = ['<line class="zero" x1="0" y1="16" x2="192" y2="16"/>']
    for c, v in enumerate(x):
        h = 15 * abs(v) / top
        parts.append(f'<rect class="{"bar-up" if v >= 0 else "bar-down"}" x="{c * w:.1f}" y="{16 - h if v >= 0 else 16:.1f}" '
                     f'width="{max(w - 1, 1):.1f}" height="{h:.1f}"/>')
    return f'<svg class="stage-bars" viewBox="0 0 192 32" role="img" aria-label="{esc(label)}">{"".join(parts)}</svg>'


def draw_stream(ctx):
    lang = ctx.lang
    t = lambda key, **p: esc(text(lang, key, **p))  # noqa: E731
    found = block_of(ctx)
    if found is None:
        return needs_block("block-stream", "block_stream_heading", ctx)
    i, block = found
    config_d_ff = len(ctx.record.model.layers[0]["b_1"])
    rows, before = [], None
    for stage in block["stages"]:
        x = stage["x"]
        added = "—" if before is None else num(norm([a - b for a, b in zip(x, before)]), lang)
        name = stage_name(stage["name"], lang)
        rows.append(f'<tr data-stage="{stage["name"]}"><th scope="row">{esc(name)}</th><td>{num(norm(x), lang)}</td>'
                    f'<td>{added}</td><td>{esc("; ".join(num(v, lang) for v in x[:SHOWN]))}</td>'
                    f'<td>{bars(x, text(lang, "block_bars_label", stage=name, d=len(x)))}</td></tr>')
        before = x
    head = "".join(f'<th scope="col">{t(key, n=SHOWN, d=len(block["stages"][0]["x"]))}</th>' for key in (
        "block_col_stage", "block_col_norm", "block_col_added", "block_col_first", "block_col_bars"))
    token = ctx.record.tokens[i]
    body = (f'<h2>{t("block_stream_heading")}</h2>'
            f'<p>{t("block_intro", d_ff=config_d_ff, i=i, token=text(lang, "model_start") if i == 0 else token)}</p>'
            f'<p>{t("block_stream_text")}</p>'
            f'<div class="table-wrap" role="region" tabindex="0" aria-label="{t("block_stream_heading")}">'
            f'<table class="steps block-stages"><thead><tr>{head}</tr></thead>'
            f'<tbody>{"".join(rows)}</tbody></table></div>')
    return registry.section("block-stream", body, "block-section")


def draw_ln(ctx):
    lang = ctx.lang
    t = lambda key, **p: esc(text(lang, key, **p))  # noqa: E731
    found = block_of(ctx)
    if found is None:
        return needs_block("block-ln", "block_ln_heading", ctx)
    i, block = found
    ln = block["ln"]
    layer = ctx.record.model.layers[0]
    g, b = layer["ln1_g"][0], layer["ln1_b"][0]
    x0 = block["stages"][0]["x"][0]
    sd = math.sqrt(ln["var"] + EPS)
    operand = lambda x: num(x, lang, "operand")  # noqa: E731 (what the student works from)
    body = (f'<h2>{t("block_ln_heading")}</h2>{at(ctx, i)}<p>{t("block_ln_text")}</p>'
            f'<p class="ln-numbers">{t("block_ln_numbers", mean=operand(ln["mean"]), var=operand(ln["var"]), sd=operand(sd))}</p>'
            f'<p class="ln-check">{t("block_ln_check", x=operand(x0), mean=operand(ln["mean"]), sd=operand(sd), normed=num(ln["normed"][0], lang), g=operand(g), b=operand(b), y=num(ln["normed"][0] * g + b, lang))}</p>')
    return registry.section("block-ln", body, "block-section")


def table_view(view_id, name, ctx, head, rows):
    """A block view of one table: its heading, the position it reads, its words, the table (`head`:
    the header cells' HTML; `rows`: a function of (position, block fields) giving the body's HTML)."""
    lang = ctx.lang
    found = block_of(ctx)
    if found is None:
        return needs_block(view_id, f"block_{name}_heading", ctx)
    i, block = found
    heading = esc(text(lang, f"block_{name}_heading"))
    body = (f'<h2>{heading}</h2>{at(ctx, i)}<p>{esc(text(lang, f"block_{name}_text"))}</p>'
            f'<div class="table-wrap" role="region" tabindex="0" aria-label="{heading}">'
            f'<table class="steps {view_id}" data-narrow><thead><tr>{head(block)}</tr></thead>'
            f'<tbody>{rows(block)}</tbody></table></div>')
    return registry.section(view_id, body, "block-section")


def draw_ffn(ctx):
    lang = ctx.lang
    return table_view(
        "block-ffn", "ffn", ctx,
        lambda block: "".join(f'<th scope="col">{esc(text(lang, key))}</th>' for key in (
            "block_col_layer", "block_col_unit", "block_col_activation", "block_col_promotes")),
        lambda block: "".join(
            f'<tr data-layer="{u["layer"]}" data-unit="{u["unit"]}"><td>{u["layer"] + 1}</td><td>{u["unit"]}</td>'
            f'<td>{num(u["activation"], lang)}</td><td>{esc(" ".join(u["promotes"]))}</td></tr>' for u in block["ffn"]))


def draw_lens(ctx):
    lang = ctx.lang
    return table_view(
        "block-lens", "lens", ctx,
        lambda block: (f'<th scope="col">{esc(text(lang, "block_col_stage"))}</th>'
                       f'<th scope="col">{esc(text(lang, "block_col_top", n=len(block["lens"][0])))}</th>'),
        lambda block: "".join(
            f'<tr data-stage="{s["name"]}"><th scope="row">{esc(stage_name(s["name"], lang))}</th>'
            f'<td>{esc(" · ".join(c + " " + percent(p, lang, "table") for c, p in top))}</td></tr>'
            for s, top in zip(block["stages"], block["lens"])))


def grid(weights, rows, columns, caption, css, masked=False, corner=None):
    """A small table of a head's weights, a row a word that asks (`rows`) and a column a word it looks
    at (`columns`): whole percentages, shaded; · where the mask hides a key (`masked`). The encoder's
    and decoder's (css "encdec-table") and the translation's alignment (css "cross-table", cross.py)."""
    head = "".join(f'<th scope="col">{esc(word)}</th>' for word in columns)
    body = []
    for i, (word, row) in enumerate(zip(rows, weights)):
        cells = "".join('<td class="masked">·</td>' if masked and j > i else CELLS[whole_percent(w)]
                        for j, w in enumerate(row))
        body.append(f'<tr><th scope="row">{esc(word)}</th>{cells}</tr>')
    first = "<td></td>" if corner is None else f'<td class="corner">{esc(corner)}</td>'
    return (f'<div class="heatmap-wrap" role="region" tabindex="0" aria-label="{esc(caption)}">'
            f'<table class="heatmap {css}"><caption>{esc(caption)}</caption><thead><tr>{first}{head}</tr>'
            f'</thead><tbody>{"".join(body)}</tbody></table></div>')


def draw_encdec(ctx):
    lang, record, tokens = ctx.lang, ctx.record, ctx.tokens
    t = lambda key, **p: esc(text(lang, key, **p))  # noqa: E731
    body = f'<h2>{t("encdec_heading")}</h2><p>{t("encdec_text")}</p>'
    if record is not None and tokens:
        n = min(len(tokens), ENCDEC_WORDS)
        q, k, v = ([list(r) for r in m[:n]] for m in (record.queries, record.keys, record.values))
        figures, names = [], [tok.text for tok in tokens[:n]]
        for masked, key in ((False, "encdec_encoder"), (True, "encdec_decoder")):
            shown = attention_fast.attend_qkv(q, k, v, mask=masked, include_self=True, scaled=record.scaled,
                                              temperature=record.temperature)
            figures.append(f'<figure data-masked="{str(masked).lower()}">'
                           f'{grid([list(r) for r in shown.weights], names, names, text(lang, key), "encdec-table", masked)}</figure>')
        body += f'<div class="encdec-maps">{"".join(figures)}</div>'
        if len(tokens) > n:
            body += f'<p class="note">{t("encdec_first", n=n)}</p>'
    body += f'<p>{t("encdec_both")}</p>'
    return registry.section("encdec", body, "encdec-section")


MODEL = ("model",)
registry.add(registry.View(id="block-stream", place=44, modes=MODEL, explorer=False, draw=draw_stream))
registry.add(registry.View(id="block-ln", place=44, modes=MODEL, explorer=False, draw=draw_ln))
registry.add(registry.View(id="block-ffn", place=44, modes=MODEL, explorer=False, draw=draw_ffn))
registry.add(registry.View(id="block-lens", place=44, modes=MODEL, explorer=False, draw=draw_lens))
registry.add(registry.View(id="encdec", place=55, explorer=False, draw=draw_encdec))
