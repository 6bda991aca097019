"""Independent reference for the attention row, written with numpy (tests only)."""

import numpy as np


def attention_row(cards, w_q, focus, mask=False, include_self=False):
    """(query, logits, weights) with -inf for masked words and 0 weight for non-candidates."""
    x = np.asarray(cards, dtype=float)  # (n, d)
    w = np.asarray(w_q, dtype=float)  # (d, d)
    n, d_k = x.shape
    q = x[focus] @ w  # (d,)
    scores = (x @ q) / np.sqrt(d_k)  # (n,)  one row of QKᵀ/√d_k with K = X
    allowed = np.ones(n, dtype=bool)
    if mask:
        allowed &= np.arange(n) <= focus
    if not include_self:
        allowed[focus] = False
    logits = np.where(allowed, scores, -np.inf)
    weights = np.zeros(n)
    if allowed.any():
        e = np.exp(logits[allowed] - logits[allowed].max())
        weights[allowed] = e / e.sum()
    return q, scores, weights, allowed
