"""The trained model writes: one letter at a time, with a KV cache (docs/DESIGN.md, "Generation").

Each new position computes its q, k, v for every layer and head from its own residual stream
only, appends its k and v to the cache, and attends over the cache (itself and the positions
before it, or only the last w + 1 of them under a window w). Nothing is recomputed for the
positions already read: that is what the cache saves. A causal model's earlier positions never
look at later ones, so each position's numbers are those of the full pass (app/model.py `run`)
on the same letters: tests/labs/generation/test_generate.py checks it on every kept checkpoint.

The letter written is the most likely one at the last position (the first in the alphabet on a
tie, as the page's predictions order them). This module reads the weights of app/model.py's
`Model` and repeats its arithmetic for one row, in the same order, so the numbers agree to the
last bits rather than only to a tolerance.

The counters (docs/generation.md): the cache holds 2·L·H·d_head numbers a token (a k and a v a
layer and head). The attention multiply-adds of one position that attends over m keys are
2·d_head·m a head and layer (m products q·k_j of d_head terms, then the d_head numbers of
Σ_j a_j·v_j). `products_cached` adds them up for every position read once, prompt included;
`products_recomputed` for a model without a cache, which reads the whole prefix again for each
letter it writes (the prompt's pass once, then, for each written letter, the pass over every
position up to it). The projections (W_Q, W_K, W_V, W_O, W_U) are not counted.
"""

import functools
import math
import time

from app import model

MAX = 40  # the most letters the page writes


def keys_seen(position, window):
    """How many cached positions position `position` (from 0) attends over: itself and all those
    before it, or itself and at most `window` before it."""
    return position + 1 - model.first_key(position, window)


def pass_products(length, layers, heads, d_head, window=None):
    """The attention multiply-adds of a full causal pass over `length` positions."""
    return sum(2 * d_head * keys_seen(p, window) for p in range(length)) * layers * heads


def counters(prompt, written, layers, heads, d_head, window=None, kv_heads=None):
    """model.cache for `prompt` positions read (the start token included) then `written` letters
    each read in turn: {"tokens", "numbers", "products_cached", "products_recomputed"}. With
    `kv_heads` key/value heads (None: one a head) the cache keeps a k and a v of each of those,
    while every query head still attends."""
    tokens = prompt + written
    cached = pass_products(tokens, layers, heads, d_head, window)
    recomputed = pass_products(prompt, layers, heads, d_head, window) + sum(
        pass_products(prompt + s, layers, heads, d_head, window) for s in range(1, written + 1))
    return {"tokens": tokens, "numbers": 2 * layers * (kv_heads or heads) * d_head * tokens,
            "products_cached": cached, "products_recomputed": recomputed}


class Step:
    """One position read with the cache: its token and position, its q, k, v and attention row
    ([layer][head], the row over the keys it sees; k and v those of the head's key/value head),
    the first cached position that row starts at, its probabilities (26) and its TOP most likely
    letters."""

    __slots__ = ("token", "position", "q", "k", "v", "attention", "start", "probs", "top")


class Cache:
    """The K and V rows of every position read ([layer][key/value head] lists, one row a position:
    a grouped-query or multi-query model keeps fewer than its heads), and the steps that read them."""

    def __init__(self, weights, window=None):
        self.model, self.window = weights, window
        layers, kv_heads = len(weights.layers), weights.kv_heads
        self.k = [[[] for _ in range(kv_heads)] for _ in range(layers)]
        self.v = [[[] for _ in range(kv_heads)] for _ in range(layers)]
        self.steps = []

    def __len__(self):
        return len(self.steps)

    def read(self, token):
        """Read one more token: its q, k, v per layer and head, k and v appended, its attention
        over the cache, the residual stream, the probabilities of the next letter."""
        m = self.model
        i, t = len(self.steps), m.vocab.index(token)
        if i >= m.n_ctx:
            raise ValueError(f"the model reads at most {m.n_ctx} positions")
        scale = math.sqrt(m.d_head)
        x = [e + p for e, p in zip(m.embed[t], m.positions[i])]
        step = Step()
        step.token, step.position = token, i
        step.q, step.k, step.v, step.attention = [], [], [], []
        step.start = model.first_key(i, self.window)
        for number, layer in enumerate(layer["columns"] for layer in m.layers):  # (the full pass's: `Model`)
            qs, ks, vs, rows, zs = [], [], [], [], []
            if number == 0:  # (the first layer's tables, as the full pass: E[t]·W + P_i·W)
                q_all, k_all, v_all = ([[a + b for a, b in zip(by_token[t], by_position[i])]
                                        for by_token, by_position in m.first[name]] for name in ("w_q", "w_k", "w_v"))
            else:
                q_all, k_all, v_all = ([[model.dot(x, column) for column in w] for w in layer[name]]
                                       for name in ("w_q", "w_k", "w_v"))
            for g, (k, v) in enumerate(zip(k_all, v_all)):  # one row a key/value head
                self.k[number][g].append(k)
                self.v[number][g].append(v)
            for h, q in enumerate(q_all):
                g = h // m.group
                k, v = k_all[g], v_all[g]
                keys, values = self.k[number][g][step.start:], self.v[number][g][step.start:]
                a = model.softmax([model.dot(q, k_j) / scale for k_j in keys])
                zs.append([model.dot(a, column) for column in zip(*values)])  # Σ_j a_j·v_j
                qs.append(q), ks.append(k), vs.append(v), rows.append(a)
            concat = sum(zs, [])
            added = [model.dot(concat, column) for column in layer["w_o"]]
            x = [s + o for s, o in zip(x, added)]
            step.q.append(qs), step.k.append(ks), step.v.append(vs), step.attention.append(rows)
        logits = [model.dot(x, column) for column in m.unembed_columns]
        step.probs = model.softmax(logits)
        step.top = sorted(zip(m.outputs, step.probs), key=lambda pair: -pair[1])[:model.TOP]
        self.steps.append(step)
        return step


class Generation:
    """The prompt read with the cache, then `n` letters written (fewer when the model's n_ctx
    positions run out: `cut` says how many not): `written`, the cache, the steps of the
    written letters (`steps`: one a letter, reading it) and the counters."""

    def __init__(self, weights, tokens, n, window=None):
        began = time.perf_counter()
        self.cache = Cache(weights, window)
        for token in tokens:
            last = self.cache.read(token)
        self.prompt = len(tokens)
        self.written, self.step_ms = [], []  # (each written letter's read: `make bench`)
        for _ in range(min(n, weights.n_ctx - len(tokens))):
            letter = last.top[0][0]
            self.written.append(letter)
            at = time.perf_counter()
            last = self.cache.read(letter)
            self.step_ms.append((time.perf_counter() - at) * 1000)
        self.ms = (time.perf_counter() - began) * 1000  # the whole writing, the prompt's read included
        self.cut = n - len(self.written)
        self.steps = self.cache.steps[self.prompt:]
        self.window = window
        layers, heads = len(weights.layers), len(weights.layers[0]["w_q"])
        self.shape = (layers, heads, weights.d_head)
        self.counters = counters(self.prompt, len(self.written), *self.shape, window, weights.kv_heads)


@functools.lru_cache(maxsize=2)
def compute(text, step, n, window=None, kv=None):
    """The Record of model mode (app/model.py) on the typed letters and the `n` letters the model
    writes after them, with its `generation`: the full pass on every letter gives the page's
    tables, the cache the letters and the steps (`kv`: the variant's key/value heads, None: the
    page's model)."""
    weights = model.checkpoint(model.nearest_step(step, kv), kv)
    kept, skipped, cut = model.letters(text, weights.n_ctx - 1)
    generation = Generation(weights, [model.START] + kept, n, window)
    record = model.Record(weights, [model.START] + kept + generation.written, skipped, cut, window)
    record.generation = generation
    return record
