"""Every string the page shows, in Italian and English, and numbers written for each language.

`text(lang, key, **params)` fills a template; `num(x, lang, decimals)` writes a number
with the language's decimal mark (Italian: comma) and a true minus sign.
"""

import functools

LANGS = ("it", "en")
DEFAULT_LANG = "it"

# Preset sentences: (sentence, word selected at first). The same index in both
# languages is the same example, so switching language keeps the example.
PRESETS = {
    "it": [
        ("Il gatto seduto sul tappeto dormiva", 5),
        ("Lucia ha preso la mela e l'ha mangiata", 8),
        ("Il cane rincorre la palla nel giardino", 2),
        ("La maestra legge una storia ai bambini", 2),
    ],
    "en": [
        ("The cat sat on the mat and slept", 7),
        ("Lucy took the apple and ate it", 5),
        ("The dog chases the ball in the garden", 2),
        ("The teacher reads a story to the children", 2),
    ],
}

STRINGS = {
    "it": {
        "title": "Attention Explorer",
        "subtitle": "Dove guarda una parola? Il calcolo dell'attention, passo per passo.",
        "intro": (
            "Sotto ogni parola c'è la sua carta: quattro numeri fra 0 e 1 che dicono quanto è "
            "un essere vivo, un'azione, una cosa, o una parolina che rimanda a un'altra. "
            "Scegli una parola: la sua carta diventa una domanda (la query), che viene "
            "confrontata con le carte delle altre parole. I punteggi diventano pesi che "
            "sommano a 1, mostrati come percentuali. Il conto è fatto adesso, in Python, nel tuo browser."
        ),
        "features": ("vivo", "azione", "cosa", "rimando"),
        "features_long": ("essere vivente", "azione", "cosa", "parolina di rimando"),
        "asks": ("esseri viventi", "azioni", "cose", "paroline di rimando"),
        "and": "e",
        "sentence_label": "Scrivi una frase",
        "analyse": "Analizza",
        "presets_label": "Oppure scegli un esempio",
        "presets_pick": "— esempi —",
        "mask": "Maschera causale",
        "mask_hint": "nessuna parola guarda quelle che vengono dopo (in GPT una parola vede sé stessa e quelle prima)",
        "self": "Includi la parola stessa",
        "self_hint": "come fa un modello vero",
        "lang_legend": "Lingua",
        "words_legend": "La frase: scegli una parola",
        "card_legend": "Carta di ogni parola: vivo · azione · cosa · rimando",
        "guessed_legend": "≈ carta stimata: la parola non è nel lessico",
        "guess_marker": "carta stimata",
        "card_aria": "carta di {word}: {values}",
        "guess": {
            "name": "nome proprio (parola con la maiuscola che il lessico non ha)",
            "place": "nome di luogo (dall'elenco di città e paesi)",
            "enclitic": "verbo con pronome attaccato (dammelo → dare)",
            "verb_form": "forma di un verbo del lessico",
            "inflection": "plurale o femminile di una parola del lessico",
            "conditional": "verbo al condizionale",
            "subjunctive": "verbo al congiuntivo",
            "noun_context": "nome: viene dopo un articolo o una preposizione",
            "verb_context": "verbo: viene dopo un pronome, «non» o un nome",
            "agent": "chi fa l'azione di un verbo",
            "compound": "parola composta: vale l'ultima parte",
            "adverb": "avverbio in -mente",
            "gerund": "gerundio (-ando, -endo)",
            "imperfect": "verbo all'imperfetto",
            "past": "verbo al passato remoto",
            "future": "verbo al futuro",
            "person": "persona (-atore, -ista, ...)",
            "abstract": "nome astratto (-zione, -tà, ...)",
            "infinitive": "verbo all'infinito",
            "participle": "participio passato",
            "present": "verbo al presente (-ano, -ono)",
            "verb": "verbo",
            "number": "numero",
            "symbol": "simbolo",
            "noun": "parola sconosciuta, trattata come una cosa",
        },
        "pick_word": "Scegli una parola della frase per vedere dove guarda.",
        "query_heading": "La domanda di «{word}»",
        "query_line": "q = x · W_Q = {vector}",
        "query_words": "«{word}» cerca {what}.",
        "query_nothing": "«{word}» non cerca niente di preciso: la sua domanda è fatta di zeri.",
        "bars_heading": "Dove guarda «{word}»",
        "bars_caption": "Percentuale di attenzione che «{word}» dà a ogni parola",
        "is_query": "è la parola che fa la domanda",
        "is_masked": "nascosta dalla maschera",
        "no_candidates_first": (
            "«{word}» è la prima parola: con la maschera causale non ha nessuna parola prima di "
            "sé da guardare. Un modello vero metterebbe tutto il peso su sé stessa (prova "
            "«Includi la parola stessa»)."
        ),
        "no_candidates_alone": "«{word}» è l'unica parola: non ce n'è un'altra da guardare. Prova «Includi la parola stessa»: guarderà sé stessa, al 100%.",
        "one_candidate": (
            "Resta un solo candidato, «{other}»: la softmax di un solo numero vale 1, quindi il "
            "100% è aritmetica, non una preferenza."
        ),
        "steps_heading": "I passaggi del calcolo",
        "formula_scaled": "pesi = softmax(QKᵀ / (√d_k × T)), con d_k = {d_k}, √d_k = {root}, T = {t}: divisore ÷ {divisor}",
        "formula_unscaled": "pesi = softmax(QKᵀ / T), senza √d_k, T = {t}: divisore ÷ {divisor}",
        "table_caption": "Passaggi per «{word}»: prodotto scalare, divisione per {divisor}, esponenziale, percentuale",
        "col_word": "Parola",
        "col_card": "Carta k",
        "col_products": "q · k scritto per esteso",
        "col_dot": "q · k",
        "col_logit": "logit = q·k ÷ {divisor}",
        "col_exp": "e^logit",
        "col_weight": "peso = e^logit ÷ Σ",
        "col_percent": "%",
        "total": "Totale",
        "masked_logit": "−∞ (maschera)",
        "wq_summary": "La matrice delle domande W_Q (riga: la caratteristica di chi chiede; colonna: che cosa cerca)",
        "wq_caption": "W_Q: q = x · W_Q",
        "wq_corner": "chi chiede ↓ · cerca →",
        "wq_zero_column": "La colonna «{feature}» è tutta zero: qui nessuna parola cerca le paroline di rimando.",
        "query_weak": "«{word}» fa una domanda debole (il numero più grande è {top}, meno di 1): non preferisce quasi nessuno, le barre sono quasi piatte.",
        "keys_values": "Le chiavi sono le carte stesse (K = carte · W_K, con W_K = identità) e anche i valori (V = carte · W_V, con W_V = identità). Si divide per √d_k perché i prodotti scalari crescono con il numero di caratteristiche: senza divisione la softmax si satura.",
        "scaled": "Dividi per √d_k",
        "scaled_hint": "√d_k, la radice della lunghezza delle chiavi: tiene i punteggi piccoli, così la softmax non si satura",
        "temp": "Temperatura",
        "temp_value": "T = {t}",
        "temp_hint": "divide ancora i punteggi: bassa = più netta, alta = più piatta",
        "saturated": "La softmax è satura: quasi tutto il peso va a una parola sola. Succede quando i punteggi sono grandi (prova a riaccendere «Dividi per √d_k» o ad alzare la temperatura): per questo si divide per √d_k.",
        "flat": "I pesi sono quasi piatti: «{word}» guarda tutte le parole più o meno allo stesso modo (punteggi vicini fra loro, o temperatura alta).",
        "rounding_note": "Ogni percentuale è arrotondata da sola, quindi sommate fanno {sum} e non 100,0%: i pesi invece sommano esattamente a 1.",
        "view_legend": "Che cosa mostrare",
        "view_bars": "Barre",
        "view_table": "Passaggi",
        "view_heatmap": "Matrice",
        "view_output": "Nuova carta",
        "heatmap_heading": "Chi guarda chi: la matrice di tutti i pesi",
        "heatmap_help": "Ogni riga è una parola che chiede, ogni colonna una parola guardata; i numeri sono percentuali. · = nascosta dalla maschera (−∞ → 0); — = la parola stessa, non candidata. Scegli una riga con il suo nome.",
        "heatmap_caption": "Pesi di attenzione in percentuale: righe = chi chiede (query), colonne = chi è guardato (chiave)",
        "heatmap_window": ". Testo lungo: le righe si disegnano mentre scorri la griglia; «Scarica la matrice (CSV)» le ha tutte",
        "heatmap_corner": "chi chiede ↓ · guarda →",
        "heatmap_cost": "{n} parole → {cells} punteggi; 1.000 parole → 1.000.000: il costo cresce con il quadrato delle parole.",
        "output_heading": "La nuova carta di «{word}»",
        "output_sum": "nuovo «{word}» = {terms}",
        "output_line": "risultato = {vector}",
        "output_old": "carta di prima",
        "output_new": "carta nuova",
        "output_digits": "La somma scritta usa i pesi arrotondati della tabella; il risultato è calcolato con i pesi completi, quindi l'ultima cifra può differire.",
        "output_meaning": "La nuova carta di «{word}» è una miscela delle carte (i valori V) delle parole che guarda, ciascuna pesata dalla sua attenzione: la parola ora porta con sé un po' del suo contesto.",
        "output_none": "«{word}» non guarda nessuna parola, quindi non ha una nuova carta.",
        "reset": "Ripristina tutto",
        "export_matrix": "Scarica la matrice (CSV)",
        "link_value_bad": "Il link contiene «{name}={value}», che non va bene (valori ammessi: {allowed}): uso «{name}={fallback}».",
        "ready": "Pronto: scegli una parola.",
        "empty": "Scrivi almeno una parola: la frase è vuota. Resta visibile la frase di prima.",
        "too_long": (
            "La frase ha {count} pezzi (parole e segni di punteggiatura): il limite è {limit}. "
            "Accorciala; il testo che hai scritto è ancora nella casella."
        ),
        "too_long_chars": (
            "Il testo è lungo {count} caratteri: il limite è {limit}. Accorcialo; il testo che "
            "hai scritto è ancora nella casella."
        ),
        "link_sentence_bad": "La frase del link non si può mostrare: {why} Mostro l'esempio iniziale.",
        "link_focus_bad": "Il link chiede la parola numero «{value}», che in questa frase non c'è: scegline una.",
        "link_flag_bad": "Il link contiene «{name}={value}», che non capisco: uso «{name}={fallback}».",
        "link_lang_bad": "Il link chiede la lingua «{value}», che non c'è: uso l'italiano.",
        "link_limit_bad": "Il link chiede «limit={value}»: deve essere un numero da 1 a {limit}. Uso il limite normale.",
        "lexicon_problem": "Lessico {file}, riga {line}: {what}",
        "lexicon_problems": {
            "empty": "il file è vuoto",
            "missing": "il file non si trova",
            "header": "la prima riga deve essere {detail}",
            "columns": "ci sono {detail} colonne invece di 5; riga saltata",
            "word": "manca la parola; riga saltata",
            "number": "un valore di «{detail}» non è un numero; riga saltata",
            "range": "un valore di «{detail}» è fuori da 0–1; riga saltata",
            "duplicate": "parola ripetuta (vale la prima definizione); riga saltata",
        },
        "query_aria": "La domanda",
        "announce_looks": "«{word}» guarda: {items}.",
        "announce_item": "{word}: {pct} per cento",
        "announce_more": "altre {n} parole sotto l'1 per cento",
        "percent_text": "{pct} per cento",
        "share_heading": "Condividi ed esporta",
        "copy_link": "Copia il link",
        "copy_embed": "Copia il codice da incorporare",
        "export_csv": "Scarica la tabella (CSV)",
        "share_text_label": "Testo da copiare",
        "copied": "Copiato negli appunti.",
        "copy_manual": "Il browser non permette di copiare da qui: il testo è selezionato qui sopra, copialo con Ctrl+C (⌘+C su Mac).",
        "downloaded": "Tabella scaricata: {file}",
        "embed_title": "Attention Explorer: dove guarda una parola",
        "help_summary": "Che cos'è?",
        "open_top": "Apri in una nuova scheda",
        "help_aria": "Aiuto: che cosa mostra questa pagina",
        "error_handler": "Qualcosa è andato storto in questo calcolo ({error}). Riprova: la pagina funziona ancora.",
    },
    "en": {
        "title": "Attention Explorer",
        "subtitle": "Where does a word look? The attention computation, step by step.",
        "intro": (
            "Under every word is its card: four numbers between 0 and 1 saying how much it is "
            "a living being, an action, a thing, or a little word that points to another one. "
            "Pick a word: its card becomes a question (the query), which is compared with the "
            "other words' cards. The scores become weights that add up to 1, shown as "
            "percentages. The computation runs now, in Python, in your browser."
        ),
        "features": ("alive", "action", "thing", "pointer"),
        "features_long": ("living being", "action", "thing", "pointer word"),
        "asks": ("living beings", "actions", "things", "pointer words"),
        "and": "and",
        "sentence_label": "Type a sentence",
        "analyse": "Analyse",
        "presets_label": "Or pick an example",
        "presets_pick": "— examples —",
        "mask": "Causal mask",
        "mask_hint": "no word looks at the words after it (in GPT a word sees itself and the words before it)",
        "self": "Include the word itself",
        "self_hint": "as a real model does",
        "lang_legend": "Language",
        "words_legend": "The sentence: pick a word",
        "card_legend": "Each word's card: alive · action · thing · pointer",
        "guessed_legend": "≈ estimated card: the word is not in the lexicon",
        "guess_marker": "estimated card",
        "card_aria": "card of {word}: {values}",
        "guess": {
            "name": "proper name (a capitalised word the lexicon lacks)",
            "place": "place name (from the list of cities and countries)",
            "enclitic": "verb with an attached pronoun",
            "verb_form": "a form of a verb in the lexicon (-ed, -ing)",
            "inflection": "plural or comparative of a word in the lexicon",
            "conditional": "verb (conditional)",
            "subjunctive": "verb (subjunctive)",
            "noun_context": "noun: it comes after an article or determiner",
            "verb_context": "verb: it comes after a pronoun, a modal or “not”",
            "agent": "someone who does a verb's action (-er, -or)",
            "compound": "compound word: its last part decides",
            "adverb": "adverb ending in -ly",
            "gerund": "verb ending in -ing",
            "imperfect": "verb (imperfect)",
            "past": "verb ending in -ed",
            "future": "verb (future)",
            "person": "person (-ist, -ian, ...)",
            "abstract": "abstract noun (-tion, -ness, ...)",
            "infinitive": "verb (infinitive)",
            "participle": "past participle",
            "present": "verb (present)",
            "verb": "verb (-ize, -ify)",
            "number": "number",
            "symbol": "symbol",
            "noun": "unknown word, treated as a thing",
        },
        "pick_word": "Pick a word of the sentence to see where it looks.",
        "query_heading": "The question of “{word}”",
        "query_line": "q = x · W_Q = {vector}",
        "query_words": "“{word}” is looking for {what}.",
        "query_nothing": "“{word}” is not looking for anything in particular: its question is all zeros.",
        "bars_heading": "Where “{word}” looks",
        "bars_caption": "Share of attention “{word}” gives to each word",
        "is_query": "the word asking the question",
        "is_masked": "hidden by the mask",
        "no_candidates_first": (
            "“{word}” is the first word: with the causal mask there is no word before it to look "
            "at. A real model would put all the weight on the word itself (try “Include the "
            "word itself”)."
        ),
        "no_candidates_alone": "“{word}” is the only word: there is no other word to look at. Try “Include the word itself”: it will look at itself, 100%.",
        "one_candidate": (
            "Only one candidate is left, “{other}”: the softmax of a single number is 1, so the "
            "100% is arithmetic, not a preference."
        ),
        "steps_heading": "The steps of the computation",
        "formula_scaled": "weights = softmax(QKᵀ / (√d_k × T)), with d_k = {d_k}, √d_k = {root}, T = {t}: divisor ÷ {divisor}",
        "formula_unscaled": "weights = softmax(QKᵀ / T), no √d_k, T = {t}: divisor ÷ {divisor}",
        "table_caption": "Steps for “{word}”: dot product, divide by {divisor}, exponential, percentage",
        "col_word": "Word",
        "col_card": "Card k",
        "col_products": "q · k written out",
        "col_dot": "q · k",
        "col_logit": "logit = q·k ÷ {divisor}",
        "col_exp": "e^logit",
        "col_weight": "weight = e^logit ÷ Σ",
        "col_percent": "%",
        "total": "Total",
        "masked_logit": "−∞ (mask)",
        "wq_summary": "The question matrix W_Q (row: the feature of the asking word; column: what it looks for)",
        "wq_caption": "W_Q: q = x · W_Q",
        "wq_corner": "who asks ↓ · looks for →",
        "wq_zero_column": "The “{feature}” column is all zeros: here no word looks for pointer words.",
        "query_weak": "“{word}” asks a weak question (its largest number is {top}, less than 1): it hardly prefers anyone, the bars are nearly flat.",
        "keys_values": "The keys are the cards themselves (K = cards · W_K, with W_K = identity), and so are the values (V = cards · W_V, with W_V = identity). We divide by √d_k because dot products grow with the number of features: without the division the softmax saturates.",
        "scaled": "Divide by √d_k",
        "scaled_hint": "√d_k, the square root of the keys' length: keeps the scores small, so the softmax does not saturate",
        "temp": "Temperature",
        "temp_value": "T = {t}",
        "temp_hint": "divides the scores again: low = sharper, high = flatter",
        "saturated": "The softmax is saturated: almost all the weight goes to one word. It happens when the scores are large (try switching “Divide by √d_k” back on or raising the temperature): this is why we divide by √d_k.",
        "flat": "The weights are nearly flat: “{word}” looks at every word about the same (scores close to each other, or a high temperature).",
        "rounding_note": "Each percentage is rounded on its own, so together they make {sum}, not 100.0%: the weights themselves add up to exactly 1.",
        "view_legend": "What to show",
        "view_bars": "Bars",
        "view_table": "Steps",
        "view_heatmap": "Matrix",
        "view_output": "New card",
        "heatmap_heading": "Who looks at whom: the matrix of all weights",
        "heatmap_help": "Each row is a word asking, each column a word looked at; the numbers are percentages. · = hidden by the mask (−∞ → 0); — = the word itself, not a candidate. Pick a row by its name.",
        "heatmap_caption": "Attention weights in percent: rows = who asks (query), columns = who is looked at (key)",
        "heatmap_window": ". Long text: rows are drawn as you scroll the grid; “Download the matrix (CSV)” has them all",
        "heatmap_corner": "who asks ↓ · looks at →",
        "heatmap_cost": "{n} words → {cells} scores; 1,000 words → 1,000,000: the cost grows with the square of the words.",
        "output_heading": "The new card of “{word}”",
        "output_sum": "new “{word}” = {terms}",
        "output_line": "result = {vector}",
        "output_old": "card before",
        "output_new": "new card",
        "output_digits": "The written sum uses the table's rounded weights; the result is computed with the full weights, so the last digit may differ.",
        "output_meaning": "The new card of “{word}” is a mix of the cards (the values V) of the words it looks at, each weighted by its attention: the word now carries a little of its context.",
        "output_none": "“{word}” looks at no word, so it has no new card.",
        "reset": "Reset everything",
        "export_matrix": "Download the matrix (CSV)",
        "link_value_bad": "The link contains “{name}={value}”, which is not allowed (allowed values: {allowed}): using “{name}={fallback}”.",
        "ready": "Ready: pick a word.",
        "empty": "Type at least one word: the sentence is empty. The previous sentence stays on screen.",
        "too_long": (
            "The sentence has {count} pieces (words and punctuation marks): the limit is {limit}. "
            "Shorten it; what you typed is still in the box."
        ),
        "too_long_chars": (
            "The text is {count} characters long: the limit is {limit}. Shorten it; what you "
            "typed is still in the box."
        ),
        "link_sentence_bad": "The sentence in the link cannot be shown: {why} Showing the first example.",
        "link_focus_bad": "The link asks for word number “{value}”, which this sentence does not have: pick one.",
        "link_flag_bad": "The link contains “{name}={value}”, which I do not understand: using “{name}={fallback}”.",
        "link_lang_bad": "The link asks for language “{value}”, which is not available: using Italian.",
        "link_limit_bad": "The link asks for “limit={value}”: it must be a number from 1 to {limit}. Using the usual limit.",
        "lexicon_problem": "Lexicon {file}, line {line}: {what}",
        "lexicon_problems": {
            "empty": "the file is empty",
            "missing": "the file cannot be found",
            "header": "the first row must be {detail}",
            "columns": "it has {detail} columns instead of 5; row skipped",
            "word": "the word is missing; row skipped",
            "number": "a value of “{detail}” is not a number; row skipped",
            "range": "a value of “{detail}” is outside 0–1; row skipped",
            "duplicate": "repeated word (the first definition holds); row skipped",
        },
        "query_aria": "The question",
        "announce_looks": "“{word}” looks at: {items}.",
        "announce_item": "{word}: {pct} percent",
        "announce_more": "{n} more words under 1 percent",
        "percent_text": "{pct} percent",
        "share_heading": "Share and export",
        "copy_link": "Copy link",
        "copy_embed": "Copy embed code",
        "export_csv": "Download the table (CSV)",
        "share_text_label": "Text to copy",
        "copied": "Copied to the clipboard.",
        "copy_manual": "The browser does not allow copying from here: the text is selected above, copy it with Ctrl+C (⌘+C on a Mac).",
        "downloaded": "Table downloaded: {file}",
        "embed_title": "Attention Explorer: where a word looks",
        "help_summary": "What is this?",
        "open_top": "Open in a new tab",
        "help_aria": "Help: what this page shows",
        "error_handler": "Something went wrong in this computation ({error}). Try again: the page still works.",
    },
}

# Heads, hands-on matrices, matrix mode and word order (app/heads.py, app/matrices.py,
# app/views/heads.py, app/views/editor.py, app/views/matrix_mode.py).
STRINGS["it"].update({
    "head_name_who-does-what": "Chi fa cosa",
    "head_about_who-does-what": "Un verbo cerca chi fa l'azione, un essere vivo la sua azione, una cosa l'azione che la riguarda.",
    "head_name_pointers": "Rimandi",
    "head_about_pointers": "Una parolina (articolo, preposizione, pronome) cerca i nomi, e un nome cerca la parolina che lo annuncia; i verbi qui non chiedono niente.",
    "head_name_what-and-where": "Che cosa e dove",
    "head_about_what-and-where": "Un verbo cerca la cosa su cui agisce o il luogo; una cosa cerca l'azione che subisce; le paroline tacciono.",
    "head_name_like-with-like": "Simile cerca simile",
    "head_about_like-with-like": "Ogni parola cerca quelle del suo stesso tipo: verbi con verbi, nomi con nomi (W_Q = 3 · identità).",
    "head": "Testa (head)",
    "head_hint": "ogni testa cerca un tipo di relazione",
    "heads_heading": "Le teste a confronto: dove guarda «{word}»",
    "heads_help": "La stessa parola, le stesse carte: ogni testa ha la sua W_Q e quindi guarda parole diverse.",
    "heads_active": "attiva",
    "heads_top": "guarda soprattutto {word} ({pct})",
    "heads_nobody": "nessun candidato",
    "multi_heading": "Uscita multi-testa di «{word}»",
    "multi_shapes": "{h} teste, ognuna n×4 ({n}×4) → concatenate: n×{hd} ({n}×{hd}) → · W_O ({hd}×4) → n×4 ({n}×4)",
    "multi_line": "concat · W_O = {vector}",
    "multi_wo": "Qui W_O è disegnata: fa la media delle {h} teste (blocchi identità divisi per {h}).",
    "multi_learned": "In un modello vero W_Q, W_K, W_V e W_O non sono disegnate a mano: si imparano durante l'addestramento.",
    "multi_no_row": "Una testa senza candidati per questa parola contribuisce con zeri.",
    "wo_summary": "La matrice W_O ({hd}×4)",
    "wo_caption": "W_O: uscita = concat · W_O",
    "edit_heading": "Modifica le matrici e le carte",
    "edit_help": "Vai su una cella (clic o Tab), scrivi un numero, poi Invio o Tab per confermare, Esc per annullare. La pagina ricalcola subito; i valori cambiati sono segnati con ✎.",
    "edit_caption": "{name} della testa «{head}»",
    "edit_cards_caption": "Le carte delle parole",
    "cell_label": "{matrix}, riga {row}, colonna {col}",
    "edited_mark": "modificato",
    "reset_edits": "Torna ai valori disegnati",
    "cell_empty": "Cella vuota: scrivi un numero.",
    "cell_not_number": "«{value}» non è un numero.",
    "cell_not_finite": "«{value}» non è un numero finito: scrivi un numero normale.",
    "cell_too_big": "«{value}» è troppo grande: al massimo 1.000.000 in valore assoluto.",
    "cell_many": "«{value}»: un solo numero per cella (i decimali con la virgola: 1,5).",
    "cell_kept": "Il numero in uso resta {value}.",
    "matrix_empty": "La matrice è vuota: scrivi almeno una riga di numeri.",
    "matrix_ragged": "La riga {row} ha {count} numeri, la prima riga {first}.",
    "matrix_too_many_rows": "{count} righe: al massimo {limit}.",
    "matrix_too_many_cols": "{count} colonne: al massimo {limit} (d_k e d_v ≤ 8).",
    "matrix_width": "{count} colonne: qui ne servono {expected}.",
    "matrix_in_row": "Riga {row}: {message}",
    "shape_qk": "Q ha {dq} colonne e K ne ha {dk}: per fare QKᵀ devono essere uguali (sono d_k).",
    "shape_kv": "K ha {nk} righe e V ne ha {nv}: ogni chiave ha il suo valore, devono essere uguali.",
    "link_cards_bad": "Il link contiene carte per {count} parole, ma la frase ne ha {words}: uso le carte del lessico.",
    "link_matrices_bad": "Le matrici del link non si possono moltiplicare ({why}): uso l'esempio della lezione.",
    "mode": "Modalità",
    "mode_sentence": "Una frase",
    "mode_matrix": "Matrici Q, K, V",
    "mm_heading": "Scrivi Q, K e V",
    "mm_intro": "Niente frase e niente lessico: scrivi o incolla le matrici, come nell'esercizio della lezione. Se lasci K vuota, K = Q; se lasci V vuota, V = K.",
    "mm_formats": "Formati: una riga per linea con numeri separati da spazi (1 0,5), oppure [[1, 0], [0, 1]], oppure 1,0;0,1. Virgola o punto per i decimali. Al massimo 16 righe e 8 colonne.",
    "mm_label_q": "Q (query: una riga per chi chiede)",
    "mm_label_k": "K (chiavi: una riga per chi viene guardato)",
    "mm_label_v": "V (valori: una riga per chiave)",
    "mm_apply": "Calcola",
    "mm_random": "Casuale",
    "mm_random_note": "Matrici casuali (seme {seed}): Q, K e V sono 8×4, ogni numero è un intero da −2 a 2 estratto con la stessa probabilità. Lo stesso seme nel link ridà le stesse matrici.",
    "mm_examples": "Esempi svolti",
    "mm_example_pick": "— esempi —",
    "mm_example_lesson": "La lezione: 3 token, d_k = 2",
    "mm_example_cross": "Cross-attention: 2 query, 3 chiavi",
    "mm_rows_legend": "Scegli una riga di Q",
    "mm_steps_heading": "Ogni passo, con la sua forma",
    "mm_step_q": "Q ({nq}×{dk})",
    "mm_step_k": "K ({nk}×{dk})",
    "mm_step_v": "V ({nk}×{dv})",
    "mm_step_dots": "Q ({nq}×{dk}) · Kᵀ ({dk}×{nk}) = QKᵀ ({nq}×{nk})",
    "mm_step_scale": "QKᵀ ÷ {divisor} = logit ({nq}×{nk})",
    "mm_step_mask": "La maschera causale ({nq}×{nk}): 0 dove la riga guarda, −∞ dove non può (si somma ai logit)",
    "mm_mask_off": "Maschera causale spenta: nessun −∞.",
    "mm_mask_cross": "La maschera causale non c'è: n_q = {nq} e n_k = {nk} sono diversi (cross-attention: le chiavi vengono da un'altra sequenza, non c'è un «prima» e un «dopo»).",
    "mm_step_softmax": "softmax di ogni riga = pesi ({nq}×{nk}): ogni riga somma 1",
    "mm_step_output": "pesi ({nq}×{nk}) · V ({nk}×{dv}) = uscita ({nq}×{dv})",
    "mm_col": "k{j}",
    "mm_row": "q{i}",
    "mm_out_col": "v{j}",
    "mm_limits": "Limiti: n ≤ 16 righe, d_k e d_v ≤ 8 colonne, numeri finiti fino a 1.000.000.",
    "cmp_heading": "Confronta con i tuoi numeri",
    "cmp_help": "Incolla una matrice (per esempio quella stampata nella lezione) e scegli con quale passo confrontarla: le celle che differiscono di più di mezza unità dell'ultima cifra che hai scritto vengono segnate.",
    "cmp_label": "I tuoi numeri",
    "cmp_step": "Confronta con",
    "cmp_button": "Confronta",
    "cmp_weights": "pesi",
    "cmp_output": "uscita",
    "cmp_logits": "logit",
    "cmp_dots": "QKᵀ",
    "cmp_all_ok": "Tutte le {n} celle coincidono, alle cifre che hai scritto.",
    "cmp_some": "{bad} celle su {n} non coincidono: sono segnate con ✗.",
    "cmp_shape": "La tua matrice è {r}×{c}, ma «{step}» è {rr}×{cc}.",
    "cmp_cell_bad": "✗ {typed} (la pagina: {value})",
    "cmp_cell_ok": "✓ {typed}",
    "cmp_caption": "Il confronto con «{step}»",
    "pos": "Distanza (pos)",
    "pos_hint": "togli m·|i − j| al logit: le parole vicine contano di più",
    "pos_value": "m = {m}",
    "pos_off": "spenta",
    "pos_line": "I modelli veri conoscono l'ordine delle parole grazie alle codifiche di posizione (sinusoidi, RoPE) o a penalità di distanza come questa (ALiBi).",
    "formula_pos": "{formula}; poi −{m}·|i − j| sul logit",
    "col_bias": "−m·|i−j|",
    "order_heading": "L'ordine delle parole",
    "order_help": "Per l'attention da sola «il gatto insegue il topo» e «il topo insegue il gatto» sono la stessa cosa: scambia due parole e guarda i pesi.",
    "swap-a": "Scambia",
    "swap-b": "con",
    "swap": "Scambia",
    "order_moved": "Scambiate «{a}» e «{b}»: ogni peso si è spostato con le sue parole, identico. Senza maschera e senza distanza l'attention non vede l'ordine.",
    "order_mask": "Scambiate «{a}» e «{b}»: con la maschera causale i pesi sono cambiati, non solo spostati, perché la maschera sa chi viene prima e chi dopo.",
    "order_bias": "Scambiate «{a}» e «{b}»: con la distanza (pos) accesa i pesi sono cambiati, non solo spostati, perché la distanza conosce le posizioni.",
    "l2_heading": "Un secondo strato",
    "l2_intro": "Nel giocattolo le carte sono fisse; in un transformer vero il vettore che entra nello strato 2 porta già il suo contesto. Qui lo strato 2 prende come carte le uscite multi-testa dello strato 1: la stessa parola entra con una carta diversa in frasi diverse, e lo strato 2 guarda di conseguenza.",
    "l2_shapes": "strato 1: carte ({n}×4) → {h} teste → uscita multi-testa ({n}×4) = carte dello strato 2 ({n}×4) → testa «{head}»: pesi ({n}×{n}) → uscita ({n}×4)",
    "l2_card1": "carta, strato 1",
    "l2_card2": "carta, strato 2",
    "l2_w1": "«{word}» guarda, strato 1",
    "l2_w2": "«{word}» guarda, strato 2",
    "l2_caption": "Le carte nei due strati e dove guarda «{word}»",
    "heads_long": "Oltre {n} parole la pagina calcola solo la testa scelta (e nessun secondo strato), per restare veloce.",
})

STRINGS["en"].update({
    "head_name_who-does-what": "Who does what",
    "head_about_who-does-what": "A verb looks for who does it, a living being for its action, a thing for the action on it.",
    "head_name_pointers": "Pointers",
    "head_about_pointers": "A little word (article, preposition, pronoun) looks for nouns, and a noun looks for the little word that announces it; verbs ask nothing here.",
    "head_name_what-and-where": "What and where",
    "head_about_what-and-where": "A verb looks for the thing it acts on or the place; a thing looks for what is done to it; little words stay silent.",
    "head_name_like-with-like": "Like with like",
    "head_about_like-with-like": "Every word looks for words of its own kind: verbs for verbs, nouns for nouns (W_Q = 3 · identity).",
    "head": "Head",
    "head_hint": "each head looks for one kind of relation",
    "heads_heading": "The heads side by side: where “{word}” looks",
    "heads_help": "The same word, the same cards: each head has its own W_Q, so it looks at different words.",
    "heads_active": "active",
    "heads_top": "looks mostly at {word} ({pct})",
    "heads_nobody": "no candidate",
    "multi_heading": "Multi-head output of “{word}”",
    "multi_shapes": "{h} heads, each n×4 ({n}×4) → concatenated: n×{hd} ({n}×{hd}) → · W_O ({hd}×4) → n×4 ({n}×4)",
    "multi_line": "concat · W_O = {vector}",
    "multi_wo": "Here W_O is designed: it averages the {h} heads (identity blocks divided by {h}).",
    "multi_learned": "In a real model W_Q, W_K, W_V and W_O are not designed by hand: they are learned in training.",
    "multi_no_row": "A head with no candidate for this word contributes zeros.",
    "wo_summary": "The matrix W_O ({hd}×4)",
    "wo_caption": "W_O: output = concat · W_O",
    "edit_heading": "Edit the matrices and the cards",
    "edit_help": "Go to a cell (click or Tab), type a number, then Enter or Tab to confirm, Escape to cancel. The page recomputes at once; changed values are marked ✎.",
    "edit_caption": "{name} of the “{head}” head",
    "edit_cards_caption": "The words' cards",
    "cell_label": "{matrix}, row {row}, column {col}",
    "edited_mark": "changed",
    "reset_edits": "Back to the designed values",
    "cell_empty": "Empty cell: type a number.",
    "cell_not_number": "“{value}” is not a number.",
    "cell_not_finite": "“{value}” is not a finite number: type an ordinary number.",
    "cell_too_big": "“{value}” is too large: at most 1,000,000 in absolute value.",
    "cell_many": "“{value}”: one number per cell (decimals with a point: 1.5).",
    "cell_kept": "The number in use stays {value}.",
    "matrix_empty": "The matrix is empty: type at least one row of numbers.",
    "matrix_ragged": "Row {row} has {count} numbers, the first row {first}.",
    "matrix_too_many_rows": "{count} rows: at most {limit}.",
    "matrix_too_many_cols": "{count} columns: at most {limit} (d_k and d_v ≤ 8).",
    "matrix_width": "{count} columns: {expected} are needed here.",
    "matrix_in_row": "Row {row}: {message}",
    "shape_qk": "Q has {dq} columns and K has {dk}: for QKᵀ they must be equal (they are d_k).",
    "shape_kv": "K has {nk} rows and V has {nv}: every key has its value, they must be equal.",
    "link_cards_bad": "The link has cards for {count} words, but the sentence has {words}: using the lexicon's cards.",
    "link_matrices_bad": "The link's matrices cannot be multiplied ({why}): using the lesson's example.",
    "mode": "Mode",
    "mode_sentence": "A sentence",
    "mode_matrix": "Matrices Q, K, V",
    "mm_heading": "Type Q, K and V",
    "mm_intro": "No sentence and no lexicon: type or paste the matrices, as in the lesson's exercise. Leave K empty for K = Q; leave V empty for V = K.",
    "mm_formats": "Formats: one row a line with numbers separated by spaces (1 0.5), or [[1, 0], [0, 1]], or 1,0;0,1. A point or a comma for decimals. At most 16 rows and 8 columns.",
    "mm_label_q": "Q (queries: one row per asking token)",
    "mm_label_k": "K (keys: one row per token looked at)",
    "mm_label_v": "V (values: one row per key)",
    "mm_apply": "Compute",
    "mm_random": "Random",
    "mm_random_note": "Random matrices (seed {seed}): Q, K and V are 8×4, every number a whole number from −2 to 2, each equally likely. The same seed in the link gives the same matrices back.",
    "mm_examples": "Worked examples",
    "mm_example_pick": "— examples —",
    "mm_example_lesson": "The lesson: 3 tokens, d_k = 2",
    "mm_example_cross": "Cross-attention: 2 queries, 3 keys",
    "mm_rows_legend": "Choose a row of Q",
    "mm_steps_heading": "Every step, with its shape",
    "mm_step_q": "Q ({nq}×{dk})",
    "mm_step_k": "K ({nk}×{dk})",
    "mm_step_v": "V ({nk}×{dv})",
    "mm_step_dots": "Q ({nq}×{dk}) · Kᵀ ({dk}×{nk}) = QKᵀ ({nq}×{nk})",
    "mm_step_scale": "QKᵀ ÷ {divisor} = logits ({nq}×{nk})",
    "mm_step_mask": "The causal mask ({nq}×{nk}): 0 where the row looks, −∞ where it cannot (added to the logits)",
    "mm_mask_off": "Causal mask off: no −∞.",
    "mm_mask_cross": "No causal mask: n_q = {nq} and n_k = {nk} differ (cross-attention: the keys come from another sequence, there is no “before” and “after”).",
    "mm_step_softmax": "softmax of every row = weights ({nq}×{nk}): every row sums to 1",
    "mm_step_output": "weights ({nq}×{nk}) · V ({nk}×{dv}) = output ({nq}×{dv})",
    "mm_col": "k{j}",
    "mm_row": "q{i}",
    "mm_out_col": "v{j}",
    "mm_limits": "Limits: n ≤ 16 rows, d_k and d_v ≤ 8 columns, finite numbers up to 1,000,000.",
    "cmp_heading": "Compare with your numbers",
    "cmp_help": "Paste a matrix (for example the one printed in the lesson) and choose the step to compare it with: cells that differ by more than half a unit of the last digit you typed are marked.",
    "cmp_label": "Your numbers",
    "cmp_step": "Compare with",
    "cmp_button": "Compare",
    "cmp_weights": "weights",
    "cmp_output": "output",
    "cmp_logits": "logits",
    "cmp_dots": "QKᵀ",
    "cmp_all_ok": "All {n} cells match, to the digits you typed.",
    "cmp_some": "{bad} of {n} cells do not match: they are marked ✗.",
    "cmp_shape": "Your matrix is {r}×{c}, but “{step}” is {rr}×{cc}.",
    "cmp_cell_bad": "✗ {typed} (the page: {value})",
    "cmp_cell_ok": "✓ {typed}",
    "cmp_caption": "The comparison with “{step}”",
    "pos": "Distance (pos)",
    "pos_hint": "subtract m·|i − j| from the logit: nearby words count more",
    "pos_value": "m = {m}",
    "pos_off": "off",
    "pos_line": "Real models know word order through positional encodings (sinusoids, RoPE) or distance penalties like this one (ALiBi).",
    "formula_pos": "{formula}; then −{m}·|i − j| on the logit",
    "col_bias": "−m·|i−j|",
    "order_heading": "Word order",
    "order_help": "For attention alone “the cat chases the mouse” and “the mouse chases the cat” are the same thing: swap two words and watch the weights.",
    "swap-a": "Swap",
    "swap-b": "with",
    "swap": "Swap",
    "order_moved": "Swapped “{a}” and “{b}”: every weight moved with its words, unchanged. Without the mask and the distance, attention does not see order.",
    "order_mask": "Swapped “{a}” and “{b}”: with the causal mask the weights changed, not just moved, because the mask knows who comes before and after.",
    "order_bias": "Swapped “{a}” and “{b}”: with the distance (pos) on the weights changed, not just moved, because the distance knows the positions.",
    "l2_heading": "A second layer",
    "l2_intro": "In the toy the cards are fixed; in a real transformer the vector entering layer 2 already carries its context. Here layer 2 takes layer 1's multi-head outputs as its cards: the same word enters with a different card in different sentences, and layer 2 looks accordingly.",
    "l2_shapes": "layer 1: cards ({n}×4) → {h} heads → multi-head output ({n}×4) = layer 2's cards ({n}×4) → “{head}” head: weights ({n}×{n}) → output ({n}×4)",
    "l2_card1": "card, layer 1",
    "l2_card2": "card, layer 2",
    "l2_w1": "“{word}” looks, layer 1",
    "l2_w2": "“{word}” looks, layer 2",
    "l2_caption": "The cards in both layers and where “{word}” looks",
    "heads_long": "Past {n} words the page computes only the chosen head (and no second layer), to stay fast.",
})


# Guess first (app/quiz.py, app/views/quiz.py), exercise links, the terminal and the notebook.
STRINGS["it"].update({
    "quiz": "Prima indovina",
    "quiz_hint": "la risposta resta nascosta finché non scegli la parola più guardata",
    "quiz_heading": "Prima indovina: dove guarderà di più «{word}»?",
    "quiz_legend": "La parola a cui «{word}» darà più attenzione",
    "quiz_pct_label": "Quanto, più o meno? (facoltativo)",
    "quiz_pct_none": "— non dico —",
    "quiz_pct_about": "circa {pct}",
    "quiz_submit": "Mostra la risposta",
    "quiz_need_guess": "Scegli prima una parola: poi vedrai la risposta.",
    "quiz_prompt": "Prima indovina: a quale parola {word} darà più attenzione? Poi vedrai la risposta.",
    "quiz_feedback_heading": "La tua ipotesi",
    "quiz_right": "Hai indovinato: {word} riceve più attenzione di tutte ({pct}).",
    "quiz_right_tie": "Hai indovinato: {words} sono alla pari ({pct}), e vale ognuna.",
    "quiz_wrong": "Non proprio: la più guardata è {words} ({pct}); {guess} riceve il {guess_pct}.",
    "quiz_decided": "Ha deciso il prodotto di «{feature}»: {q} × {k} = {p} per {winner}, contro {q} × {k2} = {p2} per {guess}.",
    "quiz_decided_right": "Il prodotto che pesa di più è quello di «{feature}»: {q} × {k} = {p} per {winner}.",
    "quiz_pct_said": "Avevi detto circa {said} per {word}: è {pct}.",
    "quiz_score": "Punteggio: {right} su {tried}",
    "quiz_reset": "Azzera il punteggio",
    "quiz_next": "Prossima parola",
    "quiz_score_reset": "Punteggio azzerato.",
    "copy_exercise": "Copia il link dell'esercizio",
    "copy_exercise_embed": "Copia l'esercizio da incorporare",
    "cli_pick": "Scegli una parola con --focus N:",
    "cli_refused": "Correggi l'opzione e riprova: non stampo numeri diversi da quelli chiesti.",
})
STRINGS["en"].update({
    "quiz": "Guess first",
    "quiz_hint": "the answer stays hidden until you pick the word that gets the most attention",
    "quiz_heading": "Guess first: where will “{word}” look most?",
    "quiz_legend": "The word “{word}” will give the most attention to",
    "quiz_pct_label": "How much, roughly? (optional)",
    "quiz_pct_none": "— not saying —",
    "quiz_pct_about": "about {pct}",
    "quiz_submit": "Show the answer",
    "quiz_need_guess": "Pick a word first: then you will see the answer.",
    "quiz_prompt": "Guess first: which word will {word} give the most attention to? Then you will see the answer.",
    "quiz_feedback_heading": "Your guess",
    "quiz_right": "Right: {word} gets the most attention of all ({pct}).",
    "quiz_right_tie": "Right: {words} tie ({pct}), and either one counts.",
    "quiz_wrong": "Not quite: the word looked at most is {words} ({pct}); {guess} gets {guess_pct}.",
    "quiz_decided": "The product that decided it is “{feature}”: {q} × {k} = {p} for {winner}, against {q} × {k2} = {p2} for {guess}.",
    "quiz_decided_right": "The product that weighs most is “{feature}”: {q} × {k} = {p} for {winner}.",
    "quiz_pct_said": "You said about {said} for {word}: it is {pct}.",
    "quiz_score": "Score: {right} out of {tried}",
    "quiz_reset": "Reset the score",
    "quiz_next": "Next word",
    "quiz_score_reset": "Score reset.",
    "copy_exercise": "Copy exercise link",
    "copy_exercise_embed": "Copy exercise embed code",
    "cli_pick": "Pick a word with --focus N:",
    "cli_refused": "Fix the option and try again: no numbers are printed for settings you did not ask for.",
})


def text(lang, key, **params):
    """The string `key` in `lang`, with `{name}` placeholders filled."""
    template = STRINGS[lang][key]
    return template.format(**params) if params else template


def half_up(x, decimals):
    """|x| × 10**decimals as a whole number, by the page's rounding rule.

    The rule (README, "Numbers on the page"): write the number with 15 significant
    digits, then round half up to the digits shown. 0.2875 → 0.287500000000000 → 0.288
    (plain float formatting gives 0.287, since 0.2875 is 0.28749999… in binary). Integer
    arithmetic on the 15 digits: the browser's trimmed standard library has no `decimal`.
    """
    mantissa, exponent = format(abs(x), ".14e").split("e")  # d.dddddddddddddd, 15 digits
    digits = int(mantissa.replace(".", ""))
    shift = int(exponent) - 14 + decimals  # |x|·10**decimals = digits · 10**shift
    if shift >= 0:
        return digits * 10 ** shift
    whole, rest = divmod(digits, 10 ** -shift)
    return whole + (1 if 2 * rest >= 10 ** -shift else 0)


@functools.lru_cache(maxsize=8192)  # cards repeat the same few values: format each once
def num(x, lang, decimals=3):
    """A number with `decimals` digits, the language's decimal mark and a true minus sign,
    rounded by `half_up`'s rule (1,995 ÷ 2 = 0,9975 shows as 0,998)."""
    whole = half_up(x, decimals)
    digits = str(whole).rjust(decimals + 1, "0")
    s = digits[:len(digits) - decimals] + ("." + digits[len(digits) - decimals:] if decimals else "")
    if x < 0 and whole:
        s = "−" + s  # no "−0,000"
    return s.replace(".", ",") if lang == "it" else s


def percent(weight, lang, decimals=0):
    """100 × weight, rounded half up on its own to `decimals` digits, with '%': 42,4%."""
    return num(100.0 * weight, lang, decimals) + "%"


@functools.lru_cache(maxsize=8192)
def short(x, lang, decimals=3):
    """A number with at most `decimals` digits and no trailing zeros: 0,9 · 1 · 0,125."""
    s = num(x, lang, decimals)
    mark = "," if lang == "it" else "."
    if mark in s:
        s = s.rstrip("0").rstrip(mark)
    return "0" if s in ("−0", "") else s


def join_words(items, lang):
    """'a', 'a e b', 'a, b e c' (English: 'a, b and c')."""
    items = list(items)
    if len(items) <= 1:
        return "".join(items)
    conj = STRINGS[lang]["and"]
    if lang == "it" and items[-1][:1].lower() == "e":
        conj = "ed"  # "azioni ed esseri viventi"
    return ", ".join(items[:-1]) + f" {conj} " + items[-1]
# Loading and failure messages, shown by static/boot.js before Python is up (the build writes
# them into index.html: tools/build.py, boot_strings).
STRINGS["it"].update({
    "boot_start": "Avvio di Python nel browser…",
    "boot_start_link": "Avvio di Python nel browser… Qui sotto c'è l'esempio iniziale: appena pronto, mostro quello che chiede il link.",
    "boot_stage_pyodide": "Avvio di Python: preparo l'interprete…",
    "boot_stage_storage": "Avvio di Python: preparo la memoria…",
    "boot_stage_interpreter": "Avvio di Python: scarico e avvio l'interprete (qualche secondo)…",
    "boot_stage_loaded": "Avvio di Python: carico il programma della pagina…",
    "boot_slow": "Python ci sta mettendo più del solito ad avviarsi. L'esempio qui sotto è già calcolato; attendi ancora qualche secondo o ricarica la pagina.",
    "boot_failed": "Non è stato possibile avviare Python in questo browser, quindi la pagina non può ricalcolare. L'esempio qui sotto resta leggibile. Ricarica la pagina o prova con un altro browser; se succede sempre, la rete della scuola potrebbe bloccare i file .wasm.",
    "boot_framed_way_out": "Se la pagina è incorporata in quella di un corso, il browser può impedirle di avviare Python qui dentro: aprila in una nuova scheda.",
    "boot_sandboxed": "Questa pagina è in un riquadro protetto (sandbox) e il sito che la ospita non le permette di caricare i suoi programmi da lì (manca l'intestazione Access-Control-Allow-Origin). L'esempio qui sotto resta leggibile. Per usare la pagina, aprila in una nuova scheda.",
    "boot_address": "Oppure copia questo indirizzo",
})
STRINGS["en"].update({
    "boot_start": "Starting Python in the browser…",
    "boot_start_link": "Starting Python in the browser… Below is the first example: once ready, the page shows what the link asks for.",
    "boot_stage_pyodide": "Starting Python: preparing the interpreter…",
    "boot_stage_storage": "Starting Python: preparing storage…",
    "boot_stage_interpreter": "Starting Python: downloading and starting the interpreter (a few seconds)…",
    "boot_stage_loaded": "Starting Python: loading the page's program…",
    "boot_slow": "Python is taking longer than usual to start. The example below is already computed; wait a few more seconds or reload the page.",
    "boot_failed": "Python could not start in this browser, so the page cannot recompute. The example below stays readable. Reload the page or try another browser; if it keeps happening, the school network may be blocking .wasm files.",
    "boot_framed_way_out": "If this page is embedded in a course page, the browser may forbid it to start Python in here: open it in a new tab.",
    "boot_sandboxed": "This page is in a protected frame (sandbox), and the site that hosts it does not let it load its programs from there (the Access-Control-Allow-Origin header is missing). The example below stays readable. To use the page, open it in a new tab.",
    "boot_address": "Or copy this address",
})
# What each of PyScript's progress steps (its event's text) says, in that order.
BOOT_STAGES = {"Loading Pyodide": "boot_stage_pyodide", "Loading Storage": "boot_stage_storage",
               "Loading interpreter": "boot_stage_interpreter", "Loaded interpreter": "boot_stage_loaded"}


def boot_strings():
    """What static/boot.js says before Python is up, for each language: {lang: {key: text}} with
    its stages by PyScript's progress text; the build writes it into index.html."""
    keys = {"start": "boot_start", "startLink": "boot_start_link", "slow": "boot_slow", "failed": "boot_failed",
            "framedWayOut": "boot_framed_way_out", "sandboxed": "boot_sandboxed", "newTab": "open_top",
            "address": "boot_address"}
    return {lang: {**{name: text(lang, key) for name, key in keys.items()},
                   "stages": {step: text(lang, key) for step, key in BOOT_STAGES.items()}} for lang in LANGS}
