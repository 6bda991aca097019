"""The position lab's three experiments, each a button and what it shows, written from the page's own
numbers as a row part (a word click writes them again for the word selected):

- shuffle: swap two nouns with different cards (`nouns`); without position (and without the mask)
  each weight moves with its word, attention is equivariant; with a position, or the causal mask,
  it does not;
- shift: the offset + SHIFT, as if the sentence sat later in a longer text; RoPE's and ALiBi's
  weights do not move, sinusoidal's do;
- convention: the pairs RoPE turns on the page (the `pairs` setting, its two radios), and a small
  table: the turned q and the weights under (0,1),(2,3), under (0,2),(1,3), and under (0,2),(1,3)
  with W_Q's and W_K's columns permuted (0,2,1,3), which gives the first's weights again. The button
  permutes the active head's.

The buttons' actions (`shuffle`, `shift`, `convention`) are app/page.py's CLICKS."""

from app import attention, attention_fast, order, settings as schema
from app.i18n import percent, text
from app.labs.position import controls as position
from app.views import registry
from app.views.html import Cell, Column, esc, table
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
        "pexp_shuffle_alike": ("«{a}» e «{b}» hanno la stessa carta: lo scambio non sposta nessun peso che si "
                               "veda. Scrivi una frase con due parole diverse, come «il bambino legge il libro»."),
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
        "pexp_conv_legend": "Le coppie che RoPE gira su questa pagina",
        "pexp_conv_interleaved": "(0,1),(2,3), come Meta",
        "pexp_conv_half": "(0,2),(1,3), come rotate_half di Hugging Face",
        "pexp_conv_caption": "«{word}» con ciascuna convenzione: q girato e i pesi",
        "pexp_conv_col_a": "(0,1),(2,3)",
        "pexp_conv_col_b": "(0,2),(1,3)",
        "pexp_conv_col_c": "(0,2),(1,3) con W permutate",
        "pexp_conv_here": "su questa pagina",
        "pexp_conv_q": "q girato",
        "pexp_conv_same": ("Le due convenzioni girano vettori diversi: con le stesse W danno pesi diversi, ma con le "
                           "colonne di W_Q e W_K permutate (0,2,1,3) danno gli stessi pesi. È la differenza tra la RoPE "
                           "di Meta e quella di Hugging Face. Il pulsante permuta le W di questa testa: la pagina dà "
                           "allora i pesi che l'altra convenzione dava con le W di prima."),
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
        "pexp_shuffle_alike": ("“{a}” and “{b}” have the same card: the swap moves no weight one can see. Type a "
                               "sentence with two different words, such as “the child reads the book”."),
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
        "pexp_conv_legend": "The pairs RoPE turns on this page",
        "pexp_conv_interleaved": "(0,1),(2,3), as Meta's",
        "pexp_conv_half": "(0,2),(1,3), as Hugging Face's rotate_half",
        "pexp_conv_caption": "“{word}” under each convention: the turned q and the weights",
        "pexp_conv_col_a": "(0,1),(2,3)",
        "pexp_conv_col_b": "(0,2),(1,3)",
        "pexp_conv_col_c": "(0,2),(1,3) with W permuted",
        "pexp_conv_here": "on this page",
        "pexp_conv_q": "turned q",
        "pexp_conv_same": ("The two conventions turn different vectors: with the same W they give other weights, but "
                           "with W_Q's and W_K's columns permuted (0,2,1,3) they give the same weights. That is the "
                           "difference between Meta's RoPE and Hugging Face's. The button permutes this head's W: the "
                           "page then gives the weights the other convention gave with the W as they were."),
    },
}


def nouns(tokens):
    """(a, b): the shuffle's pair. The first word whose card is mostly alive or thing, and the last
    such word whose card differs from it (two equal cards swapped move no weight one can see); the
    last such word when every one has the same card; else the first and the last word."""
    found = [j for j, t in enumerate(tokens) if len(t.card) > 2 and max(t.card[0], t.card[2]) >= 0.5]
    if len(found) < 2:
        return 0, len(tokens) - 1
    a = found[0]
    other = [j for j in found[1:] if list(tokens[j].card) != list(tokens[a].card)]
    return a, (other or found)[-1]


def attend_like(record, cards, kind, offset=None, w_q=None, w_k=None, pairs=None, slope=None):
    """The active head's record on `cards` under `kind` (and the record's settings; `pairs` and
    `slope` in place of the record's RoPE pairs and the kind's slope when given)."""
    where = record.position
    spec = None if kind == "none" else attention.Position(kind, where.offset if offset is None else offset,
                                                           where.base, where.pairs if pairs is None else pairs)
    return attention.attend(cards, mask=record.mask, include_self=record.include_self,
                            w_q=record.w_q if w_q is None else w_q, w_k=record.w_k if w_k is None else w_k,
                            w_v=record.w_v, scaled=record.scaled, temperature=record.temperature,
                            slope=position.slope_for(record, kind) if slope is None else slope,
                            qkv=attention_fast.attend_qkv, position=spec)


def button(id_, label, off):
    return f'<button type="button" class="secondary" id="{id_}"{off}>{esc(label)}</button>'


def off_of(ctx):
    return "" if ctx.interactive is True and not ctx.settings.lock else " disabled"


def shuffle_sentence(row, tokens, lang, word=None):
    """The shuffle's sentence (its row part): the selected word's weights on the two swapped words,
    now and swapped."""
    record = row.record
    if not position.lab_on(record):
        return ""
    a, b = nouns(tokens)
    if row.focus in (a, b):
        return esc(text(lang, "pexp_pick"))
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
    if list(tokens[a].card) == list(tokens[b].card):
        said += " " + text(lang, "pexp_shuffle_alike", a=tokens[a].text, b=tokens[b].text)
    if moved:
        verdict = text(lang, "pexp_shuffle_moved")
    elif record.mask:
        verdict = text(lang, "pexp_shuffle_mask")
    else:
        verdict = text(lang, "pexp_shuffle_position", kind=text(lang, "pos_kind_" + kind) if kind != "none" else "m")
    return esc(said + " " + verdict)


def result(ctx, view_id):
    """An experiment's sentence: its row part, or, with no word selected, the prompt to pick one."""
    return (f'<p id="{view_id}-result" class="pos-result" role="status">'
            f'{ctx.part(view_id) or esc(text(ctx.lang, "pick_word"))}</p>')


def render_shuffle(ctx):
    tokens, lang = ctx.tokens, ctx.lang
    if not tokens or ctx.record is None or ctx.record.position is None:
        return registry.section("pos-shuffle", "", "pos-experiment", view=False)
    a, b = nouns(tokens)
    inner = (f'<h2>{esc(text(lang, "pexp_shuffle_heading"))}</h2>'
             + button("pos-shuffle", text(lang, "pexp_shuffle_button", a=tokens[a].text, b=tokens[b].text), off_of(ctx))
             + result(ctx, "pos-shuffle"))
    return registry.section("pos-shuffle", inner, "pos-experiment", view=False)


def shift_sentence(row, tokens, lang, word=None):
    """The shift's sentence (its row part): the top word's weight at this offset and SHIFT later."""
    record = row.record
    if not position.lab_on(record):
        return ""
    if not row.has_candidates:
        return esc(text(lang, "pick_word"))
    kind, o = record.position.kind, record.position.offset
    later = attend_like(record, [t.card for t in tokens], kind, offset=o + SHIFT).row(row.focus)
    top = max((j for j in range(row.n) if row.candidates[j]), key=lambda j: (row.weights[j], -j))
    change = max(abs(x - y) for x, y in zip(row.weights, later.weights))
    name = text(lang, "pos_kind_" + kind)
    said = text(lang, "pexp_shift_numbers", kind=name, word=tokens[row.focus].text, top=tokens[top].text,
                p=percent(row.weights[top], lang), q=percent(later.weights[top], lang), o=o, o2=o + SHIFT,
                d=percent(change, lang)[:-1])
    if change > SAME:
        return esc(said + " " + text(lang, "pexp_shift_moved"))
    return esc(said + " " + (text(lang, "pexp_shift_none") if kind == "none"
                             else text(lang, "pexp_shift_still", kind=name)))


def render_shift(ctx):
    lang = ctx.lang
    if not ctx.tokens or ctx.record is None or ctx.record.position is None:
        return registry.section("pos-shift", "", "pos-experiment", view=False)
    inner = (f'<h2>{esc(text(lang, "pexp_shift_heading"))}</h2>'
             + button("pos-shift", text(lang, "pexp_shift_button", k=SHIFT), off_of(ctx))
             + result(ctx, "pos-shift"))
    return registry.section("pos-shift", inner, "pos-experiment", view=False)


def permuted(w):
    return [[row[c] for c in PERMUTATION] for row in w]


CONVENTIONS = ("a", "b", "c")  # (0,1),(2,3) with W; (0,2),(1,3) with W; (0,2),(1,3) with W's columns permuted


def convention_runs(record, cards):
    """The active head's three records of the comparison, in CONVENTIONS' order (made once a record)."""
    return position.kept(record, "conventions", lambda: (
        attend_like(record, cards, "rope", pairs="interleaved"),
        attend_like(record, cards, "rope", pairs="half"),
        attend_like(record, cards, "rope", w_q=permuted(record.w_q), w_k=permuted(record.w_k), pairs="half")))


def convention_table(row, tokens, lang, word=None):
    """The comparison (its row part) as a small table: a column a convention (the page's own
    marked), the turned q in its first row, then the selected word's weight on each word it looks
    at; and the sentence that says what the table shows."""
    record = row.record
    if not position.lab_on(record):
        return ""
    f = row.focus
    runs = convention_runs(record, [t.card for t in tokens])
    here = CONVENTIONS[0 if record.position.pairs == "interleaved" else 1]
    t = lambda key, **p: esc(text(lang, key, **p))  # noqa: E731

    def header(c):
        mark = f'<br><span class="conv-mark">{t("pexp_conv_here")}</span>' if c == here else ""
        return t("pexp_conv_col_" + c) + mark

    columns = [Column("word", t("col_word"))] + [Column(c, header(c)) for c in CONVENTIONS]
    turned = [(t("pexp_conv_q"), [Cell(esc(vec(r.queries[f], lang)), class_="conv-q") for r in runs], {})]
    weights = [(esc(tokens[j].text), [Cell(esc(percent(r.weights[f][j], lang, "table")),
                                           class_="conv-here" if c == here else None)
                                      for c, r in zip(CONVENTIONS, runs)], {"data_index": j})
               for j in range(runs[0].n_k) if runs[0].candidates[f][j]]
    caption = t("pexp_conv_caption", word=tokens[f].text)
    return (f'<div class="table-wrap" role="region" tabindex="0" aria-label="{caption}">'
            + table(columns, turned + weights, caption, class_="conv-table") + "</div>"
            + f'<p id="pos-convention-result" class="pos-result">{t("pexp_conv_same")}</p>')


def render_convention(ctx):
    lang = ctx.lang
    if not ctx.tokens or ctx.record is None or ctx.record.position is None:
        return registry.section("pos-convention", "", "pos-experiment", view=False)
    off, pairs = off_of(ctx), ctx.record.position.pairs
    choices = "".join(f'<label class="mode-choice"><input type="radio" name="pairs" value="{p}"'
                      f'{" checked" if p == pairs else ""}{off}> {esc(text(lang, "pexp_conv_" + p))}</label>'
                      for p in attention.PAIRINGS)
    inner = (f'<h2>{esc(text(lang, "pexp_conv_heading"))}</h2>'
             f'<fieldset class="position-kinds"><legend>{esc(text(lang, "pexp_conv_legend"))}</legend>{choices}</fieldset>'
             + button("pos-convention", text(lang, "pexp_conv_button"), off)
             + f'<div id="pos-convention-row">{ctx.part("pos-convention") or esc(text(lang, "pick_word"))}</div>')
    return registry.section("pos-convention", inner, "pos-experiment", view=False)


SHUFFLE = registry.add(registry.View(id="pos-shuffle", place=12, explorer=False, draw=render_shuffle,
                                     row=shuffle_sentence, part="pos-shuffle-result", strings=STRINGS))
SHIFT_VIEW = registry.add(registry.View(id="pos-shift", place=13, explorer=False, draw=render_shift,
                                        row=shift_sentence, part="pos-shift-result"))
CONVENTION = registry.add(registry.View(id="pos-convention", place=14, explorer=False, draw=render_convention,
                                        row=convention_table, part="pos-convention-row", settings=("pairs",)))


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
