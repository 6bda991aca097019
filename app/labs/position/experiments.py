"""The position lab's three experiments, each one button and a sentence written from the page's own
numbers (drawn on its step of the path, so the sentence stays true after every redraw):

- shuffle: swap the first and the last noun; without position (and without the mask) each weight
  moves with its word, attention is equivariant; with a position, or the causal mask, it does not;
- shift: the offset + SHIFT, as if the sentence sat later in a longer text; RoPE's and ALiBi's
  weights do not move, sinusoidal's do;
- convention: RoPE with pairs (0,1),(2,3) and (0,2),(1,3) turn q differently; with W_Q's and W_K's
  columns permuted (0,2,1,3) the two give the same weights. The button permutes the active head's.

The buttons' actions (`shuffle`, `shift`, `convention`) are app/page.py's CLICKS."""

from app import attention, attention_fast, order, settings as schema
from app.i18n import percent, text
from app.labs.position import controls as position
from app.views import registry
from app.views.html import esc
from app.views.query import vec

SHIFT = 5  # the shift experiment's step: the offset grows by this much
PERMUTATION = (0, 2, 1, 3)  # column t of the permuted W is column PERMUTATION[t] (its own inverse)
SAME = 1e-12  # weights this close are the same (the sums run in another order)

STRINGS = {
    "it": {
        "pexp_shuffle_heading": "Esperimento: mescolare le parole",
        "pexp_shuffle_button": "Scambia «{a}» e «{b}»",
        "pexp_shuffle_numbers": ("«{word}» dà ora {pa} a «{a}» e {pb} a «{b}»; con le due parole scambiate darebbe "
                                 "{sa} a «{a}» e {sb} a «{b}»."),
        "pexp_shuffle_moved": ("I pesi si spostano con le parole: senza posizione l'attenzione è equivariante, "
                               "non vede l'ordine."),
        "pexp_shuffle_mask": "I pesi cambiano: la maschera causale porta già l'ordine, ogni parola vede solo quelle prima.",
        "pexp_shuffle_position": "I pesi cambiano: la posizione ({kind}) dà a ogni parola il suo posto.",
        "pexp_pick": "Scegli una parola diversa dalle due scambiate per vedere i suoi numeri.",
        "pexp_shift_heading": "Esperimento: spostare la frase",
        "pexp_shift_button": "Sposta di +{k}",
        "pexp_shift_numbers": ("Posizione {kind}: «{word}» dà {p} a «{top}» con scostamento {o}, e {q} con "
                               "scostamento {o2}; il suo peso che cambia di più cambia di {d} punti."),
        "pexp_shift_still": ("Le barre non si muovono: {kind} conosce solo le distanze tra le parole, per questo "
                             "i metodi relativi reggono nei testi più lunghi."),
        "pexp_shift_none": "Le barre non si muovono: senza posizione nessun numero dipende dal posto.",
        "pexp_shift_moved": ("Le barre si muovono: la posizione sinusoidale è assoluta, la stessa frase più avanti "
                             "dà altri pesi."),
        "pexp_conv_heading": "Esperimento: quale coppia di dimensioni?",
        "pexp_conv_button": "Permuta le colonne di W_Q e W_K (0,2,1,3)",
        "pexp_conv_numbers": ("«{word}»: con le coppie (0,1),(2,3) di questa pagina q girato è {q1} e i pesi "
                              "{w1}; con le coppie (0,2),(1,3) e le stesse W, q girato è {q2} e i pesi {w2}; con "
                              "(0,2),(1,3) e le colonne di W_Q e W_K permutate, q girato è {q3} e i pesi {w3}."),
        "pexp_conv_same": ("Le due convenzioni girano vettori diversi, ma con le colonne permutate danno gli stessi "
                           "pesi: è la differenza tra la RoPE di Meta e quella di Hugging Face. Il pulsante permuta le "
                           "W di questa testa: i pesi della pagina diventano quelli dell'altra convenzione."),
    },
    "en": {
        "pexp_shuffle_heading": "Experiment: shuffle the words",
        "pexp_shuffle_button": "Swap “{a}” and “{b}”",
        "pexp_shuffle_numbers": ("“{word}” now gives {pa} to “{a}” and {pb} to “{b}”; with the two words swapped it "
                                 "would give {sa} to “{a}” and {sb} to “{b}”."),
        "pexp_shuffle_moved": ("The weights move with the words: without position attention is equivariant, it does "
                               "not see order."),
        "pexp_shuffle_mask": "The weights change: the causal mask already carries order, each word sees only those before it.",
        "pexp_shuffle_position": "The weights change: the position ({kind}) gives each word its place.",
        "pexp_pick": "Pick a word other than the two swapped to see its numbers.",
        "pexp_shift_heading": "Experiment: shift the sentence",
        "pexp_shift_button": "Shift by +{k}",
        "pexp_shift_numbers": ("Position {kind}: “{word}” gives {p} to “{top}” at offset {o}, and {q} at offset {o2}; "
                               "its weight that changes most changes by {d} points."),
        "pexp_shift_still": ("The bars do not move: {kind} knows only the distances between words, which is why "
                             "relative methods carry over to longer texts."),
        "pexp_shift_none": "The bars do not move: without position no number depends on the place.",
        "pexp_shift_moved": ("The bars move: sinusoidal positions are absolute, the same sentence later gives other "
                             "weights."),
        "pexp_conv_heading": "Experiment: which pairs of dimensions?",
        "pexp_conv_button": "Permute W_Q's and W_K's columns (0,2,1,3)",
        "pexp_conv_numbers": ("“{word}”: with this page's pairs (0,1),(2,3) the turned q is {q1} and the weights "
                              "{w1}; with pairs (0,2),(1,3) and the same W, the turned q is {q2} and the weights {w2}; "
                              "with (0,2),(1,3) and W_Q's and W_K's columns permuted, the turned q is {q3} and the "
                              "weights {w3}."),
        "pexp_conv_same": ("The two conventions turn different vectors, but with the columns permuted they give the "
                           "same weights: that is the difference between Meta's RoPE and Hugging Face's. The button "
                           "permutes this head's W: the page's weights become those of the other convention."),
    },
}


def nouns(tokens):
    """(a, b): the first and the last word whose card is mostly alive or thing (the shuffle's pair),
    else the first and the last word."""
    found = [j for j, t in enumerate(tokens) if len(t.card) > 2 and max(t.card[0], t.card[2]) >= 0.5]
    return (found[0], found[-1]) if len(found) > 1 else (0, len(tokens) - 1)


def attend_like(record, cards, kind, offset=None, w_q=None, w_k=None, pairs="interleaved"):
    """The active head's record on `cards` under `kind` (and the record's settings)."""
    where = record.position
    spec = None if kind == "none" else attention.Position(kind, where.offset if offset is None else offset,
                                                           where.base, pairs)
    return attention.attend(cards, mask=record.mask, include_self=record.include_self,
                            w_q=record.w_q if w_q is None else w_q, w_k=record.w_k if w_k is None else w_k,
                            w_v=record.w_v, scaled=record.scaled, temperature=record.temperature,
                            slope=position.slope_for(record, kind), qkv=attention_fast.attend_qkv, position=spec)


def button(id_, label, off):
    return f'<button type="button" class="secondary" id="{id_}"{off}>{esc(label)}</button>'


def off_of(ctx):
    return "" if ctx.interactive is True and not ctx.settings.lock else " disabled"


def shuffle_sentence(ctx):
    """The shuffle's sentence: the selected word's weights on the two swapped words, now and swapped."""
    tokens, record, row, lang = ctx.tokens, ctx.record, ctx.row, ctx.lang
    a, b = nouns(tokens)
    if row is None or row.focus in (a, b):
        return text(lang, "pexp_pick")
    kind = record.position.kind
    swapped = attend_like(record, order.swapped([t.card for t in tokens], a, b), kind)
    f = row.focus  # (not a or b: it keeps its place)
    other = swapped.row(f)
    perm = order.permutation(len(tokens), a, b)
    moved = all(abs(other.weights[j] - row.weights[perm[j]]) <= SAME for j in range(row.n))

    def pct(r, j):
        return percent(r.weights[j], lang) if r.candidates[j] else "—"

    said = text(lang, "pexp_shuffle_numbers", word=tokens[f].text, a=tokens[a].text, b=tokens[b].text,
                pa=pct(row, a), pb=pct(row, b), sa=pct(other, b), sb=pct(other, a))
    if moved:
        verdict = text(lang, "pexp_shuffle_moved")
    elif record.mask:
        verdict = text(lang, "pexp_shuffle_mask")
    else:
        verdict = text(lang, "pexp_shuffle_position", kind=text(lang, "pos_kind_" + kind) if kind != "none" else "m")
    return said + " " + verdict


def render_shuffle(ctx):
    tokens, lang = ctx.tokens, ctx.lang
    if not tokens or ctx.record is None or ctx.record.position is None:
        return registry.section("pos-shuffle", "", "pos-experiment", view=False)
    a, b = nouns(tokens)
    inner = (f'<h2>{esc(text(lang, "pexp_shuffle_heading"))}</h2>'
             + button("pos-shuffle", text(lang, "pexp_shuffle_button", a=tokens[a].text, b=tokens[b].text), off_of(ctx))
             + f'<p id="pos-shuffle-result" class="pos-result" role="status">{esc(shuffle_sentence(ctx))}</p>')
    return registry.section("pos-shuffle", inner, "pos-experiment", view=False)


def shift_sentence(ctx):
    tokens, record, row, lang = ctx.tokens, ctx.record, ctx.row, ctx.lang
    if row is None or not row.has_candidates:
        return text(lang, "pick_word")
    kind, o = record.position.kind, record.position.offset
    later = attend_like(record, [t.card for t in tokens], kind, offset=o + SHIFT).row(row.focus)
    top = max((j for j in range(row.n) if row.candidates[j]), key=lambda j: (row.weights[j], -j))
    change = max(abs(x - y) for x, y in zip(row.weights, later.weights))
    name = text(lang, "pos_kind_" + kind)
    said = text(lang, "pexp_shift_numbers", kind=name, word=tokens[row.focus].text, top=tokens[top].text,
                p=percent(row.weights[top], lang), q=percent(later.weights[top], lang), o=o, o2=o + SHIFT,
                d=percent(change, lang)[:-1])
    if change > SAME:
        return said + " " + text(lang, "pexp_shift_moved")
    return said + " " + (text(lang, "pexp_shift_none") if kind == "none" else text(lang, "pexp_shift_still", kind=name))


def render_shift(ctx):
    lang = ctx.lang
    if not ctx.tokens or ctx.record is None or ctx.record.position is None:
        return registry.section("pos-shift", "", "pos-experiment", view=False)
    inner = (f'<h2>{esc(text(lang, "pexp_shift_heading"))}</h2>'
             + button("pos-shift", text(lang, "pexp_shift_button", k=SHIFT), off_of(ctx))
             + f'<p id="pos-shift-result" class="pos-result" role="status">{esc(shift_sentence(ctx))}</p>')
    return registry.section("pos-shift", inner, "pos-experiment", view=False)


def permuted(w):
    return [[row[c] for c in PERMUTATION] for row in w]


def convention_sentence(ctx):
    tokens, record, row, lang = ctx.tokens, ctx.record, ctx.row, ctx.lang
    if row is None:
        return text(lang, "pick_word")
    cards, f = [t.card for t in tokens], row.focus
    runs = [attend_like(record, cards, "rope"),
            attend_like(record, cards, "rope", pairs="half"),
            attend_like(record, cards, "rope", w_q=permuted(record.w_q), w_k=permuted(record.w_k), pairs="half")]

    def weights(r):
        return vec([r.weights[f][j] for j in range(r.n_k) if r.candidates[f][j]], lang)

    said = text(lang, "pexp_conv_numbers", word=tokens[f].text,
                **{f"q{k + 1}": vec(r.queries[f], lang) for k, r in enumerate(runs)},
                **{f"w{k + 1}": weights(r) for k, r in enumerate(runs)})
    return said + " " + text(lang, "pexp_conv_same")


def render_convention(ctx):
    lang = ctx.lang
    if not ctx.tokens or ctx.record is None or ctx.record.position is None:
        return registry.section("pos-convention", "", "pos-experiment", view=False)
    inner = (f'<h2>{esc(text(lang, "pexp_conv_heading"))}</h2>'
             + button("pos-convention", text(lang, "pexp_conv_button"), off_of(ctx))
             + f'<p id="pos-convention-result" class="pos-result" role="status">{esc(convention_sentence(ctx))}</p>')
    return registry.section("pos-convention", inner, "pos-experiment", view=False)


SHUFFLE = registry.add(registry.View(id="pos-shuffle", place=12, explorer=False, draw=render_shuffle,
                                     strings=STRINGS))
SHIFT_VIEW = registry.add(registry.View(id="pos-shift", place=13, explorer=False, draw=render_shift))
CONVENTION = registry.add(registry.View(id="pos-convention", place=14, explorer=False, draw=render_convention))


# -- the buttons (app/page.py's CLICKS) ----------------------------------------------------------

def shuffle(page):
    """Swap the shuffle's two words (their cards travel with them), the selected word kept."""
    tokens = page.lexicon_tokens
    if page.record is None or len(tokens) < 2:
        return
    a, b = nouns(page.tokens)
    settings = page.settings
    sentence = " ".join(order.swapped([t.text for t in tokens], a, b))
    new_tokens, problem = schema.check_sentence(sentence, page.lexicons[settings.lang], settings.limit)
    if new_tokens is None or len(new_tokens) != len(tokens):
        page.set_messages([problem] if problem else [])
        return
    focus = None if settings.focus is None else order.permutation(len(tokens), a, b)[settings.focus]
    cards = tuple(tuple(c) for c in order.swapped([t.card for t in page.tokens], a, b))
    page.render(settings.copy(sentence=sentence, text=sentence, focus=focus, cards=cards), new_tokens, ("sentence",))
    page.region("pos-shuffle").focus()


def shift(page):
    """The offset + SHIFT."""
    page.apply(schema.BY_ATTR["offset"], min(page.settings.offset + SHIFT, int(schema.BY_ATTR["offset"].high)))
    page.region("pos-shift").focus()


def convention(page):
    """The active head's W_Q and W_K with their columns permuted (a second press undoes it)."""
    record = page.record
    if record is None or record.w_q is None:
        return
    settings = page.settings.copy(w_q=tuple(map(tuple, permuted(record.w_q))), w_k=tuple(map(tuple, permuted(record.w_k))))
    page.render(settings, page.lexicon_tokens, ("editor",))
    page.region("pos-convention").focus()
