"""Find (or install) WebKit for the smoke tests of a second engine (CPython only).

    python3 -m tools.webkit      print the WebKit the tests will use; install it when none is found

Schools' iPads run Safari, whose engine is WebKit. The smoke tests (tests/webkit/) drive
WebKitGTK's MiniBrowser through WebKitWebDriver over WebDriver (Selenium), under a virtual
display (Xvfb), all from Debian: packages webkit2gtk-driver (which brings MiniBrowser with
libwebkit2gtk-4.1-0) and xvfb. When they are missing: as root with apt-get, they are
installed; otherwise this says what to install and the WebKit tests are skipped, saying why.
$ATTENTION_WEBKIT_DRIVER and $ATTENTION_MINIBROWSER name other binaries.
"""

import glob
import os
import shutil
import subprocess
import sys

from tools import apt

PACKAGES = ["webkit2gtk-driver", "xvfb"]


def driver():
    """Path of WebKitWebDriver, or None."""
    return os.environ.get("ATTENTION_WEBKIT_DRIVER") or shutil.which("WebKitWebDriver")


def minibrowser():
    """Path of WebKitGTK's MiniBrowser, or None."""
    found = os.environ.get("ATTENTION_MINIBROWSER") or next(
        iter(sorted(glob.glob("/usr/lib/*/webkit2gtk-4.*/MiniBrowser"), reverse=True)), None)
    return found if found and os.path.exists(found) else None


def xvfb():
    return shutil.which("Xvfb")


def missing():
    """What the WebKit tests lack ([] when they can run)."""
    return [name for name, found in (("WebKitWebDriver", driver()), ("MiniBrowser", minibrowser()),
                                     ("Xvfb", xvfb() or os.environ.get("DISPLAY"))) if not found]


def install():
    """Install Debian's packages as root with apt-get; True when the tests can then run."""
    if not apt.possible():
        return False
    print(f"webkit: {', '.join(missing())} missing; installing {' '.join(PACKAGES)} with apt-get", flush=True)
    apt.install("webkit", PACKAGES)
    return not missing()


def version():
    """WebKitGTK's version, from its package (or 'unknown')."""
    done = subprocess.run(["dpkg-query", "-W", "-f=${Version}", "libwebkit2gtk-4.1-0"],
                          capture_output=True, text=True) if shutil.which("dpkg-query") else None
    return done.stdout.strip() if done and done.returncode == 0 and done.stdout.strip() else "unknown"


def main():
    if missing() and not install():
        print(f"webkit: {', '.join(missing())} not found, and apt-get is not possible here: the WebKit "
              f"smoke tests will be skipped (on Debian or Ubuntu: apt-get install {' '.join(PACKAGES)}).")
        return 0
    print(f"webkit: WebKitGTK {version()} ({minibrowser()}), driven by {driver()}", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
