"""Two promises every guided path keeps (docs/DESIGN.md, "Several guided paths"), checked on every
path the registry holds when the tests are collected, so a new lab's path is covered by being
declared:

- History: each step is an entry of the browser's history. Next walks the path, the browser's
  Back and Forward move between its steps (and out to the explorer and back), a reload keeps the
  step, and a widget embedded by a course page of another site does the same.
- Focus stays: every control of the views a step shows, changed by keyboard, still has the focus
  once the page has answered (the same control: its id, or a radio's name and value), and so
  does one changed with the mouse; a number field keeps its caret.
"""

import pytest

from app import render  # noqa: F401 (every view and path declared)
from app.views import registry
from tests.e2e.conftest import (FRAME_POLL_MS, PENDING, READY_TIMEOUT, host_site, new_context, open_page, wait_ready,
                                wait_state)

# {path id: its steps}, read from the registry at collection: a path declared tomorrow is walked too.
PATHS = {way_id: way.steps for way_id, way in registry.paths().items()}
STEPS = [(way_id, n) for way_id, steps in PATHS.items() for n in range(1, len(steps) + 1)]

# Controls whose keyboard change may take the focus elsewhere, {(path, step, control): why}: only
# when the change leaves the control disabled or gone, and the focus on another control of the page.
MOVES_FOCUS = {
    ("cost", 6, "#flash-next"): "reaching the last block disables it: the focus goes to the previous block's button",
    ("cost", 6, "#flash-prev"): "going back to the first block disables it: the focus goes to the next block's button",
    ("cost", 6, "#flash-all"): "all blocks reached disables it: the focus goes to the previous block's button",
}

SETTLED = f"!document.querySelector('{PENDING}')"


def settled(page):
    """Wait until the engine has answered everything sent so far and the row views are drawn."""
    page.wait_for_function(SETTLED, timeout=READY_TIMEOUT)


# -- history -------------------------------------------------------------------------------


def on_step(where, way_id, n, count):
    """Wait until the widget shows step n of `count` (None: the explorer): its bar's "n / count",
    its state's step and the step in its address (`where`: a page or a widget's frame)."""
    if n is None:
        where.wait_for_function(
            f"{SETTLED} && !document.querySelector('.path-progress') "
            "&& JSON.parse(document.getElementById('attention-state').textContent).step === null "
            "&& !new URLSearchParams(location.search).has('step')", timeout=READY_TIMEOUT, polling=FRAME_POLL_MS)
        return
    where.wait_for_function(
        f"""{SETTLED} && (() => {{
            const bar = document.querySelector('.path-progress [aria-hidden]');
            const address = new URLSearchParams(location.search);
            return !!bar && bar.textContent.split(/\\s+/).join(' ') === '{n} / {count}'
                && JSON.parse(document.getElementById('attention-state').textContent).step === {n}
                && address.get('step') === '{n}' && (address.get('path') || 'formula') === '{way_id}';
        }})()""", timeout=READY_TIMEOUT, polling=FRAME_POLL_MS)


@pytest.fixture(scope="module")
def tab(browser, base_url):
    """One tab at 1280 px, Italian, shared by the module's history tests (each opens its path)."""
    context, page = open_page(browser, base_url, "?lang=it", viewport={"width": 1280, "height": 900})
    wait_ready(page)
    page.base = base_url
    yield page
    assert page.errors == [] and context.outside.urls == []
    context.close()


@pytest.mark.parametrize("way_id", list(PATHS))
def test_back_and_forward_move_between_the_steps_and_a_reload_keeps_one(tab, way_id):
    """Next through every step, then the browser's Back to step 1 and Forward to the last, each
    showing its step ("k / N" and step=k in the address); out to the explorer and Back in; a
    reload keeps the step, and Back after it still finds the step before."""
    page, count = tab, len(PATHS[way_id])
    page.goto(f"{page.base}?lang=it&path={way_id}&step=1")
    wait_ready(page)
    on_step(page, way_id, 1, count)
    for n in range(2, count + 1):
        page.locator("#step-next").click()
        on_step(page, way_id, n, count)
    for n in range(count - 1, 0, -1):
        page.go_back()
        on_step(page, way_id, n, count)
    for n in range(2, count + 1):
        page.go_forward()
        on_step(page, way_id, n, count)
    page.locator("#step-exit").click()  # (leaving the path is an entry too)
    on_step(page, way_id, None, count)
    page.go_back()
    on_step(page, way_id, count, count)
    page.go_forward()
    on_step(page, way_id, None, count)
    page.go_back()
    on_step(page, way_id, count, count)
    page.reload()
    wait_ready(page)
    on_step(page, way_id, count, count)
    page.go_back()
    on_step(page, way_id, count - 1, count)


def test_an_embedded_widget_keeps_its_steps_in_the_history_too(browser, base_url):
    """A widget on a course page of another site: Next twice, the browser's Back twice and Forward
    once move its steps while the course page stays where it is, and a reload of the widget keeps
    its step."""
    way_id = list(PATHS)[-1]  # (the last declared: a lab's path)
    count = len(PATHS[way_id])
    site = host_site()
    url = site.put("history.html", '<!doctype html><html lang="en"><title>Lesson</title><h1>Lesson</h1>'
                   f'<iframe src="{base_url}?embed=1&lang=en&path={way_id}&step=1" title="widget" '
                   'width="1000" height="900"></iframe>')
    context = new_context(browser, base_url, host=site.url, viewport={"width": 1280, "height": 900})
    page = context.new_page()
    try:
        page.goto(url)
        frame = page.frames[1]
        frame.wait_for_function("document.documentElement.dataset.state === 'ready'", timeout=READY_TIMEOUT,
                                polling=FRAME_POLL_MS)
        on_step(frame, way_id, 1, count)
        for n in (2, 3):
            frame.locator("#step-next").click()
            on_step(frame, way_id, n, count)
        # (the browser's Back and Forward move the tab's whole history, the frame's entries among it,
        # as the course page's history.back() does; Playwright's go_back waits for the course page to
        # load again, which it never does)
        page.evaluate("history.back()")
        on_step(frame, way_id, 2, count)
        page.evaluate("history.back()")
        on_step(frame, way_id, 1, count)
        page.evaluate("history.forward()")
        on_step(frame, way_id, 2, count)
        assert page.url == url  # (the course page itself never moved)
        frame.evaluate("location.reload()")
        frame.wait_for_function("document.documentElement.dataset.state === 'ready'", timeout=READY_TIMEOUT,
                                polling=FRAME_POLL_MS)
        on_step(frame, way_id, 2, count)
        assert context.outside.urls == []
    finally:
        context.close()


# -- focus ---------------------------------------------------------------------------------

# The controls of the step's views (and of the settings the step puts in view, and the sentence's),
# one per radio group, checkbox name or heatmap, each as {kind, key, selector, name, value, ...}.
CONTROLS = """([views, names]) => {
  const shown = e => e.getClientRects().length > 0 && !e.disabled && !e.readOnly;
  const valued = e => e.type === 'radio' || e.type === 'checkbox';
  const found = [], seen = new Set();
  const key = e => valued(e) ? e.type + ':' + e.name
    : e.classList.contains('row-pick') ? 'row-pick:' + e.closest('section[id]').id
    : e.id ? '#' + e.id : e.tagName + ':' + e.name;
  const selector = e => e.id ? '#' + CSS.escape(e.id)
    : e.name ? `${e.tagName.toLowerCase()}[name="${e.name}"]` + (valued(e) ? `[value="${e.value}"]` : '')
    : `#${e.closest('section[id]').id} .row-pick[data-row="${e.dataset.row}"]`
      + (e.dataset.head ? `[data-head="${e.dataset.head}"]` : '');
  const add = e => {
    if (!shown(e) || e.type === 'submit' || e.type === 'hidden' || e.tagName === 'TEXTAREA') return;
    if (e.type === 'radio' && !e.checked && document.querySelector(`#app input[name="${e.name}"]:checked`)) return;
    const k = key(e);
    if (seen.has(k)) return;
    seen.add(k);
    found.push({key: k, selector: selector(e), name: e.name || '', value: e.value, max: e.max || '',
                kind: e.tagName === 'SELECT' ? 'select' : e.tagName === 'BUTTON' ? 'button' : e.type,
                options: e.options ? e.options.length : 0, index: e.selectedIndex === undefined ? -1 : e.selectedIndex});
  };
  const roots = [document.getElementById('sentence')];
  views.forEach(css => document.querySelectorAll(css).forEach(r => roots.push(r)));
  roots.forEach(r => r && r.querySelectorAll('input, select, button').forEach(add));
  names.forEach(n => document.querySelectorAll(`#settings [name="${n}"]`).forEach(add));
  return found;
}"""
# What has the focus: the element's tag, id, name, value, and whether it is checked.
ACTIVE = """() => { const a = document.activeElement;
  return a ? {tag: a.tagName.toLowerCase(), id: a.id, name: a.name || '',
              value: a.value === undefined ? '' : String(a.value), checked: !!a.checked, connected: a.isConnected}
           : null; }"""


def active(page):
    return page.evaluate(ACTIVE)


def is_control(page, control):
    return page.evaluate("s => !!document.activeElement && document.activeElement.matches(s)", control["selector"])


def out_of_use(page, control, here):
    """Whether `control` is disabled or gone and the focus `here` is on another control of the page."""
    gone = page.evaluate("s => { const e = document.querySelector(s); return !e || e.disabled; }", control["selector"])
    return gone and here is not None and here["tag"] in ("button", "input", "select") and here["connected"]


def step_controls(page, way_id, n):
    step = PATHS[way_id][n - 1]
    views = [registry.view(view_id).css for view_id in step.shows]
    return page.evaluate(CONTROLS, [views, list(step.controls)])


def press(page, key):
    page.keyboard.press(key)
    settled(page)


def change_by_keyboard(page, control):
    """Change `control` (focused) by keyboard as a student would, and back where it makes sense;
    after each change, the keys pressed, what has the focus and whether it is the control (or, for
    a radio's arrow, the radio of its group it checked): [(keys, active, ok)]."""
    kind, checks = control["kind"], []

    def check(said, expected=None):
        here = active(page)
        ok = is_control(page, control) if expected is None else expected(here)
        checks.append((said, here, ok))

    if kind == "radio":  # the next radio of its group takes the focus and is checked: that one keeps it
        press(page, "ArrowRight")
        check("ArrowRight", lambda a: a["tag"] == "input" and a["name"] == control["name"] and a["checked"]
              and a["value"] != control["value"])
        press(page, "ArrowLeft")
        check("ArrowLeft back")
    elif kind == "checkbox":
        press(page, "Space")
        check("Space")
        press(page, "Space")
        check("Space again")
    elif kind == "select":
        forth, back = ("ArrowDown", "ArrowUp") if control["index"] < control["options"] - 1 else ("ArrowUp", "ArrowDown")
        press(page, forth)
        check(forth)
        press(page, back)
        check(back)
    elif kind == "range":
        press(page, "ArrowRight")
        check("ArrowRight")
        press(page, "ArrowLeft")
        check("ArrowLeft")
    elif kind == "number":
        value = control["value"]
        high = float(control["max"]) if control["max"] else float("inf")
        typed = "2" if value == "" else str(int(float(value)) + (1 if float(value) + 1 <= high else -1))
        page.keyboard.press("Control+a")
        page.keyboard.type(typed)
        press(page, "Enter")
        check(f"typed {typed} + Enter")
        press(page, "ArrowDown")
        check("ArrowDown")
    elif kind == "text":  # (a translation's box: typed, then Enter commits it)
        page.keyboard.press("Control+a")
        page.keyboard.type("the cat")
        press(page, "Enter")
        check("typed + Enter")
    elif kind == "button":
        press(page, "Enter")
        check("Enter")
    else:
        raise AssertionError(f"a control of a kind the test does not know: {control}")
    return checks


def student_tab(browser, base_url, width):
    """A tab at 1280 px (Italian) or 390 px (English), with reduced motion (play writes one letter
    a press, so the page settles), shared by the module's focus tests."""
    lang = "it" if width == 1280 else "en"
    context, page = open_page(browser, base_url, f"?lang={lang}", viewport={"width": width, "height": 900})
    page.emulate_media(reduced_motion="reduce")
    wait_ready(page)
    page.base, page.lang, page.at = base_url, lang, None
    yield page
    assert page.errors == [] and context.outside.urls == []
    context.close()


@pytest.fixture(scope="module")
def wide(browser, base_url):
    yield from student_tab(browser, base_url, 1280)


@pytest.fixture(scope="module")
def phone(browser, base_url):
    yield from student_tab(browser, base_url, 390)


@pytest.fixture(params=["wide", "phone"], ids=["1280px", "390px"])
def student(request):
    """Each of the two tabs in turn."""
    return request.getfixturevalue(request.param)


# Each path is walked in one of the two tabs, in turn (the formula's at 1280 px in Italian, the next
# at 390 px in English, …): every control of every step once, both languages and both widths across
# the paths, at half the suite's time of walking each path in both.
TAB_OF = {way_id: ("wide", "phone")[i % 2] for i, way_id in enumerate(PATHS)}


def reach(page, way_id, n):
    """Bring the shared tab to step n of the path: Next from the step before (as the tests walk
    in order), else from the step's link."""
    if page.at == (way_id, n - 1):
        page.locator("#step-next").click()
    else:
        page.goto(f"{page.base}?lang={page.lang}&path={way_id}&step={n}")
        wait_ready(page)
    wait_state(page, f"s.step === {n}", timeout=READY_TIMEOUT)
    settled(page)
    page.at = (way_id, n)


@pytest.mark.parametrize("way_id, n", STEPS, ids=[f"{w}-{n}-{TAB_OF[w]}" for w, n in STEPS])
def test_every_control_a_step_shows_keeps_the_focus_when_changed_by_keyboard(request, way_id, n):
    """On the step, each control of its views and of the settings it puts in view (a word, number
    fields, menus, sliders, the buttons that redraw a view; one radio of each group, one checkbox
    of each name, one row header of each grid), changed by keyboard, has the focus once the page
    has answered: the same control, or the radio its arrow key checked."""
    page = request.getfixturevalue(TAB_OF[way_id])
    reach(page, way_id, n)
    done, wrong = set(), []
    for _ in range(40):  # (a change may bring new controls: the flash field its block buttons)
        todo = [c for c in step_controls(page, way_id, n) if c["key"] not in done]
        if not todo:
            break
        control = todo[0]
        done.add(control["key"])
        page.locator(control["selector"]).first.focus()
        assert is_control(page, control), control
        for said, here, ok in change_by_keyboard(page, control):
            if not ok and not ((way_id, n, control["key"]) in MOVES_FOCUS and out_of_use(page, control, here)):
                wrong.append(f"{control['key']} ({said}): the focus is on {here}")
    assert done, "no control found"
    assert wrong == []


def test_a_control_changed_with_the_mouse_keeps_the_focus(student):
    """On the position lab's first step, a kind chosen with the mouse and the shuffle button
    clicked keep the focus; on the cost lab's window step, a pattern clicked does too."""
    page = student
    reach(page, "position", 1)
    page.locator("input[name='position'][value='rope']").click()
    wait_state(page, "s.position.kind === 'rope'")
    assert active(page)["name"] == "position" and active(page)["value"] == "rope"
    page.locator("#pos-shuffle").click()
    settled(page)
    assert active(page)["id"] == "pos-shuffle"
    reach(page, "cost", 3)
    page.locator("#pattern-local_global").click()
    page.wait_for_function("new URLSearchParams(location.search).get('pattern') === 'local_global'")
    settled(page)
    assert active(page)["id"] == "pattern-local_global"


def test_a_number_field_keeps_its_caret_when_its_view_is_drawn_again(student):
    """The cost lab's window: the student types 3, moves the caret before it and presses Enter; the
    view is drawn again, and the next digit typed goes where the caret was (13, not 31)."""
    page = student
    reach(page, "cost", 3)
    field = page.locator("#window")
    field.focus()
    page.keyboard.press("Control+a")
    page.keyboard.type("3")
    page.keyboard.press("Home")
    page.keyboard.press("Enter")
    page.wait_for_function("new URLSearchParams(location.search).get('window') === '3'")
    settled(page)
    assert active(page)["id"] == "window"
    page.keyboard.type("1")
    assert field.input_value() == "13"
    page.keyboard.press("Control+a")
    page.keyboard.type("2")
    press(page, "Enter")
    assert active(page)["id"] == "window"
