"""The guided path, "Passo per passo" / "Step by step", as a student walks it: each step shows
the sentence and only what it adds, its link and state say which step it is, its "try this"
holds on the page, the bar answers the keyboard, and an embedded step works (axe on every step:
tests/e2e/views/test_every_path.py)."""

import json

import numpy as np
import pytest

from app import render  # noqa: F401 (every view declared)
from app.i18n import STRINGS
from app.views import registry
from tests.e2e.conftest import (FRAME_POLL_MS, READY_TIMEOUT, get_state, language_page, new_context, open_host, open_page,
                                wait_ready, wait_state)
from tests.e2e.conftest import SHOTS
from tests.path_reference import WORDS, expected, quoted, where
from tests.reference import W_Q, attention_matrix, lexicon_cards, rule_percent

# Every view, by its id, and the element a step hides when it does not show it (the registry's:
# a view declared there is checked on every step).
VIEWS = {view.id: view.css for view in registry.views()}
# (the core's: a lab's view joins the explorer once its lab is there, app/labs/)
EXPLORER = {view.id for view in registry.views("sentence") if view.explorer and registry.lab_of(view.id) is None}
# What each step shows besides the sentence, written out here (not read from app/path.py).
SHOWN = {
    1: (), 2: ("query",), 3: ("query", "table"), 4: ("table",),
    5: ("bars", "table"), 6: ("bars", "heatmap"), 7: ("bars", "output"),
    8: ("heatmap",), 9: ("heads", "multi"), 10: ("bars", "order"), 11: ("layer2",),
    12: ("steps", "bars", "table", "heatmap"),
}
COUNT = len(SHOWN)
SHOT_STEPS = tuple(range(1, COUNT + 1))  # (every step, at 1280 and 360 px: docs/testing.md)


def shown_views(page):
    """The views on screen now (rendered with a box), by id."""
    return page.evaluate("""views => Object.keys(views).filter(id => {
        const e = document.querySelector(views[id]);
        return !!e && e.getClientRects().length > 0; })""", VIEWS)


def at_step(page, n):
    return wait_state(page, f"s.step === {'null' if n is None else n}")


@pytest.fixture(scope="module", params=["it", "en"])
def walk(request, browser, base_url):
    yield from language_page(browser, base_url, request.param, "step=1")


def test_every_step_shows_what_it_adds_with_its_link_and_is_accessible(walk):
    """Next from 1 to N: the step's title and "k / N", only its views, step=k in the address and the
    state, matrix mode at the end; no sideways scroll at 360 px; screenshots of three steps. (Axe on
    every step of every path: tests/e2e/views/test_every_path.py.)"""
    page, lang = walk, walk.lang
    strings = STRINGS[lang]
    SHOTS.mkdir(exist_ok=True)
    for n in range(1, COUNT + 1):
        if n > 1:
            page.locator("#step-next").click()
        state = at_step(page, n)
        assert page.locator(".path-progress [aria-hidden]").inner_text().split() == [str(n), "/", str(COUNT)]
        title = page.locator("#path-title").inner_text()
        assert title.startswith(f"{n}. ") and len(title) > 5
        assert page.locator(".path-try").is_visible() and not page.locator(".path-try details p").is_visible()
        assert sorted(shown_views(page)) == sorted(SHOWN[n]), n
        assert page.locator("label.word, #mm-q").first.is_visible()  # the sentence (matrix mode: Q) stays
        assert not page.locator('.tagline a[href="#about"]').is_visible()  # (its explanation is hidden on a step)
        assert state["mode"] == ("matrix" if n == COUNT else "sentence")
        page.wait_for_function(f"new URLSearchParams(location.search).get('step') === '{n}'")
        if n in SHOT_STEPS:
            page.screenshot(path=str(SHOTS / f"step-{n}-{lang}-1280.png"))
        page.set_viewport_size({"width": 360, "height": 640})
        assert page.evaluate("document.documentElement.scrollWidth") <= 360, f"step {n}: no sideways scroll"
        if n in SHOT_STEPS:
            page.evaluate("scrollTo(0, 0)")
            page.screenshot(path=str(SHOTS / f"step-{n}-{lang}-360.png"))
        page.set_viewport_size({"width": 1280, "height": 900})
    assert page.locator("#step-next").is_disabled()
    assert strings["path_name"] in page.locator(".path-bar").inner_text()


def test_the_step_bar_answers_the_keyboard_and_leads_back_to_the_explorer(walk):
    """Arrows on the bar go back and on (the focus stays on the bar), the live region says the step,
    "Explore everything" shows every view again and "Step by step" comes back to step 1."""
    page, strings = walk, STRINGS[walk.lang]
    page.goto(page.url.split("?")[0] + f"?lang={walk.lang}&step={COUNT}")  # (its own start: the last step)
    wait_ready(page)
    assert page.locator("#step-next").is_disabled()  # (the end of the path)
    page.locator("#step-prev").click()
    at_step(page, COUNT - 1)
    page.locator("#step-prev").focus()
    page.keyboard.press("ArrowLeft")
    at_step(page, COUNT - 2)
    assert page.evaluate("document.activeElement.id") == "step-prev"
    page.keyboard.press("ArrowRight")
    at_step(page, COUNT - 1)
    assert page.evaluate("document.activeElement.closest('.path-bar') !== null")
    said = page.locator("#announce").inner_text()
    assert said.startswith(strings["path_said"].split("{")[0]) and strings["path_layer2_title"] in said
    page.locator("#step-exit").focus()
    page.keyboard.press("Enter")
    state = at_step(page, None)
    assert state["step"] is None and page.locator("#path").inner_text() == ""
    assert sorted(shown_views(page)) == sorted(EXPLORER)
    assert page.evaluate("document.activeElement.id") == "step-start"
    page.wait_for_function("!new URLSearchParams(location.search).has('step')")  # (written just after)
    page.keyboard.press("Enter")
    at_step(page, 1)
    assert page.evaluate("document.activeElement.id") == "step-next"
    assert page.locator("#step-prev").is_disabled()


def test_the_mask_and_scale_steps_try_this_holds_on_the_page(walk):
    """Step 6: mask on, second word: the first gets 100%. Step 4: without ÷ √d_k the cat's share is
    numpy's, and the revealed answer says the same number."""
    page, lang = walk, walk.lang
    if get_state(page)["step"] is not None:  # (from the explorer, through the page's own way in)
        page.locator("#step-exit").click()
        at_step(page, None)
    page.locator("#step-start").click()
    at_step(page, 1)
    for n in range(2, 7):
        page.locator("#step-next").click()
        at_step(page, n)
    page.locator("#mask").check()
    page.locator('label.word[data-index="1"]').click()
    state = wait_state(page, "s.focus === 1 && s.mask && s.step === 6")
    assert state["rows"][0]["weight"] == 1.0
    assert page.locator('#view-bars .bar-row[data-index="0"] .bar-value').inner_text() == "100%"
    page.locator(".path-try summary").click()
    assert "100%" in page.locator(".path-try details p").inner_text()
    page.locator("#mask").uncheck()
    page.locator('label.word:last-of-type').click()
    for n in (5, 4):
        page.locator("#step-prev").click()
        at_step(page, n)
    page.locator("#scaled").uncheck()
    state = wait_state(page, "s.step === 4 && s.scaled === false")
    words = [t["text"].lower() for t in state["tokens"]]
    known = lexicon_cards(lang)
    x = np.array([known[w] for w in words])
    focus = state["focus"]
    expected = attention_matrix(x @ np.array(W_Q), x, x, scaled=False)["weights"][focus][1]
    cell = '#view-table tr[data-index="1"] td[data-col="percent"]'
    # (the table is a row part drawn when the page is idle, just after the state is published: the
    # cell is read once it shows a number, whichever of its drawings is on the page then)
    page.wait_for_function(f"/\\d/.test((document.querySelector('{cell}') || {{}}).innerText || '')", timeout=10_000)
    cat = page.locator(cell).inner_text()
    assert cat == rule_percent(expected, 1, lang)
    page.locator(".path-try summary").click()
    assert cat in page.locator(".path-try details p").inner_text()
    page.locator("#scaled").check()
    wait_state(page, "s.scaled === true")


def test_a_step_link_opens_on_its_step_and_a_wrong_one_on_the_explorer(browser, base_url):
    """?step=5&temp=2 opens step 5 with T = 2 and reloads as it is; ?step=13 opens the explorer with a note."""
    context, page = open_page(browser, base_url, "?step=5&temp=2")
    wait_ready(page)
    state = get_state(page)
    assert (state["step"], state["temperature"]) == (5, 2)
    assert page.locator("#temp").is_visible()  # the step's own control, beside its views
    page.reload()
    wait_ready(page)
    assert (get_state(page)["step"], get_state(page)["temperature"]) == (5, 2)
    page.goto(base_url + "?step=13")
    wait_ready(page)
    assert get_state(page)["step"] is None
    note = page.locator("#messages").inner_text()
    assert "13" in note and "12" in note
    assert page.locator("#view-heads").is_visible()
    assert page.errors == [] and context.outside.urls == []
    context.close()


def test_an_embedded_step_works_and_tells_its_host(browser, base_url):
    """embed=1&step=5 on another site: the step's bar, both of its views at once; Next tells the host
    step 6; the word-order step swaps two words."""
    context, page = open_host(browser, base_url, "./?embed=1&step=5")
    frame = page.frames[1]
    frame.wait_for_function("document.documentElement.dataset.state === 'ready'", timeout=READY_TIMEOUT,
                            polling=FRAME_POLL_MS)
    assert json.loads(frame.locator("#attention-state").text_content())["step"] == 5
    assert frame.locator("#view-bars").is_visible() and frame.locator("#view-table").is_visible()
    assert not frame.locator("#view-heatmap").is_visible()
    frame.locator("#step-next").click()
    page.wait_for_function("window.got.some(m => m.type === 'attention:state' && m.state.step === 6)")
    assert frame.locator("#view-heatmap").is_visible()
    page.evaluate("document.querySelector('iframe').contentWindow.postMessage({type: 'attention:set', step: 9}, '*')")
    page.wait_for_function("window.got.some(m => m.type === 'attention:state' && m.state.step === 9)")
    assert frame.locator("#view-heads").is_visible()
    frame.locator("#step-next").click()  # the word-order step: its swap, and no matrix to edit
    page.wait_for_function("window.got.some(m => m.type === 'attention:state' && m.state.step === 10)")
    assert frame.locator("#swap").is_visible() and frame.locator("#editor input").count() == 0
    frame.locator("#swap").click()
    frame.wait_for_function("document.getElementById('order-result').textContent !== ''", polling=FRAME_POLL_MS)
    assert context.outside.urls == []
    context.close()


def test_a_step_link_shows_no_view_of_the_explorer_before_its_step_is_drawn(browser, base_url):
    """While Python is still on its way (held here), ?step=5 shows the sentence and its cards, and
    none of the pre-rendered explorer's settings and views; an explorer link shows them at once."""
    context = new_context(browser, base_url)
    context.route("**/*.wasm*", lambda route: None)  # (Python's runtime never arrives)
    page = context.new_page()
    for query, hidden in (("?step=5", True), ("?focus=5", False)):
        page.goto(base_url + query)
        page.wait_for_selector("label.word")
        assert page.evaluate("document.documentElement.dataset.state") == "loading"
        assert page.locator("label.word").first.is_visible()
        for view in ("#view-bars", "#view-heatmap", "#settings"):
            assert page.locator(view).is_visible() is not hidden, (query, view)
    context.close()


def test_the_made_css_hides_a_new_view_on_the_steps_that_do_not_name_it(browser, base_url):
    """A view declared beside today's (made up here) gets its rules from the registry's CSS, as
    `make build` writes them: in Chromium it shows in the explorer and on a step that names it,
    steps aside on a step that does not, and shows on its tab of an embedded widget."""
    from pathlib import Path
    made = registry.View(id="made-up", place=65, tab=True, draw=lambda ctx: "")
    style = (Path(__file__).resolve().parents[3] / "static" / "style.css").read_text(encoding="utf-8")
    style = registry.with_css(style, registry.views() + (made,))
    context = new_context(browser, base_url)
    page = context.new_page()
    page.set_content(f'<style>{style}</style><main id="app"><div class="analysis" data-view="bars">'
                     '<section id="view-made-up" class="view" data-view="made-up">made up</section></div></main>')
    shown = "document.getElementById('view-made-up').getClientRects().length > 0"
    assert page.evaluate(shown)  # the explorer
    page.evaluate("document.getElementById('app').setAttribute('data-show', 'bars made-up')")
    assert page.evaluate(shown)
    page.evaluate("document.getElementById('app').setAttribute('data-show', 'bars')")
    assert not page.evaluate(shown)
    page.evaluate("document.getElementById('app').removeAttribute('data-show'); document.documentElement.className = 'embed'")
    assert not page.evaluate(shown)  # an embedded widget on its bars tab
    page.evaluate("document.querySelector('.analysis').dataset.view = 'made-up'")
    assert page.evaluate(shown)
    context.close()


# -- every answer against the screen -------------------------------------------------------


def click_word(page, word):
    """Click `word` of the sentence on screen (found in the state, wherever a swap put it)."""
    i = where(get_state(page), word)
    page.locator(f'label.word[data-index="{i}"]').click()
    return wait_state(page, f"s.focus === {i}")


def do_task(page, n, lang):
    """Step n's "try this", done as a student does it (step 6: the mask, the second word, then the
    word itself ticked, which stays on for the steps after it)."""
    word = WORDS[lang]
    if n in (2, 3, 5, 7, 9, 11):
        click_word(page, word["slept"])
    elif n == 4:
        click_word(page, word["slept"])
        page.locator("#scaled").uncheck()
        wait_state(page, "s.scaled === false")
    elif n == 6:
        page.locator("#mask").check()
        page.locator('label.word[data-index="1"]').click()
        wait_state(page, "s.mask && s.focus === 1")
        page.locator("#self").check()
        wait_state(page, "s.include_self === true")
    elif n == 10:
        page.locator("#mask").uncheck()
        wait_state(page, "s.mask === false")
        click_word(page, word["slept"])
        before = [t["text"] for t in get_state(page)["tokens"]]
        page.locator("#swap").click()
        wait_state(page, f"JSON.stringify(s.tokens.map(t => t.text)) !== {json.dumps(json.dumps(before))}")
    elif n == 12:
        page.locator("#mm-random").click()
        wait_state(page, "s.matrix && s.matrix.queries.length === 8")
        page.locator("#mask").check()
        wait_state(page, "s.mask === true")


def check_answer(page, n, lang):
    """The revealed answer of step n quotes exactly numpy's numbers for the state on screen."""
    state = wait_state(page, f"s.step === {n}")
    details = page.locator(".path-try details")
    if not details.evaluate("d => d.open"):
        page.locator(".path-try summary").click()
    said = page.locator("#path-answer").inner_text()
    assert page.locator("#path-answer").is_visible()
    assert quoted(said) == expected(path_steps[n - 1], state, lang), (n, said, state["include_self"])


path_steps = ("cards", "query", "dots", "scale", "softmax", "mask", "values", "matrix", "heads", "order", "layer2",
              "hands-on")


def test_every_answer_quotes_the_numbers_on_screen_walking_on_and_opening_each_step(walk):
    """Walking the path with Next, each step's task done (step 6 leaves the mask and the word itself
    on, step 4 the scale off), every answer quotes numpy's numbers for the state on screen, before
    and after its task. (A step opened fresh from its link: tests/test_path.py against numpy, and
    tests/e2e/views/test_every_path.py on screen.)"""
    page, lang = walk, walk.lang
    base = page.url.split("?")[0]
    page.goto(base + f"?lang={lang}&step=1")
    wait_ready(page)
    for n in range(1, COUNT + 1):
        if n > 1:
            page.locator("#step-next").click()
        at_step(page, n)
        check_answer(page, n, lang)
        do_task(page, n, lang)
        check_answer(page, n, lang)


def test_the_last_step_closes_the_path_and_its_way_out_lands_at_the_top(walk):
    """Step 12 ends with a summary and two ways on; "Explore everything" there opens the explorer
    scrolled to the page's top, and "A trained model" opens model mode."""
    page, strings = walk, STRINGS[walk.lang]
    page.goto(page.url.split("?")[0] + f"?lang={walk.lang}&step={COUNT}")
    wait_ready(page)
    end = page.locator(".path-end")
    assert end.is_visible() and strings["path_end"][:20] in end.inner_text()
    page.evaluate("scrollTo(0, document.documentElement.scrollHeight)")
    page.locator("#path-end-exit").click()
    at_step(page, None)
    page.wait_for_function("scrollY === 0")
    assert page.locator("#path").inner_text() == ""
    page.locator("#step-start").click()
    at_step(page, 1)
    page.goto(page.url.split("?")[0] + f"?lang={walk.lang}&step={COUNT}")
    wait_ready(page)
    page.locator("#path-end-model").click()
    state = wait_state(page, "s.mode === 'model'")
    assert state["step"] is None
