"""The engine's Page under CPython, fed the messages static/page.js sends: what it writes back."""

import json

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


def click(page, button):
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
    sent.append(click(page, "step-next"))
    assert [(a.get("step"), push) for a, push in addresses(sent)] == [("2", True)]
    sent.clear()
    sent.append(mask_on(page))
    assert addresses(sent) == []  # (not yet: in a task of its own)
    timers.fire()
    assert [(a.get("step"), a.get("mask"), push) for a, push in addresses(sent)] == [("2", "1", False)]
    sent.clear()
    sent.append(click(page, "step-exit"))
    assert [(a.get("step"), push) for a, push in addresses(sent)] == [(None, True)]


def test_a_step_left_before_its_last_change_was_written_gets_it_first():
    """The mask switched on and Next pressed before the address was written: the step's own entry
    gets the mask first, then step 2 comes in its new entry."""
    page, timers, sent = history_page([("path", "cost"), ("step", "1")])
    sent.clear()
    sent.append(mask_on(page))
    sent.append(click(page, "step-next"))
    assert [(a.get("step"), a.get("mask"), push) for a, push in addresses(sent)] == [("1", "1", False),
                                                                                     ("2", "1", True)]


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
