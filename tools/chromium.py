"""Find (or install) a Chromium for the end-to-end tests (CPython only).

    python3 -m tools.chromium     print the browser the tests will use; install Debian's
                                  `chromium` with apt-get when none is found and we are root

Order: $ATTENTION_CHROMIUM, then Debian's /usr/bin/chromium, then the browser Playwright
downloaded itself (`playwright install chromium`, for machines that can reach its host).
"""

import os
import shutil
import subprocess
import sys

CANDIDATES = ("/usr/bin/chromium", "/usr/bin/chromium-browser")
LAUNCH_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking",
               "--disable-component-update", "--disable-quic", "--no-first-run", "--disable-sync"]


def system_chromium():
    """Path of a Chromium installed on the system, or None."""
    env = os.environ.get("ATTENTION_CHROMIUM")
    if env:
        return env
    for path in CANDIDATES:
        if os.path.exists(path):
            return path
    return shutil.which("chromium")


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
    """Keyword arguments for `playwright.chromium.launch`."""
    options = {"headless": True, "args": list(LAUNCH_ARGS)}
    path = system_chromium()
    if path:
        options["executable_path"] = path
    return options


def main():
    path = system_chromium() or playwright_chromium()
    if path:
        print(f"chromium: {path}")
        return 0
    if hasattr(os, "geteuid") and os.geteuid() == 0 and shutil.which("apt-get"):
        print("chromium: not found; installing Debian's chromium with apt-get", flush=True)
        env = dict(os.environ, DEBIAN_FRONTEND="noninteractive")
        subprocess.run(["apt-get", "update", "-qq"], check=True, env=env)
        subprocess.run(["apt-get", "install", "-y", "-qq", "chromium", "fonts-dejavu-core"],
                       check=True, env=env, stdout=subprocess.DEVNULL)
        path = system_chromium()
        if path:
            print(f"chromium: {path}")
            return 0
    print("No Chromium found. Install Debian's `chromium` package, or run "
          "`.venv/bin/playwright install chromium`, or set ATTENTION_CHROMIUM to a Chromium binary.")
    return 1


if __name__ == "__main__":
    sys.exit(main())
