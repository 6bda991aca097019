"""What a student does on the page, in a real Chromium: click, keys, mask, type, switch."""

import re

import numpy as np
import pytest

from tests import reference
from tests.e2e.conftest import get_state, open_page, wait_ready, wait_state
from tests.reference import W_Q, attention_row, lexicon_cards, rule_percent

DEFAULT = "Il gatto seduto sul tappeto dormiva"


def select(page, index):
    page.locator(f'label.word[data-index="{index}"]').click()
    return wait_state(page, f"s.focus === {index}")


def reset(page):
    """Back to the first example, no switches, Italian."""
    if get_state(page)["lang"] != "it":
        page.locator('input[name="lang"][value="it"]').check()
        wait_state(page, "s.lang === 'it'")
    for box in ("#mask", "#self"):
        if page.locator(box).is_checked():
            page.locator(box).uncheck()
    page.select_option("#preset", "0")
    return wait_state(page, f"s.sentence === {DEFAULT!r} && s.focus === 5 && !s.mask && !s.include_self")


def shown(x):
    """How the Italian table writes a number: 3 decimals by the design's display rule."""
    return reference.shown(x, 3, "it")


def test_page_starts_ready_with_the_first_example(app, base_url):
    """After Python starts, the first example is shown with 'dormiva' selected and enabled."""
    app.goto(base_url)  # the shared page, freshly opened: earlier tests changed it
    wait_ready(app)
    s = get_state(app)
    assert s["sentence"] == DEFAULT and s["focus"] == 5 and s["lang"] == "it"
    assert app.locator('input[name="word"]').count() == 6
    assert app.locator('input[name="word"]:disabled').count() == 0
    assert "Pronto" in app.locator("#status").inner_text()


def test_clicking_a_word_shows_bars_and_table_equal_to_numpy(app):
    """Click 'gatto': state, bar lengths and every table cell, percentages included, agree with
    an independent numpy row on the lexicon's cards."""
    reset(app)
    s = select(app, 1)
    lexicon = lexicon_cards("it")
    cards = [lexicon[w.lower()] for w in DEFAULT.split()]
    q, logits, weights, allowed = attention_row(cards, W_Q, 1)
    np.testing.assert_allclose(s["query"], q, atol=1e-12)
    for row in s["rows"]:
        j = row["index"]
        assert row["candidate"] == bool(allowed[j])
        assert abs(row["weight"] - weights[j]) <= 1e-12
        if not allowed[j]:
            continue
        tr = app.locator(f'#analysis table.steps tr[data-index="{j}"]')
        assert tr.locator('[data-col="dot"]').inner_text() == shown(2 * logits[j])
        assert tr.locator('[data-col="logit"]').inner_text() == shown(logits[j])
        assert tr.locator('[data-col="exp"]').inner_text() == shown(np.exp(logits[j]))
        assert tr.locator('[data-col="weight"]').inner_text() == shown(weights[j])
        bar = float(app.locator(f'#analysis .bar-row[data-index="{j}"] .bar-fill').get_attribute("width"))
        assert abs(bar - 100 * weights[j]) <= 1  # the bar is the weight, to the point shown
        assert tr.locator('[data-col="percent"]').inner_text() == row["percent"] == rule_percent(weights[j], 1, "it")
        label = app.locator(f'#analysis .bar-row[data-index="{j}"] .bar-value').inner_text()
        assert label == rule_percent(weights[j], 0, "it")
    assert app.locator('[data-col="percent-sum"]').inner_text() == "100,0%"
    assert "cerca" in app.locator(".query-words").inner_text()


def test_arrow_keys_move_the_selection(app):
    """Keyboard only: focus the selected word, ArrowRight/ArrowLeft select the next/previous."""
    reset(app)
    app.locator('input[name="word"]:checked').focus()
    app.keyboard.press("ArrowLeft")
    wait_state(app, "s.focus === 4")
    app.keyboard.press("ArrowLeft")
    s = wait_state(app, "s.focus === 3")
    assert s["query"] is not None
    assert app.evaluate("document.activeElement.name") == "word"


def test_mask_first_word_has_nobody_and_second_gets_arithmetic_100(app):
    """Mask on: word 1 has nobody to look at (page says so); word 2 gets 100% on word 1."""
    reset(app)
    app.locator("#mask").check()
    wait_state(app, "s.mask === true")
    s = select(app, 0)
    assert all(r["weight"] == 0 for r in s["rows"])
    explain = app.locator(".explain").inner_text()
    assert "prima parola" in explain and "modello vero" in explain
    s = select(app, 1)
    assert s["rows"][0]["percent"] == "100,0%" and s["rows"][0]["weight"] == 1.0
    assert s["rows"][2]["candidate"] is False and s["rows"][2]["weight"] == 0
    assert "aritmetica" in app.locator(".explain").inner_text()
    assert "−∞" in app.locator('tr[data-index="2"] [data-col="logit"]').inner_text()
    app.locator("#mask").uncheck()


def test_include_self_puts_the_word_among_candidates(app):
    """'Include the word itself' makes the clicked word a candidate; the weights still sum to 1."""
    reset(app)
    app.locator("#self").check()
    s = wait_state(app, "s.include_self === true")
    assert s["rows"][5]["candidate"] is True and s["rows"][5]["percent"] is not None
    assert abs(sum(r["weight"] for r in s["rows"]) - 1) < 1e-12
    app.locator("#self").uncheck()


def test_typing_a_sentence_shows_its_cards_and_marks_guesses(app):
    """Type a sentence + Enter: its words appear, unknown ones marked ≈, then clickable."""
    reset(app)
    app.fill("#sentence-input", "Il grifomante di Zorro dorme")
    app.press("#sentence-input", "Enter")
    s = wait_state(app, "s.sentence === 'Il grifomante di Zorro dorme'")
    assert [t["text"] for t in s["tokens"]] == ["Il", "grifomante", "di", "Zorro", "dorme"]
    assert [t["known"] for t in s["tokens"]] == [True, False, True, False, True]
    assert app.locator("label.word.guessed").count() == 2
    assert s["focus"] is None and "Scegli una parola" in app.locator("#analysis").inner_text()
    s = select(app, 4)
    assert s["rows"][3]["candidate"] and s["query"] is not None


@pytest.mark.parametrize("index", [0, 1, 2, 3])
def test_every_example_sentence_works(app, index):
    """Each preset loads, selects its word and shows one bar per word."""
    app.select_option("#preset", str(index))
    sentence = app.locator(f'#preset option[value="{index}"]').inner_text()
    s = wait_state(app, f"s.sentence === {sentence!r}")
    assert s["focus"] is not None
    assert app.locator("#analysis .bar-row").count() == len(s["tokens"])


def test_blank_and_too_long_input_keep_the_text_and_say_why(app):
    """Blank input and 61 words give a message; the old sentence stays; the box keeps the text."""
    before = reset(app)
    app.fill("#sentence-input", "   ")
    app.press("#sentence-input", "Enter")
    app.wait_for_selector("#messages li")
    assert "vuota" in app.locator("#messages").inner_text()
    long = " ".join(["gatto"] * 61)
    app.fill("#sentence-input", long)
    app.click("#analyse")
    app.wait_for_function("document.getElementById('messages').innerText.includes('61')")
    assert "60" in app.locator("#messages").inner_text()
    assert app.input_value("#sentence-input") == long
    assert get_state(app)["sentence"] == before["sentence"]


def test_markup_in_the_box_is_shown_as_text_and_never_runs(app):
    """A sentence full of markup appears literally; no dialog, no injected script ran."""
    reset(app)
    payload = '<img src=x onerror="window.__pwned=1;alert(1)"> <b>ciao</b>'
    app.fill("#sentence-input", payload)
    app.press("#sentence-input", "Enter")
    s = wait_state(app, "s.sentence !== 'Il gatto seduto sul tappeto dormiva'")
    assert [t["text"] for t in s["tokens"]][:3] == ["<", "img", "src"]  # split as text
    assert "onerror" in app.locator("#sentence").inner_text()
    assert app.input_value("#sentence-input") == payload
    assert app.locator("#sentence img, #sentence b").count() == 0
    assert app.evaluate("window.__pwned") is None and app.dialogs == []


def test_switching_to_english_translates_the_page_and_the_example(app):
    """English: <html lang>, labels and the example change; no Italian UI string remains."""
    reset(app)
    app.locator('input[name="lang"][value="en"]').check()
    s = wait_state(app, "s.lang === 'en'")
    assert s["sentence"] == "The cat sat on the mat and slept" and s["focus"] == 7
    assert app.evaluate("document.documentElement.lang") == "en"
    body = app.locator("#app").inner_text()
    for italian in ("Scegli", "Maschera", "Frase", "passaggi", "cerca", "Pronto"):
        assert italian not in body
    assert "Causal mask" in body and "looking for" in body
    assert re.search(r"\d\.\d{3}", app.locator("table.steps").inner_text())  # decimal point
    app.locator('input[name="lang"][value="it"]').check()
    s = wait_state(app, "s.lang === 'it'")
    assert s["sentence"] == DEFAULT


def test_the_url_reproduces_what_the_student_sees(app, browser, base_url):
    """The address bar follows every change; opening it elsewhere gives the same state."""
    reset(app)
    app.locator("#mask").check()
    s = select(app, 4)
    app.wait_for_url(lambda url: "focus=4" in url and "mask=1" in url and "lang=it" in url)
    url = app.url
    context, other = open_page(browser, base_url, url[len(base_url):])
    wait_ready(other)
    assert get_state(other) == s
    assert context.outside.urls == []
    context.close()
    app.locator("#mask").uncheck()


def test_no_request_left_the_origin_during_the_walkthrough(app):
    """Everything the page loaded came from its own origin (the recorder saw the requests)."""
    context = app.context
    assert context.outside.seen > 20
    assert context.outside.urls == []
    assert app.errors == []


LINKED = """() => [...document.querySelectorAll('#app .linked')].map(e =>
    e.matches('label.word') ? 'card ' + e.dataset.index : e.matches('.bar-row') ? 'bar ' + e.dataset.index
    : e.matches('table.steps tr') ? 'step ' + e.dataset.index : e.matches('table.heatmap tr') ? 'grid row ' + e.dataset.row
    : e.matches('table.heatmap th') ? 'grid column ' + e.dataset.col : e.matches('.mini-bars li') ? 'head ' + e.dataset.index
    : e.className).sort()"""


def test_a_word_pointed_at_in_one_view_shows_in_every_view(app):
    """Hovering gatto's row of the steps table marks gatto's card, bar, the grid's row and column
    and its heads' bars, and nothing else; the selected word stays selected; Tab onto a card
    does the same by keyboard; leaving unmarks; screen readers hear nothing new."""
    reset(app)
    spoken = app.locator("#announce").text_content()
    app.locator('table.steps tr[data-index="1"]').hover()
    seen = app.evaluate(LINKED)
    heads = [m for m in seen if m.startswith("head ")]
    assert [m for m in seen if not m.startswith("head ")] == \
        ["bar 1", "card 1", "grid column 1", "grid row 1", "step 1"]
    assert heads and set(heads) == {"head 1"}  # gatto among the heads' largest weights
    assert app.locator('label.word[data-index="5"] input').is_checked()  # still the selected word
    assert app.locator("table.heatmap tr.selected").get_attribute("data-row") == "5"
    app.locator('table.heatmap th[data-col="3"]').hover()
    assert app.evaluate(LINKED)[:3] == ["bar 3", "card 3", "grid column 3"]
    app.mouse.move(1, 1)  # out of the page's views
    assert app.evaluate(LINKED) == []
    app.locator('label.word[data-index="2"] input').focus()
    assert "card 2" in app.evaluate(LINKED) and "bar 2" in app.evaluate(LINKED)
    assert app.locator("#announce").text_content() == spoken  # no announcement for a highlight
    assert app.locator(".linked[aria-live], .linked [aria-live]").count() == 0
