"""The guided path "Il Transformer intero" / "The whole Transformer" (`path=transformer&step=N`): the
residual stream, LayerNorm, the FFN as memory, the logit lens (model mode, the letter model with whole
blocks: each step opens `arch` = block), then encoder and decoder and translation (sentence mode). Its answers quote
no number of the student's screen."""

from app import path
from app.views import registry

EXAMPLE = ("il gatto dorme sul divano il gatto dorme", None)  # (Italian words, a piece of them again)
BLOCK = (("arch", "block"),)

STEPS = (
    path.Step(id="stream", shows=("block-stream", "predictions"), mode="model", example=EXAMPLE, owns=("arch",),
              opens=BLOCK),
    path.Step(id="ln", shows=("block-ln",), mode="model", example=EXAMPLE, owns=("arch",), opens=BLOCK),
    path.Step(id="ffn", shows=("block-ffn",), mode="model", example=EXAMPLE, owns=("arch",), opens=BLOCK),
    path.Step(id="lens", shows=("block-lens", "predictions"), mode="model", example=EXAMPLE, owns=("arch",),
              opens=BLOCK),
    path.Step(id="encdec", shows=("encdec",)),
    path.Step(id="translate", shows=("cross",), controls=("head",)),
)

P = "path_transformer_"
registry.add_strings({
    "it": {
        P + "name": "Il Transformer intero",
        P + "stream_title": "Il flusso residuo",
        P + "stream_text": ("Nel Transformer intero l'attention è una parte di un blocco. Ogni lettera ha un vettore, "
                            "il flusso residuo, e ogni stadio (attention, poi FFN, strato dopo strato) ci aggiunge "
                            "qualcosa senza cancellare quello che c'era."),
        P + "stream_try": "Clicca una lettera e guarda quale stadio aggiunge di più al suo vettore.",
        P + "stream_answer": ("Il flusso è una somma: embedding più quello che ogni stadio aggiunge. Per questo un "
                              "modello può saltare uno stadio che non serve: aggiungere poco non rompe niente."),
        P + "ln_title": "LayerNorm",
        P + "ln_text": ("Prima di ogni attention e di ogni FFN, LayerNorm rimette il vettore in scala: toglie la media, "
                        "divide per la deviazione standard, poi moltiplica per γ e aggiunge β."),
        P + "ln_try": "Rifai a mano il primo numero: sottrai la media, dividi, moltiplica per γ, aggiungi β.",
        P + "ln_answer": ("Dopo LayerNorm, prima di γ e β, ogni vettore ha media 0 e varianza quasi 1, qualunque "
                          "fosse la sua scala: gli stadi dopo leggono numeri della stessa grandezza."),
        P + "ffn_title": "La FFN come memoria",
        P + "ffn_text": ("La FFN è due matrici con una GELU in mezzo. Si può leggere come una memoria: ogni unità "
                         "riconosce qualcosa nel vettore e, se lo trova, aggiunge il suo valore, che spinge in su "
                         "alcune lettere."),
        P + "ffn_try": "Clicca una «q» e poi una «g»: quali unità si accendono, e quali lettere spingono?",
        P + "ffn_answer": ("Chiavi che combaciano e valori che si sommano, come nell'attention, ma senza softmax: "
                           "le chiavi non vengono dalle altre lettere, le ha imparate l'addestramento."),
        P + "lens_title": "La lente sui logit",
        P + "lens_text": ("Si può leggere il flusso dopo ogni stadio come se fosse l'ultimo. Si vede la previsione "
                          "formarsi stadio per stadio."),
        P + "lens_try": "Clicca una lettera in mezzo a una parola e leggi, stadio per stadio, quale lettera è prima.",
        P + "lens_answer": ("Ogni stadio può cambiare la lettera in testa: si vede quale stadio decide. L'ultimo "
                            "stadio è la previsione del modello."),
        P + "encdec_title": "Encoder e decoder",
        P + "encdec_text": ("La stessa attention fa due lavori. Senza maschera legge una frase intera (un encoder, "
                            "come BERT); con la maschera scrive una parola dopo l'altra (un decoder, come GPT)."),
        P + "encdec_try": "Confronta le due tabelle: quali caselle ha l'encoder che il decoder non ha?",
        P + "encdec_answer": ("Il decoder non vede le parole dopo: tutto quello sopra la diagonale. Il Transformer "
                              "del 2017 e T5 usano tutti e due, uniti dalla cross-attention."),
        P + "translate_title": "Tradurre: dove l'attention è cominciata",
        P + "translate_text": ("L'attention è nata per tradurre (Bahdanau, Cho e Bengio, 2014): per scrivere ogni parola "
                               "della traduzione, il decoder guarda indietro le parole della frase di partenza."),
        P + "translate_try": ("Scegli la prima coppia d'esempio, poi la testa «Simile cerca simile» e poi «Chi fa cosa»; "
                              "infine scrivi la tua frase e la sua traduzione."),
        P + "translate_answer": ("Con «Simile cerca simile» ogni parola trova la sua corrispondente; con «Chi fa cosa» "
                                 "il verbo della traduzione guarda il soggetto della frase. La traduzione guarda sé "
                                 "stessa con la maschera, la frase di partenza senza."),
    },
    "en": {
        P + "name": "The whole Transformer",
        P + "stream_title": "The residual stream",
        P + "stream_text": ("In the whole Transformer attention is one part of a block. Each letter has a vector, the "
                            "residual stream, and each stage (attention, then the FFN, layer after layer) adds "
                            "something to it without erasing what was there."),
        P + "stream_try": "Click a letter and see which stage adds the most to its vector.",
        P + "stream_answer": ("The stream is a sum: the embedding plus what each stage adds. That is why a model can "
                              "skip a stage it does not need: adding little breaks nothing."),
        P + "ln_title": "LayerNorm",
        P + "ln_text": ("Before each attention and each FFN, LayerNorm puts the vector back to scale: it takes the "
                        "mean away, divides by the standard deviation, then multiplies by γ and adds β."),
        P + "ln_try": "Work out the first number by hand: subtract the mean, divide, multiply by γ, add β.",
        P + "ln_answer": ("After LayerNorm, before γ and β, every vector has mean 0 and variance close to 1, whatever "
                          "its scale was: the stages after read numbers of the same size."),
        P + "ffn_title": "The FFN as memory",
        P + "ffn_text": ("The FFN is two matrices with a GELU between them. It can be read as a memory: each unit "
                         "recognises something in the vector and, when it finds it, adds its value, which pushes "
                         "some letters up."),
        P + "ffn_try": "Click a “q” and then a “g”: which units fire, and which letters do they push?",
        P + "ffn_answer": ("Keys that match and values that get added, as in attention, but with no softmax: the keys "
                           "do not come from the other letters, training learned them."),
        P + "lens_title": "The logit lens",
        P + "lens_text": ("The stream after each stage can be read as if it were the last. The prediction can be "
                          "seen forming stage by stage."),
        P + "lens_try": "Click a letter inside a word and read, stage by stage, which letter comes first.",
        P + "lens_answer": ("Each stage can change the letter on top: you can see which stage decides. The last "
                            "stage is the model's prediction."),
        P + "encdec_title": "Encoder and decoder",
        P + "encdec_text": ("The same attention does two jobs. Without the mask it reads a whole sentence (an encoder, "
                            "like BERT); with the mask it writes one word after another (a decoder, like GPT)."),
        P + "encdec_try": "Compare the two tables: which cells does the encoder have that the decoder does not?",
        P + "encdec_answer": ("The decoder does not see the words after: everything above the diagonal. The 2017 "
                              "Transformer and T5 use both, joined by cross-attention."),
        P + "translate_title": "Translating: where attention began",
        P + "translate_text": ("Attention was born to translate (Bahdanau, Cho and Bengio, 2014): to write each word of "
                               "the translation, the decoder looks back at the words of the source sentence."),
        P + "translate_try": ("Pick the first example pair, then the “Like with like” head and then “Who does what”; "
                              "last, type your own sentence and its translation."),
        P + "translate_answer": ("With “Like with like” each word finds its counterpart; with “Who does what” the "
                                 "translation's verb looks at the sentence's subject. The translation looks at itself "
                                 "with the mask, at the source sentence without."),
    },
})
PATH = registry.add_path(path.Path(id="transformer", steps=STEPS))
