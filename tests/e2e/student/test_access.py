"""Every student: axe-core checks, keyboard only, screen reader, phones, languages, print."""

import re

import pytest

from app.i18n import STRINGS
from tests.reference import rule_percent
from tests.e2e.conftest import SHOTS, axe_violations, get_state, new_context, open_page, wait_ready, wait_state

GUESSED = {"it": "Il drago di Zorro dorme", "en": "The dragon of Zorro sleeps"}


@pytest.fixture(scope="module", params=["it", "en"])
def lang_page(request, browser, base_url):
    context, page = open_page(browser, base_url, f"?lang={request.param}")
    wait_ready(page)
    page.lang = request.param
    yield page
    context.close()


def test_axe_finds_nothing_in_the_interactive_states(lang_page):
    """Default, a word selected, mask on with the first word, a guessed word: 0 violations."""
    page = lang_page
    assert axe_violations(page) == [], "default"
    page.locator('label.word[data-index="1"]').click()
    wait_state(page, "s.focus === 1")
    assert axe_violations(page) == [], "word selected"
    page.locator("#mask").check()
    page.locator('label.word[data-index="0"]').click()
    wait_state(page, "s.focus === 0 && s.mask")
    assert page.locator(".explain").is_visible()
    assert axe_violations(page) == [], "mask, first word"
    page.locator("#mask").uncheck()
    page.fill("#sentence-input", GUESSED[page.lang])
    page.press("#sentence-input", "Enter")
    wait_state(page, "s.tokens.length === 5")
    page.locator('label.word[data-index="4"]').click()
    wait_state(page, "s.focus === 4")
    assert page.locator("label.word.guessed").count() >= 1
    assert axe_violations(page) == [], "guessed word"


def test_axe_finds_nothing_in_a_long_texts_grid_scrolled_both_ways(lang_page, base_url):
    """60 words: the grid drawn as a window of rows and columns, scrolled down and across, its
    cells each saying their row and column: 0 violations."""
    page = lang_page
    words = ("Il gatto seduto sul tappeto dormiva e il cane guardava la luna".split() * 5)[:60]
    page.goto(f"{base_url}?lang={page.lang}&limit=60&focus=30&s=" + "+".join(words))
    wait_ready(page)
    wrap = page.locator(".heatmap-wrap")
    wrap.scroll_into_view_if_needed()
    wrap.evaluate("w => { w.scrollTop = 900; w.scrollLeft = 1200; }")
    page.wait_for_function("""(() => { const t = document.querySelector('table.heatmap');
        return +t.dataset.start > 0 && +t.dataset.cstart > 0; })()""")
    assert page.locator("table.heatmap td.skip").count() > 0
    assert axe_violations(page) == [], "long grid"


@pytest.mark.parametrize("lang", ["it", "en"])
@pytest.mark.parametrize("state", ["loading", "error", "embed", "dark"])
def test_axe_finds_nothing_while_loading_failed_embedded_or_dark(browser, base_url, lang, state):
    """Before Python is ready, after it failed, in embed mode and in the dark theme: 0 violations."""
    options = {"color_scheme": "dark"} if state == "dark" else {}
    context = new_context(browser, base_url, **options)
    if state == "loading":
        context.route("**/pyodide.asm.wasm", lambda route: None)  # never answers
    elif state == "error":
        context.route("**/*.wasm", lambda route: route.abort())
    page = context.new_page()
    page.goto(base_url + f"?lang={lang}" + ("&embed=1" if state == "embed" else ""))
    if state == "loading":
        page.wait_for_selector("table.steps")
    else:
        page.wait_for_function(f"document.documentElement.dataset.state === "
                               f"'{'error' if state == 'error' else 'ready'}'", timeout=90_000)
    assert axe_violations(page) == []
    context.close()


def test_keyboard_alone_reaches_everything_with_visible_focus_and_no_trap(app):
    """Tab goes through box, button, examples, switches, language, words, help, table and share
    buttons, each with a visible focus; arrows pick words, Space toggles; Tab leaves the page."""
    app.select_option("#preset", "0")
    wait_state(app, "s.focus === 5 && !s.mask")
    app.evaluate("document.activeElement && document.activeElement.blur()")
    seen = []
    for _ in range(100):
        app.keyboard.press("Tab")
        info = app.evaluate("""() => { const e = document.activeElement;
            if (!e || e === document.body) return null;
            const shown = e.name === 'word' ? e.closest('label') : e;
            return {key: e.id || (e.name + '=' + e.value) || e.localName,
                    outline: getComputedStyle(shown).outlineStyle}; }""")
        if info is None:
            break  # focus left the page: no trap
        seen.append(info["key"])
        assert info["outline"] != "none", f"no visible focus on {info['key']}"
    else:
        pytest.fail("Tab never left the page")
    for key in ("sentence-input", "analyse", "preset", "mask", "self", "lang=it", "word=5",
                "copy-link", "copy-embed", "export-csv"):
        assert key in seen, f"{key} not reachable by Tab: {seen}"
    assert seen.index("word=5") > seen.index("lang=it")  # the word group is one stop
    app.locator('input[name="word"]:checked').focus()
    app.keyboard.press("ArrowRight")  # wraps to the first word
    app.keyboard.press("ArrowRight")
    wait_state(app, "s.focus === 1")
    app.locator("#mask").focus()
    app.keyboard.press("Space")
    wait_state(app, "s.mask === true")
    app.keyboard.press("Enter")  # Enter toggles the switches too
    wait_state(app, "s.mask === false")
    app.locator("#self").focus()
    app.keyboard.press("Enter")
    wait_state(app, "s.include_self === true")
    app.keyboard.press("Space")
    wait_state(app, "s.include_self === false")
    assert app.locator("#messages li.error").count() == 0 and app.errors == []


def test_screen_reader_hears_the_result_and_the_bars_values(app):
    """The polite live region says where the word looks; each bar is a meter with its value."""
    app.select_option("#preset", "0")
    wait_state(app, "s.focus === 5")
    app.locator('label.word[data-index="1"]').click()
    s = wait_state(app, "s.focus === 1")
    live = app.locator("#announce")
    assert live.get_attribute("aria-live") == "polite"
    top = max((r for r in s["rows"] if r["candidate"]), key=lambda r: r["weight"])
    word = s["tokens"][top["index"]]["text"]
    assert live.text_content().startswith("«gatto» guarda: " + f"{word}: {rule_percent(top['weight'], 0, 'it')[:-1]} per cento")
    meters = app.locator('#analysis svg[role="meter"]')
    assert meters.count() == sum(r["candidate"] for r in s["rows"])
    first = meters.first
    assert first.get_attribute("aria-valuetext").endswith("per cento")
    assert app.locator("table.steps caption").count() == 1
    assert app.locator('table.steps th[scope="col"]').count() == 8


@pytest.mark.parametrize("lang", ["it", "en"])
@pytest.mark.parametrize("width", [360, 1280])
def test_screens_fit_phones_and_desktops(browser, base_url, lang, width):
    """At 360 and 1280 px: no sideways scroll; on the phone targets ≥ 44 px and text ≥ 16 px.
    Screenshots go to test-results/ (look at them)."""
    context, page = open_page(browser, base_url, f"?lang={lang}&mask=1&focus=3",
                              viewport={"width": width, "height": 640 if width == 360 else 900})
    wait_ready(page)
    SHOTS.mkdir(exist_ok=True)
    # content-visibility skips painting what is off screen; a full-page picture needs it all.
    page.evaluate("document.querySelectorAll('.analysis .result, .analysis .steps-section, .analysis .heatmap-section')"
                  ".forEach(e => e.style.setProperty('content-visibility', 'visible'))")
    page.screenshot(path=str(SHOTS / f"page-{lang}-{width}.png"), full_page=True)
    assert page.evaluate("document.documentElement.scrollWidth") <= width
    if width == 360:
        small = page.evaluate("""() => [...document.querySelectorAll(
              '#app button, #app select, #app input[type=text], #app label.switch, #app label.lang-choice,'
            + '#app label.word, #app summary')]
            .filter(e => e.offsetParent !== null)
            .map(e => [e.id || e.className || e.localName, e.getBoundingClientRect()])
            .filter(([, r]) => r.width < 44 || r.height < 44).map(([n, r]) => n + ' ' + r.width + 'x' + r.height)""")
        assert small == []
        tiny = page.evaluate("""() => { const out = [];
            const walk = document.createTreeWalker(document.getElementById('app'), NodeFilter.SHOW_TEXT);
            while (walk.nextNode()) { const n = walk.currentNode; const e = n.parentElement;
              if (!n.textContent.trim() || !e.offsetParent || e.closest('.sr-only')) continue;
              const size = parseFloat(getComputedStyle(e).fontSize);
              if (size < 16) out.push(e.className + ':' + n.textContent.trim().slice(0, 20) + ':' + size); }
            return out; }""")
        assert tiny == []
    context.close()


@pytest.mark.parametrize("lang", ["it", "en"])
@pytest.mark.parametrize("size", [(1280, 800), (360, 640)])
def test_the_first_screen_is_the_sentence_and_the_bars(browser, base_url, lang, size):
    """With no parameters the first screen shows the first card whole and at least 40 px of the
    bars, below a one-line title and the sentence box; the loading status floats over the title
    (no room of its own), lets a click through once ready and goes; "More settings" opens the others."""
    width, height = size
    context, page = open_page(browser, base_url, "" if lang == "it" else "?lang=en",
                              viewport={"width": width, "height": height})
    assert page.evaluate("getComputedStyle(document.getElementById('status-box')).position") == "fixed"
    wait_ready(page)
    page.locator("#sentence-input").click()  # under the status, which lets the click through and goes
    assert page.evaluate("document.activeElement.id") == "sentence-input"
    page.wait_for_selector("#status-box", state="hidden", timeout=2_000)
    page.evaluate("document.activeElement.blur()")
    box = lambda selector: page.locator(selector).first.bounding_box()  # noqa: E731
    card, bars, title = box("label.word"), box("#view-bars .bars"), box("h1")
    assert card["y"] >= 0 and card["y"] + card["height"] <= height  # the first card, whole
    assert bars["y"] + 40 <= height  # the bars begin on the first screen
    assert title["height"] < 50  # one line
    assert page.evaluate("document.scrollingElement.scrollTop") == 0
    SHOTS.mkdir(exist_ok=True)
    page.screenshot(path=str(SHOTS / f"first-screen-{lang}-{width}.png"))
    assert not page.locator("#temp").is_visible()
    page.locator("details.more-settings summary").click()
    for control in ("#temp", "#scaled", "#quiz", "#pos", "#head", "#reset", 'input[name="mode"]'):
        assert page.locator(control).first.is_visible(), control
    context.close()


def literal_pieces(strings):
    """Every fixed piece of text (8+ characters between placeholders) in a STRINGS table."""
    out = set()
    for value in strings.values():
        values = value.values() if isinstance(value, dict) else value if isinstance(value, tuple) else [value]
        for v in values:
            out.update(p.strip() for p in re.split(r"\{[^}]*\}", v) if len(p.strip()) >= 8)
    return out


def visible_and_spoken_text(page):
    return page.evaluate("""() => document.body.innerText + '\\n' +
        [...document.querySelectorAll('[aria-label],[title],[aria-valuetext]')].map(e =>
          [e.getAttribute('aria-label'), e.getAttribute('title'), e.getAttribute('aria-valuetext')].join(' ')).join('\\n')
        + document.title""")


def test_switching_language_leaves_no_string_of_the_other(app):
    """After a switch, no Italian (then no English) string remains on screen or in labels."""
    only_it = literal_pieces(STRINGS["it"]) - literal_pieces(STRINGS["en"])
    only_en = literal_pieces(STRINGS["en"]) - literal_pieces(STRINGS["it"])
    app.select_option("#preset", "0")
    app.locator("#mask").check()
    wait_state(app, "s.mask === true")
    for lang, other in (("en", only_it), ("it", only_en)):
        app.locator(f'input[name="lang"][value="{lang}"]').check()
        wait_state(app, f"s.lang === '{lang}'")
        assert app.evaluate("document.documentElement.lang") == lang
        shown = visible_and_spoken_text(app)
        left = sorted(p for p in other if p in shown)
        assert left == [], f"{lang}: strings of the other language remain: {left}"
        app.wait_for_url(lambda url: f"lang={lang}" in url)  # the address follows
    app.locator("#mask").uncheck()


# Records every transition or animation that starts anywhere in the page.
MOTION_RECORDER = """() => { window.__moves = [];
  for (const type of ['transitionrun', 'animationstart'])
    document.addEventListener(type, e => window.__moves.push(type + ' ' + e.target.tagName), true); }"""


# A transition asked for on purpose (inline style, allowed by the CSP): how many animations run.
PROBE_TRANSITION = """() => { const el = document.querySelector('#analysis');
  el.style.transition = 'opacity 5s'; getComputedStyle(el).opacity;
  el.style.opacity = '0.5'; getComputedStyle(el).opacity;
  return document.getAnimations().length; }"""


@pytest.mark.parametrize("motion", ["reduce", "no-preference"])
def test_nothing_moves_and_reduced_motion_stops_even_a_new_transition(browser, base_url, motion):
    """Selecting words, the mask and the language start no transition or animation; under
    prefers-reduced-motion even a transition added later is stopped, while without it the
    same transition runs (so the check can see one)."""
    context, page = open_page(browser, base_url, "", reduced_motion=motion)
    wait_ready(page)
    page.evaluate(MOTION_RECORDER)
    page.locator('label.word[data-index="1"]').click()
    wait_state(page, "s.focus === 1")
    page.locator("#mask").check()
    wait_state(page, "s.mask === true")
    page.locator('input[name="lang"][value="en"]').check()
    wait_state(page, "s.lang === 'en'")
    page.evaluate("() => new Promise(r => requestAnimationFrame(() => requestAnimationFrame(r)))")
    assert page.evaluate("window.__moves") == [] and page.evaluate("document.getAnimations().length") == 0
    assert page.evaluate(PROBE_TRANSITION) == (0 if motion == "reduce" else 1)
    context.close()


def test_print_shows_sentence_bars_and_whole_table_without_controls(app):
    """Printing: the sentence, the bars and every table row; no controls or share buttons."""
    app.emulate_media(media="print")
    try:
        assert not app.locator("#controls").is_visible() and not app.locator("#share").is_visible()
        assert app.locator("#sentence label.word").first.is_visible()
        assert app.locator("#analysis .bar-row").first.is_visible()
        rows = app.locator("table.steps tbody tr")
        assert all(rows.nth(i).is_visible() for i in range(rows.count()))
        assert app.evaluate("getComputedStyle(document.querySelector('.table-wrap')).overflowX") == "visible"
    finally:
        app.emulate_media(media="screen")
