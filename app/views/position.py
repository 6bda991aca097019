"""Word order in the steps table (docs/DESIGN.md, "Position"): the line above the table that says
what the position did to the selected word's query, and the columns that show its part of each
key (the PE row added, the key as used). The strings of the position lab, in both languages."""

from app.i18n import short, text
from app.views import registry
from app.views.html import esc
from app.views.query import vec

STRINGS = {
    "it": {
        "pos_steps_sinusoidal": ("Posizione sinusoidale (base {base}): la parola i sta alla posizione p = {offset} + i "
                                 "e alla sua carta si somma la riga PE(p) prima di W_Q, W_K e W_V. «{word}» (p = {p}): "
                                 "PE = {pe}, quindi q = {q}. Qui sotto, per ogni parola, la sua PE e la chiave k "
                                 "= (carta + PE)·W_K usata nel prodotto."),
        "pos_steps_rope": ("RoPE (base {base}, coppie {pairs}): q e k sono girati dopo la proiezione, ogni coppia di "
                           "dimensioni dell'angolo p·θ, con p = {offset} + i. «{word}» (p = {p}): q = {before}, "
                           "girato degli angoli {angles} rad, diventa q = {q}. Qui sotto ogni chiave k è già girata "
                           "del proprio angolo."),
        "pos_steps_alibi": ("ALiBi: da ogni logit si toglie m·|i − j|, con m = {m} per questa testa (le pendenze "
                            "dell'articolo per quattro teste: 1/4, 1/16, 1/64, 1/256)."),
        "col_pe": "PE(p) sommata",
        "col_key": "k usata",
    },
    "en": {
        "pos_steps_sinusoidal": ("Sinusoidal position (base {base}): word i sits at position p = {offset} + i and the "
                                 "row PE(p) is added to its card before W_Q, W_K and W_V. “{word}” (p = {p}): "
                                 "PE = {pe}, so q = {q}. Below, for each word, its PE and the key k "
                                 "= (card + PE)·W_K the product uses."),
        "pos_steps_rope": ("RoPE (base {base}, pairs {pairs}): q and k are turned after the projection, each pair of "
                           "dimensions by the angle p·θ, with p = {offset} + i. “{word}” (p = {p}): q = {before}, "
                           "turned by the angles {angles} rad, becomes q = {q}. Below, each key k is already turned "
                           "by its own angle."),
        "pos_steps_alibi": ("ALiBi: m·|i − j| is taken off every logit, with m = {m} for this head (the paper's "
                            "slopes for four heads: 1/4, 1/16, 1/64, 1/256)."),
        "col_pe": "PE(p) added",
        "col_key": "k used",
    },
}
registry.add_strings(STRINGS)

PAIR_NAMES = {"interleaved": "(0,1),(2,3)", "half": "(0,2),(1,3)"}


def kind_of(record):
    return "none" if record is None or record.position is None else record.position.kind


def columns(record):
    """The steps table's columns after the card that show the position's part: the PE row added and
    the key as used (sinusoidal), the turned key (RoPE); none otherwise (ALiBi has its bias column)."""
    return {"sinusoidal": ("pe", "key"), "rope": ("key",)}.get(kind_of(record), ())


def values(record, j, lang):
    """Word j's numbers in those columns."""
    shown = {"pe": lambda: vec(record.position.encoding[j], lang), "key": lambda: vec(record.keys[j], lang)}
    return [shown[key]() for key in columns(record)]


def steps_line(row, word, lang):
    """The line above the steps table: what the position did to the selected word's numbers
    ("" for none), with the numbers a student checks one row by hand against."""
    record, i = row.record, row.focus
    kind, position = kind_of(record), record.position
    if kind == "none":
        return ""
    common = dict(base=short(position.base, lang), offset=position.offset, word=word, p=position.offset + i,
                  q=vec(row.query, lang))
    if kind == "sinusoidal":
        line = text(lang, "pos_steps_sinusoidal", pe=vec(position.encoding[i], lang), **common)
    elif kind == "rope":
        line = text(lang, "pos_steps_rope", pairs=PAIR_NAMES[position.pairs], before=vec(position.queries[i], lang),
                    angles=vec(position.angles[i], lang), **common)
    else:
        line = text(lang, "pos_steps_alibi", m=short(position.slope, lang, 6))
    return f'<p class="note position-line">{esc(line)}</p>'
