"""The guided path "Costo" / "Cost" (`path=cost&step=N`): why attention costs n² and what cuts it,
in the course's order: n² counted, the memory, a window, global words, BigBird, FlashAttention's
tiles (the same numbers), linear attention (other numbers, fewer products). A step shows the
lab's controls and views; the student chooses the pattern a step is about with its controls
(the step's "try this" says which), so a step's link keeps what the student had chosen.

The window step's answer counts the cells of the sentence on screen (`answer`): the heatmap says
the same count beside its × cells; the first step's, with the word itself left out, says n² − n
as the cost view's line does. The other answers quote no number of the student's screen."""

from app import path, patterns
from app.i18n import text
from app.numbers import whole
from app.views import registry

CONTROLS = "cost-controls"
STEP_BLOCK = 1  # the block size FlashAttention's step opens on
STEPS = (
    path.Step(id="squares", shows=("cost", "heatmap")),
    path.Step(id="memory", shows=("cost",)),
    path.Step(id="window", shows=(CONTROLS, "heatmap", "bars"), controls=("mask", "self")),
    path.Step(id="global", shows=(CONTROLS, "heatmap", "bars")),
    path.Step(id="bigbird", shows=(CONTROLS, "heatmap", "cost")),
    # FlashAttention's step opens on blocks of one key (a link's or the student's B stays): on the
    # first example's selected word (dormiva / slept) the second block brings a new maximum, so α is
    # strictly between 0 and 1 there; its table starts at block 1. A typed sentence selects its last
    # word, so the view has a row and its B field.
    path.Step(id="flash", shows=("flash", "bars"), opens=(("flash", STEP_BLOCK),), word=True),
    path.Step(id="linear", shows=(CONTROLS, "linear", "bars")),
)

P = "path_cost_"
registry.add_strings({
    "it": {
        P + "name": "Costo",
        P + "squares_title": "n² prodotti",
        P + "squares_text": ("Ogni parola confronta la sua domanda con la chiave di ogni parola: n parole, n² prodotti "
                             "scalari per testa. Mille parole, un milione; centomila, dieci miliardi. Con «Includi la parola stessa» spento "
                             "la parola non si confronta con sé stessa: n² − n prodotti, e la diagonale resta vuota (—)."),
        P + "squares_try": "Conta le celle della matrice, poi allunga la frase e guarda il conto.",
        P + "squares_answer": "Le celle sono n × n: raddoppiando le parole, quadruplicano.",
        P + "squares_answer_self_out": ("Le celle sono n × n = {full}; la parola stessa è esclusa («Includi la parola "
                                        "stessa» è spento), quindi se ne calcolano {cells}: n² − n = {full} − {n}. "
                                        "Raddoppiando le parole, quasi quadruplicano."),
        P + "memory_title": "La memoria",
        P + "memory_text": ("La matrice dei punteggi va tenuta in memoria: 4 byte per cella in float32. Guarda i byte "
                            "a mille, centomila e un milione di parole."),
        P + "memory_try": "Leggi la riga di n = 100.000 nella tabella della memoria.",
        P + "memory_answer": ("40 miliardi di byte, 40 GB, per una testa di un livello: metà di una GPU da data center "
                              "da 80 GB come la NVIDIA H100. Ma un modello ha molte teste in molti livelli: con 16 teste "
                              "e 16 livelli sono circa 10 TB, 128 di quelle GPU."),
        P + "window_title": "Una finestra",
        P + "window_text": ("Prima idea: ogni parola guarda solo le vicine, a distanza ≤ w prima e dopo (la finestra "
                            "a due lati di Longformer e BigBird; quella scorrevole di Mistral guarda solo la parola e le "
                            "w prima). Le celle fuori finestra non si calcolano affatto."),
        P + "window_try": "Scegli «finestra» con w = 2, attiva «Includi la parola stessa» e conta le celle calcolate.",
        P + "window_answer": ("Su {n} parole, con w = {w}, restano {cells} celle di {full}: crescono come n, non come "
                              "n². La parola stessa è una cella per riga: {n} in più o in meno."),
        P + "window_answer_choose": ("Con «finestra» ogni parola tiene solo le vicine a distanza ≤ w, al più 2w + 1 celle "
                                     "per riga invece di {n}: le celle crescono come n, non come n²."),
        P + "global_title": "Parole globali",
        P + "global_text": ("Longformer aggiunge poche parole globali: vedono tutte le altre e tutte le vedono, così "
                            "l'informazione attraversa la frase in due passi."),
        P + "global_try": "Scegli «locale + globali» e clicca la prima parola per renderla globale.",
        P + "global_answer": "La sua riga e la sua colonna si riempiono: 2n celle in più, non n².",
        P + "bigbird_title": "BigBird",
        P + "bigbird_text": ("BigBird mette insieme finestra, globali e qualche chiave a caso per riga: il caso collega "
                             "parti lontane della frase."),
        P + "bigbird_try": "Scegli «BigBird» e cambia il numero di chiavi a caso.",
        P + "bigbird_answer": "Ogni riga guadagna quelle chiavi, scelte dal seme: lo stesso seme, le stesse celle.",
        P + "flash_title": "FlashAttention: gli stessi numeri",
        P + "flash_text": ("FlashAttention calcola tutte le celle ma non scrive mai la matrice intera: passa le chiavi "
                           "a blocchi e porta con sé il massimo m, la somma l e l'uscita o."),
        P + "flash_try": "Scegli un blocco B, poi avanza un blocco alla volta e controlla m, α e l a mano.",
        P + "flash_answer": "L'ultima riga, o/l, è l'uscita della matrice intera: esatta, con memoria O(n).",
        P + "linear_title": "Attenzione lineare",
        P + "linear_text": ("Togliendo la softmax e usando φ(q)·φ(k) si può moltiplicare prima φ(K)ᵀV: n·d² prodotti "
                            "invece di n²·d. Ma i pesi non sono più quelli della softmax."),
        P + "linear_try": "Scegli «lineare» e confronta le due colonne di pesi.",
        P + "linear_answer": "Pesi diversi, stesso risultato nei due ordini: è un'approssimazione che costa meno.",
    },
    "en": {
        P + "name": "Cost",
        P + "squares_title": "n² products",
        P + "squares_text": ("Each word compares its query with every word's key: n words, n² dot products a head. A "
                             "thousand words, a million; a hundred thousand, ten billion. With “Include the word itself” off the word is "
                             "not compared with itself: n² − n products, and the diagonal stays empty (—)."),
        P + "squares_try": "Count the matrix's cells, then make the sentence longer and watch the count.",
        P + "squares_answer": "The cells are n × n: doubling the words makes four times as many.",
        P + "squares_answer_self_out": ("The cells are n × n = {full}; the word itself is left out (“Include the word "
                                        "itself” is off), so {cells} are computed: n² − n = {full} − {n}. Doubling the "
                                        "words makes almost four times as many."),
        P + "memory_title": "The memory",
        P + "memory_text": ("The score matrix must be held in memory: 4 bytes a cell in float32. See the bytes at a "
                            "thousand, a hundred thousand and a million words."),
        P + "memory_try": "Read the row n = 100,000 in the memory table.",
        P + "memory_answer": ("40 billion bytes, 40 GB, for one head of one layer: half of an 80 GB data-centre GPU "
                              "such as NVIDIA's H100. But a model has many heads in many layers: with 16 heads and 16 "
                              "layers, about 10 TB, 128 of those GPUs."),
        P + "window_title": "A window",
        P + "window_text": ("First idea: each word looks only at its neighbours, at distance ≤ w before and after "
                            "(Longformer's and BigBird's two-sided window; Mistral's sliding window sees only the word "
                            "and the w before it). The cells outside the window are not computed at all."),
        P + "window_try": "Choose “window” with w = 2, turn on “Include the word itself” and count the cells computed.",
        P + "window_answer": ("On {n} words, with w = {w}, {cells} cells of {full} are left: they grow like n, not n². "
                              "The word itself is one cell a row: {n} more or fewer."),
        P + "window_answer_choose": ("Under “window” each word keeps only its neighbours at distance ≤ w, at most 2w + 1 "
                                     "cells a row instead of {n}: the cells grow like n, not n²."),
        P + "global_title": "Global words",
        P + "global_text": ("Longformer adds a few global words: they see all the others and all see them, so "
                            "information crosses the sentence in two steps."),
        P + "global_try": "Choose “local + global” and click the first word to make it global.",
        P + "global_answer": "Its row and its column fill up: 2n more cells, not n².",
        P + "bigbird_title": "BigBird",
        P + "bigbird_text": ("BigBird puts together the window, the globals and a few random keys a row: chance links "
                             "far parts of the sentence."),
        P + "bigbird_try": "Choose “BigBird” and change the number of random keys.",
        P + "bigbird_answer": "Each row gains those keys, drawn from the seed: the same seed, the same cells.",
        P + "flash_title": "FlashAttention: the same numbers",
        P + "flash_text": ("FlashAttention computes every cell but never writes the whole matrix: it goes through the "
                           "keys in blocks, carrying the maximum m, the sum l and the output o."),
        P + "flash_try": "Choose a block size B, then step one block at a time and check m, α and l by hand.",
        P + "flash_answer": "The last line, o/l, is the whole matrix's output: exact, with O(n) memory.",
        P + "linear_title": "Linear attention",
        P + "linear_text": ("Dropping the softmax for φ(q)·φ(k), φ(K)ᵀV can be multiplied first: n·d² products "
                            "instead of n²·d. But the weights are no longer softmax's."),
        P + "linear_try": "Choose “linear” and compare the two columns of weights.",
        P + "linear_answer": "Different weights, the same result in both orders: an approximation that costs less.",
    },
})
PATH = registry.add_path(path.Path(id="cost", steps=STEPS, answers=__name__))


def try_params(step, tokens):
    return {}


def answer(step, settings, tokens, record):
    """The step's answer; the window's counts the cells of the sentence on screen under the
    student's window (`patterns.DEFAULT_WINDOW` when none is given, as its field shows)."""
    lang = settings.lang
    if (step.id == "squares" and record is not None and settings.pattern == "full" and not settings.mask
            and not settings.include_self):
        full = record.n_q * record.n_k
        return text(lang, P + "squares_answer_self_out", full=whole(full, lang), cells=whole(record.computed_cells, lang),
                    n=whole(record.n_q, lang))
    if step.id != "window" or record is None:
        return text(lang, P + step.id + "_answer")
    if settings.pattern != "window":
        return text(lang, P + "window_answer_choose", n=record.n_k)
    w = patterns.DEFAULT_WINDOW if settings.window is None else settings.window
    return text(lang, P + "window_answer", n=record.n_k, w=w, cells=whole(record.computed_cells, lang),
                full=whole(record.n_q * record.n_k, lang))
