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


def click(page, button):
    """A click on the button of id `button`, as static/page.js sends it; the state JSON written back."""
    context = {"target": {"id": button, "className": "", "type": "button"}, "checked": {},
               "ids": list(render.ROW_PARTS.values()), "off": []}
    ops = json.loads(page.receive({"type": "click", "context": context}))
    return json.loads(next(op[3] for op in ops if op[:3] == ["set", [{"id": "attention-state"}], "textContent"]))


def test_next_then_back_on_the_generation_path_keeps_the_letters_typed_and_written():
    """Step 3 with «a b c a b» typed and four letters written: Next opens step 4 on the designed
    heads, Back comes to the same letters, the same four written, the same position selected."""
    page = started_page([("path", "generation"), ("step", "3"), ("s", "a b c a b"), ("generate", "4"),
                         ("focus", "2"), ("lang", "en")])
    state = click(page, "step-next")
    assert (state["step"], state["mode"]) == (4, "sentence")
    state = click(page, "step-prev")
    assert (state["step"], state["mode"], state["sentence"], state["focus"]) == (3, "model", "a b c a b", 2)
    assert len(state["model"]["generated"]) == 4 and state["model"]["tokens"][1:6] == list("abcab")


def test_bigbird_chosen_on_the_cost_paths_fifth_step_is_off_after_next():
    """BigBird with its window and random keys on step 5; Next: step 6 computes every cell again,
    as its text says FlashAttention does (the state's cells are the full n²)."""
    page = started_page([("path", "cost"), ("step", "5"), ("pattern", "bigbird"), ("window", "1"), ("random", "1"),
                         ("flash", "2"), ("lang", "en")])
    assert page.settings.pattern == "bigbird"
    state = click(page, "step-next")
    n = len(state["tokens"])
    assert state["step"] == 6 and state["cost"]["cells"] == n * (n - 1) == state["cost"]["full"] - n


def written_text(ops):
    """The text the page's thread is told to show (every innerHTML and textContent written but the
    state JSON's), tags taken out."""
    import html
    import re
    shown = [op[3] for op in json.loads(ops) if op[0] == "set" and op[2] in ("innerHTML", "textContent")
             and op[1] != [{"id": "attention-state"}] and isinstance(op[3], str)]
    return html.unescape(re.sub(r"<[^>]+>", " ", " ".join(shown)))


def test_an_italian_page_writes_no_number_with_a_decimal_point_on_any_step_or_explorer():
    """Every step of every registered path and the explorer of each mode, in Italian, the trained
    model's letters written: no number is written with a decimal point (0.5, 0.0, a float's 16
    digits); whole numbers keep their groups of three (1.000.000), a standard's name its own."""
    import re

    from app.views import registry
    from tests.path_reference import step_link
    point = re.compile(r"(?<![\w.,])\d+(?:\.\d+)+(?![\w])")
    links = [step_link(way.id, n, "it", step.mode) for way in registry.paths().values()
             for n, step in enumerate(way.steps, 1)]
    links += [[("lang", "it"), ("temp", "0.5"), ("pos", "0.25"), ("flash", "2")],
              [("lang", "it"), ("mode", "matrix"), ("q", "0.5,1.25;2,0.1"), ("temp", "2.5")],
              [("lang", "it"), ("mode", "model"), ("s", "a b c d a b"), ("generate", "5"), ("kv_heads", "2")]]
    for pairs in links:
        page = Page(Screen(lambda ops: None), Lexicons(), Timers())
        ops = page.receive({"type": "start", "framed": False, "address": {"base": "http://x/", "pairs": pairs},
                            "early": None, "state": "", "queue": []})
        said = written_text(ops).replace("SCORM 1.2", "")
        points = [p for p in point.findall(said) if not re.fullmatch(r"[1-9]\d{0,2}(?:\.\d{3})+", p)]
        assert points == [], (pairs, points)


class HeldTimers:
    """The engine's timers, fired when the test says (the address is written in a task after the
    event's own answer)."""

    def __init__(self):
        self.due = []

    def setTimeout(self, work, ms):  # noqa: N802 - the browser's name
        self.due.append(work)
        return len(self.due)

    proxy = staticmethod(lambda work: work)

    def fire(self):
        due, self.due = self.due, []
        for work in due:
            work()


def addresses(batches):
    """The address ops of these batches of ops (JSON texts), in order: [({name: value}, push)]."""
    return [(dict(pair.split("=", 1) for pair in op[1].split("?", 1)[1].split("&")), op[2])
            for batch in batches for op in json.loads(batch) if op[0] == "url"]


def published(batches):
    """The last state JSON these batches published."""
    return json.loads([op[3] for batch in batches for op in json.loads(batch)
                       if op[:3] == ["set", [{"id": "attention-state"}], "textContent"]][-1])


def history_page(pairs):
    """A started page with held timers, its start's address written: (page, timers, sent batches)."""
    sent, timers = [], HeldTimers()
    page = Page(Screen(sent.append), Lexicons(), timers)
    sent.append(page.receive({"type": "start", "framed": False, "address": {"base": "http://x/", "pairs": pairs},
                              "early": None, "state": "", "queue": []}))
    timers.fire()
    return page, timers, sent


def press(page, button):
    """A click on the button of id `button`: the ops written back (JSON text)."""
    return page.receive({"type": "click", "context": {"target": {"id": button, "type": "button"}, "checked": {},
                                                      "ids": [], "off": []}})


def mask_on(page):
    return page.receive({"type": "change", "context": {
        "target": {"name": "mask", "id": "mask", "type": "checkbox", "checked": True, "value": "on"},
        "checked": {}, "ids": [], "off": []}})


def test_a_step_entered_or_left_is_a_history_entry_and_any_other_change_replaces_it():
    """The start writes its address in the link's entry; Next writes step 2 at once in a new entry;
    the mask switched on there is written later in that same entry; leaving the path for the
    explorer is a new entry again."""
    page, timers, sent = history_page([("path", "cost"), ("step", "1")])
    assert [(a.get("path"), a.get("step"), push) for a, push in addresses(sent)] == [("cost", "1", False)]
    sent.clear()
    sent.append(press(page, "step-next"))
    assert [(a.get("step"), push) for a, push in addresses(sent)] == [("2", True)]
    sent.clear()
    sent.append(mask_on(page))
    assert addresses(sent) == []  # (not yet: in a task of its own)
    timers.fire()
    assert [(a.get("step"), a.get("mask"), push) for a, push in addresses(sent)] == [("2", "1", False)]
    sent.clear()
    sent.append(press(page, "step-exit"))
    assert [(a.get("step"), push) for a, push in addresses(sent)] == [(None, True)]


def test_a_step_left_before_its_last_change_was_written_gets_it_first():
    """The mask switched on and Next pressed before the address was written: the step's own entry
    gets the mask first, then step 2 comes in its new entry (with the mask off: step 2 does not own
    it, so entering it sets it back)."""
    page, timers, sent = history_page([("path", "cost"), ("step", "1")])
    sent.clear()
    sent.append(mask_on(page))
    sent.append(press(page, "step-next"))
    assert [(a.get("step"), a.get("mask"), push) for a, push in addresses(sent)] == [("1", "1", False),
                                                                                     ("2", "0", True)]


def test_the_browsers_back_applies_the_entrys_address_whole_in_that_entry():
    """Back from step 2 (mask on) to the entry of step 1 (mask off): the page shows step 1 with the
    mask off, as a reload of that address would, and writes it in that entry (no new one); an
    entry of the same step (a link to #about) leaves the page as it is and gets its address."""
    page, timers, sent = history_page([("path", "cost"), ("step", "2"), ("mask", "1")])
    sent.clear()
    sent.append(page.receive({"type": "address", "address": {"base": "http://x/", "pairs": [
        ["path", "cost"], ["step", "1"]]}}))
    state = published(sent)
    assert state["step"] == 1 and state["mask"] is False
    timers.fire()
    assert [(a.get("step"), a.get("mask"), push) for a, push in addresses(sent)] == [("1", "0", False)]
    sent.clear()
    sent.append(page.receive({"type": "address", "address": {"base": "http://x/", "pairs": [
        ["path", "cost"], ["step", "1"], ["mask", "1"]]}}))
    assert [(a.get("step"), a.get("mask"), push) for a, push in addresses(sent)] == [("1", "0", False)]
    assert not any(op[:3] == ["set", [{"id": "attention-state"}], "textContent"] for op in json.loads(sent[-1]))


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
