"""The guided path's answers (app/path.py), written from the numbers the page computes now.

A step's answer used to quote fixed numbers, true only for the settings a step opened with: a
switch left on at step 6 made steps 7-12 quote numbers the screen did not show. Each answer is
now a template (app/i18n.py: path_<id>_answer) filled from the attention record of the
student's own settings, and it quotes only percentages the screen shows: where the step's "try
this" asks for a switch (step 4 without ÷ √d_k, step 6 the mask and the word itself, step 10
mask and distance off, step 12 the mask), the answer has one form for each state of it, and
says in words what the switch not yet moved will do. (Step 4 also names the logit it doubles
into: a number to check by hand, no percentage.) Numbers are written by the same functions and
with the same digits as the view the student reads them in (the steps table: 3 decimals and
percentages with one; bars, heatmap and head cards: whole percentages; cards: short numbers).

The answers name the words of the path's example sentence; in another sentence that lacks one
of them, the answer says which sentence it is about instead of quoting numbers from nowhere.
"""

from app import contract, heads
from app.i18n import PRESETS, STRINGS, join_words, num, percent, short, text
from app.views.heads import head_summary

# The words each answer is about, in the example sentence of each language (PRESETS[lang][0]).
WORDS = {"it": {"cat": "gatto", "mat": "tappeto", "slept": "dormiva"},
         "en": {"cat": "cat", "mat": "mat", "slept": "slept"}}
NEEDS = {"cards": ("cat", "mat"), "query": ("slept",), "dots": ("slept",), "scale": ("slept",),
         "softmax": ("slept",), "values": ("slept",), "heads": ("slept",), "order": ("slept", "cat", "mat"),
         "layer2": ("slept",)}


def index_of(tokens, word):
    """The first token that is `word` (any case), or None."""
    return next((j for j, t in enumerate(tokens) if t.text.lower() == word), None)


def try_params(step, tokens):
    """The numbers a step's "try this" quotes (step 8: the sentence's length and twice it)."""
    if step.id == "matrix":
        return {"n": len(tokens), "m": 2 * len(tokens)}
    return {}


def answer(step, settings, tokens, record):
    """The answer of `step` for these settings, the tokens shown and their record."""
    lang = settings.lang
    if record is None or (step.mode == "sentence" and settings.mode != "sentence"):
        return text(lang, "path_answer_none")
    named = WORDS[lang]
    where = {key: index_of(tokens, named[key]) for key in NEEDS.get(step.id, ())}
    if None in where.values():
        return text(lang, "path_answer_sentence", sentence=PRESETS[lang][0][0])
    words = {key: tokens[j].text for key, j in where.items()}
    fill = FILLERS[step.id]
    return fill(lang, settings, tokens, record, where, words)


def variant(settings, tokens, record, **changes):
    """The record with `changes` applied to the settings (the same record when nothing changes)."""
    if all(getattr(settings, name) == value for name, value in changes.items()):
        return record
    return contract.compute(settings.copy(**changes), tokens)


def _cards(lang, settings, tokens, record, where, words):
    a, b = tokens[where["cat"]].card, tokens[where["mat"]].card
    order = sorted(range(len(a)), key=lambda c: (-abs(a[c] - b[c]), c))
    first, second = order[0], order[1]
    return text(lang, "path_cards_answer", feature=STRINGS[lang]["features"][first], a=short(a[first], lang, "card"),
                b=short(b[first], lang, "card"), feature2=STRINGS[lang]["features"][second], a2=short(a[second], lang, "card"),
                b2=short(b[second], lang, "card"), **words)


def _query(lang, settings, tokens, record, where, words):
    q = record.queries[where["slept"]]
    order = sorted(range(len(q)), key=lambda c: (-q[c], c))
    sep = "; " if lang == "it" else ", "
    return text(lang, "path_query_answer", q="[" + sep.join(short(v, lang) for v in q) + "]",
                top=short(q[order[0]], lang), feature=STRINGS[lang]["features"][order[0]],
                top2=short(q[order[1]], lang), feature2=STRINGS[lang]["features"][order[1]], **words)


def _candidates(row):
    return [j for j in range(row.n) if row.candidates[j]]


def _dots(lang, settings, tokens, record, where, words):
    row = record.row(where["slept"])
    idx = sorted(_candidates(row), key=lambda j: (-row.dots[j], j))
    if len(idx) < 2:
        return text(lang, "path_dots_answer_none", **words)
    best, next_ = idx[0], idx[1]
    worked = " + ".join(f"{short(q, lang)} × {short(k, lang)}" for q, k in zip(row.query, record.keys[best]))
    return text(lang, "path_dots_answer", best=tokens[best].text, worked=worked, dot=num(row.dots[best], lang),
                next=tokens[next_].text, dot2=num(row.dots[next_], lang))


def _scale(lang, settings, tokens, record, where, words):
    on = variant(settings, tokens, record, scaled=True).row(where["slept"])
    off = variant(settings, tokens, record, scaled=False).row(where["slept"])
    idx = sorted(_candidates(on), key=lambda j: (-on.weights[j], j))
    if len(idx) < 2:
        return text(lang, "path_dots_answer_none", **words)
    top = idx[0]
    logits = {"top": tokens[top].text, "on": num(on.logits[top], lang), "off": num(off.logits[top], lang)}
    if settings.scaled:  # (the percentage the table shows now)
        return text(lang, "path_scale_answer", p_on=percent(on.weights[top], lang, "table"), **logits)
    return text(lang, "path_scale_answer_unscaled", p_off=percent(off.weights[top], lang, "table"), **logits)


def _softmax(lang, settings, tokens, record, where, words):
    row = record.row(where["slept"])
    idx = _candidates(row)
    if len(idx) < 2:
        return text(lang, "path_dots_answer_none", **words)
    groups = {}
    for j in idx:
        groups.setdefault(row.logits[j], []).append(j)
    tied = max(groups.values(), key=lambda g: (len(g), -g[0]))
    if len(tied) > 1:
        j = tied[0]
        quote = "«{}»" if lang == "it" else "“{}”"
        said = join_words((quote.format(tokens[k].text) for k in tied), lang)
        return text(lang, "path_softmax_answer_tie", words=said, logit=num(row.logits[j], lang),
                    pct=percent(row.weights[j], lang, "table"))
    pairs = sorted(((abs(row.logits[a] - row.logits[b]), a, b) for a in idx for b in idx if a < b))
    _, a, b = pairs[0]
    return text(lang, "path_softmax_answer", a=tokens[a].text, b=tokens[b].text, la=num(row.logits[a], lang),
                lb=num(row.logits[b], lang), pa=percent(row.weights[a], lang, "table"),
                pb=percent(row.weights[b], lang, "table"))


def _mask(lang, settings, tokens, record, where, words):
    """The second word's row as the heatmap shows it: with the mask, all on the first word (and, with
    the word itself, shared with itself); without it, in words."""
    if len(tokens) < 2:
        return text(lang, "path_answer_sentence", sentence=PRESETS[lang][0][0])
    names = {"first": tokens[0].text, "second": tokens[1].text}
    row = record.row(1)
    if not settings.mask:
        return text(lang, "path_mask_answer_unmasked", **names)
    if settings.include_self:
        return text(lang, "path_mask_answer_self", a=percent(row.weights[0], lang), b=percent(row.weights[1], lang),
                    **names)
    return text(lang, "path_mask_answer", pct=percent(row.weights[0], lang), **names)


def _values(lang, settings, tokens, record, where, words):
    row = record.row(where["slept"])
    if row.output is None:
        return text(lang, "path_dots_answer_none", **words)
    values = record.values
    idx = sorted((j for j in _candidates(row) if row.weights[j] * values[j][0] != 0),
                 key=lambda j: (-row.weights[j] * values[j][0], j))
    terms = [text(lang, "path_values_term", word=tokens[j].text, w=percent(row.weights[j], lang, "table"),
                  v=short(values[j][0], lang, "card"), part=num(row.weights[j] * values[j][0], lang)) for j in idx[:3]]
    if len(idx) > 3:
        rest = sum(row.weights[j] * values[j][0] for j in idx[3:])
        terms.append(text(lang, "path_values_rest", n=len(idx) - 3, part=num(rest, lang)))
    if not terms:
        return text(lang, "path_values_answer_zero", **words)
    return text(lang, "path_values_answer", terms="; ".join(terms), total=num(row.output[0], lang),
                total_card=short(row.output[0], lang, "card"), **words)


def _matrix(lang, settings, tokens, record, where, words):
    n = len(tokens)
    return text(lang, "path_matrix_answer", n=n, nn=n * n, m=2 * n, mm=4 * n * n)


def _heads(lang, settings, tokens, record, where, words):
    i = where["slept"]
    parts, tops = [], set()
    for h, r in enumerate(record.head_records or ()):
        if r is None:
            continue
        row = r.row(i)
        idx = _candidates(row)
        if idx:
            tops.add(max(idx, key=lambda j: row.weights[j]))
        parts.append(text(lang, "path_heads_part", head=text(lang, "head_name_" + heads.HEADS[h].id),
                          says=head_summary(r.row(i), tokens, lang)))
    key = "path_heads_answer" if len(tops) > 1 else "path_heads_answer_same"
    return text(lang, key, parts="; ".join(parts), **words)


def _order(lang, settings, tokens, record, where, words):
    if settings.mask or settings.slope:  # (the swap the step asks for is with both off)
        return text(lang, "path_order_answer_on", **words)
    row = record.row(where["slept"])
    return text(lang, "path_order_answer", a=percent(row.weights[where["cat"]], lang),
                b=percent(row.weights[where["mat"]], lang), **words)


def _layer2(lang, settings, tokens, record, where, words):
    if record.layer2 is None:
        return text(lang, "path_layer2_answer_none")
    i = where["slept"]
    before, after = tokens[i].card, record.layer2.values[i]
    c = 0  # "alive": what the words it looks at bring to a verb that had none
    return text(lang, "path_layer2_answer", feature=STRINGS[lang]["features"][c], before=short(before[c], lang),
                after=short(after[c], lang), **words)


def _hands_on(lang, settings, tokens, record, where, words):
    if not settings.mask:
        return text(lang, "path_hands-on_answer_unmasked", n=record.n_q, m=record.n_k)
    first = record.row(0)
    key = "path_hands-on_answer" if first.candidates[0] else "path_hands-on_answer_alone"
    return text(lang, key, n=record.n_q, m=record.n_k, pct=percent(first.weights[0], lang))


FILLERS = {"cards": _cards, "query": _query, "dots": _dots, "scale": _scale, "softmax": _softmax,
           "mask": _mask, "values": _values, "matrix": _matrix, "heads": _heads, "order": _order,
           "layer2": _layer2, "hands-on": _hands_on}
