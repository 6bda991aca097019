"""A second engine: the page and a cross-site embed in WebKit (Safari's engine, as on a school's
iPad), checked against numpy: the default page, a click, a typed sentence, a widget framed by
a course page on another site. Every page loads only from its own origin (read from Resource
Timing: the full origin guard is the Chromium suite's)."""

from urllib.parse import urlsplit

import numpy as np
from selenium.webdriver.common.by import By

from tests.e2e.conftest import host_site
from tests.reference import W_Q, attention_row, lexicon_cards
from tests.webkit.conftest import wait_for

STATE = "JSON.parse(document.getElementById('attention-state').textContent)"
READY = "document.documentElement.dataset.state === 'ready'"


def state(driver):
    return driver.execute_script(f"return {STATE}")


def expected(lang, sentence, focus):
    cards = lexicon_cards(lang)
    return attention_row([cards[w.lower()] for w in sentence.split()], W_Q, focus)[2]


def origins_loaded(driver):
    """The origins of everything the current frame has loaded, as Resource Timing lists them (its
    own loads, not a worker's; WebDriver cannot watch requests as the Chromium tests do)."""
    urls = driver.execute_script("return performance.getEntriesByType('resource').map(r => r.name)")
    return {"{0.scheme}://{0.netloc}".format(urlsplit(url)) for url in urls if not url.startswith(("data:", "blob:"))}


def own(base_url):
    return base_url.rstrip("/")


def click_word(driver, index):
    driver.find_element(By.CSS_SELECTOR, f'label.word[data-index="{index}"]').click()
    wait_for(driver, f"{STATE}.focus === {index}", 10)
    return state(driver)


def test_default_page_starts_with_the_example_and_its_numbers(webkit_browser, base_url):
    """The page with no parameters becomes ready in WebKit, showing the first example, whose
    weights are numpy's; it loads nothing from elsewhere."""
    webkit_browser.get(base_url)
    wait_for(webkit_browser, READY)
    s = state(webkit_browser)
    assert s["sentence"] == "Il gatto seduto sul tappeto dormiva" and s["lang"] == "it"
    np.testing.assert_allclose([r["weight"] for r in s["rows"]], expected("it", s["sentence"], s["focus"]),
                               rtol=1e-12, atol=1e-15)
    assert origins_loaded(webkit_browser) == {own(base_url)}


def test_a_click_on_a_word_answers_with_numpys_weights(webkit_browser, base_url):
    """A click on "dormiva" selects it; its weights are numpy's, and the bars show them."""
    webkit_browser.get(base_url)
    wait_for(webkit_browser, READY)
    s = click_word(webkit_browser, 5)
    weights = expected("it", s["sentence"], 5)
    np.testing.assert_allclose([r["weight"] for r in s["rows"]], weights, rtol=1e-12, atol=1e-15)
    bars = webkit_browser.find_element(By.ID, "view-bars").text
    assert f"{round(100 * weights[1])}%" in bars  # "gatto", the word it looks at most
    assert origins_loaded(webkit_browser) == {own(base_url)}


def test_a_typed_sentence_is_analysed(webkit_browser, base_url):
    """A sentence typed in the box and sent is split into its words, with cards from the lexicon."""
    webkit_browser.get(base_url + "?lang=en")
    wait_for(webkit_browser, READY)
    box = webkit_browser.find_element(By.ID, "sentence-input")
    box.clear()
    box.send_keys("The dog chased the ball")
    webkit_browser.find_element(By.ID, "analyse").click()
    wait_for(webkit_browser, f"{STATE}.sentence === 'The dog chased the ball'", 10)
    s = click_word(webkit_browser, 2)
    assert [t["text"] for t in s["tokens"]] == ["The", "dog", "chased", "the", "ball"]
    np.testing.assert_allclose([r["weight"] for r in s["rows"]], expected("en", s["sentence"], 2),
                               rtol=1e-12, atol=1e-15)


def test_a_widget_embedded_by_a_course_page_on_another_site_works(webkit_browser, base_url):
    """A course page on another site frames the widget with embed.js: the widget starts, answers a
    click, is sized to its content, and neither page loads from a third site."""
    site = host_site()
    url = site.put("webkit-course.html", f"""<!doctype html><html lang="it"><head><meta charset="utf-8">
<title>Corso</title><link rel="icon" href="data:,"><script src="{base_url}embed.js" defer></script></head>
<body style="margin:0"><h1>Lezione</h1><iframe id="w" src="{base_url}?embed=1&focus=1" title="Attention Explorer"
width="100%" height="300" style="border:0" data-attention-explorer></iframe></body></html>""")
    driver = webkit_browser
    driver.get(url)
    frame = driver.find_element(By.ID, "w")
    driver.switch_to.frame(frame)
    try:
        wait_for(driver, READY)
        s = click_word(driver, 4)
        np.testing.assert_allclose([r["weight"] for r in s["rows"]], expected("it", s["sentence"], 4),
                                   rtol=1e-12, atol=1e-15)
        content = driver.execute_script("return Math.ceil(document.querySelector('.page').getBoundingClientRect().height)")
        assert origins_loaded(driver) == {own(base_url)}
    finally:
        driver.switch_to.default_content()
    height = wait_for(driver, f"Math.abs(document.getElementById('w').getBoundingClientRect().height - {content}) <= 2"
                      " && document.getElementById('w').getBoundingClientRect().height", 10)
    assert height > 300
    assert origins_loaded(driver) <= {own(base_url), own(site.url)}
