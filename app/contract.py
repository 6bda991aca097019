"""The state JSON (contract version 2, docs/DESIGN.md and docs/state-v2.schema.json).

After every render the page publishes this object: in #attention-state, and to a host
page as `{"type": "attention:state", "state": …}`. Built only from the settings, the
tokens and the attention record: nothing here recomputes the maths.
"""

import json

from app import attention, i18n
from app.quiz import Session

MATRIX_CELLS_MAX = 4096  # past this many cells (n_q·n_k) `matrix` is null: the JSON stays small


def compute(settings, tokens):
    """The attention record of the whole sentence for these settings (None: no word)."""
    if not tokens:
        return None
    return attention.attend([t.card for t in tokens], mask=settings.mask,
                            include_self=settings.include_self, scaled=settings.scaled,
                            temperature=settings.temperature)


def selected_row(settings, record):
    """The selected word's row of the record, or None when no word is selected."""
    if record is None or settings.focus is None or not 0 <= settings.focus < record.n_q:
        return None
    return record.row(settings.focus)


def _matrix(record):
    if record is None or record.n_q * record.n_k > MATRIX_CELLS_MAX:
        return None
    return {"queries": record.queries, "keys": record.keys, "values": record.values,
            "dots": record.dots, "logits": record.logits, "weights": record.weights,
            "output": record.outputs}


def build_state(settings, tokens, record, quiz=None):
    """The version-2 state object (plain data, full-precision floats). `quiz`: the tab's
    quiz.Session when guess-first is on (its `quiz` field; a fresh session if None)."""
    lang = settings.lang
    row = selected_row(settings, record)
    if row is None:
        rows = [{"index": j, "candidate": False, "dot": None, "logit": None, "weight": 0.0,
                 "percent": None} for j in range(len(tokens))]
    else:
        rows = [{"index": j, "candidate": row.candidates[j], "dot": row.dots[j],
                 "logit": row.logits[j], "weight": row.weights[j],
                 "percent": i18n.percent(row.weights[j], lang, 1) if row.candidates[j] else None}
                for j in range(row.n)]
    d_k = attention.D_MODEL if record is None else record.d_k
    return {
        "version": 2,
        "mode": "sentence",
        "lang": lang,
        "sentence": settings.sentence,
        "features": list(attention.FEATURES),
        "tokens": [{"text": t.text, "card": list(t.card), "known": t.known} for t in tokens],
        "w_q": [list(r) for r in attention.W_Q] if record is None else record.w_q,
        "w_k": [list(r) for r in attention.W_K] if record is None else record.w_k,
        "w_v": [list(r) for r in attention.W_V] if record is None else record.w_v,
        "focus": None if row is None else row.focus,
        "mask": settings.mask,
        "include_self": settings.include_self,
        "d_k": d_k,
        "scaled": settings.scaled,
        "temperature": settings.temperature,
        "scale": attention.divisor_for(d_k, settings.scaled, settings.temperature)
        if record is None else record.divisor,
        "query": None if row is None else list(row.query),
        "rows": rows,
        "quiz": (quiz or Session()).field(row) if settings.quiz else None,
        "matrix": _matrix(record),
    }


def state_json(state):
    """JSON text safe to put inside a <script> element (no '<' can close it)."""
    return json.dumps(state, ensure_ascii=False, allow_nan=False).replace("<", "\\u003c")


def from_link(params):
    """(settings, tokens, record, notes) for a link's parameters ({name: [text]}), as the
    page computes them; for the terminal and notebooks (CPython, lexicons from disk)."""
    from app import lexicon, settings as schema
    lexicons = {lang: lexicon.load_lexicon(lang) for lang in lexicon.LANGS}
    settings, notes = schema.parse_params(params, lexicons)
    tokens, _ = schema.check_sentence(settings.sentence, lexicons[settings.lang], settings.limit)
    return settings, tokens, compute(settings, tokens), notes
