"""The page's language and the sentence's are two things: switching the page never changes a typed
sentence's cards (it keeps the lexicon that read it), an example still becomes its translation, and
the student chooses the lexicon that reads the sentence (the `lexicon` setting: a link, a host message
and the state carry it). Every card is checked against the lexicon files as the tests' own reader
reads them (tests/reference.py)."""

import json
import shutil

from app.i18n import PRESETS
from app.lexicon import GENERATED, LEXICON_DIR, Lexicons
from app.page import Page
from app.remote import Screen
from tests.contract_check import assert_valid_state
from tests.reference import lexicon_cards
from tests.test_engine_page import Timers

TYPED = "Il cane dorme con la gatta"  # Italian, every word in the Italian lexicon
TYPED_PAIRS = [["s", TYPED], ["focus", "1"]]


def start(pairs=(), lexicons=None):
    """A page started at a link of these parameters, as static/page.js starts it."""
    page = Page(Screen(lambda ops: None), Lexicons() if lexicons is None else lexicons, Timers())
    page.receive({"type": "start", "framed": False, "address": {"base": "http://x/", "pairs": list(pairs)},
                  "early": None, "state": "", "queue": []})
    return page


def change(page, name, value, radio=False):
    """The student changes the control `name` to `value` (a radio or a select), as the page sends it."""
    target = {"name": name, "value": value, "type": "radio" if radio else "select-one", "checked": True}
    return page.receive({"type": "change", "context": {"target": target, "checked": {name: value} if radio else {},
                                                       "ids": [], "off": []}})


def state_of(ops):
    """The last state JSON a batch of ops publishes."""
    states = [op[3] for op in json.loads(ops) if op[:3] == ["set", [{"id": "attention-state"}], "textContent"]]
    assert states, "no state published"
    return json.loads(states[-1])


def drawn(ops, region):
    """The HTML a batch of ops writes into the region of that id."""
    return next(op[3] for op in json.loads(ops) if op[:3] == ["set", [{"id": region}], "innerHTML"])


def cards_of(state):
    return [token["card"] for token in state["tokens"]]


def read_with(lang, state):
    """The cards the language's lexicon files give the state's words (None: not in them)."""
    cards = lexicon_cards(lang)
    return [cards.get(token["text"].lower()) for token in state["tokens"]]


def test_switching_the_page_to_english_keeps_a_typed_italian_sentences_cards():
    """A typed Italian sentence on the Italian page, then the page in English: every card is still
    the Italian lexicon's (every word known), the state and the link say the Italian lexicon reads
    it, and the choice beside the box shows it, in English."""
    page = start(TYPED_PAIRS)
    before = page.lexicon_tokens
    ops = change(page, "lang", "en", radio=True)
    state = state_of(ops)
    assert state["lang"] == "en" and state["sentence"] == TYPED and state["lexicon"] == "it"
    assert cards_of(state) == read_with("it", state) and all(t["known"] for t in state["tokens"])
    assert [t.card for t in page.lexicon_tokens] == [t.card for t in before]
    assert read_with("en", state) != read_with("it", state)  # (the English lexicon would read it otherwise)
    assert "lexicon=it" in page.url() and "lang=en" in page.url()
    assert '<option value="it" selected>Italian</option>' in drawn(ops, "controls")
    assert_valid_state(state)


def test_back_to_italian_the_state_and_the_link_no_longer_name_the_lexicon():
    """Italian → English → Italian on a typed sentence: the same cards throughout, and once the page's
    language is the sentence's again, neither the state nor the link names a lexicon."""
    page = start(TYPED_PAIRS)
    change(page, "lang", "en", radio=True)
    state = state_of(change(page, "lang", "it", radio=True))
    assert "lexicon" not in state and "lexicon=" not in page.url()
    assert cards_of(state) == read_with("it", state)


def test_an_example_sentence_still_becomes_its_translation():
    """The Italian page's first example, then English: the English example, read by the English
    lexicon (every card its files', every word known), and no lexicon named."""
    page = start()
    state = state_of(change(page, "lang", "en", radio=True))
    assert state["sentence"] == PRESETS["en"][0][0] and "lexicon" not in state
    assert cards_of(state) == read_with("en", state) and all(t["known"] for t in state["tokens"])
    assert "lexicon=" not in page.url()


def test_choosing_the_english_lexicon_reads_the_sentence_again_with_it():
    """The choice beside the box set to English on the Italian page: the same words get the English
    lexicon's cards where it has them and a guess (marked unknown) where it has none; the state
    names the English lexicon and the page's language stays Italian."""
    page = start(TYPED_PAIRS)
    state = state_of(change(page, "lexicon", "en"))
    assert state["lang"] == "it" and state["lexicon"] == "en" and state["sentence"] == TYPED
    english = read_with("en", state)
    assert any(card is None for card in english) and any(card is not None for card in english)
    for token, card in zip(state["tokens"], english):
        assert token["known"] == (card is not None), token["text"]
        if card is not None:
            assert token["card"] == card, token["text"]
    assert cards_of(state) != read_with("it", state)
    assert "lexicon=en" in page.url()
    assert_valid_state(state)


def english_cards_known(state):
    """Whether each word the English lexicon files have carries their card, and some word is one."""
    known = [(t["card"], card) for t, card in zip(state["tokens"], read_with("en", state)) if card is not None]
    return bool(known) and all(a == b for a, b in known)


def test_a_link_and_a_host_message_carry_the_lexicon():
    """`?lexicon=en` reads the link's sentence with the English lexicon on the Italian page (the
    address keeps it); an attention:set naming the Italian lexicon reads it with that one again and
    the state leaves the key out; one naming English reads it with English again."""
    page = start([["s", TYPED], ["lexicon", "en"]])
    assert page.settings.lang == "it" and page.settings.lexicon == "en" and "lexicon=en" in page.url()
    assert [t.card for t in page.lexicon_tokens] != read_with("it", {"tokens": [{"text": w} for w in TYPED.split()]})
    state = state_of(page.receive({"type": "host", "data": {"lexicon": "it"}}))
    assert "lexicon" not in state and cards_of(state) == read_with("it", state)
    state = state_of(page.receive({"type": "host", "data": {"lexicon": "en"}}))
    assert state["lexicon"] == "en" and state["lang"] == "it" and english_cards_known(state)


def folder_with(tmp_path, langs):
    """A lexicon folder holding the files of `langs` only (the browser's, before a fetch)."""
    for lang in langs:
        for name in (GENERATED[lang], f"{lang}.csv"):
            (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy(f"{LEXICON_DIR}/{name}", tmp_path / name)
    return tmp_path


def test_the_other_lexicon_chosen_comes_first_then_the_choice_is_replayed(tmp_path):
    """Where only the Italian files are here: the page switched to English keeps the typed sentence
    without asking for the English files; choosing the English lexicon asks for them
    ({"later": ["en"]}) and changes nothing; sent again once they are here, it reads the sentence
    with them."""
    folder = folder_with(tmp_path, ["it"])
    page = start(TYPED_PAIRS, Lexicons(later=True, directory=str(folder)))
    state = state_of(change(page, "lang", "en", radio=True))
    assert "en" not in page.lexicons and cards_of(state) == read_with("it", state)
    assert json.loads(change(page, "lexicon", "en")) == {"later": ["en"]}
    assert page.settings.lexicon == "it"
    folder_with(tmp_path, ["en"])
    state = state_of(change(page, "lexicon", "en"))
    assert "lexicon" not in state and state["lang"] == "en" and english_cards_known(state)
