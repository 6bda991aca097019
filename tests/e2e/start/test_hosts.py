"""The bundle on the hosts teachers have, each as it comes: Debian's nginx with its default
mime.types, Apache 2.4 with Debian's default modules and /etc/mime.types, and a learning
platform's file area (tools/static_host.py's strict host: `.js` as application/x-javascript,
`.wasm`, `.zip`, `.gz`, `.json`… as document/unknown, with nosniff, as Moodle serves a Folder; and
the same with application/octet-stream for what it does not know, as other platforms do).

Each server is started here, in the foreground, on a free loopback port, with a configuration
this module writes into a temporary folder (never a system service), and serves the folder
`make bundle` writes under a sub-path. On each: the first visit and the second (a reload) reach
ready, and a word click is answered by Python with numpy's weights; on the strict host also with
service workers blocked (the runtime comes exactly as the host labels it; the second visit runs
the wasm the page compiled). On each, a widget embedded in a course page of another site.
tools/hosts.py installs nginx and Apache for `make test`; without them their tests are skipped
(a failure under CI=true).
"""

import os
import shutil
import socket
import subprocess
import tempfile
import time
import urllib.request
from pathlib import Path
from urllib.parse import quote

import numpy as np
import pytest

from tests.e2e.conftest import FRAME_POLL_MS, READY_TIMEOUT, csp_violations, get_state, new_context, open_page, wait_state
from tests.reference import W_Q, attention_row, lexicon_cards
from tools import hosts
from tools.bundle import make_bundle
from tools.static_host import strict_server

FOLDER = "course/week3/attention-explorer/"
# The learning platforms' file areas (tools/static_host.py): what each sends for an extension it
# does not know.
STRICT = {"strict": "document/unknown", "octet": "application/octet-stream"}
WORDS = ["Il", "cane", "rincorre", "la", "palla", "nel", "giardino"]
# A sentence the pre-rendered example does not hold: only Python answers it.
QUERY = "?s=" + quote(" ".join(WORDS)) + "&focus=1"
STATE = "JSON.parse(document.getElementById('attention-state').textContent)"
SETTLED = "['ready', 'error'].includes(document.documentElement.dataset.state)"
SHOWN = "[document.documentElement.dataset.state, (document.getElementById('status') || {}).textContent || '']"


def expected_weights(focus):
    """numpy's weights of row `focus` for WORDS, from the lexicon files (no mask, not itself)."""
    cards = [lexicon_cards("it")[w.lower()] for w in WORDS]
    return attention_row(cards, W_Q, focus)[2]


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def wait_listening(port, process, log):
    end = time.monotonic() + 20
    while time.monotonic() < end:
        if process.poll() is not None:
            raise RuntimeError(f"the server stopped: {Path(log).read_text(errors='replace')}")
        try:
            socket.create_connection(("127.0.0.1", port), timeout=0.5).close()
            return
        except OSError:
            time.sleep(0.1)
    raise RuntimeError(f"the server never listened on {port}: {Path(log).read_text(errors='replace')}")


def nginx_config(root, port, tmp):
    """Debian's nginx.conf reduced to one server: its MIME table included as it is, its
    default type, its gzip (HTML only), and the paths it writes moved into `tmp`."""
    temps = "\n".join(f"  {kind}_temp_path {tmp}/{kind};" for kind in ("client_body", "proxy", "fastcgi", "uwsgi", "scgi"))
    return f"""daemon off;
worker_processes 1;
pid {tmp}/nginx.pid;
error_log {tmp}/error.log;
events {{ worker_connections 256; }}
http {{
  sendfile on;
  tcp_nopush on;
  types_hash_max_size 2048;
  include {hosts.NGINX_TYPES};
  default_type application/octet-stream;
  access_log off;
  gzip on;
{temps}
  server {{
    listen 127.0.0.1:{port};
    root {root};
  }}
}}
"""


def apache_config(root, port, tmp):
    """Debian's default Apache: the modules it enables with their configuration (mods-enabled:
    mime with /etc/mime.types and its AddType lines, deflate, dir, negotiation, …), one
    directory served, the files it writes moved into `tmp`."""
    user = "User www-data\nGroup www-data\n" if os.geteuid() == 0 else ""
    return f"""ServerRoot {hosts.APACHE_ROOT}
DefaultRuntimeDir {tmp}
PidFile {tmp}/apache.pid
ErrorLog {tmp}/error.log
LogLevel warn
Mutex file:{tmp} default
{user}ServerName 127.0.0.1
Listen 127.0.0.1:{port}
IncludeOptional mods-enabled/*.load
IncludeOptional mods-enabled/*.conf
DocumentRoot {root}
<Directory />
  Options FollowSymLinks
  AllowOverride None
  Require all denied
</Directory>
<Directory {root}>
  Options Indexes FollowSymLinks
  AllowOverride None
  Require all granted
</Directory>
"""


class Host:
    """A server serving the bundle's root: `origin` (http://127.0.0.1:PORT), `stop()`."""

    def __init__(self, name, root):
        self.name, self.root, self.process, self.server, self.counter = name, root, None, None, None
        self.tmp = Path(tempfile.mkdtemp(prefix=f"attention-{name}-"))
        port = free_port()
        self.origin = f"http://127.0.0.1:{port}"
        if name in STRICT:
            self.server, self.counter = strict_server(root, port=port, unknown=STRICT[name])
            return
        binary = hosts.nginx() if name == "nginx" else hosts.apache()
        config = self.tmp / f"{name}.conf"
        log = self.tmp / "server.log"
        if name == "nginx":
            config.write_text(nginx_config(root, port, self.tmp))
            command = [binary, "-c", str(config), "-p", str(self.tmp)]
        else:
            config.write_text(apache_config(root, port, self.tmp))
            command = [binary, "-f", str(config), "-DFOREGROUND"]
        with open(log, "wb") as out:
            self.process = subprocess.Popen(command, stdout=out, stderr=subprocess.STDOUT, start_new_session=True)
        wait_listening(port, self.process, log)

    def stop(self):
        if self.server:
            self.server.shutdown()
        if self.process and self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(10)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
        shutil.rmtree(self.tmp, ignore_errors=True)


@pytest.fixture(scope="module")
def bundle_root():
    """A folder holding the bundle under course/week3/, readable by a server's own user."""
    root = Path(tempfile.mkdtemp(prefix="attention-hosts-"))
    root.chmod(0o755)
    make_bundle(root / "course" / "week3")
    yield root
    shutil.rmtree(root, ignore_errors=True)


def served(name, root):
    reason = hosts.skip_reason(name) if name not in STRICT else None
    if reason:
        if os.environ.get("CI") == "true":
            pytest.fail(reason)  # CI installs them (make test): their absence there is a fault
        pytest.skip(reason)
    return Host(name, root)


@pytest.fixture(scope="module", params=["nginx", "apache", *STRICT])
def host(request, bundle_root):
    server = served(request.param, bundle_root)
    yield server
    server.stop()


@pytest.fixture(scope="module")
def strict(bundle_root):
    server = served("strict", bundle_root)
    yield server
    server.stop()


def content_type(url):
    with urllib.request.urlopen(urllib.request.Request(url, method="HEAD")) as answer:
        return answer.headers.get("Content-Type", ""), answer.headers.get("X-Content-Type-Options")


def settled(page):
    """Wait until the page is ready or has said Python could not start; (state, status text)."""
    page.wait_for_function(SETTLED, timeout=READY_TIMEOUT)
    return tuple(page.evaluate(SHOWN))


def visit_and_click(page, focus):
    """The page started Python, and Python answered a click on word `focus`: its state."""
    shown = settled(page)
    assert shown[0] == "ready", f"Python did not start: {shown}"
    page.locator(f'label.word[data-index="{focus}"]').click()
    return wait_state(page, f"s.focus === {focus} && s.tokens.length === {len(WORDS)}")


def assert_answered(state, focus):
    assert [t["text"] for t in state["tokens"]] == WORDS
    assert state["mask"] is False and state["include_self"] is False
    assert np.allclose([r["weight"] for r in state["rows"]], expected_weights(focus), atol=1e-12)


def test_the_hosts_serve_the_types_they_come_with(host):
    """What each host says of the files is what a teacher's would say (so the tests below meet
    it): nginx sends the JavaScript as application/javascript, Apache as text/javascript, the
    strict hosts as application/x-javascript with Python's wasm as document/unknown or
    application/octet-stream."""
    base = f"{host.origin}/{FOLDER}"
    runtime = next(p for p in (Path(hosts.__file__).parent.parent / "vendor").glob("pyodide-*") if p.is_dir()).name
    js, _ = content_type(base + "static/engine.js")
    wasm, sniff = content_type(f"{base}vendor/{runtime}/pyodide.asm.wasm")
    expected = {"nginx": ("application/javascript", "application/wasm"),
                "apache": ("text/javascript", "application/wasm"),
                "strict": ("application/x-javascript", "document/unknown"),
                "octet": ("application/x-javascript", "application/octet-stream")}[host.name]
    assert (js.split(";")[0], wasm.split(";")[0]) == expected
    if host.name in STRICT:
        assert sniff == "nosniff"


def test_first_and_second_visit_start_python_and_answer_a_click(browser, host):
    """A student's first visit reaches ready and a click on «palla» gets numpy's weights; so does
    the second visit (a reload), with no error on the page."""
    context, page = open_page(browser, host.origin + "/", FOLDER + QUERY)
    assert_answered(visit_and_click(page, 4), 4)
    page.reload()
    assert_answered(visit_and_click(page, 6), 6)
    assert page.errors == [] and page.console_errors == [], (page.errors, page.console_errors)
    assert context.outside.urls == [] and csp_violations(page) == []
    context.close()


def test_on_the_strict_host_without_a_service_worker_the_wasm_compiles_from_its_bytes(browser, strict):
    """With no service worker to relabel it, Python's wasm reaches the engine as the strict host
    labels it (document/unknown, nosniff): the first visit loads the runtime's renamed modules
    and compiles the wasm from its bytes, and the second, from its snapshot, runs the copy the
    page compiled; both answer a click."""
    strict.counter.reset()
    context, page = open_page(browser, strict.origin + "/", FOLDER + QUERY, snapshots=True, service_workers="block")
    assert_answered(visit_and_click(page, 4), 4)
    asked = [path.rsplit("/", 1)[1] for path in strict.counter.paths]
    assert {"engine.js", "pyodide.js", "pyodide.asm.js", "pyodide.asm.wasm"} <= set(asked)
    assert [name for name in asked if ".mjs" in name] == []
    page.wait_for_function("document.documentElement.dataset.snapshot", timeout=READY_TIMEOUT, polling=250)
    assert page.evaluate("document.documentElement.dataset.snapshot") == "tried"  # (made and restored once)
    page.reload()
    assert_answered(visit_and_click(page, 2), 2)
    assert page.evaluate("document.documentElement.dataset.start") == "snapshot"
    assert page.evaluate("window.attentionExplorer.engineFigures()")["compiledBy"] == "page"
    assert page.errors == [] and page.console_errors == [], (page.errors, page.console_errors)
    context.close()


LESSON = """<!doctype html><html lang="it"><head><meta charset="utf-8"><title>Lezione</title>
<link rel="icon" href="data:,"></head><body><h1>Lezione</h1>
<iframe src="{src}" title="Attention Explorer" width="900" height="900" style="border:0"></iframe></body></html>"""


def test_a_widget_embedded_by_another_site_answers_a_click(browser, host):
    """A course page on 127.0.0.1 frames the widget from the same host as localhost (another
    site: the browser partitions its storage): it starts, and a click gets numpy's weights."""
    widget = "http://localhost:" + host.origin.rsplit(":", 1)[1] + "/"
    (host.root / "lesson.html").write_text(LESSON.format(src=widget + FOLDER + QUERY + "&embed=1"), encoding="utf-8")
    context = new_context(browser, widget, host=host.origin + "/")
    page = context.new_page()
    log = []
    page.on("console", lambda m: log.append(m.text) if m.type == "error" else None)
    page.on("pageerror", lambda e: log.append(str(e)))
    page.goto(host.origin + "/lesson.html")
    frame = page.query_selector("iframe").content_frame()
    frame.wait_for_function(SETTLED, timeout=READY_TIMEOUT, polling=FRAME_POLL_MS)
    assert frame.evaluate("document.documentElement.dataset.state") == "ready", frame.evaluate(SHOWN)
    frame.locator('label.word[data-index="4"]').click()
    frame.wait_for_function(f"{STATE}.focus === 4 && !document.querySelector('#app[data-answering]')",
                            timeout=10_000, polling=FRAME_POLL_MS)
    assert_answered(frame.evaluate(STATE), 4)
    assert log == [] and context.outside.urls == [], (log, context.outside.urls)
    context.close()
