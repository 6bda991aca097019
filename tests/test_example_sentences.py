"""Every example sentence and every sentence a step suggests is read from the lexicon, never
guessed: the examples menu of each language, and what the steps of every guided path the registry
holds quote between «» or “” (their title, text, "try this", answer and end, and the strings of
the views each step shows), in both languages. A quoted control's label is no sentence and is
left out, and so are steps about the trained model's letters or typed matrices (no lexicon reads
them). Each word must have its card in the lexicon files (read by tests/reference.py's own parser)
and the page must read that card, not guess one."""

import re

import pytest

from app import i18n, lexicon, settings as schema
from app.views import registry
from tests.reference import lexicon_cards

LANGS = i18n.LANGS
QUOTED = re.compile(r"«([^»]*)»|“([^”]*)”")
PATHS = registry.paths()
CARDS = {lang: lexicon_cards(lang) for lang in LANGS}


def flat(value):
    """The strings of a string table's value (a string, or a tuple or dict of them)."""
    if isinstance(value, str):
        yield value
    elif isinstance(value, (tuple, list)):
        for item in value:
            yield from flat(item)
    elif isinstance(value, dict):
        for item in value.values():
            yield from flat(item)


def labels(lang):
    """Every string of the page in `lang`, as a label reads (a quoted label is the control's name)."""
    return {s.strip().lower() for value in i18n.STRINGS[lang].values() for s in flat(value)}


def view_keys(view_id):
    """The strings of a view: those it declares, or, for a core view, those named after it."""
    view = registry.view(view_id)
    declared = set(view.strings.get(LANGS[0], {}))
    return declared or {key for key in i18n.STRINGS[LANGS[0]] if key.startswith(view_id + "_")}


def step_keys(way, step, last):
    """The string keys of one step: its own (and their variants), its path's end on the last step,
    and the strings of the views it shows."""
    own = way.prefix + step.id + "_"
    keys = {key for key in i18n.STRINGS[LANGS[0]] if key.startswith(own)}
    if last and way.prefix + "end" in i18n.STRINGS[LANGS[0]]:
        keys.add(way.prefix + "end")
    return keys.union(*(view_keys(v) for v in step.shows))


def suggested():
    """(where, lang, sentence): every sentence a step of a sentence-mode path quotes."""
    found = []
    for way in PATHS.values():
        for n, step in enumerate(way.steps, 1):
            if step.mode != "sentence":
                continue
            for lang in LANGS:
                names = labels(lang)
                for key in sorted(step_keys(way, step, n == len(way.steps))):
                    for s in flat(i18n.STRINGS[lang][key]):
                        for a, b in QUOTED.findall(s):
                            quoted = (a or b).strip()
                            if quoted and "{" not in quoted and quoted.lower() not in names:
                                found.append((f"path={way.id}&step={n} {key}", lang, quoted))
    return found


SUGGESTED = suggested()
EXAMPLES = [(f"example {k}", lang, sentence) for lang in LANGS for k, (sentence, _) in enumerate(i18n.PRESETS[lang])]


def test_the_steps_quote_sentences_to_check():
    """The scan finds what a student is asked to type or read: the position path's shuffle sentences
    in both languages and the formula's words (so a change of the quoting cannot empty the check)."""
    said = {(lang, s) for _, lang, s in SUGGESTED}
    assert ("it", "il bambino legge il libro") in said and ("en", "the child reads the book") in said
    assert ("it", "dormiva") in said and ("en", "slept") in said


@pytest.mark.parametrize("where, lang, sentence", EXAMPLES + SUGGESTED,
                         ids=[f"{w} {lang} {s}" for w, lang, s in EXAMPLES + SUGGESTED])
def test_every_word_is_read_from_the_lexicon(where, lang, sentence, lexicons):
    """Each word of the sentence has its card in the lexicon files, and the page reads that card."""
    tokens, problem = schema.check_sentence(sentence, lexicons[lang])
    assert problem is None, f"{where}: {problem}"
    for token in tokens:
        if not any(ch.isalnum() for ch in token.text):
            continue  # (punctuation)
        assert token.known, f"{where}: «{token.text}» of «{sentence}» is guessed ({token.guess})"
        assert token.card == CARDS[lang][lexicon.normalise(token.text)], f"{where}: «{token.text}»'s card"
