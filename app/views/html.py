"""A small HTML helper shared by the views: escaped text, tags and tables.

Every piece of text goes through `esc`; `table` derives colspans from its column specs,
so no view counts columns by hand.

On a phone a table's rows become small cards (static/style.css, `table[data-cards]`): each body
cell says its column's name (`data-label`, read by CSS), so a row is read to its last column
without scrolling sideways. `table` writes them; `labelled` adds them to a table a view writes by
hand, from its <thead>. Such a table and its rows and cells carry their roles, so a browser that
drops a table's semantics when its display changes still reads it as a table.
"""

import re
from html import escape, unescape


def esc(s):
    """Escape text for HTML element content and double-quoted attributes."""
    return escape(str(s), quote=True)


def attrs(**values):
    """' name="value"' pairs; None and False are left out, True is a bare attribute.
    A trailing underscore is dropped (class_) and other underscores become dashes."""
    out = []
    for name, value in values.items():
        if value is None or value is False:
            continue
        name = name.rstrip("_").replace("_", "-")
        out.append(f" {name}" if value is True else f' {name}="{esc(value)}"')
    return "".join(out)


def tag(name, content="", **values):
    """<name attrs>content</name>; `content` is HTML already (escape text with esc)."""
    return f"<{name}{attrs(**values)}>{content}</{name}>"


class Column:
    """A column of a `table`: its key (data-col of its cells) and its header HTML."""

    __slots__ = ("key", "header")

    def __init__(self, key, header):
        self.key, self.header = key, header


class Cell:
    """A body cell: its HTML, and the column it spans to (`until`), if more than one."""

    __slots__ = ("html", "until", "attrs")

    def __init__(self, html, until=None, **values):
        self.html, self.until, self.attrs = html, until, values


def table(columns, rows, caption="", foot=(), cards=True, **values):
    """A <table> whose first column holds row headers.

    columns: [Column]; the first is the row-header column. rows: [(header_html,
    [Cell | str], row attrs dict)]; a Cell with `until` spans to that column's key.
    foot: rows in the same form for <tfoot>. `cards` False: it stays a table on a phone too (a
    matrix, narrow already); its cells then carry no column names. A table of one value a row
    stays a table too.
    """
    cards = cards and len(columns) > 2
    role = ' role="columnheader"' if cards else ""
    head = "".join(f'<th scope="col"{role}>{c.header}</th>' for c in columns)
    inner = (tag("caption", caption) if caption else "") + f'<thead><tr{ROW if cards else ""}>{head}</tr></thead>' \
        + tag("tbody", table_rows(columns, rows, cards)) + (tag("tfoot", table_rows(columns, foot, cards)) if foot else "")
    if cards:
        values.update(role="table", data_cards="")
    return tag("table", inner, **values)


ROW = ' role="row"'


def label(header_html):
    """A column's name as a cell's `data-label` says it: its header's text, tags left out."""
    return " ".join(unescape(re.sub(r"<[^>]*>", "", header_html)).split())


def table_rows(columns, rows, cards=True):
    """The <tr>s of a `table`'s body (or foot): rows as `table` takes them (`cards`: as `table`)."""
    keys = [c.key for c in columns]
    place = {key: at for at, key in enumerate(keys)}
    names = [label(c.header) for c in columns]
    cell_role = ' role="cell"' if cards else ""
    # a one-column text cell's start, made once
    plain = [f'<td data-col="{esc(key)}"' + (f' data-label="{esc(name)}"' if cards else "") + f"{cell_role}>"
             for key, name in zip(keys, names)]
    rowheader = ' role="rowheader"' if cards else ""
    # (the role first: a class the page adds later to a row, its selection, comes after it, as in a
    # row drawn with it)
    start = f'<tr{ROW if cards else ""}{{}}><th scope="row"{rowheader}>'
    out = []
    for header, cells, row_attrs in rows:
        parts, at = [start.format(attrs(**row_attrs)), header, "</th>"], 1
        for cell in cells:
            if cell.__class__ is str:
                parts.append(f"{plain[at]}{cell}</td>")
                at += 1
                continue
            span = place[cell.until] - at + 1 if cell.until else 1
            values = {"data_col": keys[at], "colspan": span if span > 1 else None,
                      "data_label": names[at] if cards and span == 1 else None, "role": "cell" if cards else None,
                      **cell.attrs}
            parts.append(tag("td", cell.html, **values))
            at += span
        parts.append("</tr>")
        out.append("".join(parts))
    return "".join(out)


_CELL = re.compile(r"<(/?)(thead|tbody|tfoot|tr|th|td)\b([^>]*)>")
_SPAN = re.compile(r'colspan="(\d+)"')


def labelled(html):
    """`html` with each table a view wrote by hand made as `table` makes its own: its body's and
    foot's cells named after their column (`data-label`, the text of its header in the <thead>'s
    last row), and the roles of the table, its rows and cells. Left as they are: a table with no
    <thead>, one that has its labels already (`table`'s), one whose rows hold one value at most (it
    fits a phone as a table, its value wrapping), a grid (class "heatmap", a row a word and a
    column a word: it scrolls in its own box), and one that says it is narrow enough to stay a table
    on a phone (`data-narrow`: a few short numbers a row, the beyond lab's copy figures)."""
    if "<table" not in html:
        return html
    out, at = [], 0
    while (start := html.find("<table", at)) >= 0:
        end = html.find("</table>", start)
        if end < 0:
            break
        out.append(html[at:start])
        out.append(_label_table(html[start:end]))
        at = end
    out.append(html[at:])
    return "".join(out)


def _label_table(html):
    opening = html[:html.find(">") + 1]
    if "data-cards" in opening or "heatmap" in opening or "data-narrow" in opening or "<thead" not in html \
            or "data-label=" in html:
        return html
    body_at = html.find("<tbody")
    if body_at < 0 or max((row.count("<td") for row in html[body_at:].split("<tr")[1:]), default=0) < 2:
        return html  # (a row holds one value at most: it stays a table, its value wrapping on a phone)
    head = html[html.find("<thead"):html.find("</thead>")]
    names = []
    for row in head.split("<tr")[1:] or [""]:
        names = []
        for cell in re.finditer(r"<(th|td)\b([^>]*)>(.*?)</\1>", row, re.S):
            span = _SPAN.search(cell.group(2))
            names += [label(cell.group(3))] * (int(span.group(1)) if span else 1)
    part, column = "", 0

    def mark(m):
        nonlocal part, column
        close, name, rest = m.groups()
        if close:
            return m.group(0)
        if name in ("thead", "tbody", "tfoot"):
            part = name
            return m.group(0)
        if name == "tr":
            column = 0
            return f"<tr role=\"row\"{rest}>"  # (the role first: see `table_rows`)
        span = _SPAN.search(rest)
        span = int(span.group(1)) if span else 1
        at, column = column, column + span
        if part == "thead":
            return f'<{name}{rest} role="columnheader">'
        if name == "th" and ('scope="row"' in rest or at == 0):
            return f'<th{rest} role="rowheader">'
        said = f' data-label="{esc(names[at])}"' if span == 1 and at < len(names) and names[at] else ""
        return f'<{name}{rest}{said} role="cell">'

    body = _CELL.sub(mark, html[len(opening):])
    return opening[:-1] + ' role="table" data-cards="">' + body
