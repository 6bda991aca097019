"""The cost lab's patterns (docs/DESIGN.md, "Cost of the pattern"): which cells of the attention
matrix are computed at all. app/contract.py hands the cells to attend_qkv (`allowed`), which
takes the softmax over the candidates they leave; linear attention's kernel is app/attention.py's
`linearize`. The cells computed as n grows, for the lab's cost view, are `cells_at`."""

import random

# The cost lab's patterns (docs/DESIGN.md, "Cost of the pattern"): which cells are computed at all.
PATTERNS = ("full", "window", "local_global", "bigbird", "linear")
DEFAULT_WINDOW = 2  # a window pattern's w when the `window` setting says none
DEFAULT_RANDOM = 2  # BigBird's random keys per row when the `random` setting says none


def pattern_cells(pattern, n_q, n_k, window=None, global_tokens=(), random_keys=None, seed=None):
    """The cells a pattern computes, [n_q][n_k] booleans, before the mask and the self rule (which
    `candidate_flags` adds); None for `full` and `linear` (every cell).

    window: |i − j| ≤ w, two-sided (Longformer's and BigBird's local part; under the causal mask it
      is one-sided, Mistral's sliding window: the word and the w before it).
    local_global: the window, and a global position sees every key and is seen by every query
      (Longformer's symmetric global attention).
    bigbird: local_global plus r keys per row drawn among those left out, from `seed` (BigBird's
      random part): the same seed draws the same keys, row by row (Python's own generator, seeded
      by the text "bigbird:<seed>:<row>").
    """
    if pattern in ("full", "linear"):
        return None
    w = DEFAULT_WINDOW if window is None else int(window)
    cells = [window_row(i, n_k, w) for i in range(n_q)]
    if pattern in ("local_global", "bigbird"):
        found = applied_globals(global_tokens, n_q, n_k)
        for i in range(n_q):
            if i in found:
                cells[i] = [True] * n_k
            else:
                for g in found:
                    if g < n_k:
                        cells[i][g] = True
    if pattern == "bigbird":
        r = DEFAULT_RANDOM if random_keys is None else int(random_keys)
        for i in range(n_q):
            left = [j for j in range(n_k) if not cells[i][j]]
            for j in random.Random(f"bigbird:{0 if seed is None else seed}:{i}").sample(left, min(r, len(left))):
                cells[i][j] = True
    return cells


def window_row(i, n_k, w):
    """Row i of the window: |i − j| ≤ w for each key j, as one run of True among False (made whole,
    not cell by cell: a 200-word text has 40,000 cells)."""
    lo = min(max(0, i - w), n_k)
    hi = max(lo, min(n_k, i + w + 1))
    return [False] * lo + [True] * (hi - lo) + [False] * (n_k - hi)


def applied_globals(global_tokens, n_q, n_k):
    """The global positions a pattern applies: sorted, each once, those inside the text."""
    return sorted({g for g in global_tokens if 0 <= g < max(n_q, n_k)})


def named(pattern, n_q, n_k, window=None, global_tokens=(), random_keys=None):
    """The pattern's own settings as they apply (the state's `cost`, docs/DESIGN.md): its name, the
    window w it uses (None under full and linear), the global positions it applies ([] unless
    local_global or bigbird) and the random keys a row it adds (None unless bigbird); each default
    (w = 2, r = 2) written as the number it stands for."""
    windowed = pattern in ("window", "local_global", "bigbird")
    return {"pattern": pattern,
            "window": (DEFAULT_WINDOW if window is None else int(window)) if windowed else None,
            "global": applied_globals(global_tokens, n_q, n_k) if pattern in ("local_global", "bigbird") else [],
            "random": (DEFAULT_RANDOM if random_keys is None else int(random_keys)) if pattern == "bigbird" else None}


def window_cells(n, w, mask=False, include_self=True):
    """How many cells a window of w leaves in an n × n matrix: n on the diagonal and 2(n − d) at
    each distance d = 1…w (half of them under the causal mask); without the word itself, n fewer."""
    w = min(w, n - 1)
    off = sum(n - d for d in range(1, w + 1))
    return (n if include_self else 0) + (off if mask else 2 * off)


def cells_at(pattern, n, window=None, n_global=0, random_keys=None, mask=False, include_self=True):
    """The cells a pattern computes for a text of n words, by its own rule (its first n_global words
    global): what the cost view draws as n grows to 100,000, without making the n × n matrix. For
    local_global and bigbird the global rows and columns are counted without their overlap with the
    window (at most g·(2w + g) cells): the count may be a little high, never low by more than that."""
    if pattern in ("full", "linear"):
        if mask:
            return n * (n + 1) // 2 - (0 if include_self else n)
        return n * n - (0 if include_self else n)
    w = DEFAULT_WINDOW if window is None else int(window)
    cells = window_cells(n, w, mask, include_self)
    if pattern in ("local_global", "bigbird"):
        g = min(n_global, n)
        cells = min(n * n, cells + 2 * g * n)
    if pattern == "bigbird":
        r = DEFAULT_RANDOM if random_keys is None else int(random_keys)
        cells = min(n * n, cells + r * n)
    return cells
