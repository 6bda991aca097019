"""Independent references for the tests: the attention row and the whole matrix with numpy, the lexicon files read
by a parser of their own, and the display rule for numbers written with `decimal`."""

from decimal import ROUND_HALF_UP, Decimal
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parent.parent

# The designed question matrix (the first head), as README and app/attention.py explain it
# row by row; written out here so that browser checks never take it from the page.
W_Q = [
    [0.0, 3.0, 0.5, 0.0],  # alive: a living being looks for its action
    [3.0, 0.0, 2.0, 0.0],  # action: a verb looks for who does it, then what it is done to
    [1.0, 2.0, 0.0, 0.0],  # thing: an object looks for the action on it, and its owner
    [2.0, 0.0, 2.0, 0.0],  # function: a little word looks for the noun it points to
]


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


GENERATED = {"it": "gpl/it.txt", "en": "cc-by-sa/en.txt"}  # docs/lexicon-format.md


def lexicon_cards(lang):
    """Word (lower case) → card, read from the lexicon files by a parser of our own: the one
    place that knows their format (docs/lexicon-format.md). First the generated file
    (`= A B C D CLASS` sets the card of the word lines after it; the `name` and `place`
    classes are only for guesses and are left out), then the teacher's CSV, whose rows win:
    lines starting with # are comments, the first other line is the header; columns are
    split by ',' (or by ';' with decimal commas, as an Italian spreadsheet saves them); a
    row that is not a word and four numbers is left out; the first of a repeated word wins."""
    cards, card = {}, None
    for line in (ROOT / "lexicon" / GENERATED[lang]).read_text(encoding="utf-8").split("\n"):
        if not line or line.startswith("#"):
            continue
        if line.startswith("= "):
            fields = line.split()
            card = None if fields[5] in ("name", "place") else [float(v) for v in fields[1:5]]
        elif card is not None:
            cards[line] = card
    override = {}
    lines = (ROOT / "lexicon" / f"{lang}.csv").read_text(encoding="utf-8-sig").splitlines()
    rows = [line for line in lines if line.strip() and not line.lstrip().startswith("#")]
    for line in rows[1:]:
        word, *values = line.split(";" if ";" in line else ",")
        try:
            row = [float(v.strip().replace(",", ".")) for v in values]
        except ValueError:
            continue
        if len(row) == 4:
            override.setdefault(word.strip().lower(), row)
    return cards | override


def shown(value, decimals, lang):
    """The text of a displayed number, by the design's rule: `value` written with 15 significant
    digits, then rounded half up to `decimals` digits; the language's decimal mark (it: ',',
    en: '.') and a true minus sign '−' (never on a zero)."""
    rounded = Decimal(f"{value:.15g}").quantize(Decimal(1).scaleb(-decimals), rounding=ROUND_HALF_UP)
    if rounded == 0:
        rounded = abs(rounded)
    text = f"{rounded:f}".replace("-", "−")
    return text.replace(".", ",") if lang == "it" else text


def shown_short(value, decimals, lang):
    """As `shown`, without trailing zeros: 0,9 · 1 · 0,125 (vectors and cards)."""
    text = shown(value, decimals, lang)
    mark = "," if lang == "it" else "."
    return text.rstrip("0").rstrip(mark) if mark in text else text


def rule_percent(weight, decimals, lang):
    """A displayed percentage by the README's rule: 100 × weight, rounded on its own."""
    return shown(100 * weight, decimals, lang) + "%"


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
