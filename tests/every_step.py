"""Every step of every registered guided path, walked in one browser and checked against numpy:
what tests/firefox/test_paths.py and tests/webkit/test_paths.py share (docs/testing.md).

A course page frames the widget; each path starts fresh from its first step's link, and the
next steps come as the host's `attention:set` messages (one Python start per path, not one per
step). Every step is checked as it opens, after each control of its own views is changed (each
once a path: a lab's radios, boxes and number fields), after a student's click on another word,
and (each path's first step) in the other language. Each time the numbers of the state are worked
again with numpy from the state's own inputs (the cards, read again from the lexicon files, and the W matrices; in
matrix mode Q, K, V; the trained model's checkpoint) and the settings its address names, and
the numbers the step shows on screen (bars, table, heatmap, cards, the model's heads) are
numpy's written in the page's language.
"""

import importlib
import json
import re
import time
from pathlib import Path
from urllib.parse import parse_qsl

import numpy as np

from app.views import registry
from tests import model_reference as ref
from tests.contract_check import assert_valid_state
from tests.reference import W_Q, lexicon_cards, rule_percent, shown, shown_short

# A lab whose state changes the weights themselves (a mixer instead of the softmax) says how in its
# tests' numpy reference: tests/labs/<id>/reference.py's `attention_weights(state, params, q, k, v,
# cards, divisor)`, (weights, outputs) or None where it does not apply. Found, not named.
LAB_REFERENCES = [module.attention_weights for module in (
    importlib.import_module(f"tests.labs.{found.parent.name}.reference")
    for found in sorted(Path(__file__).resolve().parent.glob("labs/*/reference.py")))
    if hasattr(module, "attention_weights")]

WAIT_S = 30  # an answer to a message or a click
START_S = 90  # a fresh page, Python's start included

# Every path the registry declares, read when the tests are collected: a new lab's path is
# walked with no edit here.
PATH_IDS = tuple(registry.paths())

# The paths each of the other two engines walks (Chromium walks them all: tests/e2e/views/
# test_every_path.py): the formula's in both, each lab's in one of them, in turn, so that every
# path is walked in a second engine and a new lab's path too, at half the time of walking each in
# both.
OTHER_ENGINES = ("webkit", "firefox")


def paths_for(engine):
    """The path ids `engine` ("webkit" or "firefox") walks."""
    turn = OTHER_ENGINES.index(engine)
    return tuple(path_id for i, path_id in enumerate(PATH_IDS) if i == 0 or (i - 1) % 2 == turn)

# Everything a check reads, in one call to the browser (in the widget's frame): the state, where
# the page says it is, and the numbers the step's views show where they are on screen.
READ = r"""(() => {
  const doc = document, shown = e => !!e && e.getClientRects().length > 0;
  const text = e => (e ? e.textContent : "").trim();
  const state = JSON.parse(doc.getElementById("attention-state").textContent);
  const out = {ready: doc.documentElement.dataset.state, search: location.search, state: state,
               views: [...doc.querySelectorAll("section[id^='view-']")].map(e => [e.id.slice(5), shown(e)])};
  const view = id => { const e = doc.getElementById("view-" + id); return shown(e) ? e : null; };
  const row = state.focus;
  let e;
  if ((e = view("bars"))) out.bars = Object.fromEntries([...e.querySelectorAll("li.bar-row[data-index]")]
    .map(li => [li.dataset.index, text(li.querySelector(".bar-value"))]));
  if ((e = view("table"))) out.table = Object.fromEntries([...e.querySelectorAll("tr[data-index]")]
    .map(tr => [tr.dataset.index, text(tr.querySelector("td[data-col='percent']"))]));
  if ((e = view("heatmap")) && row !== null) {
    const cells = tr => tr ? [...tr.querySelectorAll("td")].map(td => text(td.firstChild)) : null;
    const heads = [...e.querySelectorAll(".model-head[data-head]")];
    if (heads.length) out.model_heatmap = Object.fromEntries(heads.filter(shown)
      .map(h => [h.dataset.head, cells(h.querySelector(`tbody tr[data-row='${row}']`))]));
    else out.heatmap = cells(e.querySelector(`table.heatmap tbody tr[data-row='${row}']`));
  }
  out.letters = Object.fromEntries([...doc.querySelectorAll("label.word.letter[data-index]")].filter(shown)
    .map(l => [l.dataset.index, text(l.querySelector(".w"))]));
  out.cards = Object.fromEntries([...doc.querySelectorAll("label.word[data-index]")].filter(shown)
    .filter(l => l.querySelector(".card .v"))
    .map(l => [l.dataset.index, [...l.querySelectorAll(".card .v")].map(text)]));
  return out;
})()"""

HOST = """<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Lesson</title>
<link rel="icon" href="data:,"><script>
window.states = [];  // the states the widget tells its host
addEventListener("message", e => { if (e.data && e.data.type === "attention:state") window.states.push(e.data.state); });
</script></head><body style="margin:0">
<iframe id="w" src="{src}" title="Attention Explorer" style="display:block;width:100%;height:700px;border:0"></iframe>
</body></html>"""


class Browser:
    """What a walk needs of an engine's driver (each engine's test module gives its own)."""

    def run(self, script):  # the value of a JS expression in the current frame
        raise NotImplementedError

    def run_async(self, script):  # the value a script passes to its last argument, a callback
        raise NotImplementedError

    def open(self, url):
        raise NotImplementedError

    def enter(self):  # into the widget's frame (#w)
        raise NotImplementedError

    def leave(self):  # back to the course page
        raise NotImplementedError

    def click(self, xpath):  # a student's click on the element `xpath` (in the current frame)
        raise NotImplementedError


# A JS expression awaited in the page itself (one call to the driver, not one a poll), for at
# most LIMIT ms; its value, or null. (An expression that throws counts as not yet true: the
# state's script is briefly absent while the page redraws.)
AWAIT = """const done = arguments[arguments.length - 1], end = Date.now() + LIMIT;
(function poll() {
  let value = null;
  try { value = (EXPRESSION); } catch (error) { value = null; }
  if (value || Date.now() > end) done(value || null); else setTimeout(poll, 20);
})();"""


def wait(browser, script, seconds, what):
    """The value of the JS expression `script` once it is truthy in the current frame."""
    end = time.monotonic() + seconds
    while True:
        limit = max(100, min(10_000, int(1000 * (end - time.monotonic()))))
        value = browser.run_async(AWAIT.replace("LIMIT", str(limit)).replace("EXPRESSION", script))
        if value:
            return value
        if time.monotonic() > end:
            browser.run(script)  # (what it throws, if it throws, says more than a time-out)
            raise AssertionError(f"{what}: still false after {seconds} s: {script}")


def walk(browser, site, base_url, path_id, lang):
    """Open every step of the path `path_id` (links in `lang`) and check each against numpy.
    The walk stays in the widget's frame but to send the course page's messages."""
    way = registry.paths()[path_id]
    other = "en" if lang == "it" else "it"
    src = f"{base_url}?path={path_id}&step=1&lang={lang}"
    browser.open(site.put(f"lesson-{path_id}.html", HOST.replace("{src}", src)))
    wait(browser, "window.states.length > 0", START_S, f"{path_id}: the widget's first state to its host")
    browser.enter()
    seen, tried = None, set()
    try:
        for number, step in enumerate(way.steps, 1):
            where = f"{path_id} step {number} ({step.id})"
            if number > 1:
                send(browser, {"path": path_id, "step": number, "lang": lang})
            seen = settle(browser, f"s.step === {number} && s.lang === '{lang}'", where, seen)
            check_step(seen, way, number, path_id, lang, where)
            # each control of the step's own views, once a path (a lab's switches and fields)
            for said in use_controls(browser, step, tried):
                seen = settle(browser, f"s.step === {number}", f"{where}, {said}", seen)
                check_step(seen, way, number, path_id, lang, f"{where}, {said}")
            # a student's click on another word (or position, or query row): that row's numbers
            pick = seen["state"]["focus"] - 1 if seen["state"]["focus"] else 1
            press(browser, f"//input[@name='word' and @value='{pick}']/ancestor::label[1]")
            seen = settle(browser, f"s.step === {number} && s.focus === {pick}", f"{where}, a click", seen)
            check_step(seen, way, number, path_id, lang, f"{where}, word {pick} clicked")
            # the path's first step in the page's other language (once a path: the suite's time;
            # Chromium's tests/e2e/views/test_every_path.py walks every step in both)
            if number == 1:
                send(browser, {"lang": other})
                seen = settle(browser, f"s.step === {number} && s.lang === '{other}'", f"{where}, in {other}", seen)
                check_step(seen, way, number, path_id, other, f"{where}, in {other}")
    finally:
        browser.leave()


# The controls of a step's own views a walk changes: their type, name, value (a radio's, a
# field's now), whether on, and a field's range.
CONTROLS = r"""((ids) => ids.flatMap(id => {
  const section = document.getElementById("view-" + id);
  if (!section || !section.getClientRects().length) return [];
  return [...section.querySelectorAll("input")]
    .filter(e => ["radio", "checkbox", "number"].includes(e.type) && e.name && e.name !== "word" && !e.disabled
                 && e.getClientRects().length)
    .map(e => ({view: id, type: e.type, name: e.name, value: e.value, on: e.checked, min: e.min, max: e.max}));
}))"""


def use_controls(browser, step, tried):
    """Change, one at a time, each control of the views the step names that the path has not
    changed yet (`tried`): a new number in a field (one more than it holds, or its minimum plus
    two when empty), a click on a box not ticked, then on each radio not chosen; a button is not
    pressed (it may play, download or copy). Yields what it did, once done."""
    for _ in range(40):  # (a change may bring new controls: the list is read again after each)
        controls = browser.run(f"{CONTROLS}({json.dumps(list(step.shows))})")
        key = lambda c: (c["view"], c["type"], c["name"], c["value"] if c["type"] == "radio" else "")  # noqa: E731
        # (fields and boxes first, then the choices: each choice then meets the changed fields)
        order = sorted(controls, key=lambda c: ("number", "checkbox", "radio").index(c["type"]))
        control = next((c for c in order if key(c) not in tried and not c["on"]), None)
        if control is None:
            return
        tried.add(key(control))
        field = f"//section[@id='view-{control['view']}']//input[@name={json.dumps(control['name'])}" + (
            "]" if control["type"] == "number" else f" and @value={json.dumps(control['value'])}]")
        if control["type"] == "number":  # (typed, then left: the change event the page reads)
            value = int(float(control["value"])) + 1 if control["value"] else int(control["min"] or 0) + 2
            if control["max"]:
                value = min(value, int(float(control["max"])))
            browser.run(f"""(e => (e.value = '{value}', e.dispatchEvent(new Event('change', {{bubbles: true}})), true))
                (document.evaluate({json.dumps(field)}, document, null, 9, null).singleNodeValue)""")
            yield f"{control['name']} = {value}"
        else:
            press(browser, field)
            yield f"{control['name']} {control['value']} chosen"


def press(browser, xpath):
    """A click on the element `xpath` of the widget, brought to the middle of the frame's view
    first (WebKit's driver clicks where a frame's element would be unscrolled)."""
    browser.run(f"document.evaluate({json.dumps(xpath)}, document, null, 9, null).singleNodeValue"
                ".scrollIntoView({block: 'center'}) || true")
    browser.click(xpath)


def send(browser, message):
    """The course page sends the widget `message` (attention:set)."""
    data = json.dumps({"type": "attention:set", **message})
    browser.leave()
    try:
        browser.run(f"document.getElementById('w').contentWindow.postMessage({data}, '*')")
    finally:
        browser.enter()


def settle(browser, condition, where, before):
    """What the widget shows once its state meets `condition` (a JS expression of `s`), it is
    ready, and its address is written for it: no longer the one of `before` (what it showed
    before; every change of a setting changes the address), and naming the state's step,
    language and word."""
    # (the address follows the state in a task of its own, app/page.py: the settings a check
    # reads from it are those of the state read with it; a row view off screen follows a click
    # once the page is idle, aria-busy until then: app/row_parts.py)
    search = json.dumps(before and before["search"])
    return wait(browser, f"""(() => {{ const r = {READ}, p = new URLSearchParams(r.search), s = r.state;
        return r.ready === 'ready' && !document.querySelector("[aria-busy='true']") && r.search !== {search}
               && p.get('step') === String(s.step) && p.get('lang') === s.lang
               && p.get('focus') === (s.focus === null ? null : String(s.focus)) && ({condition}) && r; }})()""",
                START_S if before is None else WAIT_S, where)


# -- the checks -------------------------------------------------------------------------------

def check_step(seen, way, number, path_id, lang, where):
    """A step as a student sees it: ready, on this path's step in its mode, showing the views the
    step names, its numbers numpy's, and the ones on screen written as numpy's in `lang`."""
    state = seen["state"]
    params = dict(parse_qsl(seen["search"].lstrip("?")))
    step = way.steps[number - 1]
    assert seen["ready"] == "ready", where
    assert_valid_state(state)
    assert (state["step"], state["mode"], state["lang"]) == (number, step.mode, lang), where
    assert params.get("path", "formula") == path_id, f"{where}: the address names {params.get('path')}"
    shown_views = dict(seen["views"])
    hidden = [v for v in step.shows if v in shown_views and not shown_views[v]]
    assert hidden == [], f"{where}: the step names views that are not on screen: {hidden}"
    if state["mode"] == "model":
        on_screen = check_model(state, params, seen, where)
    else:
        on_screen = check_attention(state, params, seen, where)
    assert on_screen, f"{where}: nothing of the state is on screen"


def check_attention(state, params, seen, where):
    """Sentence and matrix modes: Q, K, V from the inputs, every cell's dot, logit and weight, the
    outputs, the selected row, FlashAttention's blocks; then what is on screen. Returns how many
    of the state's numbers were found on screen."""
    lang, m = state["lang"], state["matrix"]
    assert m is not None, f"{where}: no matrix in the state"
    position = state.get("position") or {"kind": "none"}
    kind = position["kind"]
    if state["mode"] == "sentence":
        cards = np.array([t["card"] for t in state["tokens"]], dtype=float)
        lexicon = lexicon_cards(lang)
        for token in state["tokens"]:
            if token["known"]:
                np.testing.assert_array_equal(token["card"], lexicon[token["text"].lower()], err_msg=where)
        np.testing.assert_array_equal(state["heads"][0]["w_q"], W_Q, err_msg=f"{where}: the designed W_Q")
        q, k, v = inputs(state, cards, position)
        np.testing.assert_allclose(m["queries"], q, rtol=0, atol=1e-9, err_msg=f"{where}: Q")
        np.testing.assert_allclose(m["keys"], k, rtol=0, atol=1e-9, err_msg=f"{where}: K")
        np.testing.assert_allclose(m["values"], v, rtol=0, atol=1e-9, err_msg=f"{where}: V")
    else:  # matrix mode: the typed Q, K, V as the dots use them are the inputs
        q, k, v = (np.array(m[name], dtype=float) for name in ("queries", "keys", "values"))
    n_q, n_k = len(q), len(k)
    allowed = candidates(state, params, n_q, n_k, where)
    assert state["cost"]["cells"] == int(allowed.sum()) and state["cost"]["full"] == n_q * n_k, \
        (where, state["cost"], int(allowed.sum()), state["mask"], state["include_self"], n_q, n_k)
    divisor = (np.sqrt(k.shape[1]) if state["scaled"] else 1.0) * state["temperature"]
    assert np.isclose(state["scale"], divisor, rtol=1e-12), where
    i, j = np.indices((n_q, n_k))
    slope = position["slope"] if kind == "alibi" else state["position_bias"]
    dots = q @ k.T
    logits = dots / divisor - np.where(allowed, slope * np.abs(i - j), 0.0)
    pattern = (state["cost"] or {}).get("pattern") or params.get("pattern", "full")
    if pattern == "linear":  # φ(q)·φ(k) over the row's candidates, φ = elu + 1 (no softmax)
        phi = lambda x: np.where(x > 0, x + 1.0, np.exp(np.minimum(x, 0.0)))  # noqa: E731
        e = np.where(allowed, phi(q) @ phi(k).T, 0.0)
    else:
        top = np.max(np.where(allowed, logits, -np.inf), axis=1, keepdims=True)
        e = np.where(allowed, np.exp(logits - np.where(np.isfinite(top), top, 0.0)), 0.0)
    sums = e.sum(axis=1, keepdims=True)
    weights = np.divide(e, sums, out=np.zeros_like(e), where=sums > 0)
    output = weights @ v
    sentence_cards = cards if state["mode"] == "sentence" else None
    mixed = next((got for hook in LAB_REFERENCES
                  if (got := hook(state, params, q, k, v, sentence_cards, divisor)) is not None), None)
    if mixed is not None:  # (scores, not weights: the lab's own tests read them on screen)
        weights, output = mixed
    assert_cells(m["dots"], dots, allowed, f"{where}: dots")
    assert_cells(m["logits"], logits, allowed, f"{where}: logits")
    np.testing.assert_allclose(m["weights"], weights, rtol=1e-9, atol=1e-12, err_msg=f"{where}: weights")
    for r in range(n_q):
        if allowed[r].any():
            np.testing.assert_allclose(m["output"][r], output[r], rtol=1e-9, atol=1e-12, err_msg=f"{where}: output {r}")
        else:
            assert m["output"][r] is None, f"{where}: output {r}"
    focus = state["focus"]
    found = 0
    if focus is not None:
        row = weights[focus]
        for entry in state["rows"]:
            c = entry["index"]
            assert entry["candidate"] == bool(allowed[focus, c]), f"{where}: rows[{c}].candidate"
            assert np.isclose(entry["weight"], row[c], rtol=1e-9, atol=1e-12), f"{where}: rows[{c}].weight"
            if allowed[focus, c] and mixed is None:
                assert entry["percent"] == rule_percent(row[c], 1, lang), f"{where}: rows[{c}].percent"
        if state["flash"] is not None and pattern != "linear":
            check_flash(state["flash"], logits[focus], allowed[focus], v, output[focus], where)
        if mixed is None:
            found += check_row_on_screen(seen, row, allowed[focus], lang, where)
    if state["mode"] == "sentence":
        for index, texts in seen["cards"].items():
            assert texts == [shown_short(x, 2, lang) for x in cards[int(index)]], f"{where}: card {index} on screen"
            found += 1
    return found


def inputs(state, cards, position):
    """Q, K, V of the active head from the cards, with the position the state names: sinusoidal
    rows added to the cards (the paper's interleaved sin, cos), RoPE turning each pair of q and k
    the state names ((0,1),(2,3) or (0,2),(1,3)) by p·base^(−2t/d)."""
    heads = state["heads"]
    shared = state["kv_heads"] not in (None, len(heads))  # (each head its group's W_K, W_V)
    w_q = np.array(state["w_q"], dtype=float)
    w_k = np.array(heads[state["head"]]["w_k"] if shared else state["w_k"], dtype=float)
    w_v = np.array(heads[state["head"]]["w_v"] if shared else state["w_v"], dtype=float)
    kind = position["kind"]
    n, d = cards.shape
    p = position["offset"] + np.arange(n)[:, None] if kind != "none" else None
    x = cards
    if kind == "sinusoidal":
        t = np.arange(d // 2)[None, :]
        pe = np.zeros((n, d))
        pe[:, 0::2] = np.sin(p / position["base"] ** (2 * t / d))
        pe[:, 1::2] = np.cos(p / position["base"] ** (2 * t / d))
        np.testing.assert_allclose(position["encoding"], pe, rtol=0, atol=1e-12)
        x = cards + pe
    q, k, v = x @ w_q, x @ w_k, x @ w_v
    if kind == "rope":
        h = q.shape[1] // 2
        angle = p * position["base"] ** (-2 * np.arange(h)[None, :] / q.shape[1])
        # the pairs the state names: (0,1),(2,3) interleaved, or (0,2),(1,3) as rotate_half
        first, second = {"interleaved": (slice(0, None, 2), slice(1, None, 2)),
                         "half": (slice(0, h), slice(h, 2 * h))}[position["pairs"]]

        def turn(y):
            a, b = y[:, first], y[:, second]
            out = np.empty_like(y)
            out[:, first], out[:, second] = a * np.cos(angle) - b * np.sin(angle), a * np.sin(angle) + b * np.cos(angle)
            return out

        q, k = turn(q), turn(k)
    return q, k, v


def candidates(state, params, n_q, n_k, where):
    """Which keys each query may weigh: the mask and the self rule (a square matrix), then the
    pattern of the cost lab by its definition (window |i − j| ≤ w, a global row and column;
    BigBird's random keys, drawn by the page, only counted: at most r a row, outside the rest)."""
    i, j = np.indices((n_q, n_k))
    rule = np.ones((n_q, n_k), dtype=bool)
    if n_q == n_k:
        if state["mask"]:
            rule &= j <= i
        if not state["include_self"]:
            rule &= i != j
    pattern = (state["cost"] or {}).get("pattern") or params.get("pattern", "full")
    given = state["matrix"].get("allowed")
    if pattern in ("full", "linear"):
        if given is not None:
            np.testing.assert_array_equal(given, rule, err_msg=f"{where}: allowed")
        return rule
    w = int(params.get("window", 2))
    cells = np.abs(i - j) <= w
    if pattern in ("local_global", "bigbird"):
        marked = np.zeros(max(n_q, n_k), dtype=bool)
        marked[[g for g in map(int, filter(None, params.get("global", "").split(","))) if g < len(marked)]] = True
        cells |= marked[:n_q, None] | marked[None, :n_k]
    cells &= rule
    given = np.array(given, dtype=bool)
    if pattern == "bigbird":
        extra = given & ~cells
        assert not (~given & cells).any(), f"{where}: BigBird leaves out a cell of its window or globals"
        assert (extra.sum(axis=1) <= int(params.get("random", 2))).all() and not (extra & ~rule).any(), where
        return given
    np.testing.assert_array_equal(given, cells, err_msg=f"{where}: the {pattern} pattern's cells")
    return cells


def assert_cells(got, expected, allowed, where):
    """A state's n_q×n_k matrix: numpy's number in every cell that is not masked (null there)."""
    for r, row in enumerate(got):
        for c, value in enumerate(row):
            if value is None:
                assert not allowed[r, c], f"{where}[{r}][{c}] is null"
            else:
                assert np.isclose(value, expected[r, c], rtol=1e-9, atol=1e-12), f"{where}[{r}][{c}]: {value} ≠ {expected[r, c]}"


def check_flash(flash, logits, allowed, v, output, where):
    """FlashAttention's blocks of the selected row, the recurrence written out again."""
    block = flash["block"]
    m, l, o = None, 0.0, np.zeros(v.shape[1])
    assert len(flash["steps"]) == -(-len(logits) // block), where
    for s, start in enumerate(range(0, len(logits), block)):
        end = min(start + block, len(logits))
        idx = [c for c in range(start, end) if allowed[c]]
        if idx:
            new = max(logits[idx].max(), -np.inf if m is None else m)
            alpha = 0.0 if m is None else np.exp(m - new)
            e = np.exp(logits[idx] - new)
            l, o, m = alpha * l + e.sum(), alpha * o + e @ v[idx], new
        got = flash["steps"][s]
        assert got["keys"] == [start, end], where
        assert (got["m"] is None) == (m is None) and (m is None or np.isclose(got["m"], m, rtol=1e-12)), where
        assert np.isclose(got["l"], l, rtol=1e-9) and np.allclose(got["o"], o, rtol=1e-9, atol=1e-12), where
    np.testing.assert_allclose(flash["output"], output, rtol=1e-9, atol=1e-12, err_msg=f"{where}: flash output")


def check_row_on_screen(seen, row, allowed, lang, where):
    """The selected row's weights where the step shows them: the bars (whole percent), the table
    (one decimal), the heatmap's row (whole percent, no sign); how many were there."""
    found = 0
    for view, decimals in (("bars", 0), ("table", 1)):
        if view in seen:
            for c in np.flatnonzero(allowed):
                expected, got = rule_percent(row[c], decimals, lang), seen[view].get(str(c))
                assert got == expected, f"{where}: {view} for word {c}: {got!r} ≠ {expected!r}"
                found += 1
    if seen.get("heatmap") is not None:
        numbers = [t for t in seen["heatmap"] if re.fullmatch(r"\d+", t)]
        assert numbers == [shown(100 * row[c], 0, lang) for c in np.flatnonzero(allowed)], f"{where}: heatmap row"
        found += len(numbers)
    return found


# -- model mode -------------------------------------------------------------------------------

def check_model(state, params, seen, where):
    """Model mode: every head's weights are numpy's forward pass of the checkpoint shown (its
    variant with fewer key/value heads, its architecture, its window), the top letters are numpy's probabilities,
    and each letter the model wrote is numpy's most likely after the letters before it."""
    config = ref.config()
    g = state["kv_heads"] or config["n_heads"]
    arch = state["model"].get("arch", "attention")  # (another architecture: its own folder, kv_heads aside)
    folder = f"{arch}/" if arch != "attention" else "" if g == config["n_heads"] else f"kv-{g}/"
    checkpoints = json.loads((ref.FOLDER / folder / "model.json").read_text(encoding="utf-8"))["checkpoints"]
    file = next(c["file"] for c in checkpoints if c["step"] == state["model"]["checkpoint"])
    tokens = state["model"]["tokens"]
    assert [t["text"] for t in state["tokens"]] == tokens, where
    ids = [config["vocab"].index(t) for t in tokens]
    window = int(params["window"]) if params.get("window") else None
    patterns, logits = ref.forward(ref.weights(folder + file), ids, window)
    for layer in range(config["n_layers"]):
        for head in range(config["n_heads"]):
            np.testing.assert_allclose(state["model"]["attention"][layer][head], patterns[layer][head],
                                       rtol=0, atol=1e-9, err_msg=f"{where}: layer {layer} head {head}")
    letters = config["outputs"]
    p = np.exp(logits - logits.max(axis=1, keepdims=True))
    p /= p.sum(axis=1, keepdims=True)
    for position, top in enumerate(state["model"]["top"]):
        order = np.argsort(-p[position], kind="stable")
        assert [letter for letter, _ in top] == [letters[c] for c in order[:len(top)]], f"{where}: top at {position}"
        np.testing.assert_allclose([x for _, x in top], p[position][order[:len(top)]], rtol=1e-9, err_msg=where)
    assert state["model"]["next"] == [letters[c] for c in np.argmax(logits, axis=1)], f"{where}: next letters"
    written = state["model"]["generated"]
    for offset, letter in enumerate(written):  # (causal: the logits at t are those of the prefix up to t)
        t = len(tokens) - len(written) + offset - 1
        assert letter == letters[int(np.argmax(logits[t]))], f"{where}: written letter {offset + 1}"
    found = 0
    for key, cells in (seen.get("model_heatmap") or {}).items():
        layer, head = map(int, key.split("-"))
        row = patterns[layer][head][state["focus"]]
        seen_cells = [c for c in cells if re.fullmatch(r"\d+", c)]
        visible = [c for c in range(len(row)) if c <= state["focus"] and (window is None or c >= state["focus"] - window)]
        assert seen_cells == [shown(100 * row[c], 0, state["lang"]) for c in visible], f"{where}: heatmap of head {key}"
        found += len(seen_cells)
    # the letters on screen are the state's, each at its position (the start token has a name)
    letters_seen = {int(i): t for i, t in seen["letters"].items() if int(i) > 0}
    assert letters_seen == {i: t for i, t in enumerate(tokens) if i > 0}, f"{where}: the letters on screen {letters_seen}"
    return found + len(letters_seen)
