"""The beyond lab's views (docs/DESIGN.md, "Beyond attention: `mixer`"): the mixer's choice with each
mask L beside the others, the state word by word (stepper.py's buttons), forgetting (γ), choosing what
to forget (Δ), and what each keeps in memory; and its drawing of the core's bars, steps table, new card
and live sentence when a mixer other than softmax is on (signed scores, never a percentage)."""

import math

from app import contract
from app.i18n import num, text
from app.numbers import whole
from app.views import registry
from app.views.html import esc
from app.views.query import vec
from app.labs.beyond import KINDS, apply, mixer

HEATMAP_WORDS = 12  # the small heatmaps draw the first words only: past these the cells are too small
KEEPS_SHARE = 0.1  # the Δ sentence: a word the state keeps holds at least this share of the largest factor


STRINGS = {
    "it": {
        "view_mixer": "Miscelatore",
        "mixer_heading": "Una formula, quattro maschere",
        "mixer_legend": "Come ogni parola mescola le precedenti",
        "mixer_softmax": "softmax (l'attention)", "mixer_linear": "lineare", "mixer_retention": "retention",
        "mixer_selective": "selettivo (Mamba-2)",
        "mixer_formula": "Tutte e quattro: y = (L ∘ s) · V sulle q, k, v della testa attiva; cambia solo L, il "
                         "fattore accanto a q_i·k_j.",
        "mixer_causal": "I tre senza softmax sono causali e leggono anche la parola stessa: maschera e «sé» sono "
                        "accese e restano tali.",
        "mixer_L_softmax": "softmax: normalizza la riga con eˣ (qui i pesi)",
        "mixer_L_linear": "lineare: 1, una somma che corre",
        "mixer_L_retention": "retention: γ^(i−j), sbiadisce di γ a parola",
        "mixer_L_selective": "selettivo: Π a_r · Δ_j, sbiadisce con i Δ delle parole",
        "mixer_maps_first": "Le mappe mostrano le prime {n} parole.",
        "mixer_map_label": "{name}: la matrice {n}×{n}, le righe chiedono, le colonne sono guardate; più scuro è "
                           "più grande in valore assoluto",
        "mixer_signed": "Senza softmax i punteggi non sono percentuali e non sommano a 1: barre e tabella mostrano "
                        "punteggi con segno.",
        "mixer_bars_heading": "Punteggi di «{word}» ({kind})",
        "mixer_bars_caption": "Il punteggio s di ogni parola per «{word}»",
        "mixer_score_text": "punteggio {value}",
        "mixer_col_word": "parola", "mixer_col_card": "card", "mixer_col_dot": "q·k", "mixer_col_L": "L",
        "mixer_col_score": "punteggio s",
        "mixer_table_caption": "I passi di «{word}» con il miscelatore {kind}",
        "mixer_table_heading": "I passi, senza softmax",
        "mixer_after": "dopo", "mixer_sum": "Σ s",
        "mixer_output_heading": "La nuova card di «{word}»",
        "mixer_output_line": "y = {vector}",
        "mixer_output_linear": "y = Σ s·v / Σ s: la somma dei punteggi ({total}) divide.",
        "mixer_output_plain": "y = Σ s·v, senza dividere.",
        "mixer_announce": "«{word}», punteggi: {items}",
        "mixer_state_heading": "Lo stato, parola per parola",
        "mixer_state_softmax": "La softmax non ha uno stato fisso: tiene ogni k e v (la cache). Scegli un altro "
                               "miscelatore per vedere lo stato.",
        "mixer_state_at": "Dopo «{word}» (parola {t} di {n})",
        "mixer_back": "Parola precedente", "mixer_next": "Parola seguente", "mixer_play": "Avvia",
        "mixer_pause": "Ferma",
        "mixer_keeps": "Lo stato vecchio resta moltiplicato per {kept}; la parola scrive {what}:",
        "mixer_write_linear": "φ(k)·vᵀ", "mixer_write_retention": "k·vᵀ", "mixer_write_selective": "Δ·k·vᵀ",
        "mixer_written": "Quello che scrive «{word}»", "mixer_state": "Lo stato S dopo «{word}» ({dk}×{dv})",
        "mixer_z": "Il normalizzatore z = {z}",
        "mixer_y_state": "Dallo stato: y = {formula} = {vector}",
        "mixer_y_matrix": "Dalla forma a matrice, riga di «{word}»: {vector}",
        "mixer_y_diff": "Differenza più grande: {diff}. Sono lo stesso numero.",
        "mixer_forget_heading": "Dimenticare: γ",
        "mixer_decay_label": "γ, quanto tiene lo stato a ogni parola",
        "mixer_half_life": "Mezza vita: ln ½ / ln γ = {h} parole.",
        "mixer_half_never": "γ = 1: nessuna parola sbiadisce.",
        "mixer_share_caption": "La quota di ogni parola nello stato a «{word}»: γ^(i−j)",
        "mixer_col_share": "quota", "mixer_col_distance": "parole fa",
        "mixer_forget_pick": "Scegli una parola per vedere le quote.",
        "mixer_delta_heading": "Scegliere cosa dimenticare: Δ",
        "mixer_delta_caption": "Δ di ogni parola, dalla sua card: Δ = softplus(x·w_Δ + b_Δ)",
        "mixer_delta_design": "Il w_Δ progettato ({w}) legge la card: un nome scrive forte e fa dimenticare "
                              "lo stato (a = e^(−A·Δ) piccolo), una parolina scrive appena e lascia lo stato com'è.",
        "mixer_b_label": "b_Δ", "mixer_a_label": "A (> 0)",
        "mixer_delta_keeps": "A «{word}» lo stato tiene soprattutto: {words}.",
        "mixer_col_delta": "Δ", "mixer_col_a": "a = e^(−A·Δ)",
        "mixer_memory_heading": "Quanto tiene in memoria",
        "mixer_memory_caption": "Numeri tenuti per strato e testa",
        "mixer_col_n": "parole", "mixer_col_cache": "cache KV, 2·d·n", "mixer_col_state": "stato, d_k·d_v",
        "mixer_this_sentence": "questa frase ({n})",
        "mixer_models_caption": "Modelli veri, per tutto il modello (configurazioni pubblicate: docs/DESIGN.md)",
        "mixer_col_model": "modello", "mixer_col_1000": "a 1.000 parole", "mixer_col_100000": "a 100.000 parole",
        "mixer_pythia": "Pythia-2.8B (transformer): 32 strati × 2 × 2.560 numeri a parola",
        "mixer_mamba": "Mamba-2.8B: 64 strati × (5.120 × 16 stato + 5.120 × 3 convoluzione), fisso",
        "mixer_mamba_note": "Mamba stesso non divide per una scala e tiene un decadimento per canale, non uno per "
                            "parola come qui.",
        "mixer_rwkv": "RWKV fa la stessa ricorrenza con un decadimento per canale (w, imparato) e un bonus u per la "
                      "parola corrente: si addestra tutto insieme come un transformer e genera come una RNN, a "
                      "costo costante per parola. Questa pagina non lo calcola.",
    },
    "en": {
        "view_mixer": "Mixer",
        "mixer_heading": "One formula, four masks",
        "mixer_legend": "How each word mixes the words before it",
        "mixer_softmax": "softmax (attention)", "mixer_linear": "linear", "mixer_retention": "retention",
        "mixer_selective": "selective (Mamba-2)",
        "mixer_formula": "All four: y = (L ∘ s) · V on the active head's q, k, v; only L changes, the factor beside "
                         "q_i·k_j.",
        "mixer_causal": "The three without a softmax are causal and read the word itself too: the mask and "
                        "\u201cself\u201d are on and stay on.",
        "mixer_L_softmax": "softmax: normalises the row with eˣ (here the weights)",
        "mixer_L_linear": "linear: 1, a running sum",
        "mixer_L_retention": "retention: γ^(i−j), fades by γ a word",
        "mixer_L_selective": "selective: Π a_r · Δ_j, fades by the words' own Δ",
        "mixer_maps_first": "The maps show the first {n} words.",
        "mixer_map_label": "{name}: the {n}×{n} matrix, rows ask, columns are looked at; darker is larger in "
                           "absolute value",
        "mixer_signed": "Without a softmax the scores are not percentages and need not sum to 1: the bars and the "
                        "table show signed scores.",
        "mixer_bars_heading": "Scores of \u201c{word}\u201d ({kind})",
        "mixer_bars_caption": "Each word's score s for \u201c{word}\u201d",
        "mixer_score_text": "score {value}",
        "mixer_col_word": "word", "mixer_col_card": "card", "mixer_col_dot": "q·k", "mixer_col_L": "L",
        "mixer_col_score": "score s",
        "mixer_table_caption": "The steps of \u201c{word}\u201d under the {kind} mixer",
        "mixer_table_heading": "The steps, without a softmax",
        "mixer_after": "after", "mixer_sum": "Σ s",
        "mixer_output_heading": "The new card of \u201c{word}\u201d",
        "mixer_output_line": "y = {vector}",
        "mixer_output_linear": "y = Σ s·v / Σ s: the scores' sum ({total}) divides.",
        "mixer_output_plain": "y = Σ s·v, with no division.",
        "mixer_announce": "\u201c{word}\u201d, scores: {items}",
        "mixer_state_heading": "The state, word by word",
        "mixer_state_softmax": "Softmax has no fixed state: it keeps every k and v (the cache). Choose another mixer "
                               "to see the state.",
        "mixer_state_at": "After \u201c{word}\u201d (word {t} of {n})",
        "mixer_back": "Previous word", "mixer_next": "Next word", "mixer_play": "Play", "mixer_pause": "Stop",
        "mixer_keeps": "The old state stays, times {kept}; the word writes {what}:",
        "mixer_write_linear": "φ(k)·vᵀ", "mixer_write_retention": "k·vᵀ", "mixer_write_selective": "Δ·k·vᵀ",
        "mixer_written": "What \u201c{word}\u201d writes", "mixer_state": "The state S after \u201c{word}\u201d ({dk}×{dv})",
        "mixer_z": "The normaliser z = {z}",
        "mixer_y_state": "From the state: y = {formula} = {vector}",
        "mixer_y_matrix": "From the matrix form, the row of \u201c{word}\u201d: {vector}",
        "mixer_y_diff": "Largest difference: {diff}. They are the same number.",
        "mixer_forget_heading": "Forgetting: γ",
        "mixer_decay_label": "γ, how much the state keeps at each word",
        "mixer_half_life": "Half-life: ln ½ / ln γ = {h} words.",
        "mixer_half_never": "γ = 1: no word fades.",
        "mixer_share_caption": "Each word's share of the state at \u201c{word}\u201d: γ^(i−j)",
        "mixer_col_share": "share", "mixer_col_distance": "words ago",
        "mixer_forget_pick": "Pick a word to see the shares.",
        "mixer_delta_heading": "Choosing what to forget: Δ",
        "mixer_delta_caption": "Each word's Δ, from its card: Δ = softplus(x·w_Δ + b_Δ)",
        "mixer_delta_design": "The designed w_Δ ({w}) reads the card: a noun writes strongly and makes the state "
                              "forget (a = e^(−A·Δ) small), a little word barely writes and leaves the state as it was.",
        "mixer_b_label": "b_Δ", "mixer_a_label": "A (> 0)",
        "mixer_delta_keeps": "At \u201c{word}\u201d the state keeps mostly: {words}.",
        "mixer_col_delta": "Δ", "mixer_col_a": "a = e^(−A·Δ)",
        "mixer_memory_heading": "What each keeps in memory",
        "mixer_memory_caption": "Numbers kept per layer and head",
        "mixer_col_n": "words", "mixer_col_cache": "KV cache, 2·d·n", "mixer_col_state": "state, d_k·d_v",
        "mixer_this_sentence": "this sentence ({n})",
        "mixer_models_caption": "Real models, the whole model (published configurations: docs/DESIGN.md)",
        "mixer_col_model": "model", "mixer_col_1000": "at 1,000 words", "mixer_col_100000": "at 100,000 words",
        "mixer_pythia": "Pythia-2.8B (transformer): 32 layers × 2 × 2,560 numbers a word",
        "mixer_mamba": "Mamba-2.8B: 64 layers × (5,120 × 16 state + 5,120 × 3 convolution), fixed",
        "mixer_mamba_note": "Mamba itself has no divisor and keeps one decay per channel, not one per word as here.",
        "mixer_rwkv": "RWKV runs the same recurrence with one decay per channel (w, learned) and a bonus u for the "
                      "current word: it trains all at once like a transformer and generates like an RNN, at a "
                      "constant cost per word. This page does not compute it.",
    },
}
registry.add_strings(STRINGS)

# Real models' memory (docs/DESIGN.md names the configurations): numbers kept for the whole model.
PYTHIA_PER_WORD = 32 * 2 * 2560  # layers × (k and v) × hidden size
MAMBA_FIXED = 64 * (2 * 2560 * 16 + 2 * 2560 * 3)  # layers × (d_inner·d_state + d_inner·(d_conv − 1))


def mixed(record):
    return apply.mix_in(record)


def _off(ctx):
    return "" if ctx.interactive is True and not ctx.settings.lock else " disabled"


def shade(x, top):
    """A cell's fill for |x| against the largest |x| (a signed score: orange below 0)."""
    share = 0.0 if top == 0 else min(1.0, abs(x) / top)
    hue = "var(--mixer-neg, #c2410c)" if x < 0 else "var(--mixer-pos, #1d4ed8)"
    return f'fill="{hue}" fill-opacity="{0.08 + 0.92 * share:.3f}"'


def heatmap(matrix, label):
    n = len(matrix)
    top = max((abs(x) for row in matrix for x in row), default=0.0)
    cells = "".join(f'<rect x="{j}" y="{i}" width="1" height="1" {shade(matrix[i][j], top)}></rect>'
                    for i in range(n) for j in range(n) if j <= i or matrix[i][j])
    return (f'<svg class="mixer-map" viewBox="0 0 {n} {n}" role="img" aria-label="{esc(label)}" focusable="false">'
            f'<rect class="mixer-map-bg" width="{n}" height="{n}"></rect>{cells}</svg>')


def masks_of(ctx):
    """{kind: its n×n matrix on the first words}: softmax's weights, the others' L."""
    record, tokens, settings = ctx.record, ctx.tokens, ctx.settings
    n = min(len(tokens), HEATMAP_WORDS)
    q, k, v = ([list(r) for r in m[:n]] for m in (record.queries, record.keys, record.values))
    cards = contract.cards_of(settings, tokens)[:n]
    out = {"softmax": [[w if j <= i else 0.0 for j, w in enumerate(row)] for i, row in enumerate(
        __import__("app.attention", fromlist=["attend_qkv"]).attend_qkv(
            q, k, v, mask=True, include_self=True, scaled=record.scaled, temperature=record.temperature).weights)]}
    for kind in KINDS[1:]:
        out[kind] = mixer.mix(kind, q, k, v, record.divisor, cards=cards, decay=settings.decay,
                              w_delta=apply.w_delta(settings), b_delta=settings.b_delta, a=settings.a_decay).mask
    return out


def draw_mixer(ctx):
    settings, lang = ctx.settings, ctx.lang
    t = lambda key, **p: esc(text(lang, key, **p))  # noqa: E731
    off = _off(ctx)
    kinds = "".join(f'<label class="mixer-choice"><input type="radio" id="mixer-{k}" name="mixer" value="{k}"'
                    f'{" checked" if k == settings.mixer else ""}{off}> {t("mixer_" + k)}</label>' for k in KINDS)
    body = (f'<h2>{t("mixer_heading")}</h2><fieldset class="mixer-kinds"><legend>{t("mixer_legend")}</legend>'
            f'{kinds}</fieldset><p class="formula">{t("mixer_formula")}</p><p class="note">{t("mixer_causal")}</p>')
    if ctx.record is not None and ctx.tokens:
        maps = masks_of(ctx)
        n = len(maps["softmax"])
        figures = "".join(
            f'<figure class="mixer-figure{" chosen" if k == settings.mixer else ""}">'
            f'{heatmap(maps[k], text(lang, "mixer_map_label", name=text(lang, "mixer_" + k), n=n))}'
            f'<figcaption>{t("mixer_L_" + k)}</figcaption></figure>' for k in KINDS)
        body += f'<div class="mixer-maps">{figures}</div>'
        if len(ctx.tokens) > n:
            body += f'<p class="note">{t("mixer_maps_first", n=n)}</p>'
    if settings.mixer != "softmax":
        body += f'<p class="note mixer-signed">{t("mixer_signed")}</p>'
    return registry.section("mixer", body, "mixer-section")


def kind_name(record, lang):
    return text(lang, "mixer_" + mixed(record).kind)


def signed(x, lang):
    return num(x, lang)


def score_bar(row, j, tok, lang, top):
    status = row.status(j)
    if status != "candidate":
        return (f'<li class="bar-row {status}" data-index="{j}"><span class="bar-word" aria-hidden="true">'
                f'{esc(tok.text)}</span><span class="bar-value">— {esc(text(lang, "is_masked"))}</span></li>')
    x = row.weights[j]
    width = 0.0 if top == 0 else 50.0 * abs(x) / top
    start = 50.0 if x >= 0 else 50.0 - width
    shown = signed(x, lang)
    return (f'<li class="bar-row candidate{" negative" if x < 0 else ""}" data-index="{j}">'
            f'<span class="bar-word" aria-hidden="true">{esc(tok.text)}</span>'
            f'<svg class="bar mixer-bar" viewBox="0 0 100 10" preserveAspectRatio="none" role="img" '
            f'aria-label="{esc(tok.text)}: {esc(text(lang, "mixer_score_text", value=shown))}" focusable="false">'
            f'<rect class="bar-bg" width="100" height="10"></rect>'
            f'<rect class="bar-fill" x="{start:.2f}" width="{width:.2f}" height="10"></rect>'
            f'<line class="mixer-zero" x1="50" y1="0" x2="50" y2="10"></line></svg>'
            f'<span class="bar-value" aria-hidden="true">{shown}</span></li>')


def draw_bars(row, tokens, lang, word=None):
    """The selected word's signed scores: a bar each, from the middle (0) out, never a percentage."""
    word = tokens[row.focus].text
    top = max((abs(row.weights[j]) for j in range(row.n) if row.candidates[j]), default=0.0)
    items = "".join(score_bar(row, j, tok, lang, top) for j, tok in enumerate(tokens))
    return (f'<h2>{esc(text(lang, "mixer_bars_heading", word=word, kind=kind_name(row.record, lang)))}</h2>'
            f'<ul class="bars mixer-bars" data-plain aria-label="{esc(text(lang, "mixer_bars_caption", word=word))}">{items}</ul>'
            f'<p class="note mixer-signed">{esc(text(lang, "mixer_signed"))}</p>')


def draw_table(row, tokens, lang, word=None):
    """The steps table under a mixer: card, q·k, L, the score s = L·q·k (÷ scale; linear's φ(q)·φ(k))."""
    mix = mixed(row.record)
    word = tokens[row.focus].text
    t = lambda key, **p: esc(text(lang, key, **p))  # noqa: E731
    heads = "".join(f'<th scope="col">{t("mixer_col_" + c)}</th>' for c in ("word", "card", "dot", "L", "score"))
    body = []
    for j, tok in enumerate(tokens):
        if row.candidates[j]:
            cells = [vec(tok.card, lang), num(row.dots[j], lang), num(mix.mask[row.focus][j], lang),
                     signed(row.weights[j], lang)]
        else:
            cells = [vec(tok.card, lang), "—", "0", "0"]
        body.append(f'<tr data-index="{j}" class="{row.status(j)}"><th scope="row">{esc(tok.text)}</th>'
                    + "".join(f"<td>{esc(c)}</td>" for c in cells) + "</tr>")
    total = sum(row.weights[j] for j in range(row.n) if row.candidates[j])
    foot = (f'<tfoot><tr><th scope="row">{t("mixer_sum")}</th><td></td><td></td><td></td>'
            f'<td>{esc(signed(total, lang))}</td></tr></tfoot>')
    return (f'<h2>{t("mixer_table_heading")}</h2><p class="formula">{t("mixer_L_" + mix.kind)}</p>'
            f'<div class="table-wrap" role="region" tabindex="0" aria-label="{t("mixer_table_heading")}">'
            f'<table class="steps mixer-steps"><caption>{t("mixer_table_caption", word=word, kind=kind_name(row.record, lang))}'
            f'</caption><thead><tr>{heads}</tr></thead><tbody>{"".join(body)}</tbody>{foot}</table></div>'
            f'<p class="note mixer-signed">{t("mixer_signed")}</p>')


def draw_output(row, tokens, lang, word=None):
    mix = mixed(row.record)
    word = tokens[row.focus].text
    t = lambda key, **p: esc(text(lang, key, **p))  # noqa: E731
    total = sum(row.weights[j] for j in range(row.n) if row.candidates[j])
    how = t("mixer_output_linear", total=num(total, lang)) if mix.kind == "linear" else t("mixer_output_plain")
    return (f'<h2>{t("mixer_output_heading", word=word)}</h2><p class="vector">'
            f'{t("mixer_output_line", vector=vec(row.output, lang))}</p><p class="note">{how}</p>')


def announce(row, tokens, lang, word=None):
    idx = sorted((j for j in range(row.n) if row.candidates[j]), key=lambda j: (-abs(row.weights[j]), j))[:5]
    items = ", ".join(f"{tokens[j].text} {signed(row.weights[j], lang)}" for j in idx)
    return text(lang, "mixer_announce", word=tokens[row.focus].text, items=items)


def under_mixer(row):
    return mixed(row.record) is not None


for _view, _draw in (("bars", draw_bars), ("table", draw_table), ("output", draw_output), ("announce", announce),
                     ("percent", signed)):
    registry.add_row_draw(_view, under_mixer, _draw)


def reached(settings, mix):
    """The word the stepper shows (0-based): `mixer_step` words read, else the selected word, else the last."""
    if settings.mixer_step is not None:
        return max(0, min(mix.n, settings.mixer_step) - 1)
    return settings.focus if settings.focus is not None and settings.focus < mix.n else mix.n - 1


def matrix_table(m, lang, caption):
    rows = "".join("<tr>" + "".join(f"<td>{esc(num(x, lang))}</td>" for x in r) + "</tr>" for r in m)
    return f'<table class="mixer-matrix"><caption>{esc(caption)}</caption><tbody>{rows}</tbody></table>'


def draw_state(ctx):
    settings, lang, tokens = ctx.settings, ctx.lang, ctx.tokens
    t = lambda key, **p: esc(text(lang, key, **p))  # noqa: E731
    mix = mixed(ctx.record)
    body = f'<h2>{t("mixer_state_heading")}</h2>'
    if mix is None or not tokens:
        return registry.section("mixer-state", body + f'<p class="note">{t("mixer_state_softmax")}</p>',
                                "mixer-state-section")
    i = reached(settings, mix)
    word = tokens[i].text
    off = _off(ctx)
    playing = " disabled" if off else ""
    buttons = (f'<div class="mixer-buttons"><button type="button" id="mixer-back"{off}>{t("mixer_back")}</button>'
               f'<button type="button" id="mixer-next"{off}>{t("mixer_next")}</button>'
               f'<button type="button" id="mixer-play" aria-pressed="false"{playing}>{t("mixer_play")}</button></div>')
    q = mix_query(ctx.record, mix, i)
    if mix.kind == "linear":
        formula = "φ(q)ᵀS / φ(q)ᵀz"
    else:
        formula = f"qᵀS / {num(mix.scale, lang)}"
    diff = max(abs(a - b) for a, b in zip(mix.recurrent[i], mix.outputs[i]))
    body += (buttons + f'<p class="mixer-at" aria-live="polite">{t("mixer_state_at", word=word, t=i + 1, n=mix.n)}</p>'
             f'<p>{t("mixer_keeps", kept=num(mix.kept(i), lang), what=text(lang, "mixer_write_" + mix.kind))}</p>'
             '<div class="mixer-matrices">'
             + matrix_table(mix.written[i], lang, text(lang, "mixer_written", word=word))
             + matrix_table(mix.states[i], lang, text(lang, "mixer_state", word=word, dk=mix.d_k, dv=mix.d_v))
             + "</div>"
             + (f'<p>{t("mixer_z", z=vec(mix.normalisers[i], lang))}</p>' if mix.kind == "linear" else "")
             + f'<p class="vector">{t("mixer_y_state", formula=formula, vector=vec(mix.recurrent[i], lang))}</p>'
             f'<p class="vector">{t("mixer_y_matrix", word=word, vector=vec(mix.outputs[i], lang))}</p>'
             f'<p class="mixer-diff">{t("mixer_y_diff", diff=num(diff, lang))}</p>')
    del q
    return registry.section("mixer-state", body, "mixer-state-section")


def mix_query(record, mix, i):
    return record.queries[i]


def draw_forget(ctx):
    settings, lang, tokens = ctx.settings, ctx.lang, ctx.tokens
    t = lambda key, **p: esc(text(lang, key, **p))  # noqa: E731
    off = _off(ctx)
    gamma = settings.decay
    life = mixer.half_life(gamma)
    said = num(gamma, lang)
    body = (f'<h2>{t("mixer_forget_heading")}</h2><div class="slider"><label for="decay">{t("mixer_decay_label")} '
            f'<span id="decay-value" aria-hidden="true">{said}</span></label>'
            f'<input type="range" id="decay" name="decay" min="0.05" max="1" step="0.05" value="{gamma:g}" '
            f'aria-valuetext="{said}"{off}></div>'
            f'<p class="mixer-life">{t("mixer_half_life", h=num(life, lang)) if life is not None else t("mixer_half_never")}</p>')
    focus = settings.focus
    if focus is None or not tokens or focus >= len(tokens):
        body += f'<p class="note">{t("mixer_forget_pick")}</p>'
    else:
        rows = "".join(f'<tr><th scope="row">{esc(tokens[j].text)}</th><td>{focus - j}</td>'
                       f'<td>{esc(num(gamma ** (focus - j), lang))}</td></tr>' for j in range(focus, -1, -1))
        body += (f'<table class="mixer-shares"><caption>{t("mixer_share_caption", word=tokens[focus].text)}</caption>'
                 f'<thead><tr><th scope="col">{t("mixer_col_word")}</th><th scope="col">{t("mixer_col_distance")}</th>'
                 f'<th scope="col">{t("mixer_col_share")}</th></tr></thead><tbody>{rows}</tbody></table>')
    return registry.section("mixer-forget", body, "mixer-forget-section")


def keeps(settings, tokens, delta, keep, i):
    """The words whose factor L_ij = Π a_r · Δ_j at word i is at least KEEPS_SHARE of the row's largest."""
    factors = []
    for j in range(i, -1, -1):
        factors.append((j, math.prod(keep[j + 1: i + 1]) * delta[j]))
    top = max(f for _, f in factors)
    return [tokens[j].text for j, f in sorted(factors) if top > 0 and f >= KEEPS_SHARE * top]


def draw_delta(ctx):
    settings, lang, tokens = ctx.settings, ctx.lang, ctx.tokens
    t = lambda key, **p: esc(text(lang, key, **p))  # noqa: E731
    off = _off(ctx)
    w = apply.w_delta(settings)
    body = (f'<h2>{t("mixer_delta_heading")}</h2><p>{t("mixer_delta_design", w=vec(w, lang))}</p>'
            '<div class="mixer-numbers">'
            f'<label for="b_delta">{t("mixer_b_label")}</label><input type="number" id="b_delta" name="b_delta" '
            f'min="-10" max="10" step="0.1" value="{settings.b_delta:g}"{off}>'
            f'<label for="a">{t("mixer_a_label")}</label><input type="number" id="a" name="a" min="0.01" max="10" '
            f'step="0.1" value="{settings.a_decay:g}"{off}></div>')
    if tokens:
        cards = contract.cards_of(settings, tokens)
        delta = mixer.deltas(cards, w, settings.b_delta)
        keep = [math.exp(-settings.a_decay * d) for d in delta]
        top = max(delta) or 1.0
        items = "".join(
            f'<li class="bar-row candidate"><span class="bar-word" aria-hidden="true">{esc(tok.text)}</span>'
            f'<svg class="bar" viewBox="0 0 100 10" preserveAspectRatio="none" role="img" '
            f'aria-label="{esc(tok.text)}: Δ {esc(num(d, lang))}, a {esc(num(a, lang))}" focusable="false">'
            f'<rect class="bar-bg" width="100" height="10"></rect><rect class="bar-fill" width="{100 * d / top:.2f}" '
            f'height="10"></rect></svg><span class="bar-value" aria-hidden="true">Δ {num(d, lang)} · a {num(a, lang)}'
            f'</span></li>' for tok, d, a in zip(tokens, delta, keep))
        body += f'<ul class="bars mixer-deltas" data-plain aria-label="{t("mixer_delta_caption")}">{items}</ul>'
        i = settings.focus if settings.focus is not None and settings.focus < len(tokens) else len(tokens) - 1
        body += (f'<p class="mixer-keeps">'
                 f'{t("mixer_delta_keeps", word=tokens[i].text, words=", ".join(keeps(settings, tokens, delta, keep, i)))}</p>')
    return registry.section("mixer-delta", body, "mixer-delta-section")


def draw_memory(ctx):
    lang, tokens = ctx.lang, ctx.tokens or []
    t = lambda key, **p: esc(text(lang, key, **p))  # noqa: E731
    d_k = d_v = len(ctx.record.keys[0]) if ctx.record is not None and ctx.record.keys else 4
    kind = ctx.settings.mixer
    state = d_k * d_v + (d_k if kind == "linear" else 0)
    rows = "".join(
        f'<tr><th scope="row">{label}</th><td>{whole((d_k + d_v) * n, lang)}</td><td>{whole(state, lang)}</td></tr>'
        for label, n in ((t("mixer_this_sentence", n=len(tokens)), len(tokens)), (whole(1000, lang), 1000),
                         (whole(100_000, lang), 100_000)))
    models = "".join(
        f'<tr><th scope="row">{t(key)}</th><td>{whole(at(1000), lang)}</td><td>{whole(at(100_000), lang)}</td></tr>'
        for key, at in (("mixer_pythia", lambda n: PYTHIA_PER_WORD * n), ("mixer_mamba", lambda n: MAMBA_FIXED)))
    body = (f'<h2>{t("mixer_memory_heading")}</h2>'
            f'<table class="mixer-memory"><caption>{t("mixer_memory_caption")}</caption><thead><tr>'
            f'<th scope="col">{t("mixer_col_n")}</th><th scope="col">{t("mixer_col_cache")}</th>'
            f'<th scope="col">{t("mixer_col_state")}</th></tr></thead><tbody>{rows}</tbody></table>'
            f'<div class="table-wrap" role="region" tabindex="0" aria-label="{t("mixer_models_caption")}">'
            f'<table class="mixer-models"><caption>{t("mixer_models_caption")}</caption><thead><tr>'
            f'<th scope="col">{t("mixer_col_model")}</th><th scope="col">{t("mixer_col_1000")}</th>'
            f'<th scope="col">{t("mixer_col_100000")}</th></tr></thead><tbody>{models}</tbody></table></div>'
            f'<p class="note">{t("mixer_mamba_note")}</p><p class="mixer-rwkv">{t("mixer_rwkv")}</p>')
    return registry.section("mixer-memory", body, "mixer-memory-section")


registry.add(registry.View(id="mixer", place=16, explorer=False, settings=("mixer",), draw=draw_mixer))
def light_state(settings, attr, value):
    """The stepper moved (`mixer_step`): the record stays, the state's view alone is drawn again."""
    return attr == "mixer_step" and value is not None and settings.mixer != "softmax"


registry.add(registry.View(id="mixer-state", place=17, explorer=False, settings=("mixer_step",), draw=draw_state,
                           light=light_state))
registry.add(registry.View(id="mixer-forget", place=18, explorer=False, settings=("decay",), draw=draw_forget))
registry.add(registry.View(id="mixer-delta", place=19, explorer=False, settings=("b_delta", "a_decay"),
                           draw=draw_delta))
registry.add(registry.View(id="mixer-memory", place=61, explorer=False, draw=draw_memory))
