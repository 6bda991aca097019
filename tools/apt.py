"""Debian packages the tests need, installed as root with apt-get (CPython only): the browsers
(tools/chromium.py, webkit.py, firefox.py) and the web servers (tools/hosts.py) call `install`.

Another apt (an unattended upgrade, a second install) holding one of apt's locks makes apt-get
fail at once: `install` waits for it to let go. The package lists are refreshed only when they
do not know a package, or when an install fails (lists older than the mirror name files it no
longer has), then the install is tried once more. ATTENTION_NO_APT=1 acts as if apt-get were not
possible.
"""

import fcntl
import os
import shutil
import subprocess
import time

# apt's locks: another apt-get (or unattended upgrade) holding one makes ours fail at once.
LOCKS = ["/var/lib/dpkg/lock-frontend", "/var/lib/dpkg/lock", "/var/lib/apt/lists/lock",
         "/var/cache/apt/archives/lock"]
LOCK_WAIT_S = 1200


def possible():
    """Whether this process may install packages with apt-get (root, Debian, not turned off)."""
    return (os.environ.get("ATTENTION_NO_APT") != "1" and hasattr(os, "geteuid")
            and os.geteuid() == 0 and shutil.which("apt-get") is not None)


def busy():
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


def wait(tag):
    end = time.monotonic() + LOCK_WAIT_S
    told = False
    while busy() and time.monotonic() < end:
        if not told:
            print(f"{tag}: another apt is running; waiting for it to finish", flush=True)
            told = True
        time.sleep(2)


def apt_get(tag, *args):
    """apt-get, after any other apt has let go of its locks (and told to wait for dpkg's lock too,
    for one that takes it between our look and our start); True when it worked."""
    wait(tag)
    env = dict(os.environ, DEBIAN_FRONTEND="noninteractive")
    return subprocess.run(["apt-get", "-o", f"DPkg::Lock::Timeout={LOCK_WAIT_S}", *args], env=env,
                          stdout=subprocess.DEVNULL).returncode == 0


def known(package):
    """True when apt's package lists know `package` (no `apt-get update` needed to install it)."""
    done = subprocess.run(["apt-cache", "policy", package], capture_output=True, text=True)
    return done.returncode == 0 and "Candidate:" in done.stdout and "Candidate: (none)" not in done.stdout


def install(tag, packages, recommends=True):
    """Install Debian's `packages` (`tag` names the caller in what it prints); stops the run with
    a message when apt-get fails twice."""
    args = ["install", "-y", "-qq", *([] if recommends else ["--no-install-recommends"]), *packages]
    if not all(known(p) for p in packages):
        apt_get(tag, "update", "-qq")
    if not apt_get(tag, *args):
        apt_get(tag, "update", "-qq")
        if not apt_get(tag, *args):
            raise SystemExit(f"{tag}: apt-get install {' '.join(packages)} failed")
