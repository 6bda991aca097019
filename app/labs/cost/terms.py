"""The cost lab's terms in the glossary (app/glossary.py)."""

from app import glossary
from app.glossary import Term

glossary.add(
    Term("big_o", {"it": ("O(n²)", "O(n)"), "en": ("O(n²)", "O(n)")},
         {"it": "Come cresce un costo con la lunghezza n del testo. O(n): cresce come n, il doppio delle "
                "parole costa il doppio. O(n²): cresce come n · n, il doppio delle parole costa il quadruplo.",
          "en": "How a cost grows with the length n of the text. O(n): it grows like n, twice the words cost "
                "twice as much. O(n²): it grows like n · n, twice the words cost four times as much."},
         ("cost", 6)),    Term("float32", {"it": ("float32",), "en": ("float32",)},
         {"it": "Il modo più comune di scrivere un numero con la virgola in un computer: 32 bit, cioè 4 byte "
                "per numero.",
          "en": "The most common way a computer writes a number with a fractional part: 32 bits, that is 4 "
                "bytes a number."},
         ("cost", 2)),
    Term("window", {"it": ("finestra scorrevole", "finestra"), "en": ("sliding window", "window")},
         {"it": "Ogni parola guarda solo le parole vicine, fino a una distanza w; le altre celle della "
                "matrice non si calcolano. Il costo cresce come n · w invece che come n².",
          "en": "Each word looks only at the words near it, up to a distance w; the matrix's other cells are "
                "not computed. The cost grows like n · w instead of n²."},
         ("cost", 3)),
    Term("global", {"it": ("parole globali", "parola globale", "globali"),
                    "en": ("global words", "global word")},
         {"it": "Poche parole che guardano tutte le altre e che tutte guardano (Longformer, BigBird): "
                "un'informazione passa da un capo all'altro della frase in due passi.",
          "en": "A few words that look at every other word and that every word looks at (Longformer, "
                "BigBird): information crosses the sentence in two steps."},
         ("cost", 4)),
    Term("block", {"it": ("blocco", "blocchi"), "en": ("block", "blocks")},
         {"it": "In FlashAttention, un gruppo di B chiavi lette insieme dalla memoria veloce del chip; la "
                "matrice intera non viene mai scritta.",
          "en": "In FlashAttention, a group of B keys read together into the chip's fast memory; the whole "
                "matrix is never written."},
         ("cost", 6)),
    Term("phi", {"it": ("φ", "elu"), "en": ("φ", "elu")},
         {"it": "φ (fi) è la funzione che l'attenzione lineare applica a q e k al posto della softmax: qui "
                "φ(x) = elu(x) + 1, che vale x + 1 per x ≥ 0 e eˣ per x < 0, sempre positiva.",
          "en": "φ (phi) is the function linear attention applies to q and k instead of the softmax: here "
                "φ(x) = elu(x) + 1, which is x + 1 for x ≥ 0 and eˣ for x < 0, always positive."},
         ("cost", 7)),
)
