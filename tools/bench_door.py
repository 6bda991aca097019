"""A/B of the warm start's tricks that need static/runtime.js to patch a global (not a test).

    python -m tools.bench_door [--runs N]

Each variant is the page served with one trick taken out of its code (the served file rewritten,
the repository untouched), on a server of its own; the bare PyScript + Pyodide page of
`make bench` is the baseline. Every round measures each of them once, in a shuffled order (the
machine is shared and its load moves: interleaved, every variant sees the same), each in a
browser of its own: a cold visit (TTI: ready + first click answered), the snapshot made and
tried, a warm visit (its TTI), then the browser's memory (PSS of all its processes) after a
pause, as `make bench` measures them. It prints the median and the spread of each figure, and
each variant's difference from the page as it is. docs/performance.md ("The door to Pyodide")
records the results and what was kept.
"""

import argparse
import random
import shutil
import statistics
import tempfile
import threading
from pathlib import Path

from playwright.sync_api import sync_playwright

from tools import bench, bench_deploy
from tools.chromium import launch_options
from tools.serve import changed_copy, make_server

# Each trick: the file whose served text loses it, and the text replaced (it must be there).
TRICKS = {
    "no page-compiled wasm": {"static/engine.js": ('if (plan.kind === "snapshot") askPageForWasm(WASM);', "")},
}


def launched(playwright, options):
    """(the browsers open before, a browser of its own, a page of it timing its ready)."""
    before = bench_deploy.browser_family()
    browser = playwright.chromium.launch(**options)
    context = browser.new_context()
    context.add_init_script(bench.TIMING_SCRIPT)
    return before, browser, context.new_page()


def ours(playwright, options, url):
    """(cold TTI, warm TTI, PSS bytes, warm start kind) of the page at `url`, in a browser of its own."""
    before, browser, page = launched(playwright, options)
    cold, _ = bench_deploy.visit(page, url, bench.CLICKS_SCRIPT)
    if not (bench_deploy.wait_snapshot(page) and bench_deploy.wait_trial(page)):
        raise SystemExit("bench_door: no snapshot was made")
    warm, start = bench_deploy.visit(page, url, bench.CLICKS_SCRIPT)
    page.wait_for_timeout(1500)
    used = bench_deploy.browser_memory(before)
    browser.close()
    return cold, warm, used, start


def bare(playwright, options, url):
    """(cold ready, warm ready, PSS bytes) of the bare PyScript + Pyodide page."""
    before, browser, page = launched(playwright, options)
    times = []
    for _ in range(2):
        page.goto(url)
        page.wait_for_function(bench.READY, timeout=180_000)
        times.append(page.evaluate("window.__bench.ready"))
    page.wait_for_timeout(1500)
    used = bench_deploy.browser_memory(before)
    browser.close()
    return times[0], times[1], used, "bare"


def spread(values):
    return f"{statistics.median(values):7.0f} ({min(values):.0f}–{max(values):.0f})"


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--runs", type=int, default=9, help="rounds (each variant once a round)")
    args = parser.parse_args(argv)
    tmp = Path(tempfile.mkdtemp(prefix="attention-door-"))
    pyscript_dir = bench.baseline_runtime(tmp)
    (tmp / "bench-hello.html").write_text(bench.HELLO_HTML.format(pyscript=pyscript_dir))
    (tmp / "bench-hello.toml").write_text(f'interpreter = "{bench.BASELINE_INTERPRETER}"\n')
    servers, urls = [], {}
    for name, changes in [("page as it is", {}), *TRICKS.items()]:
        root = changed_copy(tmp / name.replace(" ", "-"), changes)
        servers.append(make_server(port=0, root=root, quiet=True))
        urls[name] = f"http://127.0.0.1:{servers[-1].server_address[1]}/"
    servers.append(make_server(port=0, root=tmp, quiet=True, extra_public=("bench-hello.",)))
    urls["bare"] = f"http://127.0.0.1:{servers[-1].server_address[1]}/bench-hello.html"
    for server in servers:
        threading.Thread(target=server.serve_forever, daemon=True).start()
    options = launch_options()
    results = {name: [] for name in urls}
    with sync_playwright() as p:
        for name, url in urls.items():  # (once each, unmeasured: the servers' and the disk's caches)
            (bare if name == "bare" else ours)(p, options, url)
        for round_ in range(args.runs):
            order = list(urls)
            random.shuffle(order)
            for name in order:
                results[name].append((bare if name == "bare" else ours)(p, options, urls[name]))
            print(f"round {round_ + 1}/{args.runs} done", flush=True)
    for server in servers:
        server.shutdown()
    shutil.rmtree(tmp, ignore_errors=True)

    base_warm = statistics.median(r[1] for r in results["bare"])
    base_cold = statistics.median(r[0] for r in results["bare"])
    base_memory = statistics.median(r[2] for r in results["bare"])
    mine = statistics.median(r[1] for r in results["page as it is"])
    print(f"{args.runs} rounds; medians (min–max)")
    print(f"{'variant':24} {'cold TTI ms':>20} {'warm TTI ms':>20} {'memory MB':>20}  warm÷bare  Δwarm  starts")
    for name, rows in results.items():
        cold, warm, memory = ([r[i] for r in rows] for i in range(3))
        memory = [m / 1e6 for m in memory]
        delta = statistics.median(warm) - mine
        print(f"{name:24} {spread(cold):>20} {spread(warm):>20} {spread(memory):>20}  "
              f"{statistics.median(warm) / base_warm:9.2f}  {delta:+5.0f} ({delta / mine:+.1%})  "
              f"{','.join(sorted({r[3] for r in rows}))}")
    page = results["page as it is"]
    print("paired with the page as it is, same round: median difference (min–max)")
    for name in TRICKS:
        warm = [r[1] - p[1] for r, p in zip(results[name], page)]
        memory = [(r[2] - p[2]) / 1e6 for r, p in zip(results[name], page)]
        print(f"{name:24} warm {statistics.median(warm):+5.0f} ms ({min(warm):+.0f}–{max(warm):+.0f}, "
              f"{statistics.median(warm) / mine:+.1%}), memory {statistics.median(memory):+5.1f} MB "
              f"({min(memory):+.1f}–{max(memory):+.1f})")
    print(f"page: TTI ÷ bare {statistics.median(r[0] for r in page) / base_cold:.2f}, "
          f"warm ÷ warm bare {mine / base_warm:.2f}, "
          f"memory ÷ bare {statistics.median(r[2] for r in page) / base_memory:.2f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
