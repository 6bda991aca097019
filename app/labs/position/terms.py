"""The position lab's terms in the glossary (app/glossary.py)."""

from app import glossary
from app.glossary import Term

glossary.add(
    Term("equivariant", {"it": ("equivariante",), "en": ("equivariant",)},
         {"it": "Se si scambiano due parole, i loro pesi si scambiano con loro e nient'altro cambia: "
                "l'attenzione senza posizione né maschera fa così, e per questo non vede l'ordine.",
          "en": "Swap two words and their weights swap with them, nothing else changes: attention without "
                "position or mask behaves so, which is why it cannot see order."},
         ("position", 1)),
    Term("sinusoidal", {"it": ("sinusoidale",), "en": ("sinusoidal",)},
         {"it": "La posizione scritta come una riga di seni e coseni, diversa per ogni posto, sommata alla "
                "carta della parola (Vaswani e altri, 2017).",
          "en": "The position written as a row of sines and cosines, different at every place, added to the "
                "word's card (Vaswani et al., 2017)."},
         ("position", 2)),
    Term("offset", {"it": ("scostamento",), "en": ("offset",)},
         {"it": "Di quante posizioni la frase è spostata in avanti, come se venisse più avanti in un testo "
                "lungo.",
          "en": "How many places the sentence is moved forward, as if it came later in a long text."},
         ("position", 3)),
    Term("rope", {"it": ("RoPE",), "en": ("RoPE",)},
         {"it": "Rotary Position Embedding: gira q e k di un angolo che cresce con la posizione, una coppia "
                "di numeri alla volta; il loro prodotto dipende così dalla distanza fra le parole.",
          "en": "Rotary Position Embedding: turns q and k by an angle that grows with the position, one pair "
                "of numbers at a time, so their product depends on the distance between the words."},
         ("position", 4)),
    Term("rotate_half", {"it": ("rotate_half",), "en": ("rotate_half",)},
         {"it": "Il modo di Hugging Face di fare le coppie di RoPE: la prima metà dei numeri con la seconda, "
                "(0,2),(1,3) con quattro numeri, invece di numeri vicini (0,1),(2,3).",
          "en": "Hugging Face's way of pairing RoPE's numbers: the first half with the second, (0,2),(1,3) "
                "with four numbers, instead of neighbours (0,1),(2,3)."},
         ("position", 5)),
    Term("alibi", {"it": ("ALiBi", "pendenza"), "en": ("ALiBi", "slope")},
         {"it": "Toglie a ogni punteggio la distanza fra le due parole per una pendenza m, diversa per ogni "
                "testa: le parole lontane pesano meno.",
          "en": "Subtracts from each score the distance between the two words times a slope m, different for "
                "each head: far words weigh less."},
         ("position", 6)),
)
