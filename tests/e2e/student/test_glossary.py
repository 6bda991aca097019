"""The glossary in a browser: a term's link on a step opens its entry under the step, with the focus
on it, by mouse and by keyboard; an entry's step opens in place (no new start of Python), and the
browser's Back returns to the step the student came from."""

from tests.e2e.conftest import open_page, wait_ready, wait_state

ENTRY_SHOWN = """(id) => { const dt = document.getElementById('term-' + id);
  return document.getElementById('glossary').open && document.activeElement === dt
    && dt.getBoundingClientRect().top >= 0 && dt.getBoundingClientRect().bottom <= innerHeight; }"""


def test_a_term_opens_its_entry_and_the_entry_opens_its_step_in_place(browser, base_url):
    """On the generation path's third step in Italian at 390 px: «d_head» in the step's text opens the
    glossary at its entry (focus on it, on screen); the entry's link of «latente» leads to step 5 of
    the same path without loading the page again; Back returns to step 3."""
    context, page = open_page(browser, base_url, "?lang=it&path=generation&step=3", viewport={"width": 390, "height": 800})
    wait_ready(page)
    page.evaluate("window.stayed = true")
    assert not page.evaluate("document.getElementById('glossary').open")
    page.locator(".path-text a.term[href='#term-d_head']").click()
    page.wait_for_function(ENTRY_SHOWN, arg="d_head")
    assert "Quanti numeri ha la chiave" in page.locator("#term-d_head + dd").inner_text()
    page.locator("#term-latent + dd a.go").click()
    wait_state(page, "s.step === 5")
    assert page.evaluate("window.stayed === true"), "the step opened in place"
    assert "step=5" in page.url
    page.go_back()
    wait_state(page, "s.step === 3")
    page.locator(".path-text a.term").first.focus()
    page.keyboard.press("Enter")
    term = page.evaluate("document.querySelector('.path-text a.term').hash.slice(6)")
    page.wait_for_function(ENTRY_SHOWN, arg=term)
    assert page.evaluate("window.stayed === true")
    context.close()
