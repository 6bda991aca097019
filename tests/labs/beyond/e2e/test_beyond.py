"""The beyond lab as a student walks it (path=beyond), in a browser: the state's stepper by keyboard,
its y equal to the matrix form's row, play by itself and one word a press under reduced motion; step 6,
who can still copy: the chart's table equals the state's `model.copy`, the arch chosen by keyboard runs
the SSM, whose predictions the page shows (one shared page; axe on every step in both languages and
both widths: tests/e2e/views/test_every_path.py)."""

import re

import pytest

from tests.e2e.conftest import get_state, go_step, language_page, wait_state

AT = re.compile(r"(\d+)\D+(\d+)\)")  # "(parola 3 di 5)": the word reached and the words


@pytest.fixture(scope="module")
def lab(browser, base_url):
    yield from language_page(browser, base_url, "it", "path=beyond&step=2&s=il+gatto+dorme+sul+divano")


def reached(page):
    """(word reached, words) as the stepper says it."""
    t, n = AT.search(page.locator("#view-mixer-state .mixer-at").inner_text()).groups()
    return int(t), int(n)


def numbers(text):
    """The numbers of a vector as the Italian page writes them ("(0,12; −1,5)")."""
    return [float(x.replace("−", "-").replace(",", ".")) for x in re.findall(r"[−-]?\d+(?:,\d+)?", text)]


def press(page, button, key="Enter"):
    page.locator(f"#{button}").focus()
    page.keyboard.press(key)


def moved_to(page, t, timeout=10_000):
    page.wait_for_function(
        "t => { const p = document.querySelector('#view-mixer-state .mixer-at');"
        " return p && p.textContent.includes('(parola ' + t + ' ') && !document.querySelector('#app[data-answering]'); }",
        arg=t, timeout=timeout)


def test_the_stepper_moves_word_by_word_by_keyboard_and_y_is_the_matrix_row(lab):
    """Retention chosen by keyboard; Enter on "Parola precedente" and "Parola seguente" moves the state
    one word, the focus stays on the button; y from the state equals the state JSON's matrix row."""
    page = lab
    go_step(page, 2)
    press(page, "mixer-retention", "Space")
    state = wait_state(page, "s.mixer && s.mixer.kind === 'retention'")
    t, n = reached(page)
    assert n == len(state["tokens"]) == 5
    press(page, "mixer-back")
    moved_to(page, t - 1)
    assert page.evaluate("document.activeElement.id") == "mixer-back"
    press(page, "mixer-back")
    moved_to(page, t - 2)
    press(page, "mixer-next")
    moved_to(page, t - 1)
    assert page.evaluate("document.activeElement.id") == "mixer-next"
    state = get_state(page)
    y_state = numbers(page.locator("#view-mixer-state p.vector").first.inner_text().split("=")[-1])
    row = state["matrix"]["output"][t - 2]
    assert len(y_state) == len(row) and all(abs(a - b) < 0.006 for a, b in zip(y_state, row))
    assert numbers(page.locator("#view-mixer-state .mixer-diff").inner_text()) == [0.0]


def test_play_reads_by_itself_and_stops_and_reduced_motion_reads_one(lab):
    """Space on "Avvia": pressed and called "Ferma", words come by themselves; Space again stops them.
    Under prefers-reduced-motion each press reads exactly one word."""
    page = lab
    go_step(page, 2)
    press(page, "mixer-retention", "Space")
    wait_state(page, "s.mixer && s.mixer.kind === 'retention'")
    while (t := reached(page)[0]) != 2:  # (from the word the last test left, to the second)
        press(page, "mixer-back" if t > 2 else "mixer-next")
        moved_to(page, t - 1 if t > 2 else t + 1)
    press(page, "mixer-play", "Space")
    page.wait_for_function("document.getElementById('mixer-play').getAttribute('aria-pressed') === 'true'")
    assert page.locator("#mixer-play").inner_text() == "Ferma"
    moved_to(page, 3, timeout=5_000)
    press(page, "mixer-play", "Space")
    page.wait_for_function("document.getElementById('mixer-play').getAttribute('aria-pressed') === 'false'")
    stopped = reached(page)[0]
    page.wait_for_timeout(1500)  # (longer than a word's beat: none comes)
    assert reached(page)[0] == stopped
    page.emulate_media(reduced_motion="reduce")
    try:
        press(page, "mixer-back")
        moved_to(page, stopped - 1)
        press(page, "mixer-play", "Space")
        moved_to(page, stopped)
        page.wait_for_timeout(1500)
        assert reached(page)[0] == stopped
        assert page.locator("#mixer-play").get_attribute("aria-pressed") == "false"
    finally:
        page.emulate_media(reduced_motion="no-preference")


def percent_of(text):
    return float(text.replace("%", "").replace(",", ".")) / 100


def test_who_can_still_copy_shows_the_states_figures_and_runs_the_ssm(lab):
    """Step 6 opens the trained models: the chart has a line a model and its table equals model.copy;
    the arrow key moves the model chosen to the SSM, whose predictions the page then shows, the focus
    kept on the choice; the student's letters show the SSM's copy as the state says."""
    page = lab
    state = go_step(page, 6)
    state = wait_state(page, "s.mode === 'model' && s.model && s.model.copy")
    copy = state["model"]["copy"]
    assert state["model"]["arch"] == "attention"
    assert page.locator("#view-model-copy svg.copy-chart polyline").count() == 3
    rows = page.locator("#view-model-copy table.copy-table tbody tr")
    assert rows.count() == len(copy["lengths"])
    for n in (0, len(copy["lengths"]) // 2, len(copy["lengths"]) - 1):
        cells = rows.nth(n).locator("td").all_text_contents()
        for arch, cell in zip(("attention", "ssm", "hybrid"), cells):
            assert abs(percent_of(cell) - copy["accuracy"][arch][n]) < 0.0006
    press(page, "arch-attention", "ArrowDown")
    state = wait_state(page, "s.model && s.model.arch === 'ssm'")
    assert page.evaluate("document.activeElement.id") == "arch-ssm"
    assert state["model"]["layers"] == ["selective", "selective"]
    shown = page.locator("#view-predictions table.predictions tbody tr").all()
    assert [row.locator("td").nth(3).inner_text().split()[0] for row in shown] == state["model"]["next"]
    for row in page.locator("#view-model-copy table.copy-yours tbody tr").all():
        i = int(row.get_attribute("data-row"))
        assert row.locator("td.arch-ssm").inner_text().split()[0] == state["model"]["next"][i]
