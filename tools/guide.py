"""The teachers' guide as pages of the bundle (CPython only): docs/teachers.md → teachers.html,
docs/teachers.en.md → teachers.en.html, beside index.html, whose «Per chi insegna» / "For
teachers" link opens them (app/views/controls.py, GUIDE).

A converter of the Markdown the guide uses, and only that: headings, paragraphs, lists
(continued by indented lines), fenced code, tables, inline code, bold, emphasis and links. Every
piece of text is escaped; the page loads nothing (no script, no style sheet, no font: its style
is inline), so it opens from any folder of any host. A link to another of docs/ goes to that
file on the repository's own terms: the guide's other language becomes its page, the rest stays
plain text with its name (the bundle carries no docs/).
"""

import html
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PAGES = {"teachers.md": ("teachers.html", "it"), "teachers.en.md": ("teachers.en.html", "en")}
BACK = {"it": "← Torna alla pagina", "en": "← Back to the page"}
STYLE = ("body{font:1rem/1.5 system-ui,sans-serif;max-width:48rem;margin:0 auto;padding:1rem;color:#1a1a1a;"
         "background:#fff}code,pre{font-family:ui-monospace,monospace;font-size:.9em}pre{background:#f3f4f6;"
         "padding:.6rem;overflow-x:auto}table{border-collapse:collapse;display:block;overflow-x:auto}"
         "th,td{border:1px solid #ccc;padding:.3rem .5rem;text-align:left;vertical-align:top}a{color:#0b57d0}")
INLINE = re.compile(r"`([^`]+)`|\*\*(.+?)\*\*|\*(.+?)\*|\[([^\]]+)\]\(([^)\s]+)\)")


def inline(text):
    """One line's text with its code, bold, emphasis and links, escaped."""
    out, at = [], 0
    for m in INLINE.finditer(text):
        out.append(html.escape(text[at:m.start()], quote=False))
        code, bold, em, words, href = m.groups()
        if code is not None:
            out.append(f"<code>{html.escape(code, quote=False)}</code>")
        elif bold is not None:
            out.append(f"<strong>{inline(bold)}</strong>")
        elif em is not None:
            out.append(f"<em>{inline(em)}</em>")
        else:
            out.append(link(words, href))
        at = m.end()
    return "".join(out) + html.escape(text[at:], quote=False)


def link(words, href):
    """A link: the web and the guide's other language stay links; another file of docs/ (not in
    the bundle) becomes its words."""
    if href in PAGES:
        href = PAGES[href][0]
    elif not re.match(r"https?://|#", href):
        return inline(words)
    return f'<a href="{html.escape(href)}">{inline(words)}</a>'


def cells(line):
    return [c.strip() for c in line.strip().strip("|").split("|")]


def convert(markdown):
    """The guide's Markdown as HTML (the body's content)."""
    lines, out, i = markdown.splitlines(), [], 0
    while i < len(lines):
        line = lines[i]
        if not line.strip():
            i += 1
        elif line.startswith("```"):
            end = next((j for j in range(i + 1, len(lines)) if lines[j].startswith("```")), len(lines))
            out.append("<pre><code>" + html.escape("\n".join(lines[i + 1:end]), quote=False) + "</code></pre>")
            i = end + 1
        elif m := re.match(r"(#{1,6}) (.*)", line):
            n = len(m[1])
            out.append(f"<h{n}>{inline(m[2])}</h{n}>")
            i += 1
        elif line.startswith("|"):
            rows = []
            while i < len(lines) and lines[i].startswith("|"):
                rows.append(cells(lines[i]))
                i += 1
            head, body = rows[0], [r for r in rows[1:] if not all(set(c) <= set("-: ") for c in r)]
            out.append("<table><thead><tr>" + "".join(f"<th>{inline(c)}</th>" for c in head) + "</tr></thead><tbody>"
                       + "".join("<tr>" + "".join(f"<td>{inline(c)}</td>" for c in r) + "</tr>" for r in body)
                       + "</tbody></table>")
        elif re.match(r"(- |\d+\. )", line):
            tag = "ul" if line.startswith("- ") else "ol"
            items = []
            while i < len(lines) and (re.match(r"(- |\d+\. )", lines[i]) or lines[i].startswith("  ")):
                if lines[i].startswith("  ") and items:
                    items[-1] += " " + lines[i].strip()
                else:
                    items.append(re.sub(r"^(- |\d+\. )", "", lines[i]))
                i += 1
            out.append(f"<{tag}>" + "".join(f"<li>{inline(item)}</li>" for item in items) + f"</{tag}>")
        else:
            para = []
            while i < len(lines) and lines[i].strip() and not re.match(r"(#{1,6} |```|\||- |\d+\. )", lines[i]):
                para.append(lines[i].strip())
                i += 1
            out.append(f"<p>{inline(' '.join(para))}</p>")
    return "\n".join(out)


def page(markdown, lang):
    """A whole page: the guide, its title from its first heading, and the way back to the page."""
    title = next((line[2:] for line in markdown.splitlines() if line.startswith("# ")), "Attention Explorer")
    return (f'<!doctype html>\n<html lang="{lang}"><head><meta charset="utf-8">'
            f'<meta name="viewport" content="width=device-width, initial-scale=1">'
            f'<title>{html.escape(title)}</title><style>{STYLE}</style></head><body>'
            f'<p><a href="./?lang={lang}">{BACK[lang]}</a></p>\n{convert(markdown)}\n</body></html>\n')


def write_guides(folder, root=ROOT):
    """Write the guide's pages into `folder` (the bundle's), one per language."""
    for source, (name, lang) in PAGES.items():
        (Path(folder) / name).write_text(page((root / "docs" / source).read_text(encoding="utf-8"), lang),
                                         encoding="utf-8")
