"""The whole-Transformer lab: the block around attention on the letter model with whole blocks
(`arch` = block: the residual stream, LayerNorm, the FFN as memories, the logit lens), and encoder
and decoder side by side on the student's sentence; its path `path=transformer` (docs/DESIGN.md,
"The whole Transformer"), and translation's cross-attention (`target`, cross.py). The block model's forward pass is the core's (app/model.py), as its
state is (app/contract.py: model.stages, lens, ln, ffn); this folder draws and teaches it."""

from app.labs import Lab
from app.setting import Bad, Setting


TARGETS = {}  # (text, language) → its tokens, read by `take_target` with that language's lexicon


def other(lang):
    return "en" if lang == "it" else "it"


def take_target(settings, value, change):
    """The translation, read with the other language's lexicon (its files first where they are not
    here: lexicon.Needed); an empty one is none (""); one the page cannot read keeps the old one and
    says why. (Here in the manifest: a link or a host message naming `target` is read before the
    lab's other modules are here.)"""
    from app import settings as schema  # (the core's settings import this manifest: imported when called)
    if value is None or not value.strip():
        return settings.copy(target="")
    lang = other(schema.reading(settings))
    tokens, problem = schema.check_sentence(value, change.lexicons[lang], settings.limit)
    if tokens is None:
        raise Bad(problem, keep=settings)
    TARGETS[(value, lang)] = tokens
    return settings.copy(target=value)


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
