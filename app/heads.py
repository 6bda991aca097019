"""Several designed heads and the multi-head output (imports only `math` via app.attention).

A head is a named set of `W_Q, W_K, W_V` (4×4 each). Each looks for one kind of relation,
so on the same sentence the same word looks at different words under different heads.
Their names and one-line descriptions are in app/i18n.py (`head_<id>`, `head_<id>_about`).
The keys and values of every designed head are the cards (W_K = W_V = identity): only the
question changes from head to head, which is what a student can read off W_Q.

Shared keys (`kv_heads` = g, docs/DESIGN.md): query head h keeps its own W_Q but makes its keys
and values with the W_K, W_V of its group's first head (`kv_source`), so a cache keeps g keys and
values a token instead of one a head. Since every designed head's W_K and W_V are the identity,
sharing changes no designed head's numbers: only an edited W_K or W_V of a group's first head
reaches the other heads of its group (and the edits of any other head are not used).

Multi-head output (shapes for n words, h heads, d = 4):

    out_h  = softmax(Q_h K_hᵀ / divisor) · V_h      # [n, 4] per head
    concat = [out_1 | out_2 | … | out_h]             # [n, 4·h]
    multi  = concat · W_O                            # [n, 4]

`W_O` is designed here as the average of the heads: h identity blocks stacked and
divided by h. In a real model W_Q, W_K, W_V and W_O are all learned, not designed.
A row with no candidate has no output: its block of the concatenation is zeros (a real
model always has the word itself to look at), and the page says so.
"""

from app import attention

I4 = attention.IDENTITY


class Head:
    """A designed head: its id (used for strings and the contract) and its matrices."""

    __slots__ = ("id", "w_q", "w_k", "w_v")

    def __init__(self, id, w_q, w_k=I4, w_v=I4):
        self.id, self.w_q, self.w_k, self.w_v = id, w_q, w_k, w_v


HEADS = (
    # Who does what (the first lesson's W_Q): a verb looks for who does it, a living
    # being for its action, a thing for the action on it, a little word for its noun.
    Head("who-does-what", attention.W_Q),
    # Pointers: a little word (article, preposition, pronoun) looks for nouns, a noun
    # looks for the little word that points to it; verbs ask nothing here.
    Head("pointers", (
        # alive action thing function
        (0.0, 0.0, 0.0, 3.0),  # alive: a noun looks for its little word
        (0.0, 0.0, 0.0, 0.0),  # action: a verb asks nothing in this head
        (0.0, 0.0, 0.0, 3.0),  # thing: a noun looks for its little word
        (3.0, 0.0, 3.0, 0.0),  # function: a little word looks for nouns
    )),
    # What and where: a verb looks for the thing it acts on (or the place), a living
    # being for the things around it, a thing for what is done to it.
    Head("what-and-where", (
        (0.0, 0.0, 2.0, 0.0),  # alive: a living being looks for things
        (0.0, 0.0, 3.0, 0.0),  # action: a verb looks for its object or place
        (0.0, 3.0, 0.0, 0.0),  # thing: a thing looks for what is done to it
        (0.0, 0.0, 0.0, 0.0),  # function: a little word asks nothing here
    )),
    # Like with like: every word looks for words of its own kind (verbs for verbs,
    # nouns for nouns): W_Q = 3·I.
    Head("like-with-like", tuple(tuple(3.0 * v for v in row) for row in I4)),
)


def designed(head):
    """(w_q, w_k, w_v) of head number `head` as lists of lists."""
    h = HEADS[head]
    return tuple([list(r) for r in w] for w in (h.w_q, h.w_k, h.w_v))


def kv_source(h, kv_heads, count=len(HEADS)):
    """The head whose W_K and W_V query head h uses when the `count` heads share `kv_heads` key/value
    heads (docs/DESIGN.md, "Shared keys"): the first head of its group h // (count / kv_heads),
    PyTorch's `enable_gqa` convention (key/value head g serves query heads g·size … g·size + size − 1).
    kv_heads = count: every head its own (multi-head); 1: all share the first's (multi-query)."""
    size = count // kv_heads
    return h // size * size


def cache_per_token(kv_heads, d_head=attention.D_MODEL):
    """The numbers a KV cache keeps for one token and layer: a key and a value of each key/value head."""
    return 2 * kv_heads * d_head


# Keys without the pointer feature: what the shared-keys view offers as the first head's own W_K
# (app/labs/generation/shared_keys.py). "Who does what" hardly asks for little words, so its own bars barely
# move; the heads that share its keys lose what "pointers" looks for.
NO_POINTER_KEYS = ((1.0, 0.0, 0.0, 0.0), (0.0, 1.0, 0.0, 0.0), (0.0, 0.0, 1.0, 0.0), (0.0, 0.0, 0.0, 0.0))

# Latent attention (DeepSeek-V2's multi-head latent attention, made by hand for the cards): each
# token keeps one latent c = x · W_DKV of LATENT numbers, "a noun" ((alive + thing)/√2), "an
# action" and "a pointer", and every head rebuilds its keys and values from it with its own
# up-projections W_UK_h = W_DKVᵀ · W_K_h, W_UV_h = W_DKVᵀ · W_V_h (in DeepSeek-V2, all learned):
#     K_h = c · W_UK_h = (x · W_DKV · W_DKVᵀ) · W_K_h,   the card rebuilt, then the head's W_K.
# The rebuilt card cannot tell a living being from a thing: both read (alive + thing)/2.
_R = 0.5 ** 0.5
LATENT_DOWN = ((_R, 0.0, 0.0), (0.0, 1.0, 0.0), (_R, 0.0, 0.0), (0.0, 0.0, 1.0))  # W_DKV, 4 × 3
LATENT = len(LATENT_DOWN[0])


def latent(cards):
    """Each card's latent c = x · W_DKV (LATENT numbers a token: all a latent cache keeps)."""
    return attention.matmul(cards, LATENT_DOWN)


def rebuilt(cards):
    """The cards as the heads rebuild them from their latents: c · W_DKVᵀ (a head's W_K and W_V
    then make its keys and values from these, as from the cards)."""
    return attention.matmul(latent(cards), [list(col) for col in zip(*LATENT_DOWN)])


def w_o(h=len(HEADS), d=attention.D_MODEL):
    """W_O [(h·d) × d]: h identity blocks stacked, divided by h (the heads' average)."""
    return [[(1.0 / h if c == r % d else 0.0) for c in range(d)] for r in range(h * d)]


def concat_row(records, i):
    """[out_1 | … | out_h] of row i: the heads' outputs side by side (zeros for a head
    where the row has no candidate): [h·d_v]."""
    row = []
    for record in records:
        out = record.outputs[i]
        row += out if out is not None else [0.0] * len(record.values[0])
    return row


def concat(records):
    """[out_1 | … | out_h] for every row: [n, h·d_v]."""
    return [concat_row(records, i) for i in range(records[0].n_q)]


def multihead(records):
    """(concat [n, h·d], concat · W_O [n, d]) for the heads' records, in order."""
    joined = concat(records)
    return joined, attention.matmul(joined, w_o(len(records), len(records[0].values[0])))
