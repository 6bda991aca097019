"""The guided path "Oltre l'attention" / "Beyond attention" (`path=beyond&step=N`): drop the softmax, a
state instead of a cache, forgetting (retention), choosing what to forget (selective), what each keeps
in memory, who can still copy (model mode: the three trained models). Steps 1–5 show the mixer's
choice, so the student picks the mixer a step is about (its "try this" says which), and their answers
quote no number of the student's screen; step 6's quotes the copy chart on it (`answer`)."""

from app import model, path
from app.i18n import percent, text
from app.views import registry

COPY_EXAMPLE = "qwertyuiopasdfghjklz qwertyuiopasdfghjklz"  # (20 different letters, then the same 20)

STEPS = (
    path.Step(id="softmax", shows=("mixer", "bars", "table")),
    path.Step(id="state", shows=("mixer", "mixer-state")),
    path.Step(id="forget", shows=("mixer", "mixer-forget", "bars")),
    path.Step(id="select", shows=("mixer", "mixer-delta", "bars")),
    path.Step(id="memory", shows=("mixer", "mixer-memory")),
    # The trained models (model mode): its example is a repeat of 20 letters, the longest training saw.
    path.Step(id="copy", shows=("model-copy", "predictions"), mode="model", example=(COPY_EXAMPLE, None)),
)

P = "path_beyond_"
registry.add_strings({
    "it": {
        P + "name": "Oltre l'attention",
        P + "softmax_title": "Togliere la softmax",
        P + "softmax_text": ("Tutti e quattro i miscelatori fanno y = (L ∘ s) · V: cambia solo la maschera L. Senza "
                             "softmax i punteggi non sono più percentuali: possono essere negativi e non sommano a 1."),
        P + "softmax_try": "Scegli «lineare», poi «retention», e guarda come cambiano le barre di una parola.",
        P + "softmax_answer": ("Le barre partono dal centro: un punteggio negativo va a sinistra. Con «lineare» sono "
                               "tutte positive e la nuova card le divide per la loro somma."),
        P + "state_title": "Uno stato al posto della cache",
        P + "state_text": ("Senza softmax la stessa uscita si calcola parola per parola: uno stato S di d_k × d_v numeri "
                           "tiene tutto il passato. Ogni parola ci scrive k·vᵀ e lo stato vecchio resta, moltiplicato "
                           "per quanto se ne tiene."),
        P + "state_try": "Scegli «retention» e premi «Parola seguente» fino alla fine della frase.",
        P + "state_answer": ("A ogni parola, y calcolato dallo stato e la riga della forma a matrice sono lo stesso "
                             "numero: la differenza è 0."),
        P + "forget_title": "Dimenticare",
        P + "forget_text": ("Retention moltiplica lo stato per γ a ogni parola: una parola di j passi fa pesa γ^j. Dopo "
                            "ln ½ / ln γ parole, la mezza vita, la sua quota si è dimezzata."),
        P + "forget_try": "Scegli «retention», clicca l'ultima parola e sposta γ.",
        P + "forget_answer": "Con γ piccolo contano solo le ultime parole; con γ = 1 nessuna sbiadisce.",
        P + "select_title": "Scegliere cosa dimenticare",
        P + "select_text": ("Mamba rende la dimenticanza selettiva: ogni parola ha il suo Δ, letto dalla sua card. Un "
                            "Δ grande scrive forte e fa dimenticare (a = e^(−A·Δ) piccolo); un Δ piccolo scrive appena e "
                            "lascia lo stato com'è."),
        P + "select_try": "Scegli «selettivo (Mamba-2)», clicca l'ultima parola e leggi quali parole lo stato tiene.",
        P + "select_answer": ("I nomi scrivono forte e cancellano il passato; le paroline passano quasi senza "
                              "lasciare traccia."),
        P + "memory_title": "Quanto tiene in memoria",
        P + "memory_text": ("L'attention tiene ogni k e v: la cache cresce con le parole. Uno stato resta d_k × d_v "
                            "numeri, a dieci parole come a centomila."),
        P + "memory_try": "Leggi la riga di 100.000 parole, poi quella dei modelli veri.",
        P + "memory_answer": ("La cache cresce come n, lo stato no. Il prezzo: uno stato fisso non può ricopiare "
                              "quello che non ci sta più."),
        P + "copy_title": "Chi sa ancora copiare",
        P + "copy_text": ("Il prezzo di uno stato fisso: quello che non ci sta più non si può ricopiare. La pagina ha "
                          "addestrato tre modelli allo stesso modo e ha contato quante lettere di una ripetizione "
                          "ciascuno copia giuste, per ogni lunghezza."),
        P + "copy_try": ("Leggi il grafico, poi scrivi una sequenza che si ripete, lunga o corta, e confronta le tre "
                         "copie. Scegli «SSM» per vedere le sue previsioni qui sotto."),
        P + "copy_answer": ("A L = {short} lettere: attention {a_short}, SSM {s_short}, ibrido {h_short}. A L = {long}: "
                            "attention {a_long}, SSM {s_long}, ibrido {h_long}. {ssm}"),
        P + "copy_ssm_until": "L'SSM copia almeno il 90% fino a L = {n}, poi il suo stato non basta più.",
        P + "copy_ssm_never": "L'SSM resta sotto il 90% già a L = {n}.",
        P + "copy_ssm_always": "L'SSM copia almeno il 90% a ogni lunghezza misurata.",
        P + "copy_answer_none": "I numeri della prova non sono in questa copia della pagina.",
    },
    "en": {
        P + "name": "Beyond attention",
        P + "softmax_title": "Drop the softmax",
        P + "softmax_text": ("All four mixers compute y = (L ∘ s) · V: only the mask L changes. Without a softmax the "
                             "scores are no longer percentages: they may be negative and need not sum to 1."),
        P + "softmax_try": "Choose “linear”, then “retention”, and watch how a word's bars change.",
        P + "softmax_answer": ("The bars start from the middle: a negative score goes left. Under “linear” they are "
                               "all positive and the new card divides by their sum."),
        P + "state_title": "A state instead of a cache",
        P + "state_text": ("Without a softmax the same output comes word by word: a state S of d_k × d_v numbers holds "
                           "the whole past. Each word writes k·vᵀ into it and the old state stays, times what is kept."),
        P + "state_try": "Choose “retention” and press “Next word” to the end of the sentence.",
        P + "state_answer": ("At every word, y from the state and the matrix form's row are the same number: the "
                             "difference is 0."),
        P + "forget_title": "Forgetting",
        P + "forget_text": ("Retention multiplies the state by γ at every word: a word j steps back weighs γ^j. After "
                            "ln ½ / ln γ words, the half-life, its share has halved."),
        P + "forget_try": "Choose “retention”, click the last word and move γ.",
        P + "forget_answer": "With a small γ only the last words count; with γ = 1 none fades.",
        P + "select_title": "Choosing what to forget",
        P + "select_text": ("Mamba makes forgetting selective: each word has its own Δ, read from its card. A large Δ "
                            "writes strongly and makes the state forget (a = e^(−A·Δ) small); a small Δ barely writes "
                            "and leaves the state as it was."),
        P + "select_try": "Choose “selective (Mamba-2)”, click the last word and read which words the state keeps.",
        P + "select_answer": "Nouns write strongly and wipe the past; little words pass almost without a trace.",
        P + "memory_title": "What each keeps in memory",
        P + "memory_text": ("Attention keeps every k and v: the cache grows with the words. A state stays d_k × d_v "
                            "numbers, at ten words as at a hundred thousand."),
        P + "memory_try": "Read the row of 100,000 words, then the real models'.",
        P + "memory_answer": ("The cache grows like n, the state does not. The price: a fixed state cannot copy back "
                              "what no longer fits in it."),
        P + "copy_title": "Who can still copy",
        P + "copy_text": ("The price of a fixed state: what no longer fits in it cannot be copied back. The page trained "
                          "three models alike and counted how many letters of a repeat each copies right, at every "
                          "length."),
        P + "copy_try": ("Read the chart, then type a sequence that repeats, long or short, and compare the three "
                         "copies. Choose “SSM” to see its predictions below."),
        P + "copy_answer": ("At L = {short} letters: attention {a_short}, SSM {s_short}, hybrid {h_short}. At L = {long}: "
                            "attention {a_long}, SSM {s_long}, hybrid {h_long}. {ssm}"),
        P + "copy_ssm_until": "The SSM copies at least 90% up to L = {n}; past it, its state is not enough.",
        P + "copy_ssm_never": "The SSM stays below 90% already at L = {n}.",
        P + "copy_ssm_always": "The SSM copies at least 90% at every length measured.",
        P + "copy_answer_none": "The test's figures are not in this copy of the page.",
    },
})


def try_params(step, tokens):
    return {}


def answer(step, settings, tokens, record):
    """The step's answer: the copy step's quotes `model.copy` (the chart on screen), the others none."""
    lang = settings.lang
    if step.id != "copy":
        return text(lang, P + step.id + "_answer")
    try:
        copy = model.config().get("copy")
    except model.Unavailable:
        copy = None
    if copy is None:
        return text(lang, P + "copy_answer_none")
    lengths, accuracy = copy["lengths"], copy["accuracy"]
    at = {"short": 0, "long": len(lengths) - 1}
    said = {}
    for end, n in at.items():
        said[end] = lengths[n]
        for arch, letter in (("attention", "a"), ("ssm", "s"), ("hybrid", "h")):
            said[f"{letter}_{end}"] = percent(accuracy[arch][n], lang, "bar")
    until = None  # the longest L up to which every length is copied at least SURE
    for L, a in zip(lengths, accuracy["ssm"]):
        if a < SURE:
            break
        until = L
    if until is None:
        ssm = text(lang, P + "copy_ssm_never", n=lengths[0])
    elif until == lengths[-1]:
        ssm = text(lang, P + "copy_ssm_always")
    else:
        ssm = text(lang, P + "copy_ssm_until", n=until)
    return text(lang, P + "copy_answer", ssm=ssm, **said)


SURE = 0.9  # the share of a repeat's letters a model "copies": the answer's line


PATH = registry.add_path(path.Path(id="beyond", steps=STEPS, answers=__name__))
