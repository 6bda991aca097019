"""What the student reads on screen follows what they chose: the line under the Head menu after
another head, in both languages."""

import pytest

from app.heads import HEADS
from app.i18n import STRINGS
from tests.e2e.conftest import more_settings, open_page, wait_ready, wait_state


@pytest.fixture(scope="module")
def page(browser, base_url):
    context, page = open_page(browser, base_url, "?lang=en", viewport={"width": 1280, "height": 900})
    wait_ready(page)
    yield page
    assert page.errors == [] and context.outside.urls == []
    context.close()


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
