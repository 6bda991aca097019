"""Today's states, pinned: for each link of `LINKS` (the three labs, the formula's path and the
explorer, both languages), the state JSON the page publishes in #attention-state, byte for byte as
tests/data/golden-states.json holds it.

The page is driven as static/page.js starts it (app/page.py `Page.receive` with the link's decoded
parameters); the text compared is the one it writes into #attention-state. A failure names the link
and the first key path where the state differs.

One addition since the file was written: `cost` names its pattern (docs/DESIGN.md, "Cost of the
pattern"), four keys ahead of `cells` and `full`: `pattern`, `window`, `global`, `random`. The test
checks that they are there and equal to the link's own settings (worked from the link by the
contract's words), then drops exactly those four from the recomputed `cost` and requires the rest
byte for byte: nothing else may move.

A second addition, written into the data file once: `mixer` (the beyond lab's, docs/DESIGN.md,
"Beyond attention: `mixer`"), null in every state here (none of these links sets a mixer); the data
was rewritten for that key alone, every other byte as before.

Rewriting the data file: `python -m tests.test_golden_states --write` (see `write`).
"""

import json
import sys
from pathlib import Path
from urllib.parse import parse_qs, parse_qsl

import pytest

from app import settings as schema
from app.lexicon import Lexicons
from app.page import Page
from app.remote import Screen

DATA = Path(__file__).resolve().parent / "data" / "golden-states.json"

LINKS = (
    # the explorer
    "",
    "lang=en&s=The+cat+sleeps&focus=1",
    "s=Il+cane+abbaia&mask=1&self=1&focus=2",
    "mode=matrix",
    "lang=en&mode=matrix&seed=42&focus=3&scaled=0&temp=0.5",
    # the formula's path (step 12 is matrix mode's)
    "path=formula&step=1&s=Il+gatto+dorme",
    "path=formula&step=5&s=Il+gatto+dorme&focus=2",
    "lang=en&step=9&s=The+cat+sleeps&focus=0",
    "step=12&s=Il+gatto+dorme&focus=1&mask=1",
    # the position lab: its path's seven steps, then its settings in the explorer and matrix mode
    "path=position&step=1&s=Il+gatto+insegue+il+topo&focus=2",
    "path=position&step=2&position=sinusoidal&s=Il+gatto+dorme&focus=2",
    "path=position&step=3&position=sinusoidal&offset=5&s=Il+gatto+dorme&focus=1",
    "lang=en&path=position&step=4&position=rope&rope_key=0&s=The+cat+sleeps&focus=2",
    "path=position&step=5&position=rope&base=10000&s=Il+gatto+dorme&focus=2",
    "path=position&step=6&position=alibi&head=1&s=Il+gatto+dorme&focus=2",
    "lang=en&path=position&step=7&position=alibi&pos=0.5&s=The+cat+sleeps&focus=1",
    "path=position",
    "position=rope&offset=3&s=Il+gatto+dorme&focus=1&mask=1&self=1",
    "lang=en&position=sinusoidal&base=100&s=The+cat+sleeps&focus=0",
    "mode=matrix&position=sinusoidal&seed=3&focus=2",
    "mode=matrix&position=rope&offset=2&q=1,0;0,1;1,1",
    "mode=matrix&position=alibi&focus=1",
    # the cost lab: its path's seven steps, then its patterns and FlashAttention's tiles
    "path=cost&step=1&s=Il+gatto+dorme",
    "lang=en&path=cost&step=2&s=The+cat+sleeps",
    "path=cost&step=3&pattern=window&window=2&self=1&focus=4&s=Il+gatto+seduto+sul+tappeto+dormiva+e+la+luna",
    "path=cost&step=4&pattern=local_global&window=1&global=0,3&s=Il+gatto+seduto+sul+tappeto&focus=4",
    "path=cost&step=5&pattern=bigbird&window=1&global=0&random=2&seed=7&s=Il+gatto+seduto+sul+tappeto+dormiva&focus=5",
    "path=cost&step=6&flash=2&flash_step=1&s=Il+gatto+dorme+sul+tappeto&focus=3",
    "lang=en&path=cost&step=7&pattern=linear&mask=1&self=1&s=The+cat+sleeps&focus=2",
    "pattern=window&window=0&mask=1&self=1&s=Il+gatto+dorme&focus=2",
    "pattern=bigbird&s=Il+gatto+seduto+sul+tappeto&focus=1",
    "pattern=local_global&global=5,0,5&window=0&s=Il+gatto+seduto+sul+tappeto+dormiva&focus=2",
    "lang=en&pattern=local_global&global=0,9&s=The+cat+sat+down&focus=3",
    "mode=matrix&seed=42&pattern=window&window=1&mask=1&self=1&focus=3",
    "mode=matrix&pattern=linear&focus=1",
    "flash=3&s=Il+gatto+seduto+sul+tappeto&focus=2",
    "lang=en&flash=1&pattern=window&window=1&s=The+cat+sat+down&focus=1",
    # the generation lab: its path's six steps (model and sentence mode), then model mode's own links
    "path=generation&step=1&s=abcab&focus=3",
    "path=generation&step=2&generate=3&s=abab",
    "lang=en&path=generation&step=3&generate=5&kv_heads=2&s=abc",
    "path=generation&step=4&kv_heads=2&s=Il+gatto+dorme&focus=2",
    "lang=en&path=generation&step=4&kv_heads=1&wk=1,0,0,0;0,1,0,0;0,0,1,0;0,0,0,0&s=The+cat+sleeps&focus=1",
    "path=generation&step=5&s=Il+gatto+dorme&focus=0",
    "path=generation&step=6&window=3&s=abcabc",
    "mode=model&generate=4&s=abc",
    "lang=en&mode=model&kv_heads=1&s=abab&focus=3",
    "mode=model&window=2&generate=3&s=abcab",
    "kv_heads=2&s=Il+cane+abbaia&focus=1",
    "mode=model&checkpoint=600&s=ab",
)


class Timers:
    """Timers that never fire (the address the page writes later is not what is compared)."""

    @staticmethod
    def setTimeout(work, ms):  # noqa: N802 - the browser's name
        return 0

    proxy = staticmethod(lambda work: work)


def published(link, lexicons):
    """The state JSON text a page opened at `link` writes into #attention-state, started as
    static/page.js starts it (the address's parameters decoded as URLSearchParams decodes them).
    The link must read without a note (it is meant right) and the start must raise nothing."""
    _, notes = schema.parse_params(link, lexicons)
    assert notes == [], f"{link!r} reads with notes {[n.key for n in notes]}: a golden link must be meant right"
    page = Page(Screen(lambda ops: None), lexicons, Timers())
    ops = json.loads(page.receive({"type": "start", "framed": False, "early": None, "state": "", "queue": [],
                                   "address": {"base": "http://x/",
                                               "pairs": parse_qsl(link, keep_blank_values=True)}}))
    errors = [op[2] for op in ops if op[:2] == ["console", "error"]]
    assert not errors, f"{link!r}: the page's start failed:\n{errors[0]}"
    states = [op[3] for op in ops if op[:3] == ["set", [{"id": "attention-state"}], "textContent"]]
    assert states, f"{link!r}: the page published no state"
    return states[-1]


COST_NAMES = ("pattern", "window", "global", "random")  # the keys `cost` gained after the file was written
WINDOWED = ("window", "local_global", "bigbird")  # the patterns with a window (w = 2 when the link gives none)


def written(state):
    """A state as the page writes it (app/contract.py: json.dumps, no ASCII escapes, no '<')."""
    return json.dumps(state, ensure_ascii=False, allow_nan=False).replace("<", "\\u003c")


def names_of(link, n):
    """What `cost` must name for `link` on a text of n positions, by the contract's words: the
    pattern; its window (2 by default) if it has one; the global positions sorted, once each,
    inside the text, if it has them; bigbird's random keys a row (2 by default)."""
    given = {key: values[0] for key, values in parse_qs(link, keep_blank_values=True).items()}
    pattern = given.get("pattern", "full")
    globals_ = sorted({int(g) for g in given.get("global", "").split(",") if g and int(g) < n})
    return {"pattern": pattern,
            "window": int(given.get("window", 2)) if pattern in WINDOWED else None,
            "global": globals_ if pattern in ("local_global", "bigbird") else [],
            "random": int(given.get("random", 2)) if pattern == "bigbird" else None}


def as_kept(link, text):
    """The text the page published for `link` in the form the file keeps: its `cost` without the
    four names, once they are found right (first in `cost`, equal to `names_of` the link). The
    rest is the page's text, to the byte: a text json.dumps would not write the same is refused,
    so reading and writing it again changes nothing but the four keys."""
    state = json.loads(text)
    assert written(state) == text, f"{link!r}: the state is not written as json.dumps writes it"
    cost = state["cost"]
    if cost is not None:
        assert tuple(cost)[:len(COST_NAMES)] == COST_NAMES, f"{link!r}: cost names {list(cost)}"
        named = {key: cost.pop(key) for key in COST_NAMES}
        n_k = len(state["tokens"])  # (matrix mode: one token a key; n_q·n_k cells in all)
        meant = names_of(link, max(n_k, cost["full"] // n_k))
        assert named == meant, f"{link!r}: cost names {named}, the link sets {meant}"
    return written(state)


def first_difference(kept, now, where="state"):
    """The first key path (in the kept state's order) where two parsed states differ, e.g.
    `state.rows[2].weight` or `state.cost (keys or their order)`; None when they are equal (type
    and value: 1 and 1.0 differ, as their texts do)."""
    if type(kept) is not type(now):
        return where
    if isinstance(kept, dict):
        for key in kept:
            if key not in now:
                return f"{where}.{key} (gone)"
            found = first_difference(kept[key], now[key], f"{where}.{key}")
            if found:
                return found
        if list(kept) != list(now):
            return f"{where} (keys or their order: {list(kept)} → {list(now)})"
        return None
    if isinstance(kept, list):
        for i, (a, b) in enumerate(zip(kept, now)):
            found = first_difference(a, b, f"{where}[{i}]")
            if found:
                return found
        return None if len(kept) == len(now) else f"{where} (length {len(kept)} → {len(now)})"
    return None if kept == now else where


def value_at(state, path):
    """The value at a path `first_difference` names (its first words only), written short."""
    value = state
    for part in path.split(" ")[0].replace("[", ".[").split(".")[1:]:
        try:
            value = value[int(part[1:-1])] if part.startswith("[") else value[part]
        except (KeyError, IndexError, TypeError):
            return "(none)"
    text = json.dumps(value, ensure_ascii=False)
    return text if len(text) <= 120 else text[:117] + "..."


def difference_message(link, kept, now):
    """What a failure says: the link, the first key path that differs, both values there."""
    a, b = json.loads(kept), json.loads(now)
    where = first_difference(a, b)
    if where is None:
        return f"{link!r}: the same values, written differently (e.g. a float's digits or spacing)"
    return f"{link!r}: the state differs first at {where}: kept {value_at(a, where)}, now {value_at(b, where)}"


def kept_states():
    return json.loads(DATA.read_text(encoding="utf-8"))


@pytest.fixture(scope="module")
def page_lexicons():
    return Lexicons()


def test_the_file_holds_a_state_for_every_link_and_for_no_other():
    """Each link below has its kept state, and the file keeps none for a link no longer tested."""
    assert list(kept_states()) == list(LINKS)


@pytest.mark.parametrize("link", LINKS)
def test_the_page_publishes_todays_state_byte_for_byte(link, page_lexicons):
    """The state a host page, a test or a course author's script reads at this link is the kept
    one, to the byte: the same keys in the same order, the same numbers to the last digit; only
    `cost` names its pattern now, as the link sets it (`as_kept`)."""
    kept = kept_states()[link]
    now = as_kept(link, published(link, page_lexicons))
    assert now == kept, difference_message(link, kept, now)


@pytest.mark.parametrize("link, wrong", [
    ("pattern=bigbird&window=1&global=0&random=2&s=Il+gatto+dorme", {"random": 3}),
    ("pattern=local_global&global=5,0&s=Il+gatto+dorme", {"global": [0, 5]}),
    ("s=Il+gatto+dorme", {"window": 2}),
])
def test_cost_names_other_than_the_links_settings_are_refused(link, wrong):
    """Dropping the four names is no blind spot: a `cost` naming another random count, a global
    position past the text, or a window under `full`, fails."""
    state = {"tokens": [{}, {}, {}], "cost": {**names_of(link, 3), "cells": 6, "full": 9}}
    as_kept(link, written(state))
    state["cost"].update(wrong)
    with pytest.raises(AssertionError, match="cost names"):
        as_kept(link, written(state))


def test_a_difference_is_named_by_its_first_key_path():
    """The failure message points at the first differing key: a weight inside `rows`, a key gone
    from `cost`, a key order changed, an integer become a float."""
    state = {"focus": 1, "rows": [{"weight": 0.5}, {"weight": 0.25}], "cost": {"cells": 6, "full": 9}}
    changed = json.loads(json.dumps(state))
    changed["rows"][1]["weight"] = 0.3
    assert first_difference(state, changed) == "state.rows[1].weight"
    assert "kept 0.25, now 0.3" in difference_message("x", json.dumps(state), json.dumps(changed))
    del changed["cost"]["full"]
    assert first_difference(state, changed) == "state.rows[1].weight"
    changed["rows"][1]["weight"] = 0.25
    assert first_difference(state, changed) == "state.cost.full (gone)"
    reordered = {"rows": state["rows"], "focus": 1, "cost": state["cost"]}
    assert first_difference(state, reordered).startswith("state (keys or their order")
    assert first_difference(state, dict(state, focus=1.0)) == "state.focus"
    assert first_difference(state, json.loads(json.dumps(state))) is None


def write():
    """Rewrite tests/data/golden-states.json from the page as it is now, one line a link.

    Run it only when a change of the state is intended and named in docs/DESIGN.md (the contract
    host pages rely on): the file then records the new states, and the diff shows every number
    and key the change moved. Run for any other reason, it records whatever the code does now, and
    this test guards nothing. Each state is kept as the test compares it (`as_kept`: `cost`
    without its four names, checked against the link first)."""
    lexicons = Lexicons()
    lines = [f"{json.dumps(link)}: {json.dumps(as_kept(link, published(link, lexicons)), ensure_ascii=False)}"
             for link in LINKS]
    DATA.parent.mkdir(parents=True, exist_ok=True)
    DATA.write_text("{\n" + ",\n".join(lines) + "\n}\n", encoding="utf-8")
    print(f"wrote {len(lines)} states to {DATA}")


if __name__ == "__main__":
    if sys.argv[1:] != ["--write"]:
        sys.exit("usage: python -m tests.test_golden_states --write\n"
                 "(only for a change of state named in docs/DESIGN.md)")
    write()
