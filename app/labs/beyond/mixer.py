"""The beyond lab's maths: one formula, four masks (docs/DESIGN.md, "Beyond attention: `mixer`").

On the active head's q_i, k_j, v_j (after W_Q, W_K, W_V), causal, each word seeing itself:

    softmax    w_ij = softmax_j(q_i·k_j / scale)                 the page's attention, untouched
    linear     s_ij = φ(q_i)·φ(k_j), φ = elu + 1                  y_i = Σ_{j≤i} s_ij v_j / Σ_{j≤i} s_ij
    retention  s_ij = γ^(i−j) · (q_i·k_j) / scale                 y_i = Σ_{j≤i} s_ij v_j
    selective  s_ij = (Π_{r=j+1..i} a_r) · Δ_j · (q_i·k_j) / scale, Δ_t = softplus(x_t·w_Δ + b_Δ),
               a_t = exp(−A·Δ_t)                                  y_i = Σ_{j≤i} s_ij v_j

L_ij, the factor beside q_i·k_j (1, γ^(i−j), Π a_r·Δ_j), is the mask; the matrix form is
y = (L ∘ s)·V. The same numbers come word by word from a state of d_k × d_v numbers:

    linear     S_i = S_{i−1} + φ(k_i) v_iᵀ,  z_i = z_{i−1} + φ(k_i),  y_i = φ(q_i)ᵀS_i / φ(q_i)ᵀz_i
    retention  S_i = γ·S_{i−1} + k_i v_iᵀ,                         y_i = q_iᵀS_i / scale
    selective  S_i = a_i·S_{i−1} + Δ_i·k_i v_iᵀ,                   y_i = q_iᵀS_i / scale

`mix` computes both forms; the tests hold them equal. Only `math`: it runs in the browser as on
CPython.
"""

import itertools
import math
import operator

from app.attention_fast import LAZY_CELLS, Lazy
from app.model import softplus  # (log(1 + eˣ) without overflow: the trained selective layers' too)
from app.labs.beyond import DEFAULT_A, DEFAULT_B_DELTA, DEFAULT_DECAY, DEFAULT_W_DELTA, KINDS


def elu_plus_one(x):
    """φ(x) = elu(x) + 1: x + 1 for x ≥ 0, eˣ for x < 0 (always positive)."""
    return x + 1.0 if x >= 0 else math.exp(x)


def dot(a, b):
    return sum(x * y for x, y in zip(a, b))


def _dots(q, columns, n):
    """q·k_j for the first `n` keys, k_j the columns' j-th numbers (d_k columns of the keys)."""
    out = [0.0] * n
    for x, column in zip(q, columns):
        if x:
            out = list(map(float.__add__, out, map(float(x).__mul__, column[:n])))
    return out


def deltas(cards, w_delta=DEFAULT_W_DELTA, b_delta=DEFAULT_B_DELTA):
    """Δ_t = softplus(x_t·w_Δ + b_Δ) for each word's card x_t."""
    return [softplus(dot(x, w_delta) + b_delta) for x in cards]


def half_life(decay):
    """ln ½ / ln γ: after this many words a word's share of the state has halved (None at γ = 1)."""
    return None if decay >= 1 else math.log(0.5) / math.log(decay)


class Mix:
    """One mixer on one sentence, both forms: `mask` L and `scores` s (n×n, 0 above the diagonal),
    `outputs` the matrix form's y rows; `states` S_i after each word (d_k×d_v), `normalisers` z_i
    (linear's, else None), `recurrent` y from the states; `delta` Δ_t and `keep` a_t (selective),
    `decay` γ (retention); `written[t]` what word t writes (φ(k_t)v_tᵀ, k_t v_tᵀ or Δ_t·k_t v_tᵀ)."""

    __slots__ = ("kind", "decay", "delta", "keep", "mask", "scores", "outputs", "states", "normalisers",
                 "recurrent", "written", "d_k", "d_v", "scale")

    def __init__(self, **fields):
        for name in self.__slots__:
            setattr(self, name, fields.get(name))

    @property
    def n(self):
        return len(self.outputs)

    @property
    def state_numbers(self):
        """The numbers the state keeps: d_k·d_v, plus linear's normaliser z (d_k)."""
        return self.d_k * self.d_v + (self.d_k if self.kind == "linear" else 0)

    def cache_numbers(self, n=None):
        """What softmax attention keeps for n words (default: the sentence's): a key and a value a word."""
        return (self.d_k + self.d_v) * (self.n if n is None else n)

    def kept(self, t):
        """How much of the old state word t keeps: 1, γ or a_t."""
        if self.kind == "retention":
            return self.decay
        if self.kind == "selective":
            return self.keep[t]
        return 1.0


def mix(kind, queries, keys, values, scale, cards=None, decay=DEFAULT_DECAY, w_delta=DEFAULT_W_DELTA,
        b_delta=DEFAULT_B_DELTA, a=DEFAULT_A, lazy=None):
    """The mixer `kind` (not softmax) on Q, K, V (n rows each), both forms (`Mix`). `cards`: the
    words' cards x_t, which selective reads Δ from. `lazy`: the matrix form's rows (mask, scores,
    outputs) each computed when first read (None: past LAZY_CELLS cells, as the softmax's)."""
    if kind not in KINDS[1:]:
        raise ValueError(f"mixer {kind!r}: one of {', '.join(KINDS[1:])}")
    n = len(queries)
    d_k, d_v = (len(keys[0]), len(values[0])) if n else (0, 0)
    delta = keep = None
    zeros = [0.0] * n
    # (row by row on columns: q_i·k_j for every j ≤ i as d_k products of a number and a column,
    # added in C; at 200 words the page's answer would otherwise wait on 40,000 small sums)
    asked = {}  # a query seen before (a word that repeats): its q·k (linear: φ(q)·φ(k)) for every key
    if kind == "linear":
        phi_q = [[elu_plus_one(x) for x in q] for q in queries]
        columns = [list(c) for c in zip(*([elu_plus_one(x) for x in k] for k in keys))]

        def mask_row(i):
            return [1.0] * (i + 1) + zeros[i + 1:]

        def score_row(i):
            dots = asked.get(tuple(phi_q[i]))
            if dots is None:
                dots = asked[tuple(phi_q[i])] = _dots(phi_q[i], columns, n)
            return dots[:i + 1] + zeros[i + 1:]
    else:
        columns = [list(c) for c in zip(*keys)]
        if kind == "retention":
            powers = [decay ** m for m in range(n)]  # γ^(i−j) for i − j = 0 … n − 1

            def mask_row(i):
                return powers[i::-1] + zeros[i + 1:]
        else:
            delta = deltas(cards, w_delta, b_delta)
            keep = [math.exp(-a * d) for d in delta]

            def mask_row(i):
                # Π_{r=j+1..i} a_r for j = i, i − 1, …, 0: one factor more at each step back
                products = list(itertools.accumulate(reversed(keep[1:i + 1]), operator.mul, initial=1.0))
                return list(map(operator.mul, reversed(products), delta[:i + 1])) + zeros[i + 1:]

        def score_row(i):
            dots = asked.get(tuple(queries[i]))
            if dots is None:
                dots = asked[tuple(queries[i])] = [x / scale for x in _dots(queries[i], columns, n)]
            return list(map(float.__mul__, mask[i][:i + 1], dots[:i + 1])) + zeros[i + 1:]
    value_columns = [list(c) for c in zip(*values)]

    def output_row(i):
        row = scores[i][:i + 1]
        y = [sum(map(float.__mul__, row, column[:i + 1])) for column in value_columns]
        if kind == "linear":
            total = sum(row)
            y = [x / total for x in y]
        return y

    # A long text's matrix form row by row, each the first time it is read (the views read a few: the
    # selected word's, the stepper's, a window of the grid), as the softmax's rows are (app/
    # attention_fast.py); the recurrent form below runs through every word either way.
    if lazy is None:
        lazy = n * n > LAZY_CELLS
    rows = (lambda make: Lazy(n, make)) if lazy else (lambda make: [make(i) for i in range(n)])
    mask = rows(mask_row)
    scores = rows(score_row)
    outputs = rows(output_row)
    states, normalisers, recurrent, written = [], [] if kind == "linear" else None, [], []
    state = [[0.0] * d_v for _ in range(d_k)]
    z = [0.0] * d_k
    for t in range(n):
        if kind == "linear":
            key, kept = [elu_plus_one(x) for x in keys[t]], 1.0
        elif kind == "retention":
            key, kept = list(keys[t]), decay
        else:
            key, kept = [delta[t] * x for x in keys[t]], keep[t]
        write = [[key[r] * values[t][c] for c in range(d_v)] for r in range(d_k)]
        state = [[kept * state[r][c] + write[r][c] for c in range(d_v)] for r in range(d_k)]
        written.append(write)
        states.append(state)
        if kind == "linear":
            z = [z[r] + key[r] for r in range(d_k)]
            normalisers.append(z)
            fq = [elu_plus_one(x) for x in queries[t]]
            below = dot(fq, z)
            recurrent.append([sum(fq[r] * state[r][c] for r in range(d_k)) / below for c in range(d_v)])
        else:
            recurrent.append([sum(queries[t][r] * state[r][c] for r in range(d_k)) / scale
                              for c in range(d_v)])
    return Mix(kind=kind, decay=decay if kind == "retention" else None, delta=delta, keep=keep, mask=mask,
               scores=scores, outputs=outputs, states=states, normalisers=normalisers, recurrent=recurrent,
               written=written, d_k=d_k, d_v=d_v, scale=scale)
