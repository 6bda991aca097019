"""The glossary (app/glossary.py): every term the labs use is explained in both languages, one click
away on every step of every registered path, and each entry leads to a step that shows the term."""

import html
import html.parser
import re

from app import glossary, path
from app.lexicon import Lexicons
from app.page import Page
from app.remote import Screen
from app.views import registry
from tests.path_reference import step_link
from tests.test_engine_page import Timers

# The jargon a high-school student meets on the labs' steps (the course's own glossary leaves them out).
JARGON = {"it": ("equivariante", "O(n)", "O(n²)", "elu", "φ", "d_head", "rotate_half", "KV cache", "latente",
                 "softmax", "logit", "d_k", "token", "RoPE", "ALiBi", "grouped-query", "multi-query",
                 "testa di induzione", "float32", "finestra scorrevole", "prodotto scalare"),
          "en": ("equivariant", "O(n)", "O(n²)", "elu", "φ", "d_head", "rotate_half", "KV cache", "latent",
                 "softmax", "logit", "d_k", "token", "RoPE", "ALiBi", "grouped-query", "multi-query",
                 "induction head", "float32", "sliding window", "dot product")}
TERM_LINK = re.compile(r'<a class="term" href="#term-([\w-]+)">([^<]*)</a>')


def step_html(pairs):
    """The path's section as a fresh page draws it at this address (its HTML, and the whole page's)."""
    page = Page(Screen(lambda ops: None), Lexicons(), Timers())
    ops = page.receive({"type": "start", "framed": False, "address": {"base": "http://x/", "pairs": pairs},
                        "early": None, "state": "", "queue": []})
    return written_html(ops)


def written_html(ops):
    """The path's section in the ops' HTML (each op's strings joined, JSON's escapes undone)."""
    import json
    strings = []

    def walk(value):
        if isinstance(value, str):
            strings.append(value)
        elif isinstance(value, list):
            for item in value:
                walk(item)
        elif isinstance(value, dict):
            for item in value.values():
                walk(item)
    walk(json.loads(ops))
    whole = "".join(strings)
    section = re.search(r'<div class="path-bar".*?</dl></details>', whole, re.S)
    return section.group(0) if section else "", whole


def every_step():
    for way in registry.paths().values():
        for number, step in enumerate(way.steps, 1):
            yield way, number, step


def test_every_term_of_the_labs_has_an_entry_in_both_languages():
    """Each word of the jargon list is one of a term's forms in its language, with a definition."""
    registry.ids()
    for lang, words in JARGON.items():
        forms = {form.casefold(): term for term in glossary.TERMS.values() for form in term.words[lang]}
        missing = [w for w in words if w.casefold() not in forms]
        assert missing == [], (lang, missing)
        for word in words:
            assert len(forms[word.casefold()].text[lang]) > 40, (lang, word)


def test_each_entry_leads_to_a_step_that_shows_the_term():
    """An entry's link names a real step of a registered path, and the page at that step (its text,
    what to try, its answer, its views) uses one of the term's forms, in each language."""
    registry.ids()
    for term in glossary.TERMS.values():
        path_id, number = term.where
        way = path.path_of(path_id)
        assert 1 <= number <= len(way.steps), term.id
        for lang in ("it", "en"):
            _, whole = step_html(step_link(path_id, number, lang, way.steps[number - 1].mode))
            page = re.sub(r'<details class="glossary".*?</details>', "", whole, flags=re.S)
            words = html.unescape(re.sub(r"<[^>]+>", " ", page))
            assert any(re.search(rf"(?<!\w){re.escape(f)}(?!\w)", words, re.I) for f in term.words[lang]), (term.id, lang)


def test_on_every_step_the_first_use_of_each_term_links_to_its_entry_on_the_page():
    """Every step of every path, in both languages: the step's prose (its text, what to try, its answer),
    read in order, has each term's first use inside a link to #term-<id>, and that entry is in the glossary under the step."""
    for way, number, step in every_step():
        for lang in ("it", "en"):
            section, _ = step_html(step_link(way.id, number, lang, step.mode))
            assert '<details class="glossary" id="glossary">' in section, (way.id, number, lang)
            entries = set(re.findall(r'<dt id="term-([\w-]+)"', section))
            words = section.split('<details class="glossary"')[0].split("</h2>", 1)[1]  # (its prose: text, try, answer)
            for term_id, shown in TERM_LINK.findall(words):
                assert term_id in entries, (way.id, number, lang, term_id)
            plain = TERM_LINK.sub(lambda m: "\0" + m.group(1) + "\0", words)
            plain = re.sub(r"<[^>]+>", " ", plain)
            for term in glossary.TERMS.values():
                for form in term.words[lang]:
                    found = re.search(rf"(?<![\w\-\0]){re.escape(html.escape(form, quote=False))}(?![\w\-²\0])",
                                      plain, re.I)
                    if found:
                        first_link = plain.find("\0" + term.id + "\0")
                        assert 0 <= first_link < found.start(), (way.id, number, lang, term.id, form)


class _Prose(html.parser.HTMLParser):
    """A view's prose as a student reads it: the text of its paragraphs and list items (not of a
    control, a link, a table, code or a heading; nor of an element the page rewrites as plain text,
    `data-plain`), with each term link's id marked where it stands."""

    QUIET = {"button", "code", "label", "summary", "select", "option", "textarea", "table", "svg", "math",
             "script", "style", "h1", "h2", "h3", "h4", "kbd", "var"}

    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.open, self.text, self.link = [], [], None

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        if tag == "a" and attrs.get("class") == "term":
            self.link = attrs["href"].removeprefix("#term-")
            self.text.append(f"\0{self.link}\0")
        if tag in ("p", "li", "figcaption") or tag in self.QUIET or tag == "a":
            self.open.append((tag, tag in self.QUIET or tag == "a" or "data-plain" in attrs))

    def handle_endtag(self, tag):
        for i in range(len(self.open) - 1, -1, -1):
            if self.open[i][0] == tag:
                del self.open[i:]
                break

    def handle_data(self, data):
        if self.open and not any(quiet for _, quiet in self.open):
            self.text.append(data)
        self.text.append(" ")


def first_uses_unlinked(view_html, lang, linked_above):
    """The terms whose first use in the view's prose is not inside a link to their entry (those
    `linked_above`, by the step's text, excepted)."""
    reader = _Prose()
    reader.feed(view_html)
    prose = "".join(reader.text)
    unlinked = []
    for term in glossary.TERMS.values():
        if term.id in linked_above:
            continue
        starts = [m.start() for form in term.words[lang]
                  for m in re.finditer(rf"(?<![\w\-\0]){re.escape(form)}(?![\w\-²\0])", prose, re.I)]
        if starts and not 0 <= prose.find(f"\0{term.id}\0") < min(starts):
            unlinked.append(term.id)
    return unlinked


def view_sections(whole):
    """{view id: its section's HTML, as last written} in a page's HTML (the ops' strings joined)."""
    return {m.group(1): m.group(0) for m in
            re.finditer(r'<section id="view-([\w-]+)".*?(?=<section id="view-|\Z)', whole, re.S)}


def test_on_every_step_a_views_prose_links_each_terms_first_use_to_its_entry():
    """Every step of every path, in both languages: in each view's sentences (not its tables or
    controls), the first use of a term the step's text has not linked is a link to its entry, which
    the glossary under the step holds; «equivariante» under the shuffle on the position lab's step 1."""
    checked = 0
    for way, number, step in every_step():
        for lang in ("it", "en"):
            section, whole = step_html(step_link(way.id, number, lang, step.mode))
            entries = set(re.findall(r'<dt id="term-([\w-]+)"', section))
            prose = section.split('<div class="path-try">')[0]
            tried = re.search(r'<span id="path-try-text">(.*?)</span>', section, re.S).group(1)
            above = set(re.findall(r'href="#term-([\w-]+)"', prose + tried))
            for view_id, view_html in view_sections(whole).items():
                assert first_uses_unlinked(view_html, lang, above) == [], (way.id, number, lang, view_id)
                assert set(re.findall(r'class="term" href="#term-([\w-]+)"', view_html)) <= entries
                checked += 1
            if (way.id, number) == ("position", 1):
                assert 'href="#term-equivariant"' in view_sections(whole)["pos-shuffle"], lang
    assert checked > 100


def test_a_word_click_on_a_step_keeps_the_views_glossary_links():
    """A word click redraws the views that follow the word alone: on every sentence step of every
    path, each part drawn again links its terms' first uses as the page drew it whole (the ALiBi
    convention step's «Stessa testa, un'altra pendenza» still links «testa»)."""
    from tests.test_engine_page import started_page
    from app import render
    import json
    linked = set()
    for way, number, step in every_step():
        if step.mode != "sentence":
            continue
        page = started_page([("s", "Il gatto seduto sul tappeto dormiva"), ("focus", "1"), ("lang", "it"),
                             ("path", way.id), ("step", str(number))])
        section, _ = step_html([("s", "Il gatto seduto sul tappeto dormiva"), ("focus", "1"), ("lang", "it"),
                                ("path", way.id), ("step", str(number))])
        above = set(re.findall(r'href="#term-([\w-]+)"', section.split('<details>')[0]))
        context = {"target": {"name": "word", "value": "3", "type": "radio", "checked": True},
                   "checked": {"word": "3"}, "ids": list(render.ROW_PARTS.values()), "off": []}
        for op in json.loads(page.receive({"type": "change", "context": context})):
            if op[:2] == ["helper", "redrawPart"]:
                part = op[2][1]
                assert first_uses_unlinked(part, "it", above) == [], (way.id, number, op[2][0])
                linked.update((way.id, number, term) for term in re.findall(r'class="term" href="#term-([\w-]+)"', part))
    assert ("position", 5, "head") in linked and len(linked) > 40, len(linked)
