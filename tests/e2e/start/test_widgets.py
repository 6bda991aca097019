"""Several widgets on one lesson page share one engine (static/transfer.js, app/engine.py).

The lesson page is on another site than the widgets (tests/e2e/conftest.py, host_site), so
the host page cannot read into them: what each widget says is read in its own frame."""

import numpy as np
import pytest

from app.i18n import text
from tests.e2e.conftest import FRAME_POLL_MS, READY_TIMEOUT, host_site, new_context
from tests.e2e.conftest import axe_violations
from tests.reference import W_Q, attention_row, lexicon_cards

WIDGETS = [("it", "Il cane guarda la palla", 1), ("en", "The cat sat on the mat", 2), ("it", "La gatta dorme", 0)]
LESSON = """<!doctype html><html lang="it"><head><meta charset="utf-8"><title>Lezione</title>
<script>window.got = [];
addEventListener("message", e => {
  const frames = [...document.querySelectorAll("iframe")];
  window.got.push({from: frames.findIndex(f => f.contentWindow === e.source), data: e.data});
});</script></head><body><h1>Lezione</h1>%s</body></html>""" % "\n".join(
    f'<iframe src="WIDGET/?embed=1&lang={lang}&s={sentence.replace(" ", "+")}&focus={focus}" title="W{i}" '
    'width="900" height="500"></iframe>' for i, (lang, sentence, focus) in enumerate(WIDGETS))
STATE = "document.documentElement?.dataset.state"  # (a frame being reloaded may have no element)
START = "document.documentElement?.dataset.start"
# Whether the widget started an engine (Python's runtime, in a worker) of its own: only such a
# page can report its engine's memory (static/page.js).
RUNTIME = "typeof window.attentionExplorer?.engineFigures === 'function'"


def each(page, expression):
    """`expression` evaluated in each widget's frame, in the order of the host page's iframes
    (None for a frame between two documents)."""
    values = []
    for handle in page.query_selector_all("iframe"):
        try:
            values.append(handle.content_frame().evaluate(expression))
        except Exception:
            values.append(None)
    return values


def wait_each(page, test, timeout=READY_TIMEOUT):
    """Wait until `test(each widget's state)` holds; the states."""
    for _ in range(timeout // 200):
        states = each(page, STATE)
        if test(states):
            return states
        page.wait_for_timeout(200)
    raise AssertionError(f"widgets stayed {each(page, STATE)}")


def all_ready(states):
    return all(s == "ready" for s in states)


def lesson_url(base_url):
    return host_site().put("lesson.html", LESSON.replace("WIDGET/", base_url))


def open_lesson(browser, base_url, routes=()):
    context = new_context(browser, base_url, host=host_site().url)
    for pattern, handler in routes:
        context.route(pattern, handler)
    page = context.new_page()
    page.goto(lesson_url(base_url))
    wait_each(page, all_ready)
    return context, page


def expected_weights(lang, sentence, focus):
    cards = lexicon_cards(lang)
    _, _, weights, _ = attention_row([cards[w.lower()] for w in sentence.split()], W_Q, focus)
    return weights


def click_and_read(page, i, index):
    """Click word `index` of widget `i`; the weights its host message reports."""
    frame = page.frames[i + 1]
    frame.locator(f'label.word[data-index="{index}"]').click()
    page.wait_for_function(f"window.got.some(m => m.from === {i} && m.data.type === 'attention:state' "
                           f"&& m.data.state.focus === {index})", timeout=30_000)  # (a loaded machine: a follower's first answer)
    state = page.evaluate(f"window.got.filter(m => m.from === {i} && m.data.type === 'attention:state').at(-1).data.state")
    return [row["weight"] for row in state["rows"]]


@pytest.fixture(scope="module")
def lesson(browser, base_url):
    context, page = open_lesson(browser, base_url)
    yield page
    assert context.outside.urls == []
    context.close()


def test_one_widget_starts_python_and_runs_the_others(lesson):
    """Of three widgets of one lesson page, one loads and starts Python; the other two are run by it."""
    starts = each(lesson, START)
    assert sorted(starts) == ["normal", "shared", "shared"], starts
    leader = starts.index("normal")
    assert each(lesson, RUNTIME) == [i == leader for i in range(3)]


def test_each_widget_keeps_its_own_sentence_and_answers_clicks_with_its_own_numbers(lesson):
    """Each widget shows the sentence and word its address asks for; a click in any one changes only it,
    with the weights numpy computes, and the host page is told by that widget."""
    first = {}
    for i, (lang, sentence, focus) in enumerate(WIDGETS):
        state = lesson.evaluate(f"window.got.find(m => m.from === {i} && m.data.type === 'attention:state').data.state")
        assert (state["lang"], state["sentence"], state["focus"]) == (lang, sentence, focus)
        first[i] = state
    for i, (lang, sentence, _) in enumerate(WIDGETS):
        index = len(sentence.split()) - 1
        weights = click_and_read(lesson, i, index)
        np.testing.assert_allclose(weights, expected_weights(lang, sentence, index), rtol=1e-12, atol=1e-15)
        for j in set(range(3)) - {i}:
            shown = lesson.frames[j + 1].evaluate("JSON.parse(document.getElementById('attention-state').textContent)")
            assert (shown["sentence"], shown["focus"]) == (WIDGETS[j][1], len(WIDGETS[j][1].split()) - 1 if j < i
                                                          else WIDGETS[j][2])


def test_a_widget_run_by_another_ones_python_works_by_keyboard_and_passes_axe(lesson):
    """In a widget run by the other one's Python, arrow keys move the selected word (the host is told) and
    axe-core finds nothing."""
    follower = each(lesson, START).index("shared")
    frame = lesson.frames[follower + 1]
    frame.locator('label.word[data-index="0"]').click()  # (the radio itself lies under its label)
    frame.locator('input[name="word"]').nth(0).focus()
    lesson.keyboard.press("ArrowRight")
    lesson.wait_for_function(f"window.got.some(m => m.from === {follower} && m.data.type === 'attention:state' "
                             "&& m.data.state.focus === 1)", timeout=10_000)
    assert frame.evaluate("document.activeElement.value") == "1"
    assert axe_violations(frame) == []


def test_a_widget_added_later_is_run_at_once_by_the_python_already_there(lesson, base_url):
    """A widget the host page adds once the others are ready starts no Python: the one running is its own,
    at once (its status says ready), with the numbers numpy computes."""
    before = len(each(lesson, START))
    lesson.evaluate("""src => { const f = document.createElement('iframe');
        f.src = src; f.title = 'later';
        document.body.appendChild(f); }""", base_url + "?embed=1&s=Il+cane+guarda+la+palla&focus=4")
    wait_each(lesson, lambda states: len(states) == before + 1 and all_ready(states))
    assert each(lesson, START)[before] == "shared"
    assert not each(lesson, RUNTIME)[before]
    assert lesson.frames[before + 1].locator("#status .status-text").text_content() == text("it", "ready")
    weights = click_and_read(lesson, before, 0)
    np.testing.assert_allclose(weights, expected_weights("it", "Il cane guarda la palla", 0), rtol=1e-12, atol=1e-15)
    lesson.evaluate(f"document.querySelectorAll('iframe')[{before}].remove()")


def test_followers_go_on_when_the_leader_is_removed(lesson):
    """When the widget whose Python runs the others leaves the page, each other one reloads, keeps its state
    and works again (one of them now starts Python)."""
    starts = each(lesson, START)
    leader = starts.index("normal")
    kept = [lesson.frames[i + 1].evaluate("JSON.parse(document.getElementById('attention-state').textContent)")
            for i in range(3)]
    lesson.evaluate(f"document.querySelectorAll('iframe')[{leader}].remove()")
    left = [i for i in range(3) if i != leader]
    wait_each(lesson, lambda states: all_ready(states) and "normal" in each(lesson, START))
    assert sorted(each(lesson, START)) == ["normal", "shared"]
    for k, i in enumerate(left):
        frame = lesson.frames[k + 1]
        frame.wait_for_function("document.documentElement.dataset.state === 'ready'", timeout=READY_TIMEOUT,
                                polling=FRAME_POLL_MS)
        state = frame.evaluate("JSON.parse(document.getElementById('attention-state').textContent)")
        assert (state["sentence"], state["focus"]) == (kept[i]["sentence"], kept[i]["focus"])
        frame.locator('label.word[data-index="1"]').click()
        frame.wait_for_function("JSON.parse(document.getElementById('attention-state').textContent).focus === 1",
                                timeout=10_000, polling=FRAME_POLL_MS)


def test_followers_go_on_when_the_leader_cannot_start_python(browser, base_url):
    """The first widget's engine cannot download Python's runtime (its request fails): it says so,
    and the two widgets waiting for it load again, one starting Python for both, and work."""
    failing = []

    def first_fails(route):  # (the engine's worker asks, not a frame: the first request is the leader's)
        failing.append(route.request.url)
        return route.abort() if len(failing) == 1 else route.continue_()

    context = new_context(browser, base_url, host=host_site().url)
    context.route("**/pyodide.asm.wasm", first_fails)
    page = context.new_page()
    page.goto(lesson_url(base_url))
    shown = wait_each(page, lambda states: states.count("ready") == 2)
    assert sorted(shown) == ["error", "ready", "ready"]
    starts = each(page, START)
    assert sorted(starts[i] for i in range(3) if shown[i] == "ready") == ["normal", "shared"]
    for i, (lang, sentence, _) in enumerate(WIDGETS):
        if shown[i] == "ready":
            np.testing.assert_allclose(click_and_read(page, i, 0), expected_weights(lang, sentence, 0),
                                       rtol=1e-12, atol=1e-15)
    assert context.outside.urls == []
    context.close()
