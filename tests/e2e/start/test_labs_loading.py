"""A lab's code comes when a student first needs it: the first visit fetches no lab's archive
(app/labs/<id>.zip), a link to a lab's step fetches that lab's alone and is ready with its views, and
a click that leads into a lab (the trained model, whose page draws the generation and position labs'
views) fetches them then, once, and answers as it would have."""

import re

from tests.e2e.conftest import get_state, more_settings, open_host, wait_state, watched

LAB_ARCHIVE = re.compile(r"/app/labs/(\w+)\.zip$")


def opened(browser, base_url, query):
    """A fresh page at `query`, and the labs whose archive its page and workers ask for, in order."""
    return watched(browser, base_url, query, LAB_ARCHIVE)


def test_the_first_visit_fetches_no_lab_and_a_word_click_still_none(browser, base_url):
    """The explorer starts and answers a word and the mask without any lab's archive."""
    context, page, asked = opened(browser, base_url, "?s=Il+gatto+dorme+sul+letto")
    page.locator('input[name="word"]').nth(1).check()
    wait_state(page, "s.focus === 1")
    page.get_by_role("checkbox", name=re.compile("maschera|mask", re.I)).first.check()
    wait_state(page, "s.mask === true")
    assert asked == [] and page.errors == []
    context.close()


def test_a_link_to_a_labs_step_fetches_that_lab_alone_and_shows_its_views(browser, base_url):
    """path=cost&step=6: the cost lab's archive once, no other lab's; FlashAttention's table is there
    with the state's block, and the path's bar says 6 of the path's steps."""
    context, page, asked = opened(browser, base_url, "?lang=en&path=cost&step=6&focus=2&flash=2")
    state = get_state(page)
    assert state["step"] == 6 and state["flash"] is not None
    assert page.locator("#view-flash").is_visible()
    assert re.search(r"\b6 / \d+\b", page.locator(".path-progress").inner_text())
    assert asked == ["cost"] and page.errors == []
    context.close()


def test_a_click_into_model_mode_fetches_its_labs_once_and_answers(browser, base_url):
    """From the explorer, the trained model's button: the page waits for the generation and position
    labs' archives (each once), then shows the model with its Write button, in model mode."""
    context, page, asked = opened(browser, base_url, "?lang=en")
    more_settings(page)
    page.locator("#model-start").click()
    wait_state(page, "s.mode === 'model' && s.model !== null", timeout=60_000)
    assert page.locator("#gen-step").is_visible()
    assert sorted(asked) == ["generation", "position"] and page.errors == []
    page.locator("#model-back").click()
    wait_state(page, "s.mode === 'sentence'")
    page.locator("#model-start").click()
    wait_state(page, "s.mode === 'model'")
    assert sorted(asked) == ["generation", "position"]
    context.close()


def test_an_embedded_widgets_tab_of_a_lab_fetches_it_and_shows_its_view(browser, base_url):
    """embed=1: the tab of FlashAttention's blocks is offered before the cost lab is here (its title
    from the lab's manifest); choosing it by keyboard fetches the lab once and shows the view."""
    context, page, asked = opened(browser, base_url, "?embed=1&lang=en&focus=1&flash=2")
    assert asked == ["cost"]  # (a link naming the lab's setting brings it at the start)
    context.close()
    context, page, asked = opened(browser, base_url, "?embed=1&lang=en&focus=1")
    tab = page.get_by_role("radio", name="Blocks")
    assert tab.is_visible() and asked == []
    tab.focus()
    page.keyboard.press("Space")
    wait_state(page, "true")
    page.wait_for_function("document.querySelector('#view-flash') && "
                           "getComputedStyle(document.querySelector('#view-flash')).display !== 'none'")
    assert asked == ["cost"] and page.errors == []
    context.close()


def test_a_host_message_naming_a_labs_setting_fetches_the_lab(browser, base_url):
    """A course page's attention:set with the cost lab's pattern: the widget fetches the lab, then
    answers with the pattern applied (its cells fewer than the full n²)."""
    context, page = open_host(browser, base_url, "?lang=en&focus=2")
    asked = []
    context.on("request", lambda request: asked.extend(LAB_ARCHIVE.findall(request.url)))
    page.evaluate("document.querySelector('iframe').contentWindow.postMessage("
                  "{type: 'attention:set', pattern: 'window', window: 1}, '*')")
    page.wait_for_function("window.got.some(m => m.type === 'attention:state' && m.state.cost "
                           "&& m.state.cost.pattern === 'window')", timeout=60_000)
    state = page.evaluate("window.got.filter(m => m.type === 'attention:state').at(-1).state")
    assert state["cost"]["cells"] < state["cost"]["full"] and asked == ["cost"]
    context.close()
