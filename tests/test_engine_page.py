"""The engine's Page under CPython, fed the messages static/page.js sends: what it writes back."""

import json
import re

from app import render
from app.lexicon import Lexicons
from app.page import Page
from app.remote import Screen


class Timers:
    """Timers that never fire (the address written later is not what these tests read)."""

    @staticmethod
    def setTimeout(work, ms):  # noqa: N802 - the browser's name
        return 0

    proxy = staticmethod(lambda work: work)


def started_page(query_pairs=()):
    page = Page(Screen(lambda ops: None), Lexicons(), Timers())
    page.receive({"type": "start", "framed": False, "address": {"base": "http://x/", "pairs": list(query_pairs)},
                  "early": None, "state": "", "queue": []})
    return page


def test_a_picked_word_is_checked_by_the_answer_even_if_its_radio_was_redrawn_meanwhile():
    """The answer to a word's click checks that word's radio itself: a click sent while an earlier
    answer redrew the words (the engine's start) still leaves its word checked, not the old one."""
    page = started_page([("s", "Il cane guarda la palla"), ("focus", "1")])
    context = {"target": {"name": "word", "value": "3", "type": "radio", "checked": True},
               "checked": {"word": "3"}, "ids": list(render.ROW_PARTS.values()), "off": []}
    ops = json.loads(page.receive({"type": "change", "context": context}))
    assert ["set", [{"id": "sentence"}, ["q", 'input[name="word"][value="3"]']], "checked", True] in ops
    state = next(op[3] for op in ops if op[:3] == ["set", [{"id": "attention-state"}], "textContent"])
    assert json.loads(state)["focus"] == 3


def test_another_head_under_alibi_rewrites_what_the_distance_slider_says():
    """On the position lab's ALiBi step the Head menu changes the paper slope that applies: the
    slider's words follow (m = 1/16 for head 1), where they would have said "off"."""
    page = started_page([("s", "Il cane guarda la palla"), ("focus", "1"), ("position", "alibi"),
                         ("path", "position"), ("step", "6")])
    context = {"target": {"name": "head", "value": "1", "type": "select-one"},
               "checked": {}, "ids": list(render.ROW_PARTS.values()) + ["pos-value", "pos"], "off": []}
    ops = json.loads(page.receive({"type": "change", "context": context}))
    said = [op[3] for op in ops if op[:3] == ["set", [{"id": "pos-value"}], "textContent"]]
    assert said == ["m = 0,0625, quella di ALiBi per questa testa"]


def test_a_step_draws_only_its_views_and_a_word_click_there_changes_them_in_place():
    """The formula's step 3 shows the question and the table: the page draws those two and none of
    the views the step hides (the bars, the grid, the new card); a word click there brings both to
    the new word in place, the question now that of «la», without drawing the analysis again."""
    page = Page(Screen(lambda ops: None), Lexicons(), Timers())
    ops = json.loads(page.receive({"type": "start", "framed": False, "early": None, "state": "", "queue": [],
                                   "address": {"base": "http://x/", "pairs": [("s", "Il cane guarda la palla"),
                                                                              ("focus", "1"), ("step", "3")]}}))
    html = next(op[3] for op in ops if op[:3] == ["set", [{"id": "analysis"}], "innerHTML"])
    assert re.findall(r'<section id="view-([\w-]+)"', html) == ["query", "table"]
    on_page = [part for part in render.ROW_PARTS.values() if f'id="{part}"' in html]  # (as static/page.js sends)
    context = {"target": {"name": "word", "value": "3", "type": "radio", "checked": True},
               "checked": {"word": "3"}, "ids": on_page, "off": []}
    ops = json.loads(page.receive({"type": "change", "context": context}))
    assert not [op for op in ops if op[:3] == ["set", [{"id": "analysis"}], "innerHTML"]]
    changed = {op[2][0]["$"][0]["id"]: op[2][1] for op in ops if op[0] == "helper" and op[1] in ("patch", "redrawPart")}
    assert set(changed) == {"view-table", "query-row"} and "La domanda di «la»" in changed["query-row"]
    state = next(op[3] for op in ops if op[:3] == ["set", [{"id": "attention-state"}], "textContent"])
    assert json.loads(state)["focus"] == 3
