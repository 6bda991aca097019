"""The numbers each answer of the guided path should quote, worked out with numpy from a state's
inputs (the cards, the matrices and the switches of the state JSON: docs/DESIGN.md), never from
its computed numbers, and written by the design's rule (tests/reference.py). Shared by the
CPython test of app/path_answers.py and the browser's walk of the path."""

import re

import numpy as np

from tests.reference import attention_matrix, rule_percent, shown, shown_short

NUMBER = re.compile(r"−?\d+(?:[.,]\d+)?%?")
WORDS = {"it": {"cat": "gatto", "mat": "tappeto", "slept": "dormiva"},
         "en": {"cat": "cat", "mat": "mat", "slept": "slept"}}


def quoted(text):
    """The numbers a text quotes, in order, leaving out those in names (W_Q, e^logit, layer 2)."""
    for name in ("W_Q", "e^logit", "strato 1", "strato 2", "layer 1", "layer 2"):
        text = text.replace(name, "")
    return NUMBER.findall(text)


def where(state, word):
    return next(j for j, t in enumerate(state["tokens"]) if t["text"].lower() == word)


def head_run(state, w_q, w_k=None, w_v=None, **change):
    """numpy's attention for the state's cards with one head's matrices and the state's switches
    (`change` overrides them: mask, include_self, scaled, slope)."""
    x = np.array([t["card"] for t in state["tokens"]], dtype=float)
    eye = np.eye(x.shape[1])
    options = dict(mask=state["mask"], include_self=state["include_self"], scaled=state["scaled"],
                   temperature=state["temperature"], slope=state["position_bias"])
    options.update(change)
    q = x @ np.array(w_q)
    k = x @ (eye if w_k is None else np.array(w_k))
    v = x @ (eye if w_v is None else np.array(w_v))
    return attention_matrix(q, k, v, **options), q, k, v


def run(state, **change):
    return head_run(state, state["w_q"], state["w_k"], state["w_v"], **change)


def pct(w, lang, decimals=1):
    return rule_percent(w, decimals, lang)


def expected(step, state, lang):
    """The numbers the answer of step `step` (its id) should quote, in order."""
    return EXPECT[step](state, lang, {k: v for k, v in WORDS[lang].items()})


def _cards(state, lang, w):
    a = np.array(state["tokens"][where(state, w["cat"])]["card"])
    b = np.array(state["tokens"][where(state, w["mat"])]["card"])
    order = sorted(range(len(a)), key=lambda c: (-abs(a[c] - b[c]), c))
    return [shown_short(x, 2, lang) for c in order[:2] for x in (a[c], b[c])]


def _query(state, lang, w):
    m, q, _, _ = run(state)
    row = q[where(state, w["slept"])]
    order = sorted(range(len(row)), key=lambda c: (-row[c], c))
    return [shown_short(x, 3, lang) for x in row] + [shown_short(row[order[0]], 3, lang),
                                                      shown_short(row[order[1]], 3, lang)]


def _dots(state, lang, w):
    m, q, k, _ = run(state)
    i = where(state, w["slept"])
    idx = sorted(np.flatnonzero(m["allowed"][i]), key=lambda j: (-m["dots"][i, j], j))
    best, nxt = idx[0], idx[1]
    worked = [shown_short(x, 3, lang) for pair in zip(q[i], k[best]) for x in pair]
    return worked + [shown(m["dots"][i, best], 3, lang), shown(m["dots"][i, nxt], 3, lang)]


def _scale(state, lang, w):
    on, _, _, _ = run(state, scaled=True)
    off, _, _, _ = run(state, scaled=False)
    i = where(state, w["slept"])
    idx = sorted(np.flatnonzero(on["allowed"][i]), key=lambda j: (-on["weights"][i, j], j))
    top = idx[0]
    if state["scaled"]:  # the logit on screen becomes twice itself; the table's percentage now
        return [shown(on["logits"][i, top], 3, lang), shown(off["logits"][i, top], 3, lang),
                pct(on["weights"][i, top], lang)]
    return [shown(off["logits"][i, top], 3, lang), shown(on["logits"][i, top], 3, lang),
            pct(off["weights"][i, top], lang)]


def _softmax(state, lang, w):
    m, _, _, _ = run(state)
    i = where(state, w["slept"])
    idx = list(np.flatnonzero(m["allowed"][i]))
    logits = m["logits"][i]
    groups = {}
    for j in idx:
        groups.setdefault(logits[j], []).append(j)
    tied = max(groups.values(), key=lambda g: (len(g), -g[0]))
    head = ["1", "100%"]
    if len(tied) > 1:
        return head + [shown(logits[tied[0]], 3, lang), pct(m["weights"][i, tied[0]], lang)]
    _, a, b = min((abs(logits[a] - logits[b]), a, b) for a in idx for b in idx if a < b)
    return head + [shown(logits[a], 3, lang), shown(logits[b], 3, lang), pct(m["weights"][i, a], lang),
                   pct(m["weights"][i, b], lang)]


def _mask(state, lang, w):
    """The second word's row on screen: nothing before the mask is on; then the first word's share
    (and, with the word itself, its own)."""
    if not state["mask"]:
        return []
    m, _, _, _ = run(state)
    if state["include_self"]:
        return [pct(m["weights"][1, 0], lang, 0), pct(m["weights"][1, 1], lang, 0)]
    return [pct(m["weights"][1, 0], lang, 0)]


def _values(state, lang, w):
    m, _, _, v = run(state)
    i = where(state, w["slept"])
    parts = {j: m["weights"][i, j] * v[j, 0] for j in np.flatnonzero(m["allowed"][i])}
    idx = sorted((j for j in parts if parts[j] != 0), key=lambda j: (-parts[j], j))
    out = []
    for j in idx[:3]:
        out += [pct(m["weights"][i, j], lang), shown_short(v[j, 0], 2, lang), shown(parts[j], 3, lang)]
    if len(idx) > 3:
        out += [str(len(idx) - 3), shown(sum(parts[j] for j in idx[3:]), 3, lang)]
    total = m["output"][i, 0]
    return out + [shown(total, 3, lang), shown_short(total, 2, lang)]


def _matrix(state, lang, w):
    n = len(state["tokens"])
    return [str(x) for x in (n, n, n * n, 2 * n, 2 * n, 2 * n, 4 * n * n, 0)]  # (0: the masked half)


def _heads(state, lang, w):
    i = where(state, w["slept"])
    out = []
    for head in state["heads"]:
        m, _, _, _ = head_run(state, head["w_q"], head["w_k"], head["w_v"])
        idx = list(np.flatnonzero(m["allowed"][i]))
        shown_w = {j: pct(m["weights"][i, j], lang, 0) for j in idx}
        top = pct(max(m["weights"][i, j] for j in idx), lang, 0)
        best = [j for j in idx if shown_w[j] == top]
        out += ([str(len(idx)), top] if len(best) == len(idx) and len(idx) > 1 else [top])
    return out


def _order(state, lang, w):
    if state["mask"] or state["position_bias"]:  # (the swap is asked with both off: no number till then)
        return []
    m, _, _, _ = run(state)
    i = where(state, w["slept"])
    return [pct(m["weights"][i, where(state, w["cat"])], lang, 0), pct(m["weights"][i, where(state, w["mat"])], lang, 0)]


def _layer2(state, lang, w):
    """Layer 2's card of "slept": the heads' outputs side by side, times W_O (its first number)."""
    i = where(state, w["slept"])
    outs = [head_run(state, h["w_q"], h["w_k"], h["w_v"])[0]["output"][i] for h in state["heads"]]
    card = np.concatenate(outs) @ np.array(state["w_o"])
    return [shown_short(state["tokens"][i]["card"][0], 3, lang), shown_short(card[0], 3, lang)]


def _hands_on(state, lang, w):
    q = np.array(state["matrix"]["queries"])
    k = np.array(state["matrix"]["keys"])
    m = attention_matrix(q, k, k, mask=True, include_self=state["include_self"], scaled=state["scaled"],
                         temperature=state["temperature"], slope=state["position_bias"])
    n, n_k = len(q), len(k)
    if not state["mask"]:  # (the mask not on yet: what it will do, in words)
        return [str(n), str(n_k), "0"]
    return [str(n), str(n_k), "0"] + ([pct(m["weights"][0, 0], lang, 0)] if m["allowed"][0, 0] else [])


EXPECT = {"cards": _cards, "query": _query, "dots": _dots, "scale": _scale, "softmax": _softmax, "mask": _mask,
          "values": _values, "matrix": _matrix, "heads": _heads, "order": _order, "layer2": _layer2,
          "hands-on": _hands_on}


# -- every registered path: its steps' links and the settings a student changes on them ----------

# The student's own work: no step owns it, and entering a step keeps it (docs/DESIGN.md).
WORK = ("lang", "sentence", "text", "focus", "generate")
LETTERS = "a b c d e f g h a b c"  # typed on a step of the trained model, before it writes
WRITTEN = 3  # the letters the model has written there
# Where a mode's defaults are not the schema's (docs/DESIGN.md: matrix mode includes the row itself,
# the trained model is causal and each position sees itself).
MODE_DEFAULTS = {"matrix": {"include_self": True}, "model": {"mask": True, "include_self": True}}


def step_link(name, number, lang, mode):
    """The query pairs of a link to step `number` of path `name` in `lang`, as a student opens it
    (a step of the trained model with letters typed and some written)."""
    pairs = [("lang", lang), ("path", name), ("step", str(number))]
    if mode == "model":
        pairs += [("s", LETTERS), ("generate", str(WRITTEN))]
    return pairs


def mode_default(setting, mode):
    return MODE_DEFAULTS.get(mode, {}).get(setting.attr, setting.default)


def another_value(setting):
    """A value of `setting` other than its default, as its control or a host page may set it: a
    switch turned, the last other choice, a number a little above its default (or its least + 2
    when it has none), the first word for a list of words."""
    if setting.kind == "flag":
        return not setting.default
    if setting.choices:
        return [c for c in setting.choices if c != setting.default][-1]
    if setting.kind == "text":
        return "0"
    if setting.default is None:
        value = setting.low + 2
    else:
        value = setting.default + 1
    return min(value, setting.high) if setting.kind == "integer" else float(min(value, setting.high))


def fresh_message(settings, schema):
    """An `attention:set` message giving every setting a host page may set its value in `settings`
    (app/settings.py's `schema`), so that it opens what a link to them opens, from any state (a
    value a host message cannot say, none for a number that is never none, is left out)."""
    message = {"type": "attention:set"}
    for setting in schema.SCHEMA:
        value = getattr(settings, setting.attr)
        if setting.host is None or value is None and setting.kind in ("number", "integer", "text") \
                and not setting.nullable:
            continue
        message[setting.host] = [list(row) for row in value] if setting.kind == "matrix" and value else value
    return message
