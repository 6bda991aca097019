"""The beyond lab's mixers written again in numpy from docs/DESIGN.md ("Beyond attention: `mixer`"),
for its own tests and for the walk every engine takes over every path (tests/every_step.py reads a
lab's `attention_weights` here, when the state names a mixer)."""

import numpy as np

# The designed defaults, as DESIGN.md gives them (written again here, not read from the page).
W_DELTA, B_DELTA, A, GAMMA = (2.0, 0.5, 2.0, -3.0), -1.0, 1.0, 0.8


def phi(x):
    """elu + 1: x + 1 for x ≥ 0, eˣ below."""
    return np.where(x >= 0, x + 1.0, np.exp(np.minimum(x, 0.0)))


def reference(kind, Q, K, V, X, scale, gamma=GAMMA, w=W_DELTA, b=B_DELTA, A=A):
    """(L, s, y, states, recurrent y, Δ, a) by the contract's formulas: the matrix form and, apart,
    the recurrence."""
    n = len(Q)
    i, j = np.indices((n, n))
    causal = j <= i
    delta = a = None
    if kind == "linear":
        L = causal.astype(float)
        s = (phi(Q) @ phi(K).T) * L
        y = (s @ V) / s.sum(axis=1, keepdims=True)
    else:
        if kind == "retention":
            L = np.where(causal, gamma ** np.maximum(i - j, 0).astype(float), 0.0)
        else:
            z = X @ np.array(w) + b
            delta = np.logaddexp(0.0, z)  # softplus
            a = np.exp(-A * delta)
            L = np.zeros((n, n))
            for r in range(n):
                for c in range(r + 1):
                    L[r, c] = np.prod(a[c + 1: r + 1]) * delta[c]
        s = L * (Q @ K.T) / scale
        y = s @ V
    S = np.zeros((Q.shape[1], V.shape[1]))
    zsum = np.zeros(Q.shape[1])
    states, rec = [], []
    for t in range(n):
        if kind == "linear":
            S = S + np.outer(phi(K[t]), V[t])
            zsum = zsum + phi(K[t])
            rec.append(phi(Q[t]) @ S / (phi(Q[t]) @ zsum))
        elif kind == "retention":
            S = gamma * S + np.outer(K[t], V[t])
            rec.append(Q[t] @ S / scale)
        else:
            S = a[t] * S + delta[t] * np.outer(K[t], V[t])
            rec.append(Q[t] @ S / scale)
        states.append(S.copy())
    return L, s, y, np.array(states), np.array(rec), delta, a


def attention_weights(state, params, q, k, v, cards, divisor):
    """For tests/every_step.py: (the scores, the y rows) numpy gives the state's mixer from the
    active head's q, k, v, the cards and the link's own parameters (`params`: decay, w_delta,
    b_delta, a, else the defaults above); None under softmax or outside sentence mode."""
    mixer = state.get("mixer")
    if mixer is None or cards is None:
        return None
    w = tuple(float(x) for x in params["w_delta"].split(",")) if "w_delta" in params else W_DELTA
    _, s, y, *_ = reference(mixer["kind"], q, k, v, cards, divisor, gamma=float(params.get("decay", GAMMA)),
                            w=w, b=float(params.get("b_delta", B_DELTA)), A=float(params.get("a", A)))
    return s, y
