"""Never broken: odd and huge input, broken lexicons, failing runtime pieces, long sessions."""

import pytest

from tests.e2e.conftest import archive_edited, csp_violations, get_state, new_context, open_page, wait_ready, wait_state


def submit(page, text):
    page.fill("#sentence-input", text)
    page.press("#sentence-input", "Enter")


@pytest.mark.parametrize("text, tokens", [
    ("Il gatto 🐱 dorme", ["Il", "gatto", "🐱", "dorme"]),
    ("perche\u0301 il gatto", ["perché", "il", "gatto"]),
    ("القط ينام على السجادة", ["القط", "ينام", "على", "السجادة"]),
    ("ga\u200btto\u200d dorme\ufeff", ["gatto", "dorme"]),
    ("12, 3.5 — 7 %!", ["12", ",", "3.5", "—", "7", "%", "!"]),
])
def test_odd_text_is_tokenized_and_shown(app, text, tokens):
    """Emoji, combining accents, right-to-left text, invisible characters, numbers only."""
    submit(app, text)
    s = wait_state(app, f"s.sentence === {text!r}")
    assert [t["text"] for t in s["tokens"]] == tokens
    app.locator('label.word[data-index="1"]').click()
    s = wait_state(app, "s.focus === 1")
    assert abs(sum(r["weight"] for r in s["rows"]) - 1) < 1e-12
    assert app.errors == []


def test_ten_thousand_words_are_refused_and_kept(app):
    """10,000 pasted words: the limit is said, the box keeps the text, the sentence stays
    (how fast is for `make bench`, not for a test on a busy machine)."""
    before = get_state(app)["sentence"]
    huge = " ".join(["parola"] * 10_000)
    app.fill("#sentence-input", huge)
    app.press("#sentence-input", "Enter")
    app.wait_for_function("document.getElementById('messages').innerText.includes('2400')")
    assert app.input_value("#sentence-input") == huge
    assert get_state(app)["sentence"] == before
    app.locator('label.word[data-index="0"]').click()  # still responsive
    wait_state(app, "s.focus === 0")


def test_a_thousand_letter_word_wraps_instead_of_widening_the_page(app):
    """One 1,000-character word: shown, clickable, and the page never scrolls sideways."""
    word = "supercalifragilistichespiralidoso" * 30 + "x" * 10
    submit(app, f"Il {word} dorme")
    wait_state(app, "s.tokens.length === 3")
    app.locator('label.word[data-index="1"]').click()
    wait_state(app, "s.focus === 1")
    assert app.evaluate("document.documentElement.scrollWidth <= window.innerWidth")


def test_control_characters_and_lone_surrogates_in_the_url(browser, base_url):
    """NUL and control characters become spaces; broken UTF-8 (%ED%A0%80) becomes �; no crash."""
    context, page = open_page(browser, base_url, "?s=gatto%00dorme%07qui%ED%A0%80&focus=1")
    wait_ready(page)
    s = get_state(page)
    assert [t["text"] for t in s["tokens"]][:3] == ["gatto", "dorme", "qui"]
    assert "\ufffd" in s["sentence"] and s["focus"] == 1 and page.errors == []
    context.close()


def test_wrong_url_values_each_get_a_note(browser, base_url):
    """focus=-1, mask=maybe, self=2, lang=xx, limit=NaN and repeats: all explained, page works."""
    context, page = open_page(browser, base_url,
                              "?focus=-1&focus=2&mask=maybe&self=2&lang=xx&lang=en&limit=NaN")
    wait_ready(page)
    notes = page.locator("#messages .notes li").all_inner_texts()
    assert len(notes) == 5 and any("NaN" in n for n in notes)
    s = get_state(page)
    assert s["focus"] is None and s["mask"] is False and s["lang"] == "it"
    context.close()


def test_broken_lexicon_rows_are_reported_with_file_and_line(browser, base_url):
    """A teacher's lexicon with broken rows: the page works and lists each bad row."""
    broken = ("\ufeffword,alive,action,thing,function\r\n"
              "gatto,1,0,0,0\r\ncane,1,0\r\ntopo,NaN,0,0,0\r\nlupo,Infinity,0,0,0\r\n"
              "orso,2,0,0,0\r\ngatto,0,1,0,0\r\nil,0,0,0,1\r\ndorme,0,1,0,0\r\n")
    context = new_context(browser, base_url)
    context.route(base_url + "lexicon/it.csv",
                  lambda r: r.fulfill(body=broken.encode(), content_type="text/csv"))
    page = context.new_page()
    page.goto(base_url + "?s=il+gatto+dorme&focus=2")
    wait_ready(page)
    problems = [li.text_content() for li in page.locator(".lexicon-problems li").all()]
    assert [p.split(":")[0] for p in problems] == [f"Lessico it.csv, riga {n}" for n in (3, 4, 5, 6, 7)]
    assert [t["known"] for t in get_state(page)["tokens"]] == [True, True, True]
    context.close()


@pytest.mark.parametrize("missing", ["python_stdlib.zip", "engine.js"])
def test_a_missing_runtime_file_gives_a_clear_message(browser, base_url, missing):
    """The standard library or the engine's module answering 404: data-state 'error' and the
    message, not a spinner; the pre-rendered example stays."""
    context = new_context(browser, base_url)
    context.route(f"**/{missing}", lambda r: r.fulfill(status=404, body="gone"))
    page = context.new_page()
    page.goto(base_url)
    page.wait_for_function("document.documentElement.dataset.state === 'error'", timeout=60_000)
    assert "Non è stato possibile avviare Python" in page.locator("#status").inner_text()
    assert page.locator("table.steps").is_visible() and page.locator("label.word").count() == 6
    context.close()


def test_an_error_inside_a_handler_shows_a_line_and_the_next_click_works(app):
    """If a click handler fails, the page says so in one line and keeps working."""
    app.select_option("#preset", "0")
    wait_state(app, "s.focus === 5")
    # (the live region that a word click writes to throws: an error no handler expects)
    app.evaluate("Object.defineProperty(document.getElementById('announce'), 'textContent',"
                 " {configurable: true, set() { throw new Error('broken'); }}); null")
    app.locator('label.word[data-index="1"]').click()
    app.wait_for_selector("#messages li.error")
    assert "Qualcosa è andato storto" in app.locator("#messages").inner_text()
    app.evaluate("delete document.getElementById('announce').textContent; null")
    app.locator('label.word[data-index="2"]').click()
    s = wait_state(app, "s.focus === 2")
    assert app.locator("#analysis .bar-row").count() == len(s["tokens"])
    assert app.locator("#messages li.error").count() == 0


def test_a_browser_refusing_to_write_the_address_costs_no_error_and_it_follows_later(app):
    """history.replaceState throwing (Safari's limit on its calls): the click is answered with no
    error line, and the address catches up once the browser writes it again."""
    app.evaluate("window.__replace = history.replaceState;"
                 "history.replaceState = () => { throw new Error('SecurityError'); }; null")
    app.locator('label.word[data-index="3"]').click()
    wait_state(app, "s.focus === 3")
    app.wait_for_timeout(300)
    assert app.locator("#messages li.error").count() == 0 and "focus=3" not in app.url
    app.evaluate("history.replaceState = window.__replace; null")
    app.wait_for_url(lambda url: "focus=3" in url, timeout=5_000)


def test_soak_a_whole_lesson_of_clicks(browser, base_url):
    """1,000 word selections and 200 mask toggles on 40 words: no error, right state, heap bounded."""
    words = ("Il gatto seduto sul tappeto dormiva mentre il cane rincorreva la palla nel giardino "
             "e la maestra leggeva una storia ai bambini che ascoltavano in silenzio sotto il grande "
             "albero vicino alla casa della nonna con il libro rosso e blu").split()[:40]
    context, page = open_page(browser, base_url, "?s=" + "+".join(words) + "&focus=0")
    wait_ready(page)
    heap = "(() => { window.gc(); return performance.memory.usedJSHeapSize; })()"
    page.evaluate("""async () => { const w = [...document.querySelectorAll('input[name="word"]')];
        for (let i = 0; i < 20; i++) w[i % w.length].click(); }""")
    before = page.evaluate(heap)
    page.evaluate("""async () => {
        const words = () => [...document.querySelectorAll('input[name="word"]')];
        for (let i = 0; i < 1000; i++) {
          words()[(i * 7) % 40].click();
          if (i % 5 === 0) document.getElementById('mask').click();
          if (i % 100 === 0) await new Promise(ok => setTimeout(ok, 0));
        }
        document.getElementById('mask').click(); document.getElementById('mask').click();
    }""")
    s = wait_state(page, f"s.focus === {(999 * 7) % 40} && s.mask === false", timeout=120_000)
    after = page.evaluate(heap)
    assert s["focus"] == (999 * 7) % 40 and s["mask"] is False  # 200 toggles, then 2 more: off
    assert len(s["rows"]) == 40 and abs(sum(r["weight"] for r in s["rows"]) - 1) < 1e-12
    assert page.errors == [] and page.console_errors == [] and csp_violations(page) == []
    print(f"soak: JS heap {before / 1e6:.2f} MB -> {after / 1e6:.2f} MB after 1,000 clicks")
    assert after - before < 5_000_000, f"JS heap grew {(after - before) / 1e6:.1f} MB"
    context.close()


def edited_after_the_build(browser, base_url, path, old, new):
    """(context, page) of the default page, ready, with `old` replaced by `new` in the file
    at `path` of the deployed folder, as a teacher editing it without rebuilding."""
    context = new_context(browser, base_url)

    def edited(route):
        response = route.fetch()
        assert old in response.text()
        route.fulfill(response=response, body=response.text().replace(old, new).encode())

    context.route(base_url + path, edited)
    page = context.new_page()
    page.goto(base_url)
    wait_ready(page)
    return context, page


def test_lexicon_edited_after_the_build_still_gives_the_right_numbers(browser, base_url):
    """A teacher edits it.csv in the deployed folder without rebuilding: once Python is up the
    page shows the new cards, not the stale pre-render."""
    context, page = edited_after_the_build(browser, base_url, "lexicon/it.csv",
                                           "\ngatto,0.95,0.05,0.1,0\n", "\ngatto,0.5,0.5,0.5,0.5\n")
    assert get_state(page)["tokens"][1]["card"] == [0.5, 0.5, 0.5, 0.5]
    assert "0,5" in page.locator('label.word[data-index="1"] .card').inner_text()
    assert page.locator('input[name="word"]:disabled').count() == 0
    context.close()


def test_default_page_keeps_the_pre_rendered_example_when_python_is_ready(browser, base_url):
    """No link state: Python only enables the pre-rendered example (no redraw, no jump, a
    word focused before Python was ready keeps its focus)."""
    context = new_context(browser, base_url)
    context.add_init_script("document.addEventListener('DOMContentLoaded', () => {"
                            " window.__first = document.querySelector('#sentence label.word'); });")
    page = context.new_page()
    page.goto(base_url)
    wait_ready(page)
    assert page.evaluate("window.__first !== null && window.__first.isConnected"), \
        "the sentence was drawn again when Python started"
    assert page.locator('input[name="word"]:disabled').count() == 0
    assert get_state(page)["focus"] == 5
    context.close()


def test_module_changed_in_the_archive_runs_as_changed(browser, base_url):
    """A module replaced in app/app.zip (compiled again with one string changed) runs as it now
    is: the engine imports the archive's compiled modules, with nothing older beside them."""
    context = new_context(browser, base_url)

    def edited(route):
        response = route.fetch()
        route.fulfill(response=response, body=archive_edited(
            response.body(), "i18n.pyc", "Pronto: la pagina ricalcola a ogni tua scelta.", "Pronto, modificato: ricalcola ogni tua scelta."))

    context.route(base_url + "app/app.zip", edited)
    page = context.new_page()
    page.goto(base_url)
    wait_ready(page)
    assert page.locator("#status").inner_text().strip() == "Pronto, modificato: ricalcola ogni tua scelta."
    assert get_state(page)["focus"] == 5
    context.close()
