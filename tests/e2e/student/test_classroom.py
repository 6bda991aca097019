"""In the classroom: guess first, the score, exercise links, a host page reacting to the
quiz, and the terminal giving the page's own state and table for the same link."""

import json
import math
import re
import subprocess
import sys
from urllib.parse import parse_qs, urlsplit

import pytest

from tests.conftest import ROOT
from tests.contract_check import assert_valid_state
from tests.e2e.conftest import get_state, more_settings, new_context, open_host, open_page, wait_ready, wait_state
from tests.e2e.conftest import axe_violations

ANSWER = ("#view-bars", "#view-table", ".heatmap", "#view-output")


def hidden(page):
    """True when none of the answer's views is on the page."""
    return all(page.locator(sel).count() == 0 for sel in ANSWER)


@pytest.fixture
def quiz_page(browser, base_url):
    context, page = open_page(browser, base_url, "?quiz=1", viewport={"width": 1280, "height": 900})
    wait_ready(page)
    yield page
    assert context.outside.urls == [] and page.errors == []
    context.close()


def test_guess_first_hides_the_answer_until_a_guess_then_reveals_it(quiz_page):
    """quiz=1: «dormiva» shows its question and a radio group, no bars, table, matrix or new
    card; a guess by keyboard (arrow keys, Enter) reveals them with the feedback, announced."""
    page = quiz_page
    state = get_state(page)
    assert state["quiz"] == {"guess": None, "winners": [1], "correct": None, "right": 0, "tried": 0}
    assert_valid_state(state)
    assert hidden(page) and page.locator("#view-query").is_visible()
    assert "Prima indovina" in page.locator("#announce").text_content()
    page.locator('input[name="guess"][value="0"]').focus()
    for _ in range(3):  # Il → gatto → seduto → sul: arrows move the choice without revealing
        page.keyboard.press("ArrowRight")
    assert hidden(page)
    page.keyboard.press("Enter")
    state = wait_state(page, "s.quiz && s.quiz.tried === 1")
    assert state["quiz"] == {"guess": 3, "winners": [1], "correct": False, "right": 0, "tried": 1}
    assert all(page.locator(sel).first.is_visible() for sel in ANSWER)
    said = page.locator("#announce").text_content()
    assert said.startswith("Non proprio: la più guardata è «gatto» (42%); il peso di «sul» è 10%.")
    assert "3 × 0,95 = 2,85" in page.locator(".quiz-feedback").text_content()
    assert page.evaluate("document.activeElement.id") == "next-word"
    assert page.locator(".quiz-score p").text_content() == "Punteggio: 0 su 1"


def test_score_updates_and_resets_over_several_words(quiz_page):
    """Next word asks again (answer hidden); a right guess makes 1 out of 2; reset gives 0 out of 0."""
    page = quiz_page
    page.locator(".guess-choice", has_text="tappeto").click()
    page.click("#guess-submit")
    wait_state(page, "s.quiz.tried === 1")
    page.click("#next-word")  # dormiva is the last word: next is «Il», the first
    state = wait_state(page, "s.focus === 0 && s.quiz.guess === null")
    assert hidden(page)
    winner = state["quiz"]["winners"][0]
    page.locator(f'input[name="guess"][value="{winner}"]').check()
    page.click("#guess-submit")
    state = wait_state(page, "s.quiz.tried === 2")
    assert state["quiz"]["correct"] is True and state["quiz"]["right"] == 1
    assert page.locator(".quiz-score p").text_content() == "Punteggio: 1 su 2"
    assert page.locator("#announce").text_content().startswith("Hai indovinato")
    page.click("#quiz-reset-score")
    state = wait_state(page, "s.quiz.tried === 0")
    assert state["quiz"]["right"] == 0 and page.locator(".quiz-score p").text_content() == "Punteggio: 0 su 0"


def test_no_guess_asks_for_one_and_reveals_nothing(quiz_page):
    """'Show the answer' with no word picked says to pick one first; nothing is revealed or scored."""
    page = quiz_page
    page.click("#guess-submit")
    page.wait_for_function("document.getElementById('guess-status').textContent !== ''")
    assert page.locator("#guess-status").text_content() == "Scegli prima una parola: poi vedrai la risposta."
    assert hidden(page) and get_state(page)["quiz"]["tried"] == 0


def test_guess_first_with_the_mask_the_switch_and_a_tie(quiz_page):
    """Mask on: «gatto» is offered only «Il»; the first word has nothing to guess (explanation
    shown); the switch turns guess-first off; on a tie either word counts."""
    page = quiz_page
    page.locator("#mask").check()
    page.locator('label.word[data-index="1"]').click()
    wait_state(page, "s.focus === 1 && s.mask")
    assert page.locator('input[name="guess"]').count() == 1 and hidden(page)
    page.locator('label.word[data-index="0"]').click()
    state = wait_state(page, "s.focus === 0")
    assert state["quiz"]["winners"] == [] and page.locator(".explain").is_visible()
    more_settings(page)
    page.locator("#quiz").uncheck()
    state = wait_state(page, "s.quiz === null")
    page.locator("#mask").uncheck()
    more_settings(page)
    page.locator("#quiz").check()
    page.fill("#sentence-input", "gatto gatto dormiva")
    page.press("#sentence-input", "Enter")
    wait_state(page, "s.tokens.length === 3 && s.quiz !== null")
    page.locator('label.word[data-index="2"]').click()
    wait_state(page, "s.focus === 2")
    page.locator('input[name="guess"][value="1"]').check()
    page.click("#guess-submit")
    state = wait_state(page, "s.quiz.tried === 1")
    assert state["quiz"]["winners"] == [0, 1] and state["quiz"]["correct"] is True


@pytest.mark.parametrize("lang", ["it", "en"])
def test_guess_first_is_accessible_in_both_languages_and_on_phones(browser, base_url, lang):
    """axe finds nothing while guessing and after the reveal; at 360 px nothing scrolls sideways."""
    context, page = open_page(browser, base_url, f"?quiz=1&lang={lang}", viewport={"width": 1280, "height": 800})
    wait_ready(page)

    def at_both_widths(what, shots=False):  # one page, resized: 1280 then 360 px
        for width in (1280, 360):
            page.set_viewport_size({"width": width, "height": 800})
            assert axe_violations(page) == [], (what, width)
            assert page.evaluate("document.documentElement.scrollWidth") <= width, (what, width)
            if shots:
                page.screenshot(path=str(ROOT / "test-results" / f"quiz-{lang}-{width}.png"), full_page=True)

    at_both_widths("guessing")
    page.locator('input[name="guess"]').first.check()
    page.locator('select[name="guess-pct"]').select_option("30")
    page.click("#guess-submit")
    wait_state(page, "s.quiz.tried === 1")
    at_both_widths("revealed", shots=True)
    context.close()


def test_exercise_link_and_embed_reproduce_the_state_with_guess_first_on(browser, base_url):
    """'Copy exercise link' gives this sentence, word and settings with quiz=1; opened, the
    link asks the same question; the embed snippet's iframe carries the same plus embed=1."""
    context, page = open_page(browser, base_url, "?s=Il+cane+rincorre+la+palla&focus=2&mask=1&temp=2")
    wait_ready(page)
    before = get_state(page)
    page.click("#copy-exercise")
    page.wait_for_function("document.getElementById('share-text').value.includes('quiz=1')")
    link = page.locator("#share-text").input_value()
    query = parse_qs(urlsplit(link).query)
    assert query["quiz"] == ["1"] and query["focus"] == ["2"] and "embed" not in query
    page.click("#copy-exercise-embed")
    page.wait_for_function("document.getElementById('share-text').value.startsWith('<iframe')")
    snippet = page.locator("#share-text").input_value()
    src = re.search(r'<iframe src="([^"]+)"', snippet).group(1).replace("&amp;", "&")
    assert parse_qs(urlsplit(src).query)["embed"] == ["1"] and parse_qs(urlsplit(src).query)["quiz"] == ["1"]
    context.close()
    for url in (link, src):
        context, page = open_page(browser, base_url, "?" + urlsplit(url).query)
        wait_ready(page)
        state = get_state(page)
        for key in ("sentence", "focus", "mask", "temperature", "include_self", "scaled", "lang", "rows"):
            assert state[key] == before[key], key
        assert state["quiz"]["guess"] is None and hidden(page)
        context.close()


def test_host_page_gets_each_guess_and_its_result(browser, base_url):
    """A course page framing an exercise gets attention:state with quiz: the guess, the
    winners, right or wrong and the score, after each guess."""
    context, host = open_host(browser, base_url, "./?quiz=1&embed=1")
    frame = host.frame_locator("iframe")
    frame.locator('input[name="guess"][value="1"]').check()
    frame.locator("#guess-submit").click()
    host.wait_for_function("window.got.some(m => m.type === 'attention:state' && m.state.quiz && m.state.quiz.tried === 1)")
    quiz = host.evaluate("window.got.filter(m => m.type === 'attention:state').at(-1).state.quiz")
    assert quiz == {"guess": 1, "winners": [1], "correct": True, "right": 1, "tried": 1}
    assert context.outside.urls == []
    context.close()


def same(a, b):
    """Equal JSON values, floats to 1e-14 relative: the browser's C library may round an
    exponential differently from this machine's in the last bit (0.1236546649750275 there,
    0.12365466497502749 here); every text, flag, index and shape must be identical."""
    if isinstance(a, float) or isinstance(b, float):
        return isinstance(a, (int, float)) and isinstance(b, (int, float)) and math.isclose(a, b, rel_tol=1e-14, abs_tol=1e-300)
    if isinstance(a, list) and isinstance(b, list):
        return len(a) == len(b) and all(same(x, y) for x, y in zip(a, b))
    if isinstance(a, dict) and isinstance(b, dict):
        return a.keys() == b.keys() and all(same(a[k], b[k]) for k in a)
    return a == b and type(a) is type(b)


@pytest.mark.parametrize("query, args", [
    ("?s=Il+gatto+seduto+sul+tappeto+dormiva&focus=2&mask=1&temp=2&quiz=1",
     ["Il gatto seduto sul tappeto dormiva", "--focus", "2", "--mask", "--temp", "2", "--quiz"]),
    ("?lang=en&s=Lucy+%26+the+<b>dog</b>&focus=1&self=1&scaled=0",
     ["Lucy & the <b>dog</b>", "--lang", "en", "--focus", "1", "--self", "--no-scaled"]),
])
def test_terminal_gives_the_page_state_and_table_for_the_same_link(browser, base_url, query, args):
    """`python -m app … --json` equals the browser's state JSON on every field of the contract
    (floats to the last bits of the C library's exponential) for the same link (before any guess), and the terminal's table has the page's cell texts
    row by row."""
    context, page = open_page(browser, base_url, query)
    wait_ready(page)
    browser_state = get_state(page)
    run = lambda *extra: subprocess.run([sys.executable, "-m", "app", *args, *extra], cwd=ROOT,  # noqa: E731
                                        capture_output=True, text=True, encoding="utf-8", timeout=60)
    terminal = run("--json")
    assert terminal.returncode == 0, terminal.stderr
    terminal_state = json.loads(terminal.stdout)
    assert set(terminal_state) == set(browser_state)
    for key in browser_state:
        assert same(terminal_state[key], browser_state[key]), key
    if browser_state["quiz"] is not None:  # guess first: the table shows after a guess
        page.locator('input[name="guess"]').first.check()
        page.click("#guess-submit")
        wait_state(page, "s.quiz.tried === 1")
    rows = page.eval_on_selector_all(
        "table.steps tr", "trs => trs.map(tr => [...tr.children].map(c => c.textContent.trim().replace(/\\s+/g, ' '))"
        ".filter(t => t))")
    lines = run().stdout.splitlines()
    start = next(i for i, line in enumerate(lines) if line.startswith(rows[0][0]))
    assert [re.split(r"\s{2,}", line.strip()) for line in lines[start:start + len(rows)]] == rows
    context.close()


def test_exercise_link_keeps_the_example_answer_out_of_sight_while_python_starts(browser, base_url):
    """With quiz=1, the pre-rendered example (the very question of the default exercise)
    shows its sentence but not its bars or table while Python is still loading."""
    context = new_context(browser, base_url)
    context.route("**/pyodide.asm.wasm", lambda route: None)  # never answers: Python never starts
    page = context.new_page()
    page.goto(base_url + "?quiz=1&focus=5")
    page.wait_for_selector("#view-bars", state="attached")
    assert page.evaluate("document.documentElement.dataset.state") == "loading"
    assert page.locator("label.word").first.is_visible()
    assert not page.locator("#view-bars").is_visible() and not page.locator("#view-table").is_visible()
    page.goto(base_url + "?focus=5")
    assert page.locator("#view-bars").is_visible()  # without quiz the example shows as always
    context.close()
