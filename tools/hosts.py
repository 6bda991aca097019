"""Find (or install) the web servers the host tests serve the bundle with (CPython only).

    python3 -m tools.hosts      print the servers the tests will use; install them when missing

Teachers put the bundle on whatever serves files: a university's nginx or Apache as Debian
ships them, or a learning platform's file area. tests/e2e/start/test_hosts.py serves it with each,
in its default MIME handling: Debian's nginx (package nginx-light, its /etc/nginx/mime.types)
and Apache 2.4 (package apache2, its default modules and /etc/mime.types). Each test writes its
own configuration and starts the server in the foreground on a loopback port; nothing here
starts a system service. When they are missing: as root with apt-get, they are installed;
otherwise this says what to install and those tests are skipped, saying why (a failure under
CI=true). $ATTENTION_NGINX and $ATTENTION_APACHE name other binaries.
"""

import os
import shutil
import subprocess
import sys

from tools import apt

PACKAGES = {"nginx": "nginx-light", "apache": "apache2"}
# What the tests read of each installation besides the binary: nginx's MIME table, and Apache's
# modules with the default set Debian enables (mods-enabled: mime, dir, deflate, …).
NGINX_TYPES = "/etc/nginx/mime.types"
APACHE_ROOT = "/etc/apache2"
APACHE_MODULES = "/usr/lib/apache2/modules"


def nginx():
    """Path of nginx, or None."""
    found = os.environ.get("ATTENTION_NGINX") or shutil.which("nginx") or "/usr/sbin/nginx"
    return found if os.path.exists(found) and os.path.exists(NGINX_TYPES) else None


def apache():
    """Path of Apache's apache2, or None."""
    found = os.environ.get("ATTENTION_APACHE") or shutil.which("apache2") or "/usr/sbin/apache2"
    ready = os.path.isdir(os.path.join(APACHE_ROOT, "mods-enabled")) and os.path.isdir(APACHE_MODULES)
    return found if os.path.exists(found) and ready else None


def missing():
    """The servers the host tests lack, by name ("nginx", "apache"); [] when all can run."""
    return [name for name, found in (("nginx", nginx()), ("apache", apache())) if not found]


def install():
    """Install Debian's packages as root with apt-get; True when the tests can then run."""
    if not apt.possible():
        return False
    packages = [PACKAGES[name] for name in missing()]
    print(f"hosts: {', '.join(missing())} missing; installing {' '.join(packages)} with apt-get", flush=True)
    apt.install("hosts", packages)
    return not missing()


def skip_reason(name):
    """Why the tests of server `name` cannot run here, or None."""
    if name not in missing():
        return None
    return (f"{name} not found (on Debian or Ubuntu: apt-get install {PACKAGES[name]}; "
            f"`make test` installs it as root)")


def version(binary):
    done = subprocess.run([binary, "-v"], capture_output=True, text=True)
    text = (done.stdout + done.stderr).strip().splitlines()
    return text[0] if text else "unknown"


def main():
    if missing() and not install():
        print(f"hosts: {', '.join(missing())} not found, and apt-get is not possible here: those host tests "
              f"will be skipped (on Debian or Ubuntu: apt-get install {' '.join(PACKAGES[n] for n in missing())}).")
    for name, binary in (("nginx", nginx()), ("apache", apache())):
        if binary:
            print(f"hosts: {name}: {version(binary)} ({binary})", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
