"""Script-injection payloads through every way in: the text box, each URL parameter and the
host's attention:set message. Nothing runs, nothing outside loads, the text shows literally."""

from urllib.parse import quote

import pytest

from app.settings import HOST_KEYS, URL_KEYS
from tests.e2e.conftest import csp_violations, get_state, open_host, open_page, wait_ready

SENTINEL = "window.__pwned=1"
PAYLOADS = [
    f"<script>{SENTINEL}</script>",
    f'<img src=x onerror="{SENTINEL}">',
    f'<svg onload="{SENTINEL}">',
    f"<svg><script>{SENTINEL}</script></svg>",
    f"<math><mtext><table><mglyph><style><img src=x onerror={SENTINEL}>",
    f'"><img src=x onerror={SENTINEL}>',
    f"'><img src=x onerror={SENTINEL}>",
    f"</script><script>{SENTINEL}</script>",
    f"javascript:{SENTINEL}",
    f'<a href="javascript:{SENTINEL}">link</a>',
    f'<iframe src="javascript:{SENTINEL}"></iframe>',
    f'<iframe srcdoc="<script>parent.__pwned=1</script>"></iframe>',
    f"<body onload={SENTINEL}>",
    f"<details open ontoggle={SENTINEL}>",
    f"<input autofocus onfocus={SENTINEL}>",
    f"<video><source onerror={SENTINEL}></video>",
    f'<object data="javascript:{SENTINEL}"></object>',
    f'<embed src="javascript:{SENTINEL}">',
    f'<form action="javascript:{SENTINEL}"><button>go</button></form>',
    f"{{{{constructor.constructor('{SENTINEL}')()}}}}",
    f"${{{SENTINEL}}}",
    f"<%= {SENTINEL} %>",
    "{{7*7}} [[7*7]] #{7*7}",
    "<style>@import 'http://evil.example/x.css';</style>",
    "<link rel=stylesheet href=http://evil.example/x.css>",
    f'<meta http-equiv="refresh" content="0;url=javascript:{SENTINEL}">',
    '<base href="http://evil.example/">',
    f"<marquee onstart={SENTINEL}>hi</marquee>",
    f"<svg><animate onbegin={SENTINEL} attributeName=x dur=1s>",
    f"<x onclick={SENTINEL}>click</x>",
    "\\u003cimg src=x onerror=window.__pwned=1\\u003e",
    "&lt;img src=x onerror=window.__pwned=1&gt; &amp; &#60;b&#62;",
    f'<img src="x" onerror="{SENTINEL}" alt="',
    f'<!--<img src="--><img src=x onerror={SENTINEL}//">',
]
ALLOWED_TAGS = {"header", "div", "h1", "h2", "p", "details", "summary", "strong", "section", "form",
                "label", "input", "button", "select", "option", "fieldset", "legend", "span", "small",
                "br", "ul", "li", "svg", "rect", "table", "caption", "thead", "tbody", "tfoot", "tr",
                "th", "td", "textarea"}
ALLOWED_TAGS |= {"progress"}  # the package button's progress (app/views/controls.py)
# The tags in #app, less the page's own three <a> (the embedded widget's "open in a new tab", the
# header line's "what is this?" and "for teachers"): left out only while they are the only <a>
# there, each in its place, so an injected one still counts.
TAGS = """(() => { const all = [...document.querySelectorAll('#app *')], links = [...document.querySelectorAll('#app a')];
  const own = links.filter(a => a.matches('.embed-bar > a.open-top[data-open-top], '
    + '.full-header > .tagline > a[href="#about"]:not([class]), .full-header > .tagline > a.for-teachers'));
  const mine = links.length === 3 && own.length === 3 ? own : [];
  return all.filter(e => !mine.includes(e)).map(e => e.localName); })()"""


def assert_nothing_ran(page):
    tags = set(page.evaluate(TAGS))
    assert tags <= ALLOWED_TAGS, f"unexpected elements: {tags - ALLOWED_TAGS}"
    assert page.evaluate("window.__pwned") is None
    assert page.dialogs == [] and page.errors == []
    assert csp_violations(page) == []


def test_payloads_typed_in_the_box_show_literally(app):
    """Each payload typed and submitted becomes the sentence, as text, and runs nothing."""
    assert len(PAYLOADS) >= 30
    for payload in PAYLOADS:
        app.fill("#sentence-input", payload)
        app.press("#sentence-input", "Enter")
        app.wait_for_function("(p) => JSON.parse(document.getElementById('attention-state').textContent)"
                              ".sentence === p", arg=payload)
        assert app.input_value("#sentence-input") == payload
        shown = "".join(t["text"] for t in get_state(app)["tokens"])
        assert shown == "".join(payload.split())  # every typed character, as text
        assert_nothing_ran(app)


# Each load puts a payload in every one of the schema's 21 URL parameters, a rotation
# apart: 6 loads give each payload to several parameters, and the sentence (`s`, the one
# shown as text) a different payload each time. (The text box test above shows every
# payload as the sentence; a page load costs seconds here.)
URL_ROTATIONS = range(0, len(PAYLOADS), 6)


@pytest.mark.parametrize("start", URL_ROTATIONS)
def test_payloads_in_every_url_parameter_never_run(browser, base_url, start):
    """Every URL parameter of the settings schema carries a payload (rotating); none runs."""
    names = URL_KEYS
    picks = [PAYLOADS[(start + i) % len(PAYLOADS)] for i in range(len(names))]
    query = "?" + "&".join(f"{n}={quote(p, safe='')}" for n, p in zip(names, picks))
    context, page = open_page(browser, base_url, query)
    wait_ready(page)
    state = get_state(page)
    assert state["lang"] == "it" and state["focus"] is None and state["mask"] is False
    assert state["scaled"] is True and state["temperature"] == 1.0
    assert page.input_value("#sentence-input") == picks[names.index("s")]  # the link's text, literally
    assert_nothing_ran(page)
    assert context.outside.urls == []
    context.close()


def test_payloads_in_host_messages_never_run(browser, base_url):
    """attention:set with a payload in every field of the settings schema (and as a key) runs nothing."""
    context, page = open_host(browser, base_url)
    frame = page.frames[1]
    frame.evaluate("window.__csp = window.__csp || []")
    for payload in PAYLOADS:
        page.evaluate("""([p, keys]) => { const m = {type: 'attention:set', [p]: p};
            for (const k of keys) m[k] = p;
            document.querySelector('iframe').contentWindow.postMessage(m, '*'); }""",
                      [payload, [k for k in HOST_KEYS if k != "type"]])
        page.wait_for_function("(p) => window.got.some(m => m.type === 'attention:state' "
                               "&& m.state.sentence === p)", arg=payload)
    tags = set(frame.evaluate(TAGS))
    assert tags <= ALLOWED_TAGS
    assert frame.evaluate("window.__pwned") is None and page.evaluate("window.__pwned") is None
    assert frame.evaluate("window.__csp") == [] and context.outside.urls == []
    context.close()


def test_csp_is_in_force_and_blocks_inline_script(app, base_url):
    """The policy is really applied: an inline handler added behind our back is refused."""
    app.evaluate("""() => { const d = document.createElement('div');
        d.innerHTML = '<img src=x onerror="window.__csp_probe=1">'; document.body.appendChild(d); }""")
    app.wait_for_function("window.__csp.length > 0")
    assert app.evaluate("window.__csp_probe") is None
    assert any("script-src" in v for v in app.evaluate("window.__csp"))
    app.evaluate("window.__csp = []; document.querySelectorAll('body > div:not(.page)').forEach(d => d.remove())")
