"""The selected word's question: its card x, q = x · W_Q in numbers and in words, W_Q,
and what the keys and values are."""

import functools

from app import i18n
from app.i18n import join_words, short, text
from app.views.html import Column, esc, table, tag
from app.views import registry


def vec(values, lang):
    """A vector as the page writes it: [2,85; 0; 2,1; 0] in Italian, [2.85, 0, 2.1, 0] in English."""
    return _vec(tuple(values), lang)


@functools.lru_cache(maxsize=4096)  # cards repeat: a 200-word table writes each once
def _vec(values, lang):
    sep = "; " if lang == "it" else ", "
    return "[" + sep.join(short(v, lang) for v in values) + "]"


def query_words(row, word, lang):
    """What the question asks for, in words (or why it asks for nothing much)."""
    asks = i18n.STRINGS[lang]["asks"]
    if not row.asks_for:
        return text(lang, "query_nothing", word=word)
    if row.weak:
        return text(lang, "query_weak", word=word, top=short(max(row.query), lang))
    return text(lang, "query_words", word=word, what=join_words([asks[j] for j in row.asks_for], lang))


def render_w_q(w_q, lang):
    """W_Q as a table: rows = the feature of the asking word, columns = what it looks for."""
    names = i18n.STRINGS[lang]["features"]
    columns = [Column("corner", esc(text(lang, "wq_corner")))] + [Column(f"f{i}", esc(n))
                                                                   for i, n in enumerate(names)]
    rows = [(esc(names[i]), [esc(short(v, lang)) for v in r], {}) for i, r in enumerate(w_q)]
    silent = [names[c] for c in range(len(w_q[0])) if all(r[c] == 0 for r in w_q)]
    note = "".join(tag("p", esc(text(lang, "wq_zero_column", feature=f)), class_="note") for f in silent)
    return (f'<details class="w-q"><summary>{esc(text(lang, "wq_summary"))}</summary>'
            + table(columns, rows, esc(text(lang, "wq_caption")), cards=False, class_="matrix") + note + "</details>")


def render_query(row, tokens, lang):
    """The selected word's card, its question q in numbers and in words."""
    word = tokens[row.focus].text
    where = row.record.position  # (sinusoidal and RoPE say how q came: app/labs/position/controls.py's strings)
    line = "query_line_" + where.kind if where is not None and where.kind in ("sinusoidal", "rope") else "query_line"
    return (
        f'<h2>{esc(text(lang, "query_heading", word=word))}</h2>'
        f'<p class="vector">x = {esc(vec(tokens[row.focus].card, lang))}</p>'
        f'<p class="vector">{esc(text(lang, line, vector=vec(row.query, lang)))}</p>'
        f'<p class="query-words">{esc(query_words(row, word, lang))}</p>'
    )


def render_query_about(record, lang):
    """What stays while the student picks words: what K and V are, and W_Q."""
    return f'<p class="kv">{esc(text(lang, "keys_values"))}</p>' + render_w_q(record.w_q, lang)


def _section(ctx):
    return query_section(ctx.row, ctx.tokens, ctx.lang, ctx.part("query"))


def query_section(row, tokens, lang, query_html=None):
    """The selected word's question (`query_html`: its row part, when rendered already)."""
    query_html = render_query(row, tokens, lang) if query_html is None else query_html
    return (f'<section id="view-query" class="query" aria-label="{esc(text(lang, "query_aria"))}">'
            f'<div id="query-row">{query_html}</div>{render_query_about(row.record, lang)}</section>')


VIEW = registry.add(registry.View(
    id="query", place=30, row=lambda row, tokens, lang, word: render_query(row, tokens, lang), part="query-row",
    draw=_section))
