"""Scaled dot-product attention for one query, with every intermediate kept.

The whole formula of the page lives here:

    q        = x · W_Q                      # (4,)  the clicked word's card turned into a question
    k_j      = card_j                       # (4,)  W_K is the identity
    dot_j    = q · k_j                      # QKᵀ, one row of it
    logit_j  = dot_j / √d_k                 # d_k = 4, so ÷ 2
    weight_j = softmax(logits over candidates)_j   (0 for non-candidates)

This module imports only `math`, so it runs unchanged in CPython and in the browser.
`attend` returns one `Attention` record; the bars, the table and the state JSON read
it and never recompute anything.
"""

import math

FEATURES = ("alive", "action", "thing", "function")  # the four numbers of a card, in order
D_K = len(FEATURES)  # key dimension: 4
SCALE = math.sqrt(D_K)  # √d_k = 2.0

# W_Q: the "question" matrix. Row i says what a word that has feature i looks for in
# the other words (columns: alive, action, thing, function). q = x · W_Q, so a card
# that is a mix of features asks a mix of the rows' questions.
W_Q = (
    # alive action thing function    (what the query asks for)
    (0.0, 3.0, 0.5, 0.0),  # alive: a living being looks for its action (what it does)
    (3.0, 0.0, 2.0, 0.0),  # action: a verb looks for who does it, then what it is done to
    (1.0, 2.0, 0.0, 0.0),  # thing: an object looks for the action on it, and its owner
    (2.0, 0.0, 2.0, 0.0),  # function: a little word looks for the noun it points to
)

# A query "asks for" every feature whose component is at least this share of its largest.
ASKS_FOR_SHARE = 0.5


class Attention:
    """Every step of one attention row, for the word at `focus`.

    Lists have one entry per token (length n); `None` marks a value that does not exist
    for that token (a masked word has no logit, a non-candidate no exponential).
    """

    __slots__ = (
        "cards", "focus", "mask", "include_self", "w_q", "query", "asks_for",
        "candidates", "masked", "dots", "logits", "exps", "exp_sum", "weights", "percents",
    )

    def __init__(self, **fields):
        for name in self.__slots__:
            setattr(self, name, fields[name])

    @property
    def n(self):
        return len(self.cards)

    @property
    def has_candidates(self):
        return any(self.candidates)

    def status(self, j):
        """'candidate', 'query' (the clicked word, not included) or 'masked'."""
        if self.candidates[j]:
            return "candidate"
        return "masked" if self.masked[j] else "query"


def matvec_row(x, m):
    """Row vector times matrix: (d,) · (d, d) -> (d,)."""
    return [sum(x[i] * m[i][j] for i in range(len(x))) for j in range(len(m[0]))]


def dot(a, b):
    return sum(ai * bi for ai, bi in zip(a, b))


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


def percents(weights, candidates):
    """Whole-number percentages of the candidates that add up to exactly 100.

    Largest-remainder rounding on the displayed digits: floor every 100·w, then give the
    missing points to the largest remainders (ties to the earlier word). The weights
    themselves are never changed. Non-candidates show 0. With no candidate at all
    everything is 0 (there is nothing to distribute).
    """
    idx = [j for j, c in enumerate(candidates) if c]
    out = [0] * len(weights)
    if not idx:
        return out
    raw = {j: weights[j] * 100.0 for j in idx}
    for j in idx:
        out[j] = int(math.floor(raw[j]))
    missing = 100 - sum(out[j] for j in idx)
    by_remainder = sorted(idx, key=lambda j: (-(raw[j] - out[j]), j))
    for j in by_remainder[:missing]:
        out[j] += 1
    return out


def candidate_flags(n, focus, mask, include_self):
    """Which tokens the focus word may look at, and which are hidden by the causal mask."""
    masked = [bool(mask and j > focus) for j in range(n)]
    candidates = [(not masked[j]) and (j != focus or include_self) for j in range(n)]
    return candidates, masked


def attend(cards, focus, mask=False, include_self=False, w_q=W_Q):
    """One row of softmax(QKᵀ/√d_k) for the word at `focus`, with every intermediate.

    cards: list of n cards, each D_K numbers. focus: index in range(n).
    mask: causal mask (words after the focus are not candidates, weight exactly 0).
    include_self: the focus word is a candidate too (what a real model does).
    """
    n = len(cards)
    if not 0 <= focus < n:
        raise ValueError(f"focus {focus} is outside the sentence (0..{n - 1})")
    for j, card in enumerate(cards):
        if len(card) != D_K:
            raise ValueError(f"card {j} has {len(card)} numbers, expected {D_K}")

    query = matvec_row(cards[focus], w_q)  # (4,)
    candidates, masked = candidate_flags(n, focus, mask, include_self)

    dots = [None if masked[j] else dot(query, cards[j]) for j in range(n)]  # QKᵀ row
    logits = [None if d is None else d / SCALE for d in dots]  # ÷ √d_k

    idx = [j for j in range(n) if candidates[j]]
    exps = [None] * n
    weights = [0.0] * n
    exp_sum = 0.0
    if idx:
        top = max(logits[j] for j in idx)
        for j in idx:
            exps[j] = math.exp(min(logits[j], 709.0))  # shown as e^logit (capped: no overflow)
        shifted = [math.exp(logits[j] - top) for j in idx]  # stable softmax
        total = sum(shifted)
        for j, e in zip(idx, shifted):
            weights[j] = e / total
        exp_sum = sum(exps[j] for j in idx)

    return Attention(
        cards=[list(c) for c in cards], focus=focus, mask=bool(mask),
        include_self=bool(include_self), w_q=[list(r) for r in w_q], query=query,
        asks_for=asks_for(query), candidates=candidates, masked=masked, dots=dots,
        logits=logits, exps=exps, exp_sum=exp_sum, weights=weights,
        percents=percents(weights, candidates),
    )
