"""The glossary: one short definition per term, in both languages, each with a link to the step
of a guided path that shows it.

A term's first use on a step (its text, then what to try, then the answer, in that order) links to
its entry (`link`), and the entries sit under the step (app/views/path.py). The core's terms are
here; a lab adds its own from one of its modules (`add`), so the glossary lists the terms of the
core and of the labs that are here (a lab's step has its lab here).

Matching is by whole word, ignoring case, on each language's forms of the term, longest first (so
«testa di induzione» is one term, not «testa»). A definition is written for a student who has not met
the word: what it is, in a sentence or two, without another term it does not explain.
"""

import dataclasses
import functools
import re

from app.views.html import esc


@dataclasses.dataclass(frozen=True)
class Term:
    id: str  # its entry's anchor: #term-<id>
    words: dict  # {"it": (its headword, other forms…), "en": (…)}: the forms that link to it
    text: dict  # {"it": its definition, "en": …}
    where: tuple = ()  # (path id, step number): the step that shows it, the core's or its own lab's


TERMS = {}


def add(*terms):
    """Add terms to the glossary (an id two places declare is a mistake)."""
    for term in terms:
        if term.id in TERMS and TERMS[term.id] != term:
            raise ValueError(f"two terms called {term.id!r}")
        TERMS[term.id] = term
    _pattern.cache_clear()


def entries(lang):
    """The terms, sorted by their headword in `lang` (case and accents aside)."""
    return sorted(TERMS.values(), key=lambda t: t.words[lang][0].casefold())


@functools.cache
def _pattern(lang):
    forms = sorted(((form, term.id) for term in TERMS.values() for form in term.words[lang]),
                   key=lambda pair: -len(pair[0]))
    if not forms:
        return None, {}
    by_form = {esc(form).casefold(): term_id for form, term_id in forms}
    alternatives = "|".join(re.escape(esc(form)) for form, _ in forms)
    return re.compile(rf"(?<![\w\-])({alternatives})(?![\w\-²])", re.IGNORECASE), by_form


def link(escaped, lang, seen):
    """`escaped` (text already escaped for HTML, no tags) with the first use of each term not in
    `seen` made a link to its entry; `seen` gets the terms linked."""
    pattern, by_form = _pattern(lang)
    if pattern is None:
        return escaped

    def one(match):
        term_id = by_form[match.group(1).casefold()]
        if term_id in seen:
            return match.group(1)
        seen.add(term_id)
        return f'<a class="term" href="#term-{term_id}">{match.group(1)}</a>'

    return pattern.sub(one, escaped)


def address(term, lang):
    """The link to the step that shows the term, in `lang`."""
    path_id, number = term.where
    return f"?lang={lang}&amp;path={path_id}&amp;step={number}"


add(
    Term("dot", {"it": ("prodotto scalare", "prodotti scalari"), "en": ("dot product", "dot products")},
         {"it": "Due liste di numeri della stessa lunghezza, moltiplicate posto per posto e poi sommate: "
                "un solo numero, grande quando le due liste sono grandi negli stessi posti.",
          "en": "Two lists of numbers of the same length, multiplied place by place and then added up: one "
                "number, large when both lists are large in the same places."},
         ("formula", 3)),
    Term("dk", {"it": ("d_k",), "en": ("d_k",)},
         {"it": "Quanti numeri ha una chiave (e una domanda). Qui le carte hanno 4 numeri, quindi d_k = 4; "
                "i prodotti si dividono per √d_k.",
          "en": "How many numbers a key (and a query) has. Here the cards have 4 numbers, so d_k = 4; the "
                "products are divided by √d_k."},
         ("formula", 4)),
    Term("logit", {"it": ("logit",), "en": ("logit", "logits")},
         {"it": "Il punteggio di una parola prima della softmax: q · k diviso per √d_k (e per la "
                "temperatura). Può essere negativo.",
          "en": "A word's score before the softmax: q · k divided by √d_k (and by the temperature). It can "
                "be negative."},
         ("formula", 4)),
    Term("softmax", {"it": ("softmax",), "en": ("softmax",)},
         {"it": "Trasforma dei punteggi in pesi positivi che sommano 1: prende e elevato a ogni punteggio e "
                "divide per la somma di tutti.",
          "en": "Turns scores into positive weights that add up to 1: it takes e to the power of each score "
                "and divides by the sum of them all."},
         ("formula", 5)),
    Term("mask", {"it": ("maschera causale", "maschera"), "en": ("causal mask", "mask")},
         {"it": "Vieta a ogni parola di guardare quelle che vengono dopo: il loro logit diventa −∞, e il "
                "loro peso 0. Serve a un modello che scrive una parola alla volta.",
          "en": "Stops each word from looking at the words after it: their logit becomes −∞ and their "
                "weight 0. A model that writes one word at a time needs it."},
         ("formula", 6)),
    Term("head", {"it": ("testa", "teste"), "en": ("head", "heads")},
         {"it": "Un'attenzione completa con le sue matrici W_Q, W_K e W_V. Più teste lavorano insieme, "
                "ognuna cerca qualcosa di diverso, e W_O ne unisce i risultati.",
          "en": "One whole attention with its own W_Q, W_K and W_V. Several heads work side by side, each "
                "looking for something else, and W_O joins their results."},
         ("formula", 9)),
)
