"""FlashAttention's tiles (app/flash.py, `flash`): the row over blocks of B keys ends at the row's
output, each block's m, α, l and o follow the recurrence, and the state carries them."""

import math

import numpy as np
import pytest
from hypothesis import given, settings as hsettings, strategies as st

from app import flash
from tests.contract_check import assert_valid_state, state_for_link as state_of


def reference_output(logits, values):
    """softmax over the candidates (None: not one) · V, in numpy."""
    idx = [j for j, s in enumerate(logits) if s is not None]
    if not idx:
        return None
    s = np.array([logits[j] for j in idx])
    w = np.exp(s - s.max())
    w /= w.sum()
    return w @ np.array([values[j] for j in idx])


def reference_steps(logits, values, block):
    """The recurrence written out again, one block at a time, in numpy: [(m, alpha, l, o)]."""
    m, l, o, out = None, 0.0, np.zeros(len(values[0])), []
    for start in range(0, len(logits), block):
        idx = [j for j in range(start, min(start + block, len(logits))) if logits[j] is not None]
        alpha = None
        if idx:
            new = max([logits[j] for j in idx] + ([] if m is None else [m]))
            alpha = 0.0 if m is None else np.exp(m - new)
            e = np.exp(np.array([logits[j] for j in idx]) - new)
            l = alpha * l + e.sum()
            o = alpha * o + e @ np.array([values[j] for j in idx])
            m = new
        out.append((m, alpha, l, o.copy()))
    return out


rows = st.integers(1, 12).flatmap(lambda n: st.tuples(
    st.lists(st.one_of(st.none(), st.floats(-30, 30)), min_size=n, max_size=n),
    st.lists(st.lists(st.floats(-5, 5), min_size=3, max_size=3), min_size=n, max_size=n)))


@hsettings(max_examples=60, deadline=None)
@given(rows)
def test_every_block_size_ends_at_the_rows_softmax_output(row):
    """For random logits (some keys masked) and values, every B from 1 to n gives softmax·V."""
    logits, values = row
    expected = reference_output(logits, values)
    for block in range(1, len(logits) + 1):
        got = flash.tiles(logits, values, block)["output"]
        if expected is None:
            assert got is None
        else:
            np.testing.assert_allclose(got, expected, rtol=1e-12, atol=1e-12)


@hsettings(max_examples=60, deadline=None)
@given(rows, st.integers(1, 12))
def test_each_blocks_m_alpha_l_and_o_follow_the_recurrence(row, block):
    """Each step's numbers are those of the recurrence computed again in numpy, block by block."""
    logits, values = row
    steps = flash.tiles(logits, values, block)["steps"]
    assert [s["keys"] for s in steps] == [[a, min(a + block, len(logits))] for a in range(0, len(logits), block)]
    for step, (m, alpha, l, o) in zip(steps, reference_steps(logits, values, block)):
        assert step["m"] == m
        assert (step["alpha"] is None) == (alpha is None)
        if alpha is not None:
            assert math.isclose(step["alpha"], alpha, rel_tol=1e-12)
        assert math.isclose(step["l"], l, rel_tol=1e-12)
        np.testing.assert_allclose(step["o"], o, rtol=1e-12, atol=1e-12)


def test_a_hand_worked_row_of_three_keys_in_blocks_of_two():
    """logits 1, 3, 2 and values 10, 0, 5 in blocks of 2: m 3, α 1, then l = 1 + e^−2 + e^−1."""
    got = flash.tiles([1.0, 3.0, 2.0], [[10.0], [0.0], [5.0]], 2)
    first, second = got["steps"]
    assert first["keys"] == [0, 2] and first["m"] == 3.0 and first["alpha"] == 0.0
    assert math.isclose(first["l"], math.exp(-2) + 1)
    assert math.isclose(first["o"][0], 10 * math.exp(-2))
    assert second["keys"] == [2, 3] and second["m"] == 3.0 and second["alpha"] == 1.0  # no new maximum
    assert math.isclose(second["l"], math.exp(-2) + 1 + math.exp(-1))
    l = math.exp(-2) + 1 + math.exp(-1)
    assert math.isclose(got["output"][0], (10 * math.exp(-2) + 5 * math.exp(-1)) / l)


def test_a_block_with_no_candidate_changes_nothing_and_a_row_with_none_has_no_output():
    """Masked keys only in a block: m, l, o stay; no candidate at all: m stays null, no output."""
    got = flash.tiles([None, None, 2.0], [[1.0], [2.0], [3.0]], 2)
    assert got["steps"][0]["m"] is None and got["steps"][0]["l"] == 0.0
    assert got["steps"][1]["m"] == 2.0 and got["output"] == [3.0]
    assert flash.tiles([None, None], [[1.0], [2.0]], 1)["output"] is None




@pytest.mark.parametrize("query", ["s=Il+gatto+seduto+sul+tappeto+dormiva&focus=5&flash=2",
                                   "s=Il+gatto+seduto+sul+tappeto+dormiva&focus=2&mask=1&self=1&flash=4",
                                   "mode=matrix&seed=42&focus=3&flash=3"])
def test_the_states_flash_ends_at_the_rows_output_in_sentence_and_matrix_mode(query, lexicons):
    """state.flash: one step a block, the contract's fields, and output = matrix.output[focus]."""
    state = state_of(query, lexicons)
    assert_valid_state(state)
    field, focus = state["flash"], state["focus"]
    n = len(state["matrix"]["weights"][focus])
    assert field["block"] == int(query.rsplit("flash=", 1)[1])
    assert [s["keys"][0] for s in field["steps"]] == list(range(0, n, field["block"]))
    assert set(field["steps"][0]) == {"keys", "m", "l", "o"}
    np.testing.assert_allclose(field["output"], state["matrix"]["output"][focus], rtol=1e-12)


def test_without_flash_the_state_has_none(lexicons):
    """Off by default: no `flash` parameter, state.flash is null."""
    assert state_of("s=Il+gatto+dorme&focus=1", lexicons)["flash"] is None


# -- FlashAttention's step on the cost path (step 6), as the engine's Page draws it --------------

class StepPage:
    """The engine's Page fed the messages static/page.js sends; what it last wrote back."""

    def __init__(self, link, lexicons):
        from urllib.parse import parse_qsl

        from app.page import Page
        from app.remote import Screen
        from tests.test_engine_page import Timers
        self.page, self.html = Page(Screen(lambda ops: None), lexicons, Timers()), []
        self.take({"type": "start", "framed": False, "early": None, "state": "", "queue": [],
                   "address": {"base": "http://x/", "pairs": parse_qsl(link)}})

    def take(self, message):
        import json
        for op in json.loads(self.page.receive(message) or "[]"):
            if op[0] == "set" and op[2] in ("innerHTML", "outerHTML"):
                self.html.append(op[3])
            if op[:2] == ["helper", "redrawPart"]:  # (a row part drawn again in place)
                self.html.append(op[2][1])
            if op[:3] == ["set", [{"id": "attention-state"}], "textContent"]:
                self.state = json.loads(op[3])

    def click(self, button):
        from app import render
        self.take({"type": "click", "context": {"target": {"id": button, "className": "", "type": "button"},
                                                "checked": {}, "ids": list(render.ROW_PARTS.values()), "off": []}})

    def type_sentence(self, sentence):
        self.take({"type": "submit", "context": {"target": {"id": "sentence-form"}, "checked": {}, "ids": [],
                                                 "off": [], "values": {"sentence-input": sentence}}})

    def view(self):
        """The flash view's HTML as last drawn (its row part, or the page holding it)."""
        return next((h for h in reversed(self.html) if 'id="flash-block"' in h), "")

    def link(self):
        from app import settings as schema
        return "&".join(f"{k}={v}" for k, v in schema.param_pairs(self.page.settings))


def table_rows(html):
    """(reached, not yet computed) rows of the blocks' table."""
    import re
    rows = re.findall(r"<tr([^>]*data-block[^>]*)>", html)
    later = [r for r in rows if "flash-later" in r]
    return len(rows) - len(later), len(later)


def button(html, name):
    """The block button `name` (prev, next, all): 'on' or 'disabled'."""
    import re
    tag = re.search(rf'<button type="button" id="flash-{name}"([^>]*)>', html)
    assert tag, f"no #flash-{name}"
    return "disabled" if "disabled" in tag[1] else "on"


def reference_row(state, lang):
    """The selected row's logits (None: no candidate) and values, from the lexicon files' cards and
    the designed W_Q in numpy (W_K = W_V = I, ÷ √4, the word itself and the mask as the state says)."""
    from tests.reference import W_Q, attention_row, lexicon_cards
    cards = lexicon_cards(lang)
    x = [cards[t["text"].lower()] for t in state["tokens"]]
    _, scores, _, allowed = attention_row(x, W_Q, state["focus"], state["mask"], state["include_self"])
    return [float(s) if ok else None for s, ok in zip(scores, allowed)], x


@pytest.mark.parametrize("lang", ["it", "en"])
@pytest.mark.parametrize("how", ["link", "next"])
def test_flashattentions_step_opens_at_block_one_and_all_blocks_shows_the_whole_table(lang, how, lexicons):
    """Entering step 6 (its link, or Next from step 5) shows block 1 of the selected row with "Next
    block" on; Next reaches block 2; "All blocks" every block and the end line, and its address
    opens every block again."""
    if how == "link":
        page = StepPage(f"lang={lang}&path=cost&step=6", lexicons)
    else:
        page = StepPage(f"lang={lang}&path=cost&step=5&pattern=bigbird", lexicons)
        page.click("step-next")
    assert page.state["step"] == 6 and page.state["flash"] is not None
    count = len(page.state["flash"]["steps"])
    view = page.view()
    assert count > 1 and table_rows(view) == (1, count - 1) and 'class="flash-end"' not in view
    assert (button(view, "prev"), button(view, "next"), button(view, "all")) == ("disabled", "on", "on")
    page.click("flash-next")
    assert table_rows(page.view()) == (2, count - 2) and button(page.view(), "prev") == "on"
    page.click("flash-all")
    view = page.view()
    assert table_rows(view) == (count, 0) and 'class="flash-end"' in view and button(view, "next") == "disabled"
    again = StepPage(page.link(), lexicons).view()
    assert table_rows(again) == (count, 0) and 'class="flash-end"' in again


@pytest.mark.parametrize("lang", ["it", "en"])
def test_a_new_block_size_on_the_step_starts_again_at_block_one(lang, lexicons):
    """All blocks shown, then another B typed in the view's field: its table starts at block 1."""
    page = StepPage(f"lang={lang}&path=cost&step=6", lexicons)
    page.click("flash-all")
    page.take({"type": "change", "context": {"target": {"name": "flash", "value": "2", "type": "number"},
                                             "checked": {}, "ids": [], "off": []}})
    count = len(page.state["flash"]["steps"])
    assert page.state["flash"]["block"] == 2 and table_rows(page.view()) == (1, count - 1)


@pytest.mark.parametrize("lang", ["it", "en"])
def test_the_steps_default_sentence_and_block_show_a_real_rescale(lang, lexicons):
    """On step 6 as it opens (the first example, its selected word, the step's B), some block brings
    a new maximum after an earlier one: α = e^(m_old − m_new) strictly between 0 and 1, worked in
    numpy block by block (m, α, l, o); the page's blocks are those numbers and its α cell says it."""
    import re
    from html import unescape
    page = StepPage(f"lang={lang}&path=cost&step=6", lexicons)
    state, block = page.state, page.state["flash"]["block"]
    logits, values = reference_row(state, lang)
    m, l, o, worked = None, 0.0, np.zeros(4), []
    for start in range(0, len(logits), block):
        idx = [j for j in range(start, min(start + block, len(logits))) if logits[j] is not None]
        alpha = None
        if idx:
            new = max([logits[j] for j in idx] + ([] if m is None else [m]))
            alpha = 0.0 if m is None else float(np.exp(m - new))
            e = np.exp(np.array([logits[j] for j in idx]) - new)
            l, o, m = alpha * l + e.sum(), alpha * o + e @ np.array([values[j] for j in idx]), new
        worked.append((m, alpha, l, o.copy()))
    rescaled = [k for k, (_, alpha, _, _) in enumerate(worked, 1) if alpha is not None and 0 < alpha < 1]
    assert rescaled, f"no block rescales: α = {[a for _, a, _, _ in worked]}"
    for got, (m, _, l, o) in zip(state["flash"]["steps"], worked):
        assert math.isclose(got["m"], m, rel_tol=1e-12) and math.isclose(got["l"], l, rel_tol=1e-12)
        np.testing.assert_allclose(got["o"], o, rtol=1e-12, atol=1e-12)
    k = rescaled[0]
    for _ in range(k - 1):
        page.click("flash-next")
    row = re.search(rf'<tr[^>]*data-block="{k}"[^>]*>(.*?)</tr>', page.view(), re.S)[1]
    cells = [unescape(re.sub(r"<[^>]+>", "", c)).strip() for c in re.findall(r"<t[hd][^>]*>(.*?)</t[hd]>", row, re.S)]
    alpha = worked[k - 1][1]
    assert cells[4] == f"{alpha:.3f}".replace(".", "," if lang == "it" else ".")  # block, keys, max, m, α


@pytest.mark.parametrize("lang, sentence", [("it", "Il cane guarda la palla"), ("en", "The dog sees the ball")])
@pytest.mark.parametrize("how", ["typed", "link", "next"])
def test_a_typed_sentence_on_the_step_selects_a_word_so_the_block_field_is_there(lang, sentence, how, lexicons):
    """A sentence typed on step 6 (in the box, in its link, or on step 5 before Next) selects its last
    word: the view shows that row, its B field and block 1 of its table."""
    plus = sentence.replace(" ", "+")
    if how == "typed":
        page = StepPage(f"lang={lang}&path=cost&step=6", lexicons)
        page.type_sentence(sentence)
    elif how == "link":
        page = StepPage(f"lang={lang}&path=cost&step=6&s={plus}", lexicons)
    else:
        page = StepPage(f"lang={lang}&path=cost&step=5&s={plus}", lexicons)
        assert page.state["focus"] is None
        page.click("step-next")
    words = sentence.split()
    assert page.state["sentence"] == sentence and page.state["focus"] == len(words) - 1
    view = page.view()
    assert 'id="flash-block"' in view and words[-1] in view
    assert table_rows(view)[0] == 1
