"""Words to cards: the tokenizer, the lexicon files, and reasoned guesses for unknown words.

A language's lexicon comes from two files, both read by the page at run time:

- the generated lexicon (`lexicon/gpl/it.txt`, `lexicon/cc-by-sa/en.txt`), built from real
  lexical resources by `make lexicon` (tools/lexicon_build.py; format in
  docs/lexicon-format.md): about 16,000 Italian and 18,000 English word forms, plus lists of
  common first names and places;
- the teacher's override (`lexicon/it.csv`, `lexicon/en.csv`), a small CSV a course author
  opens in a spreadsheet: a header row `word,alive,action,thing,function`, then one word a
  row with four numbers in [0, 1]. Lines starting with `#` are comments. A file saved by an
  Italian spreadsheet (`;` between columns, decimal comma) is read too. Its rows win over
  the generated ones. Bad rows are skipped and reported with file and line; they never stop
  the page.

In the browser a language's two files come when a message first needs its lexicon (pyscript.toml's
`[later.<lang>]`: the page's own language while Python starts, the other one on the first switch to
it): the engine's `Lexicons` raise `Needed` for a language whose files are not here yet, and
app/page.py undoes the message, static/engine.js fetches them and sends it again.

A word in neither file gets a card from the rules below, flagged `known = False` with the
reason of the guess (the key of `i18n.STRINGS[lang]["guess"]`), in this order:

1. no letter: a number or a symbol; only punctuation: the punctuation card (known);
2. a capitalised word that is in the names list: a first name (alive) or a place (thing);
   any other capitalised word inside a sentence: a proper name (alive);
3. morphology, always ending on a word the lexicon knows: Italian enclitic pronouns
   (dammelo -> dare, vederlo -> vedere), conjugated verbs -> their infinitive (spiegherebbe
   -> spiegare), plural and feminine -> the lemma (fredde -> freddo); English plurals,
   -ed, -ing, comparatives, -er/-or agent nouns of a known verb (a person), and compounds
   of two known words (snowman -> man);
4. a capitalised word at the start of a sentence that is no form of a known word: a name;
5. endings that only a verb, an adverb, an abstract noun or a person has (-erebbe, -mente,
   -zione, -ista, ...);
6. otherwise the default guess: a thing ("noun").
"""

import csv
import math
import os
import unicodedata

from app.attention import D_K, FEATURES
from app.i18n import LANGS  # noqa: F401 - the lexicons' languages are the page's
HEADER = ("word",) + FEATURES
LEXICON_DIR = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "lexicon")
# The generated lexicon of each language, relative to LEXICON_DIR (in its licence's folder).
GENERATED = {"it": "gpl/it.txt", "en": "cc-by-sa/en.txt"}
APOSTROPHES = "'’ʼ`´"
NAME_CLASSES = ("name", "place")  # classes of the generated file that hold capitalised names


class Token:
    """One token of the sentence: the text as typed, its card, and how we got the card."""

    __slots__ = ("text", "card", "known", "guess")

    def __init__(self, text, card, known, guess=None):
        self.text = text  # as the user typed it (after Unicode clean-up)
        self.card = card  # list of D_K floats in [0, 1]
        self.known = known  # True when the card comes from a lexicon file
        self.guess = guess  # None, or the key of the rule that guessed the card

    def __repr__(self):
        return f"Token({self.text!r}, {self.card}, known={self.known}, guess={self.guess!r})"


class Problem:
    """A row of a lexicon file that was skipped, with where it is and why."""

    __slots__ = ("file", "line", "key", "detail")

    def __init__(self, file, line, key, detail=""):
        self.file, self.line, self.key, self.detail = file, line, key, detail

    def __repr__(self):
        return f"Problem({self.file}:{self.line} {self.key} {self.detail!r})"


class Lexicon:
    """A language's words (lower case, apostrophe normalised), its names and the problems found."""

    def __init__(self, lang, entries, problems, names=None, other=None):
        self.lang = lang
        self.entries = entries  # word -> card (the override's rows already win)
        self.problems = problems  # list of Problem
        self.names = names or {}  # lower-case name -> (card, "name" or "place")
        self.other = other or {}  # word -> card of its other reading (a noun's verb, a verb's noun)
        self.fixed = set()  # words of the teacher's override: their card is never changed

    def __len__(self):
        return len(self.entries)

    def get(self, word):
        """The card of a word, or None; elided and truncated forms find their full word."""
        key = normalise(word)
        card = self.entries.get(key)
        if card is None:
            alias = _ALIASES[self.lang].get(key) if self.lang in _ALIASES else None
            if alias is None and self.lang == "it":
                alias = _italian_spelling(key, self.entries)
            if alias is not None:
                card = self.entries.get(alias)
        return card


_ACCENTED = {"a": "à", "e": "èé", "i": "ì", "o": "ò", "u": "ù"}


def _italian_spelling(key, entries):
    """The word a common Italian misspelling stands for, or None: perchè/poichè -> perché,
    a missing final accent (perche, piu, citta -> perché, più, città), a missing
    apostrophe (dell -> dell')."""
    if key.endswith("chè"):
        return key[:-1] + "é"
    if key[-1:] in _ACCENTED and len(key) > 1:
        for accented in _ACCENTED[key[-1]]:
            if key[:-1] + accented in entries:
                return key[:-1] + accented
    if key + "'" in entries:
        return key + "'"
    return None


# --- text clean-up and tokenizer -------------------------------------------------------

def clean_text(text):
    """NFC-normalise and drop characters that no one can see or type on purpose.

    Control characters (NUL, ...) become spaces, invisible format characters (zero-width
    spaces, joiners, direction marks, BOM) and lone surrogates are removed, and runs of
    white space fold into one space.
    """
    out = []
    for ch in unicodedata.normalize("NFC", text):
        cat = unicodedata.category(ch)
        if cat == "Cc" or ch in "\u2028\u2029":
            out.append(" ")
        elif cat in ("Cf", "Cs", "Co", "Cn"):
            continue
        else:
            out.append(ch)
    return " ".join("".join(out).split())


def normalise(word):
    """The lookup key of a word: lower case, any apostrophe as '."""
    for a in APOSTROPHES[1:]:
        word = word.replace(a, "'")
    return word.lower()


def _is_word_char(ch):
    return unicodedata.category(ch)[0] in "LNM" or ch == "_"


def _is_letter(ch):
    return unicodedata.category(ch)[0] in "LM"


# Italian words that keep a final apostrophe: "un po'", "a mo' di", "be'", "E' vero" (è),
# and the imperatives "va'", "di'", "fa'", "sta'", "da'".
_IT_TRUNCATED = {"po", "mo", "be", "e", "va", "di", "fa", "sta", "da"}
# English clitics split off like "do|n't", "cat|'s".
_EN_CLITICS = {"s", "re", "ve", "ll", "d", "m"}
# Forms the tokenizer produces that stand for a full word of the lexicon.
_ALIASES = {
    "it": {"c'": "ci", "dov'": "dove", "com'": "come", "cos'": "cosa", "quest'": "questo",
           "quell'": "quello", "s'": "si", "t'": "ti", "m'": "mi", "v'": "vi", "n'": "ne",
           "gl'": "gli", "sant'": "santo", "bell'": "bello", "buon'": "buono", "nessun'": "nessuno",
           "ciascun'": "ciascuno", "tutt'": "tutto", "senz'": "senza", "anch'": "anche",
           "mezz'": "mezzo", "po'": "poco", "mo'": "modo", "be'": "bene", "e'": "è",
           "va'": "andare", "di'": "dire", "fa'": "fare", "sta'": "stare", "da'": "dare"},
    "en": {"'t": "not", "n't": "not", "wo": "will", "sha": "shall", "ai": "is", "'ll": "will",
           "'re": "are", "'ve": "have", "'m": "am", "'d": "would"},
}
# Before these words, English "'s" is "is" (it's, he's, there's), or "us" (let's).
_EN_S_IS = {"it", "he", "she", "that", "what", "there", "here", "who", "where", "how", "when",
            "why", "this", "everything", "nothing", "something", "everyone", "nobody", "one"}


def _split_chunk(chunk, lang):
    """Split a run of non-space characters into tokens."""
    tokens, run, i, n = [], "", 0, len(chunk)
    while i < n:
        ch = chunk[i]
        nxt = chunk[i + 1] if i + 1 < n else ""
        if _is_word_char(ch):
            run += ch
        elif ch in APOSTROPHES and run:
            rest = chunk[i + 1:]
            word_after = ""
            for c in rest:
                if not _is_letter(c):
                    break
                word_after += c
            if lang == "it":
                if nxt and _is_letter(nxt):  # elision: l'acqua, dell'uomo, c'è, dov'è
                    tokens.append(run + ch)
                    run = ""
                elif run.lower() in _IT_TRUNCATED:  # un po', E' vero, va' via
                    tokens.append(run + ch)
                    run = ""
                else:  # a closing quote
                    tokens.append(run)
                    tokens.append(ch)
                    run = ""
            else:
                after = rest[len(word_after):]
                whole = not after or not (_is_word_char(after[0]) or after[0] in APOSTROPHES)
                low = run.lower()
                if word_after.lower() == "t" and low in ("can", "cannot") and whole:
                    tokens.append(run)  # can|'t: "can" + not, never "ca"
                    tokens.append(ch + word_after)
                    run, i = "", i + len(word_after)
                elif word_after.lower() == "t" and low.endswith("n") and len(run) > 1 and whole:
                    tokens.append(run[:-1])  # do|n't
                    tokens.append(run[-1] + ch + word_after)
                    run, i = "", i + len(word_after)
                elif word_after.lower() in _EN_CLITICS and whole:
                    tokens.append(run)  # cat|'s
                    tokens.append(ch + word_after)
                    run, i = "", i + len(word_after)
                elif word_after:  # O'Brien, rock'n'roll: one word
                    run += ch
                else:
                    tokens.append(run)
                    tokens.append(ch)
                    run = ""
        elif ch in "-‐" and run and nxt and _is_word_char(nxt):
            run += ch  # ex-presidente, well-known
        elif ch in ".," and run and run[-1].isdigit() and nxt.isdigit():
            run += ch  # 3,5 and 3.14
        elif ch == "." and nxt == ".":  # "..." (or "..") is one token
            if run:
                tokens.append(run)
                run = ""
            j = i
            while j < n and chunk[j] == ".":
                j += 1
            tokens.append(chunk[i:j])
            i = j
            continue
        else:
            if run:
                tokens.append(run)
                run = ""
            tokens.append(ch)  # punctuation, symbols and emoji stand alone
        i += 1
    if run:
        tokens.append(run)
    return tokens


def tokenize(text, lang="it"):
    """Words and punctuation of a sentence, in order.

    >>> tokenize("L'acqua, dell'uomo!")
    ["L'", 'acqua', ',', "dell'", 'uomo', '!']
    """
    tokens = []
    for chunk in clean_text(text).split(" "):
        if chunk:
            tokens.extend(_split_chunk(chunk, lang))
    return tokens


# --- guessing a card for an unknown word ------------------------------------------------

_VERB = [0.05, 0.9, 0.05, 0.0]
_PERSON = [0.9, 0.1, 0.1, 0.0]
_ABSTRACT = [0.05, 0.15, 0.8, 0.0]
_ADVERB = [0.0, 0.3, 0.0, 0.3]
_NOUN = [0.2, 0.1, 0.6, 0.1]
_PROPER_NAME = [0.9, 0.05, 0.1, 0.0]
_NUMBER = [0.0, 0.0, 0.6, 0.2]
_SYMBOL = [0.0, 0.0, 0.1, 0.2]
_PUNCTUATION = [0.0, 0.0, 0.0, 0.2]

# Endings that only one kind of word has, for words no rule above could trace to a known
# word: (key, endings, card). The first rule whose ending matches wins.
_RULES = {
    "it": [
        ("adverb", ("mente",), _ADVERB),
        ("gerund", ("ando", "endo"), _VERB),
        ("imperfect", ("avano", "evano", "ivano", "avamo", "evamo", "ivamo", "avate", "evate",
                       "ivate"), _VERB),
        ("past", ("arono", "erono", "irono", "ettero", "ò", "ì"), _VERB),
        ("future", ("eranno", "iranno", "eremo", "iremo", "erete", "irete", "erà", "irà", "erò",
                    "irò"), _VERB),
        ("conditional", ("erebbe", "erebbero", "irebbe", "irebbero", "eremmo", "iremmo"), _VERB),
        ("subjunctive", ("assero", "essero", "issero", "assimo", "essimo", "issimo"), _VERB),
        ("person", ("atore", "itore", "ttore", "trice", "ista", "iere", "iera"), _PERSON),
        ("abstract", ("zione", "sione", "mento", "menti", "ezza", "ismo", "tà"), _ABSTRACT),
        ("infinitive", ("are", "ere", "ire"), _VERB),
    ],
    "en": [
        ("adverb", ("ly",), _ADVERB),
        ("verb", ("ize", "ise", "ify"), _VERB),
        ("person", ("ist", "ian", "eer"), _PERSON),
        ("abstract", ("tion", "sion", "ment", "ness", "ity", "ism", "ship"), _ABSTRACT),
    ],
}

# Italian clitic pronouns that can be glued to a verb, longest first (dammelo, portarmelo).
_IT_CLITICS = sorted({c + p for c in ("me", "te", "se", "ce", "ve", "glie")
                      for p in ("lo", "la", "li", "le", "ne")}
                     | {"lo", "la", "li", "le", "ne", "mi", "ti", "si", "ci", "vi", "gli"},
                     key=len, reverse=True)
# Imperatives of one syllable that double the clitic's consonant: da' + mi = dammi.
_IT_SHORT_IMPERATIVES = {"da": "dare", "fa": "fare", "di": "dire", "sta": "stare", "va": "andare"}

# Italian verb endings -> the infinitive endings they can come from.
_ARE, _ERE, _IRE = ("are",), ("ere",), ("ire",)
_IT_VERB_ENDINGS = [
    # conditional and future (-are verbs take -er- too: parlerò, parlerebbe)
    (("erebbero", "erebbe", "eremmo", "ereste", "eresti", "erei", "eranno", "eremo", "erete",
      "erai", "erà", "erò"), _ARE + _ERE),
    (("irebbero", "irebbe", "iremmo", "ireste", "iresti", "irei", "iranno", "iremo", "irete",
      "irai", "irà", "irò"), _IRE),
    # imperfect indicative and subjunctive
    (("avano", "avamo", "avate", "avi", "ava", "avo", "assero", "assimo", "asse", "assi"), _ARE),
    (("evano", "evamo", "evate", "evi", "eva", "evo", "essero", "essimo", "esse", "essi"), _ERE),
    (("ivano", "ivamo", "ivate", "ivi", "iva", "ivo", "issero", "issimo", "isse", "issi"), _IRE),
    # passato remoto
    (("arono", "ammo", "aste", "asti", "ai", "ò"), _ARE),
    (("erono", "ettero", "emmo", "este", "esti", "ette", "etti", "ei", "é"), _ERE),
    (("irono", "immo", "iste", "isti", "ii", "ì"), _IRE),
    # gerund, participles
    (("ando", "ante", "anti", "ato", "ata", "ati", "ate"), _ARE),
    (("endo", "ente", "enti", "uto", "uta", "uti", "ute"), _ERE + _IRE),
    (("ito", "ita", "iti", "ite"), _IRE),
    # present indicative and subjunctive
    (("iscono", "isca", "isce", "isci", "isco", "iscano"), _IRE),
    (("iamo", "iate", "ano", "ino", "ono", "ate", "ete", "ite", "a", "e", "i", "o"),
     _ARE + _ERE + _IRE),
]
# Italian plural and feminine endings -> the lemma endings to try.
_IT_INFLECTIONS = [("che", ("ca", "co")), ("ghe", ("ga", "go")), ("chi", ("co",)),
                   ("ghi", ("go",)), ("ie", ("ia",)), ("i", ("o", "e", "io", "a")), ("e", ("a", "o")),
                   ("a", ("o",))]
# Diminutives and endearments -> the word they come from (gattino -> gatto, cameretta -> camera).
_IT_DIMINUTIVES = [(stem + end, ("o", "a", "e")) for stem in ("in", "ett", "ell", "icin", "olin")
                   for end in ("o", "a", "i", "e")]


def _dominant(card):
    return max(range(len(card)), key=lambda i: card[i])


def _is_verb_card(card):
    return card is not None and _dominant(card) == 1


def _italian_verb(word, lexicon):
    """The infinitive of a conjugated Italian verb that the lexicon knows, or None."""
    for endings, infinitives in _IT_VERB_ENDINGS:
        for end in endings:
            if word.endswith(end) and len(word) > len(end) + 1:
                stem = word[: -len(end)]
                stems = [stem]
                if stem.endswith(("ch", "gh")):
                    stems.append(stem[:-1])  # cercherò -> cercare
                if end[0] == "e":
                    stems.append(stem + "i")  # mangerò -> mangiare
                for s in stems:
                    for inf in infinitives:
                        if _is_verb_card(lexicon.get(s + inf)):
                            return s + inf
    return None


def _italian_enclitic(word, lexicon):
    """The verb under a chain of enclitic pronouns (dammelo -> dare, vederlo -> vedere), or None."""
    for clitic in _IT_CLITICS:
        if not word.endswith(clitic) or len(word) <= len(clitic) + 1:
            continue
        stem = word[: -len(clitic)]
        candidates = []
        if stem.endswith("r"):
            candidates.append(stem + "e")  # vederlo, portarmelo, sbrigarti
        if stem[-1] == clitic[0] and stem[:-1] in _IT_SHORT_IMPERATIVES:
            candidates.append(_IT_SHORT_IMPERATIVES[stem[:-1]])  # dam+melo, fal+lo, dim+mi
        candidates.append(stem)  # guardalo, facendolo, prendili
        for c in candidates:
            if _is_verb_card(lexicon.get(c)):
                return c
            inf = _italian_verb(c, lexicon)
            if inf:
                return inf
        if stem.endswith(("ar", "er", "ir")) and len(stem) > 3:
            return stem + "e"  # an infinitive with its pronoun, even of a verb the lexicon lacks
    return None


def _italian_lemma(word, lexicon):
    """The form the lexicon knows of a plural, feminine or diminutive (case -> casa, fredde ->
    freddo, gattino -> gatto, sorellina -> sorella), or None."""
    for end, repls in _IT_INFLECTIONS + _IT_DIMINUTIVES:
        if word.endswith(end) and len(word) > len(end) + 2:
            for r in repls:
                cand = word[: -len(end)] + r
                if lexicon.get(cand) is not None:
                    return cand
    return None


def _english_base(word, lexicon):
    """(base, key) of an English inflection the lexicon knows (cats, stopped, bigger), or None."""
    w = word
    tries = []
    if w.endswith("ies"):
        tries.append((w[:-3] + "y", "plural"))
    if w.endswith("es"):
        tries.append((w[:-2], "plural"))
    if w.endswith("s") and not w.endswith("ss"):
        tries.append((w[:-1], "plural"))
    for end, key in (("ed", "past"), ("ing", "gerund")):
        if w.endswith(end) and len(w) > len(end) + 2:
            stem = w[: -len(end)]
            tries += [(stem, key), (stem + "e", key)]
            if stem[-1] == stem[-2]:
                tries.append((stem[:-1], key))  # stopped, running
            if end == "ed" and stem.endswith("i"):
                tries.append((stem[:-1] + "y", key))  # carried
    for end in ("er", "est"):
        if w.endswith(end) and len(w) > len(end) + 2:
            stem = w[: -len(end)]
            tries += [(stem, "comparative"), (stem + "e", "comparative")]
            if stem[-1] == stem[-2]:
                tries.append((stem[:-1], "comparative"))
            if stem.endswith("i"):
                tries.append((stem[:-1] + "y", "comparative"))
    for base, key in tries:
        card = lexicon.get(base)
        if card is None:
            continue
        if key in ("past", "gerund") and not _is_verb_card(card):
            continue  # ceiling is not "ceil" + -ing
        if key == "comparative" and _is_verb_card(card):
            if word.endswith(("er", "or")):
                return base, "agent"  # teacher, player: a person who does the action
            continue
        return base, key
    if w.endswith("or") and len(w) > 5 and _is_verb_card(lexicon.get(w[:-2])):
        return w[:-2], "agent"  # actor, visitor (never floor or error)
    return None


_AGENT = [0.9, 0.15, 0.05, 0.0]


def _morphology(word, lexicon):
    """(card, key) from a known word this one is a form of, or None."""
    low = normalise(word)
    if lexicon.lang == "it":
        verb = _italian_enclitic(low, lexicon)
        if verb:
            return list(lexicon.get(verb) or _VERB), "enclitic"
        lemma = _italian_lemma(low, lexicon)
        if lemma and _dominant(lexicon.get(lemma)) == 0:  # cuoca, maestre: a living being first
            return list(lexicon.get(lemma)), "inflection"
        verb = _italian_verb(low, lexicon)
        if verb:
            return list(lexicon.get(verb)), "verb_form"
        if lemma:
            return list(lexicon.get(lemma)), "inflection"
    elif lexicon.lang == "en":
        found = _english_base(low, lexicon)
        if found:
            base, key = found
            if key == "agent":
                return list(_AGENT), "agent"
            return list(lexicon.get(base)), "verb_form" if key in ("past", "gerund") else "inflection"
        head = _english_compound(low, lexicon)
        if head:
            return list(lexicon.get(head)), "compound"
    return None


def _english_compound(word, lexicon):
    """The head of an English compound of two known words, when it is a noun (snowman -> man,
    headteacher -> teacher, thunderstorm -> storm), or None."""
    for i in range(3, len(word) - 2):
        left, right = word[:i], word[i:]
        head = lexicon.get(right)
        if head is not None and lexicon.get(left) is not None and _dominant(head) in (0, 2):
            return right
    return None


def guess_card(word, lang, sentence_start, lexicon=None):
    """(card, rule key) for a word the lexicon does not have (see the module's docstring)."""
    if not any(_is_letter(c) for c in word):
        if any(c.isdigit() for c in word):
            return list(_NUMBER), "number"
        return list(_SYMBOL), "symbol"
    capital = word[0].isupper()
    if capital and lexicon is not None:
        named = lexicon.names.get(normalise(word))
        if named:
            return list(named[0]), named[1]
    if capital and not sentence_start:  # Rossi inside a sentence is a name, not "rosso"
        return list(_PROPER_NAME), "name"
    if lexicon is not None:
        found = _morphology(word, lexicon)
        if found:
            return found
        if capital:  # first in the sentence and not a form of a known word: Zorbaxo dorme
            return list(_PROPER_NAME), "name"
    low = normalise(word)
    for key, endings, card in _RULES.get(lang, []):
        for end in endings:
            if low.endswith(end) and len(low) > len(end) + 1:
                return list(card), key
    return list(_NOUN), "noun"


# Every reason a guess can give (each has a sentence in app/i18n.py, both languages).
GUESS_KEYS = tuple(sorted({key for rules in _RULES.values() for key, _, _ in rules} | {
    "number", "symbol", "name", "place", "enclitic", "verb_form", "inflection", "agent", "compound",
    "noun_context", "verb_context", "noun"}))

_SENTENCE_END = {".", "!", "?", "…", ";", ":", "...", "«", "“", '"'}


def _is_punctuation(word):
    return all(unicodedata.category(c)[0] == "P" for c in word)


# Words after which a word is a noun (articles, determiners), or a verb (clitic pronouns,
# "non", subject pronouns, modals). "la", "lo", "le", "l'" are articles and clitics alike,
# so they count as articles only before a participle ("la partita", but "la vedo").
_NOUN_CUES = {
    "it": set("il i un uno una un' del dello della dei degli delle dell' al allo alla ai agli alle "
              "all' dal dallo dalla dai dagli dalle dall' nel nello nella nei negli nelle nell' sul "
              "sullo sulla sui sugli sulle sull' questo questa questi queste quest' quel quello "
              "quella quei quegli quelle quell' mio mia miei mie tuo tua tuoi tue suo sua suoi sue "
              "nostro nostra nostri nostre vostro vostra vostri vostre ogni qualche".split()),
    "en": set("the a an my your his her its our their this these those every each".split()),
}
_IT_CLITIC_ARTICLES = {"la", "lo", "le", "l'"}
_IT_PARTICIPLE = ("ato", "ata", "ati", "ate", "uto", "uta", "uti", "ute", "ito", "ita", "iti", "ite")
_VERB_CUES = {
    "it": set("mi ti si ci vi ne c' non io tu lui lei noi voi loro".split()),
    "en": set("i you we they he she can could will would shall should must may might n't 't not "
              "'ll 'd never always often usually sometimes who".split()),
}


_IT_PREPOSITIONS = set("di a da in con su per tra fra senza d'".split())
_IT_NOT_FINITE = ("are", "ere", "ire", "ando", "endo", "arsi", "ersi", "irsi")


def _reading_in_context(word, card, before, lexicon, fixed=False):
    """(card, key) when the word before picks the word's other reading, else None.

    After an article or determiner a verb form is a noun ("la partita", "the nurse"); after
    a clitic pronoun, "non", a subject pronoun or a modal (and, in Italian, after a noun: "il
    medico visita") a noun that is also a verb is the verb ("si sistema", "we test").
    """
    if before is None:
        return None
    low, prev = normalise(word), normalise(before.text)
    other = lexicon.other.get(low)
    noun_cue = prev in _NOUN_CUES[lexicon.lang] or (
        lexicon.lang == "it" and prev in _IT_CLITIC_ARTICLES and low.endswith(_IT_PARTICIPLE))
    if lexicon.lang == "it" and prev in _IT_PREPOSITIONS and not low.endswith(_IT_NOT_FINITE):
        noun_cue = True  # "senza fatica", "per lavoro": no finite verb follows a preposition
    if noun_cue and _is_verb_card(card):
        if other is not None and not _is_verb_card(other):
            return list(other), "noun_context"
        if lexicon.lang == "it":  # a participle or verb form used as a noun: il gelato
            return list(_NOUN_OF_VERB), "noun_context"
        return None
    if other is None or not _is_verb_card(other) or _dominant(card) not in (0, 2) or fixed:
        return None
    after_noun = (lexicon.lang == "it" and (before.known or before.guess in ("name", "place", "inflection"))
                  and _dominant(before.card) in (0, 2) and prev not in _NOUN_CUES["it"])
    if prev in _VERB_CUES[lexicon.lang] or after_noun:
        return list(other), "verb_context"
    return None


_NOUN_OF_VERB = [0.0, 0.3, 0.7, 0.0]


def lookup(words, lexicon):
    """Tokens with their cards: from the lexicon when known, reasoned guesses otherwise."""
    tokens = []
    start = True  # at the start of a sentence (for the capital-letter rule)
    for w in words:
        card = lexicon.get(w)
        if card is not None and not start and w[:1].isupper() and normalise(w) in lexicon.names:
            card = None  # "Mark", "Rosa" inside a sentence are names (guessed below)
        if lexicon.lang == "en" and normalise(w) == "'s" and tokens:
            before = normalise(tokens[-1].text)
            if before in _EN_S_IS or before == "let":
                card = lexicon.get("us" if before == "let" else "is") or card
        if card is None and _is_punctuation(w):
            card = lexicon.get(",") or _PUNCTUATION  # typographic quotes, dashes, ...
        if card is not None:
            found = _reading_in_context(w, card, tokens[-1] if tokens else None, lexicon,
                                        normalise(w) in lexicon.fixed)
            if found:
                tokens.append(Token(w, found[0], False, found[1]))
            else:
                tokens.append(Token(w, list(card), True))
        else:
            card, key = guess_card(w, lexicon.lang, start, lexicon)
            tokens.append(Token(w, card, False, key))
        if w in _SENTENCE_END or w.startswith(".."):
            start = True
        elif any(_is_word_char(c) for c in w):
            start = False
    return tokens


# --- lexicon files -------------------------------------------------------------------------

def _parse_card(values, decimal_comma):
    """The four numbers of a row (ValueError: one is not a finite number)."""
    if decimal_comma:
        values = [v.replace(",", ".") for v in values]
    card = [float(v) for v in values]  # ValueError for non-numbers; spaces around are fine
    if not all(math.isfinite(v) for v in card):
        raise ValueError("not finite")
    return card


def parse_lexicon(text, file="lexicon.csv"):
    """(entries, problems) from the text of a lexicon CSV file.

    Skipped rows become Problems: wrong number of columns, a value that is not a finite
    number in [0, 1], an empty word, a word already defined (the first definition stays).
    """
    if text.startswith("\ufeff"):
        text = text[1:]
    lines = text.splitlines()  # \n, \r\n and \r alike
    entries, problems, first_line = {}, [], {}
    header_at = None
    for no, line in enumerate(lines, start=1):
        if line.strip() and not line.lstrip().startswith("#"):
            header_at = no
            break
    if header_at is None:
        return entries, [Problem(file, 1, "empty")]
    header_line = lines[header_at - 1]
    delimiter = ";" if header_line.count(";") > header_line.count(",") else ","
    header = [h.strip().lower() for h in next(csv.reader([header_line], delimiter=delimiter))]
    if tuple(header) != HEADER:
        return entries, [Problem(file, header_at, "header", ",".join(HEADER))]
    for offset, line in enumerate(lines[header_at:]):
        no = header_at + 1 + offset
        # a plain line is split directly (fast in the browser); a quoted one goes through csv
        row = next(csv.reader([line], delimiter=delimiter), []) if '"' in line else line.split(delimiter)
        if not row or not "".join(row).strip() or row[0].lstrip().startswith("#"):
            continue
        if len(row) != 1 + D_K:
            problems.append(Problem(file, no, "columns", str(len(row))))
            continue
        word = row[0].strip()
        word = normalise(word if word.isascii() else unicodedata.normalize("NFC", word))
        if not word:
            problems.append(Problem(file, no, "word"))
            continue
        try:
            card = _parse_card(row[1:], delimiter == ";")
        except ValueError:
            problems.append(Problem(file, no, "number", word))
            continue
        if any(v < 0 or v > 1 for v in card):
            problems.append(Problem(file, no, "range", word))
            continue
        if word in entries:
            problems.append(Problem(file, no, "duplicate", f"{word}:{first_line[word]}"))
            continue
        entries[word] = card
        first_line[word] = no
    return entries, problems


def parse_generated(text):
    """(entries, names, other) from a generated lexicon file (docs/lexicon-format.md).

    `# ...` lines are comments; a line `= alive action thing function class [other-class]`
    sets the card of the words on the lines after it, one word a line, until the next `=`
    line. Words of the classes "name" and "place" are capitalised names and go to `names`.
    An other class is the word's other reading (a noun that is also a verb: "parte"); its
    card is the one of that class's own `=` line, and goes to `other`.
    """
    entries, names, class_card, other_class = {}, {}, {}, []
    for block in ("\n" + text).split("\n= ")[1:]:  # one block a card line and its words
        lines = block.split("\n")
        parts = lines[0].split()
        card, cls = [float(v) for v in parts[:D_K]], parts[D_K]
        words = [w for w in lines[1:] if w and w[0] != "#"]
        class_card.setdefault(cls, card)
        if cls in NAME_CLASSES:
            names.update(dict.fromkeys([w.lower() for w in words], (card, cls)))
        else:
            entries.update(dict.fromkeys(words, card))  # one shared list a class: lookup copies it
            if len(parts) > D_K + 1:
                other_class.append((words, parts[D_K + 1]))
    other = {}
    for words, cls in other_class:
        if cls in class_card:
            other.update(dict.fromkeys(words, class_card[cls]))
    return entries, names, other


def _read(path):
    with open(path, encoding="utf-8", errors="replace", newline="") as f:
        return f.read()


def load_lexicon(lang, directory=LEXICON_DIR):
    """The lexicon of a language: the generated file, then `<directory>/<lang>.csv` over it.

    A missing override file is a Problem; a missing generated file only leaves the override
    and the guessing rules. Loaded again with both files reading as they did, it is the same
    Lexicon (one is never changed once made): the parse is skipped, and a Python restored from
    a snapshot that made it (`snapshot_warm`) reads a sentence without parsing at all.
    """
    texts = tuple(_read_or_none(path) for path in _files(lang, directory))
    kept = _made.get((lang, directory))
    if kept is not None and kept[0] == texts:
        return kept[1]
    lexicon = _lexicon(lang, *texts)
    _made[(lang, directory)] = (texts, lexicon)
    return lexicon


_made = {}  # (lang, directory) -> ((generated text, override text), Lexicon made from them)


def _files(lang, directory):
    """A language's two files: the generated one (None if the language has none), the override."""
    return (os.path.join(directory, GENERATED[lang]) if lang in GENERATED else None,
            os.path.join(directory, f"{lang}.csv"))


def _read_or_none(path):
    try:
        return _read(path) if path else None
    except OSError:
        return None


def _lexicon(lang, generated, override):
    entries, names, other = parse_generated(generated) if generated is not None else ({}, {}, {})
    file = f"{lang}.csv"
    if override is None:
        return Lexicon(lang, entries, [Problem(file, 0, "missing")], names, other)
    rows, problems = parse_lexicon(override, file)
    entries.update(rows)
    lexicon = Lexicon(lang, entries, problems, names, other)
    lexicon.fixed = set(rows)  # the teacher's card is the word's only reading
    return lexicon


def snapshot_warm():
    """What a memory snapshot of the page's Python makes before it is taken
    (static/attention_snapshot.py): the lexicons this Python has made from the page's own
    files, as {"files": their paths, "calls": [[function name, arguments], ...]}. A page
    restored from it then finds them made, as long as both files still read the same."""
    made_here = made()
    files = [path for lang in made_here for path in _files(lang, LEXICON_DIR) if path and os.path.isfile(path)]
    return {"files": files, "calls": [["load_lexicon", [lang]] for lang in made_here]}


def made(directory=LEXICON_DIR):
    """The languages whose lexicon this Python has made from `directory`'s files, sorted."""
    return sorted(lang for lang, folder in _made if folder == directory)


class Needed(Exception):
    """The files of the lexicons of `langs` are not in this file system yet (in the browser, a
    language's files come the first time a message needs them): app/page.py undoes the message,
    static/engine.js fetches pyscript.toml's `[later.<lang>]` files and sends it again."""

    def __init__(self, langs):
        super().__init__(langs)
        self.langs = langs


UNAVAILABLE = set()  # languages whose files could not all be fetched: made from those that came


def here(lang, directory=LEXICON_DIR):
    """Whether both files of the language are in `directory` (always on CPython; in the browser
    once they have been fetched)."""
    return all(os.path.isfile(path) for path in _files(lang, directory) if path)


class Lexicons(dict):
    """The lexicons by language, each loaded on first use: the second language costs nothing
    until it is chosen (the engine's widgets share one: app/engine.py), from `directory`'s files.
    `later`: the files of a language may come later (the browser's engine), so a language whose
    files are not here yet raises `Needed` instead of being made without them."""

    def __init__(self, later=False, directory=LEXICON_DIR):
        super().__init__()
        self.later, self.directory = later, directory

    def __missing__(self, lang):
        if self.later and lang not in UNAVAILABLE and not here(lang, self.directory):
            raise Needed([lang])
        self[lang] = load_lexicon(lang, self.directory)
        return self[lang]
