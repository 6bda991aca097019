"""FlashAttention's tiles (`flash` = B, app/flash.py): the selected row computed over blocks of B
keys, one line a block with its max, the running max m, the rescale factor α, the running sum l
and the running output o, ending at o/l beside the row's output from the whole matrix.

The student steps through the blocks (`flash_step`: how many lines are reached; none: the first),
so one block's m, α and l can be checked by hand before the next; "All blocks" reaches the last.
A new block size starts again at block 1. The view shows on a step of a
guided path that names it, or wherever a link asks for `flash`; its block size is a field in
the view itself, not among the other settings.
"""

from app import flash, settings as schema
from app.i18n import num, text
from app.views import registry
from app.views.html import Column, esc, table
from app.views.query import vec

STRINGS = {
    "it": {
        "view_flash": "Blocchi",
        "flash_heading": "FlashAttention: la riga di «{word}» a blocchi di chiavi",
        "flash_intro": ("FlashAttention non scrive mai la riga intera dei punteggi: prende le chiavi a blocchi di B "
                        "e per ogni blocco aggiorna ciò che porta con sé. m è il logit più grande visto finora, "
                        "l la somma degli e^(logit − m), o la somma degli e^(logit − m)·v. Quando un blocco porta un "
                        "massimo nuovo, le somme di prima si moltiplicano per α = e^(m vecchio − m nuovo)."),
        "flash_why_max": ("Perché il massimo: ogni esponente è logit − m ≤ 0, quindi ogni e^x sta tra 0 e 1 e non "
                          "trabocca mai, per quanto grandi siano i logit."),
        "flash_why_blocks": ("Perché bastano i blocchi: m, l e o riassumono tutto quello che serve delle chiavi già "
                             "viste, così un blocco si può dimenticare appena usato. In memoria restano un blocco e, "
                             "per ogni riga, due numeri (m e l) e un vettore o lungo quanto v: O(n) invece della "
                             "matrice n × n, O(n²)."),
        "flash_alpha_first": ("Al primo blocco con una chiave candidata α = 0: prima di ogni logit m vale −∞, "
                              "quindi e^(−∞ − m nuovo) = 0; le somme l e o valevano comunque 0."),
        "flash_self_out": ("«{word}» non è tra le chiavi candidate della sua riga: «Includi la parola stessa» è spento, "
                           "quindi la sua chiave non conta nel massimo, in l né in o."),
        "flash_block_label": "Blocco di B chiavi",
        "flash_choose": "Scegli B, quante chiavi per blocco: la tabella si riempie un blocco alla volta.",
        "flash_caption": "La riga di «{word}» calcolata a blocchi di {block}: un blocco per riga della tabella",
        "flash_col_block": "blocco",
        "flash_col_keys": "chiavi",
        "flash_col_max": "max del blocco",
        "flash_col_m": "m",
        "flash_col_alpha": "α",
        "flash_col_l": "l",
        "flash_col_o": "o",
        "flash_no_candidate": "nessuna candidata",
        "flash_end": ("Fine: o/l = {flash}. La matrice intera dà {full}: sono gli stessi numeri, esatti, non "
                      "un'approssimazione (in virgola mobile possono differire solo nelle ultime cifre)."),
        "flash_end_none": "Nessuna chiave candidata: la riga non ha uscita, né intera né a blocchi.",
        "flash_prev": "Blocco precedente",
        "flash_next": "Blocco successivo",
        "flash_all": "Tutti i blocchi",
        "flash_at": "Blocco {k} di {count}: chiavi {keys}. m = {m}, α = {alpha}, l = {l}.",
        "flash_at_all": "Tutti i {count} blocchi.",
        "flash_reached": "Blocchi mostrati: {k} di {count}.",
        "flash_hidden": "ancora da calcolare",
    },
    "en": {
        "view_flash": "Blocks",
        "flash_heading": "FlashAttention: the row of “{word}” in blocks of keys",
        "flash_intro": ("FlashAttention never writes the whole row of scores: it takes the keys in blocks of B and, "
                        "block by block, updates what it carries along. m is the largest logit met so far, "
                        "l the sum of the e^(logit − m), o the sum of the e^(logit − m)·v. When a block brings a new "
                        "maximum, the earlier sums are multiplied by α = e^(old m − new m)."),
        "flash_why_max": ("Why the maximum: every exponent is logit − m ≤ 0, so every e^x lies between 0 and 1 and "
                          "never overflows, however large the logits."),
        "flash_why_blocks": ("Why blocks are enough: m, l and o sum up all that is needed of the keys already met, so "
                             "a block can be forgotten as soon as it is used. What stays in memory is one block and, "
                             "for each row, two numbers (m and l) and a vector o as long as v: O(n) instead of the "
                             "n × n matrix, O(n²)."),
        "flash_alpha_first": ("At the first block with a candidate key α = 0: before any logit m is −∞, and "
                              "e^(−∞ − new m) = 0; the sums l and o were 0 anyway."),
        "flash_self_out": ("“{word}” is not among its row's candidate keys: “Include the word itself” is off, so its "
                           "own key counts in no maximum, l or o."),
        "flash_block_label": "Block of B keys",
        "flash_choose": "Choose B, how many keys a block: the table fills one block at a time.",
        "flash_caption": "The row of “{word}” computed in blocks of {block}: one block a table row",
        "flash_col_block": "block",
        "flash_col_keys": "keys",
        "flash_col_max": "block's max",
        "flash_col_m": "m",
        "flash_col_alpha": "α",
        "flash_col_l": "l",
        "flash_col_o": "o",
        "flash_no_candidate": "no candidate",
        "flash_end": ("End: o/l = {flash}. The whole matrix gives {full}: the same numbers, exact, not an "
                      "approximation (in floating point they may differ in the last digits only)."),
        "flash_end_none": "No candidate key: the row has no output, whole or in blocks.",
        "flash_prev": "Previous block",
        "flash_next": "Next block",
        "flash_all": "All blocks",
        "flash_at": "Block {k} of {count}: keys {keys}. m = {m}, α = {alpha}, l = {l}.",
        "flash_at_all": "All {count} blocks.",
        "flash_reached": "Blocks shown: {k} of {count}.",
        "flash_hidden": "not computed yet",
    },
}


def settings_of(record):
    """(block size or None, blocks reached or None, shown on a step naming the view)."""
    return (record.parts or {}).get("flash") or (None, None, False)


def key_names(row, tokens, lang):
    """The keys' names: the words (matrix mode: k1, k2, …)."""
    if len(tokens) < row.n:
        return [text(lang, "mm_col", j=j + 1) for j in range(row.n)]
    return [t.text for t in tokens[:row.n]]


def reached(computed, step):
    """How many blocks the table shows: `step` (none: the first), within 1…the number of blocks."""
    return max(1, min(step or 1, len(computed["steps"])))


def announcement(computed, k, names, lang):
    """What the live region says of block k (1-based) reached, with the numbers to check."""
    step = computed["steps"][k - 1]
    start, end = step["keys"]
    missing = text(lang, "flash_no_candidate")
    say = lambda x: missing if x is None else num(x, lang)  # noqa: E731
    return text(lang, "flash_at", k=k, count=len(computed["steps"]), keys=", ".join(names[start:end]),
                m=say(step["m"]), alpha=say(step["alpha"]), l=num(step["l"], lang))


def render_flash(row, tokens, lang, word=None):
    """The view's part that follows the selected row: its block field, the text, the table."""
    block, step, on_step = settings_of(row.record)
    if block is None and not on_step:
        return ""
    word = word or tokens[row.focus].text
    t = lambda key, **p: esc(text(lang, key, **p))  # noqa: E731
    field = (f'<p class="flash-field"><label for="flash-block">{t("flash_block_label")}</label> '
             f'<input id="flash-block" name="flash" type="number" inputmode="numeric" min="1" '
             f'max="{flash.MAX_BLOCK}" step="1" value="{"" if block is None else block}"></p>')
    # The first block that meets a candidate has α = 0 (m starts at −∞); a row whose own word is no
    # candidate ("Include the word itself" off) says why its key is in no sum.
    self_out = (f'<p class="flash-self">{t("flash_self_out", word=word)}</p>'
                if row.focus < row.n and row.status(row.focus) == "query" else "")
    head = (f'<h2>{t("flash_heading", word=word)}</h2><p>{t("flash_intro")}</p>'
            f'<p>{t("flash_why_max")}</p><p>{t("flash_why_blocks")}</p>'
            f'<p class="flash-alpha">{t("flash_alpha_first")}</p>' + self_out + field)
    if block is None:
        return head + f'<p class="note">{t("flash_choose")}</p>'
    computed = flash.of_row(row, block)
    names = key_names(row, tokens, lang)
    count = len(computed["steps"])
    k = reached(computed, step)
    missing = text(lang, "flash_no_candidate")
    hidden = text(lang, "flash_hidden")
    say = lambda x: missing if x is None else num(x, lang)  # noqa: E731
    columns = [Column("block", t("flash_col_block")), Column("keys", t("flash_col_keys")),
               Column("max", t("flash_col_max")), Column("m", t("flash_col_m")),
               Column("alpha", t("flash_col_alpha")), Column("l", t("flash_col_l")), Column("o", t("flash_col_o"))]
    rows = []
    for b, s in enumerate(computed["steps"], 1):
        start, end = s["keys"]
        keys = esc(", ".join(names[start:end]))
        if b > k:
            rows.append((str(b), [keys] + [esc(hidden)] + [""] * 4, {"class_": "flash-later", "data_block": b}))
            continue
        rows.append((str(b), [keys, esc(say(s["block_max"])), esc(say(s["m"])), esc(say(s["alpha"])),
                              esc(num(s["l"], lang)), esc(vec(s["o"], lang))], {"data_block": b}))
    caption = t("flash_caption", word=word, block=block)
    grid = (f'<div class="table-wrap" role="region" tabindex="0" aria-label="{caption}">'
            + table(columns, rows, caption, class_="flash-table") + "</div>")
    buttons = (f'<p class="flash-steps" role="group" aria-label="{t("flash_reached", k=k, count=count)}">'
               f'<button type="button" id="flash-prev"{" disabled" if k <= 1 else ""}>{t("flash_prev")}</button> '
               f'<button type="button" id="flash-next"{" disabled" if k >= count else ""}>{t("flash_next")}</button> '
               f'<button type="button" id="flash-all"{" disabled" if k >= count else ""}>{t("flash_all")}</button> '
               f'<span class="flash-reached">{t("flash_reached", k=k, count=count)}</span></p>')
    if k < count:
        end = ""
    elif computed["output"] is None:
        end = f'<p class="flash-end">{t("flash_end_none")}</p>'
    else:
        end = (f'<p class="flash-end">{t("flash_end", flash=vec(computed["output"], lang), full=vec(row.output, lang))}'
               "</p>")
    return head + buttons + grid + end


def step_to(page, k, pressed="flash-all"):
    """The block buttons: the table reaches block k (None: the last, every block), the focus stays on
    the button `pressed` while it still works (else on its neighbour that does), and the live region
    says the block's numbers."""
    row, lang = page.row, page.settings.lang
    if row is None or page.settings.flash is None:
        return
    computed = flash.of_row(row, page.settings.flash)
    count = len(computed["steps"])
    page.apply(schema.BY_ATTR["flash_step"], count if k is None else k)
    reached_now = reached(computed, count if k is None else k)
    names = key_names(row, page.tokens, lang)
    said = text(lang, "flash_at_all", count=count) if k is None else announcement(computed, reached_now, names, lang)
    page.region("announce").textContent = said
    works = {"flash-prev": reached_now > 1, "flash-next": reached_now < count, "flash-all": reached_now < count}
    target = pressed if works[pressed] else next((b for b in ("flash-prev", "flash-next") if works[b]), "flash-block")
    page.region(target).focus()


def previous_block(page):
    """One block back (not before the first)."""
    block = page.settings.flash
    if block is not None and page.row is not None:
        step_to(page, max(1, reached(flash.of_row(page.row, block), page.settings.flash_step) - 1), "flash-prev")


def next_block(page):
    """One block on (not past the last)."""
    block = page.settings.flash
    if block is not None and page.row is not None:
        computed = flash.of_row(page.row, block)
        step_to(page, min(len(computed["steps"]), reached(computed, page.settings.flash_step) + 1), "flash-next")


def render_section(ctx):
    """The whole section: the row part when the view is wanted, else an empty, untabbed section."""
    block, _, on_step = settings_of(ctx.record) if ctx.record is not None else (None, None, False)
    if block is None and not on_step:
        return registry.section("flash", "", "flash-section", view=False)
    return registry.section("flash", ctx.part("flash"), "flash-section")


def flash_of(settings, tokens=None, record=None):
    """What the view reads of the settings (`record.parts["flash"]`): the block size, the blocks
    reached, and whether a path's step shows the view."""
    return settings.flash, settings.flash_step, registry.step_shows(settings, "flash")


def light(settings, attr, value):
    """The block size or the block reached changed while the table is on screen (a block size before
    and after): the record stays, the table alone is drawn again."""
    return attr in ("flash", "flash_step") and None not in (settings.flash, value if attr == "flash" else settings.flash)


registry.add_record_part("flash", flash_of, "flash")


VIEW = registry.add(registry.View(id="flash", place=42, modes=("sentence", "matrix"), tab=True, row=render_flash,
                                  draw=render_section, strings=STRINGS, settings=("flash", "flash_step"), light=light))


def all_blocks(page):
    """Every block at once (the table whole): `flash_step` the number of blocks, so the address
    keeps it."""
    step_to(page, None)
