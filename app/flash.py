"""FlashAttention's tiles (docs/DESIGN.md, "Cost of the pattern", `flash`): one row of attention
computed over blocks of B keys, never holding the whole row of scores.

For the selected row's logits s_j (None where j is no candidate: masked, the word itself when it
may not look at itself, or left out by a pattern) and values v_j, the blocks [start, end) of B
keys are met in order, each updating three running numbers (Dao et al. 2022, "online softmax"):

    m' = max(m, max of the block's s_j)            the largest logit met so far
    α  = e^(m − m')                                 how much the earlier sums shrink
    l' = α·l + Σ e^(s_j − m')                       the softmax's denominator so far
    o' = α·o + Σ e^(s_j − m')·v_j                   its numerator, a vector like v

over the block's candidates. At the end o/l is softmax(s)·V, the row's output, exactly in
arithmetic (in floating point it agrees to the last digits). Every exponent is ≤ 0, so no e^x
overflows however large the logits; a block that meets no candidate changes nothing; m is None
until the row has met a candidate, and a row with none has no output.
"""

import math

MAX_BLOCK = 500  # the largest block a link may ask for (one block: the whole row at once)


def tiles(logits, values, block):
    """{"block": B, "steps": [{"keys": [start, end], "block_max", "m", "alpha", "l", "o"}, …],
    "output"}: one step per block of `block` keys. `logits[j]` None: key j is no candidate.
    `block_max` is the block's largest candidate logit (None: it has none); `alpha` the factor
    the sums were rescaled by (None before the first candidate). The state JSON keeps "keys",
    "m", "l" and "o" of each step (app/contract.py, `field`)."""
    if block < 1:
        raise ValueError("a block holds at least one key")
    width = len(values[0]) if values else 0
    m, l, o = None, 0.0, [0.0] * width
    steps = []
    for start in range(0, len(logits), block):
        end = min(start + block, len(logits))
        met = [j for j in range(start, end) if logits[j] is not None]
        block_max = max((logits[j] for j in met), default=None)
        alpha = None
        if met:
            new_m = block_max if m is None else max(m, block_max)
            alpha = 0.0 if m is None else math.exp(m - new_m)
            weights = {j: math.exp(logits[j] - new_m) for j in met}
            l = alpha * l + math.fsum(weights.values())
            o = [alpha * o[c] + math.fsum(weights[j] * values[j][c] for j in met) for c in range(width)]
            m = new_m
        steps.append({"keys": [start, end], "block_max": block_max, "m": m, "alpha": alpha, "l": l,
                      "o": list(o)})
    output = [x / l for x in o] if m is not None else None
    return {"block": block, "steps": steps, "output": output}


def of_row(row, block):
    """`tiles` for an `attention.Row` (its logits where it has candidates, its record's values)."""
    logits = [row.logits[j] if row.candidates[j] else None for j in range(row.n)]
    return tiles(logits, row.record.values, block)


def field(computed):
    """The state's `flash`: the contract's fields of each step (keys, m, l, o) and the output."""
    return {"block": computed["block"],
            "steps": [{"keys": s["keys"], "m": s["m"], "l": s["l"], "o": s["o"]} for s in computed["steps"]],
            "output": computed["output"]}
