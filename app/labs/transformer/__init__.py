"""The whole-Transformer lab: the block around attention on the letter model with whole blocks
(`arch` = block: the residual stream, LayerNorm, the FFN as memories, the logit lens), and encoder
and decoder side by side on the student's sentence; its path `path=transformer` (docs/DESIGN.md,
"The whole Transformer"), and translation's cross-attention (`target`, cross.py). The block model's forward pass is the core's (app/model.py), as its
state is (app/contract.py: model.stages, lens, ln, ffn); this folder draws and teaches it."""

from app.labs import Lab
from app.setting import Setting


def take_target(settings, value, change):
    """(cross.py's, where the lexicon reads it: the manifest comes before the lab's modules)"""
    from app.labs.transformer import cross
    return cross.take_target(settings, value, change)


LAB = Lab(
    id="transformer",
    owns=("target",),
    paths=("transformer",),
    state={"cross": "cross.field"},
    settings=(
        Setting(attr="target",
                help=("sentence mode: the translation of the sentence in the other language, read with that "
                      "language's lexicon; the cross-attention of the active head from its words to the sentence's"),
                example="The cat sleeps",
                url="target", host="target", control="target", kind="text", default="",  # ("": none)
                take=take_target),
    ),
    clicks={"cross-apply": "cross.apply_target", "cross-pair-0": "cross.pair_0", "cross-pair-1": "cross.pair_1"},
)
