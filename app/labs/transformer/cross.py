"""Translation, where attention began (docs/DESIGN.md, "The whole Transformer"): the `target`
sentence, the translation in the other language read with that language's lexicon, and the
cross-attention of the active head: the target's words ask (queries from their cards through W_Q),
the source's words answer (keys and values from the sentence's cards through W_K and W_V), no
mask, the page's divisor. The state's `cross` = {"source", "target", "weights" n_t × n_s,
"output" n_t × d_v}, null without a target (and outside sentence mode)."""

from app import attention, attention_fast, contract, settings as schema
from app.i18n import percent, text
from app.labs.transformer import TARGETS, other
from app.labs.transformer.views import grid
from app.views import registry
from app.views.html import esc

PAIRS = {  # two example pairs in each direction: (source, target), the source's language first
    "it": (("Il gatto dorme sul divano", "The cat sleeps on the sofa"),
           ("La bambina legge un libro", "The girl reads a book")),
    "en": (("The cat sleeps on the sofa", "Il gatto dorme sul divano"),
           ("The girl reads a book", "La bambina legge un libro")),
}

STRINGS = {
    "it": {
        "cross_heading": "Tradurre: dove l'attention è cominciata",
        "cross_intro": ("Nel 2014 Bahdanau, Cho e Bengio traducevano con una rete che, per scrivere ogni parola "
                        "della traduzione, guardava indietro le parole della frase di partenza: è l'attention. Qui "
                        "le parole della traduzione chiedono (le loro card per W_Q), quelle della frase rispondono "
                        "(le loro card per W_K e W_V)."),
        "cross_label": "La traduzione, in {language}",
        "cross_apply": "Allinea",
        "cross_lang_it": "italiano", "cross_lang_en": "inglese",
        "cross_pairs": "Coppie d'esempio",
        "cross_none": "Scrivi la traduzione della frase qui sopra, o scegli una coppia d'esempio.",
        "cross_caption": "Allineamento della testa «{head}»: righe = parole della traduzione, colonne = parole della frase",
        "cross_corner": "chi chiede ↓ · risponde →",
        "cross_rows": "Per ogni parola della traduzione, la parola della frase che guarda di più:",
        "cross_row": "«{word}» guarda soprattutto «{source}» ({p})",
        "cross_why": ("La traduzione guarda sé stessa con la maschera: si scrive una parola dopo l'altra, e una "
                      "parola non ancora scritta non si può guardare. La cross-attention non ha maschera: la frase "
                      "di partenza è già tutta lì, dall'inizio."),
        "cross_heads": ("Cambia testa: «Simile cerca simile» allinea ogni parola con quella del suo tipo (gatto con "
                        "cat); «Chi fa cosa» manda il verbo della traduzione al soggetto della frase."),
    },
    "en": {
        "cross_heading": "Translating: where attention began",
        "cross_intro": ("In 2014 Bahdanau, Cho and Bengio translated with a network that, to write each word of the "
                        "translation, looked back at the words of the source sentence: that is attention. Here the "
                        "translation's words ask (their cards through W_Q), the sentence's words answer (their "
                        "cards through W_K and W_V)."),
        "cross_label": "The translation, in {language}",
        "cross_apply": "Align",
        "cross_lang_it": "Italian", "cross_lang_en": "English",
        "cross_pairs": "Example pairs",
        "cross_none": "Type the translation of the sentence above, or pick an example pair.",
        "cross_caption": "The “{head}” head's alignment: rows = the translation's words, columns = the sentence's",
        "cross_corner": "who asks ↓ · answers →",
        "cross_rows": "For each word of the translation, the sentence's word it looks at most:",
        "cross_row": "“{word}” looks mostly at “{source}” ({p})",
        "cross_why": ("The translation looks at itself with the mask: it is written one word after another, and a "
                      "word not written yet cannot be looked at. Cross-attention has no mask: the source sentence "
                      "is all there from the start."),
        "cross_heads": ("Change the head: “Like with like” aligns each word with the one of its kind (cat with "
                        "gatto); “Who does what” sends the translation's verb to the sentence's subject."),
    },
}
registry.add_strings(STRINGS)


class Cross:
    __slots__ = ("source", "target", "weights", "output")

    def __init__(self, source, target, weights, output):
        self.source, self.target, self.weights, self.output = source, target, weights, output


def compute(settings, tokens, record):
    """The active head's cross-attention from the target's words to the sentence's, or None."""
    if not settings.target or not tokens or settings.mode != "sentence":
        return None
    target = TARGETS.get((settings.target, other(schema.reading(settings))))
    if target is None:
        return None
    w_q, w_k, w_v = contract.head_matrices(settings, settings.head)
    cards = contract.cards_of(settings, tokens)
    q = attention.matmul([list(t.card) for t in target], w_q)
    k, v = attention.matmul(cards, w_k), attention.matmul(cards, w_v)
    found = attention_fast.attend_qkv(q, k, v, scaled=settings.scaled, temperature=settings.temperature)
    return Cross([t.text for t in tokens], [t.text for t in target], [list(r) for r in found.weights],
                 [list(r) for r in found.outputs])


def field(settings, tokens, record):
    """The state's `cross`: null without a target."""
    cross = None if record is None or not record.parts else record.parts.get("cross")
    if cross is None:
        return None
    return {"source": cross.source, "target": cross.target, "weights": cross.weights, "output": cross.output}


def draw(ctx):
    settings, lang = ctx.settings, ctx.lang
    t = lambda key, **p: esc(text(lang, key, **p))  # noqa: E731
    off = "" if ctx.interactive is True else " disabled"
    to = other(schema.reading(settings))
    value = esc(settings.target or "")
    (s0, g0), (s1, g1) = PAIRS[schema.reading(settings)]
    pairs = (f'<button type="button" class="secondary" id="cross-pair-0"{off}>{esc(s0)} → {esc(g0)}</button>'
             f'<button type="button" class="secondary" id="cross-pair-1"{off}>{esc(s1)} → {esc(g1)}</button>')
    body = (f'<h2>{t("cross_heading")}</h2><p>{t("cross_intro")}</p>'
            f'<div class="cross-form"><label for="target">{t("cross_label", language=text(lang, "cross_lang_" + to))}</label> '
            f'<input type="text" id="target" name="target" lang="{to}" value="{value}" autocomplete="off"{off}> '
            f'<button type="button" id="cross-apply"{off}>{t("cross_apply")}</button></div>'
            f'<div class="cross-pairs" role="group" aria-label="{t("cross_pairs")}">{pairs}</div>')
    cross = ctx.parts.get("cross") if ctx.parts else None
    if cross is None and ctx.record is not None and ctx.record.parts:
        cross = ctx.record.parts.get("cross")
    if cross is None:
        body += f'<p class="prompt">{t("cross_none")}</p>'
    else:
        head = text(lang, "head_name_" + contract.heads.HEADS[settings.head].id)
        body += (grid(cross.weights, cross.target, cross.source, text(lang, "cross_caption", head=head),
                      "cross-table", corner=text(lang, "cross_corner"))
                 + f'<p>{t("cross_rows")}</p><ul class="cross-rows">'
                 + "".join(f'<li>{t("cross_row", word=w, source=cross.source[max(range(len(row)), key=row.__getitem__)], p=percent(max(row), lang, "bar"))}</li>'
                           for w, row in zip(cross.target, cross.weights))
                 + f'</ul><p>{t("cross_heads")}</p>')
    body += f'<p>{t("cross_why")}</p>'
    return registry.section("cross", body, "cross-section")


def pair(page, n):
    """An example pair: the sentence, then its translation, through the page's own path."""
    source, target = PAIRS[schema.reading(page.settings)][n]
    page.apply(schema.BY_ATTR["sentence"], source)
    page.apply(schema.BY_ATTR["target"], target)
    page.region(f"cross-pair-{n}").focus()


def apply_target(page):
    """The Align button: the box's text as the translation (a change event does the same on leaving it)."""
    page.apply(schema.BY_ATTR["target"], str(page.region("target").value))
    page.region("cross-apply").focus()


def pair_0(page):
    pair(page, 0)


def pair_1(page):
    pair(page, 1)


registry.add_record_part("cross", compute)
registry.add(registry.View(id="cross", place=56, explorer=False, settings=("target",), draw=draw))
