"""The pure renderers (app/render.py and app/views/): escaping, the table's numbers, the pre-render."""

import re
from html.parser import HTMLParser

from hypothesis import given, settings, strategies as st

from app import contract, render, settings as state
from app.views import heatmap, output, sentence, steps
from tests import reference
from tests.reference import rule_percent
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
ALLOWED_TAGS |= {"h3", "ol"}  # the heads side by side
ALLOWED_TAGS |= {"progress"}  # the package button's progress
ALLOWED_ATTRS = {"id", "class", "for", "name", "type", "value", "checked", "disabled", "selected",
                 "autocomplete", "spellcheck", "lang", "title", "aria-hidden", "aria-label",
                 "data-index", "data-col", "viewbox", "preserveaspectratio", "focusable", "width",
                 "height", "role", "tabindex", "colspan", "scope", "readonly", "rows", "hidden",
                 "aria-valuenow", "aria-valuemin", "aria-valuemax", "aria-valuetext", "data-row",
                 "aria-pressed", "data-view", "min", "max", "step"}
ALLOWED_ATTRS |= {"aria-describedby", "aria-invalid", "aria-labelledby", "inputmode", "open",
                  "data-matrix", "data-r", "data-c", "data-value", "data-designed", "data-label",
                  "data-head", "data-edit"}  # heads and the editable cells
ALLOWED_ATTRS |= {"aria-rowcount", "aria-rowindex", "data-start", "data-stop", "data-gap",
                  "aria-colcount", "aria-colindex", "data-cstart", "data-cstop"}  # the grid
ALLOWED_ATTRS |= {"data-cards"}  # a table read as cards on a phone (its cells name their column: data-label)
ALLOWED_ATTRS |= {"data-plain"}  # prose the page rewrites as text: no glossary link in it (app/glossary.py)


def analysed(s, tokens):
    """(record, selected row) for settings `s`."""
    record = contract.compute(s, tokens)
    return record, contract.selected_row(s, record)


def render_everything(text_in, focus=0, mask=False, include_self=False, lang="it"):
    words = [text_in, "gatto", text_in]
    tokens = [Token(w, [0.5, 0.5, 0.5, 0.5], known=(i != 0), guess="noun") for i, w in enumerate(words)]
    s = state.Settings(text_in, focus, mask, include_self, lang)
    record, row = analysed(s, tokens)
    notes = [state.Note("link_focus_bad", value=text_in), state.Note("link_sentence_bad",
             why=state.Note("empty"))]
    html = render.render_app(s, tokens, record, row, notes=notes)
    # The page's own link to a new tab (app/views/controls.py) is one of its three <a>: taken out whole,
    # so that no <a> or href is allowed below.
    own = re.compile(r'<a class="open-top" href="\./" target="_blank" rel="noopener" data-open-top>'
                     r'(Apri in una nuova scheda|Open in a new tab)<span aria-hidden="true"> ↗</span></a>')
    assert len(own.findall(html)) == 1
    # (and the header's line: its link to the explanation at the end and to the teachers' guide)
    lines = re.compile(r'<a href="#about">(Che cos&#x27;è|What is this\?)</a><span class="tag-sep"> · </span>'
                       r'<a class="for-teachers" href="(teachers\.html|teachers\.en\.html)">'
                       r'(Per chi insegna|For teachers)</a>')
    assert len(lines.findall(html)) == 1
    return lines.sub("", own.sub("", html))


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
    return re.findall(rf'data-col="{col}"[^>]*>([^<]*)<', html)


def test_table_shows_every_step_with_italian_decimal_commas(lexicons):
    """The steps table writes q·k as products, then dot, ÷2, e^x, weight, % and the totals."""
    s = state.default_settings("it")
    tokens, _ = state.check_sentence(s.sentence, lexicons["it"])
    record, row = analysed(s, tokens)
    html = steps.render_table(row, tokens, "it")
    assert table_cells(html, "products")[1] == "3×0,95 + 0×0,05 + 2×0,1 + 0×0"
    assert table_cells(html, "dot")[:5] == ["0,000", "3,050", "0,700", "0,200", "2,000"]
    assert table_cells(html, "logit")[1] == "1,525"
    assert table_cells(html, "exp")[1] == "4,595"
    assert table_cells(html, "percent") == ["9,2%", "42,4%", "13,1%", "10,2%", "25,1%"]
    assert table_cells(html, "exp-sum") == ["Σ = 10,838"] and table_cells(html, "percent-sum") == ["100,0%"]
    assert "softmax(QKᵀ / (√d_k × T))" in render.render_analysis(s, tokens, record, row)
    assert "divisore ÷ 2" in html and "logit = q·k ÷ 2" in html


def test_english_table_uses_decimal_points(lexicons):
    """In English the same numbers use a decimal point."""
    s = state.default_settings("en")
    tokens, _ = state.check_sentence(s.sentence, lexicons["en"])
    html = steps.render_table(analysed(s, tokens)[1], tokens, "en")
    assert "." in table_cells(html, "dot")[1] and "," not in table_cells(html, "dot")[1]


def test_masked_and_self_rows_say_what_they_are(lexicons):
    """With the mask, later words show −∞ and 0%; the clicked word says it asks the question."""
    s = state.Settings("Il gatto dorme", 1, mask=True)
    tokens, _ = state.check_sentence(s.sentence, lexicons["it"])
    html = render.render_analysis(s, tokens, *analysed(s, tokens))
    assert "−∞ (maschera)" in html and "è la parola che fa la domanda" in html
    assert "aritmetica, non una preferenza" in html  # one candidate left


def test_first_word_with_mask_explains_nobody_to_look_at(lexicons):
    """The first word under the mask: the page says there is nobody to look at."""
    s = state.Settings("Il gatto dorme", 0, mask=True, lang="en")
    tokens, _ = state.check_sentence(s.sentence, lexicons["en"])
    html = render.render_analysis(s, tokens, *analysed(s, tokens))
    assert "no word before it to look at" in html and "real model" in html


def test_guessed_words_are_marked_in_the_sentence(lexicons):
    """A word not in the lexicon carries the ≈ mark and the reason of the guess."""
    tokens, _ = state.check_sentence("Il gatto di Zorro", lexicons["it"])
    html = sentence.render_sentence(tokens, None, "it")
    assert html.count('class="word guessed"') == 1 and "nome proprio" in html


def test_committed_prerender_is_fresh():
    """index.html holds exactly what render.py makes of the default example today."""
    page = (build.ROOT / "index.html").read_text(encoding="utf-8")
    assert build.with_prerender(page) == page, "run `make build` to refresh index.html"


def test_pre_rendered_editor_shows_the_numbers_the_engine_makes_inputs_of(lexicons):
    """Before the engine is up the editor shows every number as text, no text field (a browser's
    autofill reads each one at every load); live, the same numbers are the inputs' values."""
    s = state.default_settings("it")
    tokens, _ = state.check_sentence(s.sentence, lexicons["it"])
    record = contract.compute(s, tokens)
    early = render.render_edits(s, tokens, record, interactive="early")
    live = render.render_edits(s, tokens, record)
    assert "<input" not in early
    shown = re.findall(r'<span class="cell">([^<]*)</span>', early)
    assert len(shown) == 3 * 16 + 4 * len(tokens) == live.count('<input type="text"')
    assert shown == re.findall(r'<input type="text"[^>]* value="([^"]*)"', live)
    assert "3" in shown and "0" in shown  # W_Q of «Chi fa cosa» as designed
    page = (build.ROOT / "index.html").read_text(encoding="utf-8")
    editor = re.search(r'<section id="editor".*?</section>', page, re.S).group(0)
    assert 'type="text"' not in editor and editor.count('class="cell"') == len(shown)


def test_pre_render_is_kept_only_when_the_state_says_the_same():
    """Python in the browser may differ from the build's in the last bit of an exp; the
    pre-rendered example is kept then, but not when any shown value or word differs."""
    page = re.search(r'id="attention-state">(.*?)</script>', (build.ROOT / "index.html").read_text(), re.S).group(1)
    assert contract.same_state(page, page)
    nudged = re.sub(r"(\d\.\d{15})\d", lambda m: m.group(1) + "9", page, count=3)
    assert nudged != page and contract.same_state(nudged, page)
    assert not contract.same_state(page.replace('"focus": 5', '"focus": 4'), page)
    assert not contract.same_state(page.replace("gatto", "gatta", 1), page)
    assert not contract.same_state(re.sub(r"0\.(\d{4})", r"0.9\1", page, count=1), page)
    assert not contract.same_state(page[:-1], page)


def test_every_app_module_is_shipped_by_the_pyscript_config():
    """The page gets every module of app/ (except main.py, the entry script, and the terminal
    and notebook modules and a lab's bench rows, which run on CPython only), compiled: the core's and each lab's manifest
    from the archive pyscript.toml unpacks into app/, a lab's other modules from its own archive
    app/labs/<id>.zip (fetched when the lab is needed), and no lab module from the first; and every
    lexicon file from pyscript.toml."""
    import zipfile
    config = (build.ROOT / "pyscript.toml").read_text(encoding="utf-8")
    assert '"./app/app.zip" = "./app/*"' in config
    shipped = zipfile.ZipFile(build.ROOT / "app" / "app.zip").namelist()
    outside_the_page = ("main.py", "__main__.py", "notebook.py", "plain_text.py", "bench.py")  # (bench.py: a lab's bench rows)
    labs_seen = set()
    for path in sorted((build.ROOT / "app").rglob("*.py")):
        member = path.relative_to(build.ROOT / "app").with_suffix(".pyc").as_posix()
        parts = member.split("/")
        if path.name in outside_the_page:
            continue
        if parts[0] == "labs" and len(parts) == 3 and parts[2] != "__init__.pyc":
            labs_seen.add(parts[1])
            assert member not in shipped
            assert member in zipfile.ZipFile(build.ROOT / "app" / "labs" / f"{parts[1]}.zip").namelist()
        else:
            assert member in shipped
    assert labs_seen == {"position", "cost", "generation", "beyond", "transformer"}
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
    said = render.row_announcement(analysed(s, tokens)[1], tokens, "it")
    assert said == ("«dormiva» guarda: gatto: 42 per cento, tappeto: 25 per cento, seduto: 13 per cento, "
                    "sul: 10 per cento, Il: 9 per cento.")
    assert render.row_announcement(None, tokens, "en") == "Pick a word of the sentence to see where it looks."


def test_numbers_round_half_up_as_by_hand():
    """1,995 ÷ 2 = 0,9975 shows 0,998 (not float's 0,997); no −0,000; English uses points."""
    from app.i18n import num, short
    assert num(1.995 / 2, "it") == "0,998" and num(0.9975, "en") == "0.998"
    assert num(2.0005, "it") == "2,001" and num(0.0004999, "it") == "0,000"
    assert num(-0.0004, "it") == "0,000" and num(-1.2345, "it") == "−1,235"
    assert short(0.35000000000000003, "it") == "0,35" and short(3.0, "en") == "3"


# --- the percent rule (README, "Numbers on the page") ----------------------------------------

@settings(max_examples=500, deadline=None)
@given(weight=st.floats(0, 1), decimals=st.sampled_from([0, 1]), lang=st.sampled_from(["it", "en"]))
def test_every_percentage_follows_the_stated_rule(weight, decimals, lang):
    """Any weight shows as 100 × weight rounded half up on its own (bars: 0 digits, table: 1)."""
    from app.i18n import percent
    assert percent(weight, lang, decimals) == rule_percent(weight, decimals, lang)


@st.composite
def numbers_and_digits(draw):
    """A number and the digits it is shown with: any number, or one on a half of the last digit
    shown or a hair beside it (where rounding the float itself would go the other way)."""
    decimals = draw(st.integers(0, 6))
    if draw(st.booleans()):
        return draw(st.floats(-1e9, 1e9)), decimals
    half = (draw(st.integers(0, 10 ** 9)) + 0.5) / 10 ** decimals
    beside = draw(st.sampled_from([0.0, 1e-16, -1e-16, 1e-15, -1e-15, 1e-14, -1e-14, 1e-13, -1e-13, 1e-9]))
    return draw(st.sampled_from([1, -1])) * half * (1 + beside), decimals


@settings(max_examples=3000, deadline=None)
@given(number=numbers_and_digits(), lang=st.sampled_from(["it", "en"]))
def test_every_number_follows_the_stated_rule(number, lang):
    """Any number shows as the README's rule writes it: 15 significant digits, then rounded half up
    to the digits shown, with the language's mark and a true minus (halves and their neighbours too)."""
    from app.i18n import num
    x, decimals = number
    assert num(x, lang, decimals) == reference.shown(x, decimals, lang)


def test_percentages_check_by_hand_where_version_1_did_not():
    """0,424 shows 42% (not 43%), 0,2875 shows 28,8%, equal weights show equal percentages."""
    from app.i18n import percent
    assert percent(0.42399760933593045, "it") == "42%"
    assert percent(0.2875, "it", 1) == "28,8%" and percent(0.0745, "en", 1) == "7.5%"
    assert {percent(1 / 12, "it") for _ in range(12)} == {"8%"}


def test_rounding_note_when_the_parts_do_not_add_up(lexicons):
    """Three equal weights show 33,3% each (99,9%): a note says why; the total row says 100,0%."""
    tokens = [Token(w, [1.0, 0, 0, 0], known=True) for w in ("a", "b", "c", "d")]
    s = state.Settings("a b c d", 0)
    html = steps.render_table(analysed(s, tokens)[1], tokens, "it")
    assert table_cells(html, "percent") == ["33,3%"] * 3
    assert table_cells(html, "percent-sum") == ["100,0%"]
    assert "sommate fanno 99,9%" in html


def test_html_table_derives_colspans_from_column_keys():
    """A cell spanning to a named column gets the colspan the columns give, not a hand count."""
    from app.views.html import Cell, Column, table
    cols = [Column(k, k) for k in ("name", "a", "b", "c", "d")]
    html = table(cols, [("x", ["1", Cell("rest", until="d")], {})])
    assert '<td data-col="a" data-label="a" role="cell">1</td><td data-col="b" colspan="3" role="cell">rest</td>' in html


def test_html_table_names_each_cell_after_its_column_for_a_phone():
    """Each body cell of a table says its column's header as text (data-label, what a phone's card
    shows beside it), the table and its cells keep their roles; a table written by hand gets the
    same from its <thead>; a matrix, a grid and a table of one value a row stay plain."""
    from app.views.html import Cell, Column, labelled, table
    cols = [Column("word", "Parola"), Column("w", "peso = e^logit &#247; &lt;Σ&gt;"), Column("p", "<b>%</b>")]
    html = table(cols, [("x", ["0,5", "50%"], {}), ("y", [Cell("—", until="p")], {})], class_="steps")
    assert '<table class="steps" role="table" data-cards="">' in html
    assert '<td data-col="w" data-label="peso = e^logit ÷ &lt;Σ&gt;" role="cell">0,5</td>' in html
    assert '<td data-col="p" data-label="%" role="cell">50%</td>' in html
    assert '<td data-col="w" colspan="2" role="cell">—</td>' in html  # (a spanning cell says itself)
    assert "data-label" not in table(cols, [("x", ["1", "2"], {})], cards=False)
    assert "data-label" not in table(cols[:2], [("x", ["1"], {})])
    by_hand = ('<table class="steps gen-same"><thead><tr><th scope="col">Lettera</th><th scope="col">con la cache</th>'
               '<th scope="col">passo intero</th></tr></thead><tbody><tr><th scope="row">a</th><td>0,1</td><td>0,1</td>'
               '</tr></tbody></table>')
    assert labelled("<p>x</p>" + by_hand) == (
        '<p>x</p><table class="steps gen-same" role="table" data-cards=""><thead><tr role="row">'
        '<th scope="col" role="columnheader">Lettera</th><th scope="col" role="columnheader">con la cache</th>'
        '<th scope="col" role="columnheader">passo intero</th></tr></thead><tbody><tr role="row">'
        '<th scope="row" role="rowheader">a</th><td data-label="con la cache" role="cell">0,1</td>'
        '<td data-label="passo intero" role="cell">0,1</td></tr></tbody></table>')
    one_value = by_hand.replace("<td>0,1</td><td>0,1</td>", "<td>0,1</td>")
    grid = by_hand.replace('class="steps gen-same"', 'class="heatmap"')
    assert labelled(one_value) == one_value and labelled(grid) == grid


# --- heatmap, output, notes ---------------------------------------------------------------------

def default_it(lexicons, **changes):
    s = state.default_settings("it").copy(**changes)
    tokens, _ = state.check_sentence(s.sentence, lexicons["it"])
    return s, tokens, *analysed(s, tokens)


def test_heatmap_has_every_weight_row_headers_and_marks(lexicons):
    """6×6 grid: rows = who asks, a button per row, the selected row marked, the diagonal —,
    masked cells ·, and the n² line '6 parole → 36 punteggi'."""
    s, tokens, record, row = default_it(lexicons, mask=True)
    html = heatmap.render_heatmap(record, tokens, 5, "it")
    assert html.count('class="row-pick"') == 6 and 'aria-pressed="true"' in html
    cells = re.findall(r'<td class="(s\d|masked|self)">([^<]*)</td>', html)
    assert len(cells) == 36
    assert cells[0] == ("masked", "·") or cells[0] == ("self", "—")
    assert cells[1] == ("masked", "·")  # Il cannot look at gatto, which comes after it
    assert [c[1] for c in cells[30:36]] == ["9", "42", "13", "10", "25", "—"]
    assert "6 parole → 36 punteggi; 1.000 parole → 1.000.000" in html


def test_a_long_grid_draws_a_window_of_rows_between_two_gaps(lexicons):
    """200 words: WINDOW rows from the row asked (clamped at the end), each with its
    aria-rowindex, two gap rows for the rest, aria-rowcount 201; first=None draws all 200."""
    words = ("Il gatto seduto sul tappeto dormiva e il cane guardava la luna ".split() * 17)[:200]
    s = state.default_settings("it").copy(sentence=" ".join(words), text=" ".join(words), limit=200, focus=50)
    tokens, _ = state.check_sentence(s.sentence, lexicons["it"], 200)
    record, _ = analysed(s, tokens)
    for first, start in ((50, 50), (190, 200 - heatmap.WINDOW), (0, 0)):
        html = heatmap.render_heatmap(record, tokens, 50, "it", first=first)
        rows = [int(i) for i in re.findall(r'<tr data-row="(\d+)"', html)]
        assert rows == list(range(start, start + heatmap.WINDOW))
        assert re.findall(r'<tr data-row="(\d+)" aria-rowindex="(\d+)"', html)[0] == (str(start), str(start + 2))
        assert html.count('class="gap"') == 2 and 'aria-rowcount="201"' in html
        assert ('class="selected"' in html) == (start <= 50 < start + heatmap.WINDOW)
        assert "le righe si disegnano mentre scorri" in html
    whole = heatmap.render_heatmap(record, tokens, 50, "it", first=None)
    assert len(re.findall(r'<tr data-row=', whole)) == 200 and 'class="gap"' not in whole
    assert 'class="skip"' not in whole and len(re.findall(r'<td class="(?:s\d|masked|self)"', whole)) == 200 * 200
    _, six, six_record, _ = default_it(lexicons)
    small = heatmap.render_heatmap(six_record, six, 5, "it")
    assert 'class="gap"' not in small and "scorri" not in small
    assert "aria-colindex" not in small and 'class="skip"' not in small


def test_a_wide_grid_draws_a_window_of_columns_each_saying_its_index(lexicons):
    """200 words: every column header is drawn (each column keeps its width), but each drawn row
    only the COLUMNS cells from the column asked (clamped at the end), each with its
    aria-colindex and the weight numpy gives, between two hidden cells spanning the others."""
    words = ("Il gatto seduto sul tappeto dormiva e il cane guardava la luna ".split() * 17)[:200]
    s = state.default_settings("it").copy(sentence=" ".join(words), text=" ".join(words), limit=200, focus=50)
    tokens, _ = state.check_sentence(s.sentence, lexicons["it"], 200)
    record, _ = analysed(s, tokens)
    cards = [t.card for t in tokens]
    for column, c0 in ((60, 60), (190, 200 - heatmap.COLUMNS), (0, 0)):
        html = heatmap.render_heatmap(record, tokens, 50, "it", first=40, first_column=column)
        assert f'aria-colcount="201" data-cstart="{c0}" data-cstop="{c0 + heatmap.COLUMNS}"' in html
        assert html.count('<th scope="col"') == 200
        for row in re.findall(r'<tr data-row="(\d+)"[^>]*>(.*?)</tr>', html):
            i, cells = int(row[0]), row[1]
            drawn = re.findall(r'<td aria-colindex="(\d+)" class="[^"]+">([^<]*)</td>', cells)
            assert [int(k) - 2 for k, _ in drawn] == list(range(c0, c0 + heatmap.COLUMNS))
            spans = [int(k) for k in re.findall(r'<td class="skip" colspan="(\d+)" aria-hidden="true">', cells)]
            assert spans == [k for k in (c0, 200 - c0 - heatmap.COLUMNS) if k > 0]
            _, _, weights, _ = reference.attention_row(cards, reference.W_Q, i)  # (numpy)
            assert [p for _, p in drawn] == ["—" if j == i else str(int(100 * weights[j] + 0.5))
                                             for j in range(c0, c0 + heatmap.COLUMNS)]


def test_output_is_the_weighted_sum_of_the_values(lexicons):
    """'nuovo «dormiva» = 0,424 × gatto + 0,251 × tappeto + …' and the new card Σ w·v."""
    s, tokens, record, row = default_it(lexicons)
    html = output.render_output(row, tokens, "it")
    assert "nuovo «dormiva» = 0,424 × gatto + 0,251 × tappeto + 0,131 × seduto + 0,102 × sul + 0,092 × Il" in html
    import numpy as np
    want = np.asarray(row.weights) @ np.asarray([t.card for t in tokens])
    np.testing.assert_allclose(row.output, want, atol=1e-12)
    assert "carta nuova" in html and "0,42" in html


def test_notes_for_saturated_flat_and_weak(lexicons):
    """Scale off and T = ⅛: a saturation note; T = 8: a flat note; a faint card: a weak question."""
    s, tokens, record, row = default_it(lexicons, scaled=False, temperature=0.125)
    assert "satura" in render.explain(row, tokens, "it")
    s, tokens, record, row = default_it(lexicons, temperature=8.0)
    assert "quasi piatti" in render.explain(row, tokens, "it")
    faint = [Token("x", [0.1, 0.1, 0.1, 0.1], known=True), Token("y", [1, 0, 0, 0], known=True),
             Token("z", [0, 0, 1, 0], known=True)]
    row = contract.selected_row(state.Settings("x y z", 0), contract.compute(state.Settings("x y z", 0), faint))
    from app.views.query import query_words
    assert "domanda debole" in query_words(row, "x", "it")


def test_page_text_corrections(lexicons):
    """ed before e-, W_Q's corner cell and zero column, one colon in the guess tooltip,
    the one-word hint and the mask hint that is true with the self switch off."""
    from app.i18n import PRESETS, STRINGS, join_words
    assert join_words(["azioni", "esseri viventi"], "it") == "azioni ed esseri viventi"
    s, tokens, record, row = default_it(lexicons)
    html = render.render_analysis(s, tokens, record, row)
    assert "chi chiede ↓ · cerca →" in html and "nessuna parola cerca le paroline di rimando" in html
    guessed, _ = state.check_sentence("Zorro", lexicons["it"])
    note = sentence.guess_note(guessed[0], "it")
    assert note.count(":") == 0
    one = state.Settings("Zorro", 0)
    one_row = contract.selected_row(one, contract.compute(one, guessed))
    assert "Includi la parola stessa" in render.explain(one_row, guessed, "it")
    assert "vengono prima, come in GPT" not in STRINGS["it"]["mask_hint"]
    sentence_2, focus_2 = PRESETS["it"][1]
    s2 = state.Settings(sentence_2, focus_2)
    tokens2, _ = state.check_sentence(sentence_2, lexicons["it"])
    weights = sorted(analysed(s2, tokens2)[1].weights, reverse=True)
    assert weights[0] - weights[1] > 0.01  # a clear winner, not a tie


@settings(max_examples=2000, deadline=None)
@given(weight=st.floats(0, 1))
def test_heatmap_cells_follow_the_percent_rule(weight):
    """The grid's quick whole percentage equals the stated rule for any weight."""
    assert f"{heatmap.whole_percent(weight)}%" == rule_percent(weight, 0, "it")
    assert heatmap.whole_percent(0.125) == 13 and heatmap.whole_percent(0.005) == 1


def test_more_settings_opens_when_a_link_changed_one_of_them():
    """By default "More settings" is closed (the first screen is the sentence); a link that set
    the temperature, the head or guess-first opens it, so the student sees what was changed."""
    from app.views.controls import render_settings
    plain = state.default_settings("it")
    assert '<details class="more-settings">' in render_settings(plain)
    for changed in (plain.copy(temperature=2.0), plain.copy(head=2), plain.copy(quiz=True), plain.copy(scaled=False)):
        assert '<details class="more-settings" open>' in render_settings(changed)
    assert 'id="mask"' in render_settings(plain).split("<details")[0]  # the mask stays in view
