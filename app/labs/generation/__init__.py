"""The generation lab: the trained model writes, with a KV cache; keys and values shared by heads
(grouped-query, multi-query), the latent, the window in model mode; its path `path=generation`
(docs/DESIGN.md, "Generation", "Shared keys"). The cached pass is the core's (app/generate.py: the
state's `model.cache`), and so are `kv_heads` and `window`, which model mode's variants read."""

from app.labs import Lab
from app.setting import Setting

LAB = Lab(
    id="generation",
    owns=("kv_heads", "window"),
    paths=("generation",),
    modes=("model",),  # (the Write buttons and the cache's cost: views.py)
    settings=(
        # The trained model writes (docs/DESIGN.md, "Generation"; app/generate.py): model mode only.
        # Its controls are the generation lab's buttons (app/labs/generation/views.py), not a row of settings.
        Setting(attr="generate",
                help=("model mode: the model writes this many letters after the typed ones, each the most likely "
                      "next letter, reading one position at a time with a KV cache (0: none)"),
                example="4",
                url="generate", host="generate", control=None, kind="integer", default=0,
                low=0, high=40),
    ),
    clicks={"gen-step": "buttons.step", "gen-play": "buttons.play", "gen-clear": "buttons.clear",
            "kv-own": "shared_keys.own_keys"},
)
