"""The trained model's forward pass with numpy: the tests' own reference for app/model.py.

Written from docs/model.md's equations, not from the page's code: embedding plus sinusoidal
positions, two layers of causal attention heads added to the residual stream, the unembedding.
"""

import base64
import json

import numpy as np

from tests.reference import ROOT

FOLDER = ROOT / "model"


def config():
    return json.loads((FOLDER / "model.json").read_text(encoding="utf-8"))


def weights(file):
    """{name: array} of one checkpoint file, float32 as stored, in float64."""
    data = json.loads((FOLDER / file).read_text(encoding="utf-8"))

    def tensor(t):
        return np.frombuffer(base64.b64decode(t["data"]), dtype="<f4").astype(np.float64).reshape(t["shape"])

    return {"step": data["step"], "embed": tensor(data["embed"]), "unembed": tensor(data["unembed"]),
            "layers": [{k: tensor(layer[k]) for k in ("w_q", "w_k", "w_v", "w_o")} for layer in data["layers"]]}


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
    patterns = []
    for layer in w["layers"]:
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
