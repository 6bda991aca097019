"""The whole-Transformer lab's terms in the glossary (app/glossary.py)."""

from app import glossary
from app.glossary import Term

glossary.add(
    Term("residual", {"it": ("flusso residuo",), "en": ("residual stream",)},
         {"it": "Il vettore di ogni posizione che attraversa tutto il modello: ogni stadio (attention, FFN) ci "
                "somma il suo contributo invece di sostituirlo.",
          "en": "Each position's vector that runs through the whole model: each stage (attention, FFN) adds its "
                "contribution to it instead of replacing it."},
         ("transformer", 1)),
    Term("layernorm", {"it": ("LayerNorm",), "en": ("LayerNorm",)},
         {"it": "Rimette in scala un vettore: toglie la media dei suoi numeri, divide per la loro deviazione "
                "standard, poi moltiplica per γ e aggiunge β, imparati.",
          "en": "Puts a vector back to scale: takes the mean of its numbers away, divides by their standard "
                "deviation, then multiplies by γ and adds β, both learned."},
         ("transformer", 2)),
    Term("ffn", {"it": ("FFN",), "en": ("FFN",)},
         {"it": "La rete feed-forward di ogni strato: due matrici con una GELU in mezzo, applicate a ogni "
                "posizione da sola.",
          "en": "Each layer's feed-forward network: two matrices with a GELU between them, applied to each "
                "position alone."},
         ("transformer", 3)),
    Term("lens", {"it": ("lente sui logit",), "en": ("logit lens",)},
         {"it": "Leggere il flusso residuo a metà del modello come se fosse la fine: LayerNorm finale e W_U danno "
                "le lettere che il modello direbbe a quel punto.",
          "en": "Reading the residual stream halfway through the model as if it were the end: the final "
                "LayerNorm and W_U give the letters the model would say at that point."},
         ("transformer", 4)),
    Term("encoder", {"it": ("encoder",), "en": ("encoder",)},
         {"it": "Un Transformer senza maschera: ogni parola vede tutte le altre (BERT).",
          "en": "A Transformer with no mask: every word sees every other (BERT)."},
         ("transformer", 5)),
    Term("decoder", {"it": ("decoder",), "en": ("decoder",)},
         {"it": "Un Transformer con la maschera: ogni parola vede solo quelle prima di sé, per prevedere la "
                "seguente (GPT).",
          "en": "A Transformer with the mask: each word sees only those before it, to predict the next (GPT)."},
         ("transformer", 5)),
)
