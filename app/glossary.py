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


# The elements whose text is prose (`in_prose` links there), and those whose text is not a sentence
# to read but a control, a link, code, a table's cell or a picture (never linked, even inside prose).
_PROSE = {"p", "li", "figcaption"}
_NOT_PROSE = {"a", "button", "code", "label", "summary", "select", "option", "textarea", "table", "svg",
              "math", "script", "style", "h1", "h2", "h3", "h4", "kbd", "var"}
_TAG = re.compile(r"(<[^>]*>)")
# Whole elements no link can go in, passed over in one step (found in C): a table, a picture, and a
# list marked `data-plain` (the bars: a row a word, its text changed in place). None of them nests.
_SKIP = re.compile(r"<(table|svg)\b.*?</\1>|<(ul|ol)\b[^>]*\bdata-plain\b[^>]*>.*?</\2>", re.S)
_NAME = re.compile(r"</?([a-zA-Z][a-zA-Z0-9]*)")


def in_prose(html, lang, seen):
    """A view's `html` with the first use of each term not in `seen` (the step's own text: those
    are linked there) made a link to its entry, in its paragraphs and list items only (not in a
    control, a link, a table or code, nor in an element marked `data-plain`: one the page changes
    in place as text, which would lose the link, as the bars' lists). `seen` is not changed: each view links its own
    first uses, so a view drawn again alone (a word click) links as when the page drew it whole."""
    pattern, _ = _pattern(lang)
    if pattern is None or pattern.search(html) is None:  # (one pass in C: most views name no term)
        return html
    seen, open_, out = set(seen), [], []  # open_: the prose and non-prose elements open, as (tag, plain)
    at = 0
    for skipped in _SKIP.finditer(html):  # (the text between the elements no link goes in)
        _link_part(html[at:skipped.start()], lang, seen, open_, out)
        out.append(skipped.group(0))
        at = skipped.end()
    _link_part(html[at:], lang, seen, open_, out)
    return "".join(out)


def _link_part(html, lang, seen, open_, out):
    """`in_prose` on a part of a view's HTML, the elements still open before it in `open_`."""
    for piece in _TAG.split(html):
        if piece.startswith("<"):
            name = _NAME.match(piece)
            tag = name.group(1).lower() if name else ""
            if (tag in _PROSE or tag in _NOT_PROSE) and not piece.endswith("/>"):
                if not piece.startswith("</"):
                    open_.append((tag, tag in _NOT_PROSE or "data-plain" in piece))
                    if tag == "a" and 'class="term"' in piece:  # (a part linked already: a row part)
                        seen.add(piece.split("#term-", 1)[-1].split('"', 1)[0])
                else:
                    at = next((i for i in range(len(open_) - 1, -1, -1) if open_[i][0] == tag), None)
                    if at is not None:
                        del open_[at:]
            out.append(piece)
        elif piece and open_ and not any(plain for _, plain in open_):
            out.append(link(piece, lang, seen))
        else:
            out.append(piece)


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
