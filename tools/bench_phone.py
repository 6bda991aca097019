"""The page as a school phone sees it, for tools/bench.py (figures of one run, ratios within it).

  phone click   Chromium's CPU slowed 4× and its network at Lighthouse's slow 4G (DevTools
                throttling: 562.5 ms latency, 1.47 Mb/s down): when the words appear (first
                contentful paint: they are pre-rendered), a real mouse click on «gatto» right
                then, and when the state JSON says it is selected (static/early.js answers
                before Python, which is ready later); a plain one-line page served the same way
                gives the first-paint baseline
  lighthouse    npm `lighthouse`, mobile preset (simulated slow 4G and 4× CPU), on the default
                page and on the bare PyScript + Pyodide page: performance, total blocking time,
                cumulative layout shift, accessibility (median of the runs)
"""

import json
import os
import statistics
import subprocess
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
LIGHTHOUSE = ROOT / "node_modules" / "lighthouse" / "cli" / "index.js"

# DevTools' "Slow 4G", as Lighthouse's devtools throttling applies it.
SLOW_4G = {"offline": False, "latency": 562.5, "downloadThroughput": 1474.56 * 1024 / 8,
           "uploadThroughput": 675 * 1024 / 8}

PLAIN_HTML = """<!doctype html><html lang="it"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1"><title>plain</title></head>
<body><p>Il gatto seduto sul tappeto dormiva</p></body></html>"""

# From the first instant: when the state JSON first says word 1 is selected, and when a click
# came (its event's time stamp), and when data-state turns ready.
PHONE_SCRIPT = """
window.__phone = {answered: null, clicked: null, ready: null};
addEventListener('click', e => { if (window.__phone.clicked === null) window.__phone.clicked = e.timeStamp; }, true);
new MutationObserver(() => {
  const box = document.getElementById('attention-state');
  if (window.__phone.answered === null && box) {
    try { if (JSON.parse(box.textContent).focus === 1) window.__phone.answered = performance.now(); } catch (e) {}
  }
  if (window.__phone.ready === null && document.documentElement.dataset.state === 'ready')
    window.__phone.ready = performance.now();
}).observe(document, {attributes: true, childList: true, characterData: true, subtree: true});
"""


def throttled_page(browser):
    context = browser.new_context(viewport={"width": 412, "height": 823}, is_mobile=True, has_touch=False)
    page = context.new_page()
    cdp = context.new_cdp_session(page)
    cdp.send("Network.enable")
    cdp.send("Network.emulateNetworkConditions", SLOW_4G)
    cdp.send("Emulation.setCPUThrottlingRate", {"rate": 4})
    return context, page


def first_paint(page):
    page.wait_for_function("performance.getEntriesByName('first-contentful-paint').length > 0", timeout=120_000,
                           polling=10)
    return page.evaluate("performance.getEntriesByName('first-contentful-paint')[0].startTime")


def phone_click(browser, url):
    """(words on screen, click, answered, Python ready) in ms from navigation, on a throttled phone."""
    context, page = throttled_page(browser)
    context.add_init_script(PHONE_SCRIPT)
    page.goto(url, wait_until="commit")
    words = first_paint(page)
    page.locator("label.word").nth(1).click(timeout=120_000)
    page.wait_for_function("window.__phone.answered !== null", timeout=180_000, polling=20)
    page.wait_for_function("window.__phone.ready !== null", timeout=300_000, polling=100)
    figures = page.evaluate("window.__phone")
    context.close()
    return words, figures["clicked"], figures["answered"], figures["ready"]


def plain_paint(browser, url):
    context, page = throttled_page(browser)
    page.goto(url, wait_until="commit")
    fcp = first_paint(page)
    context.close()
    return fcp


def lighthouse(url, chrome):
    """Lighthouse's mobile report of `url`: (performance, TBT ms, CLS, accessibility), or None
    when npm's lighthouse is missing (`make setup` installs it). (A page must paint something:
    the bare page says hello.)"""
    if not LIGHTHOUSE.exists():
        return None
    with tempfile.TemporaryDirectory(prefix="attention-lh-") as out:
        report = Path(out) / "report.json"
        subprocess.run(["node", str(LIGHTHOUSE), url, "--quiet", "--output=json", f"--output-path={report}",
                        "--only-categories=performance,accessibility", "--max-wait-for-load=120000",
                        "--chrome-flags=--headless=new --no-sandbox --disable-gpu"],
                       check=True, env={**os.environ, "CHROME_PATH": chrome}, cwd=out,
                       stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, timeout=600)
        data = json.loads(report.read_text())
    audits, cats = data["audits"], data["categories"]
    return (cats["performance"]["score"], audits["total-blocking-time"]["numericValue"],
            audits["cumulative-layout-shift"]["numericValue"], cats["accessibility"]["score"])


def figures(browser, chrome, page_url, hello_url, plain_url, runs):
    out = {"phone": [], "plain": [], "lh": [], "lh_bare": []}
    for _ in range(min(runs, 3)):  # (a throttled start takes ~30 s)
        out["phone"].append(phone_click(browser, page_url))
        out["plain"].append(plain_paint(browser, plain_url))
    for _ in range(3):
        out["lh"].append(lighthouse(page_url, chrome))
        out["lh_bare"].append(lighthouse(hello_url, chrome))
    return out


def _median(values):
    return statistics.median(values)


def rows(f):
    words = _median([r[0] for r in f["phone"]])
    answer = _median([r[2] - r[1] for r in f["phone"]])
    answered = _median([r[2] for r in f["phone"]])
    ready = _median([r[3] for r in f["phone"]])
    plain = _median(f["plain"])
    out = [
        ("Phone (4× CPU, slow 4G): words on screen", f"{words:.0f} ms", "", None),
        ("  a click on a word then: answered after", f"{answer:.0f} ms", "", None),
        ("  answered ÷ words on screen", f"{answered / words:.2f}", "≤ 2.00", answered <= 2 * words),
        ("  Python ready", f"{ready:.0f} ms", "", None),
        ("  plain one-line page: first paint", f"{plain:.0f} ms", "", None),
        ("  words on screen ÷ plain page", f"{words / plain:.2f}", "≤ 1.50", words <= 1.5 * plain),
    ]
    if any(r is None for r in f["lh"] + f["lh_bare"]):
        return out + [("Lighthouse (mobile)", "not installed", "make setup", False)]
    lh = [_median(values) for values in zip(*f["lh"])]
    bare = [_median(values) for values in zip(*f["lh_bare"])]
    return out + [
        ("Lighthouse mobile: performance (bare page)", f"{lh[0]:.2f} ({bare[0]:.2f})", "≥ 0.90", lh[0] >= 0.90),
        ("  total blocking time (bare page)", f"{lh[1]:.0f} ms ({bare[1]:.0f} ms)", "≤ 300 ms", lh[1] <= 300),
        ("  cumulative layout shift (bare page)", f"{lh[2]:.3f} ({bare[2]:.3f})", "≤ 0.05", lh[2] <= 0.05),
        ("  accessibility", f"{lh[3]:.2f}", "≥ 0.95", lh[3] >= 0.95),
    ]
