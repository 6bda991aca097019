"""WebKit fixtures: WebKitGTK's MiniBrowser under a virtual display, over WebDriver (tools/webkit.py).

One browser for the session; each test opens what it needs. Skipped, with the reason, where
WebKit is not installed (`python3 -m tools.webkit` says what to install).
"""

import os
import subprocess
import time
from pathlib import Path

import pytest

from tools import webkit

READY_S = 90
HERE = Path(__file__).resolve().parent


def pytest_collection_modifyitems(items):
    """Marks this folder's tests `browser` (every test of the run passes through here: a clone's
    own path may hold "webkit", so the folder is compared as a path)."""
    for item in items:
        if Path(str(item.fspath)).resolve().is_relative_to(HERE):
            item.add_marker(pytest.mark.browser)


@pytest.fixture(scope="session")
def display():
    """A DISPLAY for MiniBrowser: the session's own Xvfb (or the one already set)."""
    if webkit.missing():
        reason = f"WebKit not installed ({', '.join(webkit.missing())}): run `python3 -m tools.webkit`"
        if os.environ.get("CI"):
            pytest.fail(reason)  # CI installs it (make test): its absence there is a fault
        pytest.skip(reason)
    if not webkit.xvfb():
        yield os.environ["DISPLAY"]
        return
    for number in range(90, 110):
        if not os.path.exists(f"/tmp/.X11-unix/X{number}") and not os.path.exists(f"/tmp/.X{number}-lock"):
            break
    server = subprocess.Popen([webkit.xvfb(), f":{number}", "-screen", "0", "1280x900x24", "-nolisten", "tcp"],
                              stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    for _ in range(50):
        if os.path.exists(f"/tmp/.X11-unix/X{number}"):
            break
        time.sleep(0.1)
    yield f":{number}"
    server.terminate()
    server.wait(timeout=10)


@pytest.fixture(scope="session")
def webkit_browser(display):
    """MiniBrowser driven by WebKitWebDriver (Selenium)."""
    from selenium import webdriver
    os.environ["DISPLAY"] = display
    options = webdriver.WebKitGTKOptions()
    options.binary_location = webkit.minibrowser()
    options.add_argument("--automation")
    driver = webdriver.WebKitGTK(options=options, service=webdriver.WebKitGTKService(executable_path=webkit.driver()))
    driver.set_window_size(1280, 900)
    yield driver
    driver.quit()


def wait_for(driver, script, seconds=READY_S):
    """Wait until `script` (a JS expression) is truthy in the current frame; its value."""
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        value = driver.execute_script(f"return {script}")
        if value:
            return value
        time.sleep(0.05)
    raise AssertionError(f"still false after {seconds} s: {script}; the page: {driver.execute_script(LOOK)}")


# What a page that is not ready shows (for a failure's message): its state, its status line, what it
# loaded and whether a service worker answers it.
LOOK = """return JSON.stringify({state: document.documentElement.dataset.state, url: location.href,
  status: (document.querySelector('.status-text') || {}).textContent,
  loaded: performance.getEntriesByType('resource').map(r => r.name.split('/').pop() + ':' + Math.round(r.duration)).slice(-12),
  controlled: !!(navigator.serviceWorker && navigator.serviceWorker.controller)})"""
