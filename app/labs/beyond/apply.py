"""The mixer in the page's record and state (docs/DESIGN.md, "Beyond attention: `mixer`").

Under a mixer other than softmax the active head's record (sentence mode) becomes the mixer's: causal,
each word a candidate of its own row, `weights` the scores s_ij (signed, no softmax), `outputs` the
y rows; its dots and logits stay q·k and q·k / scale. The other heads stay softmax's; the heads'
concatenation, W_O and the second layer take the active head's y. `record.parts["mixer"]` is the
`mixer.Mix` (both forms), which the lab's views read; the state's `mixer` names it.
"""

from app import attention_fast, contract
from app.labs.beyond import DEFAULT_W_DELTA, mixer
from app.views import registry

ALL_HEADS_MAX = contract.ALL_HEADS_MAX
CELLS_MAX = contract.MATRIX_CELLS_MAX  # past this many cells the state's n×n fields are null, as `matrix`


def w_delta(settings):
    return tuple(settings.w_delta[0]) if settings.w_delta is not None else DEFAULT_W_DELTA


def mix_of(settings, tokens, record):
    """The `mixer.Mix` of these settings on the record's q, k, v (and the cards, for Δ)."""
    return mixer.mix(settings.mixer, record.queries, record.keys, record.values, record.divisor,
                     cards=contract.cards_of(settings, tokens), decay=settings.decay, w_delta=w_delta(settings),
                     b_delta=settings.b_delta, a=settings.a_decay)


def change(settings, tokens, record):
    """The record under the settings' mixer (the same record under softmax)."""
    if settings.mixer == "softmax" or not tokens:
        return record
    queries, keys, values = ([list(r) for r in m] for m in (record.queries, record.keys, record.values))
    new = attention_fast.attend_qkv(queries, keys, values, mask=True, include_self=True, scaled=record.scaled,
                                    temperature=record.temperature)
    mix = mix_of(settings, tokens, new)
    lazy = isinstance(mix.scores, attention_fast.Lazy)  # (a long text: each row when first read)
    new.weights = mix.scores if lazy else [list(r) for r in mix.scores]
    new.outputs = mix.outputs if lazy else [list(y) for y in mix.outputs]
    new.exps = [[None] * mix.n for _ in range(mix.n)]  # (no eˣ: no softmax)
    new.exp_sums = [None] * mix.n
    new.w_q, new.w_k, new.w_v = record.w_q, record.w_k, record.w_v
    new.position = record.position
    new.parts = dict(record.parts or {}, mixer=mix)
    records = list(record.head_records or [record])
    records[settings.head] = new
    new.head_records = records
    contract.join_heads(new, [r for r in records if r is not None])
    if len(tokens) <= ALL_HEADS_MAX:
        cards = contract.cards_of(settings, tokens)
        qkv = contract.pattern_qkv(settings, len(tokens), len(tokens))
        new.layer2 = contract.attend_head(settings, contract.layer2_cards(new, cards), settings.head, qkv)
    return new


def mix_in(record):
    """The record's `Mix`, or None (softmax)."""
    return None if record is None or not record.parts else record.parts.get("mixer")


def field(settings, tokens, record):
    """The state's `mixer`: null under softmax (and in matrix mode, where no mixer runs)."""
    mix = mix_in(record)
    if settings.mixer == "softmax" or settings.mode != "sentence" or mix is None:
        return None
    small = mix.n * mix.n <= CELLS_MAX
    return {"kind": mix.kind, "decay": mix.decay, "delta": mix.delta, "a": mix.keep,
            "mask": [list(r) for r in mix.mask] if small else None,
            "scores": [list(r) for r in mix.scores] if small else None,
            "states": [[list(r) for r in s] for s in mix.states] if small else None,
            "state_numbers": mix.state_numbers, "cache_numbers": mix.cache_numbers()}


registry.add_record_change(change)
