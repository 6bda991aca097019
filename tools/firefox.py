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

import fcntl
import os
import shutil
import subprocess
import sys
import time

PACKAGES = ["firefox-esr"]
# apt's locks: another apt-get (or unattended upgrade) holding one makes ours fail at once.
LOCKS = ["/var/lib/dpkg/lock-frontend", "/var/lib/dpkg/lock", "/var/lib/apt/lists/lock",
         "/var/cache/apt/archives/lock"]
LOCK_WAIT_S = 1200


def binary():
    """Path of the Firefox binary, or None."""
    named = os.environ.get("ATTENTION_FIREFOX")
    if named:
        return named if os.path.exists(named) else shutil.which(named)
    return shutil.which("firefox-esr") or shutil.which("firefox")


def missing():
    """What the Firefox tests lack ([] when they can run)."""
    return [] if binary() else ["firefox-esr"]


def apt_busy():
    """True while another process holds one of apt's locks."""
    for path in LOCKS:
        try:
            fd = os.open(path, os.O_RDWR)
        except OSError:
            continue
        try:
            fcntl.lockf(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            fcntl.lockf(fd, fcntl.LOCK_UN)
        except OSError:
            return True
        finally:
            os.close(fd)
    return False


def wait_for_apt():
    end = time.monotonic() + LOCK_WAIT_S
    told = False
    while apt_busy() and time.monotonic() < end:
        if not told:
            print("firefox: another apt is running; waiting for it to finish", flush=True)
            told = True
        time.sleep(2)


def apt_get(*args, env):
    """apt-get, after any other apt has let go of its locks (and told to wait for dpkg's lock too,
    for one that takes it between our look and our start)."""
    wait_for_apt()
    return subprocess.run(["apt-get", "-o", f"DPkg::Lock::Timeout={LOCK_WAIT_S}", *args], env=env,
                          stdout=subprocess.DEVNULL).returncode == 0


def has_candidate(package):
    """True when apt's package lists know `package` (no `apt-get update` needed to install it)."""
    done = subprocess.run(["apt-cache", "policy", package], capture_output=True, text=True)
    return done.returncode == 0 and "Candidate:" in done.stdout and "Candidate: (none)" not in done.stdout


def install():
    """Install Debian's firefox-esr as root with apt-get; True when the tests can then run."""
    if not (hasattr(os, "geteuid") and os.geteuid() == 0 and shutil.which("apt-get")
            and os.environ.get("ATTENTION_NO_APT") != "1"):
        return False
    print(f"firefox: {', '.join(missing())} missing; installing {' '.join(PACKAGES)} with apt-get", flush=True)
    env = dict(os.environ, DEBIAN_FRONTEND="noninteractive")
    install_args = ["install", "-y", "-qq", "--no-install-recommends", *PACKAGES]
    if not all(has_candidate(p) for p in PACKAGES):
        apt_get("update", "-qq", env=env)
    if not apt_get(*install_args, env=env):
        # Lists older than the mirror name files it no longer has: refresh them, then once more.
        apt_get("update", "-qq", env=env)
        if not apt_get(*install_args, env=env):
            raise SystemExit(f"firefox: apt-get install {' '.join(PACKAGES)} failed")
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
