"""Scaled dot-product attention for every query row, with every intermediate kept.

The whole formula of the page lives here (shapes in brackets; n_q query rows, n_k key
rows, d the width of a card, d_k of a query/key, d_v of a value):

    Q        = X_q · W_Q                    # [n_q, d_k]  each word's card turned into a question
    K        = X_k · W_K                    # [n_k, d_k]  W_K = identity: the keys are the cards
    V        = X_k · W_V                    # [n_k, d_v]  W_V = identity: the values are the cards
    dot_ij   = q_i · k_j                    # [n_q, n_k]  QKᵀ
    divisor  = (√d_k if scaled else 1) × T  # T: temperature
    logit_ij = dot_ij / divisor − m·|i − j| # m: distance-bias slope (0 = off), candidates only
    w_ij     = softmax over the candidates of row i (0 for the others)
    out_i    = Σ_j w_ij · v_j               # [n_q, d_v]  the word's new, context-mixed card

Candidates of row i: every key j that is not masked (causal mask: j > i) and is not the
word itself (j = i) unless `include_self`. With n_q ≠ n_k (cross-attention) there is no
diagonal and no mask: every key is a candidate.

This module imports only `math`, so it runs unchanged in CPython and in the browser.
`attend` returns one `Attention` record for the whole matrix; a word click only reads a
row of it (`record.row(i)`). The views, the CSV and the state JSON read this record and
never recompute anything. It is written to be read beside the course; the page computes
the same numbers, bit for bit, with `app/attention_fast.py` (less work per cell, for long
texts on phones), and the tests hold the two equal.
"""

import math

# The four numbers of a card, in order. The fourth is a *function word*: a little word
# that points to another one (article, pronoun, preposition, conjunction); the page calls
# it «rimando» in Italian and "pointer" in English (app/i18n.py). The contract keys stay
# these English names whatever the page's language.
FEATURES = ("alive", "action", "thing", "function")
D_MODEL = len(FEATURES)  # width of a card: 4
D_K = D_MODEL  # the designed heads keep d_k = 4 (the lexicon checks cards against it)
EXP_CAP = 709.0  # e^709 is about the largest float: e^logit is shown capped there
TINY = 1e-290  # below this a shifted exponential has lost digits (subnormals start at 2.2e-308)

# W_Q: the "question" matrix. Row i says what a word that has feature i looks for in
# the other words (columns: alive, action, thing, function). q = x · W_Q, so a card
# that is a mix of features asks a mix of the rows' questions. The last column is all
# zeros: no word of this toy looks for function words.
W_Q = (
    # alive action thing function    (what the query asks for)
    (0.0, 3.0, 0.5, 0.0),  # alive: a living being looks for its action (what it does)
    (3.0, 0.0, 2.0, 0.0),  # action: a verb looks for who does it, then what it is done to
    (1.0, 2.0, 0.0, 0.0),  # thing: an object looks for the action on it, and its owner
    (2.0, 0.0, 2.0, 0.0),  # function: a little word looks for the noun it points to
)
IDENTITY = tuple(tuple(1.0 if i == j else 0.0 for j in range(D_MODEL)) for i in range(D_MODEL))
W_K = IDENTITY  # keys are the cards themselves
W_V = IDENTITY  # values are the cards themselves

# A query "asks for" every feature whose component is at least this share of its largest.
ASKS_FOR_SHARE = 0.5
# A query whose largest component is below this is "weak": its bars are nearly flat.
WEAK_QUERY = 1.0


def matmul(a, b):
    """[n, d] · [d, e] -> [n, e] (lists of rows)."""
    cols = list(zip(*b))
    return [[sum(x * y for x, y in zip(row, col)) for col in cols] for row in a]


def is_identity(m):
    return all(len(row) == len(m) and all(v == (1.0 if i == j else 0.0) for j, v in enumerate(row))
               for i, row in enumerate(m))


def project(x, w):
    """x · W, skipping the work when W is the identity (the default keys and values)."""
    return [list(map(float, row)) for row in x] if is_identity(w) else matmul(x, w)


def asks_for(query, share=ASKS_FOR_SHARE):
    """Indices of the features the query looks for, largest first.

    A feature counts when its component is positive and at least `share` of the
    largest component; an all-zero query asks for nothing (empty list).
    """
    top = max(query)
    if top <= 0:
        return []
    picked = [j for j, v in enumerate(query) if v > 0 and v >= share * top]
    return sorted(picked, key=lambda j: (-query[j], j))


def divisor_for(d_k, scaled=True, temperature=1.0):
    """(√d_k if scaled else 1) × T: what every dot product is divided by."""
    return (math.sqrt(d_k) if scaled else 1.0) * temperature


class Row:
    """One query row of the record: what the bars, the steps table and the output show.

    Lists have one entry per key (length n_k); `None` marks a value that does not exist
    (a masked word has no dot or logit, a non-candidate no exponential).
    """

    __slots__ = ("record", "focus", "query", "candidates", "masked", "dots", "logits", "exps",
                 "exp_sum", "weights", "output")

    def __init__(self, record, i):
        self.record, self.focus = record, i
        self.query = record.queries[i]
        self.candidates, self.masked = record.candidates[i], record.masked[i]
        self.dots, self.logits, self.exps = record.dots[i], record.logits[i], record.exps[i]
        self.exp_sum, self.weights = record.exp_sums[i], record.weights[i]
        self.output = record.outputs[i]

    @property
    def n(self):
        return len(self.weights)

    @property
    def asks_for(self):
        return asks_for(self.query)

    @property
    def has_candidates(self):
        return any(self.candidates)

    @property
    def candidate_count(self):
        return sum(self.candidates)

    @property
    def weak(self):
        """The question is too faint to prefer anyone much: largest component < 1."""
        return max(self.query) < WEAK_QUERY

    def status(self, j):
        """'candidate', 'query' (the asking word itself, not included) or 'masked'."""
        if self.candidates[j]:
            return "candidate"
        return "masked" if self.masked[j] else "query"


class Attention:
    """Every step of softmax(QKᵀ / divisor) · V for all query rows at once.

    Matrices are lists of rows: queries [n_q, d_k], keys [n_k, d_k], values [n_k, d_v],
    candidates/masked/dots/logits/exps/weights [n_q, n_k], exp_sums [n_q], outputs
    [n_q, d_v] with `None` for a row that has no candidate.
    """

    __slots__ = ("w_q", "w_k", "w_v", "mask", "include_self", "scaled", "temperature", "slope",
                 "d_k", "divisor", "queries", "keys", "values", "candidates", "masked", "dots",
                 "logits", "exps", "exp_sums", "weights", "outputs",
                 # filled by app/contract.py when several heads run (app/heads.py): every
                 # head's record in order, their outputs side by side and projected by W_O
                 "head_records", "concat", "multihead_output",
                 # and the second layer's record, whose input cards are this layer's output
                 "layer2")

    def __init__(self, **fields):
        for name in self.__slots__:
            setattr(self, name, fields.get(name))

    @property
    def n_q(self):
        return len(self.queries)

    @property
    def n_k(self):
        return len(self.keys)

    @property
    def square(self):
        """Self-attention: one row and one column per word (a diagonal, a possible mask)."""
        return self.n_q == self.n_k

    def row(self, i):
        if not 0 <= i < self.n_q:
            raise ValueError(f"row {i} is outside the matrix (0..{self.n_q - 1})")
        return Row(self, i)


def candidate_flags(i, n_k, square, mask, include_self):
    """([candidate], [masked]) for query row i: who row i may look at, who the mask hides."""
    if not square:
        return [True] * n_k, [False] * n_k
    after = n_k - i - 1  # the keys after word i: hidden by the mask
    masked = [False] * (i + 1) + [bool(mask)] * after
    return [True] * i + [bool(include_self)] + [not mask] * after, masked


ROW_FIELDS = ("candidates", "masked", "dots", "logits", "exps", "exp_sums", "weights", "outputs")  # a row's, in order


def matrix_record(rows, queries, keys, values, mask, include_self, scaled, temperature, slope, d_k, divisor):
    """The `Attention` record of the rows (each: candidates, masked, dots, logits, exps,
    exp_sum, weights, output) of Q [n_q, d_k], K [n_k, d_k], V [n_k, d_v] and their settings."""
    table = {name: [row[k] for row in rows] for k, name in enumerate(ROW_FIELDS)}
    return Attention(w_q=None, w_k=None, w_v=None, mask=bool(mask), include_self=bool(include_self),
                     scaled=bool(scaled), temperature=float(temperature), slope=float(slope), d_k=d_k,
                     divisor=divisor, queries=queries, keys=keys, values=values, **table)


def softmax_row(logits, candidates):
    """(exps, exp_sum, weights) of one row, over its candidates [n_k]: e^logit as shown
    (None for a non-candidate), their sum, and the weights (exactly 0 for a non-candidate).

    The weights are the stable softmax: e^(logit − top) / Σ e^(logit − top), top the largest
    logit, so nothing overflows. The e^logit shown is e^top · e^(logit − top), capped at
    e^EXP_CAP; where the shifted exponential is so small that it has lost digits (below TINY),
    e^logit is computed on its own.
    """
    n = len(logits)
    picked = [j for j in range(n) if candidates[j]]
    if not picked:
        return [None] * n, 0.0, [0.0] * n
    top = max(logits[j] for j in picked)
    shifted = {j: math.exp(logits[j] - top) for j in picked}  # e^(logit − top) ≤ 1
    total = sum(shifted[j] for j in picked)
    scale = math.exp(top) if top <= EXP_CAP else None  # e^top, unless it overflows

    def shown(j):
        if scale is not None and shifted[j] > TINY:
            return shifted[j] * scale
        return math.exp(min(logits[j], EXP_CAP))

    exps = [shown(j) if candidates[j] else None for j in range(n)]
    weights = [shifted[j] / total if candidates[j] else 0.0 for j in range(n)]
    return exps, sum(exps[j] for j in picked), weights


# Σ_j w_j · v_j of an output, exact to about the last bit whatever the order of the terms:
# math.sumprod where there is one (Python ≥ 3.12, as in the browser), else math.fsum.
exact_sum_of_products = getattr(math, "sumprod", None) or (lambda p, q: math.fsum(x * y for x, y in zip(p, q)))


def attend(cards, mask=False, include_self=False, w_q=W_Q, w_k=W_K, w_v=W_V, scaled=True,
           temperature=1.0, slope=0.0, key_cards=None, qkv=None):
    """The whole attention matrix for `cards` (self-attention), or for `cards` asking
    `key_cards` (cross-attention, n_q may differ from n_k), with every intermediate.

    Q = cards · W_Q, K = key_cards · W_K, V = key_cards · W_V; then `attend_qkv` (or `qkv`,
    a function of the same arguments: the page passes app/attention_fast.py's).
    """
    key_cards = cards if key_cards is None else key_cards
    for name, rows, w in (("card", cards, w_q), ("key card", key_cards, w_k)):
        for j, card in enumerate(rows):
            if len(card) != len(w):
                raise ValueError(f"{name} {j} has {len(card)} numbers, expected {len(w)}")
    record = (qkv or attend_qkv)(project(cards, w_q), project(key_cards, w_k), project(key_cards, w_v),
                                 mask, include_self, scaled, temperature, slope)
    record.w_q, record.w_k, record.w_v = ([list(map(float, r)) for r in w] for w in (w_q, w_k, w_v))
    return record


def attend_qkv(queries, keys, values, mask=False, include_self=False, scaled=True, temperature=1.0,
               slope=0.0):
    """softmax(QKᵀ / divisor − m·|i − j|) · V for Q [n_q, d_k], K [n_k, d_k], V [n_k, d_v].

    mask: causal mask (row i does not see keys after i; weight exactly 0).
    include_self: row i may look at key i (what a real model does).
    scaled/temperature: divide by (√d_k if scaled else 1) × temperature.
    slope: m ≥ 0 of the distance bias −m·|i − j| added to candidates' logits.
    With n_q ≠ n_k there is no diagonal and no mask: every key is a candidate.
    """
    if not temperature > 0:
        raise ValueError(f"temperature must be positive, not {temperature}")
    if len(keys) != len(values):
        raise ValueError(f"{len(keys)} keys but {len(values)} values")
    Q = [[float(x) for x in row] for row in queries]  # [n_q, d_k]
    K = [[float(x) for x in row] for row in keys]  # [n_k, d_k]
    V = [[float(x) for x in row] for row in values]  # [n_k, d_v]
    n_q, n_k = len(Q), len(K)
    d_k = len(K[0]) if K else (len(Q[0]) if Q else 0)
    d_v = len(V[0]) if V else 0
    square = n_q == n_k  # self-attention: a diagonal, and a mask is possible
    divisor = divisor_for(d_k, scaled, temperature)

    rows = []  # a row's (candidates, masked, dots, logits, exps, exp_sum, weights, output)
    for i, q in enumerate(Q):
        candidates, masked = candidate_flags(i, n_k, square, mask, include_self)  # [n_k], [n_k]
        dots = [None if masked[j] else sum(q_c * k_c for q_c, k_c in zip(q, K[j]))
                for j in range(n_k)]  # row i of QKᵀ [n_k]
        logits = [None if masked[j] else dots[j] / divisor - (slope * abs(i - j) if slope and candidates[j] else 0.0)
                  for j in range(n_k)]  # [n_k]
        exps, exp_sum, weights = softmax_row(logits, candidates)  # [n_k], a number, [n_k]
        output = None
        if any(candidates):  # Σ_j w_ij · v_j  [d_v] (non-candidates weigh exactly 0)
            output = [exact_sum_of_products(weights, [V[j][c] for j in range(n_k)]) for c in range(d_v)]
        rows.append((candidates, masked, dots, logits, exps, exp_sum, weights, output))

    return matrix_record(rows, Q, K, V, mask and square, include_self, scaled, temperature, slope, d_k, divisor)
