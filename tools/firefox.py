"""Find (or install) Firefox for the smoke tests of a third engine (CPython only).

    python3 -m tools.firefox      print the Firefox the tests will use; install it when none is found

Firefox is the third engine a student may use. The smoke tests (tests/firefox/) start Debian's
`firefox-esr` headless with its Marionette remote protocol on a loopback port, in a profile of
their own that keeps it off the network, and drive it with Mozilla's `marionette-driver`
(PyPI, pinned in requirements-test.txt): no geckodriver, no display. When Firefox is missing:
as root with apt-get, Debian's firefox-esr is installed (waiting for another apt to finish);
otherwise this says what to install and the Firefox tests are skipped, saying why.
$ATTENTION_FIREFOX names another binary.
"""

import os
import shutil
import subprocess
import sys

from tools import apt

PACKAGES = ["firefox-esr"]


def binary():
    """Path of the Firefox binary, or None."""
    named = os.environ.get("ATTENTION_FIREFOX")
    if named:
        return named if os.path.exists(named) else shutil.which(named)
    return shutil.which("firefox-esr") or shutil.which("firefox")


def missing():
    """What the Firefox tests lack ([] when they can run)."""
    return [] if binary() else ["firefox-esr"]


def install():
    """Install Debian's firefox-esr as root with apt-get; True when the tests can then run."""
    if not apt.possible():
        return False
    print(f"firefox: {', '.join(missing())} missing; installing {' '.join(PACKAGES)} with apt-get", flush=True)
    apt.install("firefox", PACKAGES, recommends=False)
    return not missing()


def version():
    """Firefox's version as it reports it (or 'unknown')."""
    try:
        done = subprocess.run([binary(), "--version"], capture_output=True, text=True, timeout=60,
                              env=dict(os.environ, MOZ_HEADLESS="1"))
    except (OSError, subprocess.SubprocessError):
        return "unknown"
    return done.stdout.strip() or "unknown"


def main():
    if missing() and not install():
        print(f"firefox: {', '.join(missing())} not found, and apt-get is not possible here: the Firefox "
              f"smoke tests will be skipped (on Debian: apt-get install {' '.join(PACKAGES)}; "
              f"elsewhere Firefox from your package manager, or $ATTENTION_FIREFOX naming its binary).")
        return 0
    print(f"firefox: {version()} ({binary()}), driven over Marionette", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
