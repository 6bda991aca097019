"""The beyond lab: attention without its softmax, one formula y = (L ∘ s)·V with four masks (softmax,
linear, retention, selective), the state that computes the same numbers word by word, and what each
keeps in memory; its path `path=beyond` (docs/DESIGN.md, "Beyond attention: `mixer`"). The maths is
py; apply.py puts the mixer into the record and the state."""

from app.labs import Lab
from app.model import ARCHS
from app.setting import MAX_LIMIT, Bad, Setting
# (the manifest comes with the page's archive, its folder's other modules later: py reads these)
KINDS = ("softmax", "linear", "retention", "selective")
DEFAULT_DECAY = 0.8  # γ: a word's share of the state falls to 0.8 at each new word (half-life ≈ 3.1 words)
# The designed Δ, read from a card's four features (alive, action, thing, function): a noun (alive
# or thing) gets a large Δ (it writes strongly, and a_t = e^(−A·Δ) makes the state forget), a
# little word (function) a Δ near 0 (it barely writes, and the state keeps what it had), a verb
# in between. softplus(2·0.95 + 0.5·0.05 + 2·0.1 − 1) ≈ 1.4 for «gatto», softplus(−3 − 1) ≈ 0.018 for «il».
DEFAULT_W_DELTA = (2.0, 0.5, 2.0, -3.0)
DEFAULT_B_DELTA = -1.0
DEFAULT_A = 1.0
MAX_A = 10.0


def take_mixer(settings, value, change):
    """Another  The three without a softmax are causal and read the word itself: their choice
    turns the mask and the self switch on (the record is causal under them whatever the switches say)."""
    if value == "softmax":
        return settings.copy(mixer=value)
    return settings.copy(mixer=value, mask=True, include_self=True)


def take_w_delta(settings, value, change):
    """w_Δ: one row of 4 numbers (or none: the designed one)."""
    if value is not None and (len(value) != 1 or len(value[0]) != len(DEFAULT_W_DELTA)):
        raise Bad("attention:set: 'w_delta' must be one row of 4 numbers; ignored")
    return settings.copy(w_delta=value)


LAB = Lab(
    id="beyond",
    owns=("mixer", "decay", "b_delta", "a_decay", "mixer_step", "arch"),  # (w_delta: links and hosts only)
    paths=("beyond",),
    state={"mixer": "apply.field"},
    settings=(
        Setting(attr="mixer",
                help=("how each word mixes the words before it: softmax (attention), linear (φ(q)·φ(k), a running "
                      "sum), retention (q·k faded by decay a word) or selective (q·k faded by each word's own Δ, "
                      "Mamba-2's); the last three are causal and read the word itself"),
                example="retention",
                url="mixer", host="mixer", control="mixer", kind="choice", default="softmax",
                holds={"mask": True, "include_self": True},
                choices=KINDS, take=take_mixer),
        Setting(attr="decay",
                help="retention's γ: how much of the state each new word keeps (0.01–1; 0.8: a half-life of 3.1 words)",
                example="0.5",
                url="decay", host="decay", control="decay", kind="number", default=DEFAULT_DECAY,
                low=0.01, high=1.0),
        Setting(attr="w_delta",
                help=("selective: w_Δ, the 4 numbers Δ_t = softplus(x_t·w_Δ + b_Δ) reads a card with (none: the "
                      "designed 2, 0.5, 2, −3: a noun writes strongly, a little word barely)"),
                example="1,1,1,-2",
                url="w_delta", host="w_delta", control=None, kind="matrix", default=None,
                high=1, cols=len(DEFAULT_W_DELTA), take=take_w_delta),
        Setting(attr="b_delta",
                help="selective: b_Δ, added before the softplus",
                example="0",
                url="b_delta", host="b_delta", control="b_delta", kind="number", default=DEFAULT_B_DELTA,
                low=-10.0, high=10.0),
        Setting(attr="a_decay",
                help="selective: A > 0, a_t = exp(−A·Δ_t) is what the state keeps at word t",
                example="2",
                url="a", host="a", control="a", kind="number", default=DEFAULT_A,
                low=0.01, high=MAX_A),
        Setting(attr="mixer_step",
                help="the state's stepper: how many words the state has read (none: every word)",
                example="2",
                url="mixer_step", host="mixer_step", control=None, kind="integer", default=None,
                low=0, high=MAX_LIMIT, nullable=True, view_only=True),
        # Model mode (docs/DESIGN.md, "Beyond attention"): which of the page's trained models runs. The
        # forward pass is the core's (app/model.py reads a selective layer); the copy view is this lab's.
        Setting(attr="arch",
                help=("model mode: which trained model runs: attention (the page's model), ssm (both layers the "
                      "selective mixer, a fixed state), hybrid (layer 1 selective, layer 2 attention), all three "
                      "trained alike, or block (whole blocks: LayerNorm, an FFN, trained on Italian words)"),
                example="ssm",
                url="arch", host="arch", control="arch", kind="choice", default="attention",
                choices=ARCHS),
    ),
    clicks={"mixer-back": "stepper.back", "mixer-next": "stepper.forward", "mixer-play": "stepper.play"},
)
