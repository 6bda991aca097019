"""The page's fast path of `app/attention.py`'s `attend_qkv`: the same numbers, bit for bit
(tests/test_attention.py compares every field of the two on random matrices), with less work
per cell, for a long text on a phone. Read `app/attention.py` for the formula; this file
only says how the same operations are done faster:

- the dot products are made a key column at a time, skipping a query's zero components and
  reusing the products of a column by a value already seen (a card's components take few
  values), and a query seen before (a repeated word) is computed once;
- the softmax runs over the row's candidates as slices (`candidate_runs`) with `map` over
  bound methods: the same operations as `x - top`, `e * scale`, `x / total` a cell, at about
  half the cost of comprehensions;
- a row's output sums only the span of its candidates (outside it the weights are 0);
- a long text's rows (past LAZY_CELLS cells) are each computed the first time something reads
  them (`Lazy`): a setting change at 200 words computes the rows the grid's window shows and
  the selected word's, not 200; the others follow when scrolled to, exported or read. A row's
  candidates and mask flags are read apart from its numbers (the state's count of cells computed
  reads every row's candidates and no number).

Imports only `math` and `app.attention`, so it runs in CPython and in the browser alike.
"""

import math

from app.attention import (EXP_CAP, ROW_FIELDS, TINY, candidate_flags, divisor_for, exact_sum_of_products,
                           matrix_record)

LAZY_CELLS = 4096  # a matrix of more cells (n_q·n_k) computes each row when first read


class Lazy:
    """A list of n items, each computed by `item(i)` the first time it is read, then kept.
    It reads like a list (index, slice, iterate, len, ==), so the record's readers need not know."""

    __slots__ = ("item", "done")
    _MISSING = object()

    def __init__(self, n, item):
        self.item, self.done = item, [self._MISSING] * n

    def __len__(self):
        return len(self.done)

    def __getitem__(self, i):
        if isinstance(i, slice):
            return [self[k] for k in range(*i.indices(len(self.done)))]
        value = self.done[i]  # (IndexError past the end, as a list)
        if value is self._MISSING:
            value = self.done[i] = self.item(i % len(self.done))
        return value

    def __iter__(self):
        return (self[i] for i in range(len(self.done)))

    def __eq__(self, other):
        return isinstance(other, (list, Lazy)) and list(self) == list(other)

    __hash__ = None


def flags_of(i, n_k, square, mask, include_self, allowed):
    """`app.attention.candidate_flags`, the same two lists, made by slices under a pattern: before i,
    and after it without the mask, row i's cells of the pattern as they are (the rule lets every key
    through there); after it under the mask, none. (The state counts every row's candidates: at 200
    words that is 40,000 cells a change.)"""
    if allowed is None or not square:
        return candidate_flags(i, n_k, square, mask, include_self, allowed)
    cells, after = allowed[i], n_k - i - 1
    candidates = cells[:i] + [bool(include_self) and cells[i]] + ([False] * after if mask else cells[i + 1:])
    return candidates, [False] * (i + 1) + [bool(mask)] * after


def candidate_runs(candidates):
    """The runs of candidates of a row as (start, stop) slices (a row has one to three)."""
    runs, n, start = [], len(candidates), 0
    while True:
        try:
            start = candidates.index(True, start)
        except ValueError:
            return runs
        try:
            stop = candidates.index(False, start)
        except ValueError:  # candidates to the end
            stop = n
        runs.append((start, stop))
        start = stop


def softmax_row(logits, runs):
    """(exps, exp_sum, weights) of one row: e^logit as shown (capped), stable weights.
    `runs`: the row's candidate_runs (non-candidates get no e^logit and weigh exactly 0).

    The same rule as `app.attention.softmax_row`, over slices of the candidates.
    """
    n = len(logits)
    exps, weights = [None] * n, [0.0] * n
    if not runs:
        return exps, 0.0, weights
    picked = logits[runs[0][0]:runs[0][1]]
    for start, stop in runs[1:]:
        picked += logits[start:stop]
    top = max(picked)
    shifted = list(map(math.exp, map(top.__rsub__, picked)))  # stable softmax: e^(x − top)
    total = sum(shifted)
    scale = math.exp(top) if top <= EXP_CAP else None
    if scale is not None and min(shifted) > TINY:
        shown = list(map(scale.__mul__, shifted))
    else:  # (a shifted exponential below ~1e-290 nears the subnormals and loses digits:
        # then e^logit on its own)
        shown = [e * scale if scale is not None and e > TINY else math.exp(min(x, EXP_CAP))
                 for e, x in zip(shifted, picked)]
    ratios = list(map(total.__rtruediv__, shifted))  # x / total
    k = 0
    for start, stop in runs:
        exps[start:stop], weights[start:stop] = shown[k:k + stop - start], ratios[k:k + stop - start]
        k += stop - start
    return exps, sum(shown), weights


def row_dots(q, key_columns, n_k, scaled_columns):
    """q · k_j for every key, a column at a time (zero components cost nothing): [n_k].
    `scaled_columns`: a dict kept across the rows of one matrix, {(c, q_c): q_c × column c}
    (a card's components take few values, so most rows reuse these products)."""
    dots = [0.0] * n_k
    for c, (qc, column) in enumerate(zip(q, key_columns)):
        if qc:
            products = scaled_columns.get((c, qc))
            if products is None:
                products = scaled_columns[(c, qc)] = list(map(qc.__mul__, column))
            dots = list(map(float.__add__, dots, products))
    return dots


def attend_qkv(queries, keys, values, mask=False, include_self=False, scaled=True, temperature=1.0,
               slope=0.0, allowed=None):
    """`app.attention.attend_qkv`, faster: the same arguments, the same record."""
    if not temperature > 0:
        raise ValueError(f"temperature must be positive, not {temperature}")
    if len(keys) != len(values):
        raise ValueError(f"{len(keys)} keys but {len(values)} values")
    queries = [list(map(float, r)) for r in queries]
    keys = [list(map(float, r)) for r in keys]
    values = [list(map(float, r)) for r in values]
    n_q, n_k = len(queries), len(keys)
    d_k = len(keys[0]) if keys else (len(queries[0]) if queries else 0)
    square = n_q == n_k
    divisor = divisor_for(d_k, scaled, temperature)
    key_columns = [list(c) for c in zip(*keys)]  # Kᵀ [d_k, n_k]
    value_columns = [list(c) for c in zip(*values)]  # Vᵀ [d_v, n_k]

    asked = {}  # a query seen before (a word that repeats): its dots and logits, computed once
    scaled_columns = {}
    flags = Lazy(n_q, lambda i: flags_of(i, n_k, square, mask, include_self, allowed))

    def row(i):
        """Row i's (candidates, masked, dots, logits, exps, exp_sum, weights, output)."""
        q = queries[i]
        candidates, masked = flags[i]
        known = asked.get(tuple(q))
        if known is None:
            dots = row_dots(q, key_columns, n_k, scaled_columns)  # row i of QKᵀ
            known = asked[tuple(q)] = (dots, list(map(divisor.__rtruediv__, dots)))  # d / divisor
        dots, logits = list(known[0]), list(known[1])
        if slope:
            logits = [x - (slope * abs(i - j) if candidates[j] else 0.0) for j, x in enumerate(logits)]
        if mask and square:  # the keys after i are hidden: masked is False up to i, then True
            hidden = [None] * (n_k - i - 1)
            dots, logits = dots[:i + 1] + hidden, logits[:i + 1] + hidden
        runs = candidate_runs(candidates)
        exps, exp_sum, weights = softmax_row(logits, runs)
        output = None
        if runs:  # Σ_j w_ij · v_j  [d_v] (non-candidates weigh exactly 0)
            lo, hi = runs[0][0], runs[-1][1]  # (zeros outside)
            output = [exact_sum_of_products(weights[lo:hi], column[lo:hi]) for column in value_columns]
        return candidates, masked, dots, logits, exps, exp_sum, weights, output

    settings = (mask and square, include_self, scaled, temperature, slope, d_k, divisor)
    if n_q * n_k <= LAZY_CELLS:
        record = matrix_record([row(i) for i in range(n_q)], queries, keys, values, *settings)
        record.pattern = allowed
        return record
    rows = Lazy(n_q, row)
    record = matrix_record([], queries, keys, values, *settings)
    record.pattern = allowed
    for k, name in enumerate(ROW_FIELDS):
        setattr(record, name, Lazy(n_q, (lambda i, k=k: flags[i][k]) if k < 2 else (lambda i, k=k: rows[i][k])))
    return record
