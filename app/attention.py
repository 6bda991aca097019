"""Scaled dot-product attention for every query row, with every intermediate kept.

The whole formula of the page lives here (shapes in brackets; n_q query rows, n_k key
rows, d the width of a card, d_k of a query/key, d_v of a value):

    Q        = X_q · W_Q                    # [n_q, d_k]  each word's card turned into a question
    K        = X_k · W_K                    # [n_k, d_k]  W_K = identity: the keys are the cards
    V        = X_k · W_V                    # [n_k, d_v]  W_V = identity: the values are the cards
    dot_ij   = q_i · k_j                    # [n_q, n_k]  QKᵀ
    divisor  = (√d_k if scaled else 1) × T  # T: temperature
    logit_ij = dot_ij / divisor − m·|i − j| # m: distance-bias slope (0 = off), candidates only
    w_ij     = softmax over the candidates of row i (0 for the others)
    out_i    = Σ_j w_ij · v_j               # [n_q, d_v]  the word's new, context-mixed card

Candidates of row i: every key j that is not masked (causal mask: j > i) and is not the
word itself (j = i) unless `include_self`. With n_q ≠ n_k (cross-attention) there is no
diagonal and no mask: every key is a candidate.

This module imports only `math`, so it runs unchanged in CPython and in the browser.
`attend` returns one `Attention` record for the whole matrix; a word click only reads a
row of it (`record.row(i)`). The views, the CSV and the state JSON read this record and
never recompute anything. It is written to be read beside the course; the page computes
the same numbers, bit for bit, with `app/attention_fast.py` (less work per cell, for long
texts on phones), and the tests hold the two equal.
"""

import math

# The four numbers of a card, in order. The fourth is a *function word*: a little word
# that points to another one (article, pronoun, preposition, conjunction); the page calls
# it «rimando» in Italian and "pointer" in English (app/i18n.py). The contract keys stay
# these English names whatever the page's language.
FEATURES = ("alive", "action", "thing", "function")
D_MODEL = len(FEATURES)  # width of a card: 4
D_K = D_MODEL  # the designed heads keep d_k = 4 (the lexicon checks cards against it)
EXP_CAP = 709.0  # e^709 is about the largest float: e^logit is shown capped there
TINY = 1e-290  # below this a shifted exponential has lost digits (subnormals start at 2.2e-308)

# W_Q: the "question" matrix. Row i says what a word that has feature i looks for in
# the other words (columns: alive, action, thing, function). q = x · W_Q, so a card
# that is a mix of features asks a mix of the rows' questions. The last column is all
# zeros: no word of this toy looks for function words.
W_Q = (
    # alive action thing function    (what the query asks for)
    (0.0, 3.0, 0.5, 0.0),  # alive: a living being looks for its action (what it does)
    (3.0, 0.0, 2.0, 0.0),  # action: a verb looks for who does it, then what it is done to
    (1.0, 2.0, 0.0, 0.0),  # thing: an object looks for the action on it, and its owner
    (2.0, 0.0, 2.0, 0.0),  # function: a little word looks for the noun it points to
)
IDENTITY = tuple(tuple(1.0 if i == j else 0.0 for j in range(D_MODEL)) for i in range(D_MODEL))
W_K = IDENTITY  # keys are the cards themselves
W_V = IDENTITY  # values are the cards themselves

# A query "asks for" every feature whose component is at least this share of its largest.
ASKS_FOR_SHARE = 0.5
# A query whose largest component is below this is "weak": its bars are nearly flat.
WEAK_QUERY = 1.0


def matmul(a, b):
    """[n, d] · [d, e] -> [n, e] (lists of rows)."""
    cols = list(zip(*b))
    return [[sum(x * y for x, y in zip(row, col)) for col in cols] for row in a]


def is_identity(m):
    return all(len(row) == len(m) and all(v == (1.0 if i == j else 0.0) for j, v in enumerate(row))
               for i, row in enumerate(m))


def project(x, w):
    """x · W, skipping the work when W is the identity (the default keys and values)."""
    return [list(map(float, row)) for row in x] if is_identity(w) else matmul(x, w)


def asks_for(query, share=ASKS_FOR_SHARE):
    """Indices of the features the query looks for, largest first.

    A feature counts when its component is positive and at least `share` of the
    largest component; an all-zero query asks for nothing (empty list).
    """
    top = max(query)
    if top <= 0:
        return []
    picked = [j for j, v in enumerate(query) if v > 0 and v >= share * top]
    return sorted(picked, key=lambda j: (-query[j], j))


def divisor_for(d_k, scaled=True, temperature=1.0):
    """(√d_k if scaled else 1) × T: what every dot product is divided by."""
    return (math.sqrt(d_k) if scaled else 1.0) * temperature


class Row:
    """One query row of the record: what the bars, the steps table and the output show.

    Lists have one entry per key (length n_k); `None` marks a value that does not exist
    (a masked word has no dot or logit, a non-candidate no exponential).
    """

    __slots__ = ("record", "focus", "query", "candidates", "masked", "dots", "logits", "exps",
                 "exp_sum", "weights", "output")

    def __init__(self, record, i):
        self.record, self.focus = record, i
        self.query = record.queries[i]
        self.candidates, self.masked = record.candidates[i], record.masked[i]
        self.dots, self.logits, self.exps = record.dots[i], record.logits[i], record.exps[i]
        self.exp_sum, self.weights = record.exp_sums[i], record.weights[i]
        self.output = record.outputs[i]

    @property
    def n(self):
        return len(self.weights)

    @property
    def asks_for(self):
        return asks_for(self.query)

    @property
    def has_candidates(self):
        return any(self.candidates)

    @property
    def candidate_count(self):
        return sum(self.candidates)

    @property
    def weak(self):
        """The question is too faint to prefer anyone much: largest component < 1."""
        return max(self.query) < WEAK_QUERY

    def status(self, j):
        """'candidate', 'query' (the asking word itself, not included), 'masked', or 'skipped' (a
        key the cost lab's pattern leaves out)."""
        if self.candidates[j]:
            return "candidate"
        if self.masked[j]:
            return "masked"
        pattern = self.record.pattern
        return "skipped" if pattern is not None and not pattern[self.focus][j] else "query"


class Attention:
    """Every step of softmax(QKᵀ / divisor) · V for all query rows at once.

    Matrices are lists of rows: queries [n_q, d_k], keys [n_k, d_k], values [n_k, d_v],
    candidates/masked/dots/logits/exps/weights [n_q, n_k], exp_sums [n_q], outputs
    [n_q, d_v] with `None` for a row that has no candidate.
    """

    __slots__ = ("w_q", "w_k", "w_v", "mask", "include_self", "scaled", "temperature", "slope",
                 "d_k", "divisor", "queries", "keys", "values", "candidates", "masked", "dots",
                 "logits", "exps", "exp_sums", "weights", "outputs",
                 # filled by app/contract.py when several heads run (app/heads.py): every
                 # head's record in order, their outputs side by side and projected by W_O
                 "head_records", "concat", "multihead_output",
                 # and the second layer's record, whose input cards are this layer's output
                 "layer2",
                 # how word order entered (a `Position`, None: not at all), app/attention.py
                 "position",
                 # the cost lab's pattern: its cells [n_q][n_k] (None: every key), and its name
                 "pattern", "cost",
                 # what the labs' views read beside the record, by name (app/contract.py `compute`,
                 # app/views/registry.py `add_record_part`: FlashAttention's blocks, the shared keys)
                 "parts")

    def __init__(self, **fields):
        for name in self.__slots__:
            setattr(self, name, fields.get(name))

    @property
    def n_q(self):
        return len(self.queries)

    @property
    def n_k(self):
        return len(self.keys)

    @property
    def square(self):
        """Self-attention: one row and one column per word (a diagonal, a possible mask)."""
        return self.n_q == self.n_k

    @property
    def computed_cells(self):
        """How many cells are computed: every row's candidates (the state's cost.cells). Reads the
        candidates alone, no row's numbers (app/attention_fast.py computes those apart)."""
        return sum(row.count(True) for row in self.candidates)  # (each a list of True and False)

    def row(self, i):
        if not 0 <= i < self.n_q:
            raise ValueError(f"row {i} is outside the matrix (0..{self.n_q - 1})")
        return Row(self, i)


def candidate_flags(i, n_k, square, mask, include_self, allowed=None):
    """([candidate], [masked]) for query row i: who row i may look at, who the mask hides.
    `allowed`: the pattern's [n_q][n_k] (app/attention.py, `pattern_cells`): a key it leaves out
    is no candidate either (None: every key)."""
    if not square:
        candidates, masked = [True] * n_k, [False] * n_k
    else:
        after = n_k - i - 1  # the keys after word i: hidden by the mask
        masked = [False] * (i + 1) + [bool(mask)] * after
        candidates = [True] * i + [bool(include_self)] + [not mask] * after
    if allowed is not None:
        candidates = [c and a for c, a in zip(candidates, allowed[i])]
    return candidates, masked


ROW_FIELDS = ("candidates", "masked", "dots", "logits", "exps", "exp_sums", "weights", "outputs")  # a row's, in order


def matrix_record(rows, queries, keys, values, mask, include_self, scaled, temperature, slope, d_k, divisor):
    """The `Attention` record of the rows (each: candidates, masked, dots, logits, exps,
    exp_sum, weights, output) of Q [n_q, d_k], K [n_k, d_k], V [n_k, d_v] and their settings."""
    table = {name: [row[k] for row in rows] for k, name in enumerate(ROW_FIELDS)}
    return Attention(w_q=None, w_k=None, w_v=None, mask=bool(mask), include_self=bool(include_self),
                     scaled=bool(scaled), temperature=float(temperature), slope=float(slope), d_k=d_k,
                     divisor=divisor, queries=queries, keys=keys, values=values, **table)


def softmax_row(logits, candidates):
    """(exps, exp_sum, weights) of one row, over its candidates [n_k]: e^logit as shown
    (None for a non-candidate), their sum, and the weights (exactly 0 for a non-candidate).

    The weights are the stable softmax: e^(logit − top) / Σ e^(logit − top), top the largest
    logit, so nothing overflows. The e^logit shown is e^top · e^(logit − top), capped at
    e^EXP_CAP; where the shifted exponential is so small that it has lost digits (below TINY),
    e^logit is computed on its own.
    """
    n = len(logits)
    picked = [j for j in range(n) if candidates[j]]
    if not picked:
        return [None] * n, 0.0, [0.0] * n
    top = max(logits[j] for j in picked)
    shifted = {j: math.exp(logits[j] - top) for j in picked}  # e^(logit − top) ≤ 1
    total = sum(shifted[j] for j in picked)
    scale = math.exp(top) if top <= EXP_CAP else None  # e^top, unless it overflows

    def shown(j):
        if scale is not None and shifted[j] > TINY:
            return shifted[j] * scale
        return math.exp(min(logits[j], EXP_CAP))

    exps = [shown(j) if candidates[j] else None for j in range(n)]
    weights = [shifted[j] / total if candidates[j] else 0.0 for j in range(n)]
    return exps, sum(exps[j] for j in picked), weights


# Σ_j w_j · v_j of an output, exact to about the last bit whatever the order of the terms:
# math.sumprod where there is one (Python ≥ 3.12, as in the browser), else math.fsum.
exact_sum_of_products = getattr(math, "sumprod", None) or (lambda p, q: math.fsum(x * y for x, y in zip(p, q)))


def attend(cards, mask=False, include_self=False, w_q=W_Q, w_k=W_K, w_v=W_V, scaled=True,
           temperature=1.0, slope=0.0, key_cards=None, qkv=None, position=None):
    """The whole attention matrix for `cards` (self-attention), or for `cards` asking
    `key_cards` (cross-attention, n_q may differ from n_k), with every intermediate.

    Q = cards · W_Q, K = key_cards · W_K, V = key_cards · W_V; then `attend_qkv` (or `qkv`,
    a function of the same arguments: the page passes app/attention_fast.py's).
    `position`: a `Position` (how word order enters; None or kind "none": it does not).
    """
    key_cards = cards if key_cards is None else key_cards
    for name, rows, w in (("card", cards, w_q), ("key card", key_cards, w_k)):
        for j, card in enumerate(rows):
            if len(card) != len(w):
                raise ValueError(f"{name} {j} has {len(card)} numbers, expected {len(w)}")
    kind = "none" if position is None else position.kind
    if kind == "sinusoidal":  # x_i + PE(p_i), before W_Q, W_K and W_V
        position.cards = [list(map(float, c)) for c in cards]
        position.encoding = sinusoidal_encoding(max(len(cards), len(key_cards)), len(w_q), position.offset,
                                                position.base)
        cards, key_cards = add_rows(cards, position.encoding), add_rows(key_cards, position.encoding)
    queries, keys = project(cards, w_q), project(key_cards, w_k)
    if kind == "rope":
        queries, keys = position.rotate(queries, keys)
    record = (qkv or attend_qkv)(queries, keys, project(key_cards, w_v),
                                 mask, include_self, scaled, temperature, slope)
    record.w_q, record.w_k, record.w_v = ([list(map(float, r)) for r in w] for w in (w_q, w_k, w_v))
    record.position = position.used(slope) if position is not None else None
    return record


def attend_given(queries, keys, values, position=None, qkv=None, **options):
    """Matrix mode: Q, K, V typed in (no cards, no W: as if every W were the identity).
    sinusoidal adds PE(p_i) to each row of Q, K and V (each at its own width); rope rotates
    Q and K. The other arguments are `attend_qkv`'s."""
    kind = "none" if position is None else position.kind
    if kind == "sinusoidal":
        n = max(len(queries), len(keys))
        position.cards = [list(map(float, q)) for q in queries]
        position.encoding = sinusoidal_encoding(n, len(queries[0]), position.offset, position.base)
        values = add_rows(values, sinusoidal_encoding(n, len(values[0]), position.offset, position.base))
        queries, keys = add_rows(queries, position.encoding), add_rows(keys, position.encoding)
    elif kind == "rope":
        queries, keys = position.rotate(queries, keys)
    record = (qkv or attend_qkv)(queries, keys, values, **options)
    record.position = position.used(options.get("slope", 0.0)) if position is not None else None
    return record


# Word order (docs/DESIGN.md, "Position"). Attention alone does not see order: shuffle the
# words and each word's weights move with it. Word i sits at position p_i = offset + i.
def elu_plus_one(x):
    """φ(x) = elu(x) + 1, linear attention's feature map (Katharopoulos et al. 2020): > 0 always."""
    return x + 1.0 if x > 0 else math.exp(x)


def linearize(record):
    """Linear attention on a record made with every list in place (attend_qkv's): each row's
    weights become φ(q_i)·φ(k_j) / Σ over its candidates (no divisor, no softmax), its e^logit
    column the kernel φ(q_i)·φ(k_j) and its sum their total, its output Σ w·v. Its logits stay
    the q·k / divisor softmax would use."""
    phi_k = [[elu_plus_one(x) for x in k] for k in record.keys]
    for i, q in enumerate(record.queries):
        phi_q = [elu_plus_one(x) for x in q]
        candidates = record.candidates[i]
        kernel = [sum(a * b for a, b in zip(phi_q, phi_k[j])) if candidates[j] else None
                  for j in range(len(phi_k))]
        total = math.fsum(x for x in kernel if x is not None)
        weights = [x / total if x is not None else 0.0 for x in kernel]
        record.exps[i], record.exp_sums[i], record.weights[i] = kernel, total, weights
        record.outputs[i] = (None if not any(candidates) else
                             [exact_sum_of_products(weights, [v[c] for v in record.values])
                              for c in range(len(record.values[0]))])
    return record


POSITION_KINDS = ("none", "sinusoidal", "rope", "alibi")
PAIRINGS = ("interleaved", "half")  # RoPE's pairs: (0,1),(2,3) (Meta's) or (0,2),(1,3) (rotate_half)
# The frequency base of sinusoidal and RoPE. With d = 4 there are two pairs, turning by θ_0 = 1
# and θ_1 = base^(−1/2) radians a word. The papers' 10,000 turns the second pair 0.01 rad a word:
# over a six-word sentence it stands still. 10 turns it 0.32 rad (18°) a word, about a right
# angle over six words, while the first turns 57° a word: both move, at visibly different speeds.
DEFAULT_BASE = 10.0


def add_rows(rows, encoding):
    """rows[i] + encoding[i], element by element [n, d]."""
    return [[float(x) + e for x, e in zip(row, pe)] for row, pe in zip(rows, encoding)]


def sinusoidal_encoding(n, d, offset=0, base=DEFAULT_BASE):
    """The PE rows of positions offset … offset + n − 1 [n, d], the paper's interleaved layout:
    PE(p, 2t) = sin(p / base^(2t/d)), PE(p, 2t + 1) = cos(p / base^(2t/d))."""
    rows = []
    for i in range(n):
        p = offset + i
        rows.append([math.sin(p / base ** (2 * (c // 2) / d)) if c % 2 == 0 else math.cos(p / base ** (2 * (c // 2) / d))
                     for c in range(d)])
    return rows


def rope_angles(n, d, offset=0, base=DEFAULT_BASE):
    """p·θ_t for positions offset … offset + n − 1 and each pair t [n, d // 2], θ_t = base^(−2t/d)."""
    return [[(offset + i) * base ** (-2 * t / d) for t in range(d // 2)] for i in range(n)]


def rope_pairs(d, pairs="interleaved"):
    """The dimensions RoPE turns together, pair t first: interleaved (2t, 2t + 1), half (t, t + d/2).
    With an odd d the last dimension is not turned."""
    h = d // 2
    return [(2 * t, 2 * t + 1) for t in range(h)] if pairs == "interleaved" else [(t, t + h) for t in range(h)]


def rotate(vectors, angles, pairs="interleaved"):
    """Each vector's pairs (a, b) turned by its row's angles: (a cos − b sin, a sin + b cos)."""
    out = []
    for v, row in zip(vectors, angles):
        turned = [float(x) for x in v]
        for (a, b), angle in zip(rope_pairs(len(v), pairs), row):
            c, s = math.cos(angle), math.sin(angle)
            turned[a], turned[b] = v[a] * c - v[b] * s, v[a] * s + v[b] * c
        out.append(turned)
    return out


def alibi_slopes(heads):
    """ALiBi's slopes for `heads` heads (Press et al. 2022, the paper's get_slopes): 2^(−8h/H) for
    h = 1…H when H is a power of two; otherwise those of the power of two below, then every other
    one of the next power's (6 heads: 1/4, 1/16, 1/64, 1/256, 1/2, 1/8)."""
    if heads & (heads - 1) == 0:
        return [2.0 ** (-8 * h / heads) for h in range(1, heads + 1)]
    below = 1 << (heads.bit_length() - 1)
    return alibi_slopes(below) + alibi_slopes(2 * below)[0::2][:heads - below]


class Position:
    """How word order enters one attention: `kind` (POSITION_KINDS), `offset`, `base`, RoPE's
    `pairs`; once used, what it did: `encoding` (the PE rows added), `angles` (p·θ_t), `cards`
    (the cards before the PE), `queries`/`keys` (before RoPE's turn), `slope` (ALiBi's m)."""

    __slots__ = ("kind", "offset", "base", "pairs", "slope", "encoding", "angles", "cards", "queries", "keys",
                 "hand", "key")  # hand: the `pos` setting (the active head's slope set by hand, 0:
    # none); key: the key the RoPE view turns beside the query (`rope_key`; None: the most attended)

    def __init__(self, kind="none", offset=0, base=DEFAULT_BASE, pairs="interleaved"):
        if kind not in POSITION_KINDS:
            raise ValueError(f"position must be one of {', '.join(POSITION_KINDS)}, not {kind!r}")
        if not base > 1:
            raise ValueError(f"the base must be more than 1, not {base}")
        self.kind, self.offset, self.base, self.pairs = kind, int(offset), float(base), pairs
        self.slope = self.encoding = self.angles = self.cards = self.queries = self.keys = None
        self.hand, self.key = 0.0, None

    def rotate(self, queries, keys):
        """RoPE: q_i and k_j turned by their positions' angles (not v)."""
        self.queries, self.keys = [list(map(float, q)) for q in queries], [list(map(float, k)) for k in keys]
        d = len(queries[0]) if queries else len(keys[0]) if keys else 0
        self.angles = rope_angles(max(len(queries), len(keys)), d, self.offset, self.base)
        return rotate(queries, self.angles, self.pairs), rotate(keys, self.angles, self.pairs)

    def used(self, slope):
        """A copy with what this attention did (one Position may serve several heads)."""
        done = Position(self.kind, self.offset, self.base, self.pairs)
        for name in ("encoding", "angles", "cards", "queries", "keys"):
            setattr(done, name, getattr(self, name))
        done.slope = float(slope) if self.kind == "alibi" else None
        return done

    def field(self):
        """The state JSON's `position` (docs/DESIGN.md)."""
        return {"kind": self.kind, "offset": self.offset, "base": self.base,
                "pairs": self.pairs if self.kind == "rope" else None, "slope": self.slope,
                "encoding": self.encoding, "angles": self.angles}


def attend_qkv(queries, keys, values, mask=False, include_self=False, scaled=True, temperature=1.0,
               slope=0.0, allowed=None):
    """softmax(QKᵀ / divisor − m·|i − j|) · V for Q [n_q, d_k], K [n_k, d_k], V [n_k, d_v].

    mask: causal mask (row i does not see keys after i; weight exactly 0).
    include_self: row i may look at key i (what a real model does).
    scaled/temperature: divide by (√d_k if scaled else 1) × temperature.
    slope: m ≥ 0 of the distance bias −m·|i − j| added to candidates' logits.
    With n_q ≠ n_k there is no diagonal and no mask: every key is a candidate.
    allowed: a pattern's cells [n_q][n_k] (`pattern_cells`): the softmax is over those left.
    """
    if not temperature > 0:
        raise ValueError(f"temperature must be positive, not {temperature}")
    if len(keys) != len(values):
        raise ValueError(f"{len(keys)} keys but {len(values)} values")
    Q = [[float(x) for x in row] for row in queries]  # [n_q, d_k]
    K = [[float(x) for x in row] for row in keys]  # [n_k, d_k]
    V = [[float(x) for x in row] for row in values]  # [n_k, d_v]
    n_q, n_k = len(Q), len(K)
    d_k = len(K[0]) if K else (len(Q[0]) if Q else 0)
    d_v = len(V[0]) if V else 0
    square = n_q == n_k  # self-attention: a diagonal, and a mask is possible
    divisor = divisor_for(d_k, scaled, temperature)

    rows = []  # a row's (candidates, masked, dots, logits, exps, exp_sum, weights, output)
    for i, q in enumerate(Q):
        candidates, masked = candidate_flags(i, n_k, square, mask, include_self, allowed)  # [n_k], [n_k]
        dots = [None if masked[j] else sum(q_c * k_c for q_c, k_c in zip(q, K[j]))
                for j in range(n_k)]  # row i of QKᵀ [n_k]
        logits = [None if masked[j] else dots[j] / divisor - (slope * abs(i - j) if slope and candidates[j] else 0.0)
                  for j in range(n_k)]  # [n_k]
        exps, exp_sum, weights = softmax_row(logits, candidates)  # [n_k], a number, [n_k]
        output = None
        if any(candidates):  # Σ_j w_ij · v_j  [d_v] (non-candidates weigh exactly 0)
            output = [exact_sum_of_products(weights, [V[j][c] for j in range(n_k)]) for c in range(d_v)]
        rows.append((candidates, masked, dots, logits, exps, exp_sum, weights, output))

    record = matrix_record(rows, Q, K, V, mask and square, include_self, scaled, temperature, slope, d_k, divisor)
    record.pattern = allowed
    return record
