"""Independent reference for the whole attention matrix, written with numpy (tests only)."""

from decimal import ROUND_HALF_UP, Decimal

import numpy as np


def rule_number(x, decimals, lang):
    """The README's rounding rule followed literally with `decimal`: x written with 15
    significant digits, then rounded half up to `decimals` digits; Italian decimal comma
    and a true minus sign."""
    shown = Decimal(format(x, ".15g")).quantize(Decimal(1).scaleb(-decimals), rounding=ROUND_HALF_UP)
    text = format(abs(shown), "f") if shown == 0 else format(shown, "f")
    text = text.replace("-", "−")
    return text.replace(".", ",") if lang == "it" else text


def rule_percent(weight, decimals, lang):
    """A displayed percentage by the README's rule: 100 × weight, rounded on its own."""
    return rule_number(100 * weight, decimals, lang) + "%"


def attention_matrix(q, k, v, mask=False, include_self=False, scaled=True, temperature=1.0, slope=0.0):
    """Every intermediate of softmax(QKᵀ/divisor − m|i−j|)·V as numpy arrays.

    Returns a dict: dots and logits [n_q, n_k] (the −m|i−j| bias on candidates only),
    allowed [n_q, n_k] (candidates), exps (e^logit on candidates, 0 elsewhere), exp_sums
    [n_q], weights [n_q, n_k], output [n_q, d_v] (NaN rows where nothing is allowed).
    """
    q, k, v = (np.asarray(m, dtype=float) for m in (q, k, v))
    n_q, n_k = len(q), len(k)
    d_k = k.shape[1]
    divisor = (np.sqrt(d_k) if scaled else 1.0) * temperature
    dots = q @ k.T
    i, j = np.indices((n_q, n_k))
    allowed = np.ones((n_q, n_k), dtype=bool)
    if n_q == n_k:
        if mask:
            allowed &= j <= i
        if not include_self:
            allowed &= i != j
    logits = dots / divisor - np.where(allowed, slope * np.abs(i - j), 0.0)
    masked_logits = np.where(allowed, logits, -np.inf)
    top = np.max(masked_logits, axis=1, keepdims=True)
    top = np.where(np.isfinite(top), top, 0.0)
    e = np.where(allowed, np.exp(masked_logits - top), 0.0)
    sums = e.sum(axis=1, keepdims=True)
    weights = np.divide(e, sums, out=np.zeros_like(e), where=sums > 0)
    output = weights @ v
    output[~allowed.any(axis=1)] = np.nan
    exps = np.where(allowed, np.exp(np.where(allowed, logits, 0.0)), 0.0)
    return {"dots": dots, "logits": logits, "allowed": allowed, "exps": exps,
            "exp_sums": exps.sum(axis=1), "weights": weights, "output": output, "divisor": divisor}
