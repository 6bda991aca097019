"""The guided path "Posizione" / "Position" (`path=position&step=N`): where word order comes from,
in the course's order: why it matters (the shuffle), sinusoidal, the shift, RoPE, the pairing
convention, ALiBi, and the four side by side. Each step shows the lab's controls and its views."""

from app import path
from app.views import registry

CONTROLS = "position-controls"
STEPS = (
    path.Step(id="shuffle", shows=(CONTROLS, "pos-shuffle", "bars"), controls=("mask",)),
    path.Step(id="sinusoidal", shows=(CONTROLS, "sinusoidal", "bars")),
    path.Step(id="shift", shows=(CONTROLS, "pos-shift", "bars", "compare")),
    path.Step(id="rope", shows=(CONTROLS, "rope", "table")),
    path.Step(id="convention", shows=(CONTROLS, "pos-convention", "rope")),
    path.Step(id="alibi", shows=(CONTROLS, "alibi", "bars", "table"), controls=("head",)),
    path.Step(id="compare", shows=(CONTROLS, "compare")),
)

P = "path_position_"
registry.add_strings({
    "it": {
        P + "name": "Posizione",
        P + "shuffle_title": "Perché l'ordine conta",
        P + "shuffle_text": ("L'attenzione da sola non vede l'ordine: «il bambino legge il libro» e «il libro legge il "
                             "bambino» le sembrano uguali. Senza posizione e senza maschera, ogni parola guarda le altre "
                             "con gli stessi pesi, qualunque sia il loro posto."),
        P + "shuffle_try": ("Con posizione «nessuna», scrivi «il bambino legge il libro», scegli «legge» e premi il "
                            "pulsante che scambia «bambino» e «libro»: dove vanno i loro pesi?"),
        P + "shuffle_answer": ("Seguono le parole: il peso di «bambino» resta di «bambino», ora al suo nuovo posto, e "
                               "così quello di «libro». Con una posizione scelta non è più così; con la maschera causale "
                               "l'ordine c'è già, perché ogni parola vede solo quelle prima."),
        P + "sinusoidal_title": "Seni e coseni sommati",
        P + "sinusoidal_text": ("La prima risposta: sommare a ogni carta una riga di seni e coseni che dipende dalla "
                                "posizione, prima di W_Q, W_K e W_V."),
        P + "sinusoidal_try": ("Scegli «sinusoidale» e guarda, nella tabella qui sotto, come cambia la carta di ogni "
                               "parola: x diventa x + PE(p). Poi prova la base dell'articolo."),
        P + "sinusoidal_answer": "Ogni carta riceve la sua riga PE: la stessa parola in due posti ha due carte diverse.",
        P + "shift_title": "Spostare la frase",
        P + "shift_text": ("Lo scostamento mette la frase più avanti in un testo lungo: la parola i sta alla posizione "
                           "scostamento + i."),
        P + "shift_try": "Con RoPE, poi con sinusoidale, aumenta lo scostamento e guarda le barre.",
        P + "shift_answer": ("Con RoPE e ALiBi le barre non si muovono: contano solo le distanze. Con sinusoidale "
                             "sì. Per questo i metodi relativi reggono nei testi più lunghi."),
        P + "rope_title": "RoPE: girare q e k",
        P + "rope_text": "RoPE gira q e k di un angolo che cresce con la posizione, una coppia di dimensioni alla volta.",
        P + "rope_try": "Scegli RoPE e una parola: confronta le frecce prima e dopo, e controlla una riga della tabella.",
        P + "rope_answer": "Il prodotto girato dipende solo dalla differenza degli angoli, cioè da i − j.",
        P + "convention_title": "Quali coppie?",
        P + "convention_text": ("Esistono due modi di fare le coppie: (0,1),(2,3) come Meta e (0,2),(1,3) come "
                                "rotate_half di Hugging Face. Questa pagina parte dal primo; qui scegli tu."),
        P + "convention_try": ("Scegli RoPE, poi le coppie (0,2),(1,3): quali dimensioni girano insieme nelle frecce, "
                               "e che cosa cambia nella tabella?"),
        P + "convention_answer": ("Le frecce ora uniscono le dimensioni 0 e 2, 1 e 3: q girato e i pesi cambiano. Ma "
                                  "con le colonne di W_Q e W_K permutate le coppie (0,2),(1,3) danno gli stessi pesi di "
                                  "(0,1),(2,3): nella tabella la prima e la terza colonna sono uguali."),
        P + "alibi_title": "ALiBi: penalizzare la distanza",
        P + "alibi_text": "ALiBi toglie a ogni punteggio m·|i − j|: ogni testa ha la sua pendenza m.",
        P + "alibi_try": ("Scegli ALiBi e l'ultima parola. Nella tabella delle pendenze la testa, e quindi la "
                          "domanda q, resta la stessa: leggi la riga della parola più lontana da m = 0 a m = 1/4."),
        P + "alibi_answer": ("Il suo peso scende da una colonna all'altra: ogni posto di distanza toglie m al logit, "
                             "quindi con m = 1/4 le parole lontane perdono molto, con 1/256 quasi niente, e le vicine "
                             "prendono il peso che le lontane perdono. Cambiare testa cambierebbe anche W_Q, cioè la "
                             "domanda: per questo la tabella tiene ferma la testa."),
        P + "compare_title": "Tutte e quattro",
        P + "compare_text": "I pesi della parola scelta con nessuna posizione, sinusoidale, RoPE e ALiBi, affiancati.",
        P + "compare_try": "Scegli un'altra parola, poi cambia lo scostamento.",
        P + "compare_answer": "Cambia solo l'insieme sinusoidale: RoPE e ALiBi guardano le distanze.",
    },
    "en": {
        P + "name": "Position",
        P + "shuffle_title": "Why order matters",
        P + "shuffle_text": ("Attention alone does not see order: “the child reads the book” and “the book reads the "
                             "child” look the same to it. With no position and no mask, each word looks at the others "
                             "with the same weights wherever they stand."),
        P + "shuffle_try": ("With position “none”, type “the child reads the book”, pick “reads” and press the button "
                            "that swaps “child” and “book”: where do their weights go?"),
        P + "shuffle_answer": ("They follow the words: the weight of “child” stays with “child”, now in its new place, "
                               "and so does that of “book”. With a position chosen it is no longer so; with the causal "
                               "mask order is there already, as each word sees only those before."),
        P + "sinusoidal_title": "Sines and cosines added",
        P + "sinusoidal_text": ("The first answer: add to each card a row of sines and cosines that depends on the "
                                "position, before W_Q, W_K and W_V."),
        P + "sinusoidal_try": ("Choose “sinusoidal” and see, in the table below, how each word's card changes: x "
                               "becomes x + PE(p). Then try the paper's base."),
        P + "sinusoidal_answer": "Each card gets its PE row: the same word in two places has two different cards.",
        P + "shift_title": "Moving the sentence",
        P + "shift_text": ("The offset puts the sentence later in a long text: word i sits at position offset + i."),
        P + "shift_try": "With RoPE, then with sinusoidal, raise the offset and watch the bars.",
        P + "shift_answer": ("Under RoPE and ALiBi the bars do not move: only distances count. Under sinusoidal they "
                             "do. That is why relative methods carry over to longer texts."),
        P + "rope_title": "RoPE: turning q and k",
        P + "rope_text": "RoPE turns q and k by an angle that grows with the position, one pair of dimensions at a time.",
        P + "rope_try": "Choose RoPE and a word: compare the arrows before and after, and check one row of the table.",
        P + "rope_answer": "The turned product depends only on the difference of the angles, that is on i − j.",
        P + "convention_title": "Which pairs?",
        P + "convention_text": ("There are two ways to pair dimensions: (0,1),(2,3) as Meta does and (0,2),(1,3) as "
                                "Hugging Face's rotate_half. This page starts from the first; here you choose."),
        P + "convention_try": ("Choose RoPE, then the pairs (0,2),(1,3): which dimensions turn together in the "
                               "arrows, and what changes in the table?"),
        P + "convention_answer": ("The arrows now join dimensions 0 and 2, 1 and 3: the turned q and the weights "
                                  "change. But with W_Q's and W_K's columns permuted the pairs (0,2),(1,3) give the "
                                  "same weights as (0,1),(2,3): in the table the first and the third column agree."),
        P + "alibi_title": "ALiBi: penalising distance",
        P + "alibi_text": "ALiBi takes m·|i − j| off every score: each head has its own slope m.",
        P + "alibi_try": ("Choose ALiBi and the last word. In the table of slopes the head, and so the question q, "
                          "stays the same: read the row of the farthest word from m = 0 to m = 1/4."),
        P + "alibi_answer": ("Its weight falls from one column to the next: each place of distance takes m off the "
                             "logit, so with m = 1/4 far words lose a lot, with 1/256 almost nothing, and the near "
                             "ones take the weight the far ones lose. Changing the head would change W_Q too, that "
                             "is the question: that is why the table keeps the head still."),
        P + "compare_title": "All four",
        P + "compare_text": "The selected word's weights with no position, sinusoidal, RoPE and ALiBi, side by side.",
        P + "compare_try": "Pick another word, then change the offset.",
        P + "compare_answer": "Only the sinusoidal set changes: RoPE and ALiBi look at distances.",
    },
})
PATH = registry.add_path(path.Path(id="position", steps=STEPS))
