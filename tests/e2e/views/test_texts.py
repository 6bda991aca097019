"""What the student reads on screen follows what they chose: the line under the Head menu after
another head, in both languages."""

import pytest

from app.heads import HEADS
from app.i18n import STRINGS
from tests.e2e.conftest import language_page, more_settings, wait_ready, wait_state
from tests.e2e.conftest import SHOTS


@pytest.fixture(scope="module")
def page(browser, base_url):
    yield from language_page(browser, base_url, "en")


@pytest.mark.parametrize("lang", ["en", "it"])
def test_the_line_under_the_head_menu_follows_the_head(page, base_url, lang):
    """Choose the third head: the state says head 2 and the line under the menu is that head's."""
    page.goto(base_url + f"?lang={lang}")
    wait_ready(page)
    more_settings(page)
    for h in (2, 1, 0):
        page.locator("#head").select_option(str(h))
        wait_state(page, f"s.head === {h}")
        assert page.locator("#head-about").inner_text() == STRINGS[lang][f"head_about_{HEADS[h].id}"]


def test_the_table_and_the_bars_say_where_their_digits_come_from(page, base_url):
    """«sul»: under the table, e^0,998 = 2,713 against the table's 2,711; «tappeto»: the bars' whole
    percentages make 101% and a line says so; «Il»: neither line is shown."""
    page.goto(base_url + "?lang=it&focus=3")
    wait_ready(page)
    line = page.locator("#view-table .exp-full")
    assert line.is_visible() and "2,713" in line.inner_text() and "2,711" in line.inner_text()
    page.locator('label.word[data-index="4"]').click()
    wait_state(page, "s.focus === 4")
    shown = [int(t[:-1]) for t in page.locator("#view-bars li.candidate .bar-value").all_inner_texts()]
    assert sum(shown) == 101
    assert "101%" in page.locator("#view-bars .bars-rounding").inner_text()
    page.locator('label.word[data-index="0"]').click()
    wait_state(page, "s.focus === 0")
    assert not page.locator("#view-bars .bars-rounding").is_visible()
    assert not page.locator("#view-table .exp-full").is_visible()


@pytest.fixture(scope="module")
def phone(browser, base_url):
    yield from language_page(browser, base_url, "it", width=390, height=844)


def test_on_a_phone_the_page_says_what_it_is_and_covers_nothing_once_ready(phone, base_url):
    """390 px: once ready no status floats over the title or the sentence; one line near the top
    says what the page is, with links to the explanation and to the teachers' guide."""
    page = phone
    page.goto(base_url + "?lang=it")
    wait_ready(page)
    assert not page.locator("#status-box").is_visible()
    line = page.locator(".full-header .tagline")
    assert line.is_visible() and line.bounding_box()["y"] < 120
    assert page.locator('.tagline a[href="#about"]').is_visible()
    assert page.locator(".tagline a.for-teachers").get_attribute("href") == "teachers.html"


def test_on_a_phone_the_table_keeps_its_words_and_more_settings_one_column(phone, base_url):
    """390 px: the steps table has nothing to scroll sideways: each row is a card headed by its word
    at the box's left edge, its % on screen beside the column's name; «Altre impostazioni», open,
    lays its controls one a line across the whole width."""
    page = phone
    page.goto(base_url + "?lang=it&focus=3")
    wait_ready(page)
    wrap = page.locator("#view-table .table-wrap")
    wrap.scroll_into_view_if_needed()
    assert wrap.evaluate("w => w.scrollWidth <= w.clientWidth + 1")
    left = wrap.bounding_box()["x"]
    word = page.locator('#view-table tr[data-index="1"] th[scope="row"]')
    assert word.is_visible() and abs(word.bounding_box()["x"] - left) < 20
    share = page.locator('#view-table tr[data-index="1"] td[data-col="percent"]')
    box = share.bounding_box()
    assert share.is_visible() and box["x"] + box["width"] <= 390 and box["y"] > word.bounding_box()["y"]
    assert share.get_attribute("data-label") == "%" and share.inner_text().endswith("%")
    page.screenshot(path=str(SHOTS / "table-it-390.png"))
    more_settings(page)
    page.locator("details.more-settings").scroll_into_view_if_needed()
    SHOTS.mkdir(exist_ok=True)
    page.screenshot(path=str(SHOTS / "more-settings-it-390.png"))
    box = page.locator("details.more-settings").bounding_box()
    assert box["width"] > 330
    for control in ("label:has(#scaled)", "label:has(#quiz)"):
        assert page.locator(f"details.more-settings {control}").bounding_box()["width"] > 0.8 * box["width"], control


def test_on_a_phone_model_mode_shows_every_row_and_readable_axis_words(phone, base_url):
    """390 px, model mode: each head's table shows its last row with no box of its own to scroll,
    and the curve's step labels are at least 11 px tall."""
    page = phone
    page.goto(base_url + "?lang=it&mode=model")
    wait_ready(page)
    wraps = page.locator(".model-head .heatmap-wrap")
    assert wraps.count() >= 2
    for i in range(wraps.count()):
        assert wraps.nth(i).evaluate("w => w.scrollHeight <= w.clientHeight + 1"), i
    page.locator("svg.curve").scroll_into_view_if_needed()
    SHOTS.mkdir(exist_ok=True)
    page.screenshot(path=str(SHOTS / "model-it-390.png"))
    ticks = page.locator("svg.curve text.tick")
    heights = [ticks.nth(i).bounding_box()["height"] for i in range(ticks.count())]
    assert len(heights) >= 5 and min(heights) >= 11


def test_a_link_copied_on_this_computers_address_says_so(phone, base_url):
    """On 127.0.0.1 «Copia il link dell'esercizio» says the address opens only here, and how to publish."""
    page = phone
    page.goto(base_url + "?lang=it")
    wait_ready(page)
    page.locator("#copy-exercise").click()
    status = page.locator("#share-status")
    page.wait_for_function("document.getElementById('share-status').textContent !== ''")
    said = status.inner_text()
    assert "127.0.0.1" in said and STRINGS["it"]["for_teachers"] in said


def test_on_a_phone_a_steps_switch_beside_a_slider_keeps_its_words_whole(phone, base_url):
    """390 px, step 4: «Dividi per √d_k» and the temperature each take a line (side by side the
    switch's name broke a syllable a line); a head card's "… and 2 more" is one line wide."""
    page = phone
    page.goto(base_url + "?lang=it&step=4")
    wait_ready(page)
    switch = page.locator("label:has(#scaled)")
    assert switch.bounding_box()["width"] > 300 and switch.bounding_box()["height"] < 60
    page.goto(base_url + "?lang=en&step=9")
    wait_ready(page)
    more = page.locator(".head-card .mini-more").first
    assert more.bounding_box()["height"] < 30  # (one line)
