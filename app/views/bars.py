"""One bar per word for the selected row, and the sentence a screen reader hears."""

from app.i18n import num, percent, text
from app.numbers import shown_sum
from app.views.html import esc
from app.views import registry

SATURATED = 0.99  # largest weight at or above this (with ≥ 2 candidates): saturated
# Flat: every candidate's weight within this factor of the smallest. A share of the largest
# (once 1.5 / candidates) called 56% against 44% "more or less the same"; the ratio says of two
# words what it says of ten: 55/45 is flat, 56/44 is not.
FLAT_RATIO = 1.25


def explain(row, tokens, lang):
    """Sentences that explain an empty, one-candidate, saturated or flat row, or ''."""
    word = tokens[row.focus].text
    idx = [j for j, c in enumerate(row.candidates) if c]
    if not idx:
        key = "no_candidates_alone" if len(tokens) == 1 else "no_candidates_first"
        return text(lang, key, word=word)
    if len(idx) == 1:
        return text(lang, "one_candidate", other=tokens[idx[0]].text)
    top = max(row.weights)
    if top >= SATURATED:
        return text(lang, "saturated", word=word)
    if top <= FLAT_RATIO * min(row.weights[j] for j in idx):
        return text(lang, "flat", word=word)
    return ""


def explain_html(row, tokens, lang):
    """The bars' explanation; empty (and not shown) when the row needs none, so a word
    click only changes its text (`data-plain`: no glossary link, app/glossary.py)."""
    return f'<p class="explain" data-plain>{esc(explain(row, tokens, lang))}</p>'



def bar_values(row, j, lang):
    """A candidate bar's (fill width, aria-valuenow, aria-valuetext, shown percentage)."""
    shown = percent(row.weights[j], lang)
    return (num(100 * row.weights[j], "en", 2), num(100 * row.weights[j], "en", 1),
            text(lang, "percent_text", pct=shown[:-1]), shown)


# Why a word that is no candidate has no bar (app/attention.py, Row.status).
STATUS_NOTE = {"query": "is_query", "masked": "is_masked", "skipped": "is_skipped"}


def bar_item(row, j, tok, lang):
    """Word j's bar: a meter (role="meter") whose value a screen reader speaks ("42 per
    cento"); a word that is no candidate says in words why it has no bar."""
    status = row.status(j)
    if status == "candidate":
        width, now, spoken, shown = bar_values(row, j, lang)
        bar_attrs = (f'role="meter" aria-label="{esc(tok.text)}" aria-valuenow="{now}" '
                     f'aria-valuemin="0" aria-valuemax="100" aria-valuetext="{esc(spoken)}"')
        value = f'<span class="bar-value" aria-hidden="true">{shown}</span>'
    else:
        bar_attrs = 'aria-hidden="true"'
        note = text(lang, STATUS_NOTE[status])
        value = f'<span class="bar-value">{esc("— " + note)}</span>'
        width = "0"
    return (f'<li class="bar-row {status}" data-index="{j}">'
            f'<span class="bar-word" aria-hidden="true">{esc(tok.text)}</span>'
            f'<svg class="bar" viewBox="0 0 100 10" preserveAspectRatio="none" {bar_attrs} '
            f'focusable="false"><rect class="bar-bg" width="100" height="10"></rect>'
            f'<rect class="bar-fill" width="{width}" height="10"></rect></svg>{value}</li>')


def rounding_line(row, lang):
    """'' or one short line when the bars' shown percentages, each rounded alone, do not add up
    to 100 (101% with no word said a sum was wrong)."""
    said = shown_sum([row.weights[j] for j in range(row.n) if row.candidates[j]], lang, "bar")
    return "" if said is None else text(lang, "bars_rounding", sum=said)


def render_bars(row, tokens, lang, word=None):
    """One bar per word (`bar_item`). `word`: the asking row's name when it is not one of
    `tokens` (matrix mode: q1, q2, …)."""
    word = tokens[row.focus].text if word is None else word
    items = "".join(bar_item(row, j, tok, lang) for j, tok in enumerate(tokens))
    return (f'<h2>{esc(text(lang, "bars_heading", word=word))}</h2>'
            f'<ul class="bars" data-plain aria-label="{esc(text(lang, "bars_caption", word=word))}">{items}</ul>'
            f'<p class="note bars-rounding">{esc(rounding_line(row, lang))}</p>')


def bars_patch(before, row, tokens, lang, word=None):
    """The changes in place (app/page.py, `_patch`) that turn the bars of row `before` into those of
    `row`: the words whose status changed are redrawn, every candidate's bar gets its
    new width and values. The same words are shown (a word click on one record)."""
    word = tokens[row.focus].text if word is None else word
    changes = [(f'li[data-index="{j}"]', "outerHTML", [bar_item(row, j, tokens[j], lang)])
               for j in range(row.n) if before.status(j) != row.status(j)]
    values = list(zip(*(bar_values(row, j, lang) for j in range(row.n) if row.candidates[j])))
    if values:
        width, now, spoken, shown = values
        changes += [("li.candidate rect.bar-fill", "width", width),
                    ("li.candidate svg", "aria-valuenow", now),
                    ("li.candidate svg", "aria-valuetext", spoken),
                    ("li.candidate .bar-value", "", shown)]
    return changes + [("h2", "", [text(lang, "bars_heading", word=word)]),
                      ("p.bars-rounding", "", [rounding_line(row, lang)]),
                      ("ul.bars", "aria-label", [text(lang, "bars_caption", word=word)])]


def announcement(row, tokens, lang, explanation="", top=5):
    """One sentence for the live region: where the word looks, largest share first.

    «dormiva» guarda: gatto 42 per cento, tappeto 25 per cento, … (or the explanation
    when there is nobody to look at, or the prompt to pick a word).
    """
    if row is None:
        return text(lang, "pick_word")
    idx = sorted((j for j, c in enumerate(row.candidates) if c), key=lambda j: (-row.weights[j], j))
    if not idx:
        return explanation

    def item(j):
        return text(lang, "announce_item", word=tokens[j].text, pct=percent(row.weights[j], lang)[:-1])

    items = [item(j) for j in idx[:top]]
    rest = idx[top:]
    if rest:
        items.append(text(lang, "announce_more", n=len(rest)) if all(row.weights[j] < 0.005 for j in rest)
                     else ", ".join(item(j) for j in rest))
    said = text(lang, "announce_looks", word=tokens[row.focus].text, items=", ".join(items))
    return f"{said} {explanation}".strip()


def _row_part(row, tokens, lang, word):
    """The bars of the selected row; in sentence mode with the sentence that explains an empty,
    one-candidate, saturated or flat row (app/render.py)."""
    if word is not None:
        return render_bars(row, tokens, lang, word)
    return render_bars(row, tokens, lang) + explain_html(row, tokens, lang)


VIEW = registry.add(registry.View(
    id="bars", place=20, modes=("sentence", "matrix"), tab=True, row=_row_part,
    draw=lambda ctx: registry.section("bars", ctx.part("bars"), "result")))
