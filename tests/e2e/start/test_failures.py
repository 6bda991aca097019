"""Before Python, without Python, and with links nobody should trust."""

from tests.e2e.conftest import get_state, new_context, open_host, open_page, wait_ready


def test_page_is_readable_with_a_loading_indicator_before_python_is_ready(browser, base_url):
    """While the wasm is still downloading: example, cards, bars and table show; the words answer
    (tests/e2e/start/test_early.py), the sentence box and the sliders wait."""
    context = new_context(browser, base_url)
    context.route("**/pyodide.asm.wasm", lambda route: None)  # never answers: Python never starts
    page = context.new_page()
    page.goto(base_url)
    page.wait_for_selector("table.steps")
    assert page.evaluate("document.documentElement.dataset.state") == "loading"
    assert page.locator("#status").is_visible() and page.locator("#status progress").is_visible()
    assert "Avvio di Python" in page.locator("#status").inner_text()
    assert page.locator("label.word").count() == 6
    assert page.locator("#analysis .bar-row").count() == 6
    assert page.locator('td[data-col="percent"]').all_inner_texts() == ["9,2%", "42,4%", "13,1%", "10,2%", "25,1%"]
    assert page.locator('input[name="word"]:enabled').count() == 6
    assert page.is_disabled("#sentence-input") and page.is_disabled("#temp") and page.is_disabled("#preset")
    assert get_state(page)["focus"] == 5  # the pre-rendered state is there too
    context.close()


def test_blocked_wasm_gives_a_clear_message_not_an_endless_spinner(browser, base_url):
    """If the .wasm cannot load, data-state becomes 'error' and the page says what happened."""
    context = new_context(browser, base_url)
    context.route("**/*.wasm", lambda route: route.abort())
    page = context.new_page()
    page.goto(base_url)
    page.wait_for_function("document.documentElement.dataset.state === 'error'", timeout=60_000)
    status = page.locator("#status")
    assert "Non è stato possibile avviare Python" in status.inner_text()
    assert status.get_attribute("role") == "alert"
    assert page.locator("table.steps").is_visible()  # the pre-rendered example stays readable
    context.close()


def test_corrupt_wasm_gives_the_same_clear_message(browser, base_url):
    """A .wasm that downloads but cannot compile (a proxy's error page) ends in 'error' too."""
    context = new_context(browser, base_url)
    context.route("**/*.wasm", lambda route: route.fulfill(body=b"<html>blocked by proxy</html>",
                                                           content_type="application/wasm"))
    page = context.new_page()
    page.goto(base_url)
    page.wait_for_function("document.documentElement.dataset.state === 'error'", timeout=60_000)
    assert "Non è stato possibile avviare Python" in page.locator("#status").inner_text()
    context.close()


def test_blocked_wasm_message_follows_the_link_language(browser, base_url):
    """With ?lang=en the failure message is in English."""
    context = new_context(browser, base_url)
    context.route("**/*.wasm", lambda route: route.abort())
    page = context.new_page()
    page.goto(base_url + "?lang=en")
    page.wait_for_function("document.documentElement.dataset.state === 'error'", timeout=60_000)
    assert "Python could not start" in page.locator("#status").inner_text()
    context.close()


def test_without_javascript_the_example_and_table_stay_readable(browser, base_url):
    """JavaScript off: a <noscript> note, and the pre-rendered sentence and table."""
    context = new_context(browser, base_url, java_script_enabled=False)
    page = context.new_page()
    page.goto(base_url)
    assert "JavaScript" in page.locator("noscript").first.evaluate("n => n.textContent")
    assert page.locator("table.steps tbody tr").count() == 6
    assert "dormiva" in page.locator("#sentence").inner_text()
    context.close()


def test_bad_url_values_fall_back_with_visible_notes(browser, base_url):
    """focus=999, lang=xx and mask=maybe: each explained on the page; the page still works."""
    context, page = open_page(browser, base_url, "?focus=999&lang=xx&mask=maybe")
    wait_ready(page)
    notes = page.locator("#messages .notes li").all_inner_texts()
    assert len(notes) == 3
    assert any("999" in n for n in notes) and any("xx" in n for n in notes) and any("maybe" in n for n in notes)
    s = get_state(page)
    assert s["lang"] == "it" and s["focus"] is None and s["mask"] is False
    page.locator('label.word[data-index="1"]').click()
    page.wait_for_function("JSON.parse(document.getElementById('attention-state').textContent).focus === 1")
    assert context.outside.urls == []
    context.close()


def test_markup_in_the_url_is_shown_literally_and_never_runs(browser, base_url):
    """?s=<script>… is text on the page: no dialog, no sentinel set, nothing injected."""
    payload = "<script>window.__pwned=1</script><svg onload=alert(1)> gatto"
    from urllib.parse import quote
    context, page = open_page(browser, base_url, "?s=" + quote(payload) + "&focus=1")
    wait_ready(page)
    s = get_state(page)
    assert s["sentence"] == payload and s["focus"] == 1
    assert page.input_value("#sentence-input") == payload
    assert page.locator("#app script, #app svg[onload]").count() == 0
    assert page.evaluate("window.__pwned") is None and page.dialogs == [] and page.errors == []
    context.close()


def test_too_long_sentence_in_the_url_keeps_its_text_in_the_box(browser, base_url):
    """A link with 70 words shows the first example, says the limit, and keeps the text."""
    long = " ".join(["gatto"] * 70)
    context, page = open_page(browser, base_url, "?s=" + long.replace(" ", "+"))
    wait_ready(page)
    assert "60" in page.locator("#messages").inner_text()
    assert page.input_value("#sentence-input") == long
    assert get_state(page)["sentence"] == "Il gatto seduto sul tappeto dormiva"
    context.close()


def test_framed_page_posts_its_state_to_the_parent(browser, base_url):
    """In an iframe, every render posts {type: 'attention:state', state} to the host page."""
    context, page = open_host(browser, base_url, "./?focus=1")
    message = page.evaluate("window.got.find(m => m.type === 'attention:state')")
    assert message["state"]["focus"] == 1 and message["state"]["version"] == 2
    frame = page.frame_locator("iframe")
    frame.locator('label.word[data-index="4"]').click()
    page.wait_for_function("window.got.some(m => m.type === 'attention:state' && m.state.focus === 4)")
    assert context.outside.urls == []
    context.close()
