"""A third engine: the page, a cross-site embed and model mode in Firefox (Gecko), checked against
numpy: the default page, a click, a typed sentence, a widget framed by a course page on another
site, the trained model's heads, the bundle on Debian's nginx as it comes. Every page loads only from its own origin (read from Resource
Timing), and nothing, page or browser, tries to reach another host (the session's proxy,
tests/firefox/conftest.py, sees every such attempt)."""

import shutil
import tempfile
import time
from pathlib import Path
from urllib.parse import urlsplit

import numpy as np

from tests import model_reference as ref
from tests.e2e.conftest import host_site
from tests.firefox.conftest import run, wait_for
from tests.reference import W_Q, attention_row, lexicon_cards
from tests.test_model import CONFIG, LETTERS, ids_of

STATE = "JSON.parse(document.getElementById('attention-state').textContent)"
READY = "document.documentElement.dataset.state === 'ready'"


def state(client):
    return run(client, STATE)


def expected(lang, sentence, focus):
    cards = lexicon_cards(lang)
    return attention_row([cards[w.lower()] for w in sentence.split()], W_Q, focus)[2]


def origins_loaded(client):
    """The origins of everything the current frame has loaded, as Resource Timing lists them (its
    own loads, not a worker's: those the proxy of the session watches)."""
    urls = run(client, "performance.getEntriesByType('resource').map(r => r.name)")
    return {"{0.scheme}://{0.netloc}".format(urlsplit(url)) for url in urls if not url.startswith(("data:", "blob:"))}


def own(base_url):
    return base_url.rstrip("/")


def open_page(client, url):
    """`url` loaded and ready (failing, what the page shows)."""
    client.navigate(url)
    try:
        wait_for(client, READY)
    except AssertionError as error:
        shown = run(client, "[document.documentElement.dataset.state, document.documentElement.dataset.start,"
                            " (document.getElementById('status') || {}).textContent]")
        raise AssertionError(f"{url} never ready: {shown}") from error
    return state(client)


def click_word(client, index):
    """A student's click on a word (its label, which picks its radio); the state it answers with."""
    client.find_element("css selector", f'label.word[data-index="{index}"]').click()
    wait_for(client, f"{STATE}.focus === {index}", 10)
    return state(client)


def test_default_page_starts_with_the_example_and_its_numbers(firefox, base_url):
    """The page with no parameters becomes ready in Firefox, showing the first example, whose
    weights are numpy's; it loads nothing from elsewhere."""
    s = open_page(firefox, base_url)
    assert s["sentence"] == "Il gatto seduto sul tappeto dormiva" and s["lang"] == "it"
    np.testing.assert_allclose([r["weight"] for r in s["rows"]], expected("it", s["sentence"], s["focus"]),
                               rtol=1e-12, atol=1e-15)
    assert origins_loaded(firefox) == {own(base_url)}


def test_a_click_on_a_word_answers_with_numpys_weights(firefox, base_url):
    """A click on "dormiva" selects it, its radio checked; its weights are numpy's, and the bars show them."""
    open_page(firefox, base_url)
    s = click_word(firefox, 5)
    weights = expected("it", s["sentence"], 5)
    np.testing.assert_allclose([r["weight"] for r in s["rows"]], weights, rtol=1e-12, atol=1e-15)
    assert run(firefox, "document.querySelector('input[name=\"word\"]:checked')"
                        ".closest('label.word').dataset.index") == "5"
    bars = firefox.find_element("id", "view-bars").text
    assert f"{round(100 * weights[1])}%" in bars  # "gatto", the word it looks at most
    assert origins_loaded(firefox) == {own(base_url)}


def test_a_typed_sentence_is_analysed(firefox, base_url):
    """A sentence typed in the box and sent is split into its words, with cards from the lexicon."""
    open_page(firefox, base_url + "?lang=en")
    box = firefox.find_element("id", "sentence-input")
    box.clear()
    box.send_keys("The dog chased the ball")
    firefox.find_element("id", "analyse").click()
    wait_for(firefox, f"{STATE}.sentence === 'The dog chased the ball'", 10)
    s = click_word(firefox, 2)
    assert [t["text"] for t in s["tokens"]] == ["The", "dog", "chased", "the", "ball"]
    np.testing.assert_allclose([r["weight"] for r in s["rows"]], expected("en", s["sentence"], 2),
                               rtol=1e-12, atol=1e-15)


def test_a_widget_embedded_by_a_course_page_on_another_site_works(firefox, base_url):
    """A course page on 127.0.0.1 frames the widget from localhost (another site, so Firefox
    partitions its storage) with embed.js: the widget starts, answers a click, is sized to its
    content, and neither page loads from a third site."""
    widget = base_url.replace("://127.0.0.1:", "://localhost:")
    site = host_site()
    url = site.put("firefox-course.html", f"""<!doctype html><html lang="it"><head><meta charset="utf-8">
<title>Corso</title><link rel="icon" href="data:,"><script src="{widget}embed.js" defer></script></head>
<body style="margin:0"><h1>Lezione</h1><iframe id="w" src="{widget}?embed=1&focus=1" title="Attention Explorer"
width="100%" height="300" style="border:0" data-attention-explorer></iframe></body></html>""")
    host = url.replace("://localhost:", "://127.0.0.1:")
    assert urlsplit(host).hostname == "127.0.0.1" and urlsplit(widget).hostname == "localhost"
    firefox.navigate(host)
    firefox.switch_to_frame(firefox.find_element("id", "w"))
    try:
        wait_for(firefox, READY)
        s = click_word(firefox, 4)
        np.testing.assert_allclose([r["weight"] for r in s["rows"]], expected("it", s["sentence"], 4),
                                   rtol=1e-12, atol=1e-15)
        content = run(firefox, "Math.ceil(document.querySelector('.page').getBoundingClientRect().height)")
        assert origins_loaded(firefox) == {own(widget)}
    finally:
        firefox.switch_to_frame()
    height = wait_for(firefox, f"Math.abs(document.getElementById('w').getBoundingClientRect().height - {content}) <= 2"
                      " && document.getElementById('w').getBoundingClientRect().height", 10)
    assert height > 300
    assert origins_loaded(firefox) <= {own(widget), own(urlsplit(host)._replace(path="").geturl())}


def test_model_mode_shows_the_trained_heads_of_numpys_forward_pass(firefox, base_url):
    """Model mode starts in Firefox: every head's weights are numpy's forward pass of the trained
    checkpoint it shows, and the predictions table names numpy's most likely next letter."""
    s = open_page(firefox, base_url + "?mode=model&s=a+b+c+d+a+b+c&focus=7&lang=en")
    assert s["mode"] == "model" and s["focus"] == 7 and s["model"] is not None
    checkpoint = next(c for c in CONFIG["checkpoints"] if c["step"] == s["model"]["checkpoint"])
    patterns, logits = ref.forward(ref.weights(checkpoint["file"]), ids_of("abcdabc"))
    for layer in range(CONFIG["n_layers"]):
        for head in range(CONFIG["n_heads"]):
            np.testing.assert_allclose(s["model"]["attention"][layer][head], patterns[layer][head],
                                       rtol=0, atol=1e-9, err_msg=f"layer {layer} head {head}")
    predicted = [LETTERS[int(i)] for i in np.argmax(logits, axis=1)]
    cells = run(firefox, "[...document.querySelectorAll(\"#view-predictions tr[data-row='7'] td\")].map(td => td.innerText)")
    assert cells[3].split()[0] == predicted[7]
    assert origins_loaded(firefox) == {own(base_url)}


SNAPSHOT_KEPT = ("document.documentElement.dataset.snapshot && caches.open('attention-explorer-snapshot')"
                 ".then(c => c.keys()).then(k => k.length > 0)")


def test_a_second_visit_starts_from_the_kept_snapshot(firefox, base_url):
    """Once the first visit has kept its snapshot (Firefox's Cache API, with the service worker),
    the next visit starts from it, and its numbers are still numpy's."""
    open_page(firefox, base_url)
    end = time.monotonic() + 60
    while not firefox.execute_async_script(
            f"const done = arguments[arguments.length - 1]; Promise.resolve({SNAPSHOT_KEPT}).then(done, () => done(false))",
            sandbox=None):
        assert time.monotonic() < end, "no snapshot kept after the first visit"
        time.sleep(0.5)
    s = open_page(firefox, base_url)
    assert run(firefox, "document.documentElement.dataset.start") == "snapshot"
    np.testing.assert_allclose([r["weight"] for r in s["rows"]], expected("it", s["sentence"], s["focus"]),
                               rtol=1e-12, atol=1e-15)


def test_the_bundle_on_debians_nginx_as_it_comes_starts_and_answers_a_click(firefox):
    """The bundle served by Debian's nginx with its default mime.types (no .mjs type; the host of
    tests/e2e/start/test_hosts.py) starts in Firefox too, and a click on «palla» gets numpy's weights."""
    from tests.e2e.start import test_hosts as hosts_test
    from tools.bundle import make_bundle
    root = Path(tempfile.mkdtemp(prefix="attention-firefox-nginx-"))
    root.chmod(0o755)
    make_bundle(root / "course" / "week3")
    server = hosts_test.served("nginx", root)
    try:
        open_page(firefox, f"{server.origin}/{hosts_test.FOLDER}{hosts_test.QUERY}")
        s = click_word(firefox, 4)
        assert [t["text"] for t in s["tokens"]] == hosts_test.WORDS
        np.testing.assert_allclose([r["weight"] for r in s["rows"]], hosts_test.expected_weights(4),
                                   rtol=1e-12, atol=1e-15)
    finally:
        server.stop()
        shutil.rmtree(root, ignore_errors=True)
