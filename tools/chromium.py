"""Find (or install) a Chromium for the end-to-end tests (CPython only).

    python3 -m tools.chromium     print the browser and Playwright versions the tests will use;
                                  install a browser when none is found

Order: $ATTENTION_CHROMIUM, then Debian's /usr/bin/chromium, then the browser Playwright
downloaded itself. When none is found: as root with apt-get, install Debian's `chromium`;
otherwise (a laptop, macOS, no root) run `playwright install chromium`, saying so first.

For trying the no-apt path on a machine that has Debian's browser:
ATTENTION_DEBIAN_CHROMIUM names another path to look for (e.g. /nonexistent) and
ATTENTION_NO_APT=1 acts as if apt-get were not possible.
"""

import os
import subprocess
import sys

from tools import apt

LAUNCH_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking",
               "--disable-component-update", "--disable-quic", "--no-first-run", "--disable-sync"]


def system_chromium():
    """Path of $ATTENTION_CHROMIUM or Debian's Chromium, or None."""
    env = os.environ.get("ATTENTION_CHROMIUM")
    if env:
        return env
    debian = os.environ.get("ATTENTION_DEBIAN_CHROMIUM", "/usr/bin/chromium")
    return debian if os.path.exists(debian) else None


def playwright_chromium():
    """Path of Playwright's own downloaded Chromium if it is there, or None."""
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        return None
    with sync_playwright() as p:
        path = p.chromium.executable_path
    return path if path and os.path.exists(path) else None


def launch_options():
    """Keyword arguments for `playwright.chromium.launch` (no path: Playwright's own browser)."""
    options = {"headless": True, "args": list(LAUNCH_ARGS)}
    path = system_chromium()
    if path:
        options["executable_path"] = path
    return options


def install():
    """Install a browser (apt-get as root on Debian, else Playwright's); True when it worked."""
    if apt.possible():
        print("chromium: none found; installing Debian's chromium with apt-get", flush=True)
        apt.install("chromium", ["chromium", "fonts-dejavu-core"])
        return system_chromium() is not None
    print("chromium: none found ($ATTENTION_CHROMIUM unset, no Debian chromium, apt-get not "
          "possible); downloading Playwright's own with `playwright install chromium` "
          "(about 150 MB, once)", flush=True)
    done = subprocess.run([sys.executable, "-m", "playwright", "install", "chromium"])
    return done.returncode == 0 and playwright_chromium() is not None


def versions():
    """'Chromium <version> (<path>), Playwright <version>' of the browser the tests launch."""
    from importlib.metadata import version

    from playwright.sync_api import sync_playwright
    options = launch_options()
    with sync_playwright() as p:
        browser = p.chromium.launch(**options)
        found = browser.version
        browser.close()
        path = options.get("executable_path") or p.chromium.executable_path
    return f"Chromium {found} ({path}), Playwright {version('playwright')}"


def main():
    if not (system_chromium() or playwright_chromium()) and not install():
        print("No Chromium for the tests. Either set ATTENTION_CHROMIUM to a Chromium or Chrome "
              "binary, install Debian's `chromium` package, or run "
              "`.venv/bin/python -m playwright install chromium` where its download host is reachable.")
        return 1
    print(f"browser: {versions()}", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
