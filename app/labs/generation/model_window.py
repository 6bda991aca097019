"""What a window costs the model (docs/DESIGN.md, "Generation": `window` in model mode), the last
step of the generation path (app/labs/generation/path.py).

Under a sliding window w (Mistral's) each position sees itself and the w positions before it,
and the cache keeps only those w + 1 rows. The induction head copies the letter that followed
the earlier occurrence of the one just read: when that is farther back than w, it cannot look
there. The view puts the windowed model beside the same checkpoint without a window on the
same letters:

- the positions that can copy (their letter occurred before, and the typed text says what came
  next): how far back the letter to copy is, whether it is in the window, and whether each model
  predicts the letter that follows in the text. Their share right is the "second repeat"
  accuracy: on «a b c d e f g h a b c d e f g h» those are the seven positions of the second
  «a … g», each 7 back from the letter it copies, so that under w = 3 none is in reach;
- with letters written (`generate`), what each model writes;
- the reach of stacked layers: two layers of window w can carry a letter up to 2·w back, hop by
  hop through the positions between, if the model has learnt to pass it on. This one was
  trained without a window (docs/model.md), so it has not: the table shows the price as it is.

The predictions compared are those on the typed letters only: past them the text is the model's
own, and there is nothing to be right or wrong about.
"""

from app import generate, model
from app.i18n import percent, text
from app.views import registry
from app.views.html import esc
from app.views.model import quote

MODEL = ("model",)
MAX_WINDOW = 62  # the model reads 63 positions (n_ctx 64, its start token first): beyond, no window

STRINGS = {
    "it": {
        "mw_heading": "Il prezzo della finestra",
        "mw_intro": ("Con una finestra scorrevole w (come in Mistral) ogni posizione guarda solo se stessa e le w "
                     "posizioni prima: la cache tiene w + 1 righe per strato e testa, qualunque sia la lunghezza. "
                     "Il modello qui sotto è lo stesso di prima, con la finestra applicata; accanto, senza."),
        "mw_label": "Finestra w (vuoto: nessuna)",
        "mw_none": "Nessuna finestra: scrivi un numero, per esempio 3, e guarda cosa cambia.",
        "mw_summary": ("Dove si può copiare ({total} posizioni): senza finestra il modello prevede giusto {full} "
                       "({full_pct}); con la finestra w = {w}: {win} ({win_pct})."),
        "mw_summary_full": "Dove si può copiare ({total} posizioni) il modello senza finestra prevede giusto {full} ({full_pct}).",
        "mw_no_copy": ("Nessuna lettera qui si ripete prima della fine: scrivi una sequenza ripetuta, come "
                       "«a b c d e f g h a b c d e f g h»."),
        "mw_caption": "Le posizioni che possono copiare: quanto è lontana la lettera da copiare, e le due previsioni",
        "mw_col_position": "posizione",
        "mw_col_letter": "lettera",
        "mw_col_copy": "da copiare",
        "mw_col_distance": "distanza",
        "mw_col_reach": "nella finestra?",
        "mw_col_full": "senza finestra",
        "mw_col_window": "finestra w = {w}",
        "mw_yes": "sì",
        "mw_no": "no",
        "mw_right": "{letter} ✓",
        "mw_wrong": "{letter} ✗",
        "mw_written": "Senza finestra il modello scrive {full}; con la finestra w = {w} scrive {win}.",
        "mw_reach": ("Due strati allargano la portata: lo strato 1 porta in ogni posizione qualcosa delle w "
                     "precedenti, lo strato 2 legge quelle posizioni, così l'informazione può arrivare da "
                     "{L} · w = {reach} posizioni prima (Mistral 7B: 32 strati × 4.096 = circa 131.000 token). Ma "
                     "passa di mano in mano, e il modello deve aver imparato a passarla: questo è stato addestrato "
                     "senza finestra, e non l'ha imparato. Il prezzo è questo, in cambio di una cache che non cresce."),
        "mw_cache": "La cache: {rows} righe per strato e testa invece di {all}.",
    },
    "en": {
        "mw_heading": "The window's price",
        "mw_intro": ("With a sliding window w (as in Mistral) each position looks only at itself and the w positions "
                     "before it: the cache keeps w + 1 rows a layer and head, however long the text. The model below "
                     "is the same as before with the window applied; beside it, without."),
        "mw_label": "Window w (empty: none)",
        "mw_none": "No window: type a number, 3 for instance, and see what changes.",
        "mw_summary": ("Where copying is possible ({total} positions): without a window the model predicts {full} "
                       "right ({full_pct}); with the window w = {w}: {win} ({win_pct})."),
        "mw_summary_full": "Where copying is possible ({total} positions) the model without a window predicts {full} right ({full_pct}).",
        "mw_no_copy": ("No letter here repeats before the end: type a repeated sequence, such as "
                       "“a b c d e f g h a b c d e f g h”."),
        "mw_caption": "The positions that can copy: how far back the letter to copy is, and the two predictions",
        "mw_col_position": "position",
        "mw_col_letter": "letter",
        "mw_col_copy": "to copy",
        "mw_col_distance": "distance",
        "mw_col_reach": "in the window?",
        "mw_col_full": "no window",
        "mw_col_window": "window w = {w}",
        "mw_yes": "yes",
        "mw_no": "no",
        "mw_right": "{letter} ✓",
        "mw_wrong": "{letter} ✗",
        "mw_written": "Without a window the model writes {full}; with the window w = {w} it writes {win}.",
        "mw_reach": ("Two layers widen the reach: layer 1 brings into each position something of the w before it, "
                     "layer 2 reads those positions, so information can come from {L} · w = {reach} positions back "
                     "(Mistral 7B: 32 layers × 4,096 = about 131,000 tokens). But it travels hand to hand, and the "
                     "model must have learnt to pass it on: this one was trained without a window and has not. That "
                     "is the price, paid for a cache that does not grow."),
        "mw_cache": "The cache: {rows} rows a layer and head instead of {all}.",
    },
}


def copies(record, typed):
    """[(i, k)] for each position i among the `typed` first whose letter occurred before and whose
    next letter was typed too: k is the position after the earlier occurrence (the letter to copy)."""
    out = []
    for i in range(1, typed - 1):
        j = record.earlier(i)
        if j is not None:
            out.append((i, j + 1))
    return out


def score(record, places, typed_tokens):
    """How many of `places` the record's prediction gets right (the next typed letter)."""
    return sum(1 for i, _ in places if record.next[i] == typed_tokens[i + 1])


def full_record(settings):
    """The same model (the variant chosen too) and checkpoint on the same letters without a window,
    writing as many letters."""
    kv = model.variant(settings.kv_heads)
    if settings.generate:
        return generate.compute(settings.sentence, settings.checkpoint, settings.generate, None, kv)
    return model.compute(settings.sentence, settings.checkpoint, None, kv)


def written_of(record):
    generation = getattr(record, "generation", None)
    return [] if generation is None else list(generation.written)


def render_window(ctx):
    settings, record, lang = ctx.settings, ctx.record, ctx.lang
    t = lambda key, **kw: esc(text(lang, key, **kw))  # noqa: E731
    off = "" if ctx.interactive is True else " disabled"
    w = settings.window
    value = "" if w is None else str(w)
    inner = (f'<h2>{t("mw_heading")}</h2><p>{t("mw_intro")}</p>'
             f'<div class="mw-control"><label for="model-window-w">{t("mw_label")}</label>'
             f'<input type="number" id="model-window-w" name="window" min="0" max="{MAX_WINDOW}" step="1" '
             f'inputmode="numeric" value="{value}"{off}></div>')
    if record is None or not hasattr(record, "model"):
        return registry.section("model-window", inner, "model-window", view=False)
    full = full_record(settings) if w is not None else record
    typed = len(record.tokens) - len(written_of(record))
    places = copies(full, typed)
    tokens = full.tokens
    if not places:
        inner += f'<p class="mw-summary">{t("mw_no_copy")}</p>'
    else:
        right_full = score(full, places, tokens)
        total = len(places)
        if w is None:
            inner += (f'<p class="mw-summary">{t("mw_summary_full", total=total, full=right_full, full_pct=percent(right_full / total, lang, "table"))}</p>'
                      f'<p class="note">{t("mw_none")}</p>')
        else:
            right_win = score(record, places, tokens)
            inner += (f'<p class="mw-summary">{t("mw_summary", total=total, full=right_full, w=w, win=right_win, full_pct=percent(right_full / total, lang, "table"), win_pct=percent(right_win / total, lang, "table"))}</p>')
        inner += table(record, full, places, w, lang)
    if w is not None:
        if settings.generate:
            said = lambda letters: quote(" ".join(letters), lang) if letters else "—"  # noqa: E731
            inner += f'<p class="mw-written">{t("mw_written", w=w, full=said(written_of(full)), win=said(written_of(record)))}</p>'
        layers = len(record.model.layers)
        inner += (f'<p class="mw-cache">{t("mw_cache", rows=min(w + 1, len(record.tokens)), all=len(record.tokens))}</p>'
                  f'<p class="mw-reach">{t("mw_reach", L=layers, reach=layers * w)}</p>')
    return registry.section("model-window", inner, "model-window", view=False)


def table(record, full, places, w, lang):
    t = lambda key, **kw: esc(text(lang, key, **kw))  # noqa: E731
    tokens = full.tokens
    heads = [t("mw_col_position"), t("mw_col_letter"), t("mw_col_copy"), t("mw_col_distance")]
    if w is not None:
        heads.append(t("mw_col_reach"))
    heads.append(t("mw_col_full"))
    if w is not None:
        heads.append(t("mw_col_window", w=w))

    def said(guess, actual):
        return t("mw_right" if guess == actual else "mw_wrong", letter=guess)

    rows = []
    for i, k in places:
        cells = [str(i), esc(tokens[i]), esc(tokens[k]), str(i - k)]
        if w is not None:
            cells.append(t("mw_yes" if k >= record.start(i) else "mw_no"))
        cells.append(said(full.next[i], tokens[i + 1]))
        if w is not None:
            cells.append(said(record.next[i], tokens[i + 1]))
        rows.append(f'<tr><th scope="row">{cells[0]}</th>' + "".join(f"<td>{c}</td>" for c in cells[1:]) + "</tr>")
    head = "".join(f'<th scope="col">{h}</th>' for h in heads)
    caption = t("mw_caption")
    return (f'<div class="table-wrap" role="region" tabindex="0" aria-label="{caption}">'
            f'<table class="steps mw-table"><caption>{caption}</caption><thead><tr>{head}</tr></thead>'
            f'<tbody>{"".join(rows)}</tbody></table></div>')


# (above the induction path and the heads' tables, place 47 and 50: the window's box first on its step)
WINDOW = registry.add(registry.View(id="model-window", place=45, modes=MODEL, explorer=False, draw=render_window,
                                    strings=STRINGS, settings=("window",)))
