"""Train the page's small letter model and export its checkpoints (`make model`, `make model-check`).

The model is a two-layer, attention-only transformer on letters (no MLP, no layer norm, no
biases) with fixed sinusoidal positions. It is trained from random weights on sequences in
which random runs of distinct letters repeat, until a previous-token head in layer 1 and an
induction head in layer 2 form: from the second copy of a run, the induction head looks at the
letter that followed the current letter the first time, and the model predicts it. No weight is
set by hand. docs/model.md explains the model, the data and the files.

    python -m tools.model_train              train (a few minutes on 2 cores), write model/ and
                                             tests/data/model_torch.json, check the acceptance;
                                             then the grouped-query and multi-query variants
                                             into model/kv-2/ and model/kv-1/, and the ssm and
                                             hybrid architectures into model/ssm/ and
                                             model/hybrid/ (two at a time); then the copy test
                                             of the three (model.json's "copy") and
                                             tests/data/model_arch_torch.json
    python -m tools.model_train --out DIR    write the model files to DIR instead of model/
    python -m tools.model_train --check      a tiny run into a temporary folder: export, reload,
                                             compare forward passes (< 1 minute)

What it writes (the format app/model.py reads):
    DIR/model.json           the configuration, the heads found, the checkpoints, the curve, the settings
    DIR/step-NNNNN.json      one kept checkpoint: the weights as float32 little-endian, base64
    DIR/training-log.txt     the printed log of the run
    tests/data/model_torch.json   PyTorch's float64 forward on three exported checkpoints, a test
                             fixture (with --out DIR: DIR/model_torch.json, so model/'s stays its own)

Exits non-zero when the last checkpoint misses the acceptance figures (or the step-0 checkpoint
meets them), and in --check mode when any comparison fails.
"""

import argparse
import base64
import concurrent.futures
import importlib
import json
import math
import multiprocessing
import random
import re
import sys
import tempfile
import time
from pathlib import Path

import numpy as np
import torch

ROOT = Path(__file__).resolve().parent.parent
FIXTURE = ROOT / "tests" / "data" / "model_torch.json"
ARCH_FIXTURE = "model_arch_torch.json"  # (beside FIXTURE: the ssm and hybrid models' forward, `write_arch_fixture`)
BLOCK_FIXTURE = "model_block_torch.json"  # (and the block model's, `write_block_fixture`)

LETTERS = "abcdefghijklmnopqrstuvwxyz"
VOCAB = ["<s>"] + list(LETTERS)  # input ids: <s> = 0, "a" = 1, ..., "z" = 26
OUTPUTS = list(LETTERS)          # output classes: "a" = 0, ..., "z" = 25 (class j is input id j + 1)
START = 0

# Every setting of the run; model.json records them all under "training".
SETTINGS = {
    "seed": 1234,            # torch.manual_seed and random.seed
    "threads": 1,            # torch.set_num_threads (two models train side by side: `main_train`)
    "deterministic": True,   # torch.use_deterministic_algorithms: the same machine gives the same bytes
    "d_model": 32,
    "n_layers": 2,
    "n_heads": 4,
    "d_head": 8,
    "n_ctx": 64,             # positions, the start token included
    "steps": 3000,           # Adam updates
    "batch": 64,             # sequences per update, fresh each step
    "optimizer": "Adam",
    "lr": 0.005,
    "betas": [0.9, 0.999],
    "init_std": {            # weights start as normal(0, std)
        "embed": 0.3,
        "w_qkv": "1/sqrt(d_model)",
        "w_o": "1/sqrt(n_heads*d_head)",
        "unembed": "1/sqrt(d_model)",
    },
    "data": {                # the rule of a training sequence (see make_letters)
        "letters": 63,               # <s> + 63 letters = n_ctx
        "segment_min": 3,            # a repeated segment has 3..20 distinct letters
        "segment_max": 20,
        "filler_max": 10,            # random letters before a segment and between its two copies:
        "filler_none": 0.5,          #   none with probability 0.5, else 1..filler_max
    },
    "heldout": {             # the fixed batch the in-context-learning score and the heads are measured on
        "seed_offset": 1,            # random.Random(seed + 1)
        "sequences": 256,
        "segment_min": 10,           # <s>, 0..filler_max random letters, a segment S of 10..20 distinct
        "segment_max": 20,           # letters, S again, random letters to the end
        "filler_max": 10,
    },
    "acceptance": {          # <s> + 9 distinct random letters + the same 9 again
        "seed_offset": 3,
        "sequences": 512,
        "segment": 9,
        "min_induction_weight": 0.5,
        "min_accuracy": 0.9,
    },
    "curve_every": 10,       # training loss and in-context-learning score every 10 steps
    "keep_min": 15,          # checkpoints kept (see pick_checkpoints)
}

# The variants `make model` trains too, after the page's model: the same settings with this many
# key/value heads shared by the four query heads (2: grouped-query, 1: multi-query).
VARIANTS = (2, 1)

# The tiny configuration of --check: it proves the pipeline, not the model.
CHECK_SETTINGS = dict(SETTINGS, d_model=16, n_heads=2, d_head=8, steps=20, batch=8, curve_every=5, keep_min=4,
                      heldout=dict(SETTINGS["heldout"], sequences=16),
                      acceptance=dict(SETTINGS["acceptance"], sequences=16))


# ---------------------------------------------------------------------------------------------
# Data


def filler(rng, data):
    """Random letters (repeats allowed): none with probability filler_none, else 1..filler_max."""
    if rng.random() < data["filler_none"]:
        return []
    return [rng.choice(LETTERS) for _ in range(rng.randint(1, data["filler_max"]))]


def make_letters(rng, data):
    """One training sequence of letters: filler, a segment of distinct letters, filler, the same
    segment again, and so on until data["letters"] letters (the last piece is cut there).
    Filler can be empty, so "abcdefghi" + "abcdefghi" with nothing around is a possible start."""
    letters = []
    while len(letters) < data["letters"]:
        letters += filler(rng, data)
        segment = rng.sample(LETTERS, rng.randint(data["segment_min"], data["segment_max"]))
        letters += segment
        letters += filler(rng, data)
        letters += segment
    return letters[:data["letters"]]


def ids_of(letters):
    """Input ids of <s> followed by the letters."""
    return [START] + [VOCAB.index(c) for c in letters]


def training_batch(rng, settings):
    """A fresh batch: LongTensor [batch, n_ctx]."""
    return torch.tensor([ids_of(make_letters(rng, settings["data"])) for _ in range(settings["batch"])])


def repeated_batch(rng, count, segment_min, segment_max, filler_max, length):
    """Sequences <s>, f random letters, a segment S of distinct letters, S again, random letters up
    to `length` tokens. Returns (ids LongTensor [count, length], starts) where starts[b] = (first,
    second, L): the positions of the two copies of S and its length."""
    rows, starts = [], []
    for _ in range(count):
        f = rng.randint(0, filler_max)
        L = rng.randint(segment_min, segment_max)
        segment = rng.sample(LETTERS, L)
        letters = [rng.choice(LETTERS) for _ in range(f)] + segment + segment
        letters += [rng.choice(LETTERS) for _ in range(length - 1 - len(letters))]
        rows.append(ids_of(letters))
        starts.append((1 + f, 1 + f + L, L))
    return torch.tensor(rows), starts


def heldout_batch(settings):
    h = settings["heldout"]
    rng = random.Random(settings["seed"] + h["seed_offset"])
    return repeated_batch(rng, h["sequences"], h["segment_min"], h["segment_max"], h["filler_max"],
                          settings["n_ctx"])


def acceptance_batch(settings):
    a = settings["acceptance"]
    rng = random.Random(settings["seed"] + a["seed_offset"])
    n = 1 + 2 * a["segment"]
    return repeated_batch(rng, a["sequences"], a["segment"], a["segment"], 0, n)


# ---------------------------------------------------------------------------------------------
# The model


def sinusoidal(n_ctx, d_model):
    """P[i][2k] = sin(i / 10000^(2k/d_model)), P[i][2k+1] = cos(i / 10000^(2k/d_model)): [n_ctx, d_model]."""
    P = torch.zeros(n_ctx, d_model, dtype=torch.float64)
    for i in range(n_ctx):
        for k in range(d_model // 2):
            angle = i / 10000 ** (2 * k / d_model)
            P[i, 2 * k] = math.sin(angle)
            P[i, 2 * k + 1] = math.cos(angle)
    return P


class AttentionOnly(torch.nn.Module):
    """x = E[ids] + P; per layer x += sum over heads of (softmax(causal q.k / sqrt(d_head)) v) W_O;
    logits = x W_U. No biases, no layer norm, no MLP."""

    def __init__(self, d_model, n_layers, n_heads, d_head, n_ctx, embed_std=1.0, n_kv_heads=None):
        super().__init__()
        self.d_head = d_head
        normal = torch.nn.init.normal_
        L, H, d, e = n_layers, n_heads, d_model, d_head
        G = n_kv_heads or H  # key/value heads: query head h uses key/value head h // (H/G) (grouped-query)
        self.group = H // G
        self.embed = torch.nn.Parameter(normal(torch.empty(len(VOCAB), d), std=embed_std))       # [27, d]
        self.w_q = torch.nn.Parameter(normal(torch.empty(L, H, d, e), std=d ** -0.5))      # [L, H, d, e]
        self.w_k = torch.nn.Parameter(normal(torch.empty(L, G, d, e), std=d ** -0.5))      # [L, G, d, e]
        self.w_v = torch.nn.Parameter(normal(torch.empty(L, G, d, e), std=d ** -0.5))      # [L, G, d, e]
        self.w_o = torch.nn.Parameter(normal(torch.empty(L, H, e, d), std=(H * e) ** -0.5))  # [L, H, e, d]
        self.unembed = torch.nn.Parameter(normal(torch.empty(d, len(OUTPUTS)), std=d ** -0.5))  # [d, 26]
        self.register_buffer("positions", sinusoidal(n_ctx, d_model).float())              # [n_ctx, d]

    def forward(self, ids):
        """ids [B, n] -> (logits [B, n, 26], attention: one [B, H, n, n] per layer)."""
        n = ids.shape[1]
        x = self.embed[ids] + self.positions[:n].to(self.embed.dtype)                      # [B, n, d]
        future = torch.triu(torch.ones(n, n, dtype=torch.bool), diagonal=1)                # j > i
        attention = []
        for l in range(self.w_q.shape[0]):
            q = torch.einsum("bnd,hde->bhne", x, self.w_q[l])                               # [B, H, n, e]
            k = torch.einsum("bnd,gde->bgne", x, self.w_k[l])                               # [B, G, n, e]
            v = torch.einsum("bnd,gde->bgne", x, self.w_v[l])                               # [B, G, n, e]
            if self.group > 1:  # each key/value head serves its group of query heads (enable_gqa's way)
                k, v = k.repeat_interleave(self.group, dim=1), v.repeat_interleave(self.group, dim=1)
            scores = q @ k.transpose(-1, -2) / math.sqrt(self.d_head)                       # [B, H, n, n]
            A = torch.softmax(scores.masked_fill(future, float("-inf")), dim=-1)            # [B, H, n, n]
            z = A @ v                                                                       # [B, H, n, e]
            x = x + torch.einsum("bhne,hed->bnd", z, self.w_o[l])                           # [B, n, d]
            attention.append(A)
        return x @ self.unembed, attention                                                 # [B, n, 26]


# The page's model's two other architectures (`arch`, docs/DESIGN.md "Beyond attention"; docs/model.md):
# the same letters, data, seed, steps and optimiser, with the selective mixer in place of attention in
# one layer (hybrid: the first, as Jamba alternates them) or in both (ssm).
ARCHS = {"ssm": ("selective", "selective"), "hybrid": ("selective", "attention")}
# N, a selective head's query/key size (Mamba's d_state for one channel): its state holds N × d_head
# = 64 numbers, 256 a layer. Chosen among 4, 8 and 16 so that the state is outgrown inside the
# context (docs/model.md, "Other architectures": 4 never copied well, 16 only at its edge).
D_KEY = 8
# The copy test (`model.copy`): for each repeat length L, `sequences` held-out sequences <s> + S + S,
# S = L distinct random letters; the accuracy is over the second copy's letters 2..L.
COPY = {"seed_offset": 4, "sequences": 128, "lengths": list(range(2, len(LETTERS) + 1))}


def selective_mix(x, w_q, w_k, w_v, w_delta, b_delta, a_log, after):
    """The selective mixer of one layer (Mamba-2's state-space duality, one decay a word and head):
    Δ_t = softplus(x_t·w_Δ + b_Δ), a_t = exp(−A·Δ_t), A = exp(a_log) > 0; s_ij = Π_{r=j+1..i} a_r ·
    Δ_j · (q_i·k_j)/√N for j ≤ i, 0 after; y = s·v. Returns (s [B, H, n, n], y [B, H, n, e])."""
    q = torch.einsum("bnd,hdk->bhnk", x, w_q)                                              # [B, H, n, N]
    k = torch.einsum("bnd,hdk->bhnk", x, w_k)                                              # [B, H, n, N]
    v = torch.einsum("bnd,hde->bhne", x, w_v)                                              # [B, H, n, e]
    delta = torch.nn.functional.softplus(torch.einsum("bnd,hd->bhn", x, w_delta) + b_delta[:, None])  # [B, H, n]
    c = torch.cumsum(torch.exp(a_log)[:, None] * delta, dim=-1)                            # A·Σ_{r≤i} Δ_r
    # log L_ij = log Δ_j − A·Σ_{r=j+1..i} Δ_r for j ≤ i, −∞ after: 4 operations on
    # n × n (`after`: 0, or −∞ after the diagonal), which keeps a training step near attention's
    log_mask = (c + torch.log(delta))[..., None, :] - c[..., :, None] + after
    s = torch.exp(log_mask) * ((q / math.sqrt(q.shape[-1])) @ k.transpose(-1, -2))         # [B, H, n, n]
    return s, s @ v


class Mixed(torch.nn.Module):
    """The page's model with a kind of mixer a layer (`kinds`: "attention" or "selective"): x = E[ids]
    + P; per layer x += Σ_h mix_h(x) W_O[h]; logits = x W_U. No biases but b_Δ, no layer norm, no MLP.
    Its "attention" (the second result of forward) is each layer's mixing matrix: attention's
    weights, or the selective layer's scores s (signed; a row need not sum to 1)."""

    def __init__(self, d_model, n_heads, d_head, n_ctx, kinds, d_key=D_KEY, embed_std=1.0):
        super().__init__()
        normal = torch.nn.init.normal_
        H, d, e = n_heads, d_model, d_head
        self.kinds = tuple(kinds)
        self.embed = torch.nn.Parameter(normal(torch.empty(len(VOCAB), d), std=embed_std))
        self.layers = torch.nn.ModuleList()
        for kind in self.kinds:
            layer = torch.nn.Module()
            qk = d_key if kind == "selective" else e
            layer.w_q = torch.nn.Parameter(normal(torch.empty(H, d, qk), std=d ** -0.5))
            layer.w_k = torch.nn.Parameter(normal(torch.empty(H, d, qk), std=d ** -0.5))
            layer.w_v = torch.nn.Parameter(normal(torch.empty(H, d, e), std=d ** -0.5))
            layer.w_o = torch.nn.Parameter(normal(torch.empty(H, e, d), std=(H * e) ** -0.5))
            if kind == "selective":  # Δ starts near 0.1 (b_Δ = softplus⁻¹(0.1)) and A at 1: a_t ≈ 0.9
                layer.w_delta = torch.nn.Parameter(normal(torch.empty(H, d), std=0.1 * d ** -0.5))
                layer.b_delta = torch.nn.Parameter(torch.full((H,), math.log(math.expm1(0.1))))
                layer.a_log = torch.nn.Parameter(torch.zeros(H))
            self.layers.append(layer)
        self.unembed = torch.nn.Parameter(normal(torch.empty(d, len(OUTPUTS)), std=d ** -0.5))
        self.register_buffer("positions", sinusoidal(n_ctx, d_model).float())

    def forward(self, ids):
        n = ids.shape[1]
        x = self.embed[ids] + self.positions[:n].to(self.embed.dtype)
        future = torch.triu(torch.ones(n, n, dtype=torch.bool), diagonal=1)
        after = torch.zeros(n, n, dtype=x.dtype).masked_fill(future, float("-inf"))          # 0, −∞ after i
        mixing = []
        for kind, layer in zip(self.kinds, self.layers):
            if kind == "selective":
                A, z = selective_mix(x, layer.w_q, layer.w_k, layer.w_v, layer.w_delta, layer.b_delta,
                                     layer.a_log, after)
            else:
                q = torch.einsum("bnd,hde->bhne", x, layer.w_q)
                k = torch.einsum("bnd,hde->bhne", x, layer.w_k)
                v = torch.einsum("bnd,hde->bhne", x, layer.w_v)
                scores = q @ k.transpose(-1, -2) / math.sqrt(q.shape[-1])
                A = torch.softmax(scores.masked_fill(future, float("-inf")), dim=-1)
                z = A @ v
            x = x + torch.einsum("bhne,hed->bnd", z, layer.w_o)
            mixing.append(A)
        return x @ self.unembed, mixing


def new_model(settings):
    s = settings
    if s.get("arch") in ARCHS:
        return Mixed(s["d_model"], s["n_heads"], s["d_head"], s["n_ctx"], ARCHS[s["arch"]], s.get("d_key", D_KEY),
                     embed_std=s["init_std"]["embed"])
    return AttentionOnly(s["d_model"], s["n_layers"], s["n_heads"], s["d_head"], s["n_ctx"],
                         embed_std=s["init_std"]["embed"], n_kv_heads=s.get("n_kv_heads"))


def token_losses(logits, ids):
    """Cross-entropy of logits at position i against token i+1, for i = 0..n-2: [B, n-1].
    Token i+1 is a letter, whose output class is its id - 1."""
    targets = ids[:, 1:] - 1                                                               # [B, n-1]
    return torch.nn.functional.cross_entropy(logits[:, :-1].transpose(1, 2), targets, reduction="none")


# ---------------------------------------------------------------------------------------------
# Measures


def icl_score(model, heldout):
    """Mean loss on the second copy of S minus mean loss on the first (predictions of letters 2..L
    of each copy): about 0 at random init, strongly negative once the induction head works."""
    ids, starts = heldout
    with torch.no_grad():
        losses = token_losses(model(ids)[0], ids)                                          # [B, n-1]
    first, second = [], []
    for b, (p1, p2, L) in enumerate(starts):
        # the prediction of the letter at position t is made at position t - 1
        first.append(losses[b, p1:p1 + L - 1].mean())
        second.append(losses[b, p2:p2 + L - 1].mean())
    return float(torch.stack(second).mean() - torch.stack(first).mean())


def head_scores(attention, starts, n_ctx_used):
    """Per head of layer 1: mean weight from i on i-1 (i >= 1). Per head of layer 2: mean weight,
    from each letter of the second copy, on the letter after that letter's first occurrence."""
    A1, A2 = attention[0], attention[1]                                                    # [B, H, n, n]
    i = torch.arange(1, n_ctx_used)
    previous = A1[:, :, i, i - 1].mean(dim=(0, 2))                                         # [H]
    induction = []
    for b, (p1, p2, L) in enumerate(starts):
        q = torch.arange(p2, p2 + L)           # the letters of the second copy
        target = q - (p2 - p1) + 1             # the letter after the first occurrence
        induction.append(A2[b, :, q, target])                                              # [H, L]
    induction = torch.cat(induction, dim=1).mean(dim=1)                                    # [H]
    return previous.tolist(), induction.tolist()


def acceptance(model, batch, induction_head):
    """On <s> + S + S (S = 9 distinct letters): the induction head's mean weight on the letter after
    the first occurrence, and the argmax accuracy of the predictions of the second copy's letters
    2..9. Both over the second copy's letters 1..8 (the ones whose next letter is predicted);
    the weight over all 9 letters is given too."""
    ids, starts = batch
    layer, head = induction_head
    with torch.no_grad():
        logits, attention = model(ids)
    A = attention[layer][:, head]                                                          # [B, n, n]
    p1, p2, L = starts[0]                      # the same layout in every sequence: 1, 10, 9
    q = torch.arange(p2, p2 + L)               # the second copy's letters
    target = q - (p2 - p1) + 1
    weights = A[:, q, target]                                                              # [B, L]
    predicted = logits[:, p2:p2 + L - 1].argmax(dim=-1) + 1                                # ids [B, L-1]
    correct = (predicted == ids[:, p2 + 1:p2 + L]).float()
    return {"induction_weight": float(weights[:, :L - 1].mean()),
            "induction_weight_all": float(weights.mean()),
            "accuracy": float(correct.mean())}


def abcdabc(model, induction_head):
    """The induction head's weights from the second "c" of <s> a b c d a b c (position 7)."""
    ids = torch.tensor([ids_of("abcdabc")])
    with torch.no_grad():
        attention = model(ids)[1]
    row = attention[induction_head[0]][0, induction_head[1], 7]
    return [float(w) for w in row[:8]]


# ---------------------------------------------------------------------------------------------
# Export: float32 little-endian, row-major, base64


def encode(tensor):
    array = np.ascontiguousarray(tensor.detach().cpu().numpy().astype("<f4"))
    return {"shape": list(array.shape), "data": base64.b64encode(array.tobytes()).decode("ascii")}


def decode(t):
    """A float64 numpy array from an exported tensor."""
    raw = np.frombuffer(base64.b64decode(t["data"]), dtype="<f4")
    return raw.reshape(t["shape"]).astype(np.float64)


def checkpoint_json(step, state):
    """The file of one checkpoint from a state dict of AttentionOnly (or of Mixed: `mixed_json`)."""
    if "layers.0.w_q" in state:
        return mixed_json(step, state)
    return {
        "step": step,
        "encoding": "float32-le-base64",
        "embed": encode(state["embed"]),                                                   # [27, d]
        "unembed": encode(state["unembed"]),                                               # [d, 26]
        "layers": [{"w_q": encode(state["w_q"][l]), "w_k": encode(state["w_k"][l]),        # [H, d, e]
                    "w_v": encode(state["w_v"][l]), "w_o": encode(state["w_o"][l])}       # [H, e, d]
                   for l in range(state["w_q"].shape[0])],
    }


def mixed_json(step, state):
    """The file of one checkpoint of a Mixed model: each layer says its kind; a selective layer has
    w_delta [H, d], b_delta [H] and a [H] (A = exp(a_log), the number the page reads) beside the rest."""
    layers, l = [], 0
    while f"layers.{l}.w_q" in state:
        layer = {"kind": "selective" if f"layers.{l}.a_log" in state else "attention"}
        for name in ("w_q", "w_k", "w_v", "w_o", "w_delta", "b_delta"):
            if f"layers.{l}.{name}" in state:
                layer[name] = encode(state[f"layers.{l}.{name}"])
        if layer["kind"] == "selective":
            layer["a"] = encode(torch.exp(state[f"layers.{l}.a_log"]))
        layers.append(layer)
        l += 1
    return {"step": step, "encoding": "float32-le-base64", "embed": encode(state["embed"]),
            "unembed": encode(state["unembed"]), "layers": layers}


def model_from_files(config, checkpoint, dtype=torch.float32):
    """An AttentionOnly (or a Mixed, for an `arch`) holding the weights of an exported checkpoint
    (decoded, then cast to dtype)."""
    if config.get("arch") == "block":
        return block_from_files(config, checkpoint, dtype)
    if config.get("arch") in ARCHS:
        kinds = [layer["kind"] for layer in checkpoint["layers"]]
        model = Mixed(config["d_model"], config["n_heads"], config["d_head"], config["n_ctx"], kinds,
                      config.get("d_key", D_KEY)).to(dtype)
        with torch.no_grad():
            model.embed.copy_(torch.from_numpy(decode(checkpoint["embed"])))
            model.unembed.copy_(torch.from_numpy(decode(checkpoint["unembed"])))
            for target, layer in zip(model.layers, checkpoint["layers"]):
                for name in ("w_q", "w_k", "w_v", "w_o", "w_delta", "b_delta"):
                    if name in layer:
                        getattr(target, name).copy_(torch.from_numpy(decode(layer[name])))
                if "a" in layer:
                    target.a_log.copy_(torch.from_numpy(np.log(decode(layer["a"]))))
            model.positions.copy_(sinusoidal(config["n_ctx"], config["d_model"]))
        return model
    model = AttentionOnly(config["d_model"], config["n_layers"], config["n_heads"], config["d_head"],
                          config["n_ctx"], n_kv_heads=config.get("n_kv_heads")).to(dtype)
    with torch.no_grad():
        model.embed.copy_(torch.from_numpy(decode(checkpoint["embed"])))
        model.unembed.copy_(torch.from_numpy(decode(checkpoint["unembed"])))
        for l, layer in enumerate(checkpoint["layers"]):
            for name in ("w_q", "w_k", "w_v", "w_o"):
                getattr(model, name)[l].copy_(torch.from_numpy(decode(layer[name])))
        model.positions.copy_(sinusoidal(config["n_ctx"], config["d_model"]))
    return model


def numpy_forward(config, checkpoint, ids):
    """The same math in float64 numpy, written out plainly, on the decoded weights: one sequence
    of ids -> {"attention": [layer][head] n x n, "logits": n x 26}. A second implementation to
    check the torch one against."""
    if config.get("arch") == "block":
        return block_numpy_forward(config, checkpoint, ids)
    d, H, e = config["d_model"], config["n_heads"], config["d_head"]
    group = H // config.get("n_kv_heads", H)  # query head h reads key/value head h // group
    n = len(ids)
    P = np.zeros((n, d))
    for i in range(n):
        for k in range(d // 2):
            angle = i / 10000 ** (2 * k / d)
            P[i, 2 * k], P[i, 2 * k + 1] = math.sin(angle), math.cos(angle)
    x = decode(checkpoint["embed"])[ids] + P                                               # [n, d]
    attention = []
    for layer in checkpoint["layers"]:
        W_Q, W_K, W_V, W_O = (decode(layer[name]) for name in ("w_q", "w_k", "w_v", "w_o"))
        update = np.zeros_like(x)
        heads = []
        for h in range(H):
            q, k, v = x @ W_Q[h], x @ W_K[h // group], x @ W_V[h // group]                 # [n, e]
            A = np.zeros((n, n))
            if layer.get("kind") == "selective":  # s_ij = Π_{r=j+1..i} a_r · Δ_j · q_i·k_j / √N
                u = x @ decode(layer["w_delta"])[h] + decode(layer["b_delta"])[h]
                delta = np.log1p(np.exp(-np.abs(u))) + np.maximum(u, 0)                    # softplus
                a = np.exp(-decode(layer["a"])[h] * delta)
                for i in range(n):
                    kept = 1.0
                    for j in range(i, -1, -1):
                        A[i, j] = kept * delta[j] * (q[i] @ k[j]) / math.sqrt(q.shape[1])
                        kept *= a[j]
                update += (A @ v) @ W_O[h]
                heads.append(A)
                continue
            for i in range(n):
                s = q[i] @ k[:i + 1].T / math.sqrt(e)                                      # [i+1]
                w = np.exp(s - s.max())
                A[i, :i + 1] = w / w.sum()
            update += (A @ v) @ W_O[h]                                                     # [n, d]
            heads.append(A)
        x = x + update
        attention.append(heads)
    return {"attention": attention, "logits": x @ decode(checkpoint["unembed"])}


# ---------------------------------------------------------------------------------------------
# Training


def train(settings, say=print, new_model=None, batch=None, heldout=None):
    """Train from the seed. Returns the run: a snapshot (step, state dict, loss, icl) every
    curve_every steps, step 0 and the last included, and the curve. `new_model(settings)`,
    `batch(rng, settings)` and `heldout` (the in-context score's batch): another model's (the block
    model's: `block_new_model`, …); None: this module's."""
    s = settings
    torch.set_num_threads(s["threads"])
    # Without this, the gradient of E[ids] adds up its rows in an order that varies from run to run.
    torch.use_deterministic_algorithms(s["deterministic"])
    torch.manual_seed(s["seed"])
    random.seed(s["seed"])
    rng = random.Random(s["seed"])  # the training batches' own generator, from the same seed
    model = (new_model or globals()["new_model"])(s)
    optimizer = torch.optim.Adam(model.parameters(), lr=s["lr"], betas=tuple(s["betas"]))
    heldout = heldout or heldout_batch(s)
    batch = batch or training_batch
    snapshots, curve = [], []
    for step in range(s["steps"] + 1):
        ids = batch(rng, s)
        loss = token_losses(model(ids)[0], ids).mean()
        # The loss at step N is that of the weights after N updates, on a batch they never saw.
        if step % s["curve_every"] == 0 or step == s["steps"]:
            icl = icl_score(model, heldout)
            state = {k: v.detach().clone() for k, v in model.state_dict().items() if k != "positions"}
            snapshots.append({"step": step, "state": state, "loss": loss.item(), "icl": icl})
            curve.append([step, round(loss.item(), 4), round(icl, 4)])
            if step % (10 * s["curve_every"]) == 0 or step == s["steps"]:
                say(f"step {step:5d}  loss {loss.item():.4f}  icl {icl:+.4f}")
        if step == s["steps"]:
            break
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
    return {"snapshots": snapshots, "curve": curve, "model": model}


def drop_steps(snapshots):
    """The steps at which the in-context-learning score first reaches 10%, 50% and 90% of its
    final value: the start, the middle and the end of the drop."""
    final = snapshots[-1]["icl"]
    found = {}
    for fraction in (0.1, 0.5, 0.9):
        found[fraction] = next((s["step"] for s in snapshots if s["icl"] <= fraction * final), snapshots[-1]["step"])
    return found


def pick_checkpoints(snapshots, keep_min):
    """The snapshots kept: step 0 and the last; four evenly spread before the drop starts; the
    steps where the score first reaches 10, 30, 50, 70, 80 and 90% of its final value; three
    evenly spread after; then, while fewer than keep_min, the middle of the widest gap."""
    steps = [s["step"] for s in snapshots]
    final = snapshots[-1]["icl"]

    def nearest(step):
        return min(steps, key=lambda t: (abs(t - step), t))

    def reaching(fraction):
        return next((s["step"] for s in snapshots if s["icl"] <= fraction * final), steps[-1])

    start, end, last = reaching(0.1), reaching(0.9), steps[-1]
    kept = {0, last}
    kept |= {nearest(start * k / 5) for k in range(1, 5)}
    kept |= {reaching(f) for f in (0.1, 0.3, 0.5, 0.7, 0.8, 0.9)}
    kept |= {nearest(end + (last - end) * k / 4) for k in range(1, 4)}
    while len(kept) < min(keep_min, len(steps)):
        ordered = sorted(kept)
        a, b = max(zip(ordered, ordered[1:]), key=lambda gap: gap[1] - gap[0])
        middle = nearest((a + b) / 2)
        if middle in kept:  # no snapshot between them: take any step not kept yet
            middle = next(t for t in steps if t not in kept)
        kept.add(middle)
    return [s for s in snapshots if s["step"] in kept]


def model_config(settings):
    shape = ("d_model", "n_layers", "n_heads", "d_head", "n_ctx") + (("n_kv_heads",) if "n_kv_heads" in settings else ())
    config = {"vocab": VOCAB, "outputs": OUTPUTS, **{k: settings[k] for k in shape}, "positions": "sinusoidal"}
    if settings.get("arch") == "block":  # (`Block`: LayerNorm and an FFN of d_ff units a layer)
        config.update(arch="block", layers=["block"] * settings["n_layers"], d_ff=settings["d_ff"], eps=1e-5,
                      data="words")
    if settings.get("arch") in ARCHS:  # (its layers' kinds, and the state a selective head keeps: N × d_head)
        d_key = settings.get("d_key", D_KEY)
        config.update(arch=settings["arch"], layers=list(ARCHS[settings["arch"]]), d_key=d_key,
                      d_state=d_key * settings["d_head"])
    return config


def export(run, settings, out, heads, say=print, steps=None, to_json=None):
    """Write model.json and one step-NNNNN.json per kept checkpoint into out (those at `steps`, a
    list or a function that gives it; None: `pick_checkpoints`'s). Returns (config, kept)."""
    steps = steps() if callable(steps) else steps
    out.mkdir(parents=True, exist_ok=True)
    for old in out.glob("step-*.json"):
        old.unlink()
    kept = pick_checkpoints(run["snapshots"], settings["keep_min"]) if steps is None else \
        [s for s in run["snapshots"] if s["step"] in steps]
    entries = []
    for snap in kept:
        name = f"step-{snap['step']:05d}.json"
        (out / name).write_text(json.dumps((to_json or checkpoint_json)(snap["step"], snap["state"])) + "\n",
                                encoding="utf-8")
        entries.append({"step": snap["step"], "file": name, "loss": round(snap["loss"], 4),
                        "icl": round(snap["icl"], 4)})
    config = dict(model_config(settings),
                  heads={"previous_token": heads[0], "induction": heads[1]},
                  checkpoints=entries,
                  curve=run["curve"],
                  training=dict(settings, torch=torch.__version__, numpy=np.__version__,
                                python=sys.version.split()[0]))
    (out / "model.json").write_text(readable_json(config) + "\n", encoding="utf-8")
    say(f"kept {len(kept)} checkpoints: " + ", ".join(str(s["step"]) for s in kept))
    return config, kept


def readable_json(value):
    """JSON with one line per innermost list (a row of the curve, the vocabulary, a shape)."""
    text = json.dumps(value, indent=1)
    return re.sub(r"\[([^\[\]{}]*)\]", lambda m: "[" + ", ".join(part.strip() for part in m.group(1).split(",")) + "]"
                  if m.group(1).strip() else "[]", text)


def load_exported(out):
    """model.json and every checkpoint file it lists, as read back from disk."""
    config = json.loads((out / "model.json").read_text(encoding="utf-8"))
    checkpoints = {c["step"]: json.loads((out / c["file"]).read_text(encoding="utf-8"))
                   for c in config["checkpoints"]}
    return config, checkpoints


def torch_case(config, checkpoint, letters):
    """PyTorch's forward in float64 on the exported weights: one case of the fixture."""
    model = model_from_files(config, checkpoint, dtype=torch.float64)
    with torch.no_grad():
        logits, attention = model(torch.tensor([ids_of(letters)]))
    return {"checkpoint": checkpoint["step"], "letters": letters,
            "attention": [[a[0, h].tolist() for h in range(a.shape[1])] for a in attention],
            "logits": logits[0].tolist()}


def fixture_letters(settings):
    """The three inputs of the fixture: abcdabc, abcdefghi twice, and 39 letters by the data rule."""
    rng = random.Random(settings["seed"] + 2)
    return ["abcdabc", "abcdefghi" * 2, "".join(make_letters(rng, dict(settings["data"], letters=39)))]


def write_fixture(config, checkpoints, middle_step, settings, path):
    steps = [config["checkpoints"][0]["step"], middle_step, config["checkpoints"][-1]["step"]]
    cases = [torch_case(config, checkpoints[step], letters)
             for step in steps for letters in fixture_letters(settings)]
    path.parent.mkdir(parents=True, exist_ok=True)
    # json.dumps writes floats with repr: the shortest text that reads back as the same double
    path.write_text(json.dumps({"cases": cases}) + "\n", encoding="utf-8")


# ---------------------------------------------------------------------------------------------
# The full run


def main_train(out):
    """The page's model into `out`, its grouped-query and multi-query variants into out/kv-2/ and
    out/kv-1/ (VARIANTS: the same seed, data and training, fewer key/value heads), the other
    architectures into out/<arch>/ and the block model into out/block/. Only the page's model must
    pass the acceptance; the others' figures are reported (their logs and their model.json), whatever
    they are. Returns the page's model's exit status."""
    # The fixture goes with model/; a run into another folder keeps its fixture there.
    fixture = FIXTURE if out.resolve() == (ROOT / "model").resolve() else out / FIXTURE.name
    # Two lanes, a process of one thread each, side by side from the start: small tensors use a
    # second thread poorly, so two lanes train 1.35× as many steps a second as one lane of two
    # threads (and a model's bytes are the same at one thread as at two). The page's model goes
    # first in one lane; every other model keeps its checkpoints at the page's model's steps (the
    # slider is one for all), which it waits for only when it exports: its training needs none.
    # (A fresh process each, "spawn": a fork would inherit torch's thread pool.)
    # (the lanes near even, by this machine's times at one thread: page 133 s, block 212 s, kv-1
    # 120 s; ssm 139 s, kv-2 132 s, hybrid 135 s)
    lanes = [[("page", None), ("block", None), ("kv", 1)], [("arch", "ssm"), ("kv", 2), ("arch", "hybrid")]]
    context = multiprocessing.get_context("spawn")
    with context.Manager() as manager:
        page = manager.dict()  # "steps": the page's model's kept steps (None: it failed), then "ready" is set
        ready = manager.Event()
        with concurrent.futures.ProcessPoolExecutor(len(lanes), mp_context=context) as pool:
            lanes = [pool.submit(train_lane, lane, str(out), str(fixture), page, ready) for lane in lanes]
            status = lanes[0].result()
            lanes[1].result()
    write_copy(out)
    write_arch_fixture(out, fixture.parent / ARCH_FIXTURE)
    write_block_fixture(out, fixture.parent / BLOCK_FIXTURE)
    return status


def copy_accuracy(model, settings):
    """Second-repeat accuracy by repeat length (`model.copy`): for each L of COPY["lengths"],
    COPY["sequences"] held-out sequences <s> + S + S (S: L distinct random letters, from their own
    seed); the share of the second copy's letters 2..L the model predicts (argmax) from the letter
    before. Returns [accuracy for each L]."""
    rng = random.Random(settings["seed"] + COPY["seed_offset"])
    figures = []
    for L in COPY["lengths"]:
        ids, starts = repeated_batch(rng, COPY["sequences"], L, L, 0, 1 + 2 * L)
        with torch.no_grad():
            logits = model(ids)[0]
        p2 = starts[0][1]  # (1 + L: the second copy's first letter)
        predicted = logits[:, p2:p2 + L - 1].argmax(dim=-1) + 1
        figures.append(round(float((predicted == ids[:, p2 + 1:p2 + L]).float().mean()), 4))
    return figures


def train_arch(arch, out, steps):
    """Train the `arch` model (ARCHS) with the page's model's settings into out/<arch>/, its
    checkpoints at `steps` (the page's: the slider is one for all); the layer-2 attention head that
    looks most like an induction head is named (hybrid), none in a selective layer. Reported,
    never failed on. Returns its folder."""
    settings = dict(SETTINGS, arch=arch)
    folder = out / arch
    say, lines = log()

    say(f"Training the {arch} model: layers {', '.join(ARCHS[arch])}; selective heads with N = "
        f"{settings.get('d_key', D_KEY)} (a state of {settings.get('d_key', D_KEY) * settings['d_head']} numbers a head); "
        f"the page's model's seed {settings['seed']}, data and {settings['steps']} steps")
    began = time.monotonic()
    run = train(settings, say)
    ids, starts = heldout_batch(settings)
    with torch.no_grad():
        mixing = run["model"](ids)[1]
    induction = None
    if ARCHS[arch][1] == "attention":
        _, scores = head_scores(mixing, starts, settings["n_ctx"])
        induction = [1, int(np.argmax(scores))]
        say("layer 2 (attention), mean weight on the token after the earlier occurrence, per head: "
            + ", ".join(f"{w:.3f}" for w in scores))
    config, _ = export(run, settings, folder, (None, induction), say, steps)
    (folder / "training-log.txt").write_text("\n".join(lines) + "\n", encoding="utf-8")
    print(f"{LABEL}trained in {time.monotonic() - began:.0f} s; wrote {folder}/")
    return folder


def write_copy(out, say=print):
    """`model.copy` into out/model.json (the page's model's): each architecture's copy accuracy by
    repeat length, measured on its last checkpoint as exported, whatever it is."""
    config, checkpoints = load_exported(out)
    accuracy = {}
    for arch, folder in (("attention", out), *((a, out / a) for a in ARCHS)):
        c, files = load_exported(folder)
        accuracy[arch] = copy_accuracy(model_from_files(c, files[c["checkpoints"][-1]["step"]]), SETTINGS)
        say(f"copy, {arch}: " + " ".join(f"{L}:{a:.2f}" for L, a in zip(COPY["lengths"], accuracy[arch])))
    config["copy"] = {"lengths": COPY["lengths"], "accuracy": accuracy, "sequences": COPY["sequences"],
                      "trained_lengths": [SETTINGS["data"]["segment_min"], SETTINGS["data"]["segment_max"]]}
    (out / "model.json").write_text(readable_json(config) + "\n", encoding="utf-8")
    return config["copy"]


def write_arch_fixture(out, path):
    """PyTorch's float64 forward of each `arch` model on three of its checkpoints (the first, the
    middle one kept, the last), on the fixture's letters: tests/data/model_arch_torch.json."""
    cases = []
    for arch in ARCHS:
        config, checkpoints = load_exported(out / arch)
        kept = [c["step"] for c in config["checkpoints"]]
        for step in (kept[0], kept[len(kept) // 2], kept[-1]):
            for letters in fixture_letters(SETTINGS):
                cases.append(dict(torch_case(config, checkpoints[step], letters), arch=arch))
    path.write_text(json.dumps({"cases": cases}) + "\n", encoding="utf-8")


def log():
    """(say, lines): `say(line)` prints the line (after LABEL) and keeps it in `lines`, the model's
    training-log.txt."""
    lines = []

    def say(line=""):
        print(LABEL + line, flush=True)
        lines.append(line)

    return say, lines


def train_lane(lane, out, fixture, page, ready):
    """One process's models, in turn (`main_train`): ("page", None) the page's model, which shares its
    kept steps through `page` and `ready` (a manager's dict and event); ("kv", g) a variant with g
    key/value heads, ("arch", name) an architecture of ARCHS, ("block", None) the block model, each
    waiting for those steps when it exports. Their lines are printed with the model's name before
    them (their logs have none). Returns the page's model's exit status (0 in a lane without it)."""
    global LABEL
    torch.set_flush_denormal(True)
    out, status = Path(out), 0

    def steps():
        ready.wait()
        if page["steps"] is None:
            raise RuntimeError("the page's model failed: no steps to keep")
        return page["steps"]

    for kind, what in lane:
        if kind == "page":
            LABEL, kept = "[page] ", None
            try:
                status, kept = train_one(SETTINGS, out, Path(fixture))
            finally:  # (the other lane waits for these steps, or learns that there are none)
                page["steps"] = kept
                ready.set()
        elif kind == "block":
            LABEL = "[block] "
            train_block(out, steps)
        elif kind == "kv":
            LABEL = f"[kv-{what}] "
            train_one(dict(SETTINGS, n_kv_heads=what), out / variant_folder(what), None, steps)
        else:
            LABEL = f"[{what}] "
            train_arch(what, out, steps)
    return status


LABEL = ""  # (what the console's lines of a model trained beside another start with: `train_lane`)


def variant_folder(g):
    """The folder of the variant with g key/value heads, inside the model's (app/model.py reads it)."""
    return f"kv-{g}"


def train_one(settings, out, fixture, steps=None):
    """Train one model from `settings`, export it into `out` with its log, check the acceptance;
    `fixture`: where PyTorch's forward on three checkpoints goes (None: not written); `steps`: the
    training steps whose checkpoints are kept (None: `pick_checkpoints`). Returns the exit status
    (1 when the acceptance fails) and the steps kept."""
    say, lines = log()

    say(f"Training the letter model: torch {torch.__version__}, seed {settings['seed']}, "
        f"{settings['steps']} steps of {settings['batch']} sequences, Adam lr {settings['lr']}")
    kv = f", {settings['n_kv_heads']} key/value head(s) shared by them" if "n_kv_heads" in settings else ""
    say(f"d_model {settings['d_model']}, {settings['n_layers']} layers of {settings['n_heads']} heads "
        f"(d_head {settings['d_head']}{kv}), n_ctx {settings['n_ctx']}, sinusoidal positions")
    began = time.monotonic()
    run = train(settings, say)
    seconds = time.monotonic() - began

    # The heads, found on the held-out batch with the last weights.
    model = run["model"]
    ids, starts = heldout_batch(settings)
    with torch.no_grad():
        attention = model(ids)[1]
    previous, induction = head_scores(attention, starts, settings["n_ctx"])
    heads = ([0, int(np.argmax(previous))], [1, int(np.argmax(induction))])
    say("layer 1, mean weight on the previous token, per head: " + ", ".join(f"{w:.3f}" for w in previous))
    say("layer 2, mean weight on the token after the earlier occurrence, per head: "
        + ", ".join(f"{w:.3f}" for w in induction))
    say(f"previous-token head {heads[0]}, induction head {heads[1]} ([layer, head], 0-based)")

    drop = drop_steps(run["snapshots"])
    say(f"the in-context-learning score reaches 10% / 50% / 90% of its final value at steps "
        f"{drop[0.1]} / {drop[0.5]} / {drop[0.9]}")
    config, kept = export(run, settings, out, heads, say, steps)
    _, checkpoints = load_exported(out)
    middle = min((c["step"] for c in config["checkpoints"]), key=lambda t: abs(t - drop[0.5]))
    if fixture is not None:
        write_fixture(config, checkpoints, middle, settings, fixture)

    say("kept checkpoints: step, loss, icl, previous-token head's and induction head's scores (held-out)")
    for entry in config["checkpoints"]:
        with torch.no_grad():
            attention = model_from_files(config, checkpoints[entry["step"]])(ids)[1]
        previous, induction = head_scores(attention, starts, settings["n_ctx"])
        say(f"  {entry['step']:5d}  {entry['loss']:.4f}  {entry['icl']:+.4f}  "
            f"{previous[heads[0][1]]:.3f}  {induction[heads[1][1]]:.3f}")

    # Acceptance, on the weights as exported (read back from the files).
    a = settings["acceptance"]
    batch = acceptance_batch(settings)
    ok = True
    figures = {}
    for step in (config["checkpoints"][-1]["step"], 0):
        m = model_from_files(config, checkpoints[step])
        figures[step] = acceptance(m, batch, heads[1])
        f = figures[step]
        say(f"step {step}: on <s> + 9 distinct letters + the same 9: induction head weight on the token after "
            f"the earlier occurrence {f['induction_weight']:.3f} (all 9 letters: {f['induction_weight_all']:.3f}), "
            f"next-letter accuracy {f['accuracy']:.3f}")
    last, first = figures[config["checkpoints"][-1]["step"]], figures[0]
    if last["induction_weight"] < a["min_induction_weight"] or last["accuracy"] < a["min_accuracy"]:
        say(f"FAIL: the last checkpoint needs weight >= {a['min_induction_weight']} and accuracy >= {a['min_accuracy']}")
        ok = False
    if first["induction_weight"] >= a["min_induction_weight"] or first["accuracy"] >= a["min_accuracy"]:
        say("FAIL: the step-0 checkpoint should not meet the acceptance figures")
        ok = False
    row = abcdabc(model_from_files(config, checkpoints[config["checkpoints"][-1]["step"]]), heads[1])
    say("a b c d a b c: the induction head from the second c (position 7) weighs positions 0..7 "
        + " ".join(f"{w:.3f}" for w in row))
    if int(np.argmax(row)) != 4:
        say("FAIL: its largest weight should be on the d (position 4)")
        ok = False
    say("acceptance: " + ("PASS" if ok else "FAIL"))
    if "n_kv_heads" in settings:  # (a variant: its figures go into its model.json, whatever they are)
        config["acceptance"] = {"pass": ok, "induction_weight": round(last["induction_weight"], 4),
                                "accuracy": round(last["accuracy"], 4)}
        (out / "model.json").write_text(readable_json(config) + "\n", encoding="utf-8")
    (out / "training-log.txt").write_text("\n".join(lines) + "\n", encoding="utf-8")
    print(f"{LABEL}trained in {seconds:.0f} s; wrote {out}/" + (f" and {fixture}" if fixture else ""))
    return (0 if ok or "n_kv_heads" in settings else 1), [c["step"] for c in config["checkpoints"]]


# ---------------------------------------------------------------------------------------------
# The letter model with whole blocks (`arch` = block; docs/model.md, "The whole block"): pre-norm,
# each layer x += Σ_h heads(LN₁(x)), then x += FFN(LN₂(x)), FFN(u) = GELU(u·W₁ + b₁)·W₂ + b₂ with
# 4·d_model hidden units, a final LayerNorm before W_U; LN(u) = γ·(u − mean)/√(var + ε) + β, var
# without Bessel's correction, ε = 1e-5 (torch's LayerNorm); GELU in its erf form (torch's default).
# Trained on Italian words from the project's own lexicon (lexicon/it.csv, the project's licence:
# the words a–z only), run together with no space, where a piece of two to four words comes back:
# an FFN has spelling to learn, and the heads still something to copy.

LEXICON = ROOT / "lexicon" / "it.csv"
EPS = 1e-5
TOP_UNITS = 3  # the FFN units of a layer the page shows for a position (those that fire most)
# A layer-2 head is named the block model's induction head when it puts at least this share of its
# weight on the letter to copy, on the held-out batch (a head that looked back evenly would put
# about 1/30 there; the page's model's puts 0.96, the hybrid's 0.83); else the page says none formed.
INDUCTION_FORMED = 0.2

# d_model 20 (4 heads of 5, 80 FFN units): its forward pass at 40 letters within the budget of a
# setting's change (docs/performance.md); at 32 an induction head was forming (0.25 at step 3,000) but
# the page's pass took 138 ms (p95), at 24 74-110 ms; at 24 and below none forms in 3,000 steps, with
# any recipe tried (docs/model.md)
BLOCK = dict(SETTINGS, arch="block", d_model=20, d_head=5, d_ff=4 * 20,
             data={"kind": "words",        # (see make_words)
                   "letters": 63,
                   "segment_words": [2, 4],  # a piece of 2..4 words comes back,
                   "made_up": 0.75,            # or, three times in four, a made-up word of 5..12 distinct
                   "made_up_letters": [5, 12],  # random letters: copying is the only way to predict it
                   "filler_words": [0, 2]},  # 0..2 words before it and between its two copies
             # (its in-context score on 64 held-out sequences, not 256: a fifth of its training time saved)
             # (the score and the heads on a made-up word of 10 letters amid Italian words: copying)
             heldout=dict(SETTINGS["heldout"], segment_words=3, sequences=64, made_up=10),
             acceptance={"seed_offset": 3, "sequences": 512, "segment_words": 3})


def lexicon_words():
    """The lexicon's Italian words written with a–z only, in the file's order."""
    out = []
    for line in LEXICON.read_text(encoding="utf-8").splitlines():
        if line.startswith("#") or line.startswith("word,") or not line.strip():
            continue
        word = line.split(",", 1)[0].strip().lower()
        if word and all(c in LETTERS for c in word):
            out.append(word)
    return out


WORDS = None


def word_list():
    global WORDS
    if WORDS is None:
        WORDS = lexicon_words()
    return WORDS


def some_words(rng, low, high):
    return "".join(rng.choice(word_list()) for _ in range(rng.randint(low, high)))


def make_words(rng, data):
    """One training sequence of letters: filler words, a piece (words, or a made-up word), filler,
    the same piece, and so on until data["letters"] letters (the last piece cut there)."""
    letters = ""
    while len(letters) < data["letters"]:
        if rng.random() < data["made_up"]:  # (a made-up word: no spelling predicts it, only its first copy)
            piece = "".join(rng.sample(LETTERS, rng.randint(*data["made_up_letters"])))
        else:
            piece = some_words(rng, *data["segment_words"])
        letters += some_words(rng, *data["filler_words"]) + piece + some_words(rng, *data["filler_words"]) + piece
    return list(letters[:data["letters"]])


def block_training_batch(rng, settings):
    return torch.tensor([ids_of(make_words(rng, settings["data"])) for _ in range(settings["batch"])])


def repeated_words(rng, count, segment_words, length, made_up=None):
    """Sequences <s>, 0..2 words, a piece S of `segment_words` words (or a made-up word of `made_up`
    distinct random letters), S again, words to `length` tokens (cut there). Returns (ids [count,
    length], starts: (first, second, L) for each)."""
    rows, starts = [], []
    while len(rows) < count:
        before = some_words(rng, 0, 2)
        piece = "".join(rng.sample(LETTERS, made_up)) if made_up else some_words(rng, segment_words, segment_words)
        text = before + piece + piece
        if 1 + len(text) > length:
            continue
        while 1 + len(text) < length:
            text += rng.choice(word_list())
        rows.append(ids_of(text[:length - 1]))
        starts.append((1 + len(before), 1 + len(before) + len(piece), len(piece)))
    return torch.tensor(rows), starts


def block_heldout_batch(settings):
    h = settings["heldout"]
    rng = random.Random(settings["seed"] + h["seed_offset"])
    return repeated_words(rng, h["sequences"], h["segment_words"], settings["n_ctx"], h["made_up"])


def torch_layer_norm(x, g, b):
    """torch's LayerNorm over the last axis with γ = g, β = b (var without Bessel's correction)."""
    mean = x.mean(dim=-1, keepdim=True)
    var = ((x - mean) ** 2).mean(dim=-1, keepdim=True)
    return g * (x - mean) / torch.sqrt(var + EPS) + b


class Block(torch.nn.Module):
    """x = E[ids] + P; per layer x += Σ_h softmax(causal q·k/√d_head)·v·W_O[h] on LN₁(x), then
    x += FFN(LN₂(x)); logits = LN_f(x)·W_U. forward gives (logits, attention [layer] [B, H, n, n],
    stages: the residual stream after the embedding, each attention and each FFN)."""

    def __init__(self, d_model, n_layers, n_heads, d_head, n_ctx, d_ff, embed_std=1.0):
        super().__init__()
        normal = torch.nn.init.normal_
        L, H, d, e = n_layers, n_heads, d_model, d_head
        self.embed = torch.nn.Parameter(normal(torch.empty(len(VOCAB), d), std=embed_std))
        self.layers = torch.nn.ModuleList()
        for _ in range(L):
            layer = torch.nn.Module()
            layer.w_q = torch.nn.Parameter(normal(torch.empty(H, d, e), std=d ** -0.5))
            layer.w_k = torch.nn.Parameter(normal(torch.empty(H, d, e), std=d ** -0.5))
            layer.w_v = torch.nn.Parameter(normal(torch.empty(H, d, e), std=d ** -0.5))
            layer.w_o = torch.nn.Parameter(normal(torch.empty(H, e, d), std=(H * e) ** -0.5))
            layer.ln1_g, layer.ln1_b = torch.nn.Parameter(torch.ones(d)), torch.nn.Parameter(torch.zeros(d))
            layer.ln2_g, layer.ln2_b = torch.nn.Parameter(torch.ones(d)), torch.nn.Parameter(torch.zeros(d))
            layer.w_1 = torch.nn.Parameter(normal(torch.empty(d, d_ff), std=d ** -0.5))
            layer.b_1 = torch.nn.Parameter(torch.zeros(d_ff))
            layer.w_2 = torch.nn.Parameter(normal(torch.empty(d_ff, d), std=d_ff ** -0.5 / math.sqrt(2 * L)))
            layer.b_2 = torch.nn.Parameter(torch.zeros(d))
            self.layers.append(layer)
        self.lnf_g, self.lnf_b = torch.nn.Parameter(torch.ones(d)), torch.nn.Parameter(torch.zeros(d))
        self.unembed = torch.nn.Parameter(normal(torch.empty(d, len(OUTPUTS)), std=d ** -0.5))
        self.register_buffer("positions", sinusoidal(n_ctx, d_model).float())

    def forward(self, ids, stages=False):
        n = ids.shape[1]
        x = self.embed[ids] + self.positions[:n].to(self.embed.dtype)
        future = torch.triu(torch.ones(n, n, dtype=torch.bool), diagonal=1)
        attention, kept = [], [x]
        for layer in self.layers:
            u = torch_layer_norm(x, layer.ln1_g, layer.ln1_b)
            q = torch.einsum("bnd,hde->bhne", u, layer.w_q)
            k = torch.einsum("bnd,hde->bhne", u, layer.w_k)
            v = torch.einsum("bnd,hde->bhne", u, layer.w_v)
            scores = q @ k.transpose(-1, -2) / math.sqrt(q.shape[-1])
            A = torch.softmax(scores.masked_fill(future, float("-inf")), dim=-1)
            x = x + torch.einsum("bhne,hed->bnd", A @ v, layer.w_o)
            kept.append(x)
            u = torch_layer_norm(x, layer.ln2_g, layer.ln2_b)
            x = x + torch.nn.functional.gelu(u @ layer.w_1 + layer.b_1) @ layer.w_2 + layer.b_2
            kept.append(x)
            attention.append(A)
        logits = torch_layer_norm(x, self.lnf_g, self.lnf_b) @ self.unembed
        return (logits, attention, kept) if stages else (logits, attention)


def block_new_model(settings):
    s = settings
    return Block(s["d_model"], s["n_layers"], s["n_heads"], s["d_head"], s["n_ctx"], s["d_ff"],
                 embed_std=s["init_std"]["embed"])


NAMES = ("w_q", "w_k", "w_v", "w_o", "ln1_g", "ln1_b", "ln2_g", "ln2_b", "w_1", "b_1", "w_2", "b_2")


def block_json(step, state):
    """The file of one checkpoint: each layer {"kind": "block", its attention's w_q, w_k, w_v, w_o,
    ln1_g/b, ln2_g/b, w_1 [d, d_ff], b_1, w_2 [d_ff, d], b_2}, and "ln_f": {"g", "b"}."""
    layers, l = [], 0
    while f"layers.{l}.w_q" in state:
        layers.append(dict({"kind": "block"}, **{name: encode(state[f"layers.{l}.{name}"]) for name in NAMES}))
        l += 1
    return {"step": step, "encoding": "float32-le-base64", "embed": encode(state["embed"]),
            "unembed": encode(state["unembed"]), "layers": layers,
            "ln_f": {"g": encode(state["lnf_g"]), "b": encode(state["lnf_b"])}}


def block_from_files(config, checkpoint, dtype=torch.float32):
    model = Block(config["d_model"], config["n_layers"], config["n_heads"], config["d_head"], config["n_ctx"],
                  config["d_ff"]).to(dtype)
    with torch.no_grad():
        model.embed.copy_(torch.from_numpy(decode(checkpoint["embed"])))
        model.unembed.copy_(torch.from_numpy(decode(checkpoint["unembed"])))
        model.lnf_g.copy_(torch.from_numpy(decode(checkpoint["ln_f"]["g"])))
        model.lnf_b.copy_(torch.from_numpy(decode(checkpoint["ln_f"]["b"])))
        for target, layer in zip(model.layers, checkpoint["layers"]):
            for name in NAMES:
                getattr(target, name).copy_(torch.from_numpy(decode(layer[name])))
        model.positions.copy_(sinusoidal(config["n_ctx"], config["d_model"]))
    return model


def block_numpy_forward(config, checkpoint, ids):
    """The block model in float64 numpy, written out plainly: {"attention", "logits", "stages"}."""
    def ln(u, g, b):
        mean = u.mean(axis=-1, keepdims=True)
        return g * (u - mean) / np.sqrt(((u - mean) ** 2).mean(axis=-1, keepdims=True) + EPS) + b

    erf = np.vectorize(math.erf)
    n, d = len(ids), config["d_model"]
    x = decode(checkpoint["embed"])[ids] + sinusoidal(n, d).numpy()
    attention, stages = [], [x]
    for layer in checkpoint["layers"]:
        w = {name: decode(layer[name]) for name in NAMES}
        u = ln(x, w["ln1_g"], w["ln1_b"])
        update, heads = np.zeros_like(x), []
        for h in range(config["n_heads"]):
            q, k, v = u @ w["w_q"][h], u @ w["w_k"][h], u @ w["w_v"][h]
            s = q @ k.T / math.sqrt(q.shape[1]) + np.triu(np.full((n, n), -np.inf), 1)
            a = np.exp(s - s.max(axis=1, keepdims=True))
            a /= a.sum(axis=1, keepdims=True)
            update += a @ v @ w["w_o"][h]
            heads.append(a)
        x = x + update
        stages.append(x)
        h1 = ln(x, w["ln2_g"], w["ln2_b"]) @ w["w_1"] + w["b_1"]
        x = x + (0.5 * h1 * (1 + erf(h1 / math.sqrt(2)))) @ w["w_2"] + w["b_2"]
        stages.append(x)
        attention.append(heads)
    f = checkpoint["ln_f"]
    return {"attention": attention, "stages": stages,
            "logits": ln(x, decode(f["g"]), decode(f["b"])) @ decode(checkpoint["unembed"])}


def block_accuracy(model, ids, starts=None):
    """The next-letter accuracy (argmax) over every position, and over the second copy's letters
    2..L when `starts` says where the copies are."""
    with torch.no_grad():
        logits = model(ids)[0]
    predicted = logits[:, :-1].argmax(dim=-1) + 1
    every = float((predicted == ids[:, 1:]).float().mean())
    if starts is None:
        return every, None
    right = [predicted[b, p2:p2 + L - 1] == ids[b, p2 + 1:p2 + L] for b, (_, p2, L) in enumerate(starts)]
    return every, float(torch.cat(right).float().mean())


def train_block(out, steps):
    """Train the block model into out/block/ (checkpoints at `steps`, the page's), report what it
    learned, whatever it is. Returns its folder."""
    settings = dict(BLOCK)
    folder = out / "block"
    say, lines = log()

    say(f"Training the block model: pre-norm blocks (LayerNorm, {settings['n_heads']} heads, an FFN of "
        f"{settings['d_ff']} GELU units), a final LayerNorm; {len(word_list())} Italian words of lexicon/it.csv; "
        f"the page's model's seed {settings['seed']} and {settings['steps']} steps")
    began = time.monotonic()
    heldout = block_heldout_batch(settings)
    run = train(settings, say, new_model=block_new_model, batch=block_training_batch, heldout=heldout)
    ids, starts = heldout
    with torch.no_grad():
        attention = run["model"](ids)[1]
    previous, induction = head_scores(attention, starts, settings["n_ctx"])
    best = int(np.argmax(induction))
    heads = ([0, int(np.argmax(previous))], [1, best] if induction[best] >= INDUCTION_FORMED else None)
    say("layer 1, mean weight on the previous token, per head: " + ", ".join(f"{w:.3f}" for w in previous))
    say("layer 2, mean weight on the token after the earlier occurrence, per head: "
        + ", ".join(f"{w:.3f}" for w in induction)
        + ("" if heads[1] else f": none reaches {INDUCTION_FORMED}, no induction head is named"))
    config, _ = export(run, settings, folder, heads, say, steps, to_json=block_json)
    a = settings["acceptance"]
    rng = random.Random(settings["seed"] + a["seed_offset"])
    words_batch = repeated_words(rng, a["sequences"], a["segment_words"], settings["n_ctx"])
    made_up_batch = repeated_words(rng, a["sequences"], a["segment_words"], settings["n_ctx"], 10)
    c, files = load_exported(folder)
    figures = {}
    for step in (c["checkpoints"][0]["step"], c["checkpoints"][-1]["step"]):
        m = block_from_files(c, files[step])
        every, words_copied = block_accuracy(m, *words_batch)
        _, made_up_copied = block_accuracy(m, *made_up_batch)
        figures[step] = {"accuracy": round(every, 4), "copy_words": round(words_copied, 4),
                         "copy_made_up": round(made_up_copied, 4)}
        say(f"step {step}: {a['sequences']} held-out sequences of Italian words: next-letter accuracy {every:.3f}; "
            f"on a repeated piece's letters 2..L: {words_copied:.3f} ({a['segment_words']} words), "
            f"{made_up_copied:.3f} (a made-up word of 10 letters)")
    c["acceptance"] = dict(figures[c["checkpoints"][-1]["step"]],
                           induction_weight=round(induction[best], 4),  # (layer 2's most induction-like head)
                           previous_weight=round(previous[heads[0][1]], 4))
    (folder / "model.json").write_text(readable_json(c) + "\n", encoding="utf-8")
    (folder / "training-log.txt").write_text("\n".join(lines) + "\n", encoding="utf-8")
    print(f"{LABEL}trained in {time.monotonic() - began:.0f} s; wrote {folder}/")
    return folder


def block_torch_case(config, checkpoint, letters):
    model = block_from_files(config, checkpoint, dtype=torch.float64)
    with torch.no_grad():
        logits, attention, stages = model(torch.tensor([ids_of(letters)]), stages=True)
    return {"checkpoint": checkpoint["step"], "letters": letters,
            "attention": [[a[0, h].tolist() for h in range(a.shape[1])] for a in attention],
            "stages": [s[0].tolist() for s in stages], "logits": logits[0].tolist()}


def write_block_fixture(out, path):
    """PyTorch's float64 forward of the block model on three checkpoints: tests/data/model_block_torch.json."""
    config, checkpoints = load_exported(out / "block")
    kept = [c["step"] for c in config["checkpoints"]]
    texts = ["ilgattodorme", "lacasalacasa", "".join(make_words(random.Random(5), dict(BLOCK["data"], letters=39)))]
    cases = [block_torch_case(config, checkpoints[step], t) for step in (kept[0], kept[len(kept) // 2], kept[-1])
             for t in texts]
    Path(path).write_text(json.dumps({"cases": cases}) + "\n", encoding="utf-8")


# ---------------------------------------------------------------------------------------------
# --check


def app_model():
    """app/model.py's Model, if it exists and has from_json; else None."""
    if not (ROOT / "app" / "model.py").exists():
        return None
    module = importlib.import_module("app.model")
    model = getattr(module, "Model", None)
    return model if model is not None and hasattr(model, "from_json") else None


def largest_difference(a, b):
    return float(np.max(np.abs(np.asarray(a, dtype=np.float64) - np.asarray(b, dtype=np.float64))))


def check_pipeline(settings, Model, check):
    """Train `settings` briefly, export into a temporary folder, reload, compare the forward passes
    (torch float32 and float64, numpy, app/model.py's), each result through `check`."""
    run = train(settings, say=lambda line: None)
    with tempfile.TemporaryDirectory() as folder:
        out = Path(folder)
        config, kept = export(run, settings, out, ([0, 0], [1, 0]), say=lambda line: None)
        config, checkpoints = load_exported(out)
        G = settings.get("n_kv_heads", settings["n_heads"])
        check(f"{G} key/value head(s): model.json names every checkpoint file, in step order",
              [c["step"] for c in config["checkpoints"]] == sorted(checkpoints) and 0 in checkpoints
              and all((out / c["file"]).exists() for c in config["checkpoints"]))
        L, H, d, e = settings["n_layers"], settings["n_heads"], settings["d_model"], settings["d_head"]
        shapes_ok = True
        for snap in kept:
            c = checkpoints[snap["step"]]
            shapes_ok &= c["embed"]["shape"] == [27, d] and c["unembed"]["shape"] == [d, 26]
            for l in range(L):
                layer = c["layers"][l]
                shapes_ok &= layer["w_q"]["shape"] == [H, d, e]
                shapes_ok &= all(layer[n]["shape"] == [G, d, e] for n in ("w_k", "w_v"))
                shapes_ok &= layer["w_o"]["shape"] == [H, e, d]
                for name in ("w_q", "w_k", "w_v", "w_o"):  # bit for bit what was trained
                    shapes_ok &= np.array_equal(decode(layer[name]), snap["state"][name][l].double().numpy())
        check("the exported shapes are those of the format, the weights those trained", shapes_ok)

        rng = random.Random(7)
        inputs = ["abcdabc", "abcdefghi" * 2, "".join(make_letters(rng, dict(settings["data"], letters=39)))]
        worst32, worst64, worst_app = 0.0, 0.0, 0.0
        for step, checkpoint in checkpoints.items():
            reloaded = model_from_files(config, checkpoint)                    # float32, as a trainer would
            reloaded64 = model_from_files(config, checkpoint, torch.float64)
            app = Model.from_json(config, checkpoint) if Model else None
            for letters in inputs:
                ids = ids_of(letters)
                reference = numpy_forward(config, checkpoint, ids)
                with torch.no_grad():
                    for m, dtype in ((reloaded, "32"), (reloaded64, "64")):
                        logits, attention = m(torch.tensor([ids]))
                        diff = max(largest_difference(logits[0], reference["logits"]),
                                   largest_difference(torch.stack([a[0] for a in attention]), reference["attention"]))
                        if dtype == "32":
                            worst32 = max(worst32, diff)
                        else:
                            worst64 = max(worst64, diff)
                if app:
                    result = app.run(ids)
                    worst_app = max(worst_app, largest_difference(result["logits"], reference["logits"]),
                                    largest_difference(result["attention"], reference["attention"]))
        check("the reloaded torch forward (float32) equals a float64 forward on the decoded weights",
              worst32 < 1e-4, f"largest difference {worst32:.1e} (< 1e-4)")
        check("the reloaded torch forward in float64 equals it", worst64 < 1e-9,
              f"largest difference {worst64:.1e} (< 1e-9)")
        if Model:
            check("app/model.py's Model.run equals it", worst_app < 1e-9, f"largest difference {worst_app:.1e} (< 1e-9)")
        else:
            print("skip app/model.py has no Model.from_json yet")



def check_arch(settings, Model, check):
    """Train an `arch` model briefly, export it into a temporary folder, reload it, and compare the
    forward passes (torch float32 and float64, numpy, app/model.py's), each through `check`."""
    run = train(settings, say=lambda line: None)
    with tempfile.TemporaryDirectory() as folder:
        out = Path(folder)
        export(run, settings, out, (None, None), say=lambda line: None)
        config, checkpoints = load_exported(out)
        kinds = [layer["kind"] for layer in checkpoints[0]["layers"]]
        check(f"{settings['arch']}: each layer's kind is in its files", kinds == list(ARCHS[settings["arch"]]))
        worst32 = worst64 = worst_app = 0.0
        rng = random.Random(7)
        inputs = ["abcdabc", "".join(make_letters(rng, dict(settings["data"], letters=30)))]
        for checkpoint in checkpoints.values():
            app = Model.from_json(config, checkpoint) if Model else None
            for letters in inputs:
                ids = ids_of(letters)
                reference = numpy_forward(config, checkpoint, ids)
                for dtype in (torch.float32, torch.float64):
                    with torch.no_grad():
                        logits, mixing = model_from_files(config, checkpoint, dtype)(torch.tensor([ids]))
                    diff = max(largest_difference(logits[0], reference["logits"]),
                               largest_difference(torch.stack([m[0] for m in mixing]), reference["attention"]))
                    if dtype == torch.float32:
                        worst32 = max(worst32, diff)
                    else:
                        worst64 = max(worst64, diff)
                if app:
                    result = app.run(ids)
                    worst_app = max(worst_app, largest_difference(result["logits"], reference["logits"]),
                                    largest_difference(result["attention"], reference["attention"]))
        check(f"{settings['arch']}: the reloaded torch forward (float32) equals a float64 numpy forward",
              worst32 < 1e-4, f"largest difference {worst32:.1e} (< 1e-4)")
        check(f"{settings['arch']}: in float64 it equals it", worst64 < 1e-9, f"largest difference {worst64:.1e} (< 1e-9)")
        if Model:
            check(f"{settings['arch']}: app/model.py's Model.run equals it", worst_app < 1e-9,
                  f"largest difference {worst_app:.1e} (< 1e-9)")


def check_block(Model, check):
    """Train a tiny block model briefly, export it, reload it, and compare the forward passes
    (torch float32 and float64, numpy, app/model.py's), stages included, each through `check`."""
    settings = dict(BLOCK, d_model=16, d_ff=64, n_heads=2, d_head=8, steps=20, batch=8, curve_every=5, keep_min=4,
                    heldout=dict(BLOCK["heldout"], sequences=8))
    run = train(settings, say=lambda line: None, new_model=block_new_model, batch=block_training_batch,
                heldout=block_heldout_batch(settings))
    with tempfile.TemporaryDirectory() as folder:
        out = Path(folder)
        export(run, settings, out, ([0, 0], [1, 0]), say=lambda line: None, to_json=block_json)
        config, checkpoints = load_exported(out)
        check("block: each layer's LayerNorms and FFN are in its files",
              all(set(NAMES) <= set(layer) for c in checkpoints.values() for layer in c["layers"]))
        worst32 = worst64 = worst_app = 0.0
        for checkpoint in checkpoints.values():
            app = Model.from_json(config, checkpoint) if Model else None
            for letters in ("ilgattodorme", "casaqwertycasaqwerty"):
                ids = ids_of(letters)
                reference = block_numpy_forward(config, checkpoint, ids)
                for dtype in (torch.float32, torch.float64):
                    with torch.no_grad():
                        logits, attention, stages = block_from_files(config, checkpoint, dtype)(
                            torch.tensor([ids]), stages=True)
                    diff = max(largest_difference(logits[0], reference["logits"]),
                               largest_difference(torch.stack([s[0] for s in stages]), reference["stages"]))
                    if dtype == torch.float32:
                        worst32 = max(worst32, diff)
                    else:
                        worst64 = max(worst64, diff)
                if app:
                    result = app.run(ids)
                    worst_app = max(worst_app, largest_difference(result["logits"], reference["logits"]),
                                    largest_difference(result["stages"], reference["stages"]))
        check("block: the reloaded torch forward (float32) equals a float64 numpy forward", worst32 < 1e-4,
              f"largest difference {worst32:.1e} (< 1e-4)")
        check("block: in float64 it equals it", worst64 < 1e-9, f"largest difference {worst64:.1e} (< 1e-9)")
        if Model:
            check("block: app/model.py's Model.run equals it", worst_app < 1e-9, f"largest difference {worst_app:.1e} (< 1e-9)")


def main_check():
    failures = 0

    def check(name, ok, detail=""):
        nonlocal failures
        failures += not ok
        print(f"{'ok  ' if ok else 'FAIL'} {name}{': ' + detail if detail else ''}", flush=True)

    began = time.monotonic()
    Model = app_model()
    for settings in (CHECK_SETTINGS, dict(CHECK_SETTINGS, n_kv_heads=1)):  # (and a multi-query variant)
        check_pipeline(settings, Model, check)
    for arch in ARCHS:  # (the selective mixer: in both layers, then beside attention)
        check_arch(dict(CHECK_SETTINGS, arch=arch, d_key=4), Model, check)
    check_block(Model, check)

    # The committed model, if there is one: its checkpoints still give the fixture's numbers.
    committed = ROOT / "model"
    if (committed / "model.json").exists() and FIXTURE.exists():
        config, checkpoints = load_exported(committed)
        cases = json.loads(FIXTURE.read_text(encoding="utf-8"))["cases"]
        worst, worst_app = 0.0, 0.0
        for case in cases:
            checkpoint = checkpoints[case["checkpoint"]]
            reference = numpy_forward(config, checkpoint, ids_of(case["letters"]))
            worst = max(worst, largest_difference(case["logits"], reference["logits"]),
                        largest_difference(case["attention"], reference["attention"]))
            if Model:
                result = Model.from_json(config, checkpoint).run(ids_of(case["letters"]))
                worst_app = max(worst_app, largest_difference(case["logits"], result["logits"]),
                                largest_difference(case["attention"], result["attention"]))
        check(f"model/ and {FIXTURE.relative_to(ROOT)} agree ({len(cases)} cases)", worst < 1e-9,
              f"largest difference {worst:.1e} (< 1e-9)")
        if Model:
            check("app/model.py reproduces the fixture", worst_app < 1e-9, f"largest difference {worst_app:.1e} (< 1e-9)")
    arch_fixture = FIXTURE.parent / ARCH_FIXTURE
    if arch_fixture.exists() and all((committed / a / "model.json").exists() for a in ARCHS):
        cases = json.loads(arch_fixture.read_text(encoding="utf-8"))["cases"]
        worst = 0.0
        for case in cases:
            config, checkpoints = load_exported(committed / case["arch"])
            reference = numpy_forward(config, checkpoints[case["checkpoint"]], ids_of(case["letters"]))
            worst = max(worst, largest_difference(case["logits"], reference["logits"]),
                        largest_difference(case["attention"], reference["attention"]))
        check(f"model/ssm, model/hybrid and {arch_fixture.relative_to(ROOT)} agree ({len(cases)} cases)",
              worst < 1e-9, f"largest difference {worst:.1e} (< 1e-9)")
    print(f"{'all checks passed' if not failures else f'{failures} check(s) failed'} "
          f"in {time.monotonic() - began:.0f} s")
    return 1 if failures else 0


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--out", type=Path, default=ROOT / "model", help="folder of the model files (default: model/)")
    parser.add_argument("--check", action="store_true", help="a tiny run into a temporary folder, checked (< 1 minute)")
    args = parser.parse_args(argv)
    return main_check() if args.check else main_train(args.out)


if __name__ == "__main__":
    sys.exit(main())
