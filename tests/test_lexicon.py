"""Tokenizer, lexicon files and guessed cards (app/lexicon.py)."""

import pytest

from app.lexicon import clean_text, guess_card, load_lexicon, lookup, parse_lexicon, tokenize


@pytest.mark.parametrize("text, tokens", [
    ("L'acqua è fredda.", ["L'", "acqua", "è", "fredda", "."]),
    ("dell'uomo", ["dell'", "uomo"]),
    ("un'amica, nell’orto!", ["un'", "amica", ",", "nell’", "orto", "!"]),
    ("un po' di pane", ["un", "po'", "di", "pane"]),
    ("«Ciao», disse.", ["«", "Ciao", "»", ",", "disse", "."]),
    ("costa 3,5 euro", ["costa", "3,5", "euro"]),
    ("l'ex-presidente", ["l'", "ex-presidente"]),
    ("  tanti   spazi\t\n", ["tanti", "spazi"]),
])
def test_italian_tokenizer_splits_punctuation_and_elision(text, tokens):
    """Punctuation stands apart, elided articles and prepositions keep their apostrophe."""
    assert tokenize(text, "it") == tokens


@pytest.mark.parametrize("text, tokens", [
    ("The cat's toy.", ["The", "cat", "'s", "toy", "."]),
    ("I don't know", ["I", "do", "n't", "know"]),
    ("O'Brien sat", ["O'Brien", "sat"]),
])
def test_english_tokenizer_splits_clitics(text, tokens):
    """English clitics split off ('s, n't); names with an apostrophe stay whole."""
    assert tokenize(text, "en") == tokens


def test_clean_text_removes_invisible_and_control_characters():
    """NUL and zero-width characters vanish, e + combining accent becomes è, spaces fold."""
    assert clean_text("ga\u200btto\x00dorme e\u0300 qui\ufeff") == "gatto dorme è qui"
    assert tokenize("perche\u0301", "it") == ["perché"]


def test_shipped_lexicons_are_large_and_clean(lexicons):
    """Italian has ≥ 400 words and English ≥ 300, and neither file has a bad row."""
    assert len(lexicons["it"]) >= 400 and len(lexicons["en"]) >= 300
    assert lexicons["it"].problems == [] and lexicons["en"].problems == []


@pytest.mark.parametrize("word", [
    "il", "lo", "la", "i", "gli", "le", "l'", "un", "uno", "una", "un'",
    "del", "della", "dei", "degli", "delle", "dell'", "al", "alla", "all'", "dal", "dall'",
    "nel", "nella", "nell'", "sul", "sulla", "sull'", "io", "lui", "lei", "noi", "loro", "che",
    "e", "ma", "perché", "gatto", "tappeto", "dorme", "dormiva", "dormì", "dormito", "dormendo",
    "mangiò", "seduto", "prese", "letto", "è", "ha",
])
def test_italian_lexicon_has_the_common_words(lexicons, word):
    """Articles, articulated prepositions, pronouns and frequent verb forms are all known."""
    assert lexicons["it"].get(word) is not None


def test_lookup_is_case_insensitive_and_keeps_the_typed_text(lexicons):
    """'IL Gatto' finds 'il' and 'gatto' while showing the words as typed."""
    toks = lookup(tokenize("IL Gatto", "it"), lexicons["it"])
    assert [t.text for t in toks] == ["IL", "Gatto"] and all(t.known for t in toks)


def test_cards_make_sense_for_the_teaching_examples(lexicons):
    """A cat is mostly alive, a verb mostly action, an article all pointer."""
    it = lexicons["it"]
    assert it.get("gatto")[0] > 0.9 and it.get("dormiva")[1] > 0.9 and it.get("il")[3] == 1


@pytest.mark.parametrize("word, start, key", [
    ("Zorro", False, "name"),
    ("cantavano", True, "imperfect"),
    ("parlando", True, "gerund"),
    ("telefonare", True, "infinitive"),
    ("rapidamente", True, "adverb"),
    ("libertà", True, "abstract"),
    ("giornalista", True, "person"),
    ("rimbalzò", True, "past"),
    ("2024", True, "number"),
    ("🐱", True, "symbol"),
    ("xyzzy", True, "noun"),
])
def test_unknown_italian_words_get_a_guess_from_their_shape(word, start, key):
    """Verb endings, capitals inside a sentence, suffixes decide the guessed card."""
    card, got = guess_card(word, "it", start)
    assert got == key and len(card) == 4 and all(0 <= v <= 1 for v in card)


def test_guessed_words_are_flagged_unknown(lexicons):
    """An unknown word inside a sentence is a proper name, flagged known=False."""
    toks = lookup(tokenize("Il gatto di Zorro", "it"), lexicons["it"])
    zorro = toks[-1]
    assert not zorro.known and zorro.guess == "name" and zorro.card[0] > 0.8


def test_capital_at_sentence_start_is_a_name_only_when_not_a_known_word(lexicons):
    """'Xanto' first in the sentence is a name (no word of the lexicon), 'Gatto' stays a cat."""
    toks = lookup(tokenize("Xanto. Gatto", "it"), lexicons["it"])
    assert toks[0].guess == "name" and toks[0].card[0] > 0.8
    assert toks[2].known and toks[2].card == lexicons["it"].get("gatto")


def test_lexicon_file_with_broken_rows_reports_file_and_line():
    """Bad rows are skipped with file and line; good rows still load; BOM and CRLF are fine."""
    text = ("\ufeff# comment\r\nword,alive,action,thing,function\r\n"
            "gatto,1,0,0,0\r\n"          # line 3: fine
            "cane,1,0,0\r\n"              # line 4: wrong column count
            "topo,1,x,0,0\r\n"            # line 5: not a number
            "lupo,nan,0,0,0\r\n"          # line 6: NaN
            "orso,inf,0,0,0\r\n"          # line 7: Infinity
            "volpe,2,0,0,0\r\n"           # line 8: outside [0, 1]
            "gatto,0,1,0,0\r\n"           # line 9: duplicate
            ",0,0,0,1\r\n")               # line 10: no word
    entries, problems = parse_lexicon(text, "it.csv")
    assert entries == {"gatto": [1.0, 0.0, 0.0, 0.0]}
    assert [(p.line, p.key) for p in problems] == [
        (4, "columns"), (5, "number"), (6, "number"), (7, "number"), (8, "range"),
        (9, "duplicate"), (10, "word")]
    assert all(p.file == "it.csv" for p in problems)


def test_lexicon_saved_by_an_italian_spreadsheet_is_read():
    """Semicolons between columns and decimal commas (Italian spreadsheets) load correctly."""
    entries, problems = parse_lexicon("word;alive;action;thing;function\ngatto;0,95;0;0,1;0\n")
    assert problems == [] and entries["gatto"] == [0.95, 0.0, 0.1, 0.0]


def test_lexicon_with_wrong_header_or_missing_file_is_a_problem_not_a_crash(tmp_path):
    """A wrong header or a missing file gives one problem and an empty lexicon."""
    entries, problems = parse_lexicon("parola,a,b,c,d\ngatto,1,0,0,0\n", "x.csv")
    assert entries == {} and problems[0].key == "header"
    lex = load_lexicon("it", directory=str(tmp_path))
    assert len(lex) == 0 and lex.problems[0].key == "missing"
