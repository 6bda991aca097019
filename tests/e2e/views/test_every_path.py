"""What every guided path promises, for every path the registry holds (read when the tests are
collected, so a path added later is walked too), in both languages, at 1280 and 390 px: each
step opened as its link opens it, and again after Next from the step before with every setting
that step owns changed, quotes in its text, its "try this" and its answer only percentages and
"N of M" counts a view on screen shows too; an Italian page writes no number with a decimal
point, the trained model's letters written; and axe-core finds no WCAG 2.1 A/AA fault on any step
as it opens, at either width, in either language.

One widget is shared by a language's walk: framed by a host page, it is moved by `attention:set`
messages (tests/path_reference.py `fresh_message`: every setting of a step's link, which opens
what the link opens, as tests/test_path.py checks) and by its own Next button, and its frame is
made 1280 and then 390 px wide."""

import json
import re

import pytest

from app import settings as schema
from app.i18n import text
from app.lexicon import Lexicons
from app.views import registry
from tests.e2e.conftest import FRAME_POLL_MS, PENDING, READY_TIMEOUT, axe_violations, open_host, post, settle, told
from tests.path_reference import another_value, fresh_message, step_link

# (path id, step number, the step) of every registered path
STEPS = [(way.id, n, step) for way in registry.paths().values() for n, step in enumerate(way.steps, 1)]
WIDTHS = (1280, 390)
LEXICONS = Lexicons()
MARK = {"it": ",", "en": "."}  # the decimal mark of each language
# A percentage, and a count "N of M" (at most two words between the count and its "of": "39 cells
# of 81", "7 su 7"; not "2,850 instead of 1,425", a comparison)
PERCENT = re.compile(r"(?<![\d.,])(\d+(?:[.,]\d+)?)\s?%")
OF = {"it": re.compile(r"(?<![\d.,])(\d+(?:\.\d{3})*)\s+(?:(?!invece\b)[^\W\d]+\s+){0,2}(?:di|su)\s+(\d+(?:\.\d{3})*)(?![\d,])"),
      "en": re.compile(r"(?<![\d.,])(\d+(?:,\d{3})*)\s+(?:(?!instead\b)[^\W\d]+\s+){0,2}of\s+(\d+(?:,\d{3})*)(?![\d.])")}
# A number written with a decimal point: digits, ".", digits; not a whole number in groups of three
# (Italian 1.000.000), nor a standard's name (SCORM 1.2).
POINT = re.compile(r"(?<![\w.,])\d+(?:\.\d+)+(?![\w])")
THOUSANDS = re.compile(r"[1-9]\d{0,2}(?:\.\d{3})+")
NAMES = ("SCORM 1.2",)

# What the frame shows: the step's own words, the text of each view on screen (rendered, so a
# closed disclosure or a hidden view says nothing), the heatmap's cells (whole percentages without
# their sign), and the page's visible text. (A part of the page scrolled away skips its layout,
# `content-visibility: auto` in static/style.css, and then has no rendered text: it is laid out
# while it is read.)
SCREEN = """() => {
    const skipping = [...document.querySelectorAll('*')].filter(e => getComputedStyle(e).contentVisibility === 'auto');
    skipping.forEach(e => { e.style.contentVisibility = 'visible'; });
    try { return read(); } finally { skipping.forEach(e => { e.style.contentVisibility = ''; }); }
    function read() {
    const seen = e => !!e && e.getClientRects().length > 0;
    const views = [...document.querySelectorAll('section[id^="view-"]')].filter(seen);
    const cells = views.flatMap(v => [...v.querySelectorAll('td[class^="s"]')])
        .filter(seen).map(td => td.textContent.trim()).filter(t => /^\\d+$/.test(t));
    const said = id => (document.querySelector(id) || {}).textContent || '';
    return {said: [said('.path-text'), said('#path-try-text'), said('#path-answer')].join(' | '),
            title: said('#path-title'), step: JSON.parse(said('#attention-state')).step,
            views: views.map(v => v.innerText), cells: cells, page: document.body.innerText};
    }
}"""


GROUP = {"it": ".", "en": ","}  # the mark between groups of three digits
# A whole number as a view writes it (1.843.200 · 1,843,200, or plain digits), not part of a decimal one
WHOLE = {"it": re.compile(r"(?<![\d.,])(\d{1,3}(?:\.\d{3})+|\d+)(?![\d,]|\.\d)"),
         "en": re.compile(r"(?<![\d.,])(\d{1,3}(?:,\d{3})+|\d+)(?![\d.]|,\d)")}


def value(number, lang):
    """A number as the page writes it in `lang` (1.843,5 · 1,843.5), as a float."""
    return float(number.replace(GROUP[lang], "").replace(MARK[lang], "."))


def decimals(number, lang):
    return len(number.split(MARK[lang])[1]) if MARK[lang] in number else 0


def shown_percentages(screen, lang):
    """(value, decimals) of every percentage a view on screen writes, and of every heatmap cell."""
    found = [(value(p, lang), decimals(p, lang)) for view in screen["views"] for p in PERCENT.findall(view)]
    return found + [(float(c), 0) for c in screen["cells"]]


def counts(view, lang):
    """The whole numbers a view's text writes."""
    return {int(value(n, lang)) for n in WHOLE[lang].findall(view)}


def check_screen(frame, lang, where, tally):
    """Every percentage and every "N of M" the step's words quote is written by a view on screen
    (a percentage to the digits it is written with there: 42,4% and the bars' 42%); in Italian no
    number on the page has a decimal point."""
    screen = frame.evaluate(SCREEN)
    said = screen["said"]
    shown = shown_percentages(screen, lang)
    for quoted in PERCENT.findall(said):
        q, places = value(quoted, lang), decimals(quoted, lang)
        assert any(abs(q - s) <= 0.5 * 10 ** -min(places, d) + 1e-9 for s, d in shown), \
            f"{where}: {quoted}% is not on screen: {said}"
        tally["percent"] += 1
    for n, m in OF[lang].findall(said):
        n, m = int(value(n, lang)), int(value(m, lang))
        assert any({n, m} <= counts(view, lang) for view in screen["views"]), \
            f"{where}: {n} of {m} is not on screen: {said}"
        tally["of"] += 1
    if lang == "it":
        page = screen["page"]
        for name in NAMES:
            page = page.replace(name, "")
        points = [p for p in POINT.findall(page) if not THOUSANDS.fullmatch(p)]
        assert points == [], f"{where}: numbers with a decimal point on an Italian page: {points}"


def at_each_width(page, frame, lang, where, tally, axe=False):
    """`check_screen` at each width; with `axe`, axe-core finds nothing there either."""
    for width in WIDTHS:
        page.evaluate(f"document.querySelector('iframe').width = {width}")
        frame.wait_for_function(f"document.documentElement.clientWidth <= {width}", polling=FRAME_POLL_MS,
                                timeout=READY_TIMEOUT)  # (a busy machine: the frame's layout waits its turn)
        frame.wait_for_function(f"!document.querySelector('{PENDING}')",
                                polling=FRAME_POLL_MS, timeout=READY_TIMEOUT)
        check_screen(frame, lang, f"{where}, {width} px", tally)
        if axe:
            assert axe_violations(frame) == [], f"{where}, {width} px"


@pytest.fixture(scope="module", params=["it", "en"])
def widget(request, browser, base_url):
    """One framed widget for a language's walk, its host page 1320 px wide."""
    lang = request.param
    context, page = open_host(browser, base_url, f"./?lang={lang}", viewport={"width": 1320, "height": 900})
    page.errors = []
    page.on("pageerror", lambda e: page.errors.append(str(e)))
    frame = page.frames[1]
    page.evaluate("document.querySelector('iframe').height = 900")
    page.lang = lang
    yield page, frame
    assert page.errors == [] and context.outside.urls == []
    context.close()


def test_every_step_of_every_path_quotes_only_numbers_on_screen_in_the_pages_language(widget):
    """Each step of each registered path, opened as its link opens it and again after Next from the
    step before with each setting that step owns changed: every percentage and "N of M" its words
    quote is on screen in a view, at 1280 and 390 px; an Italian page has no "0.5"; as opened, axe
    finds nothing at either width."""
    page, frame = widget
    lang = page.lang
    tally = {"percent": 0, "of": 0}
    owner = lambda control: schema.BY_CONTROL[control].attr  # noqa: E731
    for name, number, step in STEPS:
        where = f"{name} step {number} ({step.id}), {lang}"
        params = {}
        for key, raw in step_link(name, number, lang, step.mode):
            params[key] = [raw]
        linked, _ = schema.parse_params(params, LEXICONS)
        post(page, frame, json.loads(json.dumps(fresh_message(linked, schema))), number)
        title = text(lang, f"{registry.paths()[name].prefix}{step.id}_title")
        assert frame.evaluate(SCREEN)["title"] == f"{number}. {title}", where
        at_each_width(page, frame, lang, f"{where}, opened", tally, axe=True)
        if number == len(registry.paths()[name].steps):
            continue
        changes = {schema.BY_ATTR[attr].host: another_value(schema.BY_ATTR[attr]) for attr in sorted(step.owned(owner))}
        if changes:
            post(page, frame, {"type": "attention:set", **changes}, number)
        sent = told(page)
        frame.locator("#step-next").click()
        settle(page, frame, sent, number + 1)
        at_each_width(page, frame, lang, f"{name} step {number + 1}, {lang}, after Next from a changed step {number}",
                      tally)
    assert tally["percent"] > 0 and tally["of"] > 0, tally  # (the words were read: the walk found quotes)
