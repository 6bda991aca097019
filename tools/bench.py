"""Benchmark Attention Explorer in headless Chromium: python -m tools.bench [--runs 5]

Prints one table (figure, value, budget) and exits 0; it is a measurement, not a test.
Every figure comes from this one run, against the project's own server, so ratios hold
on a noisy machine. Page-load figures are medians over `--runs` cold browser contexts.

  first paint   navigation start -> first contentful paint (the pre-rendered example)
  TTI           navigation start -> Python ready and a first click answered
  baseline      a bare PyScript + Pyodide hello world (stock stdlib), served the same way
  first words   the frame after the pre-rendered sentence's first word is in the page, on
                index.html against the same HTML with its scripts taken out (medians, cold)
  click         input event -> the answer on the page (the engine answers from its worker)
                and -> the next frame painted with the new row views, at random points of
                the 60 Hz frame (as a student's clicks), with its floor (the same measure
                around a one-character change) and each side's own work on it: the page's
                thread (the event's context, the ops applied) and the engine's (the views off
                screen follow when the browser is idle: that work is given on its own line);
                and, for
                real mouse clicks, the browser's Event Timing figure (the INP measure)
                (measured once the page has made its snapshot for later visits: a first
                visit does that once, in a worker, at the student's first pause of 2 s or 30 s
                after ready, and a click during it waits for the machine's cores)
  setting       the mask switched at 200 words: until the answer, and until the next frame is
                painted with the new grid (the rows its box shows); also for 200 words of prose, where most
                words occur once (the repeated 12-word sentence lets a repeated word's dots be
                reused). SETTING_CHANGES of them, the first included and also given alone
                (the first change after the clicks is the slowest: with 10 changes, as
                before, the p95 was that one change)
  labs          each lab's own rows (its app/labs/<id>/bench.py, a group each): one of its settings
                changed on its page at 200 words, until the answer is on the page, its p95 over the
                mask's, switched meanwhile on a page of its own at 200 words, a few changes of each
                in turn (so both see the same load of a shared machine), ≤ 1.2; or alone against a
                budget of its own (the model writing 20 letters: ≤ 200 ms)
  lab opened    the first tab a lab declares, chosen on a warm embedded widget: until its view
  bytes         transferred on a first visit, and on a second visit (warm cache)
  memory        JS heap after 10 and after 1000 clicks (after a forced GC), and Python's
                wasm memory (it only grows) over the same clicks
  deployment    the bundle on a plain static host, the warm start, lesson pages with one and
                three widgets, browser memory: see tools/bench_deploy.py
  lexicon       its files' bytes, and load + index time in Pyodide (tools/bench_lexicon.py)
  phone         a click on the example with the CPU slowed 4× and the network at slow 4G, first
                paint against a plain page, and Lighthouse's mobile report: see tools/bench_phone.py
"""

import argparse
import json
import re
import shutil
import statistics
import sys
import tempfile
import threading
from pathlib import Path
from urllib.parse import quote_plus

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from playwright.sync_api import sync_playwright  # noqa: E402

from app import labs  # noqa: E402
from tools import bench_deploy, bench_lexicon, bench_phone  # noqa: E402
from tools.build import PYODIDE_FILES, runtime_dirs  # noqa: E402
from tools.chromium import launch_options  # noqa: E402
from tools.runtime_names import vendored_name  # noqa: E402
from tools.serve import make_server  # noqa: E402

READY = "document.documentElement.dataset.state === 'ready'"

# Recorded inside the page from its first instant: when data-state turns 'ready'.
TIMING_SCRIPT = """
window.__bench = {ready: null};
new MutationObserver(() => {
  if (document.documentElement.dataset.state === 'ready' && window.__bench.ready === null)
    window.__bench.ready = performance.now();
}).observe(document, {attributes: true, subtree: true, attributeFilter: ['data-state']});
"""

# The engine answers in its worker: a promise that resolves once the page shows a state JSON
# that passes `test`.
ANSWERED = """const answered = (test) => new Promise(ok => {
  const box = document.getElementById('attention-state');
  const check = () => { try { return test(JSON.parse(box.textContent)); } catch (e) { return false; } };
  if (check()) return ok();
  new MutationObserver((_, watch) => { if (check()) { watch.disconnect(); ok(); } })
    .observe(box, {childList: true, characterData: true, subtree: true}); });"""

# Select words by their native radio inputs and time each one from the input event to the
# answer on the page (the engine's work, the messages both ways and the page thread's changes)
# and to the first task after the next frame (rAF runs before paint; a task queued in rAF runs
# after it); "work": the page thread's and the engine's own time on it (static/page.js). A random pause before each click puts it at a random
# point of the 60 Hz frame, as a student's click would be (a click right after a frame would
# always wait a whole one).
CLICKS_SCRIPT = """async (count) => { %s
  const inputs = [...document.querySelectorAll('input[name="word"]')];
  const times = [], handler = [], work = [];
  for (let i = 0; i < count; i++) {
    await new Promise(ok => setTimeout(ok, Math.random() * 17));
    const radio = inputs[(i + 1) %% inputs.length];
    const t0 = performance.now();
    radio.click();
    await answered(s => s.focus === +radio.value);
    handler.push(performance.now() - t0);
    await new Promise(ok => requestAnimationFrame(() => setTimeout(ok, 0)));
    times.push(performance.now() - t0);
    const w = window.attentionExplorer.work;
    work.push([w.page, w.engine]);
  }
  return [times, handler, work];
}""" % ANSWERED

SETTING_CHANGES = 30

# A setting change (the causal mask switched), which recomputes the whole matrix: the
# handler's time, and the time until the next frame is painted with the new grid (a long
# grid draws the window of rows its box shows: app/views/heatmap.py).
SETTING_SCRIPT = """async (count) => { %s
  const box = document.getElementById('mask');
  const handler = [], frame = [];
  for (let i = 0; i < count; i++) {
    await new Promise(ok => setTimeout(ok, Math.random() * 17));
    const t0 = performance.now();
    box.click();
    await answered(s => s.mask === box.checked);
    handler.push(performance.now() - t0);
    await new Promise(ok => requestAnimationFrame(() => setTimeout(ok, 0)));
    frame.push(performance.now() - t0);
  }
  return [handler, frame];
}""" % ANSWERED

# The trained model (mode=model) at 40 tokens: the training slider moved from checkpoint to
# checkpoint round the kept ones (all read once before: no file is fetched), each move a forward
# pass of the whole model (the engine keeps only the last two) and its views drawn anew. The
# forward pass's own time (app/model.py, read through the engine's figures) has the budget: no
# more than the mask switched at 200 words until its answer is on the page, in the same run;
# the engine's whole move and the time until the answer is on the page are shown beside it.
MODEL_SCRIPT = """async (count) => { %s
  const slider = document.getElementById('checkpoint');
  const kept = +slider.max + 1, handler = [], engine = [], python = [];
  for (let i = 0; i < count; i++) {
    await new Promise(ok => setTimeout(ok, Math.random() * 17));
    const before = JSON.parse(document.getElementById('attention-state').textContent).model.checkpoint;
    slider.value = String((+slider.value + 1) %% kept);
    const t0 = performance.now();
    slider.dispatchEvent(new Event('input', {bubbles: true}));
    await answered(s => s.model && s.model.checkpoint !== before);
    handler.push(performance.now() - t0);
    engine.push(window.attentionExplorer.work.engine);
    python.push((await window.attentionExplorer.engineFigures()).python);
  }
  return [handler, engine, python];
}""" % ANSWERED
MODEL_LETTERS = "abcdefghijklm" * 3  # 39 letters and the start token: 40 tokens


def settled(browser, url):
    """(context, page) at `url` once ready and done with a first visit's work in the background (its
    snapshot made and tried, as the mask's page is before its changes): a second Python starting
    in a worker would otherwise share the two cores with the changes measured."""
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    page = context.new_page()
    page.goto(url)
    page.wait_for_function(READY, timeout=120_000)
    if not (bench_deploy.wait_snapshot(page) and bench_deploy.wait_trial(page)):
        raise SystemExit("bench: the page made and tried no snapshot in 180 s")
    return context, page


def with_mask(browser, url, script, block, mask_url, count=SETTING_CHANGES):
    """A lab's own setting changed by `script` on its page at `url`, and the mask switched on the
    200-word explorer at `mask_url` (its grid on screen, as the mask's row), both pages `settled`:
    `block` changes of one, then `block` of the other, until each has `count` (a block ends where
    `script`'s cycle of changes ends). Taken in turn, both see the same load of a shared machine,
    which moves within a run by more than the budget's 20 %. (the lab's times, the mask's), ms."""
    lab_context, lab = settled(browser, url)
    mask_context, mask = settled(browser, mask_url)
    mask.evaluate("document.getElementById('view-heatmap').scrollIntoView()")  # the grid on screen
    lab.evaluate(script, block)  # warm up
    mask.evaluate(SETTING_SCRIPT, 4)
    times, masks = [], []
    while len(times) < count:
        masks += mask.evaluate(SETTING_SCRIPT, block)[0]
        times += lab.evaluate(script, block)
    lab_context.close()
    mask_context.close()
    return times, masks


# Opening a lab on a warm page (docs/DESIGN.md, "Labs as packages"): an embedded widget ready in the
# explorer, no lab's archive fetched yet; the first tab a lab declares chosen (app/labs/, by its
# place), its lab fetched, unpacked and imported, until its view is on the page and the engine has
# answered. A fresh page each time (a lab comes once a page).
LAB_OPEN_SCRIPT = """async (tab) => {
  const t0 = performance.now();
  document.querySelector(`input[name="view"][value="${tab}"]`).click();
  await new Promise(ok => { const look = () => {
    const view = document.getElementById(`view-${tab}`);
    if (view && getComputedStyle(view).display !== 'none' && !document.querySelector('#app[data-answering]')) ok();
    else requestAnimationFrame(look); }; look(); });
  return performance.now() - t0;
}"""
LAB_OPENINGS = 10


def first_lab_tab():
    """(the view id, its lab's id) of the first tab a lab declares, by place."""
    view = min(labs.declared_tabs().items(), key=lambda item: item[1]["place"])[0]
    return view, next(lab.id for lab in labs.labs() if view in lab.tabs)


def lab_open(browser, url, count=LAB_OPENINGS):
    """A lab opened by its tab (`first_lab_tab`) on a warm page, `count` fresh pages: until its view, ms."""
    tab, times = first_lab_tab()[0], []
    for _ in range(count):
        context = browser.new_context(viewport={"width": 1280, "height": 900})
        page = context.new_page()
        page.goto(url)
        page.wait_for_function(READY, timeout=120_000)
        page.wait_for_timeout(500)  # (the page's own work after ready, out of the way)
        times.append(page.evaluate(LAB_OPEN_SCRIPT, tab))
        context.close()
    return times


def model_change(browser, url, count=SETTING_CHANGES):
    """The training slider moved at 40 tokens: (until the answer, the engine's own time, the forward
    pass), ms, and the engine's figures after each move."""
    context, page = settled(browser, url)
    page.evaluate(MODEL_SCRIPT, page.evaluate("+document.getElementById('checkpoint').max + 1"))  # every file read
    handler, engine, python = page.evaluate(MODEL_SCRIPT, count)
    forward = [figures["forward_ms"] for figures in python]
    tokens = page.evaluate("JSON.parse(document.getElementById('attention-state').textContent).model.tokens.length")
    context.close()
    if tokens != 40:
        raise SystemExit(f"bench: the model page shows {tokens} tokens, not 40")
    return {"handler": handler, "engine": engine, "forward": forward, "python": python}


# 200 pieces (words and punctuation) of everyday Italian prose: most words occur once, as
# in a text a teacher pastes (the 12-word sentence repeated is the other 200-word case).
PROSE_200 = (
    "Ogni mattina la maestra apre la finestra della classe e saluta i bambini che arrivano di "
    "corsa dal cortile. Marco porta sempre un libro nuovo, mentre sua sorella preferisce "
    "disegnare gatti e cavalli sul quaderno. Oggi piove forte, quindi la lezione di ginnastica "
    "si svolge in palestra e non nel prato vicino alla scuola. Il professore di scienze spiega "
    "come le piante crescono verso la luce e perché le foglie cambiano colore in autunno. Dopo "
    "pranzo gli alunni leggono una storia sul mare: un pescatore vecchio esce con la barca "
    "prima dell'alba, lancia la rete e aspetta in silenzio. Quando il vento cambia, le onde "
    "diventano alte e il cielo si copre di nuvole scure. Il pescatore torna al porto senza "
    "pesci, ma racconta ai nipoti di aver visto un delfino saltare accanto alla barca. I "
    "bambini ridono, fanno domande e scrivono un breve tema su quello che hanno ascoltato. "
    "Alla fine della giornata la maestra raccoglie i quaderni, spegne la luce e chiude la "
    "porta. Fuori il sole è tornato, la strada è bagnata e i genitori aspettano "
    "tutti.")

# The floor of that measurement: the same loop around a one-character DOM change.
FLOOR_SCRIPT = """async (count) => {
  const el = document.getElementById('share-status');
  const times = [];
  for (let i = 0; i < count; i++) {
    await new Promise(ok => setTimeout(ok, Math.random() * 17));
    const t0 = performance.now();
    el.textContent = String(i % 10);
    await new Promise(ok => requestAnimationFrame(() => setTimeout(ok, 0)));
    times.push(performance.now() - t0);
  }
  return times;
}"""

# The browser's own "input to next paint" (Event Timing API, as used for INP), for real
# mouse clicks: one figure per interaction (its longest event). Only interactions of 16 ms
# or more are reported, so faster ones count as "< 16".
# A word click (and a long text's setting change) leaves the row views off screen for when
# the browser is idle (app/page.py, `_watch_parts`): each idle callback's time, to report
# that work too.
IDLE_TIMING_INIT = """
window.__idle = [];
if (window.requestIdleCallback) {
  const idle = window.requestIdleCallback.bind(window);
  window.requestIdleCallback = (work, options) => idle((deadline) => {
    const t0 = performance.now();
    try { work(deadline); } finally { window.__idle.push(performance.now() - t0); }
  }, options);
}
"""

EVENT_TIMING_INIT = """
window.__slow = {};
new PerformanceObserver(list => {
  for (const e of list.getEntries())
    if (e.interactionId) window.__slow[e.interactionId] = Math.max(window.__slow[e.interactionId] || 0, e.duration);
}).observe({type: 'event', durationThreshold: 16, buffered: true});
"""

HELLO_HTML = """<!doctype html><html data-state="loading"><head><meta charset="utf-8">
<title>hello</title><script type="module" src="/vendor/{pyscript}/core.js"></script></head>
<body><p>hello</p><script type="py" config="/bench-hello.toml">
from pyscript import document
document.documentElement.dataset.state = "ready"
</script></body></html>"""


# What the page and its engine's worker fetched (a worker's fetches are in its own list).
TRANSFERRED = """(async () => {
  const nav = performance.getEntriesByType('navigation')[0];
  const res = performance.getEntriesByType('resource');
  const figures = window.attentionExplorer && window.attentionExplorer.engineFigures;
  const engine = figures ? (await figures()).transferred : 0;
  return nav.transferSize + res.reduce((s, r) => s + r.transferSize, 0) + engine;
})()"""


BASELINE_INTERPRETER = "/vendor/pyodide-stock/" + vendored_name("pyodide.mjs")


def baseline_runtime(tmp):
    """A copy of the stock runtime (full python_stdlib.zip, as npm ships it) for the baseline,
    its modules under the vendored `.js` names (tools/runtime_names.py: the same bytes but
    for the names), loaded from BASELINE_INTERPRETER."""
    pyodide_dir, pyscript_dir = runtime_dirs()
    base = tmp / "vendor" / "pyodide-stock"
    base.mkdir(parents=True)
    for name in map(vendored_name, PYODIDE_FILES):
        for suffix in ("", ".br", ".gz"):
            src = ROOT / "vendor" / pyodide_dir / (name + suffix)
            if src.exists():
                shutil.copy2(src, base / (name + suffix))
    shutil.copy2(ROOT / "node_modules" / "pyodide" / "python_stdlib.zip", base / "python_stdlib.zip")
    shutil.copytree(ROOT / "vendor" / pyscript_dir, tmp / "vendor" / pyscript_dir)
    return pyscript_dir


def median(values):
    return statistics.median(values) if values else float("nan")


SETTING_BUDGET = 100  # ms, a setting's change at 200 words (p95): the mask's, and the block model's pass


def setting_rows(result, label, indent):
    """The rows of one page's setting changes: p50 / p95 against the budget, the first
    change alone, and the time until the next frame is painted with the new grid."""
    return [(indent + label, pair(result["setting"]), f"p95 ≤ {SETTING_BUDGET} ms",
             percentile(result["setting"], 95) <= SETTING_BUDGET),
            (indent + "  the first change after the clicks", f"{result['setting'][0]:.1f} ms", "", None),
            later_row(indent + "  then, idle: the bars and the table off screen drawn", result["setting_later"],
                      f"{len(result['setting'])} changes"),
            (indent + "  until the next frame, grid drawn", pair(result["setting_complete"]), "", None)]


def later_row(label, later, of):
    """The row views off screen, drawn when the browser is idle after a click's or a setting
    change's frame: p50 / p95 of that work, and after how many of them it ran (one that
    comes before the browser is idle leaves it for later still, done once for both)."""
    return (label, f"{pair(later or [float('nan')])} ({len(later)} of {of})", "", None)


def percentile(values, p):
    values = sorted(values)
    k = max(0, min(len(values) - 1, round(p / 100 * (len(values) - 1))))
    return values[k]


# The sentence's words on screen: the first frame after a word of the pre-rendered sentence is in
# the page (the inline scripts before the sentence once delayed the words themselves, not the
# first paint), on index.html and on the same HTML with every script taken out, served alike.
WORDS_INIT = """
window.__words = null;
(function poll() {
  if (document.querySelector('label.word')) {
    requestAnimationFrame(() => { window.__words = performance.now(); });
    return;
  }
  requestAnimationFrame(poll);
})();
"""
NO_SCRIPTS = re.compile(r"<script\b[^>]*>.*?</script>", re.S)
WORDS_RUNS = 7  # at least: a ratio of two medians of a few ms each


def first_words(browser, url):
    """ms from navigation until the frame after the sentence's first word is in the page (cold)."""
    context = browser.new_context()
    context.add_init_script(WORDS_INIT)
    page = context.new_page()
    page.goto(url)
    page.wait_for_function("window.__words !== null", timeout=60_000)
    words = page.evaluate("window.__words")
    context.close()
    return words


def cold_load(browser, url, click=True):
    """(first paint ms, ready ms, TTI ms, bytes first visit, bytes second visit) in a cold context."""
    context = browser.new_context()
    context.add_init_script(TIMING_SCRIPT)
    page = context.new_page()
    page.goto(url)
    page.wait_for_function(READY, timeout=120_000)
    fcp = page.evaluate("performance.getEntriesByName('first-contentful-paint')[0]?.startTime ?? NaN")
    ready = page.evaluate("window.__bench.ready")
    tti = ready
    if click:
        tti = ready + page.evaluate(CLICKS_SCRIPT, 1)[0][0]
    page.wait_for_timeout(300)  # let late requests finish before counting bytes
    first = page.evaluate(TRANSFERRED)
    page.goto(url)
    page.wait_for_function(READY, timeout=120_000)
    page.wait_for_timeout(300)
    second = page.evaluate(TRANSFERRED)
    context.close()
    return fcp, ready, tti, first, second


def with_idle_work(page, script, count):
    """`script`'s result, and the times of the idle callbacks it left (IDLE_TIMING_INIT)."""
    page.evaluate("window.__idle = []")
    result = page.evaluate(script, count)
    page.wait_for_timeout(300)  # the last one's idle work
    return result, page.evaluate("window.__idle")


def clicks(browser, url, count):
    """Word selections measured three ways, each with its floor (see the module docstring)."""
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    context.add_init_script(EVENT_TIMING_INIT)
    context.add_init_script(IDLE_TIMING_INIT)
    page = context.new_page()
    page.goto(url)
    page.wait_for_function(READY, timeout=120_000)
    if not (bench_deploy.wait_snapshot(page) and bench_deploy.wait_trial(page)):
        raise SystemExit("bench: the page made and tried no snapshot in 180 s")
    page.evaluate("document.getElementById('view-heatmap').scrollIntoView()")  # the grid on screen
    page.evaluate(CLICKS_SCRIPT, 20)  # warm up
    (frame, handler, work), later = with_idle_work(page, CLICKS_SCRIPT, count)
    (setting, setting_complete), setting_later = with_idle_work(page, SETTING_SCRIPT, SETTING_CHANGES)
    shown = page.evaluate("JSON.parse(document.getElementById('attention-state').textContent).tokens.length")
    state_bytes = page.evaluate("new Blob([document.getElementById('attention-state').textContent]).size")
    frame_floor = page.evaluate(FLOOR_SCRIPT, count)

    def trusted(target, n):
        page.evaluate("window.__slow = {}")
        for i in range(n):
            target(i).click()
            page.wait_for_timeout(5)
        page.wait_for_timeout(300)
        return list(page.evaluate("window.__slow").values())

    words = page.locator("label.word")
    n_words = words.count()
    n_events = min(count, 100)
    events = trusted(lambda i: words.nth((i + 1) % n_words), n_events)
    events_floor = trusted(lambda i: page.locator(".legend"), n_events)  # a click that changes nothing
    context.close()
    return {"frame": frame, "frame_floor": frame_floor, "handler": handler, "later": later,
            "page_work": [w[0] for w in work], "engine_work": [w[1] for w in work], "setting": setting, "setting_later": setting_later,
            "setting_complete": setting_complete, "state_bytes": state_bytes, "tokens": shown,
            "events": events, "events_floor": events_floor, "n_events": n_events}


def click_percentile(slow, count, p):
    """The p-th percentile of all click durations, knowing only those ≥ 16 ms."""
    rank = round(p / 100 * (count - 1))  # 0-based rank in the sorted list of all clicks
    fast = count - len(slow)
    return None if rank < fast else sorted(slow)[rank - fast]


def show_ms(value):
    return "< 16" if value is None else f"{value:.0f}"


def pair(values):
    return f"{percentile(values, 50):.1f} / {percentile(values, 95):.1f} ms"


def event_pair(slow, count):
    return f"{show_ms(click_percentile(slow, count, 50))} / {show_ms(click_percentile(slow, count, 95))} ms"


def heap(page):
    page.evaluate("window.gc && window.gc()")
    return page.evaluate("performance.memory.usedJSHeapSize")


def memory(browser, url):
    context = browser.new_context()
    page = context.new_page()
    page.goto(url)
    page.wait_for_function(READY, timeout=120_000)
    page.evaluate(CLICKS_SCRIPT, 10)
    after_10, wasm_10 = heap(page), page.evaluate("window.attentionExplorer.engineFigures().then(f => f.memory)")
    page.evaluate(CLICKS_SCRIPT, 990)
    after_1000, wasm_1000 = heap(page), page.evaluate("window.attentionExplorer.engineFigures().then(f => f.memory)")
    context.close()
    return after_10, after_1000, wasm_1000 - wasm_10


# The labs' own rows (each lab's bench.py: app/labs/__init__.py, `Bench`), by their groups.
LAB_BENCHES = {bench.group: bench for bench in labs.benches()}
# The groups of figures `--only` names (each runs its own pages; the rows of the groups not run are
# left out): the core's, then the labs'. The trained model's pass is budgeted against the mask's
# change, so naming it runs "mask" too (a lab's setting change brings a mask of its own: `with_mask`).
CORE_GROUPS = ("start", "words", "clicks12", "mask", "prose", "model", "block", "labopen", "memory", "lexicon", "phone",
               "deploy")
GROUPS = CORE_GROUPS[:7] + tuple(LAB_BENCHES) + CORE_GROUPS[7:]
NEEDS = {"model": ("mask",), "block": ("mask",)}
LAB_RATIO = 1.2  # a lab's own setting change at 200 words: p95 ≤ 1.2 × the mask's p95 beside it


def groups(only):
    """The groups `--only` asks for ("a,b"; None: all), with the ones they need, in GROUPS' order."""
    if only is None:
        return set(GROUPS)
    asked = {name.strip() for name in only.split(",") if name.strip()}
    unknown = asked - set(GROUPS)
    if unknown:
        raise SystemExit(f"bench: no group called {', '.join(sorted(unknown))}; the groups: {', '.join(GROUPS)}")
    return asked.union(*(NEEDS.get(name, ()) for name in asked))


def lab_figures(browser, bench, page_url, url200, count=SETTING_CHANGES):
    """A lab's `Bench` run: (each change's figures: [until the answer, its parts…], the mask's times
    beside them, or None when it runs alone), ms."""
    script = "async (count) => { %s\n%s\n}" % (ANSWERED, bench.script)
    url = url200 + bench.query if bench.words200 else page_url + bench.query
    if bench.budget_ms is None:
        times, mask = with_mask(browser, url, script, bench.block, url200, count)
    else:
        context, page = settled(browser, url)
        times, mask = page.evaluate(script, count), None
        context.close()
    return [t if isinstance(t, list) else [t] for t in times], mask


def lab_rows(bench, figures):
    """A lab's `Bench` rows: p50 / p95 until the answer, against the mask's beside it (the ratio of
    their p95s ≤ LAB_RATIO) or its own budget, then its parts'."""
    changes, mask = figures
    columns = {words: [c[i + 1] for c in changes] for i, (words, _) in enumerate(bench.parts)}
    times = [c[0] for c in changes]
    if mask is None:
        rows = [(bench.label, pair(times), f"p95 ≤ {bench.budget_ms:.0f} ms", percentile(times, 95) <= bench.budget_ms)]
    else:
        ratio = percentile(times, 95) / percentile(mask, 95)
        rows = [(bench.label, pair(times), "", None),
                ("  the mask switched in turn with it, 200 words", pair(mask), "", None),
                ("  p95 ÷ the mask's p95", f"{ratio:.2f}", f"≤ {LAB_RATIO:.2f}", ratio <= LAB_RATIO)]
    for words, budget in bench.parts:
        p95 = percentile(columns[words], 95)
        if budget is None:
            rows.append((words, pair(columns[words]), "", None))
        elif isinstance(budget, str):
            rows.append((words, pair(columns[words]), "p95 < " + budget.strip().split(" of ")[0],
                         p95 < percentile(columns[budget], 95)))
        else:
            rows.append((words, pair(columns[words]), f"p95 ≤ {budget:.0f} ms", p95 <= budget))
    return rows


def main(argv=None):
    parser = argparse.ArgumentParser(description="Benchmark Attention Explorer.")
    parser.add_argument("--runs", type=int, default=5, help="cold loads per page (median)")
    parser.add_argument("--clicks", type=int, default=200)
    parser.add_argument("--only", default=None,
                        help=f"run only these groups, comma-separated: {', '.join(GROUPS)} (model runs mask too: "
                             "its budget is a ratio to it)")
    args = parser.parse_args(argv)
    run = groups(args.only)

    tmp = Path(tempfile.mkdtemp(prefix="attention-bench-"))
    pyscript_dir = baseline_runtime(tmp)
    (tmp / "bench-hello.html").write_text(HELLO_HTML.format(pyscript=pyscript_dir))
    (tmp / "bench-hello.toml").write_text(f'interpreter = "{BASELINE_INTERPRETER}"\n')
    (tmp / "bench-plain.html").write_text(bench_phone.PLAIN_HTML)
    (tmp / "bench-words.html").write_text(NO_SCRIPTS.sub("", (ROOT / "index.html").read_text(encoding="utf-8")),
                                          encoding="utf-8")
    page_server = make_server(port=0, quiet=True)
    hello_server = make_server(port=0, root=tmp, quiet=True, extra_public=("bench-hello.", "bench-plain.",
                                                                                "bench-words."))
    for server in (page_server, hello_server):
        threading.Thread(target=server.serve_forever, daemon=True).start()
    page_url = f"http://127.0.0.1:{page_server.server_address[1]}/"
    hello_url = f"http://127.0.0.1:{hello_server.server_address[1]}/bench-hello.html"
    plain_url = f"http://127.0.0.1:{hello_server.server_address[1]}/bench-plain.html"
    words_url = f"http://127.0.0.1:{hello_server.server_address[1]}/bench-words.html"

    options = launch_options()
    options["args"] += ["--enable-precise-memory-info", "--js-flags=--expose-gc"]
    words12 = "Il gatto seduto sul tappeto dormiva e il cane guardava la luna"
    words200 = (words12.split() * 17)[:200]
    url12 = page_url + "?s=" + "+".join(words12.split()) + "&focus=1"
    url200 = page_url + "?limit=200&s=" + "+".join(words200) + "&focus=1"
    url_prose = page_url + "?limit=200&s=" + quote_plus(PROSE_200) + "&focus=1"

    got = {}
    with sync_playwright() as p:
        browser = p.chromium.launch(**options)
        if "start" in run:
            cold_load(browser, page_url)  # warm the server's caches, not the browser's
            cold_load(browser, hello_url, click=False)
            ours, base = [], []
            for _ in range(args.runs):  # interleaved, so both see the same machine load
                ours.append(cold_load(browser, page_url))
                base.append(cold_load(browser, hello_url, click=False))
            got["start"] = ours, base
        if "words" in run:
            words, bare_words = [], []
            for _ in range(max(args.runs, WORDS_RUNS)):
                words.append(first_words(browser, page_url))
                bare_words.append(first_words(browser, words_url))
            got["words"] = words, bare_words
        if "clicks12" in run:
            got["clicks12"] = clicks(browser, url12, args.clicks)
        if "mask" in run:
            got["mask"] = clicks(browser, url200, args.clicks)
        if "prose" in run:
            got["prose"] = clicks(browser, url_prose, args.clicks)
        if "model" in run:
            got["model"] = model_change(browser, page_url + "?mode=model&s=" + MODEL_LETTERS)
        if "block" in run:  # (the model with whole blocks: LayerNorms and FFNs too, docs/model.md)
            got["block"] = model_change(browser, page_url + "?mode=model&arch=block&s=" + MODEL_LETTERS)
        for group, bench in LAB_BENCHES.items():
            if group in run:
                got[group] = lab_figures(browser, bench, page_url, url200)
        if "labopen" in run:
            got["labopen"] = lab_open(browser, page_url + "?embed=1&focus=1")
        for name in ("mask", "prose"):
            if name in got and got[name]["tokens"] != 200:
                raise SystemExit(f"bench: the 200-word page ({name}) shows {got[name]['tokens']} pieces")
        if "memory" in run:
            got["memory"] = memory(browser, url12)
        if "lexicon" in run:
            got["lexicon"] = bench_lexicon.measure(browser, ROOT, tmp, pyscript_dir, page_url, args.runs)
        if "phone" in run:
            got["phone"] = bench_phone.figures(browser, options.get("executable_path") or p.chromium.executable_path,
                                               page_url, hello_url, plain_url, args.runs)
        if "deploy" in run:
            got["deploy"] = bench_deploy.figures(p, browser, options, page_url, hello_url, tmp, args.runs,
                                                 TIMING_SCRIPT, CLICKS_SCRIPT)
        version = browser.version
        browser.close()
    for server in (page_server, hello_server):
        server.shutdown()
    shutil.rmtree(tmp, ignore_errors=True)

    rows, figures = [], {}
    if "start" in got:
        ours, base = got["start"]
        fcp = median([r[0] for r in ours])
        tti = median([r[2] for r in ours])
        base_ready = median([r[1] for r in base])
        first_bytes = median([r[3] for r in ours])
        second_bytes = median([r[4] for r in ours])
        base_bytes = median([r[3] for r in base])
        rows += [("First paint (FCP)", f"{fcp:.0f} ms", "≤ 300 ms", fcp <= 300)]
        figures.update(fcp_ms=fcp, tti_ms=tti, baseline_ms=base_ready, bytes_first=first_bytes,
                       bytes_second=second_bytes)
    if "words" in got:
        words, bare_words = got["words"]
        rows += [("First words ÷ the same HTML without its scripts (medians)",
                  f"{median(words) / median(bare_words):.2f} ({median(words):.0f} / {median(bare_words):.0f} ms)",
                  "≤ 1.20", median(words) / median(bare_words) <= 1.20)]
    if "start" in got:
        rows += [
            ("Python ready", f"{median([r[1] for r in ours]):.0f} ms", "", None),
            ("TTI (ready + first click)", f"{tti:.0f} ms", f"≤ {1.10 * base_ready:.0f} ms",
             tti <= 1.10 * base_ready),
            ("Baseline: bare PyScript + Pyodide", f"{base_ready:.0f} ms", "", None),
            ("TTI ÷ baseline", f"{tti / base_ready:.2f}", "≤ 1.10", tti / base_ready <= 1.10),
        ]
    c12, c200, prose = got.get("clicks12"), got.get("mask"), got.get("prose")
    if c12:
        rows += [("Click → frame, 12 words (p50 / p95)", pair(c12["frame"]), "p95 ≤ 16 ms",
                  percentile(c12["frame"], 95) <= 16)]
    if c200:
        rows += [("Click → frame, 200 words (p50 / p95)", pair(c200["frame"]), "p95 ≤ 50 ms",
                  percentile(c200["frame"], 95) <= 50)]
    if c12:
        rows += [
            ("  floor: 1-character change", pair(c12["frame_floor"]), "", None),
            ("  click → answer on the page, 12 words", pair(c12["handler"]), "", None),
            ("    own work: the page's thread", pair(c12["page_work"]), "p95 ≤ 8 ms",
             percentile(c12["page_work"], 95) <= 8),
            ("    own work: the engine (its worker)", pair(c12["engine_work"]), "p95 ≤ 8 ms",
             percentile(c12["engine_work"], 95) <= 8),
        ]
        figures.update(handler12_p95_ms=percentile(c12["handler"], 95), click12_p95_ms=percentile(c12["frame"], 95),
                       floor_p95_ms=percentile(c12["frame_floor"], 95))
    if c200:
        rows += [
            ("  click → answer on the page, 200 words, grid shown", pair(c200["handler"]), "", None),
            ("    own work: the page's thread", pair(c200["page_work"]), "p95 ≤ 16 ms",
             percentile(c200["page_work"], 95) <= 16),
            ("    own work: the engine (its worker)", pair(c200["engine_work"]), "p95 ≤ 16 ms",
             percentile(c200["engine_work"], 95) <= 16),
            later_row("    then, idle: the views off screen brought up to date", c200["later"],
                      f"{args.clicks} clicks"),
            *setting_rows(c200, "Setting change (mask), 200 words", ""),
        ]
        figures.update(handler200_p95_ms=percentile(c200["handler"], 95),
                       setting200_p95_ms=percentile(c200["setting"], 95),
                       click200_p95_ms=percentile(c200["frame"], 95))
    if prose:
        rows += [
            ("  click → answer on the page, 200 words of prose, grid", pair(prose["handler"]), "", None),
            ("    own work: the page's thread", pair(prose["page_work"]), "p95 ≤ 16 ms",
             percentile(prose["page_work"], 95) <= 16),
            ("    own work: the engine (its worker)", pair(prose["engine_work"]), "p95 ≤ 16 ms",
             percentile(prose["engine_work"], 95) <= 16),
            later_row("    then, idle: the views off screen brought up to date", prose["later"],
                      f"{args.clicks} clicks"),
            *setting_rows(prose, "Setting change (mask), 200 words of prose", "  "),
        ]
        figures.update(prose200_handler_p95_ms=percentile(prose["handler"], 95),
                       prose200_setting_p95_ms=percentile(prose["setting"], 95))
    for group, bench in LAB_BENCHES.items():
        if group in got:
            rows += lab_rows(bench, got[group])
            times, mask = [c[0] for c in got[group][0]], got[group][1]
            if mask is None:
                figures[f"{group}_p95_ms"] = percentile(times, 95)
            else:
                figures[f"{group}_over_mask_p95"] = round(percentile(times, 95) / percentile(mask, 95), 3)
    if "model" in got:
        trained = got["model"]
        rows += [("Trained model, 40 tokens: a checkpoint's forward pass (p50 / p95)", pair(trained["forward"]),
                  "p95 ≤ mask at 200 words",
                  percentile(trained["forward"], 95) <= percentile(c200["setting"], 95) if c200 else None),
                 ("  the engine's whole move: forward pass, views, state", pair(trained["engine"]), "", None),
                 ("  until the answer is on the page", pair(trained["handler"]), "", None)]
    if "block" in got:
        whole = got["block"]
        # (its budget is the mask change's, p95 ≤ SETTING_BUDGET; the mask change measured in the same
        # run is beside it, as the ratio of the two p95s)
        rows += [("Block model, 40 tokens: a checkpoint's forward pass (p50 / p95)", pair(whole["forward"]),
                  f"p95 ≤ {SETTING_BUDGET} ms", percentile(whole["forward"], 95) <= SETTING_BUDGET),
                 ("  the engine's whole move: forward pass, views, state", pair(whole["engine"]), "", None)]
        if c200:
            rows.append(("  its p95 ÷ the mask change's p95 (200 words, this run)",
                         f"{percentile(whole['forward'], 95) / percentile(c200['setting'], 95):.2f}", "", None))
    if "labopen" in got:
        rows += [(f"Opening a lab on a warm page ({first_lab_tab()[1]}: its tab; p50 / p95)", pair(got["labopen"]), "p95 ≤ 300 ms",
                  percentile(got["labopen"], 95) <= 300)]
    if c12 and c200:
        rows += [("State JSON, 12 / 200 words", f"{c12['state_bytes'] / 1e3:.1f} / {c200['state_bytes'] / 1e3:.1f} kB",
                  "", None)]
    if c12:
        rows += [("Event Timing, 12 words (p50 / p95)", event_pair(c12["events"], c12["n_events"]), "", None)]
    if c200:
        rows += [("Event Timing, 200 words (p50 / p95)", event_pair(c200["events"], c200["n_events"]), "", None)]
    if c12:
        rows += [("  floor: click on plain text", event_pair(c12["events_floor"], c12["n_events"]), "", None)]
    if "start" in got:
        rows += [
            ("Bytes, first visit", f"{first_bytes / 1e6:.2f} MB", "≤ 4.20 MB", first_bytes <= 4.2e6),
            ("Bytes, baseline first visit", f"{base_bytes / 1e6:.2f} MB", "", None),
            ("Bytes, second visit (warm)", f"{second_bytes / 1e3:.1f} kB ({100 * second_bytes / first_bytes:.2f}%)",
             "≤ 5% of first", second_bytes <= 0.05 * first_bytes),
        ]
    if "memory" in got:
        heap10, heap1000, wasm_growth = got["memory"]
        rows += [
            ("JS heap after 10 clicks", f"{heap10 / 1e6:.2f} MB", "", None),
            ("JS heap after 1000 clicks", f"{heap1000 / 1e6:.2f} MB", "", None),
            ("Heap growth 10 → 1000 clicks", f"{(heap1000 - heap10) / 1e6:.2f} MB", "≤ 5 MB",
             heap1000 - heap10 <= 5e6),
            ("Python wasm memory growth 10 → 1000 clicks", f"{wasm_growth / 1e6:.2f} MB", "≤ 5 MB",
             wasm_growth <= 5e6),
        ]
        figures.update(heap_growth_bytes=heap1000 - heap10, wasm_growth_bytes=wasm_growth)
    if "lexicon" in got:
        rows += bench_lexicon.rows(got["lexicon"])
    if "deploy" in got:
        rows += bench_deploy.rows(got["deploy"])
    if "phone" in got:
        rows += bench_phone.rows(got["phone"])
    print(f"Attention Explorer benchmark: Chromium {version}, {args.runs} cold loads each (median), "
          f"{args.clicks} clicks" + ("" if args.only is None else f"; only {', '.join(g for g in GROUPS if g in run)}"))
    width = max(len(r[0]) for r in rows)
    print(f"{'figure':<{width}}  {'measured':>22}  {'budget':<16} result")
    for name, value, budget, ok in rows:
        verdict = "" if ok is None else ("ok" if ok else "OVER")
        print(f"{name:<{width}}  {value:>22}  {budget:<16} {verdict}")
    print(json.dumps(figures))
    return 0


if __name__ == "__main__":
    sys.exit(main())
