"""A language's lexicon comes when a student first needs it: a first visit fetches the lexicon files
of its own language (pyscript.toml's [later.<lang>]) and none of the other's; switching the page to
the other language, or a course page's attention:set naming it, fetches that language's files once,
and its words then show the cards those files give them."""

import re

import pytest

from tests.e2e.conftest import get_state, open_host, wait_state, watched
from tests.reference import lexicon_cards, shown_short

LEXICON_FILE = re.compile(r"/lexicon/(\S+\.(?:txt|csv))$")
FILES = {"it": ["gpl/it.txt", "it.csv"], "en": ["cc-by-sa/en.txt", "en.csv"]}  # (pyscript.toml)


def opened(browser, base_url, query):
    """A fresh page at `query`, and the lexicon files its page and workers ask for, in order."""
    return watched(browser, base_url, query, LEXICON_FILE)


def cards_on_screen(page):
    """Each word's card as the sentence shows it: [word, [its four numbers as written]]."""
    return page.locator("label.word").evaluate_all(
        "labels => labels.map(l => [l.querySelector('.w').firstChild.textContent,"
        " [...l.querySelectorAll('.card .v')].map(v => v.textContent)])")


def expected_cards(words, lang):
    """The same, worked from the language's lexicon files by the tests' own reader."""
    cards = lexicon_cards(lang)
    return [[word, [shown_short(v, 2, lang) for v in cards[word.lower()]]] for word in words]


@pytest.mark.parametrize("first, other, query", [("it", "en", ""), ("en", "it", "?lang=en")])
def test_a_first_visit_fetches_its_languages_lexicon_and_a_switch_the_others_once(browser, base_url, first,
                                                                                   other, query):
    """The first visit reads only its own language's two files; the language switch fetches the
    other's, once (back and forth again fetches nothing), and the example shown in it has the
    cards of that language's files on screen, every word known."""
    context, page, asked = opened(browser, base_url, query)
    assert get_state(page)["lang"] == first
    assert sorted(asked) == sorted(FILES[first])
    page.locator(f'input[name="lang"][value="{other}"]').check()
    state = wait_state(page, f"s.lang === {other!r}", timeout=60_000)
    assert sorted(asked) == sorted(FILES[first] + FILES[other])
    words = [token["text"] for token in state["tokens"]]
    assert all(token["known"] for token in state["tokens"])
    assert cards_on_screen(page) == expected_cards(words, other)
    for lang in (first, other):
        page.locator(f'input[name="lang"][value="{lang}"]').check()
        wait_state(page, f"s.lang === {lang!r}")
    assert sorted(asked) == sorted(FILES[first] + FILES[other]) and page.errors == []
    context.close()


def test_a_host_message_naming_the_other_language_fetches_its_lexicon(browser, base_url):
    """A course page's attention:set {lang: "en"} to an Italian widget: the English files once,
    then the state it is told has the English example with the cards of the English files."""
    context, page = open_host(browser, base_url, "?focus=2")
    asked = []
    context.on("request", lambda request: asked.extend(LEXICON_FILE.findall(request.url)))
    page.evaluate("document.querySelector('iframe').contentWindow.postMessage("
                  "{type: 'attention:set', lang: 'en'}, '*')")
    page.wait_for_function("window.got.some(m => m.type === 'attention:state' && m.state.lang === 'en')",
                           timeout=60_000)
    state = page.evaluate("window.got.filter(m => m.type === 'attention:state').at(-1).state")
    cards = lexicon_cards("en")
    assert [token["card"] for token in state["tokens"]] == [cards[t["text"].lower()] for t in state["tokens"]]
    assert sorted(asked) == sorted(FILES["en"])
    context.close()


def test_a_typed_sentence_keeps_its_lexicon_when_the_page_changes_language(browser, base_url):
    """An Italian sentence typed on the Italian page, then the page in English: its cards are still
    the Italian files' (no English file fetched), and the choice beside the box says it is read with
    the Italian lexicon. Chosen from the keyboard, the English lexicon comes and the known words
    show the English files' cards; the focus stays on the choice."""
    context, page, asked = opened(browser, base_url, "")
    typed = "Il cane dorme con la gatta"
    page.fill("#sentence-input", typed)
    page.press("#sentence-input", "Enter")
    wait_state(page, f"s.sentence === {typed!r}")
    page.locator('input[name="lang"][value="en"]').check()
    state = wait_state(page, "s.lang === 'en'")
    words = [token["text"] for token in state["tokens"]]
    italian = lexicon_cards("it")
    assert cards_on_screen(page) == [[w, [shown_short(v, 2, "en") for v in italian[w.lower()]]] for w in words]
    assert sorted(asked) == sorted(FILES["it"])
    assert page.locator('label[for="lexicon"]').text_content() == "Sentence read with the lexicon"
    assert page.locator("#lexicon option:checked").text_content() == "Italian"
    page.focus("#lexicon")
    page.keyboard.press("ArrowDown")
    state = wait_state(page, "s.lang === 'en' && !('lexicon' in s)", timeout=60_000)
    assert sorted(asked) == sorted(FILES["it"] + FILES["en"])
    english = lexicon_cards("en")
    shown = dict((w, card) for w, card in cards_on_screen(page))
    known = [t["text"] for t in state["tokens"] if t["known"]]
    assert known and all(shown[w] == [shown_short(v, 2, "en") for v in english[w.lower()]] for w in known)
    assert cards_on_screen(page) != [[w, [shown_short(v, 2, "en") for v in italian[w.lower()]]] for w in words]
    assert page.locator("#lexicon option:checked").text_content() == "English"
    assert page.evaluate("document.activeElement.id") == "lexicon" and page.errors == []
    context.close()
