"""The lexicon's share of `make bench`: bytes over the wire, and load + index time in the browser.

- bytes: the lexicon files (`lexicon/...`) as the real page fetches them on a cold visit,
  compressed as the project's server sends them (Resource Timing's transferSize);
- time: in Pyodide, in a page that loads only app/lexicon.py and the lexicon files,
  `load_lexicon(lang)` for each language (read from Pyodide's file system, parse, index),
  first call, median over `runs` cold pages; plus one sentence looked up per language.
  The page loads a language's lexicon when it first needs it: Italian at start (the
  first Python call of this kind, so it also pays the interpreter's warm-up), English on
  the first switch.
"""

import json
import shutil
import threading

from tools.runtime_names import vendored_name
from tools.serve import make_server

LEXICON_HTML = """<!doctype html><html data-state="loading"><head><meta charset="utf-8">
<title>lexicon</title><script type="module" src="/vendor/{pyscript}/core.js"></script></head>
<body><script type="py" config="/bench-lexicon.toml">
import json, time
from pyscript import document
from app import lexicon
out = {{}}
for lang, sentence in (("it", "Il professore spiega la lezione agli alunni dopo pranzo"),
                       ("en", "The teacher explains the lesson to the students after lunch")):
    t0 = time.perf_counter()
    lex = lexicon.load_lexicon(lang)
    t1 = time.perf_counter()
    lexicon.lookup(lexicon.tokenize(sentence, lang), lex)
    out[lang] = [(t1 - t0) * 1000, (time.perf_counter() - t1) * 1000, len(lex)]
document.documentElement.dataset.lexicon = json.dumps(out)
document.documentElement.dataset.state = "ready"
</script></body></html>"""

def lexicon_bytes(requests):
    """(over the wire, decoded) bytes of the lexicon files among `requests` (Playwright's, of the
    page and of its engine's worker, which fetches them: the page's own resource timing does not
    see a worker's requests)."""
    wire = decoded = 0
    for request in requests:
        if "/lexicon/" in request.url:
            response = request.response()
            if response is not None:
                wire += request.sizes()["responseBodySize"]
                decoded += len(response.body())
    return wire, decoded


READY = "document.documentElement.dataset.state === 'ready'"


def measure(browser, root, tmp, pyscript_dir, page_url, runs):
    """{"bytes": (over the wire, decoded), "it"/"en": (load ms, lookup ms, words)} medians."""
    for folder in ("app", "lexicon"):
        shutil.copytree(root / folder, tmp / folder, dirs_exist_ok=True,
                        ignore=shutil.ignore_patterns("__pycache__", "*-left-out.txt"))
    files = [p.relative_to(tmp).as_posix() for p in sorted((tmp / "lexicon").rglob("*.*"))
             if p.suffix in (".csv", ".txt")]
    files += ["app/__init__.py", "app/attention.py", "app/i18n.py", "app/numbers.py", "app/lexicon.py"]  # (lexicon.py and what it imports)
    (tmp / "bench-lexicon.toml").write_text(
        f'interpreter = "/vendor/pyodide-stock/{vendored_name("pyodide.mjs")}"\n[files]\n'
        + "".join(f'"/{f}" = "./{f}"\n' for f in files))
    (tmp / "bench-lexicon.html").write_text(LEXICON_HTML.format(pyscript=pyscript_dir))
    server = make_server(port=0, root=tmp, quiet=True, extra_public=("bench-lexicon.",))
    threading.Thread(target=server.serve_forever, daemon=True).start()
    url = f"http://127.0.0.1:{server.server_address[1]}/bench-lexicon.html"
    results = []
    try:
        for _ in range(runs):
            context = browser.new_context()
            page = context.new_page()
            page.goto(url)
            page.wait_for_function(READY, timeout=120_000)
            results.append(json.loads(page.evaluate("document.documentElement.dataset.lexicon")))
            context.close()
        context = browser.new_context()
        done = []
        context.on("requestfinished", lambda request: done.append(request))
        page = context.new_page()
        page.goto(page_url)
        page.wait_for_function(READY, timeout=120_000)
        sent = lexicon_bytes(done)
        context.close()
    finally:
        server.shutdown()

    def med(values):
        values = sorted(values)
        return values[len(values) // 2]

    out = {"bytes": tuple(sent)}
    for lang in ("it", "en"):
        out[lang] = (med([r[lang][0] for r in results]), med([r[lang][1] for r in results]),
                     results[0][lang][2])
    return out


def rows(figures):
    """Table rows (name, value, budget, ok) for bench.py."""
    wire, decoded = figures["bytes"]
    it, en = figures["it"][0], figures["en"][0]
    return [
        ("Lexicon files over the wire (decoded)", f"{wire / 1e3:.0f} kB ({decoded / 1e3:.0f} kB)",
         "≤ 250 kB", wire <= 250e3),
        ("Lexicon load + index, it (at start, cold)", f"{it:.0f} ms", "≤ 60 ms", it <= 60),
        ("Lexicon load + index, en (on switching)", f"{en:.0f} ms", "≤ 60 ms", en <= 60),
        ("  look up one 12-word sentence, it / en", f"{figures['it'][1]:.1f} / {figures['en'][1]:.1f} ms", "", None),
    ]
