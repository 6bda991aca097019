"""Embedding in a course page: two widgets, auto-height, host API, copy, CSV, the bundle.

The lesson page is on another site than the widgets (tests/e2e/conftest.py, host_site)."""

import csv
import functools
import http.server
import io
import struct
import threading
import xml.etree.ElementTree as ET
import zipfile
from urllib.parse import quote

import pytest

from tests.e2e.conftest import get_state, host_site, new_context, open_page, wait_ready
from tests.reference import rule_percent
from tools.bundle import make_bundle

LESSON = """<!doctype html><html lang="it"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1"><title>Lezione</title>
<script>window.got = [];
addEventListener("message", e => {
  const frames = [...document.querySelectorAll("iframe")];
  window.got.push({from: frames.findIndex(f => f.contentWindow === e.source), data: e.data});
});</script>
<script src="WIDGET/embed.js" defer></script></head>
<body style="margin:0"><h1>Lezione 3</h1>
<iframe id="a" src="WIDGET/?embed=1&focus=1" title="A" width="100%" height="300" style="border:0" data-attention-explorer></iframe>
<p>Testo della lezione fra i due widget.</p>
<iframe id="b" src="WIDGET/?embed=1&lang=en&s=The+dog+sleeps&focus=1" title="B" width="100%" height="300" style="border:0" data-attention-explorer></iframe>
<iframe id="evil" src="./evil.html" title="C" width="10" height="10"></iframe>
</body></html>"""

# A frame on the same lesson page that is not the widgets' parent: it tries to command
# widget A and to resize the widgets. Both must be ignored.
EVIL = """<!doctype html><title>evil</title><script>
window.attack = () => {
  parent.frames[0].postMessage({type: "attention:set", sentence: "HACKED by a sibling"}, "*");
  parent.postMessage({type: "attention:resize", height: 7}, "*");
};</script>"""


@pytest.fixture(scope="module")
def lesson(browser, base_url):
    site = host_site()
    site.put("evil.html", EVIL)
    url = site.put("lesson.html", LESSON.replace("WIDGET/", base_url))
    context = new_context(browser, base_url, host=site.url, viewport={"width": 1280, "height": 900})
    page = context.new_page()
    page.goto(url)
    for i in (0, 1):
        page.wait_for_function(f"window.got.some(m => m.from === {i} && m.data.type === 'attention:state')",
                               timeout=90_000)
    yield page
    assert context.outside.urls == []
    context.close()


def last_state(page, i):
    return page.evaluate(f"window.got.filter(m => m.from === {i} && m.data.type === 'attention:state')"
                         ".at(-1).data.state")


def fits(page, frame_id):
    """(iframe height, content height, inner scrollbar?) for one widget."""
    frame = page.frame_locator(f"#{frame_id}")
    content = frame.locator(".page").evaluate("p => Math.ceil(p.getBoundingClientRect().height)")
    inner = frame.locator("html").evaluate(
        "h => h.scrollHeight > window.innerHeight + 1 || h.scrollWidth > window.innerWidth + 1")
    height = page.locator(f"#{frame_id}").evaluate("f => f.getBoundingClientRect().height")
    return height, content, inner


def wait_fitted(page, frame_id, within=1, timeout=10_000):
    """Wait until the iframe `frame_id` is as tall as its widget's content, with no inner
    scrollbar (a cross-site frame: its content is read in the frame, its height in the host
    page); what `fits` says then, or at the time-out."""
    for _ in range(timeout // 100):
        height, content, inner = fits(page, frame_id)
        if abs(height - content) <= within and not inner:
            return height, content, inner
        page.wait_for_timeout(100)
    return fits(page, frame_id)


@pytest.mark.parametrize("width", [1280, 360])
def test_each_widget_resizes_to_its_content_without_inner_scrollbar(lesson, width):
    """embed.js sizes both iframes to their content at 1280 and 360 px; no inner scrollbar."""
    lesson.set_viewport_size({"width": width, "height": 900})
    for frame_id in ("a", "b"):
        height, content, inner = wait_fitted(lesson, frame_id)
        assert abs(height - content) <= 1 and height > 300 and not inner


def test_widgets_start_in_the_states_the_teacher_chose(lesson):
    """Widget A: the Italian example with 'gatto'; widget B: the teacher's English sentence
    (the first state each posted: other tests command the widgets afterwards)."""
    a, b = (lesson.evaluate(f"window.got.find(m => m.from === {i} && m.data.type === 'attention:state')"
                            ".data.state") for i in (0, 1))
    assert a["lang"] == "it" and a["focus"] == 1 and a["sentence"].startswith("Il gatto")
    assert b["lang"] == "en" and b["sentence"] == "The dog sleeps" and b["focus"] == 1


def test_attention_set_changes_only_its_target_and_answers_with_state(lesson):
    """A host message to widget A changes A (and A answers); widget B stays as it was."""
    before_b = lesson.frame_locator("#b").locator("#attention-state").text_content()
    lesson.evaluate("""document.getElementById('a').contentWindow.postMessage(
        {type: 'attention:set', sentence: 'Il cane rincorre il gatto', focus: 2, mask: true}, '*')""")
    lesson.wait_for_function("window.got.some(m => m.from === 0 && m.data.type === 'attention:state' "
                             "&& m.data.state.sentence === 'Il cane rincorre il gatto')")
    a = last_state(lesson, 0)
    assert a["focus"] == 2 and a["mask"] is True and a["rows"][3]["weight"] == 0
    assert lesson.frame_locator("#b").locator("#attention-state").text_content() == before_b


def test_attention_set_ignores_wrong_types_and_unknown_keys(lesson):
    """Wrong types and unknown keys are ignored (console warning); markup stays text."""
    mask_before = last_state(lesson, 0)["mask"]
    warnings = []
    lesson.on("console", lambda m: warnings.append(m.text) if m.type == "warning" else None)
    lesson.evaluate("""document.getElementById('a').contentWindow.postMessage(
        {type: 'attention:set', sentence: '<img src=x onerror=window.__pwned=1> gatto', focus: '1',
         mask: 'yes', lang: 'xx', evil: '<script>alert(1)</script>'}, '*')""")
    lesson.wait_for_function("window.got.some(m => m.from === 0 && m.data.type === 'attention:state' "
                             "&& m.data.state.sentence.startsWith('<img'))")
    a = last_state(lesson, 0)
    assert a["focus"] is None and a["mask"] is mask_before and a["lang"] == "it"  # bad values ignored
    inner = lesson.frame_locator("#a")
    assert inner.locator("#sentence img").count() == 0
    assert inner.locator("html").evaluate("() => window.__pwned") is None
    assert any("unknown key 'evil'" in w for w in warnings) and any("'focus'" in w for w in warnings)


def test_messages_from_a_window_that_is_not_the_parent_are_ignored(lesson):
    """A sibling frame cannot command a widget, nor resize the widgets through embed.js."""
    heights = [lesson.locator(f"#{i}").evaluate("f => f.style.height") for i in ("a", "b")]
    before = last_state(lesson, 0)
    answers = "window.got.filter(m => m.from === 0 && m.data.type === 'attention:state').length"
    count = lesson.evaluate(answers)
    lesson.frame_locator("#evil").locator("html").evaluate("() => window.attack()")
    lesson.wait_for_function("window.got.some(m => m.data.type === 'attention:resize' && m.data.height === 7)")
    # The parent's own command, sent after the sibling's, changes nothing: its answer proves
    # the widget has handled (and ignored) the sibling's message, which arrived first.
    lesson.evaluate("focus => document.getElementById('a').contentWindow.postMessage("
                    "{type: 'attention:set', focus}, '*')", before["focus"])
    lesson.wait_for_function(f"{answers} > {count}")
    assert lesson.frame_locator("#a").locator("#attention-state").evaluate(
        "s => JSON.parse(s.textContent).sentence") == before["sentence"]
    assert [lesson.locator(f"#{i}").evaluate("f => f.style.height") for i in ("a", "b")] == heights


def test_widgets_give_autofill_no_matrix_cells_to_read(lesson):
    """An embedded widget's editor is hidden and holds no text field: a browser's autofill reads
    every field of a page as it loads (~100 ms of its CPU a widget for the 72 cells)."""
    for frame_id in ("a", "b"):
        frame = lesson.frame_locator(f"#{frame_id}")
        assert frame.locator("#editor input").count() == 0
        assert frame.locator("input[type=text], textarea").count() <= 2  # the sentence box, the link's


def test_embed_mode_hides_the_chrome_and_fits_320_px(browser, base_url):
    """?embed=1: no title or long text (a small help instead), and no sideways scroll at 320 px."""
    context, page = open_page(browser, base_url, "?embed=1", viewport={"width": 320, "height": 640})
    wait_ready(page)
    assert not page.locator("h1").is_visible() and not page.locator(".intro").first.is_visible()
    assert page.locator(".embed-help summary").is_visible()
    assert not page.locator("a.open-top").is_visible()  # at the top level already: no new tab to offer
    page.locator(".embed-help summary").click()
    assert "carta" in page.locator(".embed-help p").inner_text()
    assert page.evaluate("document.documentElement.scrollWidth") <= 320
    assert not page.locator("#editor").is_visible() and page.locator("#editor input").count() == 0
    context.close()


def test_copy_embed_code_reproduces_the_state_and_works_without_clipboard(browser, base_url):
    """The embed code (iframe with title, lazy loading, width 100%) is shown selected to copy,
    and it reproduces the current state; with permission it is also on the clipboard."""
    context, page = open_page(browser, base_url, "?focus=1&mask=1")
    wait_ready(page)
    page.click("#copy-embed")
    page.wait_for_function("document.getElementById('share-status').textContent.length > 0")
    snippet = page.input_value("#share-text")
    assert 'title="Attention Explorer' in snippet and 'loading="lazy"' in snippet
    assert 'width="100%"' in snippet and "embed=1" in snippet and "embed.js" in snippet
    assert page.evaluate("(() => { const t = document.getElementById('share-text');"
                         " return t.selectionStart === 0 && t.selectionEnd === t.value.length; })()")
    src = snippet.split('src="', 1)[1].split('"', 1)[0].replace("&amp;", "&")
    context.close()

    context, page = open_page(browser, base_url, src[len(base_url):])
    wait_ready(page)
    state = get_state(page)
    assert state["focus"] == 1 and state["mask"] is True and page.evaluate(
        "document.documentElement.classList.contains('embed')")
    context.grant_permissions(["clipboard-read", "clipboard-write"], origin=base_url.rstrip("/"))
    page.click("#copy-link")
    page.wait_for_function("document.getElementById('share-status').textContent.length > 0")
    link = page.evaluate("navigator.clipboard.readText()")
    assert link == page.input_value("#share-text") and "embed" not in link and "focus=1" in link
    context.close()


def test_csv_export_matches_the_state_row_by_row(browser, base_url):
    """The downloaded CSV has the page's language's columns and the state's full-precision numbers."""
    context, page = open_page(browser, base_url, "?focus=4&mask=1")
    wait_ready(page)
    with page.expect_download() as info:
        page.click("#export-csv")
    text = open(info.value.path(), encoding="utf-8-sig").read()
    rows = list(csv.reader(io.StringIO(text), delimiter=";"))
    assert rows[0][:6] == ["parola", "vivo", "azione", "cosa", "rimando", "stato"]
    state = get_state(page)
    assert len(rows) == 1 + len(state["tokens"]) + 1  # header, a row a word, the output
    output = state["matrix"]["output"][state["focus"]]
    assert rows[-1][0] == "nuovo «tappeto»" and [float(v.replace(",", ".")) for v in rows[-1][1:5]] == output
    for row, token, srow in zip(rows[1:], state["tokens"], state["rows"]):
        assert row[0] == token["text"]
        assert [float(v.replace(",", ".")) for v in row[1:5]] == token["card"]
        assert float(row[9].replace(",", ".")) == srow["weight"]  # full precision, exactly
        assert row[10] == (srow["percent"] if srow["candidate"] else "0,0%")
        if srow["dot"] is not None and srow["candidate"]:
            assert float(row[6].replace(",", ".")) == srow["dot"]
    assert info.value.suggested_filename == "attenzione-tappeto.csv"
    context.close()


def test_bundle_works_from_a_sub_path_of_a_plain_static_server(browser, tmp_path):
    """The bundle, served by Python's plain http.server under /course/week3/, loads and works."""
    folder, archive = make_bundle(tmp_path / "course" / "week3")
    assert "attention-explorer/index.html" in zipfile.ZipFile(archive).namelist()
    assert not (folder / "tools").exists() and not (folder / "tests").exists()
    handler = functools.partial(http.server.SimpleHTTPRequestHandler, directory=str(tmp_path))
    handler.log_message = lambda *a: None
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    origin = f"http://127.0.0.1:{server.server_address[1]}"
    try:
        context, page = open_page(browser, origin + "/", "course/week3/attention-explorer/?s="
                                  + quote("Il gatto dorme") + "&focus=2")
        wait_ready(page)
        page.locator('label.word[data-index="0"]').click()
        page.wait_for_function("JSON.parse(document.getElementById('attention-state').textContent).focus === 0")
        assert context.outside.urls == [] and context.outside.seen > 15  # (the recorder was listening)
        context.close()
    finally:
        server.shutdown()


def test_the_picture_downloads_as_an_svg_with_the_words_and_a_png_of_twice_its_size(browser, base_url):
    """Download the image: the SVG parses and holds the words and the state's percentages; the PNG
    is a PNG of 2 × the SVG's width and height (drawn on the page's own canvas, nothing loaded)."""
    context, page = open_page(browser, base_url, "?lang=en&focus=1&mask=1")
    wait_ready(page)
    state = get_state(page)
    with page.expect_download() as info:
        page.click("#export-svg")
    assert info.value.suggested_filename == "attention-cat.svg"
    root = ET.parse(info.value.path()).getroot()
    shown = [t.text for t in root.iter("{http://www.w3.org/2000/svg}text")]
    assert all(t["text"] in shown for t in state["tokens"])
    assert rule_percent(state["rows"][0]["weight"], 0, "en") in shown  # "100%": the mask leaves one word
    page.wait_for_function("document.getElementById('share-status').textContent.includes('attention-cat.svg')")
    with page.expect_download() as info:
        page.click("#export-png")
    assert info.value.suggested_filename == "attention-cat.png"
    data = open(info.value.path(), "rb").read()
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    width, height = struct.unpack(">II", data[16:24])  # (the IHDR chunk)
    assert (width, height) == (2 * int(root.get("width")), 2 * int(root.get("height")))
    assert page.errors == [] and context.outside.urls == []
    context.close()
