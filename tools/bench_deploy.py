"""Benchmark figures of the deployed bundle (part of `make bench`; CPython only).

  plain host     the bundle (tools/bundle.py) under a sub-path of Python's http.server,
                 which compresses nothing: bytes of a first visit counted by the server
                 (until the first click answered, and until the snapshot is stored), cold
                 TTI, warm TTI (second visit, from the snapshot); also without a service
                 worker, to show what the fallback costs
  warm start     the second visit (once the first has stored its snapshot and tried it: its
                 last work in the background) behind the project's server against a warm bare PyScript
                 + Pyodide page, in the same run; and the size of the snapshot kept in the
                 browser, beside the memory image it stands for
  widgets        a lesson page with one and with three widgets on the plain host: cold and
                 warm, until every widget is ready and has answered a click; and the
                 memory of all the browser's processes (PSS) with one and three widgets, and
                 with the bare PyScript + Pyodide page (the same browser flags)
"""

import os
import statistics
import time
from pathlib import Path

from tools.bundle import NAME, make_bundle
from tools.static_host import plain_server

READY = "document.documentElement.dataset.state === 'ready'"
# The Cache API name and entries written by static/snapshot.js: a snapshot made from a
# page's recipe (one made for several widgets before any was ready is made again from one
# of them, a few seconds after they are ready).
SNAPSHOT_STORED = """caches.open('attention-explorer-snapshot').then(c => c.keys().then(k => k.length && c.match(k[0])))
  .then(r => !!r && r.headers.get('X-From') === 'page')"""
# What the origin keeps: the stored snapshot's bytes, and the memory image it stands for.
KEPT = """caches.open('attention-explorer-snapshot').then(c => c.keys().then(k => k.length && c.match(k[0])))
  .then(async r => r ? [(await r.arrayBuffer()).byteLength, Number(r.headers.get('X-Length'))] : null)"""
ALL_READY = ("[...document.querySelectorAll('iframe')].every(f => f.contentDocument && "
             "f.contentDocument.documentElement.dataset.state === 'ready')")
LESSON = """<!doctype html><html lang="it"><head><meta charset="utf-8"><title>Lezione</title></head>
<body><h1>Lezione: dove guarda una parola</h1>{frames}</body></html>"""
FRAME = ('<iframe src="{name}/?embed=1&amp;focus={focus}" title="Attention Explorer {n}" '
         'width="900" height="700" style="border:0"></iframe>')


def median(values):
    return statistics.median(values) if values else float("nan")


def until(page, script, timeout):
    """Wait until `script` is truthy in the page; False if it never was within `timeout` s."""
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        if page.evaluate(script):
            return True
        page.wait_for_timeout(250)
    return False


def wait_snapshot(page, timeout=120.0):
    """Wait until the page's origin keeps a snapshot made from a page; False if it never came."""
    return until(page, SNAPSHOT_STORED, timeout)


# <html data-snapshot>: the page, or a widget it frames, has tried the snapshot it stored.
TRIED = ("document.documentElement.dataset.snapshot || [...document.querySelectorAll('iframe')].some(f => {"
         " try { return !!f.contentDocument.documentElement.dataset.snapshot; } catch (e) { return false; } })")


def wait_trial(page, timeout=60.0):
    """Wait until the page (or a widget it frames) has tried the snapshot it stored
    (static/snapshot.js), the last of a first visit's work in the background; False if it
    never said."""
    return until(page, TRIED, timeout)


def visit(page, url, clicks_script):
    """Navigate; (TTI ms: ready + first click answered, data-start)."""
    page.goto(url)
    page.wait_for_function(READY, timeout=180_000)
    ready = page.evaluate("window.__bench.ready")
    return ready + page.evaluate(clicks_script, 1)[0][0], page.evaluate("document.documentElement.dataset.start")


def deployment(browser, url, timing_script, clicks_script, counter=None, service_workers="allow"):
    """One cold then one warm visit in a fresh context: a dict of figures."""
    context = browser.new_context(service_workers=service_workers)
    context.add_init_script(timing_script)
    page = context.new_page()
    if counter:
        counter.reset()
    cold, cold_start = visit(page, url, clicks_script)
    page.wait_for_timeout(300)
    first = counter.bytes if counter else None
    stored = wait_snapshot(page) and wait_trial(page)
    kept = page.evaluate(KEPT) if stored else None
    everything = counter.bytes if counter else None
    worker = page.evaluate("!!(navigator.serviceWorker && navigator.serviceWorker.controller)")
    warm, warm_start = visit(page, url, clicks_script)
    context.close()
    return {"cold": cold, "warm": warm, "first": first, "all": everything, "stored": stored, "kept": kept,
            "starts": (cold_start, warm_start), "worker": worker}


def bare_warm(browser, url, timing_script):
    """Ready time of the bare PyScript + Pyodide page on its second visit."""
    context = browser.new_context()
    context.add_init_script(timing_script)
    page = context.new_page()
    for _ in range(2):
        page.goto(url)
        page.wait_for_function(READY, timeout=180_000)
    ready = page.evaluate("window.__bench.ready")
    context.close()
    return ready


def lesson(page, url, clicks_script):
    """ms from navigation until every widget of the lesson page has answered a click."""
    page.goto(url)
    page.wait_for_function(ALL_READY, timeout=180_000, polling=20)
    ready = page.evaluate("performance.now()")
    widgets = [f for f in page.frames if f != page.main_frame]
    return ready + max(f.evaluate(clicks_script, 1)[0][0] for f in widgets)


def browser_family():
    """The processes started by this process, its children's children included."""
    parents = {}
    for pid in filter(str.isdigit, os.listdir("/proc")):
        try:
            stat = Path(f"/proc/{pid}/stat").read_text()
            parents[int(pid)] = int(stat.rsplit(")", 1)[1].split()[1])
        except (OSError, IndexError, ValueError):
            pass
    family, grew = {os.getpid()}, True
    while grew:
        more = {pid for pid, parent in parents.items() if parent in family} - family
        family |= more
        grew = bool(more)
    return family - {os.getpid()}


def browser_memory(before=frozenset()):
    """Proportional set size (bytes) of every Chromium process started by this process, but
    those of `before` (browser_family() before a launch: the browsers open already, e.g. the
    bench's own)."""
    total = 0
    for pid in browser_family() - set(before):
        try:
            if "chrom" not in Path(f"/proc/{pid}/comm").read_text():
                continue
            for line in Path(f"/proc/{pid}/smaps_rollup").read_text().splitlines():
                if line.startswith("Pss:"):
                    total += int(line.split()[1]) * 1024
        except OSError:
            pass
    return total


def lesson_memory(playwright, options, url):
    """Browser memory with one lesson page open, warm (snapshot kept), after a pause."""
    before = browser_family()
    browser = playwright.chromium.launch(**options)
    context = browser.new_context()
    page = context.new_page()
    page.goto(url)
    page.wait_for_function(ALL_READY, timeout=180_000)
    wait_snapshot(page) and wait_trial(page)
    page.goto(url)
    page.wait_for_function(ALL_READY, timeout=180_000)
    page.wait_for_timeout(1500)
    used = browser_memory(before)
    browser.close()
    return used


def bare_memory(playwright, options, url):
    """Browser memory with the bare PyScript + Pyodide page open, warm, after the same pause."""
    before = browser_family()
    browser = playwright.chromium.launch(**options)
    page = browser.new_context().new_page()
    page.goto(url)
    page.wait_for_function("document.documentElement.dataset.state === 'ready'", timeout=180_000)
    page.goto(url)
    page.wait_for_function("document.documentElement.dataset.state === 'ready'", timeout=180_000)
    page.wait_for_timeout(1500)
    used = browser_memory(before)
    browser.close()
    return used


def figures(playwright, browser, options, page_url, hello_url, tmp, runs, timing_script, clicks_script):
    """All the deployment figures: a dict of lists (one value per run) and single values."""
    make_bundle(tmp / "host" / "course" / "week3")
    lessons = tmp / "host" / "course" / "week3"
    for count in (1, 3):
        frames = "\n".join(FRAME.format(name=NAME, focus=n + 1, n=n + 1) for n in range(count))
        (lessons / f"lesson-{count}.html").write_text(LESSON.format(frames=frames), encoding="utf-8")
    server, counter = plain_server(tmp / "host")
    host = f"http://127.0.0.1:{server.server_address[1]}/course/week3/"
    bundle_url = host + NAME + "/"
    out = {"plain": [], "ours": [], "bare_warm": [], "one": [], "three": [], "one_warm": [], "three_warm": []}
    deployment(browser, bundle_url, timing_script, clicks_script, counter)  # warm the host's disk cache
    for _ in range(runs):  # interleaved, so all see the same machine load
        out["plain"].append(deployment(browser, bundle_url, timing_script, clicks_script, counter))
        out["ours"].append(deployment(browser, page_url, timing_script, clicks_script))
        out["bare_warm"].append(bare_warm(browser, hello_url, timing_script))
        for count, key in ((1, "one"), (3, "three")):
            context = browser.new_context()
            page = context.new_page()
            out[key].append(lesson(page, host + f"lesson-{count}.html", clicks_script))
            wait_snapshot(page) and wait_trial(page)
            out[key + "_warm"].append(lesson(page, host + f"lesson-{count}.html", clicks_script))
            context.close()
    out["no_worker"] = deployment(browser, bundle_url, timing_script, clicks_script, counter, "block")
    out["memory"] = {count: lesson_memory(playwright, options, host + f"lesson-{count}.html") for count in (1, 3)}
    out["memory"]["bare"] = bare_memory(playwright, options, hello_url)
    server.shutdown()
    return out


def kept(runs):
    """The stored snapshot's size and its memory image's, as the last run found them."""
    sizes = [r["kept"] for r in runs if r["kept"]]
    return f"{sizes[-1][0] / 1e6:.1f} MB ({sizes[-1][1] / 1e6:.1f} MB)" if sizes else "none"


def rows(f):
    """Table rows (figure, value, budget, ok) for tools/bench.py."""
    plain, ours = f["plain"], f["ours"]
    first = median([r["first"] for r in plain])
    cold = median([r["cold"] for r in plain])
    warm_plain = median([r["warm"] for r in plain])
    warm = median([r["warm"] for r in ours])
    bare = median(f["bare_warm"])
    one, three = median(f["one"]), median(f["three"])
    one_warm, three_warm = median(f["one_warm"]), median(f["three_warm"])
    starts = sorted({"/".join(r["starts"]) for r in plain + ours})
    return [
        ("Plain static host (bundle, no compression):", "", "", None),
        ("  bytes, first visit (to first click)", f"{first / 1e6:.2f} MB", "≤ 5.35 MB", first <= 5.35e6),
        ("  bytes, first visit with snapshot made", f"{median([r['all'] for r in plain]) / 1e6:.2f} MB", "", None),
        ("  bytes, first visit, no service worker", f"{f['no_worker']['first'] / 1e6:.2f} MB", "", None),
        ("  TTI, cold", f"{cold:.0f} ms", "", None),
        ("  TTI, warm (snapshot)", f"{warm_plain:.0f} ms", "", None),
        ("  service worker in control", "yes" if all(r["worker"] for r in plain) else "NO", "", None),
        ("Warm TTI, project server (snapshot)", f"{warm:.0f} ms", "", None),
        ("  baseline: bare PyScript + Pyodide, warm", f"{bare:.0f} ms", "", None),
        ("  warm TTI ÷ warm baseline", f"{warm / bare:.2f}", "≤ 0.35", warm / bare <= 0.35),
        ("  starts seen (cold/warm)", ", ".join(starts), "", None),
        ("  snapshot kept in the browser (memory image)", kept(ours), "", None),
        ("Lesson page, 1 widget, cold", f"{one:.0f} ms", "", None),
        ("Lesson page, 3 widgets, cold", f"{three:.0f} ms", f"≤ {1.5 * one:.0f} ms", three <= 1.5 * one),
        ("  3 widgets ÷ 1 widget, cold", f"{three / one:.2f}", "≤ 1.50", three <= 1.5 * one),
        ("Lesson page, 1 widget, warm", f"{one_warm:.0f} ms", "", None),
        ("Lesson page, 3 widgets, warm", f"{three_warm:.0f} ms", f"≤ {1.5 * one_warm:.0f} ms",
         three_warm <= 1.5 * one_warm),
        ("  3 widgets ÷ 1 widget, warm", f"{three_warm / one_warm:.2f}", "≤ 1.50", three_warm <= 1.5 * one_warm),
        ("Browser memory (PSS), 1 widget", f"{f['memory'][1] / 1e6:.0f} MB", "", None),
        ("  baseline: bare PyScript + Pyodide page", f"{f['memory']['bare'] / 1e6:.0f} MB", "", None),
        ("  1 widget ÷ bare page", f"{f['memory'][1] / f['memory']['bare']:.2f}", "≤ 1.30",
         f["memory"][1] <= 1.3 * f["memory"]["bare"]),
        ("Browser memory (PSS), 3 widgets", f"{f['memory'][3] / 1e6:.0f} MB", "", None),
    ]
