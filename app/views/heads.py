"""The heads: the head choice, every head side by side for the selected word, and the
multi-head output (concatenation and W_O) with its shapes written out."""

from app import heads
from app.contract import ALL_HEADS_MAX
from app.i18n import join_words, num, percent, short, text
from app.views.html import Column, esc, table, tag
from app.views.query import vec
from app.views import registry

TOP = 5  # each head's card lists this many words at most (largest weights first)


def head_select(settings, lang, off=""):
    """The head choice (a select named after the setting) and the active head's one line."""
    options = "".join(
        f'<option value="{i}"{" selected" if i == settings.head else ""}>'
        f'{esc(text(lang, "head_name_" + h.id))}</option>' for i, h in enumerate(heads.HEADS))
    about = text(lang, "head_about_" + heads.HEADS[settings.head].id)
    return (f'<div class="head-choice"><label for="head">{esc(text(lang, "head"))}</label>'
            f'<select id="head" name="head" aria-describedby="head-about"{off}>{options}</select>'
            f'<small id="head-about">{esc(about)}</small></div>')


def _head_card(h, record, i, tokens, lang, active):
    """One head's compact bars for row i: its name, its line, its largest weights."""
    row = record.row(i)
    name = text(lang, "head_name_" + heads.HEADS[h].id)
    idx = sorted((j for j in range(row.n) if row.candidates[j]), key=lambda j: (-row.weights[j], j))
    if idx:
        items = "".join(
            f'<li data-index="{j}"><span class="mini-word">{esc(tokens[j].text)}</span>'
            f'<svg class="mini-bar" viewBox="0 0 100 10" preserveAspectRatio="none" aria-hidden="true" '
            f'focusable="false"><rect class="bar-bg" width="100" height="10"></rect>'
            f'<rect class="bar-fill" width="{num(100 * row.weights[j], "en", 2)}" height="10"></rect></svg>'
            f'<span class="mini-pct">{percent(row.weights[j], lang)}</span></li>'
            for j in idx[:TOP])
        rest = len(idx) - TOP
        more = (f'<li class="mini-more">{esc(text(lang, "heads_more_one" if rest == 1 else "heads_more", n=rest))}'
                '</li>' if rest > 0 else "")
        body = f'<ol class="mini-bars">{items}{more}</ol>'
    else:
        body = ""
    summary = head_summary(row, tokens, lang)
    mark = f' <span class="head-active">({esc(text(lang, "heads_active"))})</span>' if active else ""
    return (f'<li class="head-card{" active" if active else ""}" data-head="{h}">'
            f'<h3>{esc(name)}{mark}</h3>'
            f'<p class="head-about">{esc(text(lang, "head_about_" + heads.HEADS[h].id))}</p>'
            f'<p class="head-summary">{esc(summary)}</p>{body}</li>')


def head_summary(row, tokens, lang):
    """What a head's row looks at most, as its card shows it: a tie of the shown percentages is
    said as a tie ("splits evenly over 5 words (20% each)", never "looks mostly at «Il» (20%)")."""
    idx = [j for j in range(row.n) if row.candidates[j]]
    if not idx:
        return text(lang, "heads_nobody")
    shown = {j: percent(row.weights[j], lang) for j in idx}
    top = percent(max(row.weights[j] for j in idx), lang)
    best = [j for j in idx if shown[j] == top]
    if len(best) == len(idx) and len(idx) > 1:
        return text(lang, "heads_even", n=len(idx), pct=top)
    if len(best) > 1:
        quote = "«{}»" if lang == "it" else "“{}”"
        return text(lang, "heads_top_tie", words=join_words((quote.format(tokens[j].text) for j in best), lang),
                    pct=top)
    return text(lang, "heads_top", word=tokens[best[0]].text, pct=top)


def render_heads(record, i, tokens, lang):
    """Every head's bars for the selected word, side by side (a list of cards)."""
    word = tokens[i].text
    cards = "".join(_head_card(h, r, i, tokens, lang, r is record)
                    for h, r in enumerate(record.head_records) if r is not None)
    alone = (f'<p class="note">{esc(text(lang, "heads_long", n=ALL_HEADS_MAX))}</p>'
             if None in record.head_records else "")
    return (f'<h2>{esc(text(lang, "heads_heading", word=word))}</h2>'
            f'<p class="heads-help">{esc(text(lang, "heads_help"))}</p>'
            f'{alone}<ul class="head-cards">{cards}</ul>')


def render_w_o(w_o, lang):
    """W_O as a table inside a disclosure: (h·4) rows, 4 columns."""
    hd = len(w_o)
    columns = [Column("corner", "")] + [Column(f"c{c}", str(c + 1)) for c in range(len(w_o[0]))]
    rows = [(str(r + 1), [esc(short(v, lang)) for v in row], {}) for r, row in enumerate(w_o)]
    return (f'<details class="w-o"><summary>{esc(text(lang, "wo_summary", hd=hd))}</summary>'
            + '<div class="table-wrap">' + table(columns, rows, esc(text(lang, "wo_caption")), cards=False, class_="matrix")
            + "</div></details>")


def render_multihead(record, i, tokens, lang):
    """The word's heads' outputs side by side, projected back to four numbers by W_O."""
    word = tokens[i].text
    computed = [r for r in record.head_records if r is not None]
    h, n = len(computed), record.n_q
    hd = len(record.concat[i])
    blocks = [record.concat[i][b * 4:(b + 1) * 4] for b in range(h)]
    concat = " | ".join(vec(b, lang) for b in blocks)
    silent = any(r.outputs[i] is None for r in computed)
    return (
        f'<h2>{esc(text(lang, "multi_heading", word=word))}</h2>'
        f'<p class="multi-shapes">{esc(text(lang, "multi_shapes", h=h, n=n, hd=hd))}</p>'
        f'<p class="vector">concat = {esc(concat)}</p>'
        f'<p class="vector">{esc(text(lang, "multi_line", vector=vec(record.multihead_output[i], lang)))}</p>'
        + (tag("p", esc(text(lang, "multi_no_row")), class_="note") if silent else "")
    )


def render_multihead_about(record, lang):
    """What stays while the student picks words: W_O and what a real model learns."""
    h = sum(r is not None for r in record.head_records)
    return (f'<p class="note">{esc(text(lang, "multi_wo", h=h))}</p>'
            + render_w_o(heads.w_o(h), lang)
            + f'<p class="learned">{esc(text(lang, "multi_learned"))}</p>')


HEADS = registry.add(registry.View(
    id="heads", place=70, row=lambda row, tokens, lang, word: render_heads(row.record, row.focus, tokens, lang),
    draw=lambda ctx: registry.section("heads", ctx.part("heads"), "heads-section", view=False)))
MULTI = registry.add(registry.View(
    id="multi", place=80, part="multi-row",
    row=lambda row, tokens, lang, word: render_multihead(row.record, row.focus, tokens, lang),
    draw=lambda ctx: registry.section("multi", f'<div id="multi-row">{ctx.part("multi")}</div>'
                                      + render_multihead_about(ctx.record, ctx.lang), "multi-section", view=False)))
