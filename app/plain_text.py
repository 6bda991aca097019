"""The page's HTML as plain text: headings and paragraphs as lines, tables as aligned
columns. The terminal (app/__main__.py) and a notebook's text display print the views'
own HTML through this (`steps_text`), so they show the same words and the same rounding
as the page; no second renderer.

Standard library only (html.parser, unicodedata): runs on any CPython 3.11+.
"""

import unicodedata
from html.parser import HTMLParser

from app import contract, i18n, render
from app.views import registry
from app.views.query import render_query, render_query_about
from app.views.steps import render_table

BLOCKS = ("h1", "h2", "h3", "p", "li", "legend")  # each becomes one line
SKIPPED = ("details", "script", "style")  # folded away on the page: left out here
NUMERIC = ("dot", "logit", "exp", "weight", "percent", "exp-sum", "weight-sum", "percent-sum")
GAP = "  "


def width(text):
    """Columns a terminal gives `text`: wide East Asian characters 2, combining marks 0."""
    return sum(0 if unicodedata.combining(c) else 2 if unicodedata.east_asian_width(c) in "WF" else 1
               for c in text)


class Table:
    """Rows of cells (text, colspan, right-aligned?) collected from a <table>."""

    def __init__(self):
        self.rows = []

    def lines(self):
        """The rows with every column padded to its widest single-column cell."""
        n = max((sum(span for _, span, _ in row) for row in self.rows), default=0)
        widths = [0] * n
        for row in self.rows:
            at = 0
            for text, span, _ in row:
                if span == 1:
                    widths[at] = max(widths[at], width(text))
                at += span
        out = []
        for row in self.rows:
            parts, at = [], 0
            for text, span, right in row:
                room = sum(widths[at:at + span]) + len(GAP) * (span - 1)
                pad = " " * max(room - width(text), 0)
                parts.append(pad + text if right else text + pad)
                at += span
            out.append(GAP.join(parts).rstrip())
        return out


class _Reader(HTMLParser):
    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.lines, self.tables, self.skip, self.text, self.table, self.cell = [], [], 0, None, None, None

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        if tag in SKIPPED:
            self.skip += 1
        elif self.skip:
            return
        elif tag == "table":
            self.table = Table()
        elif tag == "tr" and self.table is not None:
            self.table.rows.append([])
        elif tag in ("td", "th") and self.table is not None:
            self.cell = ["", int(attrs.get("colspan") or 1), attrs.get("data-col") in NUMERIC]
        elif tag == "caption":
            self.text = None  # the heading above already says it
        elif tag in BLOCKS:
            self.text = ""
        elif tag == "br" and self.text is not None:
            self.flush()
            self.text = ""

    def handle_endtag(self, tag):
        if tag in SKIPPED:
            self.skip -= 1
        elif self.skip:
            return
        elif tag in ("td", "th") and self.cell is not None:
            text, span, right = self.cell
            self.table.rows[-1].append((" ".join(text.split()), span, right))
            self.cell = None
        elif tag == "table" and self.table is not None:
            self.lines += self.table.lines()
            self.tables.append(self.table)
            self.table = None
        elif tag in BLOCKS:
            self.flush()

    def flush(self):
        if self.text is not None and self.text.strip():
            self.lines.append(" ".join(self.text.split()))
        self.text = None

    def handle_data(self, data):
        if self.skip:
            return
        if self.cell is not None:
            self.cell[0] += data
        elif self.text is not None:
            self.text += data


def to_text(html):
    """The lines a reader sees in `html` (the page's views), tables aligned in columns."""
    reader = _Reader()
    reader.feed(html)
    reader.close()
    return reader.lines


def table_cells(html):
    """The cells of the first <table> in `html`: [[(text, colspan, right-aligned)]]."""
    reader = _Reader()
    reader.feed(html)
    reader.close()
    return reader.tables[0].rows if reader.tables else []


# The whole-Transformer lab's views the terminal and a notebook show too (app/labs/transformer/): the
# block model's stream, LayerNorm, FFN units and logit lens in model mode, the translation's
# cross-attention in sentence mode with a `target`.
BLOCK_VIEWS = ("block-stream", "block-ln", "block-ffn", "block-lens")


def lab_views(settings, tokens, record):
    """The HTML of those of these views that apply, drawn as the page draws them ("": none)."""
    if settings.mode == "model":
        ids = BLOCK_VIEWS if record is not None and record.model.ln_f is not None else ()
    else:
        ids = ("cross",) if settings.target else ()
    ctx = registry.Context(settings=settings, tokens=tokens, record=record, row=None, parts={}, interactive=False)
    return "".join(registry.view(view_id).draw(ctx) for view_id in ids)


def steps_text(settings, tokens, record):
    """The lines the terminal prints: the question, the formula, the steps table, the notes."""
    lang = settings.lang
    if settings.mode == "model":
        return model_text(settings, record)
    row = contract.selected_row(settings, record)
    if row is None:
        words = "  ".join(f"{j} {t.text}" for j, t in enumerate(tokens))
        return [settings.sentence, i18n.text(lang, "cli_pick"), words]
    lines = [settings.sentence, ""] + to_text(render_query(row, tokens, lang) + render_query_about(record, lang)) + [""]
    table = registry.row_draw("table", row) or render_table  # (a lab's table: the beyond lab's scores)
    lines += to_text(table(row, tokens, lang))
    note = "" if table is not render_table else render.explain(row, tokens, lang)
    return lines + ([note] if note else []) + to_text(lab_views(settings, tokens, record))


def model_text(settings, record):
    """Model mode's lines: what was left out, the checkpoint, the induction path from the
    selected position (the block model's stream, LayerNorm, FFN units and lens), the prediction
    at each position, and the named heads' tables."""
    from app import model
    from app.views import model as views
    lang = settings.lang
    if record is None:
        return [i18n.text(lang, model.unavailable_key())]
    config = model.config(record.model.variant)
    training = views.render_training(config, record.step, lang, curve=False)
    heads = [f"<h3>{views.esc(views.head_caption(record, layer, head, lang))}</h3>"
             + views.render_head(record, layer, head, settings.focus, lang)
             for layer, head in views.named_heads(record)]
    written = registry.model_texts(record, lang)  # (a lab's: the letters the model wrote)
    html = (views.render_notes(record, lang) + written + training + views.render_circuit(record, settings.focus, lang)
            + lab_views(settings, None, record) + views.render_predictions(record, settings.focus, lang) + "".join(heads))
    return [settings.sentence, ""] + to_text(html)
