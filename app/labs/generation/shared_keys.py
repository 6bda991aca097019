"""Shared keys and the latent: two ways to make the KV cache smaller, on the designed heads (steps 4
and 5 of the generation path, app/labs/generation/path.py; docs/DESIGN.md, "Shared keys").

`shared-keys`: the `kv_heads` choice (4 multi-head, 2 grouped-query, 1 multi-query), which head's
W_K and W_V each head uses (app/heads.py `kv_source`), how the selected word's bars change under
each head against its own keys, and the cache a token keeps. The designed heads' W_K and W_V are
all the identity, so sharing changes none of their bars: that is why multi-query works when heads
differ by their questions. A button gives the first head keys of its own (W_K without the pointer
feature) so that the student sees a group follow its first head.

`latent`: one latent vector a token (app/heads.py `latent`, 3 numbers), from which every head
rebuilds its keys and values; the selected word's bars with the rebuilt keys beside the exact ones.

Both follow the selected word (a word click redraws them) and draw nothing off their steps
(`record.parts["shared"]` is None there: `shared_of` computes nothing more).
"""

from app import attention, contract, heads, settings as schema
from app.i18n import num, percent, text
from app.views import registry
from app.views.html import esc
from app.views.query import vec

STRINGS = {
    "it": {
        "kv_heading": "Chiavi condivise: multi-head, grouped-query, multi-query",
        "kv_intro": ("Ogni testa fa la sua domanda con la sua W_Q. Chiavi e valori invece possono essere condivisi: "
                     "con g teste chiave/valore la cache tiene, per ogni token, g chiavi e g valori invece di uno "
                     "per testa. Ogni gruppo usa W_K e W_V della sua prima testa."),
        "kv_legend": "Teste chiave/valore",
        "kv_choice_4": "4: multi-head, ogni testa le sue",
        "kv_choice_2": "2: grouped-query, due gruppi di due teste",
        "kv_choice_1": "1: multi-query, una sola per tutte",
        "kv_caption": "Chi usa le chiavi di chi, e dove guarda «{word}»",
        "kv_col_head": "testa",
        "kv_col_from": "chiavi e valori di",
        "kv_col_own": "con le sue chiavi",
        "kv_col_used": "con le chiavi condivise",
        "kv_col_change": "variazione massima",
        "kv_looks": "{word} {p}",
        "kv_points": "{p} punti",
        "kv_same": ("Nessuna barra cambia: le teste progettate hanno tutte W_K = W_V = identità, cioè le stesse "
                    "chiavi e gli stessi valori. Si distinguono solo per la domanda, ed è per questo che "
                    "condividere le chiavi può funzionare."),
        "kv_changed": ("Qui le chiavi della prima testa non sono più la carta: le teste del suo gruppo le seguono, e "
                       "le loro barre cambiano. Con chiavi condivise le teste devono accordarsi su cosa dice una "
                       "chiave."),
        "kv_row_same": ("Il gruppo della prima testa ora legge le sue chiavi cambiate, ma per «{word}» nessuna "
                        "barra si muove: prova un'altra parola."),
        "kv_edited_unused": ("Le modifiche a W_K e W_V di «{head}» non contano ora: usa quelle di «{first}», la prima "
                             "testa del suo gruppo. Per questo le sue barre possono cambiare."),
        "kv_edited_alone": ("Con g = 4 ogni testa usa le sue chiavi: quelle cambiate di «{head}» non arrivano a nessun'altra "
                            "testa, e nessuna barra delle altre si muove. Scegli 2 o 1 e le condivide il suo gruppo."),
        "kv_own_reset": ("Il bottone non è premuto: cambiare testa rimette W_Q, W_K e W_V progettate, perché le "
                         "modifiche sono della testa attiva. Premerlo rende di nuovo attiva «{head}»."),
        "kv_own": "Chiavi di «{head}» senza il tratto «rimando»",
        "kv_own_help": ("Premuto, il bottone cambia W_K di «{head}»: le sue chiavi perdono l'ultimo numero della carta "
                        "(premuto di nuovo, torna quella progettata). Le sue barre quasi non si muovono; guarda cosa "
                        "succede alle teste che le condividono."),
        "kv_cache_heading": "La cache per token e strato",
        "kv_cache": "2 · g · d_head = 2 · {g} · {d} = {n} numeri",
        "kv_cache_caption": "Numeri tenuti in cache per token e strato, con d_head = {d}",
        "kv_col_kind": "tipo di attenzione",
        "kv_col_numbers": "numeri per token",
        "kv_kind_4": "multi-head (g = 4)",
        "kv_kind_2": "grouped-query (g = 2)",
        "kv_kind_1": "multi-query (g = 1)",
        "kv_kind_latent": "latente ({n} numeri, il passo dopo)",
        "kv_now": "(scelta ora)",
        "latent_heading": "Attenzione latente",
        "latent_intro": ("Invece delle chiavi e dei valori di ogni testa, la cache tiene per ogni token un solo vettore "
                         "latente c = x · W_DKV, più piccolo; ogni testa ricostruisce da lì le sue chiavi e i suoi "
                         "valori con le sue matrici: K = c · W_UK, V = c · W_UV. Qui il latente ha {n} numeri: "
                         "«nome» ((vivo + cosa)/√2), «azione» e «rimando»; in DeepSeek-V2 ne ha 512 ed è appreso."),
        "latent_caption": "Il latente di ogni parola e la carta che le teste ne ricostruiscono",
        "latent_col_word": "parola",
        "latent_col_card": "carta x",
        "latent_col_latent": "latente c ({n} numeri)",
        "latent_col_rebuilt": "carta ricostruita c · W_DKVᵀ",
        "latent_bars_caption": "Dove guarda «{word}» ({head}): chiavi esatte e chiavi ricostruite dal latente",
        "latent_col_exact": "chiavi esatte",
        "latent_col_from": "dal latente",
        "latent_lost": ("Il latente non distingue un essere vivo da una cosa: la parola più guardata passa da {a} a {b}. "
                        "Un latente più piccolo risparmia memoria, ma perde quello che non tiene."),
        "latent_kept": ("La parola più guardata resta {a}: qui quello che il latente perde (vivo o cosa) non conta "
                        "per questa domanda. Prova un'altra parola o un'altra testa."),
        "latent_cache": ("Cache per token e strato: {n} numeri, contro {mha} del multi-head e {mqa} del multi-query. "
                         "DeepSeek-V2 tiene 512 + 64 = 576 numeri per strato: il latente e una chiave RoPE di 64, "
                         "tenuta a parte perché una chiave ruotata secondo la posizione non si ricostruisce dal "
                         "latente."),
        "latent_absorb": ("Un trucco lo rende veloce: q · k = q · (c · W_UK) = (q · W_UKᵀ) · c, quindi la domanda "
                          "si confronta direttamente con i latenti, senza ricostruire le chiavi."),
    },
    "en": {
        "kv_heading": "Shared keys: multi-head, grouped-query, multi-query",
        "kv_intro": ("Each head asks its own question with its own W_Q. Keys and values can be shared instead: with g "
                     "key/value heads the cache keeps, for each token, g keys and g values instead of one a head. "
                     "Each group uses the W_K and W_V of its first head."),
        "kv_legend": "Key/value heads",
        "kv_choice_4": "4: multi-head, each head its own",
        "kv_choice_2": "2: grouped-query, two groups of two heads",
        "kv_choice_1": "1: multi-query, one for all",
        "kv_caption": "Who uses whose keys, and where “{word}” looks",
        "kv_col_head": "head",
        "kv_col_from": "keys and values of",
        "kv_col_own": "with its own keys",
        "kv_col_used": "with the shared keys",
        "kv_col_change": "largest change",
        "kv_looks": "{word} {p}",
        "kv_points": "{p} points",
        "kv_same": ("No bar changes: the designed heads all have W_K = W_V = identity, the same keys and the same "
                    "values. They differ only by their question, which is why sharing keys can work."),
        "kv_changed": ("Here the first head's keys are no longer the card: the heads of its group follow them, and "
                       "their bars change. With shared keys the heads must agree on what a key says."),
        "kv_row_same": ("The first head's group now reads its changed keys, but for “{word}” no bar moves: try "
                        "another word."),
        "kv_edited_unused": ("The edits to the W_K and W_V of “{head}” do not count now: it uses those of “{first}”, "
                             "the first head of its group. That is why its bars may change."),
        "kv_edited_alone": ("With g = 4 each head uses its own keys: the changed keys of “{head}” reach no other head, "
                            "and none of the others' bars moves. Choose 2 or 1 and its group shares them."),
        "kv_own_reset": ("The button is not pressed: changing the head brings back the designed W_Q, W_K and W_V, "
                         "since edits belong to the active head. Pressing it makes “{head}” active again."),
        "kv_own": "Keys of “{head}” without the pointer feature",
        "kv_own_help": ("Pressed, the button changes the W_K of “{head}”: its keys lose the card's last number "
                        "(pressed again, the designed one is back). Its bars hardly move; see what happens to the "
                        "heads that share them."),
        "kv_cache_heading": "The cache a token and layer",
        "kv_cache": "2 · g · d_head = 2 · {g} · {d} = {n} numbers",
        "kv_cache_caption": "Numbers kept in the cache a token and layer, with d_head = {d}",
        "kv_col_kind": "kind of attention",
        "kv_col_numbers": "numbers a token",
        "kv_kind_4": "multi-head (g = 4)",
        "kv_kind_2": "grouped-query (g = 2)",
        "kv_kind_1": "multi-query (g = 1)",
        "kv_kind_latent": "latent ({n} numbers, the next step)",
        "kv_now": "(chosen now)",
        "latent_heading": "Latent attention",
        "latent_intro": ("Instead of every head's keys and values, the cache keeps for each token one latent vector "
                         "c = x · W_DKV, smaller; each head rebuilds its keys and values from it with its own "
                         "matrices: K = c · W_UK, V = c · W_UV. Here the latent has {n} numbers: “noun” ((alive + "
                         "thing)/√2), “action” and “pointer”; in DeepSeek-V2 it has 512 and is learned."),
        "latent_caption": "Each word's latent and the card the heads rebuild from it",
        "latent_col_word": "word",
        "latent_col_card": "card x",
        "latent_col_latent": "latent c ({n} numbers)",
        "latent_col_rebuilt": "card rebuilt c · W_DKVᵀ",
        "latent_bars_caption": "Where “{word}” looks ({head}): exact keys and keys rebuilt from the latent",
        "latent_col_exact": "exact keys",
        "latent_col_from": "from the latent",
        "latent_lost": ("The latent cannot tell a living being from a thing: the word looked at most goes from {a} to "
                        "{b}. A smaller latent saves memory, but loses what it does not keep."),
        "latent_kept": ("The word looked at most stays {a}: what the latent loses (alive or thing) does not matter to "
                        "this question. Try another word or another head."),
        "latent_cache": ("Cache a token and layer: {n} numbers, against {mha} for multi-head and {mqa} for "
                         "multi-query. DeepSeek-V2 keeps 512 + 64 = 576 numbers a layer: the latent and a RoPE key of "
                         "64, kept apart because a key turned by its position cannot be rebuilt from the latent."),
        "latent_absorb": ("A trick makes it fast: q · k = q · (c · W_UK) = (q · W_UKᵀ) · c, so the question meets "
                          "the latents directly, without rebuilding the keys."),
    },
}

H = len(heads.HEADS)
D = attention.D_MODEL
KV_HEADS = (4, 2, 1)  # the radios' values, as app/settings.py allows them


def head_name(h, lang):
    return text(lang, "head_name_" + heads.HEADS[h].id)


def top(weights, candidates):
    """The candidate looked at most (the first on a tie), or None when the row has none."""
    best = [j for j in range(len(weights)) if candidates[j]]
    return max(best, key=lambda j: (weights[j], -j)) if best else None


def looks(record, i, tokens, lang):
    j = top(record.weights[i], record.candidates[i])
    if j is None:
        return "—"
    return text(lang, "kv_looks", word=tokens[j].text, p=percent(record.weights[i][j], lang, "bar"))


def change(own, used, i):
    """The largest change of row i's weights between two records, in percentage points."""
    return 100 * max((abs(a - b) for a, b in zip(own.weights[i], used.weights[i])), default=0.0)


def kv_radios(chosen, legend, labels, lang, off=""):
    """The `kv_heads` radio buttons (4, 2, 1) in their fieldset: `labels` is the prefix of their strings
    (this view's on the designed heads, the generation lab's on the trained model)."""
    choices = "".join(
        f'<label class="kv-choice"><input type="radio" id="kv-{g}" name="kv_heads" value="{g}"'
        f'{" checked" if g == chosen else ""}{off}> {esc(text(lang, labels + str(g)))}</label>' for g in KV_HEADS)
    return f'<fieldset class="kv-heads"><legend>{esc(text(lang, legend))}</legend>{choices}</fieldset>'


def kv_controls(shared, lang):
    t = lambda key, **kw: esc(text(lang, key, **kw))  # noqa: E731
    first = heads.HEADS[0].id
    on = shared.own_keys
    # (pressed, it looks as the page's main buttons do, with a tick: not only aria-pressed says so)
    look = "" if on else ' class="secondary"'
    tick = '<span aria-hidden="true">✓ </span>' if on else ""
    name = text(lang, "head_name_" + first)
    reset = f' <span class="hint kv-own-reset">{t("kv_own_reset", head=name)}</span>' if shared.head != 0 else ""
    button = (f'<p class="kv-own"><button type="button" id="kv-own"{look} aria-pressed="{"true" if on else "false"}">'
              f'{tick}{t("kv_own", head=name)}</button> <span class="hint">{t("kv_own_help", head=name)}</span>'
              f'{reset}</p>')
    return kv_radios(shared.kv_heads, "kv_legend", "kv_choice_", lang) + button


def kv_cache(shared, lang):
    t = lambda key, **kw: esc(text(lang, key, **kw))  # noqa: E731
    rows = []
    for g in (4, 2, 1):
        now = f' <span class="kv-now">{t("kv_now")}</span>' if g == shared.kv_heads else ""
        current = ' class="kv-current"' if g == shared.kv_heads else ""
        rows.append(f'<tr{current} data-kv="{g}">'
                    f'<th scope="row">{t("kv_kind_" + str(g))}{now}</th><td>{heads.cache_per_token(g)}</td></tr>')
    rows.append(f'<tr data-kv="latent"><th scope="row">{t("kv_kind_latent", n=heads.LATENT)}</th>'
                f'<td>{heads.LATENT}</td></tr>')
    caption = t("kv_cache_caption", d=D)
    return (f'<h3>{t("kv_cache_heading")}</h3>'
            f'<p class="kv-cache-now">{t("kv_cache", g=shared.kv_heads, d=D, n=heads.cache_per_token(shared.kv_heads))}</p>'
            f'<div class="table-wrap" role="region" tabindex="0" aria-label="{caption}">'
            f'<table class="steps kv-cache"><caption>{caption}</caption><thead><tr><th scope="col">{t("kv_col_kind")}</th>'
            f'<th scope="col">{t("kv_col_numbers")}</th></tr></thead><tbody>{"".join(rows)}</tbody></table></div>')


def render_shared(row, tokens, lang, word=None):
    """The shared-keys view (its whole section follows the selected word)."""
    shared = (row.record.parts or {}).get("shared")
    if shared is None or "shared-keys" not in shared.shows:
        return ""
    t = lambda key, **kw: esc(text(lang, key, **kw))  # noqa: E731
    i, used = row.focus, row.record.head_records
    body, changed = [], False
    for h in range(H):
        source = heads.kv_source(h, shared.kv_heads)
        delta = change(shared.own[h], used[h], i)
        changed = changed or delta > 0
        body.append(f'<tr data-head="{h}"><th scope="row">{esc(head_name(h, lang))}</th>'
                    f'<td>{esc(head_name(source, lang))}</td>'
                    f'<td>{esc(looks(shared.own[h], i, tokens, lang))}</td><td>{esc(looks(used[h], i, tokens, lang))}</td>'
                    f'<td>{t("kv_points", p=num(delta, lang, "bar"))}</td></tr>')
    caption = t("kv_caption", word=tokens[i].text)
    columns = "".join(f'<th scope="col">{t(k)}</th>' for k in ("kv_col_head", "kv_col_from", "kv_col_own",
                                                               "kv_col_used", "kv_col_change"))
    # (what the note says follows why a bar moved: a group reads its first head's edited keys, or
    # the active head's own edits are dropped for its group's first head's)
    first = heads.kv_source(shared.head, shared.kv_heads)
    unused = shared.edited and first != shared.head
    spread = shared.edited and first == shared.head and any(
        heads.kv_source(h, shared.kv_heads) == shared.head for h in range(H) if h != shared.head)
    if unused:
        notes = [t("kv_edited_unused", head=head_name(shared.head, lang), first=head_name(first, lang))]
    elif spread:
        notes = [t("kv_changed" if changed else "kv_row_same", word=tokens[i].text)]
    elif shared.edited and shared.kv_heads == H:
        notes = [t("kv_edited_alone", head=head_name(shared.head, lang))]
    else:
        notes = [t("kv_same")]
    return (f'<h2>{t("kv_heading")}</h2><p>{t("kv_intro")}</p>' + kv_controls(shared, lang)
            + f'<div class="table-wrap" role="region" tabindex="0" aria-label="{caption}">'
            f'<table class="steps kv-table"><caption>{caption}</caption><thead><tr>{columns}</tr></thead>'
            f'<tbody>{"".join(body)}</tbody></table></div>'
            + "".join(f'<p class="kv-note">{n}</p>' for n in notes) + kv_cache(shared, lang))


def render_latent(row, tokens, lang, word=None):
    """The latent view (its whole section follows the selected word)."""
    shared = (row.record.parts or {}).get("shared")
    if shared is None or "latent" not in shared.shows:
        return ""
    t = lambda key, **kw: esc(text(lang, key, **kw))  # noqa: E731
    record, exact, i = shared.latent, row.record, row.focus
    cards = shared.cards
    latents, rebuilt = heads.latent(cards), heads.rebuilt(cards)
    selected = ' class="selected"'
    rows = "".join(f'<tr{selected if j == i else ""}><th scope="row">{esc(tok.text)}</th>'
                   f'<td>{esc(vec(cards[j], lang))}</td><td>{esc(vec(latents[j], lang))}</td>'
                   f'<td>{esc(vec(rebuilt[j], lang))}</td></tr>' for j, tok in enumerate(tokens))
    caption = t("latent_caption")
    columns = "".join(f'<th scope="col">{h}</th>' for h in (
        t("latent_col_word"), t("latent_col_card"), t("latent_col_latent", n=heads.LATENT), t("latent_col_rebuilt")))
    bars_caption = t("latent_bars_caption", word=tokens[i].text, head=head_name(shared.head, lang))
    bar_rows = "".join(
        f'<tr><th scope="row">{esc(tok.text)}</th>'
        + "".join(f'<td>{esc(percent(r.weights[i][j], lang, "table")) if r.candidates[i][j] else "—"}</td>'
                  for r in (exact, record)) + "</tr>"
        for j, tok in enumerate(tokens))
    a, b = top(exact.weights[i], exact.candidates[i]), top(record.weights[i], record.candidates[i])
    name = lambda j: "—" if j is None else f"«{tokens[j].text}»" if lang == "it" else f"“{tokens[j].text}”"  # noqa: E731
    said = t("latent_lost", a=name(a), b=name(b)) if a != b else t("latent_kept", a=name(a))
    return (f'<h2>{t("latent_heading")}</h2><p>{t("latent_intro", n=heads.LATENT)}</p>'
            f'<div class="table-wrap" role="region" tabindex="0" aria-label="{caption}">'
            f'<table class="steps latent-table"><caption>{caption}</caption><thead><tr>{columns}</tr></thead>'
            f'<tbody>{rows}</tbody></table></div>'
            f'<div class="table-wrap" role="region" tabindex="0" aria-label="{bars_caption}">'
            f'<table class="steps latent-bars"><caption>{bars_caption}</caption><thead><tr>'
            f'<th scope="col">{t("latent_col_word")}</th><th scope="col">{t("latent_col_exact")}</th>'
            f'<th scope="col">{t("latent_col_from")}</th></tr></thead><tbody>{bar_rows}</tbody></table></div>'
            f'<p class="latent-said">{said}</p>'
            f'<p>{t("latent_cache", n=heads.LATENT, mha=heads.cache_per_token(H), mqa=heads.cache_per_token(1))}</p>'
            f'<p class="note">{t("latent_absorb")}</p>')


def own_keys(page):
    """The button: the first head gets keys without the pointer feature (W_K edited), or its
    designed ones back; it becomes the active head, the focus stays on the button."""
    on = own_keys_on(page.settings)
    w_k = None if on else [list(r) for r in heads.NO_POINTER_KEYS]
    page.render(page.settings.copy(head=0, w_k=w_k), page.lexicon_tokens, schema.BY_ATTR["head"].redraw)
    page.region("kv-own").focus()


def _section(view_id, css_class):
    return lambda ctx: registry.section(view_id, ctx.part(view_id), css_class, view=False)


class Shared:
    """What the generation lab's shared-keys and latent views read (the views below): the
    key/value heads, each head's record with its own W_K and W_V beside the one it uses (`own`: the
    same records when nothing is shared), whether the active head's W_K or W_V are edited, and the
    active head's record with keys and values rebuilt from the latent (`latent`)."""

    __slots__ = ("kv_heads", "own", "edited", "own_keys", "head", "latent", "cards", "shows")


def own_keys_on(settings):
    """Whether the shared-keys view's button is pressed: the first head active, its W_K the keys
    without the pointer feature (app/heads.py NO_POINTER_KEYS)."""
    return settings.head == 0 and settings.w_k is not None and \
        [list(map(float, r)) for r in settings.w_k] == [list(r) for r in heads.NO_POINTER_KEYS]


def shared_of(settings, tokens, record):
    """The record's `Shared`, when a step shows the shared-keys or the latent view in sentence mode
    (None otherwise: nothing more is computed; `record.parts["shared"]`, app/contract.py `compute`)."""
    if settings.mode != "sentence":
        return None
    shows = tuple(v for v in ("shared-keys", "latent") if registry.step_shows(settings, v))
    if not shows or record.head_records is None or any(r is None for r in record.head_records):
        return None
    shared = Shared()
    shared.kv_heads, shared.head, shared.shows = settings.kv_heads, settings.head, shows
    shared.edited = settings.w_k is not None or settings.w_v is not None
    shared.own_keys = own_keys_on(settings)
    shared.own = record.head_records
    if settings.kv_heads != len(heads.HEADS):
        shared.own = contract.compute_heads(settings.copy(kv_heads=len(heads.HEADS)), tokens).head_records
    cards = shared.cards = contract.cards_of(settings, tokens)
    shared.latent = contract.attend_head(settings, cards, settings.head, contract.pattern_qkv(settings, len(tokens), len(tokens)),
                                key_cards=heads.rebuilt(cards))
    return shared


registry.add_record_part("shared", shared_of)


SHARED = registry.add(registry.View(id="shared-keys", place=215, explorer=False, row=render_shared,
                                   draw=_section("shared-keys", "shared-keys"), strings=STRINGS, settings=("kv_heads",)))
LATENT = registry.add(registry.View(id="latent", place=216, explorer=False, row=render_latent,
                                   draw=_section("latent", "latent")))
