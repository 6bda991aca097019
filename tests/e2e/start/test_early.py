"""Before Python is up: the pre-rendered example answers word clicks and its two switches at once
(static/early.js, from states written at build time), and Python takes over with the same page.

The numbers are checked against numpy (tests/reference.py), and every early answer against
what the page draws once Python is up, element by element.
"""

import json

import numpy as np
import pytest

from tests.e2e.conftest import get_state, new_context, wait_ready, wait_state
from tests.reference import W_Q, attention_row, lexicon_cards

WORDS = ["Il", "gatto", "seduto", "sul", "tappeto", "dormiva"]  # the default example

# A region as a tree of [tag, sorted attributes, children], texts as they are: two drawings
# compared this way differ only where a student could see or hear a difference. The
# `disabled` attributes are left out (the pre-rendered page's controls wait for Python), and
# a radio's `checked` is the one it has now, not the one it was drawn with; an empty text is none.
SHAPE = """(selector) => {
  const kept = (a) => a.name !== 'class' ? a.value : a.value.split(' ').filter(c => c !== 'linked').join(' ');  // (not a pointer's mark)
  const attributes = (node) => [...node.attributes].filter(a => a.name !== 'disabled' && a.name !== 'checked' && (a.value === '' || kept(a) !== ''))
    .map(a => a.name + '=' + kept(a))
    .concat(node.tagName === 'INPUT' ? ['(checked)=' + node.checked] : []).sort();
  const walk = (node) => node.nodeType === 3 ? node.data : node.nodeType !== 1 ? null :
    [node.tagName, attributes(node), [...node.childNodes].map(walk).filter(c => c !== null && c !== '')];
  return walk(document.querySelector(selector));
}"""
REGIONS = ("#sentence", "#settings", "#analysis")


class Held:
    """Python's runtime (pyodide.asm.wasm) held back until `release()`: the page meanwhile is
    what a student on a slow line sees while the engine downloads."""

    def __init__(self, context):
        self.routes, self.released = [], False
        context.route("**/pyodide.asm.wasm", self._hold)

    def _hold(self, route):
        if self.released:
            route.continue_()
        else:
            self.routes.append(route)

    def release(self):
        self.released = True
        for route in self.routes:
            route.continue_()


def loading_page(browser, base_url, query="", **kwargs):
    """A page whose engine is held back; returns (context, page, held) once the words show."""
    context = new_context(browser, base_url, **kwargs)
    held = Held(context)
    page = context.new_page()
    page.errors = []
    page.on("pageerror", lambda e: page.errors.append(str(e)))
    page.goto(base_url + query)
    page.wait_for_selector("label.word")
    return context, page, held


def first_difference(a, b, path="/"):
    """Where two SHAPE trees first differ, and how (for the failure message)."""
    if type(a) is not type(b) or isinstance(a, str) or len(a) != len(b):
        return f"{path}: {str(a)[:300]} ≠ {str(b)[:300]}"
    if len(a) == 3 and isinstance(a[0], str) and a[:2] != b[:2]:
        return f"{path}{a[0]}: {a[1]} ≠ {b[1]}"
    for k, (x, y) in enumerate(zip(a, b)):
        if x != y:
            step = f"{a[0]}[{k}]/" if len(a) == 3 and isinstance(a[0], str) else f"{k}/"
            return first_difference(x, y, path + step)
    return None


def pick(page, i):
    page.locator("label.word").nth(i).click()


def weights_shown(page):
    """The bars' aria-valuenow (percent, one decimal) by word, for the words that are candidates."""
    return page.evaluate("""() => Object.fromEntries([...document.querySelectorAll('#view-bars [role=meter]')]
        .map(b => [b.getAttribute('aria-label'), +b.getAttribute('aria-valuenow')]))""")


def expected(focus, mask=False, include_self=False):
    cards = [lexicon_cards("it")[w.lower()] for w in WORDS]
    _, _, weights, allowed = attention_row(cards, W_Q, focus, mask, include_self)
    return {WORDS[j]: round(100 * weights[j], 1) for j in range(len(WORDS)) if allowed[j]}


def test_a_word_click_before_python_is_answered_at_once(browser, base_url):
    """With the engine still downloading, a click on «gatto» selects it: its bars, the state JSON
    and the address say so, with numpy's numbers; the page still says it is loading."""
    context, page, held = loading_page(browser, base_url)
    assert page.locator('input[name="word"]:enabled').count() == 6  # from the first paint
    pick(page, 1)
    page.wait_for_function("JSON.parse(document.getElementById('attention-state').textContent).focus === 1")
    assert page.evaluate("document.documentElement.dataset.state") == "loading"
    assert page.locator('input[name="word"][value="1"]').is_checked()
    assert "gatto" in page.locator("#view-query").inner_text()
    assert weights_shown(page) == pytest.approx(expected(1), abs=0.051)
    page.wait_for_url(lambda url: "focus=1" in url and "s=Il+gatto" in url)
    assert "gatto" in page.locator("#announce").inner_text()
    assert "rispondono già" in page.locator("#status-note").inner_text()
    assert page.is_disabled("#sentence-input") and page.is_disabled("#temp")  # these wait for Python
    assert page.errors == []
    context.close()


def test_the_two_switches_before_python_are_answered_with_the_right_numbers(browser, base_url):
    """The mask and include-self switches answer before Python too, every word with numpy's weights."""
    context, page, held = loading_page(browser, base_url)
    page.wait_for_function("window.attentionExplorer.early.answering()")
    for mask, include_self in ((False, True), (True, True), (True, False)):
        if page.is_checked("#mask") != mask:
            page.locator("#mask").click()
        if page.is_checked("#self") != include_self:
            page.locator("#self").click()
        for focus in (0, 2, 5):
            pick(page, focus)
            state = wait_state(page, f"s.focus === {focus} && s.mask === {json.dumps(mask)} "
                                     f"&& s.include_self === {json.dumps(include_self)}")
            cards = [lexicon_cards("it")[w.lower()] for w in WORDS]
            _, _, weights, _ = attention_row(cards, W_Q, focus, mask, include_self)
            assert np.allclose([r["weight"] for r in state["rows"]], weights, atol=1e-12)
            assert weights_shown(page) == pytest.approx(expected(focus, mask, include_self), abs=0.051)
    assert page.evaluate("document.documentElement.dataset.state") == "loading"
    context.close()


def test_every_early_answer_is_what_python_draws(browser, base_url, app):
    """Each of the 24 states the example reaches early shows the sentence and the analysis exactly
    as the page draws them with Python up (the shared ready page, set by the same clicks)."""
    context, page, held = loading_page(browser, base_url)
    page.wait_for_function("window.attentionExplorer.early.answering()")
    for mask in (False, True):
        for include_self in (False, True):
            for target in (page, app):
                if target.is_checked("#mask") != mask:
                    target.locator("#mask").click()
                if target.is_checked("#self") != include_self:
                    target.locator("#self").click()
            for focus in range(6):
                drawn = []
                for target in (page, app):
                    pick(target, focus)
                    wait_state(target, f"s.focus === {focus} && s.mask === {json.dumps(mask)} "
                                       f"&& s.include_self === {json.dumps(include_self)}")
                    drawn.append([target.evaluate(SHAPE, region) for region in REGIONS])
                assert drawn[0] == drawn[1], (f"focus {focus}, mask {mask}, self {include_self}: "
                                              f"{first_difference(drawn[0], drawn[1])}")
    context.close()


def test_python_takes_over_an_early_answer_with_no_visible_change(browser, base_url):
    """Early clicks, then the engine arrives: the same elements stay (the focused radio keeps the
    focus), the state is the same, and the page becomes ready with every control enabled."""
    context, page, held = loading_page(browser, base_url)
    page.wait_for_function("window.attentionExplorer.early.answering()")
    page.locator("#self").click()
    pick(page, 2)
    page.wait_for_function("JSON.parse(document.getElementById('attention-state').textContent).focus === 2")
    page.locator('input[name="word"][value="2"]').focus()
    page.evaluate("document.querySelectorAll('#analysis *').forEach(e => e.early = true)")
    before = [page.evaluate(SHAPE, region) for region in REGIONS]
    state = get_state(page)
    held.release()
    wait_ready(page)
    assert [page.evaluate(SHAPE, region) for region in REGIONS] == before
    assert page.evaluate("[...document.querySelectorAll('#analysis *')].every(e => e.early)")  # not redrawn
    assert page.evaluate("document.activeElement.name + document.activeElement.value") == "word2"
    after = get_state(page)
    assert (after["focus"], after["include_self"], after["mask"]) == (2, True, False)
    assert np.allclose([r["weight"] for r in after["rows"]], [r["weight"] for r in state["rows"]], atol=1e-12)
    assert page.locator("#app [disabled]").count() == 0
    assert "dal vivo" in page.locator("#status-note").inner_text()
    pick(page, 4)  # and Python answers from here on
    wait_state(page, "s.focus === 4 && s.include_self")
    assert "focus=4" in page.url
    assert page.errors == []
    context.close()


def test_the_editor_shown_while_python_starts_becomes_its_inputs_and_stays_open(browser, base_url):
    """The editor's numbers, text while Python starts, are its cells' values once it is up; a
    matrix opened meanwhile stays open, and its cells can be edited."""
    context, page, held = loading_page(browser, base_url)
    w_k = page.locator("#editor details.edit-matrix").nth(1)
    w_k.locator("summary").click()
    shown = w_k.locator("span.cell").all_inner_texts()
    assert len(shown) == 16 and page.locator("#editor input").count() == 0
    held.release()
    wait_ready(page)
    assert w_k.get_attribute("open") is not None
    assert [c.input_value() for c in w_k.locator("input.cell").all()] == shown
    assert page.locator("#editor input.cell").count() == 3 * 16 + 4 * len(WORDS)
    page.fill("#cell-w_k-0-0", "2")
    page.press("#cell-w_k-0-0", "Enter")
    page.wait_for_function("document.getElementById('cell-w_k-0-0').classList.contains('edited')")
    assert page.errors == []
    context.close()


def test_a_first_word_click_needs_nothing_but_the_page(browser, base_url):
    """Every request after the page itself fails (a filter, a dropped line): a word click is still
    answered at once with numpy's numbers, from what came with the first paint."""
    context = new_context(browser, base_url)
    fetched = []

    def the_page_alone(route):
        if route.request.url == base_url:
            return route.continue_()
        fetched.append(route.request.url)
        route.abort()
    context.route(base_url + "**", the_page_alone)
    page = context.new_page()
    page.goto(base_url)
    pick(page, 1)
    page.wait_for_function("JSON.parse(document.getElementById('attention-state').textContent).focus === 1")
    assert weights_shown(page) == pytest.approx(expected(1), abs=0.051)
    assert "gatto" in page.locator("#announce").inner_text()
    assert fetched and not any("early" in url for url in fetched)  # (Python's files were asked for, in vain)
    context.close()


def test_a_switch_whose_early_answer_cannot_come_is_answered_by_python(browser, base_url):
    """With the other switches' early states unreachable and no engine yet, a word click is
    answered, a mask click stays checked, and Python shows both once it is up."""
    context = new_context(browser, base_url)
    held = Held(context)
    context.route("**/static/early.json*", lambda route: route.abort())
    page = context.new_page()
    page.goto(base_url)
    page.wait_for_selector("label.word")
    pick(page, 3)
    wait_state(page, "s.focus === 3 && !s.mask")
    with page.expect_console_message(lambda m: "no more early answers" in m.text):
        page.locator("#mask").click()
    assert page.locator('input[name="word"][value="3"]').is_checked() and page.is_checked("#mask")
    assert get_state(page)["mask"] is False  # (not answered early: its state could not come)
    held.release()
    wait_ready(page)
    state = wait_state(page, "s.focus === 3 && s.mask")
    assert "sul" in page.locator("#view-query").inner_text()
    assert state["rows"][3]["candidate"] is False
    context.close()


def test_clicks_while_python_starts_are_all_answered(browser, base_url):
    """Clicking word after word while the engine loads: each click is answered, the last one is
    what the page shows when ready, and nothing is dropped on the way."""
    context, page, held = loading_page(browser, base_url)
    context.new_cdp_session(page).send("Emulation.setCPUThrottlingRate", {"rate": 4})  # a phone's pace
    pick(page, 2)
    pick(page, 4)
    held.release()
    clicks, focus = 2, 4
    while page.evaluate("document.documentElement.dataset.state") == "loading" and clicks < 400:
        focus = clicks % 6
        pick(page, focus)
        clicks += 1
        page.wait_for_timeout(50)
    wait_ready(page)
    state = wait_state(page, f"s.focus === {focus}")
    assert page.locator(f'input[name="word"][value="{focus}"]').is_checked()
    assert WORDS[focus] in page.locator("#view-query").inner_text()
    pick(page, (focus + 1) % 6)
    wait_state(page, f"s.focus === {(focus + 1) % 6}")
    assert state["focus"] == focus
    context.close()


def test_an_engine_that_cannot_start_leaves_the_example_answering(browser, base_url):
    """The runtime blocked: the page says Python could not start, and the example's words and
    switches still answer, nothing the student chose is lost."""
    context = new_context(browser, base_url)
    context.route("**/*.wasm", lambda route: route.abort())
    page = context.new_page()
    page.goto(base_url)
    page.wait_for_selector("label.word")
    page.wait_for_function("window.attentionExplorer.early.answering()")
    pick(page, 1)
    page.wait_for_function("document.documentElement.dataset.state === 'error'", timeout=60_000)
    assert "Non è stato possibile avviare Python" in page.locator("#status").inner_text()
    assert "rispondono ancora" in page.locator("#status-note").inner_text()
    assert get_state(page)["focus"] == 1 and page.locator('input[name="word"][value="1"]').is_checked()
    page.locator("#self").click()
    state = wait_state(page, "s.include_self && s.focus === 1")
    assert state["rows"][1]["candidate"] is True
    context.close()


def test_a_link_with_a_state_waits_for_python(browser, base_url):
    """A link asking for another state shows the example meanwhile with its words waiting (no
    early answer could be right), and the note out of sight in place."""
    context, page, held = loading_page(browser, base_url, "?focus=2&self=1")
    page.wait_for_function("document.querySelectorAll('input[name=\"word\"]:disabled').length === 6")
    assert page.locator("#status-note").is_hidden()
    held.release()
    wait_ready(page)
    state = get_state(page)
    assert (state["focus"], state["include_self"]) == (2, True)
    context.close()


def test_early_answers_in_english_and_on_a_phone(browser, base_url):
    """On a 360 px phone in the English example (lang=en is a link with a state: it waits), and
    the Italian example's early answer is reachable by keyboard: arrows move the word."""
    context, page, held = loading_page(browser, base_url, viewport={"width": 360, "height": 740})
    page.wait_for_function("window.attentionExplorer.early.answering()")
    page.locator('input[name="word"][value="5"]').focus()
    page.keyboard.press("ArrowLeft")
    page.wait_for_function("JSON.parse(document.getElementById('attention-state').textContent).focus === 4")
    assert "tappeto" in page.locator("#announce").inner_text()
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= 360
    context.close()


def test_a_reload_of_the_example_answers_early_too(browser, base_url):
    """Python writes the state into the address: a reload (or a shared link of the example) names
    one of the example's states, and its words and switches answer at once, from that state;
    Enter toggles a switch as it will with Python."""
    example = "?s=Il+gatto+seduto+sul+tappeto+dormiva&focus=2&mask=0&self=1&lang=it&embed=1"
    context, page, held = loading_page(browser, base_url, example)
    page.wait_for_function("window.attentionExplorer.early.answering()")
    assert page.locator('input[name="word"][value="2"]').is_checked() and page.is_checked("#self")
    assert get_state(page)["focus"] == 2 and page.locator("#status-note").is_visible()
    pick(page, 4)
    page.wait_for_function("JSON.parse(document.getElementById('attention-state').textContent).focus === 4")
    page.locator("#mask").focus()
    page.keyboard.press("Enter")
    state = wait_state(page, "s.mask && s.focus === 4 && s.include_self")
    page.wait_for_url(lambda url: "mask=1" in url and "embed=1" in url)  # (written within 100 ms)
    held.release()
    wait_ready(page)
    after = get_state(page)
    assert (after["focus"], after["mask"], after["include_self"]) == (4, True, True)
    assert np.allclose([r["weight"] for r in after["rows"]], [r["weight"] for r in state["rows"]], atol=1e-12)
    context.close()


def test_a_reload_of_a_word_with_the_switches_as_drawn_answers_from_the_page_alone(browser, base_url):
    """A reload whose address names a word with the switches as pre-rendered is shown and answers
    from the states the page carries: its words enabled at once, no early file fetched, and the
    note saying what answers already."""
    example = "?s=Il+gatto+seduto+sul+tappeto+dormiva&focus=2&mask=0&self=0&lang=it"
    context, page, held = loading_page(browser, base_url, example)
    page.wait_for_function("window.attentionExplorer.early.answering()")
    assert page.locator('input[name="word"][value="2"]').is_checked()
    assert page.locator('input[name="word"]:enabled').count() == 6
    pick(page, 4)
    state = wait_state(page, "s.focus === 4")
    assert weights_shown(page) == pytest.approx(expected(4), abs=0.051) and not state["mask"]
    asked = page.evaluate("performance.getEntriesByType('resource').map(r => r.name).filter(n => n.includes('/static/early'))")
    assert page.locator("#status-note").is_visible() and asked == []
    context.close()
