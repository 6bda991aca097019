"""The guided path "Generare" / "Generation" (`path=generation&step=N`): the trained model writes one
letter at a time, the cache that makes it cheap, what it saves, then the ways to make the cache
smaller (shared keys, a latent) and what a window costs the model.

Each step opens in the mode it is about (`path.Step.mode`: entering the step switches the mode,
app/settings.py `_take_step`): the model's steps in model mode; shared keys and the latent are
built on the designed heads, so steps 4 and 5 open in sentence mode; the window's price is the
model's, step 6 in model mode. Steps 4–6 show the real models' caches or the counters beside their
own views: `shared-keys` and `latent` (app/labs/generation/shared_keys.py), `model-window`
(app/labs/generation/model_window.py).

Two answers quote the screen (`answer`): the first step's names the induction head of the model
shown (each variant trained alike found its own), and the window's counts the positions that can
copy and how many each model gets right, as the window's view does. The others quote no number
of the student's screen.
"""

from app import path
from app.i18n import text
from app.labs.generation import model_window
from app.views import registry
from app.labs.generation.views import inline_caption

STEPS = (
    # (it opens on the letters its task names, where nothing was typed)
    path.Step(id="letter", shows=("generation",), mode="model", example=("a b c d e f g h a b c", 11)),
    path.Step(id="cache", shows=("generation", "generation-cost"), mode="model"),
    path.Step(id="saves", shows=("generation", "generation-cost", "cache-sizes"), mode="model"),
    path.Step(id="shared", shows=("shared-keys", "cache-sizes"), mode="sentence"),
    path.Step(id="latent", shows=("latent", "cache-sizes"), mode="sentence"),
    path.Step(id="window", shows=("model-window", "circuit", "heatmap", "generation", "generation-cost"), mode="model"),
)

P = "path_generation_"
registry.add_strings({
    "it": {
        P + "name": "Generare",
        P + "letter_title": "Una lettera alla volta",
        P + "letter_text": ("Un modello che genera scrive una lettera (un token) alla volta: sceglie la più probabile, "
                            "la aggiunge al testo e ricomincia. Qui il modello addestrato della pagina fa proprio "
                            "questo."),
        P + "letter_try": ("Con le lettere «a b c d e f g h a b c» premi «Scrivi una lettera» cinque volte. Guarda "
                           "quale testa spiega ogni lettera."),
        P + "letter_answer": ("Scrive «d e f g h»: la testa di induzione ({head}) guarda la lettera che "
                              "seguiva la comparsa precedente di quella appena letta, e il modello la copia."),
        P + "cache_title": "La cache",
        P + "cache_text": ("Per la lettera nuova servono q, k e v solo di quella posizione: le chiavi e i valori "
                           "delle lettere precedenti non cambiano, perché nessuna guarda avanti. Il modello li tiene "
                           "in una cache e aggiunge una riga di K e una di V per strato e testa."),
        P + "cache_try": "Premi «Scrivi una lettera» e conta le righe della cache della testa di induzione.",
        P + "cache_answer": ("Una riga in più per ogni lettera, e le righe di prima restano identiche. La previsione "
                             "con la cache e quella del passaggio completo coincidono: la differenza è 0."),
        P + "saves_title": "Quanto fa risparmiare",
        P + "saves_text": ("Senza cache, per ogni lettera il modello rifarebbe i conti di tutto il prefisso. Con la "
                           "cache ogni lettera costa un'unica riga di attenzione; in cambio la cache occupa memoria, "
                           "2 · strati · teste · d_head numeri per token."),
        P + "saves_try": ("Scrivi dieci lettere e confronta i due contatori; poi scegli «1: multi-query» fra le teste "
                          "chiave/valore del modello e guarda la cache in numeri. Infine la cache dei modelli veri."),
        P + "saves_answer": ("Il costo ricalcolato cresce col quadrato della lunghezza, quello con la cache "
                             "in modo lineare per lettera. La variante multi-query, addestrata allo stesso modo, "
                             "tiene un quarto dei numeri e scrive ancora la copia. Ma a 100.000 token la cache di un "
                             "modello grande pesa decine di gigabyte: è lei il limite."),
        P + "shared_title": "Chiavi condivise",
        P + "shared_text": ("Per rimpicciolire la cache più teste di query possono condividere le stesse chiavi e "
                            "valori: grouped-query (LLaMA 2 70B: 64 teste di query, 8 di chiavi e valori) o "
                            "multi-query (una sola)."),
        P + "shared_try": ("Scegli 1 (multi-query) e guarda la cache per token e le barre. Poi premi il bottone che "
                           "cambia le chiavi di «Chi fa cosa», scegli 2 e clicca un nome, per esempio «gatto»."),
        P + "shared_answer": ("La cache scende da 32 a 8 numeri per token, e nessuna barra cambia: le teste progettate "
                              "hanno già le stesse chiavi. Con le chiavi cambiate della prima testa, «Rimandi», che è "
                              "nel suo gruppo, non trova più le paroline. In LLaMA 2 70B, 8 teste chiave/valore invece "
                              "di 64: una cache 8 volte più piccola."),
        P + "latent_title": "Latente",
        P + "latent_text": ("DeepSeek-V2 salva per ogni token e strato un solo vettore latente di 512 numeri, più una "
                            "chiave RoPE di 64, e ricostruisce K e V da lì."),
        P + "latent_try": ("Clicca le parole una alla volta e confronta le due colonne di pesi; poi la riga di "
                           "DeepSeek-V2 con quelle di LLaMA 2 70B."),
        P + "latent_answer": ("Il latente tiene 3 numeri per token invece di 32, ma non distingue un essere vivo da "
                              "una cosa: dove la domanda li distingue, i pesi cambiano. DeepSeek-V2 tiene 576 numeri "
                              "per strato invece di 2048 (grouped-query) o 16.384 (ogni testa le sue chiavi)."),
        P + "window_title": "Il prezzo della finestra",
        P + "window_text": ("Con una finestra w ogni posizione guarda solo se stessa e le w precedenti (come Mistral): "
                            "la cache che serve resta di w + 1 righe. Ma la testa di induzione non può più "
                            "raggiungere una ripetizione più lontana."),
        P + "window_try": ("Scrivi «a b c d e f g h a b c d e f g h», imposta la finestra a 3 e confronta le "
                           "previsioni; poi scrivi cinque lettere."),
        P + "window_answer": ("Le lettere da copiare sono {distance} posizioni indietro, {reach}: senza finestra il "
                              "modello ne prevede giuste {full} su {total}, e con la finestra w = {w} ne prevede giuste "
                              "{win}. Più strati allargano quello che il modello raggiunge, a un prezzo."),
        P + "window_answer_open": ("Senza finestra il modello ne prevede giuste {full} su {total}: le lettere da copiare "
                                   "sono {distance} posizioni indietro. Con una finestra più corta restano fuori, e il "
                                   "modello non le copia più. Più strati allargano quello che il modello raggiunge, a un "
                                   "prezzo."),
        P + "window_answer_none": ("Qui nessuna lettera si ripete: scrivi la sequenza ripetuta del passo per vedere che "
                                   "cosa toglie la finestra."),
        P + "window_out": "fuori dalla finestra",
        P + "window_in": "dentro la finestra",
        P + "window_some": "alcune fuori dalla finestra",
        P + "window_span": "da {low} a {high}",
    },
    "en": {
        P + "name": "Generation",
        P + "letter_title": "One letter at a time",
        P + "letter_text": ("A generating model writes one letter (one token) at a time: it picks the most likely, "
                            "appends it to the text and starts again. Here the page's trained model does just that."),
        P + "letter_try": ("With the letters “a b c d e f g h a b c”, press “Write one letter” five times. See which "
                           "head explains each letter."),
        P + "letter_answer": ("It writes “d e f g h”: the induction head ({head}) looks at the letter that "
                              "followed the earlier occurrence of the one just read, and the model copies it."),
        P + "cache_title": "The cache",
        P + "cache_text": ("The new letter needs q, k and v of its own position only: the earlier letters' keys and "
                           "values do not change, since none looks ahead. The model keeps them in a cache and adds "
                           "one row of K and one of V a layer and head."),
        P + "cache_try": "Press “Write one letter” and count the rows of the induction head's cache.",
        P + "cache_answer": ("One more row for each letter, and the rows before stay the same. The prediction with the "
                             "cache and the full pass's agree: the difference is 0."),
        P + "saves_title": "What it saves",
        P + "saves_text": ("Without a cache, for each letter the model would redo the whole prefix. With the cache "
                           "each letter costs one row of attention; in exchange the cache takes memory, "
                           "2 · layers · heads · d_head numbers a token."),
        P + "saves_try": ("Write ten letters and compare the two counters; then choose “1: multi-query” among the "
                          "model's key/value heads and look at the cache in numbers. Last, the real models' caches."),
        P + "saves_answer": ("The recomputed cost grows with the square of the length, the cached one linearly a "
                             "letter. The multi-query variant, trained alike, keeps a quarter of the numbers and "
                             "still writes the copy. But at 100,000 tokens a large model's cache weighs tens of "
                             "gigabytes: the cache is the limit."),
        P + "shared_title": "Shared keys",
        P + "shared_text": ("To make the cache smaller, several query heads can share the same keys and values: "
                            "grouped-query (LLaMA 2 70B: 64 query heads, 8 key/value heads) or multi-query (one)."),
        P + "shared_try": ("Choose 1 (multi-query) and look at the cache a token and at the bars. Then press the "
                           "button that changes the keys of “Who does what”, choose 2 and click a noun, “cat” for "
                           "instance."),
        P + "shared_answer": ("The cache goes from 32 to 8 numbers a token, and no bar changes: the designed heads "
                              "already have the same keys. With the first head's keys changed, “Pointers”, in its "
                              "group, no longer finds the little words. In LLaMA 2 70B, 8 key/value heads instead of "
                              "64: a cache 8 times smaller."),
        P + "latent_title": "Latent",
        P + "latent_text": ("DeepSeek-V2 keeps for each token and layer a single latent vector of 512 numbers, plus a "
                            "RoPE key of 64, and rebuilds K and V from it."),
        P + "latent_try": ("Click the words one at a time and compare the two columns of weights; then the row of "
                           "DeepSeek-V2 with those of LLaMA 2 70B."),
        P + "latent_answer": ("The latent keeps 3 numbers a token instead of 32, but it cannot tell a living being "
                              "from a thing: where the question tells them apart, the weights change. DeepSeek-V2 "
                              "keeps 576 numbers a layer instead of 2,048 (grouped-query) or 16,384 (each head its "
                              "own keys)."),
        P + "window_title": "The window's price",
        P + "window_text": ("With a window w each position looks only at itself and the w before it (as Mistral "
                            "does): the cache it needs stays w + 1 rows. But the induction head can no longer reach "
                            "a repeat further back."),
        P + "window_try": ("Type “a b c d e f g h a b c d e f g h”, set the window to 3 and compare the predictions; "
                           "then write five letters."),
        P + "window_answer": ("The letters to copy are {distance} positions back, {reach}: without a window the model "
                              "predicts {full} of {total} right, and with the window w = {w} it predicts {win} right. "
                              "More layers widen what the model reaches, at a price."),
        P + "window_answer_open": ("Without a window the model predicts {full} of {total} right: the letters to copy are "
                                   "{distance} positions back. With a shorter window they fall outside, and the model "
                                   "no longer copies them. More layers widen what the model reaches, at a price."),
        P + "window_answer_none": ("No letter repeats here: type the step's repeated sequence to see what the window "
                                   "takes away."),
        P + "window_out": "outside the window",
        P + "window_in": "inside the window",
        P + "window_some": "some outside the window",
        P + "window_span": "from {low} to {high}",
    },
})
PATH = registry.add_path(path.Path(id="generation", steps=STEPS, answers=__name__))


def try_params(step, tokens):
    return {}


def answer(step, settings, tokens, record):
    """The step's answer, written from the model's record on screen where it quotes it."""
    lang = settings.lang
    model_shown = record is not None and hasattr(record, "model")
    if step.id == "letter" and model_shown:
        return text(lang, P + "letter_answer", head=inline_caption(*record.induction_head, lang))
    if step.id == "window" and model_shown:
        return _window(settings, record, lang)
    return text(lang, P + step.id + "_answer", head="")


def _window(settings, record, lang):
    """How far back the letters to copy are, whether the window reaches them, and how many of the
    positions that can copy each model gets right (the window's view, app/views/model_window.py)."""
    w = settings.window
    full = model_window.full_record(settings) if w is not None else record
    typed = len(record.tokens) - len(model_window.written_of(record))
    places = model_window.copies(full, typed)
    if not places:
        return text(lang, P + "window_answer_none")
    back = sorted({i - k for i, k in places})
    distance = str(back[0]) if len(back) == 1 else text(lang, P + "window_span", low=back[0], high=back[-1])
    said = {"distance": distance, "total": len(places), "full": model_window.score(full, places, full.tokens)}
    if w is None:
        return text(lang, P + "window_answer_open", **said)
    inside = [k >= record.start(i) for i, k in places]
    reach = P + ("window_in" if all(inside) else "window_out" if not any(inside) else "window_some")
    return text(lang, P + "window_answer", w=w, win=model_window.score(record, places, full.tokens),
                reach=text(lang, reach), **said)
