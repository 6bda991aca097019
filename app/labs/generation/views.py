"""The generation lab's views (docs/DESIGN.md, "Generation"; app/generate.py): the model writes.

`generation`: the Write control (a step button: one more letter; play: one letter after another,
and, under prefers-reduced-motion, one letter a press, no animation), the letters written, and
for the newest letter its q, k, v for each layer and head, the cache with one row of K and V a
position (the new row marked), its attention row over the cache, its prediction with the top 3,
and the same prediction under the full pass beside the cache's. `generation-cost`: the counters
that grow with each letter. `cache-sizes`: the cache of real models at 1,000 and 100,000 tokens,
from their published shapes (docs/generation.md names the sources).
"""

from app import generate, model
from app.heads import cache_per_token
from app.i18n import num, percent, text
from app.numbers import exact, whole
from app.views import registry
from app.views.html import esc
from app.views.model import head_caption, quote, token_name
from app.views.query import vec
from app.labs.generation.shared_keys import kv_radios

MODEL = ("model",)
STRINGS = {
    "it": {
        "gen_heading": "Il modello scrive",
        "gen_intro": ("Ogni lettera nuova è la più probabile dopo le precedenti. Per scriverla il modello legge "
                      "una sola posizione: calcola q, k e v di quella lettera in ogni strato e testa, aggiunge k e v "
                      "alla cache (la memoria delle chiavi e dei valori già calcolati) e guarda la cache."),
        "gen_step": "Scrivi una lettera",
        "gen_play": "Scrivi fino a 40",
        "gen_pause": "Ferma",
        "gen_clear": "Cancella le lettere scritte",
        "gen_play_note": ("«Scrivi fino a 40» aggiunge una lettera ogni secondo; se il sistema chiede di ridurre "
                          "le animazioni, ogni pressione aggiunge una lettera sola."),
        "gen_none": "Il modello non ha ancora scritto niente: premi «Scrivi una lettera».",
        "gen_written": "Scritte dal modello ({count}): {letters}",
        "gen_cut": "Il modello legge al massimo {n} posizioni: {count} lettere non sono state scritte.",
        "gen_new": "La lettera nuova: {letter}, posizione {i}",
        "gen_why": ("Perché {letter}: la testa di induzione ({head}) da {prev} (posizione {i}) guarda la lettera "
                    "che seguiva la sua comparsa precedente, {after} (posizione {k}), con peso {weight}."),
        "gen_why_none": "{letter} non viene da una ripetizione: {prev} non era comparsa prima.",
        "gen_why_other": ("{letter} non è la copia: la testa di induzione ({head}) da {prev} (posizione {i}) "
                          "guarda {after} (posizione {k}) con peso {weight}, ma la lettera più probabile è {letter}."),
        "gen_why_window": ("{letter} non è una copia: dopo la comparsa precedente di {prev} veniva la posizione {k}, "
                           "ma con la finestra w = {w} la posizione {i} guarda solo le {w} prima di sé."),
        "gen_qkv_heading": "q, k e v della lettera nuova",
        "gen_col_head": "Strato e testa",
        "gen_col_vector": "Vettore",
        "gen_col_numbers": "I suoi {d} numeri",
        "gen_cache_heading": "La cache: una riga di K e una di V per posizione",
        "gen_cache_help": ("Ogni tabella ha una riga per posizione letta; l'ultima, evidenziata, è quella appena "
                           "aggiunta. Le righe di prima non cambiano: per questo non si ricalcolano."),
        "gen_cache_k": "K",
        "gen_cache_v": "V",
        "gen_cache_shared": "Strato {layer}, testa chiave/valore {g} (la usano le teste {heads})",
        "gen_kv_legend": "Teste chiave/valore del modello",
        "gen_kv_4": "4: ogni testa le sue (il modello della pagina)",
        "gen_kv_2": "2: grouped-query, addestrato allo stesso modo",
        "gen_kv_1": "1: multi-query, addestrato allo stesso modo",
        "gen_kv_help": ("Le varianti sono state addestrate con lo stesso seme e gli stessi dati, con meno teste "
                        "chiave/valore: la cache per token è {n} numeri per strato invece di {full}."),
        "gen_kv_own": "Ogni testa ha le sue chiavi e i suoi valori: la cache per token è {n} numeri per strato.",
        "gen_kv_formed": ("In questa variante la testa di induzione (strato {layer}, testa {head}) si è formata: "
                          "peso {weight} sulla lettera da copiare, previsioni giuste {accuracy} (dopo l'addestramento)."),
        "gen_kv_not_formed": ("In questa variante la testa di induzione non si è formata del tutto: peso {weight} "
                              "sulla lettera da copiare, previsioni giuste {accuracy} (dopo l'addestramento)."),
        "gen_col_position": "Posizione",
        "gen_row_new": "nuova",
        "gen_attention_heading": "Dove guarda la lettera nuova",
        "gen_attention_help": "La riga di attenzione della posizione nuova su tutta la cache, per ogni strato e testa.",
        "gen_prediction_heading": "Che cosa prevede dopo",
        "gen_same_heading": "Cache e passaggio completo danno gli stessi numeri",
        "gen_same": ("La previsione dopo l'ultima lettera, calcolata con la cache e ricalcolando tutto da capo. "
                     "Differenza più grande fra le probabilità: {diff}."),
        "gen_col_cached": "Con la cache",
        "gen_compare_heading": "Con la cache e con il passaggio completo",
        "gen_col_full": "Passaggio completo",
        "gen_announce": "Il modello scrive {letter} ({p}). Lettere scritte: {count}.",
        "gen_announce_none": "Nessuna lettera scritta.",
        # the counters
        "gen_cost_heading": "Quanto costa la cache, quanto fa risparmiare",
        "gen_cost_help": ("Con {T} posizioni lette: {L} strati, {H} teste, d_head = {d}. Le moltiplicazioni-addizioni "
                          "contate sono quelle dell'attenzione (q·k e la somma dei v pesati), non le proiezioni."),
        "gen_cost_numbers": "Cache in numeri: 2 · {L} · {H} · {d} · {T}",
        "gen_cost_f16": "Cache in byte (float16, 2 byte a numero)",
        "gen_cost_f32": "Cache in byte (float32, 4 byte a numero)",
        "gen_cost_cached": "Moltiplicazioni-addizioni dell'attenzione, con la cache",
        "gen_cost_recomputed": "Le stesse ricalcolando tutto il prefisso a ogni lettera",
        "gen_cost_ratio": "Senza cache costa {ratio} volte tanto.",
        "gen_cost_window": "Con la finestra w = {w} ogni posizione guarda al massimo {keys} posizioni della cache.",
        "gen_col_quantity": "Quantità",
        "gen_col_value": "Valore",
        # real models
        "gen_real_heading": "La cache dei modelli veri",
        "gen_real_help": "Numeri per token = strati · (numeri salvati per token e strato); byte in float16.",
        "gen_real_sources": "Fonti (si aprono in una nuova scheda):",
        "gen_col_model": "Modello",
        "gen_col_per_token": "Numeri per token",
        "gen_col_at": "{n} token",
        "gen_real_gpt2": "GPT-2 small: 12 strati, 12 teste, d_head 64 (2 · 12 · 64 per strato)",
        "gen_real_llama_mha": "LLaMA 2 70B se ogni testa avesse le sue chiavi: 80 strati, 64 teste, d_head 128",
        "gen_real_llama": "LLaMA 2 70B, grouped-query: 80 strati, 8 teste chiave/valore, d_head 128",
        "gen_real_deepseek": "DeepSeek-V2, attenzione latente: 60 strati, latente di 512 + chiave RoPE di 64",
        "gen_real_ours": "Il modello della pagina: {L} strati, {H} teste, d_head {d}",
        "gen_real_ours_kv": "La variante del modello della pagina: {L} strati, {H} teste, {G} chiave/valore, d_head {d}",
        "gen_real_note": "GPT-2 legge al massimo 1.024 token: a 100.000 è un conto, non un uso possibile.",
    },
    "en": {
        "gen_heading": "The model writes",
        "gen_intro": ("Each new letter is the most likely one after those before it. To write it the model reads "
                      "a single position: it computes that letter's q, k and v in every layer and head, appends k "
                      "and v to the cache (the memory of the keys and values computed already) and looks at the "
                      "cache."),
        "gen_step": "Write one letter",
        "gen_play": "Write up to 40",
        "gen_pause": "Stop",
        "gen_clear": "Clear the written letters",
        "gen_play_note": ("“Write up to 40” adds one letter a second; when the system asks for reduced motion, each "
                          "press adds a single letter."),
        "gen_none": "The model has written nothing yet: press “Write one letter”.",
        "gen_written": "Written by the model ({count}): {letters}",
        "gen_cut": "The model reads at most {n} positions: {count} letters were not written.",
        "gen_new": "The new letter: {letter}, position {i}",
        "gen_why": ("Why {letter}: the induction head ({head}) looks from {prev} (position {i}) at the letter that "
                    "followed its earlier occurrence, {after} (position {k}), with weight {weight}."),
        "gen_why_none": "{letter} does not come from a repeat: {prev} had not occurred before.",
        "gen_why_other": ("{letter} is not the copy: the induction head ({head}) looks from {prev} (position {i}) "
                          "at {after} (position {k}) with weight {weight}, yet the most likely letter is {letter}."),
        "gen_why_window": ("{letter} is no copy: position {k} followed the earlier occurrence of {prev}, but with "
                           "the window w = {w} position {i} looks only at the {w} before it."),
        "gen_qkv_heading": "The new letter's q, k and v",
        "gen_col_head": "Layer and head",
        "gen_col_vector": "Vector",
        "gen_col_numbers": "Its {d} numbers",
        "gen_cache_heading": "The cache: one row of K and one of V a position",
        "gen_cache_help": ("Each table has one row a position read; the last, highlighted, is the one just added. "
                           "The rows before do not change: that is why they are not computed again."),
        "gen_cache_k": "K",
        "gen_cache_v": "V",
        "gen_cache_shared": "Layer {layer}, key/value head {g} (used by heads {heads})",
        "gen_kv_legend": "The model's key/value heads",
        "gen_kv_4": "4: each head its own (the page's model)",
        "gen_kv_2": "2: grouped-query, trained alike",
        "gen_kv_1": "1: multi-query, trained alike",
        "gen_kv_help": ("The variants were trained with the same seed and data, with fewer key/value heads: the "
                        "cache a token is {n} numbers a layer instead of {full}."),
        "gen_kv_own": "Each head has its own keys and values: the cache a token is {n} numbers a layer.",
        "gen_kv_formed": ("In this variant the induction head (layer {layer}, head {head}) formed: weight {weight} on "
                          "the letter to copy, predictions right {accuracy} (after training)."),
        "gen_kv_not_formed": ("In this variant the induction head did not fully form: weight {weight} on the letter "
                              "to copy, predictions right {accuracy} (after training)."),
        "gen_col_position": "Position",
        "gen_row_new": "new",
        "gen_attention_heading": "Where the new letter looks",
        "gen_attention_help": "The new position's attention row over the whole cache, for each layer and head.",
        "gen_prediction_heading": "What it predicts next",
        "gen_same_heading": "The cache and the full pass give the same numbers",
        "gen_same": ("The prediction after the last letter, computed with the cache and by recomputing everything "
                     "from the start. Largest difference between the probabilities: {diff}."),
        "gen_col_cached": "With the cache",
        "gen_compare_heading": "With the cache and with the full pass",
        "gen_col_full": "Full pass",
        "gen_announce": "The model writes {letter} ({p}). Letters written: {count}.",
        "gen_announce_none": "No letter written.",
        "gen_cost_heading": "What the cache costs, and what it saves",
        "gen_cost_help": ("With {T} positions read: {L} layers, {H} heads, d_head = {d}. The multiply-adds counted are "
                          "attention's (q·k and the sum of weighted v), not the projections."),
        "gen_cost_numbers": "Cache in numbers: 2 · {L} · {H} · {d} · {T}",
        "gen_cost_f16": "Cache in bytes (float16, 2 bytes a number)",
        "gen_cost_f32": "Cache in bytes (float32, 4 bytes a number)",
        "gen_cost_cached": "Attention multiply-adds, with the cache",
        "gen_cost_recomputed": "The same, recomputing the whole prefix for each letter",
        "gen_cost_ratio": "Without a cache it costs {ratio} times as much.",
        "gen_cost_window": "With the window w = {w} each position looks at most at {keys} positions of the cache.",
        "gen_col_quantity": "Quantity",
        "gen_col_value": "Value",
        "gen_real_heading": "The cache of real models",
        "gen_real_help": "Numbers a token = layers · (numbers kept a token and layer); bytes in float16.",
        "gen_real_sources": "Sources (they open in a new tab):",
        "gen_col_model": "Model",
        "gen_col_per_token": "Numbers a token",
        "gen_col_at": "{n} tokens",
        "gen_real_gpt2": "GPT-2 small: 12 layers, 12 heads, d_head 64 (2 · 12 · 64 a layer)",
        "gen_real_llama_mha": "LLaMA 2 70B if each head had its own keys: 80 layers, 64 heads, d_head 128",
        "gen_real_llama": "LLaMA 2 70B, grouped-query: 80 layers, 8 key/value heads, d_head 128",
        "gen_real_deepseek": "DeepSeek-V2, latent attention: 60 layers, a 512 latent + a 64 RoPE key",
        "gen_real_ours": "The page's model: {L} layers, {H} heads, d_head {d}",
        "gen_real_ours_kv": "The page's model's variant: {L} layers, {H} heads, {G} key/value, d_head {d}",
        "gen_real_note": "GPT-2 reads at most 1,024 tokens: at 100,000 it is a sum, not a possible use.",
    },
}
registry.add_strings(STRINGS)


def size(n_bytes, lang):
    """Bytes in decimal units, three significant digits at most: 36,9 MB · 3.69 GB."""
    for unit, scale in (("GB", 10 ** 9), ("MB", 10 ** 6), ("kB", 10 ** 3)):
        if n_bytes >= scale:
            value = n_bytes / scale
            digits = 2 if value < 10 else 1 if value < 100 else 0
            shown = f"{value:.{digits}f}"
            return f"{shown.replace('.', ',') if lang == 'it' else shown} {unit}"
    return f"{whole(n_bytes, lang)} B"


def off_attr(ctx):
    return "" if ctx.interactive is True and not ctx.settings.lock else " disabled"


def render_controls(ctx):
    """The Write control: step, play (pressed while it plays), clear; the note on reduced motion;
    the model's key/value heads (the page's model or its grouped-query, multi-query variant)."""
    lang, off, n = ctx.lang, off_attr(ctx), ctx.settings.generate
    record = ctx.record  # (no more letters once 40 are written or the model's positions are full)
    full = n >= generate.MAX or len(record.tokens) >= record.model.n_ctx
    t = lambda key: esc(text(lang, key))  # noqa: E731
    return (f'<div class="gen-controls" role="group" aria-label="{t("gen_heading")}">'
            f'<button type="button" id="gen-step"{off}{" disabled" if full and not off else ""}>{t("gen_step")}</button>'
            f'<button type="button" class="secondary" id="gen-play" aria-pressed="false"{off}>{t("gen_play")}</button>'
            f'<button type="button" class="secondary" id="gen-clear"{off}>{t("gen_clear")}</button></div>'
            f'<p class="hint">{t("gen_play_note")}</p>' + kv_choice(ctx))


def kv_choice(ctx):
    """The radio buttons of the model's key/value heads (`kv_heads`), and what the variant's training found."""
    lang, record = ctx.lang, ctx.record
    d = record.model.d_head
    said = text(lang, "gen_kv_own" if record.model.variant is None else "gen_kv_help",
                n=cache_per_token(record.model.kv_heads, d), full=cache_per_token(record.model.heads, d))
    found = model.config(record.model.variant).get("acceptance")
    if found is not None and "pass" in found:  # (a key/value variant's figures; the block model's are others)
        layer, head = record.induction_head
        said += " " + text(lang, "gen_kv_formed" if found["pass"] else "gen_kv_not_formed", layer=layer + 1,
                           head=head + 1, weight=percent(found["induction_weight"], lang, "bar"),
                           accuracy=percent(found["accuracy"], lang, "bar"))
    return (kv_radios(ctx.settings.kv_heads, "gen_kv_legend", "gen_kv_", lang, off_attr(ctx))
            + f'<p class="hint" id="gen-kv-said">{esc(said)}</p>')


def letter_of(token, lang):
    return quote(token_name(token, lang), lang)


def render_written(record, lang):
    """The letters written (or that none is), and what the positions' limit cut."""
    generation = getattr(record, "generation", None)
    if generation is not None and not generation.written:  # (the positions were full already)
        out = ""
    elif generation is None:
        out = f'<p class="gen-written" id="gen-written">{esc(text(lang, "gen_none"))}</p>'
    else:
        said = text(lang, "gen_written", count=len(generation.written), letters=" ".join(generation.written))
        out = f'<p class="gen-written" id="gen-written">{esc(said)}</p>'
    if generation is not None and generation.cut:
        out += f'<p class="note">{esc(text(lang, "gen_cut", n=record.model.n_ctx, count=generation.cut))}</p>'
    return out


registry.add_model_text(lambda record, lang: render_written(record, lang) if getattr(record, "generation", None) else "")


def heads_of(step):
    return [(layer, head) for layer in range(len(step.q)) for head in range(len(step.q[layer]))]


def render_why(record, lang):
    """Why the newest letter: the induction head's look from the position before it."""
    generation = record.generation
    step = generation.steps[-1]
    before = generation.cache.steps[step.position - 1]
    layer, head = record.induction_head
    found = record.circuit(step.position - 1)
    prev, letter = letter_of(before.token, lang), letter_of(step.token, lang)
    if found is None:
        return f'<p class="gen-why">{esc(text(lang, "gen_why_none", letter=letter, prev=prev))}</p>'
    j, k, _ = found
    if k < before.start:  # (a window: the letter after the earlier occurrence is no longer cached in reach)
        return (f'<p class="gen-why">{esc(text(lang, "gen_why_window", letter=letter, prev=prev, k=k, i=before.position, w=generation.window))}</p>')
    weight = before.attention[layer][head][k - before.start]
    key = "gen_why" if record.tokens[k] == step.token else "gen_why_other"  # (the copy, or not)
    return (f'<p class="gen-why">{esc(text(lang, key, letter=letter, head=inline_caption(layer, head, lang), prev=prev, i=before.position, after=letter_of(record.tokens[k], lang), k=k, weight=percent(weight, lang, "table")))}</p>')


def inline_caption(layer, head, lang):
    """'strato 2, testa 4' inside a sentence (the caption's first letter small)."""
    caption = text(lang, "model_head_caption", layer=layer + 1, head=head + 1)
    return caption[0].lower() + caption[1:]


def render_qkv(record, step, lang):
    """The new position's q, k and v: three rows a layer and head, one vector a row (narrow
    enough for a phone's width once the numbers scroll in their box)."""
    rows = []
    for layer, head in heads_of(step):
        name = esc(text(lang, "model_head_caption", layer=layer + 1, head=head + 1))
        for which, vectors in (("q", step.q), ("k", step.k), ("v", step.v)):
            first = f'<th scope="rowgroup" rowspan="3">{name}</th>' if which == "q" else ""
            rows.append(f'<tr data-head="{layer}-{head}" data-kind="{which}">{first}<th scope="row">{which}</th>'
                        f'<td class="vec">{esc(vec(vectors[layer][head], lang))}</td></tr>')
    heading = esc(text(lang, "gen_qkv_heading"))
    return (f'<h3>{heading}</h3><div class="table-wrap" role="region" tabindex="0" aria-label="{heading}">'
            f'<table class="steps gen-qkv"><thead><tr><th scope="col">{esc(text(lang, "gen_col_head"))}</th>'
            f'<th scope="col">{esc(text(lang, "gen_col_vector"))}</th><th scope="col">{esc(text(lang, "gen_col_numbers", d=record.model.d_head))}</th>'
            f'</tr></thead><tbody>{"".join(rows)}</tbody></table></div>')


def cache_table(rows, tokens, which, caption, lang):
    """One head's K or V: a row a position, the newest marked."""
    last = len(rows) - 1
    body = "".join(
        f'<tr data-row="{i}"{" class=" + chr(34) + "new" + chr(34) if i == last else ""}>'
        f'<th scope="row">{i} {esc(token_name(tokens[i], lang))}'
        + (f'<span class="sr-only"> ({esc(text(lang, "gen_row_new"))})</span>' if i == last else "")
        + f'</th><td class="vec">{esc(vec(row, lang))}</td></tr>' for i, row in enumerate(rows))
    return (f'<table class="steps gen-cache-{which.lower()}"><caption>{esc(caption)} · {which}</caption>'
            f'<thead><tr><th scope="col">{esc(text(lang, "gen_col_position"))}</th><th scope="col">{which}</th></tr></thead>'
            f'<tbody>{body}</tbody></table>')


def render_cache(record, step, lang):
    """The cache, a K and a V table for each layer and key/value head (the induction head's open;
    a grouped-query or multi-query model keeps fewer than its heads, each serving a group)."""
    cache, tokens, group = record.generation.cache, record.tokens, record.model.group
    out = []
    for layer in range(len(cache.k)):
        for g in range(len(cache.k[layer])):
            head = g * group  # (the first head it serves: data-head names it, as with one a head)
            if group == 1:
                caption, summary = (text(lang, "model_head_caption", layer=layer + 1, head=head + 1),
                                    head_caption(record, layer, head, lang))
            else:
                served = "–".join(str(h + 1) for h in sorted({head, head + group - 1}))
                caption = summary = text(lang, "gen_cache_shared", layer=layer + 1, g=g + 1, heads=served)
            induction_layer, induction_head = record.induction_head
            opened = " open" if layer == induction_layer and induction_head // group == g else ""
            out.append(f'<details class="gen-cache" data-head="{layer}-{head}"{opened}><summary>'
                       f'{esc(summary)}</summary>'
                       f'<div class="table-wrap" role="region" tabindex="0" aria-label="{esc(caption)} · K, V">'
                       + cache_table(cache.k[layer][g], tokens, "K", caption, lang)
                       + cache_table(cache.v[layer][g], tokens, "V", caption, lang) + "</div></details>")
    return (f'<h3>{esc(text(lang, "gen_cache_heading"))}</h3><p class="hint">{esc(text(lang, "gen_cache_help"))}</p>'
            + "".join(out))


def render_attention(record, step, lang):
    """The new position's attention row over the cache, one row a layer and head (whole percents)."""
    tokens = record.tokens
    columns = "".join(f'<th scope="col" data-col="{j}">{esc(token_name(tokens[j], lang))}</th>'
                      for j in range(step.start, step.position + 1))
    rows = "".join(
        f'<tr data-head="{layer}-{head}"><th scope="row">{esc(head_caption(record, layer, head, lang))}</th>'
        + "".join(f'<td>{esc(percent(w, lang))}</td>' for w in step.attention[layer][head]) + "</tr>"
        for layer, head in heads_of(step))
    heading = esc(text(lang, "gen_attention_heading"))
    return (f'<h3>{heading}</h3><p class="hint">{esc(text(lang, "gen_attention_help"))}</p>'
            f'<div class="table-wrap" role="region" tabindex="0" aria-label="{heading}">'
            f'<table class="steps gen-attention"><thead><tr><th scope="col">{esc(text(lang, "gen_col_head"))}</th>{columns}'
            f'</tr></thead><tbody>{rows}</tbody></table></div>')


def top_text(top, lang):
    return " · ".join(f"{t} {percent(p, lang, 'table')}" for t, p in top)


def render_same(record, step, lang):
    """The last letter's prediction with the cache and under the full pass, side by side."""
    full = record.probs[step.position]
    diff = max(abs(a - b) for a, b in zip(step.probs, full))
    ranked = sorted(range(len(full)), key=lambda c: -full[c])[:model.TOP]
    # (every digit of each, so that the same number is seen to be the same to the last bit)
    rows = "".join(f'<tr><th scope="row">{esc(record.model.outputs[c])}</th><td>{esc(exact(step.probs[c], lang))}</td>'
                   f'<td>{esc(exact(full[c], lang))}</td></tr>' for c in ranked)
    same = diff <= 1e-12  # (a window the full pass does not apply would part them)
    return (f'<h3>{esc(text(lang, "gen_same_heading" if same else "gen_compare_heading"))}</h3>'
            f'<p>{esc(text(lang, "gen_same", diff=exact(diff, lang)))}</p>'
            f'<div class="table-wrap" role="region" tabindex="0" aria-label="{esc(text(lang, "gen_same_heading"))}">'
            f'<table class="steps gen-same"><thead><tr><th scope="col">{esc(text(lang, "model_col_token"))}</th>'
            f'<th scope="col">{esc(text(lang, "gen_col_cached"))}</th><th scope="col">{esc(text(lang, "gen_col_full"))}</th>'
            f'</tr></thead><tbody>{rows}</tbody></table></div>')


def render_generation(ctx):
    record, lang = ctx.record, ctx.lang
    inner = (f'<h2>{esc(text(lang, "gen_heading"))}</h2><p>{esc(text(lang, "gen_intro"))}</p>'
             + render_controls(ctx) + render_written(record, lang))
    generation = getattr(record, "generation", None)
    if generation is not None and generation.steps:
        step = generation.steps[-1]
        inner += (f'<h3 class="gen-new">{esc(text(lang, "gen_new", letter=letter_of(step.token, lang), i=step.position))}</h3>'
                  + render_why(record, lang) + render_qkv(record, step, lang) + render_cache(record, step, lang)
                  + render_attention(record, step, lang)
                  + f'<h3>{esc(text(lang, "gen_prediction_heading"))}</h3>'
                  f'<p class="gen-prediction">{esc(top_text(step.top, lang))}</p>'
                  + render_same(record, step, lang))
    return registry.section("generation", inner, "generation", view=False)


def shape(record):
    return len(record.model.layers), len(record.model.layers[0]["w_q"]), record.model.d_head


def cost_rows(record, lang):
    """The counters' rows: (label, value) for the cache in numbers and bytes and the products."""
    generation = getattr(record, "generation", None)
    layers, heads, d = shape(record)
    kv_heads = record.model.kv_heads
    c = generation.counters if generation is not None else \
        generate.counters(len(record.tokens), 0, layers, heads, d, kv_heads=kv_heads)
    n = c["numbers"]
    return c, [
        ("numbers", text(lang, "gen_cost_numbers", L=layers, H=kv_heads, d=d, T=c["tokens"]), whole(n, lang)),
        ("f16", text(lang, "gen_cost_f16"), whole(2 * n, lang)),
        ("f32", text(lang, "gen_cost_f32"), whole(4 * n, lang)),
        ("cached", text(lang, "gen_cost_cached"), whole(c["products_cached"], lang)),
        ("recomputed", text(lang, "gen_cost_recomputed"), whole(c["products_recomputed"], lang)),
    ]


def render_cost(ctx):
    """The counters that grow with each letter."""
    record, lang = ctx.record, ctx.lang
    if record is None or not hasattr(record, "model"):
        return registry.section("generation-cost", "", "generation-cost", view=False)
    layers, heads, d = shape(record)
    c, rows = cost_rows(record, lang)
    body = "".join(f'<tr data-counter="{key}"><th scope="row">{esc(label)}</th><td>{esc(value)}</td></tr>'
                   for key, label, value in rows)
    ratio = c["products_recomputed"] / c["products_cached"]
    window = ctx.settings.window
    inner = (f'<h2>{esc(text(lang, "gen_cost_heading"))}</h2>'
             f'<p class="hint">{esc(text(lang, "gen_cost_help", T=c["tokens"], L=layers, H=heads, d=d))}</p>'
             f'<div class="table-wrap" role="region" tabindex="0" aria-label="{esc(text(lang, "gen_cost_heading"))}">'
             f'<table class="steps gen-counters"><thead><tr><th scope="col">{esc(text(lang, "gen_col_quantity"))}</th>'
             f'<th scope="col">{esc(text(lang, "gen_col_value"))}</th></tr></thead><tbody>{body}</tbody></table></div>'
             f'<p class="gen-ratio">{esc(text(lang, "gen_cost_ratio", ratio=num(ratio, lang, "table")))}</p>'
             + (f'<p class="note">{esc(text(lang, "gen_cost_window", w=window, keys=window + 1))}</p>'
                if window is not None else ""))
    return registry.section("generation-cost", inner, "generation-cost", view=False)


# Real models' caches (docs/generation.md names each source): (string key, layers, numbers kept a
# token and layer). A head keeps a k and a v of d_head numbers; DeepSeek-V2 keeps one latent of 512
# and one RoPE key of 64 a layer, whatever its heads.
REAL = (
    ("gen_real_gpt2", 12, 2 * 12 * 64),
    ("gen_real_llama_mha", 80, 2 * 64 * 128),
    ("gen_real_llama", 80, 2 * 8 * 128),
    ("gen_real_deepseek", 60, 512 + 64),
)
LENGTHS = (1_000, 100_000)
# Where each real model's numbers come from (docs/generation.md quotes what each says): its name,
# and the address a student can open.
SOURCES = (
    ("GPT-2", "https://huggingface.co/openai-community/gpt2"),
    ("Llama 2", "https://arxiv.org/abs/2307.09288"),
    ("Llama-2-70b", "https://huggingface.co/meta-llama/Llama-2-70b-hf"),
    ("GQA", "https://arxiv.org/abs/2305.13245"),
    ("DeepSeek-V2", "https://arxiv.org/abs/2405.04434"),
)


def real_rows():
    """(key, numbers a token, [(tokens, numbers, float16 bytes)]) for each real model."""
    return [(key, layers * per_layer, [(n, layers * per_layer * n, 2 * layers * per_layer * n) for n in LENGTHS])
            for key, layers, per_layer in REAL]


def render_sizes(ctx):
    """The cache of real models at 1,000 and 100,000 tokens (and the page's model when known)."""
    lang = ctx.lang
    t = lambda key, **kw: esc(text(lang, key, **kw))  # noqa: E731
    rows = []
    for key, per_token, at in real_rows():
        rows.append(f'<tr data-model="{key[9:]}"><th scope="row">{t(key)}</th><td>{whole(per_token, lang)}</td>'
                    + "".join(f'<td>{whole(numbers, lang)} · {esc(size(b, lang))}</td>' for _, numbers, b in at)
                    + "</tr>")
    try:  # (the page's model row in model mode only: its files are read in no other mode)
        if ctx.settings.mode != "model":
            raise model.Unavailable("not in model mode")
        config = model.config(ctx.settings.kv_heads)
        layers, heads, d = config["n_layers"], config["n_heads"], config["d_head"]
        kv_heads = config.get("n_kv_heads", heads)
        per_token = layers * cache_per_token(kv_heads, d)
        said = t("gen_real_ours", L=layers, H=heads, d=d) if kv_heads == heads else \
            t("gen_real_ours_kv", L=layers, H=heads, G=kv_heads, d=d)
        rows.append(f'<tr data-model="ours"><th scope="row">{said}</th>'
                    f'<td>{whole(per_token, lang)}</td>'
                    + "".join(f'<td>{whole(per_token * n, lang)} · {esc(size(2 * per_token * n, lang))}</td>'
                              for n in LENGTHS) + "</tr>")
    except model.Unavailable:
        pass
    columns = "".join(f'<th scope="col">{t("gen_col_at", n=whole(n, lang))}</th>' for n in LENGTHS)
    inner = (f'<h2>{t("gen_real_heading")}</h2><p class="hint">{t("gen_real_help")}</p>'
             f'<div class="table-wrap" role="region" tabindex="0" aria-label="{t("gen_real_heading")}">'
             f'<table class="steps gen-real"><thead><tr><th scope="col">{t("gen_col_model")}</th>'
             f'<th scope="col">{t("gen_col_per_token")}</th>{columns}</tr></thead><tbody>{"".join(rows)}</tbody></table>'
             f'</div><p class="note">{t("gen_real_note")}</p>'
             f'<p class="note sources">{t("gen_real_sources")} '
             + " · ".join(f'<a href="{esc(url)}" target="_blank" rel="noopener noreferrer">{esc(name)}</a>'
                          for name, url in SOURCES) + "</p>")
    return registry.section("cache-sizes", inner, "cache-sizes", view=False)


def announcement(record, lang):
    """The live region's sentence after a letter is written (or cleared)."""
    generation = getattr(record, "generation", None)
    if generation is None or not generation.steps:
        return text(lang, "gen_announce_none")
    before = generation.cache.steps[generation.steps[-1].position - 1]
    return text(lang, "gen_announce", letter=letter_of(generation.written[-1], lang),
                p=percent(before.top[0][1], lang, "table"), count=len(generation.written))


# Below the model's predictions (place 210): the first screen of model mode stays as it was.
GENERATION = registry.add(registry.View(id="generation", place=212, modes=MODEL, draw=render_generation,
                                        settings=("kv_heads",)))
COST = registry.add(registry.View(id="generation-cost", place=213, modes=MODEL, draw=render_cost))
# The real models' caches need no model: the path's steps about the designed heads show them too,
# below their own views (shared keys and the latent: place 215 and 216).
SIZES = registry.add(registry.View(id="cache-sizes", place=218, modes=("sentence", "model"), explorer=False,
                                   draw=render_sizes))
