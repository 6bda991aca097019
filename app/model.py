"""The small trained model of the page's third mode: its files, its letters and its forward pass.

A transformer with two layers of attention only (no MLP, no layer norm, no biases), trained on
letters by `make model` (tools/model_train.py; docs/model.md). Nobody wrote its matrices: they
are the weights the training found, read from `model/` (one JSON file a checkpoint). This
module only reads them and runs the model forward, in plain Python with `math` alone, keeping
every intermediate, as app/attention.py does for the designed heads:

    x_i      = E[token_i] + P_i                       embedding + sinusoidal position   (n × d)
    for each layer, every head h reading the same x:
      q, k, v = x · W_Q[h], x · W_K[h], x · W_V[h]                                   (n × d_head)
      A_ij   = softmax_j( q_i · k_j / √d_head ),  i − w ≤ j ≤ i (causal; w: the window, if any) (n × n)
      x     += Σ_h (A · v) · W_O[h]                   the residual stream              (n × d)
    logits_i = x_i · W_U                              one score a letter               (n × 26)

The files load only when the page is in this mode: in the browser's engine (a Web Worker)
with a synchronous request to `../model/` beside the page (it blocks only the worker), on
CPython (the command line, tests, the build) from the repository's `model/` folder. A copy of
the page made without them (a SCORM package: tools/scorm.py) says so in its own file list,
files.json beside the page: a file it does not list is `LeftOut`, not a failed download.
"""

import base64
import functools
import json
import math
import os
import sys
import time
from array import array
from operator import mul

START = "<s>"  # the start token, always position 0
HEADS = 4  # the page's model's heads: with as many key/value heads, its own folder (`folder`)
LETTERS = "abcdefghijklmnopqrstuvwxyz"
TOP = 3  # the predictions shown at each position (and the letters the logit lens and a unit name)
TOP_UNITS = 3  # the block model's FFN units shown a layer: those that fire most at the position
FOLDER = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "model")


class Unavailable(Exception):
    """The model's files could not be read (offline, or a deployment without them)."""


class LeftOut(Unavailable):
    """The model's files are not in this copy of the page at all: its file list (files.json, the
    bundle's or a SCORM package's) does not name them. The page says so, not "try again"."""


FILE_LIST = "files.json"  # the list a copy of the page writes of its files (tools/bundle.py, FILE_LIST)
_left_out = []  # [True] once this copy's file list was found without the model's files


def left_out():
    """True once the model's files were found missing from this copy's own file list: the page
    then no longer offers the model as if it were there (app/views/controls.py)."""
    return bool(_left_out)


def unavailable_key():
    """The string that says why model mode shows nothing: left out of this copy, or not read."""
    return "model_left_out" if left_out() else "model_unavailable"


# -- files ----------------------------------------------------------------------------------

def _fetch(path):
    """(status, text) of `path`, relative to the deployment's folder (the browser's engine only)."""
    import js  # the engine's worker: a synchronous request blocks only the worker
    try:  # (the deployment's folder, as static/engine.js says it)
        request = js.XMLHttpRequest.new()
        request.open("GET", js.URL.new(path, js.attentionExplorer.root).href, False)
        request.send()
        return request.status, request.responseText
    except Exception as error:  # noqa: BLE001 - an address or a network error, whatever the browser calls it
        raise Unavailable(path) from error


def _not_listed(name, listing):
    """Raise LeftOut when `listing` (the text of files.json, or None) lists no model/<name>."""
    try:
        files = json.loads(listing)["files"] if listing is not None else None
    except (ValueError, KeyError, TypeError):
        files = None
    if isinstance(files, list) and "model/" + name not in files:
        _left_out[:] = [True]
        raise LeftOut(name)


def _read(name):
    """The text of model/<name>: fetched beside the page in the browser, read from disk on CPython.
    A file the copy's own list (files.json) leaves out raises LeftOut; any other failure, Unavailable."""
    if sys.platform == "emscripten":
        status, body = _fetch("model/" + name)
        if status != 200:
            try:
                listed_status, listing = _fetch(FILE_LIST)
            except Unavailable:
                listed_status, listing = 0, None
            _not_listed(name, listing if listed_status == 200 else None)
            raise Unavailable(f"{name}: {status}")
        return body
    try:
        with open(os.path.join(FOLDER, name), encoding="utf-8") as f:
            return f.read()
    except OSError as error:
        try:
            with open(os.path.join(os.path.dirname(FOLDER), FILE_LIST), encoding="utf-8") as f:
                listing = f.read()
        except OSError:
            listing = None
        _not_listed(name, listing)
        raise Unavailable(name) from error


# `arch` (docs/DESIGN.md, "Beyond attention" and "The whole Transformer"): the page's model, its two
# with the selective mixer (the copy test compares these three), and the letter model with whole blocks
ARCHS = ("attention", "ssm", "hybrid", "block")
COPY_ARCHS = ARCHS[:3]


def variant(kv=None, arch=None):
    """Which model `kv` key/value heads and `arch` name: None for the page's model (attention, four
    key/value heads, one a head: kv None or 4), 2 or 1 for its grouped-query and multi-query
    variants, "ssm" or "hybrid" for its architectures with the selective mixer (whatever `kv`
    says: their heads share nothing); all trained by `make model` with the same seed and data
    (tools/model_train.py: VARIANTS, ARCHS). A variant already named (an int or a str) stays."""
    if isinstance(kv, str) or arch not in (None, "attention"):
        return kv if isinstance(kv, str) else arch
    return None if kv in (None, HEADS) else kv


def folder(kv=None):
    """The folder of a model inside model/: "" for the page's model, "kv-2/" and "kv-1/" for its
    variants, "ssm/" and "hybrid/" for its other architectures."""
    kv = variant(kv)
    return "" if kv is None else f"{kv}/" if isinstance(kv, str) else f"kv-{kv}/"


def config(kv=None):
    """model/model.json (or a variant's): the shape, the vocabulary, the checkpoints, the curve,
    the named heads."""
    return _config(variant(kv))  # (one cache entry a file, however the variant is named)


@functools.lru_cache(maxsize=3)
def _config(kv):
    name = folder(kv) + "model.json"
    try:
        return json.loads(_read(name))
    except ValueError as error:
        raise Unavailable(name) from error


config.cache_clear = _config.cache_clear  # (the tests read the files afresh)


def steps(kv=None):
    """The training steps of the kept checkpoints, in order."""
    return [c["step"] for c in config(kv)["checkpoints"]]


def nearest_step(step, kv=None):
    """The kept checkpoint nearest to `step` (the last when None)."""
    kept = steps(kv)
    if step is None:
        return kept[-1]
    return min(kept, key=lambda s: (abs(s - step), s))


def checkpoint(step, kv=None):
    """The Model of the kept checkpoint at training step `step` (of the variant with `kv` key/value heads)."""
    return _checkpoint(step, variant(kv))


@functools.lru_cache(maxsize=16)  # a slider moved back and forth reads each of the ~15 files once (~0.4 MB each)
def _checkpoint(step, kv):
    file = folder(kv) + next(c["file"] for c in config(kv)["checkpoints"] if c["step"] == step)
    try:
        return Model.from_json(config(kv), json.loads(_read(file)))
    except (ValueError, KeyError) as error:
        raise Unavailable(file) from error


checkpoint.cache_clear = _checkpoint.cache_clear


def tensor(t):
    """A stored tensor {"shape", "data": base64 of float32 little-endian} as nested lists."""
    values = array("f")
    values.frombytes(base64.b64decode(t["data"]))
    if sys.byteorder != "little":
        values.byteswap()
    values = values.tolist()
    shape = t["shape"]
    for size in reversed(shape[1:]):
        values = [values[i:i + size] for i in range(0, len(values), size)]
    return values


# -- letters --------------------------------------------------------------------------------

def letters(text, limit):
    """(letters, skipped, cut) of what the student typed: a–z (capitals lowered) are tokens;
    spaces only separate them, anything else is `skipped` (each character once, in order);
    past `limit` letters the rest is `cut` (their count)."""
    kept, skipped = [], []
    for ch in text:
        low = ch.lower()
        if len(low) == 1 and low in LETTERS:
            kept.append(low)
        elif not ch.isspace() and ch not in skipped:
            skipped.append(ch)
    return kept[:limit], skipped, max(0, len(kept) - limit)


# -- the forward pass -----------------------------------------------------------------------

def dot(a, b):
    """Σ a_i · b_i (math.sumprod where Python has it, 3.12 on: the page's Python does)."""
    return sum(map(mul, a, b))


dot = getattr(math, "sumprod", dot)


def matmul(a, b):
    """a (n × m) · b (m × p), lists of rows."""
    return times(a, list(zip(*b)))


def times(a, columns):
    """a (n × m) · b, b given by its p `columns` (each m numbers): n × p."""
    return [[dot(row, col) for col in columns] for row in a]


def softmax(logits):
    top = max(logits)
    exps = [math.exp(x - top) for x in logits]
    total = sum(exps)
    return [e / total for e in exps]


def first_key(i, window):
    """The first position that position i sees: 0, or under a sliding window w the position i − w
    (itself and the w before it)."""
    return 0 if window is None else max(0, i - window)


def positions(n, d):
    """The sinusoidal positions P (n × d): P[i][2k] = sin(i / 10000^(2k/d)), P[i][2k+1] = cos(…)."""
    return [[math.sin(i / 10000 ** (2 * (c // 2) / d)) if c % 2 == 0 else math.cos(i / 10000 ** (2 * (c // 2) / d))
             for c in range(d)] for i in range(n)]


def softplus(u):
    """log(1 + eˣ), written so that no exponential overflows."""
    return math.log1p(math.exp(-abs(u))) + max(u, 0.0)


WEIGHTS = ("w_q", "w_k", "w_v", "w_o", "w_delta", "b_delta", "a",  # (an attention or selective layer's)
           "ln1_g", "ln1_b", "ln2_g", "ln2_b", "w_1", "b_1", "w_2", "b_2")  # (a block's: LayerNorms and FFN)
EPS = 1e-5  # LayerNorm's ε, torch's


def moments(u):
    """(mean, var) of one vector, var without Bessel's correction (torch's LayerNorm)."""
    mean = sum(u) / len(u)
    return mean, sum((x - mean) ** 2 for x in u) / len(u)


def layer_norm(u, g, b):
    """γ·(u − mean)/√(var + ε) + β over one vector (`moments`)."""
    mean, var = moments(u)
    scale = 1 / math.sqrt(var + EPS)
    return [gi * (x - mean) * scale + bi for x, gi, bi in zip(u, g, b)]


def gelu(x):
    """GELU in its erf form (torch's default): x·Φ(x)."""
    return 0.5 * x * (1 + math.erf(x / math.sqrt(2)))


def selective_scores(q, k, delta, a, scale):
    """A selective layer's mixing matrix for one head (docs/model.md, "Other architectures"):
    s_ij = Π_{r=j+1..i} a_r · Δ_j · (q_i·k_j) / scale for j ≤ i, 0 after; each row is read from
    the diagonal back, the product of the a_r kept as it goes (n × n)."""
    n = len(q)
    rows = []
    for i in range(n):
        row, kept = [0.0] * n, 1.0
        for j in range(i, -1, -1):
            row[j] = kept * delta[j] * dot(q[i], k[j]) / scale
            kept *= a[j]
        rows.append(row)
    return rows


class Model:
    """The weights of one checkpoint, as lists: embed (vocab × d), unembed (d × 26), and for each
    layer w_q (heads × d × d_head), w_k, w_v (key/value heads × d × d_head) and w_o (heads × d_head
    × d). Query head h reads key/value head h // group (group = heads / key/value heads: 1 for the
    page's model, 2 and 4 for its grouped-query and multi-query variants). A layer of an `arch`
    model says its kind: "selective" has w_q and w_k of heads × d × N, and w_delta (heads × d),
    b_delta and a (one number a head) beside them (docs/model.md, "Other architectures")."""

    def __init__(self, config, step, embed, unembed, layers, ln_f=None):
        self.vocab, self.outputs = config["vocab"], config["outputs"]
        self.n_ctx, self.step = config["n_ctx"], step
        self.heads, self.kv_heads = len(layers[0]["w_q"]), len(layers[0]["w_k"])
        self.group = self.heads // self.kv_heads
        self.variant = variant(self.kv_heads, config.get("arch"))  # (its files' folder: `folder`)
        self.embed, self.unembed, self.layers, self.ln_f = embed, unembed, layers, ln_f  # ln_f: (γ, β) or None
        self.unembed_columns = list(zip(*unembed))
        for layer in layers:  # each matrix's columns, made once a checkpoint: a pass multiplies rows by
            # them (`times`; app/generate.py's cached steps too); "w_o": the columns of W_O of every
            # head one under the other, (heads · d_head) × d_model
            layer["columns"] = {name: [list(zip(*w)) for w in layer[name]] for name in ("w_q", "w_k", "w_v")}
            layer["columns"]["w_o"] = list(zip(*[row for w_o in layer["w_o"] for row in w_o]))
            if "w_1" in layer:
                layer["columns"].update(w_1=list(zip(*layer["w_1"])), w_2=list(zip(*layer["w_2"])))
        self.d_model, self.d_head = len(embed[0]), len(layers[0]["w_v"][0][0])
        self.kinds = [layer.get("kind", "attention") for layer in layers]
        self.arch = config.get("arch", "attention")
        # Layer 1 reads x_i = E[t_i] + P_i, so x_i · W = E[t_i] · W + P_i · W: each head's q, k, v
        # there are two rows added, from tables made once a checkpoint (vocab × d_head and
        # n_ctx × d_head a head and matrix): the same numbers, a fifth of the pass's work saved.
        self.positions = positions(self.n_ctx, self.d_model)  # P, n_ctx × d_model
        self.first = {name: [(matmul(embed, w), matmul(self.positions, w)) for w in layers[0][name]]
                      for name in ("w_q", "w_k", "w_v")} if self.kinds[0] != "block" else None

    @classmethod
    def from_json(cls, config, checkpoint):
        layers = [{name: tensor(layer[name]) if name != "kind" else layer[name]
                   for name in ("kind", *WEIGHTS) if name in layer}
                  for layer in checkpoint["layers"]]
        ln_f = (tensor(checkpoint["ln_f"]["g"]), tensor(checkpoint["ln_f"]["b"])) if "ln_f" in checkpoint else None
        return cls(config, checkpoint["step"], tensor(checkpoint["embed"]), tensor(checkpoint["unembed"]), layers,
                   ln_f)

    def ids(self, tokens):
        return [self.vocab.index(t) for t in tokens]

    def run(self, ids, window=None):
        """Every intermediate of the forward pass on token ids (the start token first), each
        position seeing itself and all those before it, or only the `window` before it (Mistral's
        sliding window: the weights outside it are 0):
        {"embedded": n × d, "q", "k", "v": [layer][head] n × d_head, "attention": [layer][head]
        n × n, "z": [layer][head] n × d_head (A · v), "residual": [layer] n × d (after it),
        "logits": n × 26, "probs": n × 26}. A selective layer's "attention" is its mixing matrix
        (`selective_scores`: signed, a row need not sum to 1; the window does not apply to it), and
        "delta" [layer][head] holds its Δ_t (None for an attention layer). "stages": the residual
        stream after the embedding and after each layer (a block's: after its attention and after its
        FFN); "hidden" [layer] n × d_ff: a block's FFN units after GELU."""
        n = len(ids)
        starts = [first_key(i, window) for i in range(n)]
        x = [[e + p for e, p in zip(self.embed[t], row)] for t, row in zip(ids, self.positions)]
        out = {"embedded": x, "q": [], "k": [], "v": [], "attention": [], "z": [], "residual": [], "delta": [],
               "hidden": [], "stages": [x]}
        for number, layer in enumerate(self.layers):
            selective = layer.get("kind") == "selective"
            block = layer.get("kind") == "block"
            heads = {"q": [], "k": [], "v": [], "attention": [], "z": []}
            columns = layer["columns"]
            if block:  # (pre-norm: the heads read LN₁(x); the stream itself stays x)
                normed = [layer_norm(row, layer["ln1_g"], layer["ln1_b"]) for row in x]
                q_all, k_all, v_all = ([times(normed, w) for w in columns[name]] for name in ("w_q", "w_k", "w_v"))
            elif number == 0:  # (from the tables: E[t_i] · W + P_i · W)
                q_all, k_all, v_all = ([[[a + b for a, b in zip(by_token[t], by_position[i])] for i, t in enumerate(ids)]
                                        for by_token, by_position in self.first[name]] for name in ("w_q", "w_k", "w_v"))
            else:
                q_all, k_all, v_all = ([times(x, w) for w in columns[name]] for name in ("w_q", "w_k", "w_v"))
            deltas = []
            for h, q in enumerate(q_all):  # n × d_head each; k, v those of the head's key/value head
                k, v = k_all[h // self.group], v_all[h // self.group]
                scale = math.sqrt(len(q[0]))  # √d_head, or √N for a selective head
                if selective:  # Δ_t = softplus(x_t·w_Δ + b_Δ), a_t = exp(−A·Δ_t)
                    delta = [softplus(dot(row, layer["w_delta"][h]) + layer["b_delta"][h]) for row in x]
                    a = selective_scores(q, k, delta, [math.exp(-layer["a"][h] * d) for d in delta], scale)
                    deltas.append(delta)
                    z = matmul(a, v)  # n × d_head: each position's mix of the values
                else:  # (each row's weights over the keys it sees, start..i; 0 elsewhere: causal)
                    seen = [softmax([dot(q_i, k_j) / scale for k_j in k[start:i + 1]])
                            for i, q_i, start in zip(range(n), q, starts)]
                    a = [[0.0] * start + row + [0.0] * (n - 1 - i) for i, row, start in zip(range(n), seen, starts)]
                    v_columns = list(zip(*v))  # z_i = Σ_j a_ij v_j over the keys row i sees, n × d_head
                    z = [[dot(row, column[start:i + 1]) for column in v_columns]
                         for i, row, start in zip(range(n), seen, starts)]
                for name, value in (("q", q), ("k", k), ("v", v), ("attention", a), ("z", z)):
                    heads[name].append(value)
            concat = [sum(rows, []) for rows in zip(*heads["z"])]  # n × (heads · d_head)
            added = times(concat, columns["w_o"])  # Σ_h z_h · W_O[h] = Concat(z) · W_O, n × d_model
            x = [[s + o for s, o in zip(row, new)] for row, new in zip(x, added)]  # the residual stream
            for name, value in heads.items():
                out[name].append(value)
            out["delta"].append(deltas if selective else None)
            if block:  # x += GELU(LN₂(x)·W₁ + b₁)·W₂ + b₂: the FFN, d_ff units a position
                out["stages"].append(x)
                hidden = [[gelu(h + b) for h, b in zip(row, layer["b_1"])]
                          for row in times([layer_norm(r, layer["ln2_g"], layer["ln2_b"]) for r in x], columns["w_1"])]
                out["hidden"].append(hidden)
                x = [[s + o + b for s, o, b in zip(row, new, layer["b_2"])]
                     for row, new in zip(x, times(hidden, columns["w_2"]))]
            out["residual"].append(x)
            out["stages"].append(x)
        if self.ln_f is not None:  # (the block model: a last LayerNorm before W_U)
            x = [layer_norm(row, *self.ln_f) for row in x]
        out["logits"] = times(x, self.unembed_columns)
        out["probs"] = [softmax(row) for row in out["logits"]]
        return out


# -- what the page shows --------------------------------------------------------------------

class Record:
    """One forward pass on the typed letters, with what the page says of it: the tokens (the
    start token first), the checkpoint's step, every intermediate (`run`), the predicted next
    letter and the TOP most likely at each position, the named heads, and what was `skipped`
    or `cut` of the text, and the `window` (None: none). `n_q` = `n_k` = the number of tokens
    (positions)."""

    def __init__(self, model, tokens, skipped=(), cut=0, window=None):
        self.model, self.tokens, self.skipped, self.cut = model, tokens, list(skipped), cut
        self.window = window
        self.step = model.step
        self.n_q = self.n_k = len(tokens)
        began = time.perf_counter()
        run = self.run = model.run(model.ids(tokens), window)
        self.ms = (time.perf_counter() - began) * 1000  # the forward pass's time (`make bench`)
        self.attention = run["attention"]
        self.probs = run["probs"]
        outputs = model.outputs
        self.top = [sorted(zip(outputs, p), key=lambda pair: -pair[1])[:TOP] for p in self.probs]
        self.next = [top[0][0] for top in self.top]
        heads = config(model.variant)["heads"]  # (an `arch` model's selective layer names none: None)
        self.previous_head, self.induction_head = (None if heads[name] is None else tuple(heads[name])
                                                   for name in ("previous_token", "induction"))

    # -- the whole block (`arch` = block; docs/DESIGN.md, "The whole Transformer") --------------

    def stage_names(self):
        """The residual stream's stages in order: "embed", then "attn1", "ffn1", "attn2", "ffn2"."""
        return ["embed"] + [f"{part}{l + 1}" for l in range(len(self.model.layers)) for part in ("attn", "ffn")]

    def block_fields(self, i):
        """What the block's views read at position i: {"stages": [{"name", "x"}], "lens": for each
        stage the TOP letters read through the final LayerNorm and W_U, [letter, probability] each,
        "ln": {"mean", "var", "normed"} at layer 1's LN₁, "ffn": each layer's TOP_UNITS units that
        fire most, {"layer", "unit", "activation", "promotes": the TOP letters its output W₂[unit]
        pushes up through W_U}}. None for a model without blocks."""
        m = self.model
        if m.ln_f is None:
            return None
        stages = [{"name": name, "x": list(x[i])} for name, x in zip(self.stage_names(), self.run["stages"])]
        lens = []
        for stage in stages:
            probs = softmax(matmul([layer_norm(stage["x"], *m.ln_f)], m.unembed)[0])
            lens.append([[m.outputs[c], probs[c]] for c in sorted(range(len(probs)), key=lambda c: -probs[c])[:TOP]])
        u = self.run["stages"][0][i]
        mean, var = moments(u)
        normed = [(x - mean) / math.sqrt(var + EPS) for x in u]
        ffn = []
        for l, layer in enumerate(m.layers):
            hidden = self.run["hidden"][l][i]
            for unit in sorted(range(len(hidden)), key=lambda c: -hidden[c])[:TOP_UNITS]:
                pushed = matmul([layer["w_2"][unit]], m.unembed)[0]
                ffn.append({"layer": l, "unit": unit, "activation": hidden[unit],
                            "promotes": [m.outputs[c] for c in sorted(range(len(pushed)), key=lambda c: -pushed[c])[:TOP]]})
        return {"stages": stages, "lens": lens, "ln": {"mean": mean, "var": var, "normed": normed}, "ffn": ffn}

    def start(self, i):
        """The first position row i sees (`first_key`)."""
        return first_key(i, self.window)

    def earlier(self, i):
        """The last position before i holding the same letter, or None (the start token has none)."""
        if i == 0:
            return None
        return next((j for j in range(i - 1, 0, -1) if self.tokens[j] == self.tokens[i]), None)

    def circuit(self, i):
        """What the induction circuit reads at position i: (earlier, after, weight) — the earlier
        occurrence of its letter, the position after it, and the induction head's weight from i
        on that position; None when the letter has not occurred before (or nothing follows it)."""
        j = self.earlier(i)
        if j is None or self.induction_head is None:
            return None
        layer, head = self.induction_head
        return j, j + 1, self.attention[layer][head][i][j + 1]


@functools.lru_cache(maxsize=4)  # a position clicked reads the pass there is (the window's view: both passes)
def compute(text, step, window=None, kv=None):
    """The Record for what the student typed at checkpoint `step` (None: the last), up to the
    n_ctx − 1 letters the model reads after its start token, under the sliding `window` (None:
    none), of the variant `kv` names (`variant`: key/value heads, or an `arch`; None: the page's
    model). Raises Unavailable when the model's files cannot be read."""
    model = checkpoint(nearest_step(step, kv), kv)
    kept, skipped, cut = letters(text, model.n_ctx - 1)
    return Record(model, [START] + kept, skipped, cut, window)
