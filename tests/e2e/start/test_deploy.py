"""Where teachers deploy it: a plain static host, and the second start from a snapshot."""

import json
import os
import time
from pathlib import Path
from urllib.parse import quote

import pytest

from tests.e2e.conftest import archive_edited, get_state, new_context, open_page, wait_ready, wait_state
from tools.bundle import make_bundle
from tools.static_host import plain_server

SNAPSHOTS = "caches.open('attention-explorer-snapshot').then(c => c.keys()).then(k => k.map(r => r.url))"
START = "document.documentElement.dataset.start"
QUERY = "?s=" + quote("Il cane rincorre la palla nel giardino") + "&focus=1"
# The Cache API refuses, as when storage is blocked (third-party iframe, some private modes).
STORAGE_DENIED = """
CacheStorage.prototype.open = () => Promise.reject(new DOMException('The operation is insecure.', 'SecurityError'));
"""


def snapshots(page):
    return page.evaluate(SNAPSHOTS)


def poll(page, script, timeout=120.0):
    """Wait until an (async) script's value is truthy; return it."""
    end = time.monotonic() + timeout
    while not (value := page.evaluate(script)):
        assert time.monotonic() < end, f"timed out waiting for {script}"
        page.wait_for_timeout(250)
    return value


def wait_snapshot(page):
    return poll(page, SNAPSHOTS)


def select(page, index):
    page.locator(f'label.word[data-index="{index}"]').click()
    return wait_state(page, f"s.focus === {index}")


def assert_clean(context, page):
    assert context.outside.urls == [], f"requests left the origin: {context.outside.urls}"
    assert page.errors == [] and page.console_errors == [], (page.errors, page.console_errors)


@pytest.fixture(scope="module")
def warm(browser, base_url):
    """One browser profile: a first visit (normal start) that leaves a snapshot behind."""
    context, page = open_page(browser, base_url, QUERY, snapshots=True)
    wait_ready(page)
    first = {"start": page.evaluate(START), "state": get_state(page), "clicked": select(page, 3)}
    first["snapshots"] = wait_snapshot(page)
    first["trial"] = poll(page, "document.documentElement.dataset.snapshot")
    yield context, page, first
    context.close()


# What the browser keeps: the stored bytes, and the memory image they stand for.
# What the browser keeps of a snapshot: its stored bytes, the memory image they stand for, the
# runs (X-Runs, "offset+length") they fill, and how many 64 kB blocks of the image a run holds
# that are all zero (counted from the image's start, as static/snapshot.js cuts it).
KEPT = """async (key) => {
  const hit = await (await caches.open('attention-explorer-snapshot')).match(key);
  const bytes = new Uint8Array(await hit.arrayBuffer()), block = 65536;
  const runs = hit.headers.get('X-Runs').split(' ').map((run) => run.split('+').map(Number));
  let at = 0, zeroBlocks = 0;
  for (const [offset, length] of runs) {
    for (let start = offset; start < offset + length; start += block) {
      const end = Math.min(start + block, offset + length);
      if (bytes.subarray(at + start - offset, at + end - offset).every((b) => b === 0)) zeroBlocks++;
    }
    at += length;
  }
  return {stored: bytes.byteLength, image: Number(hit.headers.get('X-Length')), zeroBlocks,
          inRuns: runs.reduce((sum, [, length]) => sum + length, 0),
          aligned: runs.every(([offset]) => offset % block === 0)};
}"""


def test_the_first_visit_tries_its_new_snapshot_once_in_a_worker(warm):
    """Once stored, the snapshot is restored once in a throwaway worker (static/snapshot-trial.js,
    so the next visit finds Pyodide's JavaScript compiled): the page says the trial ran."""
    context, page, first = warm
    assert first["trial"] == "tried"


def test_second_visit_starts_from_the_snapshot_and_shows_the_same_numbers(warm):
    """The first visit starts normally; the next one restores the snapshot, with the example's
    lexicon already made in it, and shows the same state."""
    context, page, first = warm
    assert first["start"] == "normal" and len(first["snapshots"]) == 1
    page.goto(page.url.split("?")[0] + QUERY)
    wait_ready(page)
    assert page.evaluate(START) == "snapshot"
    assert page.evaluate("window.attentionExplorer.engineFigures().then(f => f.python.lexicons_restored)") == ["it"]
    assert get_state(page) == first["state"]
    assert select(page, 3) == first["clicked"]
    assert "start" not in json.dumps(get_state(page))
    kept = page.evaluate(KEPT, first["snapshots"][0])
    # Kept without its zero stretches: every 64 kB block it stores holds data, and what it leaves
    # out (most of the free heap) is a third of the image at least.
    assert kept["inRuns"] == kept["stored"] and kept["aligned"] and kept["zeroBlocks"] == 0, kept
    assert kept["stored"] < kept["image"] * 2 / 3, f"the snapshot is kept without its zero stretches: {kept}"
    assert_clean(context, page)


COMPILED_BY = "window.attentionExplorer.engineFigures().then(f => f.compiledBy)"
# Python's wasm as the first visit kept it in the Cache API (static/page.js, keptWasm): whether
# it is a wasm module of more than 1 MB; "junk": garbage is put there first, "drop": it is deleted.
KEPT_WASM = """async (change) => {
  const cache = await caches.open('attention-explorer-runtime');
  const key = (await cache.keys()).find(r => r.url.endsWith('/pyodide.asm.wasm'));
  if (!key) return false;
  if (change === 'drop') return !await cache.delete(key);
  if (change === 'junk') await cache.put(key, new Response(new Uint8Array(4096).fill(7), {headers: {'Content-Type': 'application/wasm'}}));
  const bytes = new Uint8Array(await (await cache.match(key)).arrayBuffer());
  return bytes.length > 1e6 && String.fromCharCode(...bytes.slice(1, 4)) === 'asm';
}"""


def test_a_start_from_the_snapshot_runs_the_wasm_its_page_compiled_or_its_own(warm):
    """A warm start runs Python's wasm compiled by its page (a browser caches a page's compiled code,
    not a worker's), from the copy the first visit kept decoded in the Cache API: no request, no
    Brotli decoded again. A kept copy that does not compile is replaced, the page starting as
    well, and a lost one is kept again when the student pauses; a page that cannot compile it
    (here: no compileStreaming) still starts from the snapshot and shows the same numbers, the
    engine reading and compiling it as on a first visit."""
    context, page, first = warm
    asked = []

    def count(request):
        if request.url.endswith("/pyodide.asm.wasm"):
            asked.append(request.url)
    context.on("request", count)
    poll(page, "(%s)()" % KEPT_WASM)
    page.goto(page.url.split("?")[0] + QUERY)
    wait_ready(page)
    assert page.evaluate(START) == "snapshot" and page.evaluate(COMPILED_BY) == "page"
    assert get_state(page) == first["state"] and asked == []
    assert page.evaluate(KEPT_WASM, "junk") is False
    page.reload()
    wait_ready(page)
    assert page.evaluate(START) == "snapshot" and page.evaluate(COMPILED_BY) == "page"
    assert get_state(page) == first["state"] and len(asked) == 1, asked
    poll(page, "(%s)()" % KEPT_WASM)  # (the network's copy in its place)
    assert page.evaluate(KEPT_WASM, "drop") is False
    page.reload()
    wait_ready(page)
    assert page.evaluate(START) == "snapshot" and len(asked) == 2, asked
    poll(page, "(%s)()" % KEPT_WASM)  # (a lost copy: kept again when the student pauses, read once more)
    assert len(asked) == 3, asked
    unable = context.new_page()
    unable.add_init_script("delete WebAssembly.compileStreaming;")  # (the page's, not its worker's)
    unable.goto(page.url.split("?")[0] + QUERY)
    wait_ready(unable)
    assert unable.evaluate(START) == "snapshot" and unable.evaluate(COMPILED_BY) == "engine"
    assert get_state(unable) == first["state"] and len(asked) == 4, asked
    context.remove_listener("request", count)
    unable.close()


# Garbage under the snapshot's key, labelled as made by this runtime (so Pyodide itself gets
# to refuse it), and an entry of an older format beside it.
CORRUPT = """async ([key, stale]) => {
  const cache = await caches.open('attention-explorer-snapshot');
  const headers = Object.fromEntries((await cache.match(key)).headers);
  const junk = new Uint8Array(4096).fill(7);
  await cache.put(key, new Response(junk, {headers: {...headers, 'x-length': '4096', 'x-runs': '0+4096'}}));
  await cache.put(stale, new Response(junk, {headers: {'X-Length': '4096'}}));
}"""
# A snapshot made by another runtime build, under the key.
OTHER_RUNTIME = """async (key) => {
  const cache = await caches.open('attention-explorer-snapshot');
  const headers = Object.fromEntries((await cache.match(key)).headers);
  const body = await (await cache.match(key)).arrayBuffer();
  await cache.put(key, new Response(body, {headers: {...headers, 'x-runtime': 'pyodide-0.0.0-old'}}));
}"""


def test_corrupt_snapshot_gives_a_normal_start_and_is_replaced(warm):
    """Garbage under the snapshot's key: the page starts normally, right, and stores a good one."""
    context, page, first = warm
    key = first["snapshots"][0]
    stale = key.rsplit("/", 1)[0] + "/pyodide-0.0.0-old/0123"
    page.evaluate(CORRUPT, [key, stale])
    page.goto(page.url.split("?")[0] + QUERY)
    wait_ready(page)
    assert page.evaluate(START) == "normal"
    assert get_state(page) == first["state"]
    poll(page, """caches.open('attention-explorer-snapshot').then(c => c.match(%s))
      .then(r => r && r.arrayBuffer()).then(b => !!b && b.byteLength > 1e6)""" % json.dumps(key))
    assert snapshots(page) == [key], "the stale entry of another runtime is deleted"
    page.reload()
    wait_ready(page)
    assert page.evaluate(START) == "snapshot" and get_state(page) == first["state"]
    assert_clean(context, page)


def test_snapshot_of_another_runtime_gives_a_normal_start_and_is_replaced(warm):
    """A snapshot made by another runtime build is not restored: normal start, then a new one."""
    context, page, first = warm
    key = first["snapshots"][0]
    page.evaluate(OTHER_RUNTIME, key)
    page.reload()
    wait_ready(page)
    assert page.evaluate(START) == "normal" and get_state(page) == first["state"]
    poll(page, """caches.open('attention-explorer-snapshot').then(c => c.match(%s))
      .then(r => r && r.headers.get('X-Runtime') !== 'pyodide-0.0.0-old')""" % json.dumps(key))
    page.reload()
    wait_ready(page)
    assert page.evaluate(START) == "snapshot" and get_state(page) == first["state"]
    assert_clean(context, page)


def test_storage_denied_gives_a_normal_start(browser, base_url):
    """With the Cache API refused, every visit starts normally and works."""
    context, page = open_page(browser, base_url, QUERY, snapshots=True, service_workers="block")
    context.add_init_script(STORAGE_DENIED)
    page.reload()
    for _ in range(2):
        wait_ready(page)
        assert page.evaluate(START) == "normal"
        assert select(page, 2)["focus"] == 2
        page.reload()
    wait_ready(page)
    assert_clean(context, page)
    context.close()


@pytest.fixture(scope="module")
def plain_host(tmp_path_factory):
    """The bundle under /course/week3/ of Python's plain http.server (no compression)."""
    root = tmp_path_factory.mktemp("host")
    make_bundle(root / "course" / "week3")
    server, counter = plain_server(root)
    yield f"http://127.0.0.1:{server.server_address[1]}", counter
    server.shutdown()


@pytest.mark.parametrize("workers", ["allow", "block"])
def test_bundle_on_a_plain_host_under_a_sub_path(browser, plain_host, workers):
    """On a host that compresses nothing the runtime comes as .gz through the service worker,
    or, where one is not allowed, as plain files; the page works and snapshots either way."""
    origin, counter = plain_host
    counter.reset()
    context, page = open_page(browser, origin + "/", "course/week3/attention-explorer/" + QUERY, snapshots=True,
                              service_workers=workers)
    wait_ready(page)
    runtime = [p.rsplit("/", 1)[1] for p in counter.paths if "/vendor/pyodide-" in p]
    if workers == "allow":
        assert page.evaluate("!!navigator.serviceWorker.controller")
        assert "pyodide.asm.wasm.gz" in runtime and "pyodide.asm.wasm" not in runtime
    else:
        assert "pyodide.asm.wasm" in runtime and not any(name.endswith(".gz") for name in runtime)
    assert select(page, 4)["focus"] == 4
    wait_snapshot(page)
    page.reload()
    wait_ready(page)
    assert page.evaluate(START) == "snapshot" and select(page, 4)["focus"] == 4
    assert_clean(context, page)
    context.close()


def test_a_lab_once_opened_is_kept_by_the_service_worker_and_comes_offline(browser, plain_host):
    """On a plain host with the service worker, a lab's archive fetched when the cost path is opened
    is kept by it, and is its answer, the same bytes, once the network is gone."""
    origin, counter = plain_host
    base = origin + "/course/week3/attention-explorer/"
    context, page = open_page(browser, origin + "/", "course/week3/attention-explorer/" + QUERY + "&path=cost&step=1",
                              service_workers="allow")
    wait_ready(page)
    assert page.evaluate("!!navigator.serviceWorker.controller")
    assert any(p.endswith("/app/labs/cost.zip") for p in counter.paths)
    kept = page.evaluate("caches.open('attention-explorer-labs').then(c => c.keys()).then(k => k.map(r => r.url))")
    assert kept == [base + "app/labs/cost.zip"]
    context.set_offline(True)
    size = page.evaluate("fetch('app/labs/cost.zip').then(r => r.arrayBuffer()).then(b => b.byteLength)")
    context.set_offline(False)
    assert size > 0 and size == len(Path(__file__).resolve().parents[3].joinpath("app/labs/cost.zip").read_bytes())
    context.close()


def test_bundle_on_a_plain_host_answers_before_python_with_the_small_file(browser, plain_host):
    """Deployed where nothing is compressed, a word click before Python is answered from the page
    alone, and a switch's early answer comes as early.json.gz (a tenth of the bytes)."""
    origin, counter = plain_host
    counter.reset()
    context = new_context(browser, origin + "/")
    context.route("**/pyodide.asm.wasm", lambda route: None)  # Python never arrives
    page = context.new_page()
    page.goto(origin + "/course/week3/attention-explorer/")
    page.wait_for_function("window.attentionExplorer.early.answering()")
    page.locator("label.word").nth(2).click()
    page.wait_for_function("JSON.parse(document.getElementById('attention-state').textContent).focus === 2")
    assert not any("/static/early" in p for p in counter.paths)
    page.locator("#mask").click()
    page.wait_for_function("JSON.parse(document.getElementById('attention-state').textContent).mask === true")
    assert any(p.endswith("/static/early.json.gz") for p in counter.paths)
    assert not any(p.endswith("/static/early.json") for p in counter.paths)
    context.close()


SNAPSHOT_MADE = """caches.open('attention-explorer-snapshot').then(c => c.keys().then(k => k.length && c.match(k[0])))
  .then(r => r ? r.headers.get('X-Made') : null)"""


def card(state, word):
    return next(t["card"] for t in state["tokens"] if t["text"] == word)


def edit(path, old, new, member=None):
    """Edit a deployed file as a teacher would, later than the bundle was made (`member`: a
    module in the app's archive, as one uploaded again after changing it)."""
    if member:
        path.write_bytes(archive_edited(path.read_bytes(), member, old, new))
    else:
        text = path.read_text(encoding="utf-8")
        assert old in text
        path.write_text(text.replace(old, new, 1), encoding="utf-8")
    later = path.stat().st_mtime + 60
    os.utime(path, (later, later))


def test_a_lexicon_edited_after_the_snapshot_is_read_as_it_is_now(browser, base_url):
    """The snapshot holds the example's lexicon already made; a teacher then edits only the CSV
    (no module changes): the next visit still starts from the snapshot and shows the edited card."""
    context, page = open_page(browser, base_url, QUERY, snapshots=True)
    wait_ready(page)
    assert card(get_state(page), "cane") == [0.95, 0.05, 0.1, 0.0]
    poll(page, SNAPSHOT_MADE)
    poll(page, "document.documentElement.dataset.snapshot")  # (tried: the maker is done)
    csv = (Path(__file__).resolve().parents[3] / "lexicon" / "it.csv").read_text(encoding="utf-8")
    assert "\ncane,0.95,0.05,0.1,0\n" in csv
    context.route("**/lexicon/it.csv", lambda route: route.fulfill(
        body=csv.replace("\ncane,0.95,0.05,0.1,0\n", "\ncane,0.5,0.5,0,0\n"), content_type="text/plain; charset=utf-8"))
    page.reload()
    wait_ready(page)
    assert page.evaluate(START) == "snapshot"
    assert card(get_state(page), "cane") == [0.5, 0.5, 0.0, 0.0]
    assert_clean(context, page)
    context.close()


def test_files_edited_in_the_deployed_folder_are_what_the_next_visit_runs(browser, tmp_path):
    """After a visit left a snapshot (and the service worker the .gz copies), a teacher edits
    the CSV, the generated lexicon and a module of the app's archive in the deployed folder: the next visit
    still starts from the snapshot but shows the edited cards, and a new snapshot is made."""
    root = tmp_path / "host"
    folder, _ = make_bundle(root / "course" / "week3")
    server, _ = plain_server(root)
    try:
        origin = f"http://127.0.0.1:{server.server_address[1]}"
        query = "?s=" + quote("Il cane guarda la zorblat") + "&focus=1"
        context, page = open_page(browser, origin + "/", "course/week3/attention-explorer/" + query, snapshots=True)
        wait_ready(page)
        before = get_state(page)
        assert card(before, "cane") == [0.95, 0.05, 0.1, 0.0]
        assert not next(t for t in before["tokens"] if t["text"] == "zorblat")["known"]
        made = poll(page, SNAPSHOT_MADE)
        edit(folder / "lexicon" / "it.csv", "\ncane,0.95,0.05,0.1,0\n", "\ncane,0.5,0.5,0,0\n")
        edit(folder / "lexicon" / "gpl" / "it.txt", "= 0 0.2 0.8 0 abstract\n", "= 0 0.2 0.8 0 abstract\nzorblat\n")
        edit(folder / "app" / "app.zip", "Pronto: la pagina ricalcola a ogni tua scelta.", "Pronto, modificato: ricalcola ogni tua scelta.", member="i18n.pyc")
        page.reload()
        wait_ready(page)
        assert page.evaluate(START) == "snapshot"
        after = get_state(page)
        assert card(after, "cane") == [0.5, 0.5, 0.0, 0.0]
        assert card(after, "zorblat") == [0.0, 0.2, 0.8, 0.0]
        assert next(t for t in after["tokens"] if t["text"] == "zorblat")["known"]
        assert page.locator("#status").inner_text().strip() == "Pronto, modificato: ricalcola ogni tua scelta."
        poll(page, f"({SNAPSHOT_MADE}).then(m => m && m !== {json.dumps(made)})")
        page.reload()
        wait_ready(page)
        assert page.evaluate(START) == "snapshot" and get_state(page) == after
        assert_clean(context, page)
        context.close()
    finally:
        server.shutdown()


# A page of the deployment's origin that holds the snapshot's lock as a maker put aside in Safari's
# back/forward cache does: it answers the first "wanted" with "making", then never again.
HOLDER = """<!doctype html><title>holder</title><script>
const LOCK = "attention-explorer-snapshot " + new URL("./", location.href).href;
navigator.locks.request(LOCK, () => { window.holding = true; return new Promise(() => {}); });
const channel = new BroadcastChannel(LOCK);
channel.onmessage = (e) => { if (e.data === "wanted" && !window.wanted) { window.wanted = Date.now(); channel.postMessage("making"); } };
</script>"""


def test_a_maker_that_stops_answering_holds_a_new_widget_up_for_seconds_not_its_whole_wait(browser, base_url):
    """A widget that finds the snapshot being made by a page that said "making" once and then fell
    silent (suspended in the back/forward cache, its lock kept) starts normally once the maker has
    not answered for 5 s, not after the 45 s a working maker may take (static/snapshot.js)."""
    context = new_context(browser, base_url)
    context.route(base_url + "holder.html", lambda route: route.fulfill(content_type="text/html", body=HOLDER))
    holder = context.new_page()
    holder.goto(base_url + "holder.html")
    holder.wait_for_function("window.holding === true")
    page = context.new_page()
    page.goto(base_url)
    holder.wait_for_function("window.wanted > 0", timeout=60_000)
    wait_ready(page)
    waited_s = (holder.evaluate("Date.now()") - holder.evaluate("window.wanted")) / 1000
    assert waited_s < 40, f"ready {waited_s:.1f} s after asking the silent maker (a working maker: up to 45 s)"
    assert get_state(page)["sentence"] == "Il gatto seduto sul tappeto dormiva"
    context.close()
