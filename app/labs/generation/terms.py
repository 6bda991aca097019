"""The generation lab's terms in the glossary (app/glossary.py)."""

from app import glossary
from app.glossary import Term

glossary.add(
    Term("token", {"it": ("token",), "en": ("token", "tokens")},
         {"it": "Il pezzo di testo che un modello tratta come un'unità. Qui è una parola o un segno di "
                "punteggiatura; nel modello addestrato della pagina, una lettera.",
          "en": "The piece of text a model handles as one unit. Here it is a word or a punctuation mark; in "
                "the page's trained model, a letter."},
         ("generation", 1)),
    Term("induction", {"it": ("testa di induzione",), "en": ("induction head",)},
         {"it": "Una testa che trova la volta precedente in cui è comparsa la lettera attuale e guarda la "
                "lettera che l'ha seguita: così il modello continua una ripetizione.",
          "en": "A head that finds the last time the current letter appeared and looks at the letter that "
                "followed it: that is how the model carries on a repeat."},
         ("generation", 1)),
    Term("kv_cache", {"it": ("KV cache", "cache"), "en": ("KV cache", "cache")},
         {"it": "Le chiavi (K) e i valori (V) delle lettere già scritte, tenuti in memoria: per la lettera "
                "nuova si calcola una sola riga in più invece di rifare tutto.",
          "en": "The keys (K) and values (V) of the letters already written, kept in memory: the new letter "
                "adds one row instead of computing everything again."},
         ("generation", 2)),
    Term("d_head", {"it": ("d_head",), "en": ("d_head",)},
         {"it": "Quanti numeri ha la chiave (o il valore) di una testa.",
          "en": "How many numbers one head's key (or value) has."},
         ("generation", 3)),
    Term("gqa", {"it": ("grouped-query", "multi-query"), "en": ("grouped-query", "multi-query")},
         {"it": "Più teste di query condividono le stesse chiavi e valori, così la cache è più piccola: a "
                "gruppi (grouped-query) o tutte una sola (multi-query).",
          "en": "Several query heads share the same keys and values, so the cache is smaller: in groups "
                "(grouped-query) or all one (multi-query)."},
         ("generation", 4)),
    Term("latent", {"it": ("vettore latente", "latente"), "en": ("latent vector", "latent")},
         {"it": "Un vettore corto salvato al posto di chiavi e valori, da cui il modello li ricostruisce "
                "con una moltiplicazione (DeepSeek-V2).",
          "en": "A short vector kept instead of keys and values, from which the model rebuilds them with a "
                "multiplication (DeepSeek-V2)."},
         ("generation", 5)),
)
