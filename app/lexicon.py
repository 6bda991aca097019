"""Words to cards: the tokenizer, the editable lexicon files, and guesses for unknown words.

A lexicon is a CSV file in `lexicon/` (one per language) that a course author can open in
a spreadsheet: a header row `word,alive,action,thing,function`, then one word a row with
four numbers in [0, 1]. Lines starting with `#` are comments. A file saved by an Italian
spreadsheet (`;` between columns, decimal comma) is read too. Bad rows are skipped and
reported with file and line; they never stop the page.

Unknown words get a card guessed from their shape (Italian verb endings, a capital letter
inside a sentence, ...) and are flagged `known = False`, with the reason of the guess.
"""

import csv
import io
import math
import os
import unicodedata

from app.attention import D_K, FEATURES

LANGS = ("it", "en")
HEADER = ("word",) + FEATURES
LEXICON_DIR = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "lexicon")
APOSTROPHES = "'’ʼ`´"


class Token:
    """One token of the sentence: the text as typed, its card, and how we got the card."""

    __slots__ = ("text", "card", "known", "guess")

    def __init__(self, text, card, known, guess=None):
        self.text = text  # as the user typed it (after Unicode clean-up)
        self.card = card  # list of D_K floats in [0, 1]
        self.known = known  # True when the card comes from the lexicon file
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
    """A language's words (lower case, apostrophe normalised) and the problems found."""

    def __init__(self, lang, entries, problems):
        self.lang = lang
        self.entries = entries  # word -> card
        self.problems = problems  # list of Problem

    def __len__(self):
        return len(self.entries)

    def get(self, word):
        return self.entries.get(normalise(word))


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


# Italian words that keep a final apostrophe: "un po'", "mo'", "be'".
_IT_TRUNCATED = {"po", "mo", "be"}
# English clitics split off like "do|n't", "cat|'s".
_EN_CLITICS = {"s", "re", "ve", "ll", "d", "m"}


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
                if nxt and _is_letter(nxt):  # elision: l'acqua, dell'uomo, un'amica
                    tokens.append(run + ch)
                    run = ""
                elif run.lower() in _IT_TRUNCATED:  # un po'
                    tokens.append(run + ch)
                    run = ""
                else:  # a closing quote
                    tokens.append(run)
                    tokens.append(ch)
                    run = ""
            else:
                whole = len(word_after) == len(rest)  # nothing after the clitic
                if word_after.lower() == "t" and run.lower().endswith("n") and len(run) > 1 and whole:
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

# Each rule: (key, endings, card). The first rule whose ending matches wins; the key
# names the guess for the page ("verb ending", ...). Cards: alive, action, thing, function.
_VERB = [0.05, 0.9, 0.05, 0.0]
_PARTICIPLE = [0.1, 0.7, 0.3, 0.0]
_PERSON = [0.9, 0.1, 0.1, 0.0]
_ABSTRACT = [0.05, 0.15, 0.8, 0.0]
_ADVERB = [0.0, 0.3, 0.0, 0.3]
_NOUN = [0.2, 0.1, 0.6, 0.1]
_PROPER_NAME = [0.9, 0.05, 0.1, 0.0]
_NUMBER = [0.0, 0.0, 0.6, 0.2]
_SYMBOL = [0.0, 0.0, 0.1, 0.2]

_RULES = {
    "it": [
        ("adverb", ("mente",), _ADVERB),
        ("gerund", ("ando", "endo"), _VERB),
        ("imperfect", ("avano", "evano", "ivano", "avamo", "evamo", "ivamo", "ava", "eva", "iva",
                       "avo", "evo", "ivo"), _VERB),
        ("past", ("arono", "erono", "irono", "ettero", "ò", "ì"), _VERB),
        ("future", ("eranno", "iranno", "erà", "irà", "erò", "irò"), _VERB),
        ("person", ("tore", "trice", "ista", "iere", "iera", "aio", "essa"), _PERSON),
        ("abstract", ("zione", "sione", "mento", "menti", "tà", "ezza", "ismo", "ura"), _ABSTRACT),
        ("infinitive", ("are", "ere", "ire"), _VERB),
        ("participle", ("ato", "ata", "ati", "ate", "uto", "uta", "uti", "ute", "ito", "ita",
                        "iti", "ite"), _PARTICIPLE),
        ("present", ("ano", "ono"), _VERB),
    ],
    "en": [
        ("adverb", ("ly",), _ADVERB),
        ("gerund", ("ing",), _VERB),
        ("past", ("ed",), _VERB),
        ("verb", ("ize", "ise", "ify"), _VERB),
        ("person", ("ist", "ian", "or", "eer"), _PERSON),
        ("abstract", ("tion", "sion", "ment", "ness", "ity", "ism", "ship"), _ABSTRACT),
    ],
}

_SENTENCE_END = {".", "!", "?", "…", ";", ":"}


def guess_card(word, lang, sentence_start):
    """(card, rule key) for a word the lexicon does not have."""
    if not any(_is_letter(c) for c in word):
        if any(c.isdigit() for c in word):
            return list(_NUMBER), "number"
        return list(_SYMBOL), "symbol"
    if word[0].isupper() and not sentence_start:
        return list(_PROPER_NAME), "name"
    low = normalise(word)
    for key, endings, card in _RULES.get(lang, []):
        for end in endings:
            if low.endswith(end) and len(low) > len(end) + 1:
                return list(card), key
    return list(_NOUN), "noun"


def lookup(words, lexicon):
    """Tokens with their cards: from the lexicon when known, guessed otherwise."""
    tokens = []
    start = True  # at the start of a sentence (for the capital-letter rule)
    for w in words:
        card = lexicon.get(w)
        if card is not None:
            tokens.append(Token(w, list(card), True))
        else:
            card, key = guess_card(w, lexicon.lang, start)
            tokens.append(Token(w, card, False, key))
        if w in _SENTENCE_END:
            start = True
        elif any(_is_word_char(c) for c in w):
            start = False
    return tokens


# --- lexicon files -------------------------------------------------------------------------

def _parse_number(text, decimal_comma):
    t = text.strip()
    if decimal_comma:
        t = t.replace(",", ".")
    v = float(t)  # ValueError for non-numbers
    if math.isnan(v) or math.isinf(v):
        raise ValueError("not finite")
    return v


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
    reader = csv.reader(io.StringIO("\n".join(lines[header_at:])), delimiter=delimiter)
    for offset, row in enumerate(reader):
        no = header_at + 1 + offset
        if not row or not "".join(row).strip() or row[0].lstrip().startswith("#"):
            continue
        if len(row) != 1 + D_K:
            problems.append(Problem(file, no, "columns", str(len(row))))
            continue
        word = normalise(unicodedata.normalize("NFC", row[0].strip()))
        if not word:
            problems.append(Problem(file, no, "word"))
            continue
        try:
            card = [_parse_number(v, delimiter == ";") for v in row[1:]]
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


def load_lexicon(lang, directory=LEXICON_DIR):
    """The lexicon of a language from `<directory>/<lang>.csv`; a missing file is a Problem."""
    file = f"{lang}.csv"
    path = os.path.join(directory, file)
    try:
        with open(path, encoding="utf-8", errors="replace", newline="") as f:
            text = f.read()
    except OSError:
        return Lexicon(lang, {}, [Problem(file, 0, "missing")])
    entries, problems = parse_lexicon(text, file)
    return Lexicon(lang, entries, problems)
