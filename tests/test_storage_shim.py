"""static/storage.js, run in Node against the store PyScript bundles (@webreflection/idb-map):
where a browser has no IndexedDB, refuses to open one or throws, PyScript's start still gets a
working store; a BroadcastChannel that cannot be made reaches this page's channels of its name."""

import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


@pytest.mark.parametrize("case", ["missing", "refused", "throws", "channel"])
def test_pyscripts_store_works_on_the_stand_in(case):
    """Every call PyScript's store makes (set, get, has, keys in IndexedDB's order, size, delete, clear,
    a second store of the same name) answers as IndexedDB would; the channel stand-in skips closed ones."""
    done = subprocess.run(["node", str(ROOT / "tests" / "storage_shim.mjs"), case], cwd=ROOT,
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 0 and done.stdout.strip().endswith(f"ok {case}"), done.stdout + done.stderr
