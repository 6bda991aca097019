"""The trained model in the page (mode=model), as a student uses it: the heads' tables equal the
numpy forward pass, the training slider moves through the checkpoints and the induction head
appears past the loss's step, letters typed with other characters get a note, the model's files
load only in this mode, and axe finds nothing at 1280 and 360 px in both languages."""

import numpy as np
import pytest

from tests import model_reference as ref
from tests.e2e.conftest import get_state, more_settings, open_page, wait_ready, wait_state
from tests.e2e.conftest import SHOTS, axe_violations
from tests.test_model import CONFIG, LETTERS, STEPS, ids_of

LAYER, HEAD = CONFIG["heads"]["induction"]
PREV = CONFIG["heads"]["previous_token"]


def whole(w):
    """A cell's whole percentage (half up), as the heatmap writes it."""
    return int(np.floor(100 * w + 0.5 + 1e-9))


def table_cells(page, layer, head):
    """The numbers of one head's table as the student reads them ('·' after the diagonal; a path
    cell's words for screen readers left out)."""
    return page.evaluate("""key => [...document.querySelectorAll(
        `.model-head[data-head="${key}"] tbody tr`)].map(tr => [...tr.querySelectorAll('td')].map(
            td => [...td.childNodes].filter(n => n.nodeType === 3).map(n => n.data).join('')))""",
                         f"{layer}-{head}")


def fresh(page):
    """The shared page back at the first example, its second «c» picked, the last checkpoint: as a
    student would put it (each test starts from there, in any order)."""
    page.fill("#sentence-input", "a b c d a b c")
    page.press("#sentence-input", "Enter")
    wait_state(page, "s.sentence === 'a b c d a b c' && s.focus === 7")
    page.locator("#checkpoint").focus()
    page.keyboard.press("End")
    return wait_state(page, f"s.sentence === 'a b c d a b c' && s.focus === 7 && s.model.checkpoint === {STEPS[-1]}")


@pytest.fixture(scope="module")
def model_page(browser, base_url):
    context, page = open_page(browser, base_url, "?mode=model&s=a+b+c+d+a+b+c&focus=7&lang=en",
                              viewport={"width": 1280, "height": 900})
    wait_ready(page)
    yield page
    assert page.errors == [] and context.outside.urls == []
    context.close()


def test_every_head_table_equals_the_numpy_forward_pass(model_page):
    """Each of the 2 × heads tables shows numpy's weights as whole percentages; the state JSON holds them."""
    page = model_page
    state = fresh(page)
    patterns, _ = ref.forward(ref.weights(CONFIG["checkpoints"][-1]["file"]), ids_of("abcdabc"))
    for layer in range(CONFIG["n_layers"]):
        for head in range(CONFIG["n_heads"]):
            expected = [[str(whole(w)) for w in row[:i + 1]] + (["·"] if i < len(row) - 1 else [])
                        for i, row in enumerate(patterns[layer][head])]
            assert table_cells(page, layer, head) == expected, (layer, head)
            np.testing.assert_allclose(state["model"]["attention"][layer][head], patterns[layer][head],
                                       rtol=0, atol=1e-9)
    assert page.locator(f'.model-head[data-head="{LAYER}-{HEAD}"] caption').inner_text().endswith("induction head")
    # the path from the second c: the induction head's (7, 4) and the previous-token head's (4, 3), said so
    for (layer, head), (row, col) in (((LAYER, HEAD), (7, 4)), (tuple(PREV), (4, 3))):
        path = page.locator(f'.model-head[data-head="{layer}-{head}"] td.path')
        assert path.count() == 1 and "on the induction path" in path.text_content()
        assert path.evaluate("td => [td.parentElement.dataset.row, td.cellIndex - 1]") == [str(row), col]


def test_the_slider_shows_the_induction_head_forming(model_page):
    """Home: step 0, the second c does not look at the d; End: the last step, it does, and the
    path from the second c reads c → c → d → d."""
    page = model_page
    fresh(page)
    slider = page.locator("#checkpoint")
    slider.focus()
    page.keyboard.press("Home")
    state = wait_state(page, f"s.model.checkpoint === {STEPS[0]}")
    first = state["model"]["attention"][LAYER][HEAD][7][4]
    assert first < 0.5
    assert page.locator("#checkpoint-value").inner_text().strip() == f"{STEPS[0]} of {STEPS[-1]}"  # (after "Training step")
    page.keyboard.press("End")
    state = wait_state(page, f"s.model.checkpoint === {STEPS[-1]}")
    row = state["model"]["attention"][LAYER][HEAD][7]
    assert max(range(8), key=row.__getitem__) == 4 and row[4] > first
    cell = page.locator(f'.model-head[data-head="{LAYER}-{HEAD}"] tr[data-row="7"] td.path')
    assert cell.evaluate("td => td.firstChild.data") == str(whole(row[4]))
    said = page.locator("#circuit-text").inner_text()
    assert "position 3" in said and "“d” (position 4)" in said and "predicts “d”" in said
    page.keyboard.press("ArrowLeft")
    state = wait_state(page, f"s.model.checkpoint === {STEPS[-2]}")
    page.wait_for_function(f"new URLSearchParams(location.search).get('checkpoint') === '{STEPS[-2]}'")
    assert page.evaluate("document.activeElement.id") == "checkpoint"


def test_a_position_picked_draws_its_path_and_is_said(model_page):
    """A click on a position selects it everywhere: the state's focus, the row in every head, the live region."""
    page = model_page
    fresh(page)
    page.locator('label.word[data-index="6"]').click()
    wait_state(page, "s.focus === 6")
    assert page.locator("tr.selected[data-row='6']").count() == 2 * CONFIG["n_heads"] + 1
    assert "Position 6, “b”" in page.locator("#announce").inner_text()
    _, logits = ref.forward(ref.weights(CONFIG["checkpoints"][-1]["file"]), ids_of("abcdabc"))
    predicted = [LETTERS[int(i)] for i in np.argmax(logits, axis=1)]
    cells = page.locator("#view-predictions tr[data-row='6'] td").all_inner_texts()
    assert cells[3].split()[0] == predicted[6] and cells[2] == "c"
    page.keyboard.press("ArrowRight")
    wait_state(page, "s.focus === 7")
    assert "predicts “%s”" % predicted[7] in page.locator("#circuit-text").inner_text()


# (the hover's highlight of the pointed letter's column left out: the pointer stays on the letter)
VIEWS = """() => ['view-circuit', 'view-heatmap', 'view-predictions'].map(id => document.getElementById(id).innerHTML
  .replaceAll(' class="linked"', ''))"""


def test_a_pick_changed_in_place_reads_as_the_page_drawn_whole(model_page):
    """A click (a row's button in a head, then a letter) changes the tables in place; drawn again
    whole for the same position (the slider away and back), the path, the heads and the
    predictions read the same."""
    page = model_page
    fresh(page)
    page.locator(f'.model-head[data-head="{LAYER}-{HEAD}"] .row-pick[data-row="6"]').click()
    wait_state(page, "s.focus === 6")
    page.locator('label.word[data-index="3"]').click()
    wait_state(page, "s.focus === 3")
    picked = page.evaluate(VIEWS)
    assert 'class="selected"' in picked[1] and "path" in picked[1]
    slider = page.locator("#checkpoint")
    slider.focus()
    page.keyboard.press("Home")
    wait_state(page, f"s.model.checkpoint === {STEPS[0]}")
    page.keyboard.press("End")
    wait_state(page, f"s.model.checkpoint === {STEPS[-1]} && s.focus === 3")
    assert page.evaluate(VIEWS) == picked


def test_letters_typed_with_other_characters_get_a_note(model_page):
    """Typed text: spaces separate, other characters are skipped with a note, the link keeps it all."""
    page = model_page
    fresh(page)
    page.fill("#sentence-input", "xyz? XYZ")
    page.press("#sentence-input", "Enter")
    state = wait_state(page, "s.sentence === 'xyz? XYZ'")
    assert state["model"]["tokens"] == ["<s>", "x", "y", "z", "x", "y", "z"]
    assert "skipped “?”" in page.locator("#analysis .note").inner_text()
    page.wait_for_function("new URLSearchParams(location.search).get('s') === 'xyz? XYZ'")
    page.fill("#sentence-input", "1 2 3")
    page.press("#sentence-input", "Enter")
    page.locator("#messages .notes li").first.wait_for()
    assert "a to z" in page.locator("#messages").inner_text()
    assert page.input_value("#sentence-input") == "1 2 3" and get_state(page)["sentence"] == "xyz? XYZ"


def test_the_models_files_load_only_in_model_mode(browser, base_url):
    """The explorer fetches nothing of the model; choosing the model fetches model.json and the last
    checkpoint; the slider fetches the checkpoint it moves to, once."""
    context, page = open_page(browser, base_url, "?lang=en")
    asked = []
    context.on("request", lambda r: asked.append(r.url) if "/model/" in r.url else None)
    wait_ready(page)
    page.locator('label.word[data-index="2"]').click()
    wait_state(page, "s.focus === 2")
    assert asked == []
    more_settings(page)
    page.locator('input[name="mode"][value="model"]').check()
    state = wait_state(page, "s.mode === 'model' && s.model !== null")
    assert state["sentence"] == "a b c d a b c"
    assert sorted(u.rsplit("/", 1)[1] for u in asked) == sorted(["model.json", CONFIG["checkpoints"][-1]["file"]])
    page.locator("#checkpoint").focus()
    page.keyboard.press("Home")
    wait_state(page, f"s.model.checkpoint === {STEPS[0]}")
    assert asked[-1].endswith(CONFIG["checkpoints"][0]["file"]) and len(asked) == 3
    page.locator('input[name="mode"][value="sentence"]').check()
    state = wait_state(page, "s.mode === 'sentence'")
    assert state["sentence"] == "The cat sat on the mat and slept"
    assert page.errors == [] and context.outside.urls == []
    context.close()


@pytest.mark.parametrize("lang", ["it", "en"])
def test_model_mode_is_accessible_at_both_widths(browser, base_url, lang):
    """axe finds nothing at 1280 and 360 px, nothing scrolls sideways on a phone; screenshots of both."""
    context, page = open_page(browser, base_url, f"?mode=model&lang={lang}", viewport={"width": 1280, "height": 900})
    wait_ready(page)
    state = wait_state(page, "s.mode === 'model' && s.model !== null")
    assert state["focus"] == 7 and page.locator("#view-circuit .circuit").is_visible()
    SHOTS.mkdir(exist_ok=True)
    assert axe_violations(page) == []
    page.screenshot(path=str(SHOTS / f"model-{lang}-1280.png"))
    page.set_viewport_size({"width": 360, "height": 640})
    assert axe_violations(page) == []
    assert page.evaluate("document.documentElement.scrollWidth") <= 360
    page.screenshot(path=str(SHOTS / f"model-{lang}-360.png"))
    page.locator("#view-heatmap").scroll_into_view_if_needed()
    page.screenshot(path=str(SHOTS / f"model-{lang}-360-heads.png"))
    assert page.errors == [] and context.outside.urls == []
    context.close()
