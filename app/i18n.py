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
        ("Lucia ha preso la mela e l'ha mangiata", 6),
        ("Il cane rincorre la palla nel giardino", 2),
        ("La maestra legge una storia ai bambini", 2),
    ],
    "en": [
        ("The cat sat on the mat and slept", 7),
        ("Lucy took the apple and ate it", 6),
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
            "confrontata con le carte delle altre parole. I punteggi diventano percentuali "
            "che sommano a 100. Il conto è fatto adesso, in Python, nel tuo browser."
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
        "mask_hint": "ogni parola guarda solo quelle che vengono prima, come in GPT",
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
            "noun": "parola sconosciuta: trattata come una cosa",
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
        "no_candidates_alone": "«{word}» è l'unica parola: non ce n'è un'altra da guardare.",
        "one_candidate": (
            "Resta un solo candidato, «{other}»: la softmax di un solo numero vale 1, quindi il "
            "100% è aritmetica, non una preferenza."
        ),
        "steps_heading": "I passaggi del calcolo",
        "formula": "pesi = softmax(QKᵀ / √d_k), con d_k = 4, quindi √d_k = 2",
        "table_caption": "Passaggi per «{word}»: prodotto scalare, divisione per 2, esponenziale, percentuale",
        "col_word": "Parola",
        "col_card": "Carta k",
        "col_products": "q · k scritto per esteso",
        "col_dot": "q · k",
        "col_logit": "logit = q·k ÷ 2",
        "col_exp": "e^logit",
        "col_weight": "peso = e^logit ÷ Σ",
        "col_percent": "%",
        "total": "Totale",
        "masked_logit": "−∞ (maschera)",
        "wq_summary": "La matrice delle domande W_Q (riga: la caratteristica di chi chiede; colonna: che cosa cerca)",
        "wq_caption": "W_Q: q = x · W_Q",
        "wq_row": "ha",
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
        "link_flag_bad": "Il link contiene «{name}={value}», che non capisco: uso «{name}=0».",
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
            "other words' cards. The scores become percentages that add up to 100. The "
            "computation runs now, in Python, in your browser."
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
        "mask_hint": "each word looks only at the words before it, as in GPT",
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
            "noun": "unknown word: treated as a thing",
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
        "no_candidates_alone": "“{word}” is the only word: there is no other word to look at.",
        "one_candidate": (
            "Only one candidate is left, “{other}”: the softmax of a single number is 1, so the "
            "100% is arithmetic, not a preference."
        ),
        "steps_heading": "The steps of the computation",
        "formula": "weights = softmax(QKᵀ / √d_k), with d_k = 4, so √d_k = 2",
        "table_caption": "Steps for “{word}”: dot product, divide by 2, exponential, percentage",
        "col_word": "Word",
        "col_card": "Card k",
        "col_products": "q · k written out",
        "col_dot": "q · k",
        "col_logit": "logit = q·k ÷ 2",
        "col_exp": "e^logit",
        "col_weight": "weight = e^logit ÷ Σ",
        "col_percent": "%",
        "total": "Total",
        "masked_logit": "−∞ (mask)",
        "wq_summary": "The question matrix W_Q (row: the feature of the asking word; column: what it looks for)",
        "wq_caption": "W_Q: q = x · W_Q",
        "wq_row": "has",
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
        "link_flag_bad": "The link contains “{name}={value}”, which I do not understand: using “{name}=0”.",
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
        "help_aria": "Help: what this page shows",
        "error_handler": "Something went wrong in this computation ({error}). Try again: the page still works.",
    },
}


def text(lang, key, **params):
    """The string `key` in `lang`, with `{name}` placeholders filled."""
    template = STRINGS[lang][key]
    return template.format(**params) if params else template


@functools.lru_cache(maxsize=8192)  # cards repeat the same few values: format each once
def num(x, lang, decimals=3):
    """A number with `decimals` digits, the language's decimal mark and a true minus sign.

    Rounded half up on its decimal value, as a student rounds by hand: 1,995 ÷ 2 = 0,9975
    shows as 0,998 (plain float formatting gives 0,997, since 0.9975 is 0.99749999… in
    binary). The binary noise is dropped first by writing the number to 12 decimals.
    """
    noise = 12 - decimals
    scaled = int(f"{abs(x):.12f}".replace(".", ""))  # |x| × 10**12, exact
    whole, rest = divmod(scaled, 10 ** noise)
    if rest * 2 >= 10 ** noise:
        whole += 1
    digits = str(whole).rjust(decimals + 1, "0")
    s = digits[:len(digits) - decimals] + ("." + digits[len(digits) - decimals:] if decimals else "")
    if x < 0 and whole:
        s = "−" + s  # no "−0,000"
    return s.replace(".", ",") if lang == "it" else s


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
    return ", ".join(items[:-1]) + f" {STRINGS[lang]['and']} " + items[-1]
