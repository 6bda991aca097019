"""The glossary (app/glossary.py): every term the labs use is explained in both languages, one click
away on every step of every registered path, and each entry leads to a step that shows the term."""

import html
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
