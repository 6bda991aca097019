"""Browser fixtures: one local server, one Chromium, pages that record outside requests.

Every context the session's browser opens is guarded: a request to another origin (from a
page, a frame, a worker or a service worker) is aborted, any WebSocket is closed, and the
autouse `origin_guard` fails the test during which it happened, naming the URL. Loading
Pyodide takes seconds, so tests share a loaded page and set the state each one needs.

Embedding is tested as teachers embed: the host page (a course page) is on another *site*
than the widget. The widget is served from http://127.0.0.1:N/ (`base_url`), host pages
from http://localhost:M/ (`host_site()`): browsers deny storage to third-party frames only
across sites, so two ports of one host would hide that. In a context opened with a host,
the host page may load its own origin and the widget's; what it asks of anyone else is
aborted without failing the test (a site generator's theme may link to web fonts); the
widget's frames, workers and service workers may still load only the widget's origin.
"""

import functools
import http.server
import io
import json
import shutil
import tempfile
import threading
import zipfile
from pathlib import Path
from urllib.parse import urlsplit

import pytest
from playwright.sync_api import sync_playwright

from tools.chromium import launch_options

DEFAULT_PORTS = {"http": 80, "https": 443, "ws": 80, "wss": 443}
READY_TIMEOUT = 90_000  # ms: Pyodide starts in ~3-5 s here, far more on a busy machine
# Waits in a widget's frame of another site look every FRAME_POLL_MS, not at each animation
# frame (Playwright's default): Chromium gives such a frame no animation frames while it is off
# screen, so a wait there never looked again once a widget above pushed it out of view.
FRAME_POLL_MS = 25
# Something the page has still to do: an event the engine has not answered (static/page.js), or a
# row view left for when the browser is idle (app/row_parts.py).
PENDING = "#app[data-answering], #analysis [aria-busy]"


def pytest_collection_modifyitems(items):
    for item in items:
        if "/e2e/" in str(item.fspath):
            item.add_marker(pytest.mark.browser)


def origin(url):
    """(scheme, host, port) of a URL, default ports filled in; a blob: URL has its creator's."""
    parts = urlsplit(url[len("blob:"):] if url.startswith("blob:") else url)
    scheme = parts.scheme.lower()
    try:
        port = parts.port or DEFAULT_PORTS.get(scheme)
    except ValueError:  # not a port at all: an origin of its own
        return scheme, parts.netloc.lower(), None
    return scheme, (parts.hostname or "").lower(), port


def is_outside(url, allowed):
    """True when loading `url` would leave the origin of `allowed` (exact comparison, not a
    prefix: http://127.0.0.1:8000.evil.example/ and http://127.0.0.1:8000@evil.example/ are
    outside http://127.0.0.1:8000/). data: and about: URLs load nothing."""
    if url.startswith(("data:", "about:")):
        return False
    return origin(url) != origin(allowed)


class OriginGuard:
    """Records every request that tries to leave its context's origin (page, frames, workers,
    service workers) and every WebSocket, aborting them; `check` fails the running test."""

    def __init__(self):
        self.caught = []  # "what URL" strings since the last check

    def catch(self, what, url):
        self.caught.append(f"{what} {url}")

    def attach(self, context, allowed, host=None):
        """Guard one browser context whose pages belong to the origin of `allowed` (or to one of
        several: a tuple); with `host`, a host page of that origin frames them (see the module's
        docstring)."""
        widgets = (allowed,) if isinstance(allowed, str) else tuple(allowed)
        outside = Outside(widgets[0].rstrip("/"))
        context.outside = outside

        def foreign(url):
            return all(is_outside(url, widget) for widget in widgets)

        def record(what, url):
            if url not in outside.urls:
                outside.urls.append(url)
                self.catch(what, url)

        def party(request):
            """Who asks: 'host' (the host page, or a frame of the host's origin) or 'widget' (a
            frame of the widget's, or anything with no frame: a worker, a service worker)."""
            if host is None or request.service_worker:
                return "widget"
            try:
                frame = request.frame
            except Exception:  # no frame: a worker's or a service worker's, so the widget's
                return "widget"
            if request.is_navigation_request():
                if frame.parent_frame is None:  # a tab: the test's (the host page) or one opened by a page
                    return "host" if frame.page.opener() is None else "widget"
                if not foreign(frame.url):  # a widget's frame going somewhere else
                    return "widget"
                frame = frame.parent_frame  # a frame being opened: asked by its parent
            return "host" if not is_outside(frame.url, host) else "widget"

        def verdict(request):
            """'widget' (its own origin), 'host' (the host's request to its origin), 'host
            outside' (the host's request elsewhere: aborted, not a leak) or 'leak'."""
            if not foreign(request.url):
                return "widget"
            if party(request) == "widget":
                return "leak"
            return "host" if not is_outside(request.url, host) else "host outside"

        def block(route):
            found = verdict(route.request)
            if found == "host":
                return route.fallback()
            if found == "host outside":
                if route.request.url not in outside.host_urls:
                    outside.host_urls.append(route.request.url)
            else:
                record("service worker" if route.request.service_worker else "request", route.request.url)
            route.abort()

        def seen(request):  # also the outside requests no route saw (e.g. answered by a worker)
            outside.seen += 1
            if verdict(request) == "leak":
                record("service worker" if request.service_worker else "request", request.url)

        def route_websocket(ws):  # never connected to a server: closed at once
            record("WebSocket", ws.url)
            ws.close()

        context.route(foreign, block)
        context.route_web_socket(lambda url: True, route_websocket)
        context.on("request", seen)
        context.on("page", lambda page: page.on("websocket", lambda ws: record("WebSocket", ws.url)))
        return context

    def check(self, browser=None):
        """Fail with every URL caught since the last check (after flushing pending events)."""
        for context in (browser.contexts if browser else ()):
            try:
                context.cookies()  # a round trip: delivers the route events still in flight
            except Exception:
                pass
        caught, self.caught = self.caught, []
        if caught:
            pytest.fail("requests left the page's origin:\n  " + "\n  ".join(caught), pytrace=False)


GUARD = OriginGuard()


# The process's one Playwright and Chromium, shared by the `browser` fixture of tests/e2e/ and the one
# tests/labs/conftest.py declares for the labs' e2e/ folders (two Playwrights cannot run in one process).
SHARED = {}


def shared_browser(base_url):
    """One Chromium for the session; every context it opens is guarded by GUARD (the origin is
    the test server's unless the context is made with origin=...)."""
    if SHARED:
        return SHARED["browser"]
    options = launch_options()
    # window.gc() and exact heap sizes, so the soak test measures memory kept, not garbage.
    # --liftoff-only: V8 compiles Python's 9 MB of wasm with its baseline compiler only, not
    # again with the optimizing one, in every fresh context (each test's cold start); same
    # results, a quarter less CPU per start on a machine of two cores. Speed is `make bench`'s,
    # which runs the browser as students do.
    options["args"] += ["--js-flags=--expose-gc --liftoff-only", "--enable-precise-memory-info"]
    p = sync_playwright().start()
    b = p.chromium.launch(**options)
    unguarded = b.new_context

    def new_context(origin=base_url, host=None, **kwargs):
        return GUARD.attach(unguarded(**kwargs), origin, host)

    b.new_context = new_context
    b.new_page = lambda **kwargs: new_context(**kwargs).new_page()
    SHARED.update(playwright=p, browser=b)
    return b


def close_shared_browser():
    """At the session's end (the first `browser` fixture finalized closes it for both)."""
    if SHARED:
        b = SHARED["browser"]
        GUARD.check(b)  # what module fixtures' pages did after the last test's check
        b.close()
        SHARED.pop("playwright").stop()
        SHARED.clear()


@pytest.fixture(scope="session")
def browser(base_url):
    yield shared_browser(base_url)
    close_shared_browser()


@pytest.fixture(autouse=True)
def origin_guard(request):
    """Fails the test during which any guarded context tried to leave its origin, with the URLs
    (checked right after the test's body, and again after its fixtures' teardown)."""
    yield GUARD
    GUARD.check(request.getfixturevalue("browser") if "browser" in request.fixturenames else None)


@pytest.hookimpl(wrapper=True)
def pytest_runtest_call(item):
    """The guard's check after the body, so a leak fails the test itself (not its teardown)."""
    result = yield
    GUARD.check(item.funcargs.get("browser"))
    return result


class Outside:
    """Per context: the URLs that tried to leave the page's origin (each was aborted)."""

    def __init__(self, origin):
        self.origin = origin
        self.urls = []
        self.host_urls = []  # what a host page asked of a third site (aborted, not a leak)
        self.seen = 0  # all requests, to prove the recorder was listening


# Every page records the Content-Security-Policy violations it meets.
CSP_RECORDER = """
window.__csp = [];
document.addEventListener('securitypolicyviolation',
  e => window.__csp.push(e.violatedDirective + ' ' + e.blockedURI + ' ' + (e.sample || '')));
"""


# Once a page is ready it starts a second Python in a worker to make the memory snapshot of
# later visits (static/snapshot.js): a whole interpreter start of CPU for every fresh
# context. Tests that are not about the snapshot get a worker that declines at once (the
# page then simply keeps starting normally, as when storage is refused); tests/e2e/
# test_deploy.py opens its contexts with snapshots=True and gets the real one.
NO_SNAPSHOT_WORKER = 'self.onmessage = () => self.postMessage({error: "no snapshot in this test"});'


def new_context(browser, base_url, snapshots=False, host=None, storage=None, **kwargs):
    """A fresh browser context (cold cache) guarded for the origin of `base_url` (or those of a
    tuple of them), framed by a host page of `host`'s origin if given; `storage`: "throws" or
    "missing" makes the storage APIs of every frame do so (STORAGE_DENIED)."""
    context = browser.new_context(origin=base_url, host=host, **kwargs)
    context.add_init_script(CSP_RECORDER)
    if storage:
        context.add_init_script(STORAGE_DENIED.replace("MODE", storage))
    if not snapshots:
        context.route("**/static/snapshot-worker.js", lambda route: route.fulfill(
            body=NO_SNAPSHOT_WORKER, content_type="text/javascript"))
    return context


def csp_violations(page):
    return page.evaluate("window.__csp || []")


def wait_ready(page):
    # (a tab just opened may be evaluated between two documents, with no root element yet)
    page.wait_for_function("!!document.documentElement && document.documentElement.dataset.state === 'ready'",
                           timeout=READY_TIMEOUT)


def more_settings(page):
    """Open "More settings" (√d_k, temperature, guess first, distance, head, mode, reset), as a
    student does before using them; left open if it is."""
    page.locator("details.more-settings").evaluate("d => { d.open = true; }")


def get_state(page):
    return json.loads(page.locator("#attention-state").text_content())


def wait_state(page, predicate_js, timeout=10_000):
    """Wait until the engine has answered every event so far (static/page.js: #app[data-answering]),
    the state JSON satisfies a JS predicate on `s`, and the row views left for when the browser is
    idle (off screen: app/row_parts.py) are drawn."""
    # (the state, up to ~140 kB of JSON on a model's step, is parsed only once nothing is pending)
    page.wait_for_function(
        f"(() => {{ if (document.querySelector('{PENDING}')) return false; "
        f"const s = JSON.parse(document.getElementById('attention-state').textContent); return ({predicate_js}); }})()",
        timeout=timeout)
    return get_state(page)


def go_step(page, n):
    """Walk the path's bar (next / back) to step n, as a student does."""
    state = get_state(page)
    while state["step"] != n:
        here = state["step"]
        page.locator("#step-next" if here < n else "#step-prev").click()
        state = wait_state(page, f"s.step === {here + (1 if here < n else -1)}")
    return state


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


def language_page(browser, base_url, lang, query="", width=1280, height=900):
    """A page of `width` × `height` opened on `?lang=<lang>&<query>` and ready, with `page.lang`;
    shared by a module's tests in one language (a generator for a module fixture: it checks, once
    they are done, that no error was thrown and no request left the origin)."""
    query = f"?lang={lang}" + (f"&{query}" if query else "")
    context, page = open_page(browser, base_url, query, viewport={"width": width, "height": height})
    wait_ready(page)
    page.lang = lang
    yield page
    assert page.errors == [] and context.outside.urls == []
    context.close()


@pytest.fixture(scope="module")
def app(browser, base_url):
    """One loaded page shared by a module's tests; no outside request allowed."""
    context, page = open_page(browser, base_url)
    wait_ready(page)
    yield page
    assert context.outside.urls == [], f"requests left the origin: {context.outside.urls}"
    assert csp_violations(page) == [], f"CSP violations: {csp_violations(page)}"
    context.close()


def open_host(browser, base_url, src="./", **kwargs):
    """A host page on another site framing the widget at `src` (relative to `base_url`) and
    recording every message it gets in window.got; returns (context, page) once the widget has
    posted its first state. The widget is page.frames[1]."""
    site = host_site()
    url = site.put("host.html", '<!doctype html><title>host</title><script>window.got = [];'
                   'addEventListener("message", e => window.got.push(e.data));</script>'
                   f'<iframe src="{base_url}{src.removeprefix("./")}" title="widget" width="900" height="900"></iframe>')
    context = new_context(browser, base_url, host=site.url, **kwargs)
    page = context.new_page()
    page.goto(url)
    page.wait_for_function("window.got.some(m => m.type === 'attention:state')", timeout=READY_TIMEOUT)
    return context, page


class HostSite:
    """Host pages on another site than the widget: http://localhost:N/, serving the files put
    into its folder (a page, or a whole generated site) with Python's plain server."""

    def __init__(self):
        self.root = Path(tempfile.mkdtemp(prefix="attention-host-"))
        handler = functools.partial(_QuietHandler, directory=str(self.root))
        self.server = _QuietServer(("127.0.0.1", 0), handler)
        threading.Thread(target=self.server.serve_forever, daemon=True).start()
        self.url = f"http://localhost:{self.server.server_address[1]}/"

    def put(self, name, html):
        """Serve `html` as `name`; its URL."""
        path = self.root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(html, encoding="utf-8")
        return self.url + name

    def folder(self, name):
        """An empty folder `name` of the site (for a generator's output); its path."""
        path = self.root / name
        shutil.rmtree(path, ignore_errors=True)
        path.mkdir(parents=True)
        return path


class _QuietHandler(http.server.SimpleHTTPRequestHandler):
    def log_message(self, *args):
        pass


class _QuietServer(http.server.ThreadingHTTPServer):
    daemon_threads = True

    def handle_error(self, request, client_address):
        pass  # a browser that went away mid-answer (a test closing its page)


_HOST_SITE = []


def host_site():
    """The session's host site (started on first use)."""
    if not _HOST_SITE:
        _HOST_SITE.append(HostSite())
    return _HOST_SITE[0]


# Storage as a browser denies it to a frame of another site (Chromium's messages, SecurityError):
# "throws", reading it throws (making a BroadcastChannel and asking for a lock too); "missing",
# the APIs are not there at all. (Opening IndexedDB failing is what Chromium itself does to a
# frame of another site, and throwing on open what it does in a sandboxed frame: both are
# tested in the browser's own way.) Only in frames: the host page keeps its storage.
STORAGE_DENIED = r"""
(() => {
  if (window === window.top) return;
  const mode = "MODE";
  const refuse = (what, owner) => () => {
    throw new DOMException(`Failed to read the '${what}' property from '${owner}': Access is denied for this document.`, "SecurityError");
  };
  const deny = (target, name, owner) => Object.defineProperty(target, name, mode === "missing"
    ? { configurable: true, value: undefined } : { configurable: true, get: refuse(name, owner) });
  deny(window, "localStorage", "Window");
  deny(window, "sessionStorage", "Window");
  deny(window, "caches", "Window");
  deny(window, "indexedDB", "Window");
  deny(Navigator.prototype, "serviceWorker", "Navigator");
  if (mode === "missing") {
    deny(window, "BroadcastChannel", "Window");
    deny(Navigator.prototype, "locks", "Navigator");
  } else {
    window.BroadcastChannel = function () {
      throw new DOMException("Failed to construct 'BroadcastChannel': Access is denied for this document.", "SecurityError");
    };
    LockManager.prototype.request = LockManager.prototype.query = () =>
      Promise.reject(new DOMException("Access to the Locks API is denied in this context.", "SecurityError"));
  }
})();
"""


class _Utf8Name(zipfile.ZipInfo):
    """A member flagged UTF-8, as tools/bytecode.mjs writes them (the page's Python has no cp437)."""

    def _encodeFilenameFlags(self):
        return self.filename.encode("utf-8"), self.flag_bits | 0x800


def archive_edited(data, member, old, new):
    """The bytes of zip `data` with `old` replaced by `new` in `member`, a compiled module (NAME.pyc:
    the archive has no sources), as that module compiled again with one of its strings changed:
    `new` has as many bytes as `old`, since marshal writes a string's length before it."""
    assert len(old.encode("utf-8")) == len(new.encode("utf-8"))
    source = zipfile.ZipFile(io.BytesIO(data))
    body = source.read(member)
    assert old.encode("utf-8") in body
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as target:
        for info in source.infolist():
            data = body.replace(old.encode("utf-8"), new.encode("utf-8"), 1) if info.filename == member \
                else source.read(info)
            target.writestr(_Utf8Name(info.filename, date_time=info.date_time), data)
    return out.getvalue()


# axe-core, injected from node_modules, and where screenshots go: every browser test file's.
AXE = (Path(__file__).resolve().parents[2] / "node_modules" / "axe-core" / "axe.min.js").read_text(encoding="utf-8")
SHOTS = Path(__file__).resolve().parents[2] / "test-results"


def axe_violations(page):
    """axe-core (injected from node_modules) on the whole page, WCAG 2.0/2.1 A and AA rules."""
    if not page.evaluate("!!window.axe"):
        page.evaluate(AXE + "\nnull")
    return page.evaluate("""async () => {
        const r = await axe.run(document, {runOnly: {type: 'tag',
            values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa']}});
        return r.violations.map(v => v.id + ': ' + v.nodes.map(n => n.target.join(' ')).join(' | '));
    }""")


def step_at_two_widths(page, check, shot):
    """A guided path's step as a student sees it at 1280 and at 360 px: `check(width)` asserts
    what must hold at each (axe, no sideways scroll), then a full-page screenshot at `shot`
    with the width put in ("{width}"); the page is left at 1280 × 900."""
    for width, height in ((1280, 900), (360, 640)):
        page.set_viewport_size({"width": width, "height": height})
        check(width)
        page.screenshot(path=shot.format(width=width), full_page=True)
    page.set_viewport_size({"width": 1280, "height": 900})


# -- a framed widget moved by its host (tests/e2e/views/test_every_path.py, test_phone.py) -------


def told(page):
    """How many states the framed widget has told its host page (`open_host`'s window.got)."""
    return page.evaluate("window.got.filter(m => m.type === 'attention:state').length")


def settle(page, frame, sent, step):
    """Wait for the widget to have answered: a new state told to its host (more than `sent`), at
    `step`, nothing left to answer and the row views drawn."""
    page.wait_for_function(f"window.got.filter(m => m.type === 'attention:state').length > {sent}")
    frame.wait_for_function(
        f"""(() => {{ const s = JSON.parse(document.getElementById('attention-state').textContent);
        return s.step === {step} && !document.querySelector('{PENDING}'); }})()""",
        polling=FRAME_POLL_MS, timeout=30_000)


def post(page, frame, message, step):
    """The host posts `message` to its widget, which answers it at `step` (`settle`)."""
    sent = told(page)
    page.evaluate("m => document.querySelector('iframe').contentWindow.postMessage(m, '*')", message)
    settle(page, frame, sent, step)


def watched(browser, base_url, query, pattern):
    """A fresh page at `query`, and what `pattern` finds in the address of each request its page and
    workers make, in order (watched from before the first one)."""
    context = new_context(browser, base_url)
    asked = []
    context.on("request", lambda request: asked.extend(pattern.findall(request.url)))
    page = context.new_page()
    page.errors = []
    page.on("pageerror", lambda e: page.errors.append(str(e)))
    page.goto(base_url + query)
    wait_ready(page)
    return context, page, asked
