"""Browser fixtures: one local server, one Chromium, pages that record outside requests.

Every context aborts (and records) any request that is not addressed to the page's own
origin; `guard` fixtures fail the test that caused one. Loading Pyodide takes seconds,
so tests share a loaded page and reset it through the UI.
"""

import json

import pytest
from playwright.sync_api import sync_playwright

from tools.chromium import launch_options

READY_TIMEOUT = 90_000  # ms: Pyodide starts in ~3-5 s here, far more on a busy machine


def pytest_collection_modifyitems(items):
    for item in items:
        if "/e2e/" in str(item.fspath):
            item.add_marker(pytest.mark.browser)


@pytest.fixture(scope="session")
def browser():
    options = launch_options()
    # window.gc() and exact heap sizes, so the soak test measures memory kept, not garbage.
    options["args"] += ["--js-flags=--expose-gc", "--enable-precise-memory-info"]
    with sync_playwright() as p:
        b = p.chromium.launch(**options)
        yield b
        b.close()


class Outside:
    """Requests that tried to leave the page's origin (each was aborted)."""

    def __init__(self, origin):
        self.origin = origin
        self.urls = []
        self.seen = 0  # all requests, to prove the recorder was listening

    def attach(self, context):
        def is_outside(url):
            return url.startswith(("http:", "https:", "ws:", "wss:")) and not url.startswith(self.origin)

        def block(route):
            self.urls.append(route.request.url)
            route.abort()

        context.route(is_outside, block)
        context.on("request", lambda r: setattr(self, "seen", self.seen + 1))


# Every page records the Content-Security-Policy violations it meets.
CSP_RECORDER = """
window.__csp = [];
document.addEventListener('securitypolicyviolation',
  e => window.__csp.push(e.violatedDirective + ' ' + e.blockedURI + ' ' + (e.sample || '')));
"""


def new_context(browser, base_url, **kwargs):
    """A fresh browser context (cold cache) whose outside requests are aborted and recorded."""
    context = browser.new_context(**kwargs)
    outside = Outside(base_url.rstrip("/"))
    outside.attach(context)
    context.outside = outside
    context.add_init_script(CSP_RECORDER)
    return context


def csp_violations(page):
    return page.evaluate("window.__csp || []")


def wait_ready(page):
    page.wait_for_function("document.documentElement.dataset.state === 'ready'", timeout=READY_TIMEOUT)


def get_state(page):
    return json.loads(page.locator("#attention-state").text_content())


def wait_state(page, predicate_js):
    """Wait until the state JSON satisfies a JS predicate on `s`."""
    page.wait_for_function(
        f"(() => {{ const s = JSON.parse(document.getElementById('attention-state').textContent); "
        f"return {predicate_js}; }})()", timeout=10_000)
    return get_state(page)


def open_page(browser, base_url, query="", **kwargs):
    context = new_context(browser, base_url, **kwargs)
    page = context.new_page()
    page.errors = []
    page.on("pageerror", lambda e: page.errors.append(str(e)))
    page.console_errors = []
    page.on("console", lambda m: page.console_errors.append(m.text) if m.type == "error" else None)
    page.dialogs = []

    def on_dialog(d):
        page.dialogs.append(d.message)
        d.dismiss()

    page.on("dialog", on_dialog)
    page.goto(base_url + query)
    return context, page


@pytest.fixture(scope="module")
def app(browser, base_url):
    """One loaded page shared by a module's tests; no outside request allowed."""
    context, page = open_page(browser, base_url)
    wait_ready(page)
    yield page
    assert context.outside.urls == [], f"requests left the origin: {context.outside.urls}"
    assert csp_violations(page) == [], f"CSP violations: {csp_violations(page)}"
    context.close()


def open_host(browser, base_url, src="./"):
    """A host page (same origin) framing the widget at `src` and recording every message it
    gets in window.got; returns (context, page) once the widget has posted its first state."""
    context = new_context(browser, base_url)
    host = ('<!doctype html><title>host</title><script>window.got = [];'
            'addEventListener("message", e => window.got.push(e.data));</script>'
            f'<iframe src="{src}" title="widget" width="900" height="900"></iframe>')
    context.route(base_url + "host.html", lambda route: route.fulfill(body=host, content_type="text/html"))
    page = context.new_page()
    page.goto(base_url + "host.html")
    page.wait_for_function("window.got.some(m => m.type === 'attention:state')", timeout=READY_TIMEOUT)
    return context, page
