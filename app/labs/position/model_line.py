"""Model mode's word on positions: the trained model adds sinusoidal positions to each letter's
embedding (app/model.py's `positions`), and the position lab's step 2 shows them on a sentence."""

from app.i18n import text
from app.views import registry
from app.views.html import esc

STRINGS = {
    "it": {
        "model_positions": ("Da dove viene l'ordine: questo modello somma all'embedding di ogni lettera la sua "
                            "posizione sinusoidale, P(i, 2t) = sin(i / 10000^(2t/{d})) e P(i, 2t+1) = "
                            "cos(i / 10000^(2t/{d})), {d} numeri per posizione."),
        "model_positions_link": "Le posizioni sinusoidali passo per passo, su una frase",
    },
    "en": {
        "model_positions": ("Where order comes from: this model adds to each letter's embedding its sinusoidal "
                            "position, P(i, 2t) = sin(i / 10000^(2t/{d})) and P(i, 2t+1) = cos(i / 10000^(2t/{d})), "
                            "{d} numbers per position."),
        "model_positions_link": "Sinusoidal positions step by step, on a sentence",
    },
}


def render_positions(ctx):
    """The line under the circuit: the positions of the model that runs (its d_model: the block
    model's is not the page's model's)."""
    lang, d = ctx.lang, ctx.record.model.d_model
    return (f'<section id="view-model-positions" class="model-positions"><p>{esc(text(lang, "model_positions", d=d))} '
            f'<a href="?lang={lang}&amp;path=position&amp;step=2">{esc(text(lang, "model_positions_link"))}</a></p>'
            "</section>")


VIEW = registry.add(registry.View(id="model-positions", place=48, modes=("model",), draw=render_positions,
                                  strings=STRINGS))
