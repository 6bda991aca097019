"""Embedded where teachers embed it: a course page on another site, with the browser's storage
allowed, blocked by its own policy, throwing or missing; sandboxed frames; the resize
protocols of the hosts; two deployments on one page; the way out where Python cannot start.

The widget is on http://127.0.0.1:N/, every host page on http://localhost:M/ (another site:
tests/e2e/conftest.py). Chromium, in a fresh context, blocks third-party storage itself.
"""

import json
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest

from tests.e2e.conftest import (CSP_RECORDER, FRAME_POLL_MS, GUARD, NO_SNAPSHOT_WORKER, READY_TIMEOUT, csp_violations,
                                get_state, host_site, new_context, wait_ready)
from tests.e2e.start.test_embed import fits, wait_fitted
from tests.conftest import served
from tools.chromium import launch_options

PAGE = """<!doctype html><html lang="it"><head><meta charset="utf-8"><title>Corso</title>
<link rel="icon" href="data:,"><script>window.got = [];
addEventListener("message", e => {
  const frames = [...document.querySelectorAll("iframe")];
  window.got.push({from: frames.findIndex(f => f.contentWindow === e.source), data: e.data});
});</script>%s</head><body style="margin:0"><h1>Lezione</h1>%s</body></html>"""
# A state read in the widget's own frame (the host page cannot look into a frame of another site).
STATE = "JSON.parse(document.getElementById('attention-state').textContent)"
# What the widget's frame may use of its storage: the answer to each question, or the error's name.
PROBE = """() => { const r = {};
  for (const [name, read] of Object.entries({localStorage: () => localStorage.length,
      caches: () => typeof caches.open, serviceWorker: () => typeof navigator.serviceWorker.register})) {
    try { r[name] = read() !== undefined ? "usable" : "missing"; } catch (e) { r[name] = e.name; } }
  return r; }"""


def frame_tag(src, attrs=""):
    return f'<iframe src="{src}" title="Attention Explorer" width="100%" height="300" style="border:0" {attrs}></iframe>'


def widget_frame(page, i=0):
    """The i-th iframe's frame (Playwright reaches into frames of other sites)."""
    return page.query_selector_all("iframe")[i].content_frame()


def wait_widget(frame, states=("ready",)):
    """The widget's data-state once it is one of `states`; failing, what its page shows and logged."""
    try:
        frame.wait_for_function(f"{json.dumps(list(states))}.includes(document.documentElement.dataset.state)",
                                timeout=READY_TIMEOUT, polling=FRAME_POLL_MS)
    except Exception as error:
        try:
            shown = frame.evaluate("[document.documentElement.dataset.state, document.documentElement.dataset.start,"
                                   " (document.getElementById('status') || {}).textContent]")
        except Exception as gone:  # (the frame itself went away)
            shown = repr(gone)
        log = getattr(frame.page, "widget_log", [])
        raise AssertionError(f"widget {frame.url} never {states}: {shown}; log {log}") from error
    return frame.evaluate("document.documentElement.dataset.state")


def click_word(frame, index):
    """A student's click on a word of the widget; the state it answers with."""
    frame.locator(f'label.word[data-index="{index}"]').click()
    frame.wait_for_function(f"{STATE}.focus === {index}", timeout=10_000, polling=FRAME_POLL_MS)
    return frame.evaluate(STATE)


def widget_errors(page, base_url):
    """Console errors of the widget's frames (not the host page's), and uncaught exceptions."""
    return [m for m in page.widget_log if (m.startswith("error") and base_url in m) or m.startswith("pageerror")]


def open_course(browser, base_url, body, head="", **kwargs):
    """A course page on the host site with `body` (WIDGET/ stands for the widget's folder)."""
    site = host_site()
    url = site.put("course.html", PAGE % (head.replace("WIDGET/", base_url), body.replace("WIDGET/", base_url)))
    context = new_context(browser, base_url, host=site.url, **kwargs)
    return context, visit(context, url)


def visit(context, url):
    page = context.new_page()
    page.widget_log = []
    page.on("console", lambda m: page.widget_log.append(f"{m.type}: {m.text} @ {m.location.get('url', '')}"))
    page.on("pageerror", lambda e: page.widget_log.append(f"pageerror: {e}"))
    page.goto(url)
    return page


def test_widget_starts_where_the_browser_blocks_third_party_storage(browser, base_url):
    """In a fresh Chromium context, which denies storage to a frame of another site, the widget
    starts, answers a click with numbers, and says no error: the engine needs no storage."""
    context, page = open_course(browser, base_url, frame_tag("WIDGET/?embed=1&focus=1"))
    frame = widget_frame(page)
    assert wait_widget(frame) == "ready"
    probe = frame.evaluate(PROBE)
    assert probe["localStorage"] == "SecurityError", probe  # the browser really blocks it here
    state = click_word(frame, 5)
    assert state["focus"] == 5 and abs(sum(r["weight"] for r in state["rows"]) - 1) < 1e-12
    assert widget_errors(page, base_url) == []
    assert any("Python starts without a snapshot" in m for m in page.widget_log)  # (the engine, in its worker)
    assert csp_violations(frame) == [] and context.outside.urls == []
    context.close()


@pytest.mark.parametrize("mode", ["throws", "missing"])
def test_widget_starts_when_storage_throws_or_is_missing(browser, base_url, mode):
    """IndexedDB, the Cache API, local and session storage, service workers, BroadcastChannel and
    Web Locks throwing SecurityError (as browsers do) or missing: the widget starts and answers a
    click; each feature built on them steps aside with at most a line of information."""
    context, page = open_course(browser, base_url, frame_tag("WIDGET/?embed=1&focus=1"), storage=mode)
    frame = widget_frame(page)
    assert wait_widget(frame) == "ready"
    probe = frame.evaluate(PROBE)
    assert probe["localStorage"] == ("SecurityError" if mode == "throws" else "TypeError"), probe
    assert click_word(frame, 0)["focus"] == 0
    assert widget_errors(page, base_url) == []
    infos = [m for m in page.widget_log if m.startswith("info")]
    for feature in ("IndexedDB", "BroadcastChannel", "snapshot"):
        assert sum(feature in m for m in infos) <= 1, (feature, infos)
    context.close()


@pytest.mark.parametrize("sandbox", ["allow-scripts allow-same-origin", "allow-scripts"])
def test_widget_works_in_a_sandboxed_frame(browser, base_url, sandbox):
    """A sandboxed iframe (Canvas keeps allow-scripts allow-same-origin; allow-scripts alone gives
    an opaque origin with no storage at all): the widget starts, answers a click, and embed.js,
    which trusts the opaque origin of such a frame, sizes it to its content."""
    context, page = open_course(browser, base_url, frame_tag("WIDGET/?embed=1&focus=1",
                                                             f'sandbox="{sandbox}" data-attention-explorer'),
                                head='<script src="WIDGET/embed.js" defer></script>')
    frame = widget_frame(page)
    assert wait_widget(frame) == "ready"
    assert frame.evaluate("self.origin") == ("null" if sandbox == "allow-scripts" else base_url.rstrip("/"))
    assert click_word(frame, 2)["focus"] == 2
    page.locator("iframe").evaluate("f => f.id = 'w'")
    height, content, inner = wait_fitted(page, "w", within=2)
    assert abs(height - content) <= 2 and height > 300 and not inner
    page.wait_for_timeout(2500)  # (the student's pause, when the page compiles the wasm again: no storage there)
    assert widget_errors(page, base_url) == [] and context.outside.urls == []
    context.close()


@pytest.fixture(scope="module")
def plain_host():
    """The project's files from a host that sends no Access-Control-Allow-Origin header."""
    with served(cors=False) as url:
        yield url


def test_opaque_sandbox_on_a_host_without_cors_says_why_and_offers_a_new_tab(browser, plain_host):
    """sandbox="allow-scripts" alone, on a host that does not let an opaque origin read its
    scripts: the example stays readable, and the message says what to do, with a button that
    opens the same state in a new tab and the address to copy."""
    context, page = open_course(browser, plain_host, frame_tag("WIDGET/?embed=1&focus=2&mask=1",
                                                               'sandbox="allow-scripts allow-popups"'))
    frame = widget_frame(page)
    assert wait_widget(frame, ("error", "ready")) == "error"
    status = frame.locator("#status")
    assert "Access-Control-Allow-Origin" in status.inner_text() and "nuova scheda" in status.inner_text()
    assert status.get_attribute("role") == "alert"
    button = frame.locator(".way-out a.button[data-open-top]")
    assert button.inner_text() == "Apri in una nuova scheda" and button.get_attribute("target") == "_blank"
    address = frame.locator(".way-out input").input_value()
    assert address.startswith(plain_host) and "focus=2" in address and "mask=1" in address and "embed" not in address
    assert frame.locator('label.word[data-index="0"]').is_visible()  # the example is still there
    context.close()


def test_where_python_cannot_start_in_a_frame_the_new_tab_opens_the_same_state(browser, base_url):
    """Python's runtime cannot be had inside the frame (only there): the widget says so and its
    button opens the same state at the top level, where the page starts and shows it."""
    def refused_in_frames(route):
        frame = route.request.frame
        return route.abort() if frame.parent_frame is not None else route.fallback()

    site = host_site()
    url = site.put("course.html", PAGE % ("", frame_tag(base_url + "?embed=1&lang=en&focus=3&temp=2")))
    context = new_context(browser, base_url, host=site.url)
    context.route("**/pyodide.asm.wasm", refused_in_frames)
    page = visit(context, url)
    frame = widget_frame(page)
    assert wait_widget(frame, ("error", "ready")) == "error"
    assert ".wasm" in frame.locator("#status").inner_text()  # the usual causes, then the way out
    button = frame.locator(".way-out a.button[data-open-top]")
    assert button.inner_text() == "Open in a new tab"
    with context.expect_page() as opened:
        button.click()
    top = opened.value
    wait_ready(top)
    assert "embed" not in top.url
    state = get_state(top)
    assert (state["lang"], state["focus"], state["temperature"]) == ("en", 3, 2.0)
    assert not top.evaluate("document.documentElement.classList.contains('embed')")
    context.close()


def test_embedded_widget_always_has_a_new_tab_link_with_the_current_state(browser, base_url):
    """In embed mode a small "Open in a new tab" link is always there, in both languages, inside
    what embed.js sizes; followed after a click, it opens the state on screen at the top level."""
    context, page = open_course(browser, base_url, frame_tag("WIDGET/?embed=1&focus=1", "data-attention-explorer id=w"),
                                head='<script src="WIDGET/embed.js" defer></script>')
    frame = widget_frame(page)
    wait_widget(frame)
    link = frame.locator("a.open-top")
    assert link.is_visible() and link.inner_text().startswith("Apri in una nuova scheda")
    click_word(frame, 4)
    frame.wait_for_function("location.search.includes('focus=4')", polling=FRAME_POLL_MS)  # the address follows (app/page.py)
    with context.expect_page() as opened:
        link.click()
    top = opened.value
    wait_ready(top)
    assert get_state(top)["focus"] == 4 and "embed" not in top.url
    top.close()
    assert frame.locator(".page a.open-top").count() == 1  # inside the measured content
    height, content, inner = wait_fitted(page, "w", within=2)
    assert abs(height - content) <= 2 and not inner
    frame.locator('input[name="lang"][value="en"]').check()
    frame.wait_for_function(f"{STATE}.lang === 'en'", polling=FRAME_POLL_MS)
    assert link.inner_text().startswith("Open in a new tab")
    context.close()


# Host pages that size an iframe by the widget's messages without embed.js: Canvas's handler of
# lti.frameResize (a JSON string or an object) and the parent side of H5P's h5p-resizer.js
# (hello; prepareResize {scrollHeight, clientHeight}: the iframe set to clientHeight, answered by
# resizePrepared unless nothing differs; resize {scrollHeight}), each written here from its protocol.
CANVAS = """<script>addEventListener("message", e => {
  let d = e.data; if (typeof d === "string") { try { d = JSON.parse(d); } catch (x) { return; } }
  if (!d || d.subject !== "lti.frameResize") return;
  for (const f of document.querySelectorAll("iframe"))
    if (f.contentWindow === e.source) f.style.height = d.height + "px";
});</script>"""
H5P_PARENT = """<script>addEventListener("message", e => {
  if (!e.data || e.data.context !== "h5p") return;
  const f = [...document.querySelectorAll("iframe")].find(f => f.contentWindow === e.source);
  if (!f) return;
  const respond = (action, data = {}) => e.source.postMessage({...data, action, context: "h5p"}, e.origin);
  const d = e.data;
  if (d.action === "hello") { f.style.width = "100%"; respond("hello"); window.h5pHello = true; }
  RESIZE
});</script>"""
H5P = H5P_PARENT.replace("RESIZE", """else if (d.action === "prepareResize" && (f.clientHeight !== d.scrollHeight || d.scrollHeight !== d.clientHeight)) {
    f.style.height = d.clientHeight + "px"; respond("resizePrepared"); }
  else if (d.action === "resize") f.style.height = d.scrollHeight + "px";""")
# H5P's first resizers: prepareResize makes the iframe 1 px, resize says `height`.
H5P_FIRST = H5P_PARENT.replace("RESIZE", """else if (d.action === "prepareResize") { f.style.height = "1px"; respond("resizePrepared"); }
  else if (d.action === "resize") f.style.height = d.height + "px";""")
HOSTS = {"canvas": CANVAS, "h5p": H5P, "h5p-first": H5P_FIRST}


@pytest.mark.parametrize("host", sorted(HOSTS))
def test_hosts_resize_protocols_size_the_widget_without_embed_js(browser, base_url, host):
    """A Canvas page (lti.frameResize) and a page running H5P's resizer size the widget to its
    content within 2 px, at start and after a change of sentence, with no embed.js."""
    context, page = open_course(browser, base_url, frame_tag("WIDGET/?embed=1&focus=1", "id=w"),
                                head=HOSTS[host])
    frame = widget_frame(page)
    wait_widget(frame)
    height, content, inner = wait_fitted(page, "w", within=2)
    assert abs(height - content) <= 2 and height > 300 and not inner
    frame.locator("#sentence-input").fill("Il cane rincorre la palla nel giardino mentre la maestra legge una storia lunga")
    frame.locator("#sentence-input").press("Enter")
    frame.wait_for_function(f"{STATE}.sentence.startsWith('Il cane')", polling=FRAME_POLL_MS)
    height, content, inner = wait_fitted(page, "w", within=2)
    assert abs(height - content) <= 2 and not inner
    if host.startswith("h5p"):
        assert page.evaluate("window.h5pHello") is True
    context.close()


@pytest.fixture(scope="module")
def second_deployment():
    """Another deployment of the widget, on an origin of its own."""
    with served() as url:
        yield url


def test_embed_js_sizes_widgets_of_two_deployments(browser, base_url, second_deployment):
    """A course page with a widget of each of two deployments, and embed.js of each: both iframes
    end as tall as their content, within 2 px."""
    body = (frame_tag(base_url + "?embed=1&focus=1", "data-attention-explorer id=a")
            + frame_tag(second_deployment + "?embed=1&lang=en&s=The+dog+sleeps&focus=1", "data-attention-explorer id=b"))
    head = (f'<script src="{base_url}embed.js" defer></script>'
            f'<script src="{second_deployment}embed.js" defer></script>')
    site = host_site()
    url = site.put("course.html", PAGE % (head, body))
    context = new_context(browser, (base_url, second_deployment), host=site.url)  # two widget origins
    page = visit(context, url)
    for i, frame_id in enumerate("ab"):
        wait_widget(widget_frame(page, i))
        page.locator(f"#{frame_id}").scroll_into_view_if_needed()
        height, content, inner = wait_fitted(page, frame_id, within=2)
        assert abs(height - content) <= 2 and height > 300 and not inner, frame_id
    context.close()


def test_widget_starts_where_third_party_storage_is_allowed(browser, base_url):
    """A browser profile that allows third-party storage (cookies allowed): the widget starts
    as in the other cases and answers a click, with the browser's own IndexedDB and storage."""
    site = host_site()
    url = site.put("course.html", PAGE % ("", frame_tag(base_url + "?embed=1&focus=1")))
    with tempfile.TemporaryDirectory() as profile:
        (Path(profile) / "Default").mkdir()
        (Path(profile) / "Default" / "Preferences").write_text(json.dumps({"profile": {"cookie_controls_mode": 0}}))
        context = browser.browser_type.launch_persistent_context(profile, **launch_options())
        try:
            GUARD.attach(context, base_url, site.url)
            context.add_init_script(CSP_RECORDER)
            context.route("**/static/snapshot-worker.js", lambda route: route.fulfill(
                body=NO_SNAPSHOT_WORKER, content_type="text/javascript"))
            page = visit(context, url)
            frame = widget_frame(page)
            assert wait_widget(frame) == "ready"
            probe = frame.evaluate(PROBE)
            assert probe["localStorage"] == "usable", probe
            assert click_word(frame, 3)["focus"] == 3
            assert widget_errors(page, base_url) == [] and context.outside.urls == []
        finally:
            context.close()


# --- Real site generators as hosts: the teachers' guide's snippets pasted as they are --------

GUIDE = Path(__file__).resolve().parents[3] / "docs" / "teachers.en.md"
SNIPPET_HOST = "https://host/attention/"


def guide_snippet(after, language):
    """The first ```language block of the teachers' guide after the line containing `after`."""
    text = GUIDE.read_text(encoding="utf-8")
    start = text.index(after)
    fence = text.index(f"```{language}\n", start) + len(f"```{language}\n")
    return text[fence:text.index("\n```", fence)]


def build_mkdocs(folder, base_url):
    """A small MkDocs site (Material theme) whose lesson page holds the guide's iframe snippet
    twice and its script line once; the built site's folder."""
    frame = guide_snippet("### Moodle, Canvas, any HTML editor", "html").replace(SNIPPET_HOST, base_url)
    script = guide_snippet("### MkDocs and a plain HTML page", "html").replace(SNIPPET_HOST, base_url)
    source = folder / "src"
    (source / "docs").mkdir(parents=True)
    (source / "mkdocs.yml").write_text("site_name: Corso di reti neurali\ntheme:\n  name: material\n"
                                       "  language: it\nuse_directory_urls: false\n", encoding="utf-8")
    (source / "docs" / "index.md").write_text(
        f"# Lezione 3: l'attenzione\n\nGuarda dove guarda una parola.\n\n{frame}\n\n"
        f"Ora prova con la maschera.\n\n{frame}\n\n{script}\n", encoding="utf-8")
    subprocess.run([sys.executable, "-m", "mkdocs", "build", "--quiet", "-f", str(source / "mkdocs.yml"),
                    "-d", str(folder / "site")], check=True)
    return folder / "site"


def build_sphinx(folder, base_url):
    """A small Sphinx site whose lesson page holds the guide's reStructuredText snippet."""
    block = guide_snippet("### Sphinx (reStructuredText)", "rst").replace(SNIPPET_HOST, base_url)
    source = folder / "src"
    source.mkdir(parents=True)
    (source / "conf.py").write_text('project = "Corso"\nlanguage = "it"\n', encoding="utf-8")
    (source / "index.rst").write_text(f"Lezione 3\n=========\n\nGuarda dove guarda una parola.\n\n{block}\n"
                                      f"\nSecondo esercizio.\n\n{block}\n", encoding="utf-8")
    subprocess.run([sys.executable, "-m", "sphinx", "-q", "-b", "html", str(source), str(folder / "site")],
                   check=True)
    return folder / "site"


@pytest.mark.parametrize("generator", ["mkdocs", "sphinx"])
def test_course_site_built_by_a_generator_hosts_the_widgets(browser, base_url, generator):
    """A course site built by MkDocs (Material) or Sphinx with the guide's snippets pasted as they
    are: each widget becomes ready, answers a click, and is as tall as its content (2 px); the
    widgets ask nothing of any site but their own (the theme's own requests elsewhere are the host's)."""
    site = host_site()
    folder = site.folder(generator)
    built = (build_mkdocs if generator == "mkdocs" else build_sphinx)(folder, base_url)
    assert (built / "index.html").is_file()
    context = new_context(browser, base_url, host=site.url, viewport={"width": 1280, "height": 900})
    page = visit(context, f"{site.url}{generator}/site/index.html")
    frames = page.locator("iframe[data-attention-explorer]")
    assert frames.count() == 2
    for i in range(2):
        # As a student scrolls to it (loading="lazy"): its top below the site's fixed header, so
        # a click near the top of the widget is not scrolled under that header at the last moment.
        frames.nth(i).evaluate("f => scrollTo(0, scrollY + f.getBoundingClientRect().top - 120)")
        frames.nth(i).evaluate(f"f => f.id = 'w{i}'")
        frame = frames.nth(i).element_handle().content_frame()
        assert wait_widget(frame) == "ready"
        assert click_word(frame, 2)["focus"] == 2
        height, content, inner = wait_fitted(page, f"w{i}", within=2)
        assert abs(height - content) <= 2 and height > 300 and not inner
    assert widget_errors(page, base_url) == [] and context.outside.urls == []
    context.close()
