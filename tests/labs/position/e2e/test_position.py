"""The position lab as a student walks it (path=position): every view's numbers equal the state
JSON's, the shift leaves RoPE's bars where they were and moves sinusoidal's, the base button, the
pairs' radios and the slopes' table do what they say with the focus kept, and every step fits a
phone (one shared page per language; axe on every step: tests/e2e/views/test_every_path.py)."""

import json
import re

import pytest

from tests.e2e.conftest import get_state, go_step, language_page, wait_state
from tests.e2e.conftest import SHOTS

STEPS = {  # what each step shows besides the sentence, written out here (not read from the app)
    1: ("position-controls", "pos-shuffle", "bars"), 2: ("position-controls", "sinusoidal", "bars"),
    3: ("position-controls", "pos-shift", "bars", "compare"), 4: ("position-controls", "rope", "table"),
    5: ("position-controls", "pos-convention", "rope"), 6: ("position-controls", "alibi", "bars", "table"),
    7: ("position-controls", "compare"),
}
LAB_VIEWS = ("position-controls", "sinusoidal", "rope", "alibi", "compare", "bars", "table", "pos-shuffle",
             "pos-shift", "pos-convention")


def numbers(text):
    """The numbers of a cell as the page writes them in either language ([0,5; −1] or [0.5, −1])."""
    text = text.replace("−", "-")
    if ";" in text or re.search(r"\d,\d", text) and "." not in text:
        text = text.replace(",", ".").replace(";", ",")
    return [float(x) for x in re.findall(r"-?\d+(?:\.\d+)?", text)]


def cells(page, view, col):
    return [numbers(t) for t in page.locator(f"#view-{view} td[data-col='{col}']").all_inner_texts()
            if t.strip() and not t.strip().startswith("—")]


def choose(page, kind):
    page.locator(f"input[name='position'][value='{kind}']").check()
    return wait_state(page, f"s.position.kind === '{kind}'")


def set_offset(page, k):
    page.locator("#offset").fill(str(k))
    page.locator("#offset").dispatch_event("change")
    return wait_state(page, f"s.position.offset === {k}")


def bar_values(page):
    return [float(v) for v in page.locator("#view-bars li.candidate svg").evaluate_all(
        "els => els.map(e => e.getAttribute('aria-valuenow'))")]


@pytest.fixture(scope="module", params=["it", "en"])
def lab(request, browser, base_url):
    yield from language_page(browser, base_url, request.param, "path=position&step=1&focus=2")


def shown(page):
    return page.evaluate("""ids => ids.filter(id => {
        const e = document.getElementById('view-' + id);
        return !!e && e.getClientRects().length > 0; })""", list(LAB_VIEWS))


def test_every_view_equals_the_state_json(lab):
    """Under each kind, on the steps that show them: the bars, the steps table's keys, the PE rows,
    RoPE's angles, ALiBi's bias and the compare set of the chosen kind equal the state JSON."""
    page = lab
    for kind in ("none", "sinusoidal", "rope", "alibi"):
        go_step(page, 1)
        state = choose(page, kind)
        weights = [r["weight"] for r in state["rows"] if r["candidate"]]
        assert bar_values(page) == pytest.approx([100 * w for w in weights], abs=0.051)
        go_step(page, 4)
        state = get_state(page)
        focus = state["focus"]
        if kind in ("sinusoidal", "rope"):
            keys = [k for j, k in enumerate(state["matrix"]["keys"]) if j != focus]
            for shown_key, key in zip(cells(page, "table", "key"), keys, strict=True):
                assert shown_key == pytest.approx(key, abs=0.0006)
        if kind == "rope":
            assert [c[0] for c in cells(page, "rope", "aq")] == pytest.approx(state["position"]["angles"][focus],
                                                                             abs=0.0006)
        go_step(page, 2)
        pe = cells(page, "sinusoidal", "pe")
        if kind == "sinusoidal":
            assert pe == [pytest.approx(r, abs=0.0006) for r in state["position"]["encoding"]]
        go_step(page, 6)
        if kind == "alibi":
            m, n = state["position"]["slope"], len(state["tokens"])
            for j in range(n):
                assert [c[0] for c in cells(page, "alibi", f"k{j}")] == pytest.approx(
                    [-m * abs(i - j) for i in range(n)], abs=0.0006)
        go_step(page, 7)
        chosen = page.locator(f"#view-compare figure[data-kind='{kind}'] li.candidate svg").evaluate_all(
            "els => els.map(e => +e.getAttribute('aria-valuenow'))")
        assert chosen == pytest.approx([100 * w for w in weights], abs=0.051)
    choose(page, "none")


def test_the_shift_leaves_ropes_bars_and_moves_sinusoidals(lab):
    """Step 3: offset 0 → 7 under RoPE, the bars stay put; under sinusoidal they move."""
    page = lab
    go_step(page, 3)
    choose(page, "rope")
    set_offset(page, 0)
    before = bar_values(page)
    set_offset(page, 7)
    assert bar_values(page) == before
    choose(page, "sinusoidal")
    moved = bar_values(page)
    set_offset(page, 0)
    assert bar_values(page) != moved
    choose(page, "none")


def test_every_step_shows_its_views_and_fits_a_phone(lab):
    """Steps 1…7 with RoPE chosen: only the step's views, no sideways scroll on a phone; a screenshot
    of each at both widths. (Axe on every step: tests/e2e/views/test_every_path.py.)"""
    page, lang = lab, lab.lang
    SHOTS.mkdir(exist_ok=True)
    go_step(page, 1)
    choose(page, "rope")
    for n, views in STEPS.items():
        go_step(page, n)
        assert sorted(shown(page)) == sorted(views), n
        page.screenshot(path=str(SHOTS / f"position-{n}-{lang}-1280.png"), full_page=True)
        page.set_viewport_size({"width": 360, "height": 640})
        assert page.evaluate("document.documentElement.scrollWidth") <= 360, f"step {n}: no sideways scroll"
        page.screenshot(path=str(SHOTS / f"position-{n}-{lang}-360.png"), full_page=True)
        page.set_viewport_size({"width": 1280, "height": 900})
    choose(page, "none")


def test_the_three_experiments_buttons_do_what_their_sentences_say(lab):
    """Shuffle swaps the two nouns (the selected word's weights follow them without position); the
    shift adds 5 to the offset and RoPE's bars stay; the convention permutes W_Q's and W_K's columns
    and the page's weights become those the other pairing gave."""
    page = lab
    go_step(page, 1)
    choose(page, "none")
    before = get_state(page)
    page.locator("#pos-shuffle").click()
    after = wait_state(page, f"s.sentence !== {before['sentence']!r}")
    words = [t["text"] for t in before["tokens"]]
    moved = [t["text"] for t in after["tokens"]]
    a, b = [j for j in range(len(words)) if words[j] != moved[j]]
    assert (moved[a], moved[b]) == (words[b], words[a])
    w0, w1 = [r["weight"] for r in before["rows"]], [r["weight"] for r in after["rows"]]
    assert w1[a] == pytest.approx(w0[b], abs=1e-12) and w1[b] == pytest.approx(w0[a], abs=1e-12)
    assert page.locator("#pos-shuffle-result").inner_text()
    page.locator("#pos-shuffle").click()  # (the sentence back)
    wait_state(page, f"s.sentence === {before['sentence']!r}")
    go_step(page, 3)
    choose(page, "rope")
    set_offset(page, 0)
    bars = bar_values(page)
    page.locator("#pos-shift").click()
    wait_state(page, "s.position.offset === 5")
    assert bar_values(page) == bars
    go_step(page, 5)
    before_w = get_state(page)["w_q"]
    other = [numbers(t)[0] / 100 for t in page.locator(
        "#view-pos-convention tr[data-index] td[data-col='b']").all_inner_texts()]  # the other pairing's, same W
    page.locator("#pos-convention").click()
    state = wait_state(page, f"JSON.stringify(s.w_q) !== {json.dumps(json.dumps(before_w))} "
                             "&& document.activeElement.id === 'pos-convention'")
    shown = [r["weight"] for r in state["rows"] if r["candidate"]]
    assert shown == pytest.approx(other, abs=0.0006)
    page.locator("#pos-convention").click()  # (undone: the permutation is its own inverse)
    wait_state(page, f"JSON.stringify(s.w_q) === JSON.stringify({json.dumps(before_w)})")
    set_offset(page, 0)
    choose(page, "none")


def test_the_rope_views_key_is_picked_from_the_keyboard_and_alibis_slider_says_its_slope(lab):
    """Step 4 under RoPE: the key menu, changed with the arrow keys, turns that word's key (the line
    says it was chosen) and keeps the focus; under ALiBi the distance slider says the head's slope."""
    page = lab
    go_step(page, 4)
    choose(page, "rope")
    menu = page.locator("#rope-key")
    before = menu.input_value()
    menu.focus()
    page.keyboard.press("ArrowDown" if before != menu.locator("option").last.get_attribute("value") else "ArrowUp")
    state = wait_state(page, f"s.position.kind === 'rope' && location.search.includes('rope_key=')")
    picked = page.locator("#rope-key").input_value()
    assert picked != before and page.evaluate("document.activeElement.id") == "rope-key"
    word = state["tokens"][int(picked)]["text"]
    assert word in page.locator(".rope-which").inner_text()
    choose(page, "alibi")
    said = page.locator("#pos-value").text_content()
    assert said.startswith("m = 0") and ("ALiBi" in said)


def test_an_embedded_widget_opens_a_lab_step_and_its_controls_work(browser, base_url):
    """embed=1&path=position&step=4 on another site: the lab's controls and the RoPE view show; choosing
    sinusoidal tells the host a state whose position is sinusoidal, with its PE rows."""
    import json
    from tests.e2e.conftest import FRAME_POLL_MS, READY_TIMEOUT, open_host
    context, page = open_host(browser, base_url, "./?embed=1&path=position&step=4&position=rope&focus=2")
    frame = page.frames[1]
    frame.wait_for_function("document.documentElement.dataset.state === 'ready'", timeout=READY_TIMEOUT,
                            polling=FRAME_POLL_MS)
    state = json.loads(frame.locator("#attention-state").text_content())
    assert state["step"] == 4 and state["position"]["kind"] == "rope"
    assert frame.locator(".position-kinds").is_visible() and frame.locator("#view-rope svg").first.is_visible()
    frame.locator("input[name='position'][value='sinusoidal']").check()
    page.wait_for_function("window.got.some(m => m.type === 'attention:state' && m.state.position"
                           " && m.state.position.kind === 'sinusoidal' && m.state.position.encoding.length > 0)")
    assert context.outside.urls == []
    context.close()


def test_an_offset_out_of_range_says_why_and_keeps_what_was_typed(lab):
    """−3 typed as the offset: a message names it and the range, the box keeps −3, the numbers stay."""
    page = lab
    go_step(page, 3)
    before = set_offset(page, 2)
    page.locator("#offset").fill("-3")
    page.locator("#offset").dispatch_event("change")
    page.wait_for_function("document.querySelector('#messages .notes') !== null")
    said = page.locator("#messages .notes").inner_text()
    assert "-3" in said and "10000" in said
    assert page.locator("#offset").input_value() == "-3"
    assert get_state(page)["position"] == before["position"]
    set_offset(page, 0)
    assert page.locator("#messages .notes").count() == 0


def test_step_2_shows_x_plus_pe_on_a_phone_and_sets_the_papers_base(lab):
    """Step 2 at 390 px: each word's x + PE(p) is on screen without sideways scrolling, and equals the
    state's card + PE row; the base button, pressed from the keyboard, sets 10,000 (the state's base,
    the shown sums follow) and keeps the focus; pressed again, 10."""
    page = lab
    go_step(page, 2)
    choose(page, "sinusoidal")
    page.set_viewport_size({"width": 390, "height": 800})
    try:
        sums = page.locator("#view-sinusoidal td[data-col='sum']")
        for k in range(sums.count()):
            sums.nth(k).scroll_into_view_if_needed()
            box = sums.nth(k).bounding_box()
            assert box["x"] >= 0 and box["x"] + box["width"] <= 390, k
        assert page.evaluate("document.documentElement.scrollWidth") <= 390
        state = get_state(page)
        expected = [[c + e for c, e in zip(t["card"], pe)] for t, pe in zip(state["tokens"], state["position"]["encoding"])]
        assert cells(page, "sinusoidal", "sum") == [pytest.approx(r, abs=0.0006) for r in expected]
        button = page.locator("#pos-base-paper")
        button.focus()
        page.keyboard.press("Enter")
        state = wait_state(page, "s.position.base === 10000 && document.activeElement.id === 'pos-base-paper'")
        expected = [[c + e for c, e in zip(t["card"], pe)] for t, pe in zip(state["tokens"], state["position"]["encoding"])]
        assert cells(page, "sinusoidal", "sum") == [pytest.approx(r, abs=0.0006) for r in expected]
        assert page.locator("#base").input_value() == "10000"
        page.keyboard.press("Enter")
        wait_state(page, "s.position.base === 10 && document.activeElement.id === 'pos-base-paper'")
    finally:
        page.set_viewport_size({"width": 1280, "height": 900})
        choose(page, "none")


def test_the_pairs_radio_moves_the_arrows_and_the_marked_column(lab):
    """Step 5: the pairs' radios, moved with the arrow keys: the state's pairs follow, the focus stays on
    the radio chosen, the arrows and the RoPE table join (0,2),(1,3), and the column marked as the
    page's is the one whose weights the state holds."""
    page = lab
    go_step(page, 5)
    choose(page, "rope")
    page.locator("input[name='pairs'][value='interleaved']").focus()
    page.keyboard.press("ArrowRight")
    state = wait_state(page, "s.position.pairs === 'half' && document.activeElement.name === 'pairs'"
                             " && document.activeElement.value === 'half'")
    assert page.locator("#view-rope figcaption").all_inner_texts()[-2:] == [
        ("Coppia" if page.lang == "it" else "Pair") + " " + p for p in ("(0,2)", "(1,3)")]
    marked = [numbers(t)[0] / 100 for t in page.locator("#view-pos-convention td.conv-here").all_inner_texts()]
    assert marked == pytest.approx([r["weight"] for r in state["rows"] if r["candidate"]], abs=0.0006)
    page.keyboard.press("ArrowLeft")
    wait_state(page, "s.position.pairs === 'interleaved' && document.activeElement.value === 'interleaved'")
    choose(page, "none")


def test_the_slopes_table_keeps_the_head_and_its_marked_column_is_the_bars(lab):
    """Step 6 under ALiBi: the slopes' table has a column a slope for the selected word, the one the
    page applies marked, and that column's percentages are the bars'; another head moves the mark."""
    page = lab
    go_step(page, 6)
    choose(page, "alibi")
    marked = [numbers(t)[0] for t in page.locator("#view-alibi td.conv-here").all_inner_texts()]
    assert marked == pytest.approx(bar_values(page), abs=0.51)
    columns = page.locator("#view-alibi .slopes-table td.conv-here").first.get_attribute("data-col")
    page.locator("select[name='head']").select_option("1")
    wait_state(page, "s.head === 1")
    assert page.locator("#view-alibi .slopes-table td.conv-here").first.get_attribute("data-col") != columns
    marked = [numbers(t)[0] for t in page.locator("#view-alibi td.conv-here").all_inner_texts()]
    assert marked == pytest.approx(bar_values(page), abs=0.51)
    page.locator("select[name='head']").select_option("0")
    wait_state(page, "s.head === 0")
    choose(page, "none")
