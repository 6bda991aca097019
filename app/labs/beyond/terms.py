"""The beyond lab's terms in the glossary (app/glossary.py)."""

from app import glossary
from app.glossary import Term

glossary.add(
    Term("state", {"it": ("stato",), "en": ("state",)},
         {"it": "Quello che un modello senza softmax tiene del passato: una matrice di d_k × d_v numeri, la stessa "
                "grandezza a dieci parole come a centomila. Ogni parola ci scrive e lo stato vecchio sbiadisce.",
          "en": "What a model without a softmax keeps of the past: a matrix of d_k × d_v numbers, the same size at ten "
                "words as at a hundred thousand. Each word writes into it and the old state fades."},
         ("beyond", 2)),
    Term("retention", {"it": ("retention",), "en": ("retention",)},
         {"it": "Il miscelatore di RetNet: il punteggio q·k di una parola di j passi fa è moltiplicato per γ^j, "
                "senza softmax.",
          "en": "RetNet's mixer: the score q·k of a word j steps back is multiplied by γ^j, with no softmax."},
         ("beyond", 3)),
    Term("delta", {"it": ("Δ",), "en": ("Δ",)},
         {"it": "In Mamba, il passo Δ di ogni parola, letto dalla parola stessa: grande, la parola scrive forte e lo "
                "stato dimentica; piccolo, la parola passa quasi senza traccia.",
          "en": "In Mamba, each word's step Δ, read from the word itself: large, the word writes strongly and the "
                "state forgets; small, the word passes almost without a trace."},
         ("beyond", 4)),
    Term("half_life", {"it": ("mezza vita",), "en": ("half-life",)},
         {"it": "Quante parole servono perché la quota di una parola nello stato si dimezzi: ln ½ / ln γ "
                "(con γ = 0,8, circa 3,1 parole).",
          "en": "How many words it takes for a word's share of the state to halve: ln ½ / ln γ (with γ = 0.8, about "
                "3.1 words)."},
         ("beyond", 3)),
)
