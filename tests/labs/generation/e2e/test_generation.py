"""The generation lab as a student walks it (path=generation): the Write button by keyboard writes
«d e f g h» after «a b c d e f g h a b c», the cache view and the counters equal the state JSON, play
writes by itself and stops (one letter a press under reduced motion), and every step fits a phone
(one shared page per language; axe on every step: tests/e2e/views/test_every_path.py)."""

import re

import pytest

from tests.e2e.conftest import get_state, language_page, step_at_two_widths, wait_state
from tests.e2e.conftest import SHOTS
from tests.e2e.conftest import go_step

STEPS = {  # what each step shows, written out here (not read from the app)
    1: ("generation",), 2: ("generation", "generation-cost"), 3: ("generation", "generation-cost", "cache-sizes"),
    4: ("shared-keys", "cache-sizes"), 5: ("latent", "cache-sizes"),
    6: ("model-window", "generation", "generation-cost"),  # (and the induction path, the heads' tables)
}
MODES = {1: "model", 2: "model", 3: "model", 4: "sentence", 5: "sentence", 6: "model"}
LAB_VIEWS = ("generation", "generation-cost", "cache-sizes", "shared-keys", "latent", "model-window")


@pytest.fixture(scope="module", params=["it", "en"])
def lab(request, browser, base_url):
    yield from language_page(browser, base_url, request.param, "path=generation&step=1&s=a+b+c+d+e+f+g+h+a+b+c")


def whole(text):
    """An integer as the page writes it in either language (1.920 · 1,920)."""
    return int(re.sub(r"[.,\s]", "", text))


def written(page, n):
    return wait_state(page, f"s.model && s.model.generated.length === {n}")


def shown(page):
    """The lab's views on screen (a step hides the others)."""
    return [view for view in LAB_VIEWS if page.locator(f"#view-{view}").is_visible()]


def clear(page):
    page.locator("#gen-clear").focus()
    page.keyboard.press("Enter")
    return written(page, 0)


def test_the_step_button_writes_the_repeat_and_the_cache_view_equals_the_state(lab):
    """Enter on "Write one letter" five times: «d e f g h», each said in the live region; the
    induction head's K and V have one row a position read, the new one marked; the counters, the
    attention row and the side-by-side prediction equal the state."""
    page = lab
    go_step(page, 2)
    clear(page)
    for n in range(1, 6):
        page.locator("#gen-step").focus()
        page.keyboard.press("Enter")
        state = written(page, n)
        letter = state["model"]["generated"][-1]
        assert letter in page.locator("#announce").inner_text()
        assert page.evaluate("document.activeElement.id") == "gen-step"
        cache = state["model"]["cache"]
        assert cache["tokens"] == len(state["model"]["tokens"]) == 12 + n
        k_rows = page.locator("details.gen-cache[data-head='1-3'] table.gen-cache-k tbody tr")
        assert k_rows.count() == cache["tokens"]
        assert page.locator("details.gen-cache[data-head='1-3'] table.gen-cache-v tbody tr").count() == cache["tokens"]
        assert k_rows.last.get_attribute("class") == "new"
        counters = {row.get_attribute("data-counter"): whole(row.locator("td").inner_text())
                    for row in page.locator("#view-generation-cost tr[data-counter]").all()}
        assert counters == {"numbers": cache["numbers"], "f16": 2 * cache["numbers"], "f32": 4 * cache["numbers"],
                            "cached": cache["products_cached"], "recomputed": cache["products_recomputed"]}
        row = page.locator("table.gen-attention tr[data-head='1-3'] td")
        assert row.count() == cache["tokens"]
        shown_top = page.locator("table.gen-same tbody th").all_inner_texts()
        assert shown_top == [t for t, _ in state["model"]["top"][-1]]
    assert state["model"]["generated"] == list("defgh")
    assert page.locator("#gen-written").inner_text().endswith("d e f g h")


def test_play_writes_by_itself_and_stops_and_reduced_motion_writes_one(lab):
    """Space on play: letters come one after another, the button pressed; Space again stops it.
    Under prefers-reduced-motion each press writes exactly one letter, no animation."""
    page = lab
    go_step(page, 1)
    clear(page)
    page.locator("#gen-play").focus()
    page.keyboard.press("Space")
    state = wait_state(page, "s.model.generated.length >= 2", timeout=15_000)
    assert page.locator("#gen-play").get_attribute("aria-pressed") == "true"
    page.locator("#gen-play").focus()
    page.keyboard.press("Space")
    page.wait_for_function("document.getElementById('gen-play').getAttribute('aria-pressed') === 'false'")
    stopped = get_state(page)["model"]["generated"]
    page.wait_for_timeout(1500)  # (longer than a letter's beat: none comes)
    assert get_state(page)["model"]["generated"] == stopped
    page.emulate_media(reduced_motion="reduce")
    clear(page)
    page.locator("#gen-play").focus()
    page.keyboard.press("Space")
    state = written(page, 1)
    page.wait_for_timeout(1500)
    assert len(get_state(page)["model"]["generated"]) == 1
    assert page.locator("#gen-play").get_attribute("aria-pressed") == "false"
    page.emulate_media(reduced_motion="no-preference")


def test_every_step_opens_in_its_mode_shows_its_views_and_fits_a_phone(lab):
    """Steps 1…6, three letters written: each step's mode and views, no sideways scroll on a phone; a
    screenshot of each at both widths. (Axe on every step: tests/e2e/views/test_every_path.py.)"""
    page, lang = lab, lab.lang
    SHOTS.mkdir(exist_ok=True)
    go_step(page, 1)
    clear(page)
    for n in range(1, 4):
        page.locator("#gen-step").click()
        written(page, n)
    for n, views in STEPS.items():
        state = go_step(page, n)
        assert state["mode"] == MODES[n], n
        assert sorted(shown(page)) == sorted(views), n
        step_at_two_widths(page, lambda width: fits(page, f"step {n}", width),
                           str(SHOTS / f"generation-{n}-{lang}-{{width}}.png"))


def fits(page, where, width):
    assert page.evaluate("document.documentElement.scrollWidth") <= width, f"{where}: no sideways scroll"


def test_an_embedded_widget_opens_a_generation_step_and_writes(browser, base_url):
    """embed=1&path=generation&step=2 on another site: model mode, the lab shows; the Write button
    tells the host a state with one letter written and its cache."""
    import json
    from tests.e2e.conftest import FRAME_POLL_MS, READY_TIMEOUT, open_host
    context, page = open_host(browser, base_url, "./?embed=1&path=generation&step=2&s=a+b+c+d+e+f+g+h+a+b+c")
    frame = page.frames[1]
    frame.wait_for_function("document.documentElement.dataset.state === 'ready'", timeout=READY_TIMEOUT,
                            polling=FRAME_POLL_MS)
    state = json.loads(frame.locator("#attention-state").text_content())
    assert state["step"] == 2 and state["mode"] == "model"
    assert frame.locator("#gen-step").is_visible() and frame.locator("#view-generation-cost").is_visible()
    frame.locator("#gen-step").click()
    page.wait_for_function("window.got.some(m => m.type === 'attention:state' && m.state.model"
                           " && m.state.model.generated.join('') === 'd' && m.state.model.cache.tokens === 13)")
    assert context.outside.urls == []
    context.close()


def test_the_steps_on_the_designed_heads_fetch_nothing_of_the_model(browser, base_url):
    """path=generation&step=4 (sentence mode): the real models' caches show, and not one of the
    model's files is fetched (they load only in model mode)."""
    from tests.e2e.conftest import open_page, wait_ready
    context, page = open_page(browser, base_url, "?lang=en&path=generation&step=4")
    asked = []
    context.on("request", lambda r: asked.append(r.url) if "/model/" in r.url else None)
    wait_ready(page)
    assert get_state(page)["mode"] == "sentence"
    assert page.locator("#view-cache-sizes tr[data-model='deepseek']").is_visible()
    assert asked == [] and page.errors == [] and context.outside.urls == []
    context.close()
