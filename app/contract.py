"""The state JSON (contract version 2, docs/DESIGN.md and docs/state-v2.schema.json).

After every render the page publishes this object: in #attention-state, and to a host
page as `{"type": "attention:state", "state": …}`. Built only from the settings, the
tokens and the attention record: nothing here recomputes the maths.
"""

import json
import math

from app import attention, attention_fast, flash, generate, heads, i18n, labs, matrices, model, patterns
from app import settings as schema
from app.lexicon import Token
from app.quiz import Session
from app.views import registry

ALL_HEADS_MAX = 60  # up to this many words every head and the second layer are computed
MATRIX_CELLS_MAX = attention_fast.LAZY_CELLS  # past this many cells (n_q·n_k) `matrix` is null: the JSON stays small


def shown_tokens(settings, tokens, record):
    """The tokens the page shows: with the edited cards, or in matrix mode one per key
    row (k1, k2, …, its card the key row)."""
    if settings.mode == "matrix" and record is not None:
        return [Token(f"k{j + 1}", list(k), None) for j, k in enumerate(record.keys)]
    if settings.cards is None or len(settings.cards) != len(tokens):
        return tokens
    return [Token(t.text, list(c), t.known, t.guess) for t, c in zip(tokens, settings.cards)]


def cards_of(settings, tokens):
    """The cards in use: the edited ones (`cards`) or the lexicon's."""
    if settings.cards is not None and len(settings.cards) == len(tokens):
        return [list(c) for c in settings.cards]
    return [list(t.card) for t in tokens]


def own_matrices(settings, h):
    """(w_q, w_k, w_v) of head h as written: designed, or as edited when it is the active head."""
    designed = heads.designed(h)
    if h != settings.head:
        return designed
    edited = (settings.w_q, settings.w_k, settings.w_v)
    return tuple(d if e is None else [list(r) for r in e] for d, e in zip(designed, edited))


def head_matrices(settings, h):
    """(w_q, w_k, w_v) head h uses: its own W_Q, and the W_K, W_V of the head it shares them with
    (itself unless `kv_heads` groups the heads: docs/DESIGN.md, "Shared keys")."""
    w_q = own_matrices(settings, h)[0]
    _, w_k, w_v = own_matrices(settings, heads.kv_source(h, settings.kv_heads))
    return w_q, w_k, w_v


def matrix_qkv(settings):
    """Q, K, V of matrix mode (the lesson's example when the given ones do not fit)."""
    q, k, v = matrices.resolve(settings.q, settings.k, settings.v, settings.seed)
    if matrices.shape_problem(q, k, v) is not None:
        q, k, v = matrices.resolve()
    return q, k, v


def compute(settings, tokens):
    """The attention record of the active head for these settings (None: no word), with what each
    lab's views read of it beside (`registry.record_parts`: FlashAttention's blocks, the shared
    keys), and the pattern's name (the cost lab's linear view reads it). In sentence mode a lab may
    change the record first (`registry.record_changes`: the beyond lab's mixer)."""
    record = compute_heads(settings, tokens)
    if record is not None and settings.mode != "model":
        record.parts = {}
        if settings.mode == "sentence":
            for change in registry.record_changes():
                record = change(settings, tokens, record)
        record.cost = settings.pattern
        record.parts.update({name: part(settings, tokens, record) for name, part in registry.record_parts()})
    return record


def compute_heads(settings, tokens):
    """The attention record of the active head for these settings (None: no word).

    Sentence mode runs every head (each with its designed matrices, the active one as
    edited) on the same cards and settings; the record returned is the active head's,
    holding the others' records, their concatenation and the W_O projection.
    """
    if settings.mode == "model":  # the trained model's forward pass (None: its files cannot be read)
        try:
            # (None: the page's model, else its variant: key/value heads, or an `arch`, which shares none)
            kv = model.variant(settings.kv_heads, settings.arch)
            # the letters the model writes, read with a KV cache (app/generate.py): attention's models
            # only (a selective layer keeps a state, no cache: under `arch` ssm or hybrid none is written)
            if settings.generate and not isinstance(kv, str):
                return generate.compute(settings.sentence, settings.checkpoint, settings.generate, settings.window, kv)
            return model.compute(settings.sentence, settings.checkpoint, settings.window, kv)
        except model.Unavailable:
            return None
    if settings.mode == "matrix":
        options = dict(mask=settings.mask, include_self=settings.include_self, scaled=settings.scaled,
                       temperature=settings.temperature, slope=settings.slope)
        position = position_of(settings)
        q, k, v = matrix_qkv(settings)
        qkv = pattern_qkv(settings, len(q), len(k))
        if position is None:
            return qkv(q, k, v, **options)
        options["slope"] = head_slope(settings, 0)
        return attention.attend_given(q, k, v, position=position, qkv=qkv, **options)
    if not tokens:
        return None
    qkv = pattern_qkv(settings, len(tokens), len(tokens))
    cards = cards_of(settings, tokens)
    every = len(tokens) <= ALL_HEADS_MAX  # long texts: the active head only (a setting change stays fast)
    records = [attend_head(settings, cards, h, qkv) if every or h == settings.head else None
               for h in range(len(heads.HEADS))]  # None for a head not computed
    record = records[settings.head]
    record.head_records = records
    # (what the position lab's views read: offset, base, pairs and pos, even when position is none)
    record.position = record.position or attention.Position("none", settings.offset, settings.base, settings.pairs)
    record.position.hand = settings.slope
    record.position.key = settings.rope_key
    join_heads(record, [r for r in records if r is not None])
    if every:
        record.layer2 = attend_head(settings, layer2_cards(record, cards), settings.head, qkv)
    return record


def attend_head(settings, cards, h, qkv, key_cards=None):
    """Head h (its matrices as used) on `cards` under the settings: the mask, the self rule, the
    divisor, word order and its slope, the pattern's `qkv`; `key_cards`: keys and values made from
    other cards (the latent's rebuilt ones)."""
    w_q, w_k, w_v = head_matrices(settings, h)
    return attention.attend(cards, mask=settings.mask, include_self=settings.include_self, scaled=settings.scaled,
                            temperature=settings.temperature, slope=head_slope(settings, h), qkv=qkv,
                            position=position_of(settings), w_q=w_q, w_k=w_k, w_v=w_v, key_cards=key_cards)


def pattern_qkv(settings, n_q, n_k):
    """attend_qkv under the cost lab's pattern (docs/DESIGN.md, "Cost of the pattern"): the page's
    own (app/attention_fast.py, the same numbers faster) with the pattern's cells; linear
    attention through the readable one (app/attention.py), its weights made by the kernel."""
    cells = patterns.pattern_cells(settings.pattern, n_q, n_k, settings.window, schema.global_indices(settings),
                                    settings.random_keys, settings.seed)
    if settings.pattern == "linear":
        return lambda *args, **kw: attention.linearize(attention.attend_qkv(*args, **kw))
    if cells is None:
        return attention_fast.attend_qkv
    return lambda *args, **kw: attention_fast.attend_qkv(*args, allowed=cells, **kw)


def cost_field(settings, record):
    """The state's `cost`: the pattern's own settings as they apply (app/patterns.py `named`: pattern,
    window, global, random), "cells": the cells computed (candidates), "full": n_q·n_k."""
    if record is None:
        return None
    return {**patterns.named(settings.pattern, record.n_q, record.n_k, settings.window,
                             schema.global_indices(settings), settings.random_keys),
            "cells": record.computed_cells,
            "full": record.n_q * record.n_k}


def position_of(settings):
    """The settings' `attention.Position`, or None for position=none (today's numbers, bit for bit:
    nothing is added, turned or biased)."""
    if settings.position == "none":
        return None
    return attention.Position(settings.position, settings.offset, settings.base, settings.pairs)


def head_slope(settings, h):
    """The distance-bias slope m head h uses: under alibi the paper's slope of head h of the page's
    four (1/4, 1/16, 1/64, 1/256), or `pos` for the active head when set by hand; else `pos`
    (matrix mode: one head, the first's)."""
    if settings.position != "alibi" or (h == settings.head and settings.slope > 0):
        return settings.slope
    return attention.alibi_slopes(len(heads.HEADS))[h]


def position_field(settings, record):
    """The state's `position` (docs/DESIGN.md, "Position"): what word order did to these numbers."""
    if record is not None and record.position is not None:
        return record.position.field()
    return attention.Position("none" if settings.position == "none" else settings.position,
                              settings.offset, settings.base, settings.pairs).field()


def layer2_cards(record, cards):
    """The second layer's input cards: the first layer's multi-head output, each word's
    card now mixed with its context; a word no head could look from keeps its own card
    (what a real model's residual connection would pass on)."""
    return [list(card) if all(r.outputs[i] is None for r in record.head_records if r is not None) else out
            for i, (out, card) in enumerate(zip(record.multihead_output, cards))]


def selected_row(settings, record):
    """The selected word's row of the record, or None when no word is selected (model mode has
    no rows of one head: its views read the record whole)."""
    if record is None or settings.focus is None or not 0 <= settings.focus < record.n_q \
            or settings.mode == "model":
        return None
    return record.row(settings.focus)


def _matrix(record):
    if record is None or record.n_q * record.n_k > MATRIX_CELLS_MAX:
        return None
    matrix = {"queries": record.queries, "keys": record.keys, "values": record.values,
              "dots": record.dots, "logits": record.logits, "weights": record.weights,
              "output": record.outputs}
    if record.concat is not None:
        matrix.update(concat=record.concat, multihead_output=record.multihead_output)
    return matrix


def _heads(settings):
    """heads[]: every head's designed matrices and its name in the page language; when `kv_heads`
    groups the heads, the W_K and W_V each uses (its group's first head's, as edited)."""
    out = []
    for i, h in enumerate(heads.HEADS):
        w_q, w_k, w_v = heads.designed(i)
        if settings.kv_heads != len(heads.HEADS):
            _, w_k, w_v = head_matrices(settings, i)
        out.append({"id": h.id, "name": i18n.text(settings.lang, "head_name_" + h.id),
                    "w_q": w_q, "w_k": w_k, "w_v": w_v})
    return out


def _matrix_mode_state(settings, record):
    """The fields that differ in matrix mode (docs/DESIGN.md): no sentence, no lexicon."""
    return {"sentence": "", "features": None,
            "tokens": [{"text": f"k{j + 1}", "card": None, "known": None} for j in range(record.n_k)],
            "w_q": None, "w_k": None, "w_v": None, "head": None, "heads": None, "w_o": None,
            "kv_heads": None, "cache_per_token": None}


def _model_state(settings, record):
    """The state of model mode (docs/DESIGN.md): the trained model's tokens, checkpoint, every
    head's attention, the prediction and the TOP most likely letters at each position (`model`
    null when its files could not be read); what belongs to the designed heads is null or
    empty. The model is causal and a position looks at itself: mask and include_self are true,
    d_k is its d_head."""
    d_head = record.model.d_head if record is not None else attention.D_MODEL
    chosen = row_fields(settings, None, record)
    return {
        "version": 2, "mode": "model", "lang": settings.lang, "step": settings.step, "sentence": settings.sentence,
        "features": None,
        "tokens": [] if record is None else [{"text": t, "card": None, "known": None} for t in record.tokens],
        "w_q": None, "w_k": None, "w_v": None, "focus": chosen["focus"],
        "mask": True, "include_self": True, "d_k": d_head, "scaled": True, "temperature": 1.0,
        "scale": math.sqrt(d_head), "position_bias": 0.0, "position": None, "query": None, "rows": [], "quiz": None,
        "flash": None, "cost": None, "kv_heads": settings.kv_heads,
        "cache_per_token": None if record is None else heads.cache_per_token(record.model.kv_heads, d_head),
        "matrix": None, "head": None, "heads": None, "w_o": None,
        **{key: None for key in labs.state_keys()},  # (the labs' own keys: their designed heads do not run)
        "model": None if record is None else {
            "tokens": list(record.tokens), "checkpoint": record.step, "attention": record.attention,
            "next": record.next, "top": [[[t, p] for t, p in top] for top in record.top],
            **generation_fields(record), **arch_fields(settings, record)},
    }


def arch_fields(settings, record):
    """model.arch, model.layers (each layer's mixer: "attention" or "selective"; a selective layer's
    `attention` is its mixing matrix, signed) and model.copy (docs/DESIGN.md, "Beyond attention"):
    each architecture's copy accuracy by repeat length, as `make model` measured it (null when the
    page's model.json has none)."""
    try:
        copy = model.config().get("copy")
    except model.Unavailable:
        copy = None
    fields = {"arch": record.model.arch, "layers": list(record.model.kinds),
              "copy": None if copy is None else {"lengths": copy["lengths"], "accuracy": copy["accuracy"]}}
    block = record.block_fields(block_position(settings, record))  # (the block model's: docs/DESIGN.md)
    fields.update(block or {"stages": None, "lens": None, "ln": None, "ffn": None})
    return fields


def block_position(settings, record):
    """The position the block model's stages, lens, LayerNorm and FFN are read at: the selected
    one, else the last (where the model's prediction for the next letter is made)."""
    focus = settings.focus
    return focus if focus is not None and 0 <= focus < record.n_q else record.n_q - 1


def generation_fields(record):
    """model.generated and model.cache (docs/DESIGN.md, "Generation"): the letters written and the
    cache's counters; [] and null when the model writes nothing."""
    generation = getattr(record, "generation", None)
    if generation is None:
        return {"generated": [], "cache": None}
    return {"generated": list(generation.written), "cache": dict(generation.counters)}


def row_fields(settings, tokens, record, quiz=None):
    """The state's fields that depend on the selected word: focus, query, rows, quiz, flash."""
    lang = settings.lang
    if settings.mode == "model":
        focus = settings.focus if record is not None and settings.focus is not None \
            and settings.focus < record.n_q else None
        return {"focus": focus, "query": None, "rows": [], "quiz": None, "flash": None}
    row = selected_row(settings, record)
    quiz = quiz or Session()
    if settings.lock:
        quiz.lock(settings.questions)
    if row is None:
        rows = [{"index": j, "candidate": False, "dot": None, "logit": None, "weight": 0.0,
                 "percent": None} for j in range(len(tokens))]
    elif settings.lock and not quiz.revealed(row):  # a graded exercise: no weight before the guess
        rows = [{"index": j, "candidate": row.candidates[j], "dot": None, "logit": None, "weight": None,
                 "percent": None} for j in range(row.n)]
    else:
        # the text the table shows: a percentage, or a lab's own (the beyond lab's signed score)
        shown = registry.row_draw("percent", row) or (lambda w, lang: i18n.percent(w, lang, "table"))
        rows = [{"index": j, "candidate": row.candidates[j], "dot": row.dots[j],
                 "logit": row.logits[j], "weight": row.weights[j],
                 "percent": shown(row.weights[j], lang) if row.candidates[j] else None}
                for j in range(row.n)]
    return {"focus": None if row is None else row.focus,
            "query": None if row is None else list(row.query),
            "rows": rows,
            "quiz": quiz_field(settings, quiz, row) if settings.quiz else None,
            "flash": flash_field(settings, row, quiz)}


def flash_field(settings, row, quiz):
    """The state's `flash` (app/flash.py): the selected row over blocks of `flash` keys; None when
    off, with no row, or in a graded exercise before the row's guess (its weights are the answer)."""
    if settings.flash is None or row is None or settings.lock and not quiz.revealed(row):
        return None
    return flash.field(flash.of_row(row, settings.flash))


def quiz_field(settings, quiz, row):
    """The state's `quiz` (app/quiz.py, Session.field); a graded exercise's also says it is
    locked and how many questions it asks (static/scorm.js reports from it)."""
    field = quiz.field(row)
    if settings.lock:
        field.update(locked=True, questions=settings.questions)
    return field


def build_state(settings, tokens, record, quiz=None):
    """The version-2 state object (plain data, full-precision floats). `quiz`: the tab's
    quiz.Session when guess-first is on (its `quiz` field; a fresh session if None)."""
    if settings.mode == "model":  # (the designed heads' record has none of its fields)
        return _model_state(settings, record)
    chosen = row_fields(settings, tokens, record, quiz)
    d_k = attention.D_MODEL if record is None else record.d_k
    state = {
        "version": 2,
        "mode": "sentence",
        "features": list(attention.FEATURES),
        "tokens": [{"text": t.text, "card": list(t.card), "known": t.known} for t in tokens],
        "w_q": [list(r) for r in attention.W_Q] if record is None else record.w_q,
        "w_k": [list(r) for r in attention.W_K] if record is None else record.w_k,
        "w_v": [list(r) for r in attention.W_V] if record is None else record.w_v,
        "focus": chosen["focus"],
        "d_k": d_k,
        "scale": attention.divisor_for(d_k, settings.scaled, settings.temperature)
        if record is None else record.divisor,
        "query": chosen["query"],
        "rows": chosen["rows"],
        "quiz": chosen["quiz"],
        "flash": chosen["flash"],
        "matrix": None if settings.lock else _matrix(record),  # (a graded exercise: every row's weights)
        # contract version 2: heads and W_O (app/heads.py)
        "heads": _heads(settings),
        "w_o": heads.w_o(),
    }
    # the settings whose state is their value, each under the key it declares (app/settings.py):
    # lang, sentence, mask, include_self, scaled, temperature, head, position_bias
    for setting in schema.SCHEMA:
        if setting.state is not None:
            state[setting.state] = getattr(settings, setting.attr)
    if settings.lexicon is not None and settings.mode == "sentence":
        # (the sentence read with the other language's lexicon; absent: the page's own, `lang`)
        state["lexicon"] = settings.lexicon
    state["position"] = position_field(settings, record)
    # shared keys (docs/DESIGN.md): the numbers a cache keeps a token and layer for these heads
    state["cache_per_token"] = heads.cache_per_token(settings.kv_heads)
    # the cost lab (docs/DESIGN.md, "Cost of the pattern"): the pattern named with its settings, the
    # cells computed, and under a pattern which they are (the pattern, the mask and the self rule together)
    state["cost"] = cost_field(settings, record)
    if state["matrix"] is not None:
        state["matrix"]["allowed"] = None if settings.pattern == "full" else [list(r) for r in record.candidates]
    # the labs' own keys (app/labs/__init__.py, `Lab.state`): the beyond lab's `mixer`
    state.update(labs.state_fields(settings, tokens, record))
    if settings.mode == "matrix" and record is not None:
        state.update(mode="matrix", **_matrix_mode_state(settings, record))
    elif record is not None:
        for token, card in zip(state["tokens"], cards_of(settings, tokens)):
            token["card"] = card
    return state


_template = (None, None, None, None)  # (settings without focus, tokens, record, {key: JSON text})


def join_heads(record, computed):
    """`record`'s heads' concatenation and its product with W_O, from the heads `computed` (the
    active head's `record` among them); a long text's (rows computed when read) each row's when
    first read."""
    if isinstance(record.outputs, attention_fast.Lazy):
        w_o = heads.w_o(len(computed), len(record.values[0]))
        record.concat = attention_fast.Lazy(record.n_q, lambda i: heads.concat_row(computed, i))
        record.multihead_output = attention_fast.Lazy(record.n_q, lambda i: attention.matmul([record.concat[i]], w_o)[0])
    else:
        record.concat, record.multihead_output = heads.multihead(computed)


def state_json_of(settings, tokens, record, quiz=None):
    """`state_json(build_state(…))`, the same text, with what does not depend on the
    selected word (tokens, matrices, the whole `matrix`) written once per record: a word
    click writes only the fields of `row_fields`, and a setting no part of the state reads
    (`view_only`) nothing again."""
    global _template
    rest = settings.copy(focus=None, **{s.attr: s.default for s in schema.SCHEMA if s.view_only})
    kept, kept_tokens, kept_record, texts = _template
    if kept_record is not record or kept_tokens is not tokens or kept != rest:
        texts = {key: state_json(value) for key, value in build_state(settings, tokens, record, quiz).items()}
        _template = (rest, tokens, record, texts)
    else:
        texts = dict(texts)
        for key, value in row_fields(settings, tokens, record, quiz).items():
            texts[key] = state_json(value)
    return "{" + ", ".join(f'"{key}": {value}' for key, value in texts.items()) + "}"


def state_json(state):
    """JSON text safe to put inside a <script> element (no '<' can close it)."""
    return json.dumps(state, ensure_ascii=False, allow_nan=False).replace("<", "\\u003c")


def same_state(payload, other, rel=1e-12):
    """Whether two state JSON texts say the same, numbers equal to `rel` (relative).

    The pre-rendered state is computed by CPython at build time and the page's by Python in
    the browser: their `exp` may differ in the last bit, which no shown digit can see."""
    try:
        a, b = json.loads(payload), json.loads(other)
    except ValueError:
        return False
    return _same(a, b, rel)


def _same(a, b, rel):
    if isinstance(a, float) or isinstance(b, float):
        return (isinstance(a, (int, float)) and isinstance(b, (int, float))
                and not isinstance(a, bool) and not isinstance(b, bool)
                and math.isclose(a, b, rel_tol=rel, abs_tol=1e-15))
    if isinstance(a, dict):
        return isinstance(b, dict) and a.keys() == b.keys() and all(_same(a[k], b[k], rel) for k in a)
    if isinstance(a, list):
        return isinstance(b, list) and len(a) == len(b) and all(_same(x, y, rel) for x, y in zip(a, b))
    return type(a) is type(b) and a == b


def from_link(params):
    """(settings, tokens, record, notes) for a link's parameters ({name: [text]}), as the
    page computes them; for the terminal and notebooks (CPython, lexicons from disk)."""
    from app import lexicon, settings as schema
    lexicons = {lang: lexicon.load_lexicon(lang) for lang in lexicon.LANGS}
    settings, notes = schema.parse_params(params, lexicons)
    tokens, _ = schema.sentence_tokens(settings, settings.sentence, lexicons)
    return settings, tokens, compute(settings, tokens), notes
