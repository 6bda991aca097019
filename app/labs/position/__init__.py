"""The position lab: how word order enters attention (sinusoidal, RoPE, ALiBi), its path
`path=position` (docs/DESIGN.md, "Position"). Its views are this folder's modules; the position
kinds' maths is the core's (app/attention.py `Position`), which the formula's distance bias shares."""

from app import attention
from app.labs import Lab
from app.setting import MAX_LIMIT, Setting, read_typed_number

LAB = Lab(
    id="position",
    owns=("position", "offset", "base", "rope_key", "pairs"),
    paths=("position",),
    modes=("model",),  # (model mode's line on its positions: model_line.py)
    settings=(
        # Word order (docs/DESIGN.md, "Position"; app/attention.py): sentence and matrix modes. Their
        # controls live with the position lab's views, not among the other settings.
        Setting(attr="position",
                help=("how word order enters: none (attention alone ignores it), sinusoidal (sines and cosines "
                      "added to the cards), rope (q and k turned by their positions) or alibi (a distance bias "
                      "on the scores, each head its own slope)"),
                example="rope",
                url="position", host="position", control="position", kind="choice", default="none",
                choices=attention.POSITION_KINDS),
        Setting(attr="offset",
                help=("word i sits at position offset + i, as if the sentence came later in a longer text "
                      "(sinusoidal and rope)"),
                example="3",
                url="offset", host="offset", control="offset", kind="integer", default=0,
                low=0, high=10_000, read_control=read_typed_number),
        # The default base, 10, and not the papers' 10,000: with cards of 4 numbers there are two
        # pairs, turning θ_0 = 1 and θ_1 = base^(−1/2) radians a word. At 10,000 the second pair turns
        # 0.01 rad a word and stands still over a six-word sentence; at 10 it turns 18° a word (about
        # a right angle over six words) while the first turns 57°: both visibly, at different speeds.
        Setting(attr="base",
                help=("the frequency base of sinusoidal and rope: pair t turns base^(−2t/d) radians a word "
                      "(default 10, so both pairs of a 4-number card turn visibly over a short sentence)"),
                example="10000",
                url="base", host="base", control="base", kind="number", default=attention.DEFAULT_BASE,
                low=2.0, high=1_000_000.0, read_control=read_typed_number),
        # RoPE's pairs of dimensions: the page turns (0,1),(2,3) (Meta's interleaved layout) unless
        # the convention step's control picks (0,2),(1,3) (Hugging Face's rotate_half); the rope view's
        # arrows and table follow it, and the state's `position.pairs` names it.
        Setting(attr="pairs",
                help=("RoPE's pairs of dimensions: interleaved, (0,1),(2,3) as Meta's code turns them, or half, "
                      "(0,2),(1,3) as Hugging Face's rotate_half does"),
                example="half",
                url="pairs", host="pairs", control="pairs", kind="choice", default="interleaved",
                choices=attention.PAIRINGS),
        Setting(attr="rope_key",
                help=("the position lab's RoPE view: the word whose key is turned beside the selected word's query, "
                      "counted from 0 (none: the word it looks at most)"),
                example="2",
                url="rope_key", host="rope_key", control="rope_key", kind="integer", default=None,
                low=0, high=MAX_LIMIT, nullable=True),
    ),
    clicks={"pos-shuffle": "experiments.shuffle", "pos-shift": "experiments.shift",
            "pos-convention": "experiments.convention", "pos-base-paper": "sinusoidal.paper_base"},
)
