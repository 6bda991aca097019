"""Pure functions from the attention record to HTML strings.

Nothing here touches the DOM or recomputes the maths: every number comes from the
`Attention` record (app/attention.py) and every piece of user text goes through `esc`.
The same functions pre-render the static page at build time (on CPython) and update it
in the browser, so what a student sees before and after Python starts is the same HTML.
"""

import functools
from html import escape

from app import i18n
from app.i18n import join_words, num, short, text


def esc(s):
    """Escape text for HTML element content and double-quoted attributes."""
    return escape(str(s), quote=True)


def vec(values, lang):
    """A vector as the page writes it: [2,85; 0; 2,1; 0] in Italian, [2.85, 0, 2.1, 0] in English."""
    return _vec(tuple(values), lang)


@functools.lru_cache(maxsize=4096)
def _vec(values, lang):
    sep = "; " if lang == "it" else ", "
    return "[" + sep.join(short(v, lang) for v in values) + "]"


# --- header and controls ------------------------------------------------------------------

def render_header(lang):
    """Title and explanation; in embed mode (CSS) only a small help that opens the explanation."""
    return (
        f'<div class="full-header"><h1>{esc(text(lang, "title"))}</h1>'
        f'<p class="subtitle">{esc(text(lang, "subtitle"))}</p>'
        f'<p class="intro">{esc(text(lang, "intro"))}</p></div>'
        f'<details class="embed-help"><summary>{esc(text(lang, "help_summary"))}</summary>'
        f'<p><strong>{esc(text(lang, "subtitle"))}</strong> {esc(text(lang, "intro"))}</p></details>'
    )


def render_share(lang, interactive=True):
    """Copy link, copy embed code, download the table; a box and a status line for the result."""
    off = "" if interactive else " disabled"
    buttons = "".join(
        f'<button type="button" class="secondary" id="{bid}"{off}>{esc(text(lang, key))}</button>'
        for bid, key in (("copy-link", "copy_link"), ("copy-embed", "copy_embed"),
                         ("export-csv", "export_csv")))
    return (f'<h2>{esc(text(lang, "share_heading"))}</h2><div class="share-buttons">{buttons}</div>'
            f'<label class="sr-only" for="share-text">{esc(text(lang, "share_text_label"))}</label>'
            '<textarea id="share-text" class="share-text" readonly rows="3" hidden></textarea>'
            '<p id="share-status" class="share-status" role="status"></p>')


def render_controls(settings, interactive=True):
    """The sentence box, the examples, the two switches and the language choice."""
    lang = settings.lang
    off = "" if interactive else " disabled"
    options = [f'<option value="">{esc(text(lang, "presets_pick"))}</option>']
    for i, (sentence, _) in enumerate(i18n.PRESETS[lang]):
        selected = " selected" if sentence == settings.sentence else ""
        options.append(f'<option value="{i}"{selected}>{esc(sentence)}</option>')
    langs = []
    for code, name in (("it", "Italiano"), ("en", "English")):
        checked = " checked" if code == lang else ""
        langs.append(
            f'<label class="lang-choice" lang="{code}"><input type="radio" name="lang" '
            f'value="{code}"{checked}{off}> {name}</label>'
        )
    mask = " checked" if settings.mask else ""
    self_ = " checked" if settings.include_self else ""
    return (
        '<form id="sentence-form" class="sentence-form" autocomplete="off">'
        f'<label for="sentence-input">{esc(text(lang, "sentence_label"))}</label>'
        '<div class="input-row">'
        f'<input id="sentence-input" name="s" type="text" value="{esc(settings.text)}" '
        f'spellcheck="false"{off}>'
        f'<button type="submit" id="analyse"{off}>{esc(text(lang, "analyse"))}</button>'
        "</div></form>"
        '<div class="options">'
        f'<label class="preset-label" for="preset">{esc(text(lang, "presets_label"))}</label>'
        f'<select id="preset" name="preset"{off}>{"".join(options)}</select>'
        f'<label class="switch"><input type="checkbox" id="mask" name="mask"{mask}{off}> '
        f'<span>{esc(text(lang, "mask"))}<small>{esc(text(lang, "mask_hint"))}</small></span></label>'
        f'<label class="switch"><input type="checkbox" id="self" name="self"{self_}{off}> '
        f'<span>{esc(text(lang, "self"))}<small>{esc(text(lang, "self_hint"))}</small></span></label>'
        f'<fieldset class="langs"><legend>{esc(text(lang, "lang_legend"))}</legend>{"".join(langs)}</fieldset>'
        "</div>"
    )


# --- messages -----------------------------------------------------------------------------

def note_text(note, lang):
    """The sentence for a state.Note, translating notes nested in its parameters."""
    params = {k: (note_text(v, lang) if hasattr(v, "key") else v) for k, v in note.params.items()}
    return text(lang, note.key, **params)


def problem_text(problem, lang):
    """The sentence for a lexicon.Problem: file, line and what is wrong."""
    what = i18n.STRINGS[lang]["lexicon_problems"][problem.key].format(detail=problem.detail)
    return text(lang, "lexicon_problem", file=problem.file, line=problem.line, what=what)


def render_messages(notes, problems, lang):
    """Notes for the student (bad input, odd links) and lexicon problems for the teacher."""
    parts = []
    if notes:
        items = "".join(f'<li class="{esc(n.level)}">{esc(note_text(n, lang))}</li>' for n in notes)
        parts.append(f'<ul class="notes">{items}</ul>')
    if problems:
        items = "".join(f"<li>{esc(problem_text(p, lang))}</li>" for p in problems)
        parts.append(f'<details class="lexicon-problems"><summary>{len(problems)} × '
                     f'{esc(problem_text(problems[0], lang))}</summary><ul>{items}</ul></details>')
    return "".join(parts)


# --- the sentence -----------------------------------------------------------------------------

def render_card(token, lang):
    names = i18n.STRINGS[lang]["features"]
    values = ", ".join(f"{n} {short(v, lang, 2)}" for n, v in zip(names, token.card))
    cells = "".join(f'<span class="v f{i}">{esc(short(v, lang, 2))}</span>'
                    for i, v in enumerate(token.card))
    return (f'<span class="card" aria-hidden="true">{cells}</span>'
            f'<span class="sr-only">{esc(text(lang, "card_aria", word=token.text, values=values))}</span>')


def guess_note(token, lang):
    reason = i18n.STRINGS[lang]["guess"].get(token.guess or "noun", "")
    return f'{text(lang, "guess_marker")}: {reason}'


def render_sentence(tokens, focus, lang, interactive=True):
    """The words as native radio buttons (name="word", value = index), each with its card."""
    off = "" if interactive else " disabled"
    names = i18n.STRINGS[lang]["features"]
    legend_cells = "".join(f'<span class="v f{i}">{esc(n)}</span>' for i, n in enumerate(names))
    words = [f'<div class="card-legend" aria-hidden="true"><span class="w">&nbsp;</span>'
             f'<span class="card">{legend_cells}</span></div>']
    any_guess = False
    for j, tok in enumerate(tokens):
        checked = " checked" if focus == j else ""
        guessed = ""
        cls = "word"
        if not tok.known:
            any_guess = True
            cls += " guessed"
            note = esc(guess_note(tok, lang))
            guessed = (f'<span class="guess-mark" title="{note}" aria-hidden="true">≈</span>'
                       f'<span class="sr-only"> ({note})</span>')
        words.append(
            f'<label class="{cls}" data-index="{j}">'
            f'<input type="radio" name="word" value="{j}"{checked}{off}>'
            f'<span class="w">{esc(tok.text)}{guessed}</span>{render_card(tok, lang)}</label>'
        )
    legend = f'<p class="legend">{esc(text(lang, "card_legend"))}'
    if any_guess:
        legend += f'<br><span class="guess-legend">{esc(text(lang, "guessed_legend"))}</span>'
    legend += "</p>"
    return (f'<fieldset class="words-fieldset"><legend>{esc(text(lang, "words_legend"))}</legend>'
            f'<div class="words">{"".join(words)}</div>{legend}</fieldset>')


# --- the result -----------------------------------------------------------------------------

def explain(result, tokens, lang):
    """Sentences that explain an empty or one-candidate result, or ''."""
    word = tokens[result.focus].text
    idx = [j for j, c in enumerate(result.candidates) if c]
    if not idx:
        key = "no_candidates_alone" if len(tokens) == 1 else "no_candidates_first"
        return text(lang, key, word=word)
    if len(idx) == 1:
        return text(lang, "one_candidate", other=tokens[idx[0]].text)
    return ""


def render_query(result, tokens, lang):
    word = tokens[result.focus].text
    asks = i18n.STRINGS[lang]["asks"]
    if result.asks_for:
        words = text(lang, "query_words", word=word,
                     what=join_words([asks[j] for j in result.asks_for], lang))
    else:
        words = text(lang, "query_nothing", word=word)
    return (
        f'<h2>{esc(text(lang, "query_heading", word=word))}</h2>'
        f'<p class="vector">x = {esc(vec(tokens[result.focus].card, lang))}</p>'
        f'<p class="vector">{esc(text(lang, "query_line", vector=vec(result.query, lang)))}</p>'
        f'<p class="query-words">{esc(words)}</p>'
        f"{render_w_q(result, lang)}"
    )


def render_w_q(result, lang):
    names = i18n.STRINGS[lang]["features"]
    head = "".join(f'<th scope="col">{esc(n)}</th>' for n in names)
    rows = "".join(
        f'<tr><th scope="row">{esc(text(lang, "wq_row"))} {esc(names[i])}</th>'
        + "".join(f"<td>{esc(short(v, lang))}</td>" for v in row) + "</tr>"
        for i, row in enumerate(result.w_q)
    )
    return (f'<details class="w-q"><summary>{esc(text(lang, "wq_summary"))}</summary>'
            f'<table class="matrix"><caption>{esc(text(lang, "wq_caption"))}</caption>'
            f'<thead><tr><td></td>{head}</tr></thead><tbody>{rows}</tbody></table></details>')


def render_bars(result, tokens, lang):
    """One bar per word. A candidate's bar is a meter (role="meter") whose value a screen
    reader speaks ("43 per cento"); the others say in words why they have no bar."""
    word = tokens[result.focus].text
    rows = []
    for j, tok in enumerate(tokens):
        status = result.status(j)
        pct = result.percents[j]
        if status == "candidate":
            spoken = esc(text(lang, "percent_text", pct=pct))
            bar_attrs = (f'role="meter" aria-label="{esc(tok.text)}" aria-valuenow="{pct}" '
                         f'aria-valuemin="0" aria-valuemax="100" aria-valuetext="{spoken}"')
            value = f'<span class="bar-value" aria-hidden="true">{pct}%</span>'
        else:
            bar_attrs = 'aria-hidden="true"'
            note = text(lang, "is_query" if status == "query" else "is_masked")
            value = f'<span class="bar-value">{esc("— " + note)}</span>'
        width = pct if status == "candidate" else 0
        rows.append(
            f'<li class="bar-row {status}" data-index="{j}">'
            f'<span class="bar-word" aria-hidden="true">{esc(tok.text)}</span>'
            f'<svg class="bar" viewBox="0 0 100 10" preserveAspectRatio="none" {bar_attrs} '
            f'focusable="false"><rect class="bar-bg" width="100" height="10"></rect>'
            f'<rect class="bar-fill" width="{width}" height="10"></rect></svg>{value}</li>'
        )
    return (f'<h2>{esc(text(lang, "bars_heading", word=word))}</h2>'
            f'<ul class="bars" aria-label="{esc(text(lang, "bars_caption", word=word))}">'
            f'{"".join(rows)}</ul>')


def announcement(result, tokens, lang, top=5):
    """One sentence for the live region: where the word looks, largest share first.

    «dormiva» guarda: gatto 43 per cento, tappeto 25 per cento, … (or the explanation
    when there is nobody to look at, or the prompt to pick a word).
    """
    if result is None:
        return text(lang, "pick_word")
    idx = sorted((j for j, c in enumerate(result.candidates) if c), key=lambda j: (-result.weights[j], j))
    if not idx:
        return explain(result, tokens, lang)
    items = [text(lang, "announce_item", word=tokens[j].text, pct=result.percents[j]) for j in idx[:top]]
    rest = idx[top:]
    if rest:
        items.append(text(lang, "announce_more", n=len(rest)) if all(result.percents[j] < 1 for j in rest)
                     else ", ".join(text(lang, "announce_item", word=tokens[j].text, pct=result.percents[j])
                                    for j in rest))
    said = text(lang, "announce_looks", word=tokens[result.focus].text, items=", ".join(items))
    note = explain(result, tokens, lang)
    return f"{said} {note}".strip()


def products(query, card, lang):
    """q·k written out: 3×0,95 + 0×0,05 + 2×0,1 + 0×0."""
    return " + ".join(f"{short(q, lang)}×{short(k, lang)}" for q, k in zip(query, card))


def render_table(result, tokens, lang):
    t = lambda key, **p: esc(text(lang, key, **p))  # noqa: E731
    word = tokens[result.focus].text
    cols = ("col_word", "col_card", "col_products", "col_dot", "col_logit", "col_exp",
            "col_weight", "col_percent")
    head = "".join(f'<th scope="col">{t(c)}</th>' for c in cols)
    body = []
    for j, tok in enumerate(tokens):
        status = result.status(j)
        card = esc(vec(tok.card, lang))
        if status == "candidate":
            cells = (
                f'<td data-col="products">{esc(products(result.query, tok.card, lang))}</td>'
                f'<td data-col="dot">{esc(num(result.dots[j], lang))}</td>'
                f'<td data-col="logit">{esc(num(result.logits[j], lang))}</td>'
                f'<td data-col="exp">{esc(num(result.exps[j], lang))}</td>'
                f'<td data-col="weight">{esc(num(result.weights[j], lang))}</td>'
                f'<td data-col="percent">{result.percents[j]}%</td>'
            )
        elif status == "masked":
            cells = (
                '<td data-col="products">—</td><td data-col="dot">—</td>'
                f'<td data-col="logit">{t("masked_logit")}</td>'
                f'<td data-col="exp">0</td><td data-col="weight">0</td>'
                '<td data-col="percent">0%</td>'
            )
        else:
            cells = (f'<td data-col="products" colspan="6">— {t("is_query")}</td>')
        body.append(f'<tr class="{status}" data-index="{j}"><th scope="row">{esc(tok.text)}</th>'
                    f'<td data-col="card">{card}</td>{cells}</tr>')
    if result.has_candidates:
        foot = (f'<tr><th scope="row">{t("total")}</th><td colspan="4"></td>'
                f'<td data-col="exp-sum">Σ = {esc(num(result.exp_sum, lang))}</td>'
                f'<td data-col="weight-sum">{esc(num(sum(result.weights), lang))}</td>'
                f'<td data-col="percent-sum">{sum(result.percents)}%</td></tr>')
    else:
        foot = f'<tr><th scope="row">{t("total")}</th><td colspan="7">—</td></tr>'
    return (
        f'<h2>{t("steps_heading")}</h2>'
        f'<p class="formula">{t("formula")}</p>'
        f'<div class="table-wrap" role="region" tabindex="0" aria-label="{t("steps_heading")}">'
        f'<table class="steps"><caption>{t("table_caption", word=word)}</caption>'
        f'<thead><tr>{head}</tr></thead><tbody>{"".join(body)}</tbody>'
        f"<tfoot>{foot}</tfoot></table></div>"
    )


def render_analysis(result, tokens, lang):
    """Query, explanation, bars and steps table for the selected word (or a prompt)."""
    if result is None:
        return f'<p class="prompt">{esc(text(lang, "pick_word"))}</p>'
    note = explain(result, tokens, lang)
    note_html = f'<p class="explain">{esc(note)}</p>' if note else ""
    return (f'<section class="query" aria-label="{esc(text(lang, "query_aria"))}">'
            f'{render_query(result, tokens, lang)}</section>'
            f'<section class="result">{render_bars(result, tokens, lang)}{note_html}</section>'
            f'<section class="steps-section">{render_table(result, tokens, lang)}</section>')


def render_app(settings, tokens, result, notes=(), problems=(), interactive=True):
    """Everything inside <main id="app">, with one element per region main.py updates."""
    lang = settings.lang
    return (
        f'<header id="header">{render_header(lang)}</header>'
        f'<section id="controls" class="controls">{render_controls(settings, interactive)}</section>'
        f'<div id="messages" class="messages">{render_messages(notes, problems, lang)}</div>'
        f'<section id="sentence" class="sentence">{render_sentence(tokens, settings.focus, lang, interactive)}</section>'
        f'<div id="analysis" class="analysis">{render_analysis(result, tokens, lang)}</div>'
        f'<section id="share" class="share">{render_share(lang, interactive)}</section>'
    )

