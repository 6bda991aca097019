"""The pure renderers (app/render.py): escaping, the table's numbers, the pre-render."""

import re
from html.parser import HTMLParser

from hypothesis import given, settings, strategies as st

from app import render, state
from app.lexicon import Token
from tools import build


class TextAndTags(HTMLParser):
    """Collects the text and the tag names of an HTML fragment."""

    def __init__(self):
        super().__init__()
        self.text, self.tags, self.attrs = [], [], []

    def handle_starttag(self, tag, attrs):
        self.tags.append(tag)
        self.attrs.extend(name for name, _ in attrs)

    def handle_data(self, data):
        self.text.append(data)


ALLOWED_TAGS = {"h1", "h2", "p", "header", "section", "div", "form", "label", "input", "button",
                "select", "option", "fieldset", "legend", "span", "small", "br", "ul", "li", "svg",
                "rect", "details", "summary", "table", "caption", "thead", "tbody", "tfoot", "tr",
                "th", "td", "textarea", "strong"}
ALLOWED_ATTRS = {"id", "class", "for", "name", "type", "value", "checked", "disabled", "selected",
                 "autocomplete", "spellcheck", "lang", "title", "aria-hidden", "aria-label",
                 "data-index", "data-col", "viewbox", "preserveaspectratio", "focusable", "width",
                 "height", "role", "tabindex", "colspan", "scope", "readonly", "rows", "hidden",
                 "aria-valuenow", "aria-valuemin", "aria-valuemax", "aria-valuetext"}


def render_everything(text_in, focus=0, mask=False, include_self=False, lang="it"):
    words = [text_in, "gatto", text_in]
    tokens = [Token(w, [0.5, 0.5, 0.5, 0.5], known=(i != 0), guess="noun") for i, w in enumerate(words)]
    s = state.Settings(text_in, focus, mask, include_self, lang)
    result = state.analyse(s, tokens)
    notes = [state.Note("link_focus_bad", value=text_in), state.Note("link_sentence_bad",
             why=state.Note("empty"))]
    return render.render_app(s, tokens, result, notes=notes)


@settings(max_examples=200, deadline=None)
@given(text_in=st.text(min_size=1, max_size=40), focus=st.integers(0, 2), mask=st.booleans(),
       include_self=st.booleans(), lang=st.sampled_from(["it", "en"]))
def test_user_text_never_reaches_html_unescaped(text_in, focus, mask, include_self, lang):
    """Arbitrary text in the sentence, the box and a note adds no tag or attribute of its own."""
    wrapped = f"⟦{text_in}⟧"  # markers show exactly where the user's text starts and ends
    html = render_everything(wrapped, focus, mask, include_self, lang)
    parser = TextAndTags()
    parser.feed(html)
    parser.close()
    assert set(parser.tags) <= ALLOWED_TAGS
    assert set(parser.attrs) <= ALLOWED_ATTRS
    assert wrapped in "".join(parser.text)  # shown literally, as the student typed it
    if any(c in text_in for c in "<>&\"'"):
        assert wrapped not in html  # never raw in the markup


def test_markup_shows_as_literal_text():
    """A sentence with <script> and an event handler is shown as text, never as markup."""
    payload = '<img src=x onerror="alert(1)">'
    html = render_everything(payload)
    assert payload not in html and "&lt;img src=x onerror=&quot;alert(1)&quot;&gt;" in html
    parser = TextAndTags()
    parser.feed(html)
    assert "img" not in parser.tags and payload in "".join(parser.text)


def table_cells(html, col):
    return re.findall(rf'data-col="{col}">([^<]*)<', html)


def test_table_shows_every_step_with_italian_decimal_commas(lexicons):
    """The steps table writes q·k as products, then dot, ÷2, e^x, weight, % and the totals."""
    s = state.default_settings("it")
    tokens, _ = state.check_sentence(s.sentence, lexicons["it"])
    html = render.render_table(state.analyse(s, tokens), tokens, "it")
    assert table_cells(html, "products")[1] == "3×0,95 + 0×0,05 + 2×0,1 + 0×0"
    assert table_cells(html, "dot")[:5] == ["0,000", "3,050", "0,700", "0,200", "2,000"]
    assert table_cells(html, "logit")[1] == "1,525"
    assert table_cells(html, "exp")[1] == "4,595"
    assert table_cells(html, "percent") == ["9%", "43%", "13%", "10%", "25%"]
    assert table_cells(html, "exp-sum") == ["Σ = 10,838"] and table_cells(html, "percent-sum") == ["100%"]
    assert "softmax(QKᵀ / √d_k)" in render.render_analysis(state.analyse(s, tokens), tokens, "it")


def test_english_table_uses_decimal_points(lexicons):
    """In English the same numbers use a decimal point."""
    s = state.default_settings("en")
    tokens, _ = state.check_sentence(s.sentence, lexicons["en"])
    html = render.render_table(state.analyse(s, tokens), tokens, "en")
    assert "." in table_cells(html, "dot")[1] and "," not in table_cells(html, "dot")[1]


def test_masked_and_self_rows_say_what_they_are(lexicons):
    """With the mask, later words show −∞ and 0%; the clicked word says it asks the question."""
    s = state.Settings("Il gatto dorme", 1, mask=True)
    tokens, _ = state.check_sentence(s.sentence, lexicons["it"])
    result = state.analyse(s, tokens)
    html = render.render_analysis(result, tokens, "it")
    assert "−∞ (maschera)" in html and "è la parola che fa la domanda" in html
    assert "aritmetica, non una preferenza" in html  # one candidate left


def test_first_word_with_mask_explains_nobody_to_look_at(lexicons):
    """The first word under the mask: the page says there is nobody to look at."""
    s = state.Settings("Il gatto dorme", 0, mask=True, lang="en")
    tokens, _ = state.check_sentence(s.sentence, lexicons["en"])
    html = render.render_analysis(state.analyse(s, tokens), tokens, "en")
    assert "no word before it to look at" in html and "real model" in html


def test_guessed_words_are_marked_in_the_sentence(lexicons):
    """A word not in the lexicon carries the ≈ mark and the reason of the guess."""
    tokens, _ = state.check_sentence("Il gatto di Zorro", lexicons["it"])
    html = render.render_sentence(tokens, None, "it")
    assert html.count('class="word guessed"') == 1 and "nome proprio" in html


def test_committed_prerender_is_fresh():
    """index.html holds exactly what render.py makes of the default example today."""
    page = (build.ROOT / "index.html").read_text(encoding="utf-8")
    assert build.with_prerender(page) == page, "run `make build` to refresh index.html"


def test_every_app_module_is_shipped_by_the_pyscript_config():
    """pyscript.toml lists every module of app/ (except main.py, the entry script) and lexicon."""
    config = (build.ROOT / "pyscript.toml").read_text(encoding="utf-8")
    for path in sorted((build.ROOT / "app").glob("*.py")):
        if path.name != "main.py":
            assert f'"./app/{path.name}"' in config
    for path in sorted((build.ROOT / "lexicon").glob("*.csv")):
        assert f'"./lexicon/{path.name}"' in config


def test_lexicon_problems_are_listed_with_file_and_line():
    """A teacher's broken row appears on the page as 'Lessico it.csv, riga 4: …'."""
    from app.lexicon import parse_lexicon
    _, problems = parse_lexicon("word,alive,action,thing,function\ngatto,1,0,0,0\ncane,1,0\n", "it.csv")
    html = render.render_messages([], problems, "it")
    assert "Lessico it.csv, riga 3: ci sono 3 colonne invece di 5; riga saltata" in html


def test_announcement_says_where_the_word_looks_largest_first(lexicons):
    """The live-region sentence lists words by attention, with 'per cento' in Italian."""
    s = state.default_settings("it")
    tokens, _ = state.check_sentence(s.sentence, lexicons["it"])
    said = render.announcement(state.analyse(s, tokens), tokens, "it")
    assert said == ("«dormiva» guarda: gatto: 43 per cento, tappeto: 25 per cento, seduto: 13 per cento, "
                    "sul: 10 per cento, Il: 9 per cento.")
    assert render.announcement(None, tokens, "en") == "Pick a word of the sentence to see where it looks."


def test_numbers_round_half_up_as_by_hand():
    """1,995 ÷ 2 = 0,9975 shows 0,998 (not float's 0,997); no −0,000; English uses points."""
    from app.i18n import num, short
    assert num(1.995 / 2, "it") == "0,998" and num(0.9975, "en") == "0.998"
    assert num(2.0005, "it") == "2,001" and num(0.0004999, "it") == "0,000"
    assert num(-0.0004, "it") == "0,000" and num(-1.2345, "it") == "−1,235"
    assert short(0.35000000000000003, "it") == "0,35" and short(3.0, "en") == "3"
