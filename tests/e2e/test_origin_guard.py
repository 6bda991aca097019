"""The origin guard of tests/e2e/conftest.py catches what it claims to catch.

Every browser test relies on it for "nothing leaves the page's origin"; here requests are
made on purpose (page, dedicated worker, service worker, WebSocket) and the guard must fire.
"""

import pytest

from tests.e2e.conftest import is_outside, new_context

PROBE = """<!doctype html><title>probe</title><script src="probe.js"></script>"""

# Each line leaves the origin one way; the worker and the service worker are same-origin
# scripts (served below) that then reach out themselves.
PROBE_JS = """
fetch('http://outside.example/page-fetch').catch(() => {});
new Worker('probe-worker.js');
navigator.serviceWorker.register('probe-sw.js');
new WebSocket('ws://outside.example/socket');
"""
WORKER_JS = "fetch('http://outside.example/worker-fetch').catch(() => {});"
SW_JS = "fetch('http://outside.example/service-worker-fetch').catch(() => {});"


def serve(body, kind):
    return lambda route: route.fulfill(body=body, content_type=kind)


def test_origins_are_compared_exactly_not_by_prefix():
    """Look-alike hosts and ports that share the origin's text as a prefix count as outside."""
    allowed = "http://127.0.0.1:8000/"
    for same in ("http://127.0.0.1:8000/app/main.py", "HTTP://127.0.0.1:8000/x", "data:text/plain,x",
                 "blob:http://127.0.0.1:8000/1b2c", "about:blank"):
        assert not is_outside(same, allowed), same
    for other in ("http://127.0.0.1:8000.evil.example/", "http://127.0.0.1:8000@evil.example/",
                  "http://127.0.0.1:80001/", "https://127.0.0.1:8000/", "http://localhost:8000/",
                  "http://127.0.0.1/", "ws://127.0.0.1:8000/", "blob:https://evil.example/1"):
        assert is_outside(other, allowed), other


def test_guard_fails_the_test_for_page_worker_service_worker_and_websocket(browser, base_url, origin_guard):
    """Requests to another origin from the page, a worker and a service worker, and a WebSocket,
    are each aborted and named when the guard checks (which fails the running test)."""
    context = new_context(browser, base_url)
    for name, body, kind in (("probe.html", PROBE, "text/html"), ("probe.js", PROBE_JS, "text/javascript"),
                             ("probe-worker.js", WORKER_JS, "text/javascript"),
                             ("probe-sw.js", SW_JS, "text/javascript")):
        context.route(base_url + name, serve(body, kind))
    page = context.new_page()
    page.goto(base_url + "probe.html")
    wanted = ["/page-fetch", "/worker-fetch", "/service-worker-fetch", "ws://outside.example/socket"]
    for _ in range(100):  # poll for the positive signal: every probe recorded
        if all(any(w in url for url in context.outside.urls) for w in wanted):
            break
        page.wait_for_timeout(100)
    with pytest.raises(pytest.fail.Exception) as failure:
        origin_guard.check(browser)
    for w in wanted:
        assert w in str(failure.value), f"the guard missed {w}: {failure.value}"
    context.close()
    origin_guard.check(browser)  # nothing left over: the guard was emptied by the check


def test_guard_knows_the_host_page_from_the_widget_on_two_sites(browser, base_url, origin_guard):
    """With the host page on another site: the widget's frame asking for the host's origin or a
    third site, or going to a third site itself, fails the test; the host page asking for its own
    origin passes, and its asking a third site is aborted without failing (a theme's web fonts)."""
    from tests.e2e.conftest import host_site
    site = host_site()
    site.put("asked.txt", "the host's own file")
    context = new_context(browser, base_url, host=site.url)
    context.route(base_url + "framed.html", serve(
        f"<!doctype html><title>framed</title><script src='framed.js'></script>", "text/html"))
    context.route(base_url + "framed.js", serve(
        f"fetch('{site.url}asked.txt?by=widget').catch(() => {{}});"
        "fetch('http://outside.example/by-widget').catch(() => {});"
        "setTimeout(() => { location.href = 'http://outside.example/away'; }, 300);", "text/javascript"))
    url = site.put("two-sites.html", "<!doctype html><title>host</title><script>"
                   "window.own = fetch('asked.txt?by=host').then(r => r.text());"
                   "fetch('http://outside.example/by-host').catch(() => {});</script>"
                   f"<iframe src='{base_url}framed.html'></iframe>")
    page = context.new_page()
    page.goto(url)
    assert page.evaluate("window.own") == "the host's own file"
    for _ in range(100):
        if len(context.outside.urls) >= 3 and context.outside.host_urls:
            break
        page.wait_for_timeout(100)
    with pytest.raises(pytest.fail.Exception) as failure:
        origin_guard.check(browser)
    assert "asked.txt?by=widget" in str(failure.value) and "/by-widget" in str(failure.value)
    assert "outside.example/away" in str(failure.value)  # a frame of the widget's going elsewhere
    assert "by=host" not in str(failure.value) and "/by-host" not in str(failure.value)
    assert context.outside.host_urls == ["http://outside.example/by-host"]
    context.close()
    origin_guard.check(browser)
