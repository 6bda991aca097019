"""Word order in the steps table (docs/DESIGN.md, "Position"): the line above the table that says
what the position did to the selected word's query, and the columns that show its part of each
key (the PE row added, the key as used). The strings of the position lab, in both languages."""

from app import attention, attention_fast
from app.i18n import short, text
from app.views import registry
from app.views.html import esc
from app.views.query import vec

LAB = "position"  # the lab's guided path (app/labs/position/path.py)
KINDS = attention.POSITION_KINDS

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
        "pos_kind_legend": "Posizione delle parole",
        "pos_kind_none": "nessuna",
        "pos_kind_sinusoidal": "sinusoidale",
        "pos_kind_rope": "RoPE",
        "pos_kind_alibi": "ALiBi",
        "pos_offset_label": "Scostamento (la frase inizia alla posizione)",
        "pos_base_label": "Base delle frequenze",
        "pos_controls_hint": "Le barre, la tabella e la matrice usano la posizione scelta qui.",
        "pos_lab_off": "Scegli una parola per vedere i suoi numeri.",
        "query_line_sinusoidal": "q = (x + PE(p)) · W_Q = {vector}",
        "query_line_rope": "q = x · W_Q girato di p·θ = {vector}",
        "pos_number_bad": "«{value}» non va bene qui: serve un numero da {low} a {high}. I numeri restano quelli di prima.",
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
        "pos_kind_legend": "Word positions",
        "pos_kind_none": "none",
        "pos_kind_sinusoidal": "sinusoidal",
        "pos_kind_rope": "RoPE",
        "pos_kind_alibi": "ALiBi",
        "pos_offset_label": "Offset (the sentence starts at position)",
        "pos_base_label": "Frequency base",
        "pos_controls_hint": "The bars, the table and the matrix use the position chosen here.",
        "pos_lab_off": "Pick a word to see its numbers.",
        "query_line_sinusoidal": "q = (x + PE(p)) · W_Q = {vector}",
        "query_line_rope": "q = x · W_Q turned by p·θ = {vector}",
        "pos_number_bad": "“{value}” does not fit here: a number from {low} to {high} is needed. The numbers stay as they were.",
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
        line = text(lang, "pos_steps_alibi", m=short(position.slope, lang, "full"))
    return f'<p class="note position-line">{esc(line)}</p>'


STEPS_PART = registry.add_steps_part(registry.StepsPart(columns=columns, values=values, line=steps_line))


def on_its_path(settings, tokens=None, record=None):
    """Whether a step of the lab's own path is on screen (`record.parts["position_lab"]`)."""
    return settings.path == LAB and settings.step is not None


registry.add_record_part("position_lab", on_its_path)
# The runs a view of the lab makes for this record (the convention's three, ALiBi's slopes), kept with
# it: a word click reads other rows of the same runs.
registry.add_record_part("position_runs", lambda settings, tokens=None, record=None: {})


def kept(record, key, make):
    """`make()`, made once for the record under `key` (`record.parts["position_runs"]`)."""
    runs = (record.parts or {}).get("position_runs")
    if runs is None:
        return make()
    if key not in runs:
        runs[key] = make()
    return runs[key]


def lab_on(record):
    """Whether the lab's views are on screen (a step of its path): they compute only then, so a
    word click in the explorer costs what it did."""
    return record is not None and bool((record.parts or {}).get("position_lab"))


def active_head(record):
    return record.head_records.index(record) if record.head_records else 0


def slope_for(record, kind):
    """The active head's distance slope under `kind` (app/contract.py's head_slope)."""
    position = record.position
    if kind != "alibi" or position.hand > 0:
        return position.hand
    return attention.alibi_slopes(4)[active_head(record)]


# The last records `run` made, by everything they are computed from: a change of one setting leaves
# the other kinds' attention as it was (an offset moves neither none's nor ALiBi's, a new kind none of
# the others'), so the comparison computes again only what the change moved.
RUNS = {}
RUNS_KEPT = 8


def run(record, tokens, kind):
    """The active head's attention under `kind` on the same cards and settings (the record itself
    when it is its kind): what the page shows once the student chooses that kind."""
    position = record.position
    if kind == position.kind:
        return record
    cards = [t.card for t in tokens]
    slope = slope_for(record, kind)
    key = (kind, position.offset, position.base, position.pairs, slope, record.mask, record.include_self, record.scaled,
           record.temperature, *(tuple(map(tuple, rows)) for rows in (record.w_q, record.w_k, record.w_v, cards)))
    done = RUNS.get(key)
    if done is None:
        done = attention.attend(cards, mask=record.mask, include_self=record.include_self,
                                w_q=record.w_q, w_k=record.w_k, w_v=record.w_v, scaled=record.scaled,
                                temperature=record.temperature, slope=slope, qkv=attention_fast.attend_qkv,
                                position=None if kind == "none" else attention.Position(
                                    kind, position.offset, position.base, position.pairs))
        while len(RUNS) >= RUNS_KEPT:  # (the oldest goes)
            del RUNS[next(iter(RUNS))]
        RUNS[key] = done
    return done


def render_controls(ctx):
    """The lab's own controls: the kind (four radio buttons), the offset and the base, each named
    after its setting (app/settings.py), so a change recomputes as a link would."""
    settings, lang = ctx.settings, ctx.lang
    off = "" if ctx.interactive is True and not settings.lock else " disabled"
    t = lambda key: esc(text(lang, key))  # noqa: E731
    kinds = "".join(f'<label class="mode-choice"><input type="radio" name="position" value="{k}"'
                    f'{" checked" if k == settings.position else ""}{off}> {t("pos_kind_" + k)}</label>'
                    for k in KINDS)
    return registry.section("position-controls", (
        f'<fieldset class="position-kinds"><legend>{t("pos_kind_legend")}</legend>{kinds}</fieldset>'
        '<div class="position-numbers">'
        f'<label for="offset">{t("pos_offset_label")}</label>'
        f'<input type="number" id="offset" name="offset" min="0" max="10000" step="1" value="{settings.offset}"{off}>'
        f'<label for="base">{t("pos_base_label")}</label>'
        f'<input type="number" id="base" name="base" min="2" max="1000000" step="any" '
        f'value="{short(settings.base, "en", "full")}"{off}></div>'
        f'<p class="note">{t("pos_controls_hint")}</p>'), "position-controls-section", view=False)


CONTROLS = registry.add(registry.View(id="position-controls", place=11, explorer=False, draw=render_controls,
                                      settings=("position", "offset", "base")))
