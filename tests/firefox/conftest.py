"""Firefox fixtures: Debian's firefox-esr, headless, driven over Marionette (tools/firefox.py).

One browser for the session, in a profile of its own that keeps it off the network; each test
opens what it needs. Skipped, with the reason, where Firefox is not installed (`python3 -m
tools.firefox` says what to install); under CI=true that is a failure, as CI installs it.
"""

import http.server
import json
import os
import shutil
import socket
import subprocess
import tempfile
import threading
import time
import warnings
from pathlib import Path

import pytest

from tools import firefox as tool

READY_S = 90
START_S = 60

# Nothing the browser does on its own reaches the network: the machine that runs the tests may
# have none, and a test browser must not phone home. Each line turns off one thing Firefox would
# otherwise fetch or ping (Marionette's own recommended prefs cover part of it; these hold
# whatever its version does).
PREFS = {
    # updates of the browser, its add-ons and system add-ons, search engines, plugins (GMP)
    "app.update.auto": False,
    "app.update.disabledForTesting": True,
    "app.update.enabled": False,
    "app.update.checkInstallTime": False,
    "extensions.update.enabled": False,
    "extensions.update.autoUpdateDefault": False,
    "extensions.systemAddon.update.enabled": False,
    "extensions.systemAddon.update.url": "",
    "extensions.getAddons.cache.enabled": False,
    "extensions.blocklist.enabled": False,
    "browser.search.update": False,
    "browser.search.geoip.url": "",
    "media.gmp-manager.url": "",
    "media.gmp-manager.updateEnabled": False,
    "media.gmp-gmpopenh264.enabled": False,
    "media.gmp-widevinecdm.enabled": False,
    # telemetry, health report, studies, pings
    "toolkit.telemetry.enabled": False,
    "toolkit.telemetry.unified": False,
    "toolkit.telemetry.archive.enabled": False,
    "toolkit.telemetry.server": "",
    "toolkit.telemetry.shutdownPingSender.enabled": False,
    "toolkit.telemetry.newProfilePing.enabled": False,
    "toolkit.telemetry.firstShutdownPing.enabled": False,
    "toolkit.telemetry.bhrPing.enabled": False,
    "datareporting.healthreport.uploadEnabled": False,
    "datareporting.policy.dataSubmissionEnabled": False,
    "datareporting.policy.firstRunURL": "",
    "app.normandy.enabled": False,
    "app.normandy.api_url": "",
    "app.shield.optoutstudies.enabled": False,
    "browser.ping-centre.telemetry": False,
    "browser.discovery.enabled": False,
    "browser.crashReports.unsubmittedCheck.enabled": False,
    "breakpad.reportURL": "",
    # connectivity probes: captive portal, network link checks, DNS over HTTPS
    "network.captive-portal-service.enabled": False,
    "captivedetect.canonicalURL": "",
    "network.connectivity-service.enabled": False,
    "network.trr.mode": 5,
    "network.dns.disablePrefetch": True,
    "network.prefetch-next": False,
    "network.http.speculative-parallel-limit": 0,
    "dom.push.connection.enabled": False,
    "dom.push.serverURL": "",
    # remote settings (block lists, certificate filters, and every collection that syncs): a
    # release build keeps its own server unless MOZ_DISABLE_NONLOCAL_CONNECTIONS is set (below),
    # and skips every sync with this placeholder then
    "services.settings.server": "data:,#remote-settings-dummy/v1",
    "security.remote_settings.crlite_filters.enabled": False,
    "security.remote_settings.intermediates.enabled": False,
    "security.OCSP.enabled": 0,
    "browser.region.network.url": "",
    "browser.region.update.enabled": False,
    "geo.provider.network.url": "",
    # safe browsing's lists, and checks of downloads
    "browser.safebrowsing.malware.enabled": False,
    "browser.safebrowsing.phishing.enabled": False,
    "browser.safebrowsing.blockedURIs.enabled": False,
    "browser.safebrowsing.downloads.enabled": False,
    "browser.safebrowsing.downloads.remote.enabled": False,
    "browser.safebrowsing.provider.google.updateURL": "",
    "browser.safebrowsing.provider.google4.updateURL": "",
    "browser.safebrowsing.provider.mozilla.updateURL": "",
    "privacy.trackingprotection.enabled": False,
    # the pages' console errors and uncaught exceptions written to the log (the tests read them)
    "devtools.console.stdout.content": True,
    # the profile's scheduled backups (and their measurements)
    "browser.backup.scheduled.enabled": False,
    "browser.backup.archive.enabled": False,
    # first-run pages, the new tab page's feeds, accounts, translations' models
    "browser.shell.checkDefaultBrowser": False,
    "browser.startup.page": 0,
    "browser.startup.homepage": "about:blank",
    "browser.startup.homepage_override.mstone": "ignore",
    "startup.homepage_welcome_url": "about:blank",
    "startup.homepage_welcome_url.additional": "",
    "browser.aboutwelcome.enabled": False,
    "browser.newtabpage.enabled": False,
    "browser.newtabpage.activity-stream.feeds.telemetry": False,
    "browser.newtabpage.activity-stream.feeds.topsites": False,
    "browser.newtabpage.activity-stream.feeds.section.topstories": False,
    "browser.newtabpage.activity-stream.feeds.snippets": False,
    "browser.newtabpage.activity-stream.telemetry": False,
    "browser.topsites.contile.enabled": False,
    "browser.urlbar.quicksuggest.enabled": False,
    "identity.fxaccounts.enabled": False,
    "browser.translations.enable": False,
    "browser.ml.enable": False,
}


# Firefox's own switch for test runs: it refuses connections to any address not on this machine,
# and lets the remote settings server above be a placeholder.
ENV = {"MOZ_HEADLESS": "1", "MOZ_DISABLE_NONLOCAL_CONNECTIONS": "1", "MOZ_CRASHREPORTER_DISABLE": "1"}


HERE = Path(__file__).resolve().parent


def pytest_collection_modifyitems(items):
    # (every item of the session comes here: only this folder's are marked, whatever the
    # path of the clone holds)
    for item in items:
        if Path(str(item.fspath)).resolve().is_relative_to(HERE):
            item.add_marker(pytest.mark.browser)


class Outside:
    """Where Firefox sends whatever is not for this machine: a proxy on a loopback port that
    answers every request 502 and keeps its address. The browser sends it everything but
    localhost and 127.0.0.1 (which no proxy takes by default), so `urls` lists each attempt of
    the browser, or of a page, to reach another host: the tests expect none."""

    def __init__(self):
        self.urls = []
        outside = self

        class Refuse(http.server.BaseHTTPRequestHandler):
            def refuse(self):
                outside.urls.append(f"{self.command} {self.path}")
                self.send_error(502, "no network in the tests")

            do_GET = do_POST = do_HEAD = do_PUT = do_OPTIONS = do_CONNECT = do_DELETE = do_PATCH = refuse

            def log_message(self, *args):
                pass

        self.server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Refuse)
        self.server.daemon_threads = True
        threading.Thread(target=self.server.serve_forever, daemon=True).start()
        self.port = self.server.server_address[1]

    def prefs(self):
        return {"network.proxy.type": 1, "network.proxy.share_proxy_settings": True,
                "network.proxy.allow_hijacking_localhost": False, "network.proxy.no_proxies_on": "",
                **{f"network.proxy.{kind}": "127.0.0.1" for kind in ("http", "ssl")},
                **{f"network.proxy.{kind}_port": self.port for kind in ("http", "ssl")}}


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def user_js(prefs):
    return "".join(f"user_pref({json.dumps(name)}, {json.dumps(value)});\n" for name, value in prefs.items())


@pytest.fixture(scope="session")
def firefox_browser():
    """Firefox, headless, in a profile of its own, driven over Marionette (no geckodriver)."""
    reason = None
    if tool.missing():
        reason = f"Firefox not installed ({', '.join(tool.missing())}): run `python3 -m tools.firefox`"
    else:
        try:
            with warnings.catch_warnings():  # (its dependencies' imports warn of Python's future)
                warnings.simplefilter("ignore", DeprecationWarning)
                from marionette_driver.marionette import Marionette
        except ImportError:
            reason = "marionette-driver not installed: pip install -r requirements-test.txt"
    if reason:
        if os.environ.get("CI") == "true":
            pytest.fail(reason)  # CI installs both (make test): their absence there is a fault
        pytest.skip(reason)
    outside = Outside()
    profile = Path(tempfile.mkdtemp(prefix="attention-firefox-"))
    port = free_port()
    (profile / "user.js").write_text(user_js(PREFS | outside.prefs() | {"marionette.port": port}), encoding="utf-8")
    log = open(profile / "firefox.log", "wb")
    process = subprocess.Popen([tool.binary(), "--marionette", "--headless", "--no-remote",
                                "--profile", str(profile), "--window-size=1280,900", "about:blank"],
                               stdout=log, stderr=subprocess.STDOUT, env=dict(os.environ, **ENV))
    client = Marionette(host="127.0.0.1", port=port, startup_timeout=START_S)
    try:
        try:
            client.start_session()
        except Exception as error:
            said = (profile / "firefox.log").read_text(encoding="utf-8", errors="replace")[-2000:]
            raise AssertionError(f"Firefox ({tool.binary()}) did not answer over Marionette; its log:\n{said}") from error
        client.timeout.page_load = READY_S
        client.timeout.script = 30
        client.set_window_rect(width=1280, height=900)
        client.outside = outside
        client.log = profile / "firefox.log"
        yield client
    finally:
        try:
            client.delete_session()
        except Exception:
            pass
        process.terminate()
        try:
            process.wait(timeout=20)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait(timeout=10)
        log.close()
        outside.server.shutdown()
        shutil.rmtree(profile, ignore_errors=True)


# How the log shows a page's console.error and an uncaught exception (or rejection) of a page's
# script; the browser's own scripts (resource://, chrome://) write there too, and are not the page.
ERROR_LINES = ("console.error:", "JavaScript error: http://", "JavaScript error: https://",
               "JavaScript error: blob:")


@pytest.fixture
def firefox(firefox_browser):
    """The session's Firefox, for one test; after it, no page logged an error or threw, and
    nothing reached for another host."""
    firefox_browser.outside.urls.clear()
    start = firefox_browser.log.stat().st_size
    yield firefox_browser
    with open(firefox_browser.log, "rb") as log:
        log.seek(start)
        lines = log.read().decode("utf-8", "replace").splitlines()
    assert [line for line in lines if line.startswith(ERROR_LINES)] == []
    assert firefox_browser.outside.urls == []


def run(client, script):
    """The value of a JS expression in the current frame."""
    return client.execute_script(f"return {script}", sandbox=None)


def wait_for(client, script, seconds=READY_S):
    """Wait until `script` (a JS expression) is truthy in the current frame; its value."""
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        value = run(client, script)
        if value:
            return value
        time.sleep(0.05)
    raise AssertionError(f"still false after {seconds} s: {script}")
