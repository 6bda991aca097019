"""The trained model's forward pass with numpy: the tests' own reference for app/model.py.

Written from docs/model.md's equations, not from the page's code: embedding plus sinusoidal
positions, two layers of causal attention heads added to the residual stream, the unembedding.
"""

import base64
import json

import numpy as np

from tests.reference import ROOT

FOLDER = ROOT / "model"


def config(arch=None):
    """model.json of the page's model, or of its `arch` ("ssm", "hybrid") in its folder."""
    return json.loads((FOLDER / (arch or "") / "model.json").read_text(encoding="utf-8"))


def weights(file, arch=None):
    """{name: array} of one checkpoint file, float32 as stored, in float64; a layer's "kind"
    ("selective" or "attention") as its file says (attention when it says none)."""
    data = json.loads((FOLDER / (arch or "") / file).read_text(encoding="utf-8"))

    def tensor(t):
        return np.frombuffer(base64.b64decode(t["data"]), dtype="<f4").astype(np.float64).reshape(t["shape"])

    names = ("w_q", "w_k", "w_v", "w_o", "w_delta", "b_delta", "a",
             "ln1_g", "ln1_b", "ln2_g", "ln2_b", "w_1", "b_1", "w_2", "b_2")
    return {"step": data["step"], "embed": tensor(data["embed"]), "unembed": tensor(data["unembed"]),
            "layers": [dict({k: tensor(layer[k]) for k in names if k in layer}, kind=layer.get("kind", "attention"))
                       for layer in data["layers"]],
            "ln_f": (tensor(data["ln_f"]["g"]), tensor(data["ln_f"]["b"])) if "ln_f" in data else None}


def layer_norm(u, g, b, eps=1e-5):
    """torch's LayerNorm on the last axis: (u − mean)/√(var + ε)·γ + β, var without Bessel's correction."""
    mean = u.mean(axis=-1, keepdims=True)
    return (u - mean) / np.sqrt(((u - mean) ** 2).mean(axis=-1, keepdims=True) + eps) * g + b


def block_forward(w, ids):
    """The block model (docs/model.md, "The whole block"): (attention [layer] H×n×n, logits n×26,
    stages: the stream after the embedding, each attention, each FFN, n×d each, hidden: each FFN's
    GELU outputs n×d_ff)."""
    import math
    erf = np.vectorize(math.erf)
    ids = np.asarray(ids)
    n = len(ids)
    x = w["embed"][ids] + sinusoidal(n, w["embed"].shape[1])
    future = np.triu(np.ones((n, n), dtype=bool), 1)
    patterns, stages, hidden = [], [x], []
    for layer in w["layers"]:
        u = layer_norm(x, layer["ln1_g"], layer["ln1_b"])
        q, k, v = (np.einsum("nd,hde->hne", u, layer[name]) for name in ("w_q", "w_k", "w_v"))
        scores = np.where(future, -np.inf, q @ k.transpose(0, 2, 1) / np.sqrt(q.shape[-1]))
        a = np.exp(scores - scores.max(axis=-1, keepdims=True))
        a = a / a.sum(axis=-1, keepdims=True)
        x = x + np.einsum("hne,hed->nd", a @ v, layer["w_o"])
        stages.append(x)
        pre = layer_norm(x, layer["ln2_g"], layer["ln2_b"]) @ layer["w_1"] + layer["b_1"]
        h = 0.5 * pre * (1 + erf(pre / np.sqrt(2)))
        x = x + h @ layer["w_2"] + layer["b_2"]
        stages.append(x)
        hidden.append(h)
        patterns.append(a)
    return patterns, layer_norm(x, *w["ln_f"]) @ w["unembed"], stages, hidden


def selective(x, layer):
    """A selective layer's mixing matrices [head] n×n and its z = s·v [head] n×e, from docs/model.md's
    closed form: Δ = softplus(x·w_Δ + b_Δ), L_ij = Δ_j·exp(−A·Σ_{r=j+1..i} Δ_r) for j ≤ i,
    s_ij = L_ij·q_i·k_j/√N."""
    q = np.einsum("nd,hdk->hnk", x, layer["w_q"])
    k = np.einsum("nd,hdk->hnk", x, layer["w_k"])
    v = np.einsum("nd,hde->hne", x, layer["w_v"])
    u = x @ layer["w_delta"].T + layer["b_delta"]                     # n × H
    delta = np.logaddexp(0.0, u).T                                    # H × n
    c = np.cumsum(delta, axis=1)                                      # Σ_{r≤i} Δ_r
    n = x.shape[0]
    lower = np.tril(np.ones((n, n), dtype=bool))
    gap = np.where(lower, c[:, :, None] - c[:, None, :], np.inf)      # Σ_{r=j+1..i} Δ_r, ∞ after i
    L = np.exp(-layer["a"][:, None, None] * gap) * delta[:, None, :]
    s = L * (q @ k.transpose(0, 2, 1)) / np.sqrt(q.shape[-1])
    return s, s @ v


def sinusoidal(n, d):
    i = np.arange(n)[:, None]
    k = np.arange(0, d, 2)[None, :]
    angle = i / np.power(10000.0, k / d)
    p = np.zeros((n, d))
    p[:, 0::2], p[:, 1::2] = np.sin(angle), np.cos(angle)
    return p


def forward(w, ids, window=None):
    """(attention [layer][head] n×n, logits n×26) of token ids (start token first); `window` w:
    position i sees only i − w … i (Mistral's sliding window), None: all of 0 … i."""
    ids = np.asarray(ids)
    n = len(ids)
    x = w["embed"][ids] + sinusoidal(n, w["embed"].shape[1])
    causal = np.tril(np.ones((n, n), dtype=bool))
    if window is not None:
        causal &= np.triu(np.ones((n, n), dtype=bool), -window)
    if w.get("ln_f") is not None:  # (the block model: LayerNorms and FFNs, `block_forward`)
        patterns, logits, _, _ = block_forward(w, ids)
        return patterns, logits
    patterns = []
    for layer in w["layers"]:
        if layer["kind"] == "selective":  # (an `arch` model's: no window, a state reads every word)
            s, z = selective(x, layer)
            x = x + np.einsum("hne,hed->nd", z, layer["w_o"])
            patterns.append(s)
            continue
        q = np.einsum("nd,hde->hne", x, layer["w_q"])
        # a grouped-query or multi-query variant stores fewer key/value heads: each serves
        # H/G query heads in turn (torch.repeat_interleave along the heads)
        group = layer["w_q"].shape[0] // layer["w_k"].shape[0]
        k = np.repeat(np.einsum("nd,gde->gne", x, layer["w_k"]), group, axis=0)
        v = np.repeat(np.einsum("nd,gde->gne", x, layer["w_v"]), group, axis=0)
        scores = q @ k.transpose(0, 2, 1) / np.sqrt(q.shape[-1])
        scores = np.where(causal, scores, -np.inf)
        a = np.exp(scores - scores.max(axis=-1, keepdims=True))
        a = a / a.sum(axis=-1, keepdims=True)
        x = x + np.einsum("hne,hed->nd", a @ v, layer["w_o"])
        patterns.append(a)
    return patterns, x @ w["unembed"]
