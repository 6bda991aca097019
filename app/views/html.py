"""A small HTML helper shared by the views: escaped text, tags and tables.

Every piece of text goes through `esc`; `table` derives colspans from its column specs,
so no view counts columns by hand.
"""

from html import escape


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


def table(columns, rows, caption="", foot=(), **values):
    """A <table> whose first column holds row headers.

    columns: [Column]; the first is the row-header column. rows: [(header_html,
    [Cell | str], row attrs dict)]; a Cell with `until` spans to that column's key.
    foot: rows in the same form for <tfoot>.
    """
    head = "".join(tag("th", c.header, scope="col") for c in columns)
    inner = (tag("caption", caption) if caption else "") + tag("thead", tag("tr", head)) \
        + tag("tbody", table_rows(columns, rows)) + (tag("tfoot", table_rows(columns, foot)) if foot else "")
    return tag("table", inner, **values)


def table_rows(columns, rows):
    """The <tr>s of a `table`'s body (or foot): rows as `table` takes them."""
    keys = [c.key for c in columns]
    place = {key: at for at, key in enumerate(keys)}
    plain = [f'<td data-col="{esc(key)}">' for key in keys]  # a one-column text cell's start, made once
    out = []
    for header, cells, row_attrs in rows:
        parts, at = [f'<tr{attrs(**row_attrs)}><th scope="row">{header}</th>'], 1
        for cell in cells:
            if cell.__class__ is str:
                parts.append(f"{plain[at]}{cell}</td>")
                at += 1
                continue
            span = place[cell.until] - at + 1 if cell.until else 1
            values = {"data_col": keys[at], "colspan": span if span > 1 else None, **cell.attrs}
            parts.append(tag("td", cell.html, **values))
            at += span
        parts.append("</tr>")
        out.append("".join(parts))
    return "".join(out)
