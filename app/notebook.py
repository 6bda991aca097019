"""The same numbers in a Jupyter notebook, from a clone:

    from app.notebook import explore
    x = explore("Il gatto seduto sul tappeto dormiva", focus=5)   # shows sentence, bars, table
    x.record.weights[5]      # the numbers (app/attention.py's record)
    x.state["rows"]          # the state JSON (contract version 2) as Python data

`explore` takes the page's settings by their link names or attribute names (`mask=True`,
`self=True` or `include_self=True`, `temp=2`, `lang="en"`, and any setting declared
later, such as `head`). A value the page would replace with a note raises ValueError
with that note.

The display is static HTML: the page's own views (sentence, bars, steps table) with their
classes turned into inline styles, and no script, so it renders in untrusted notebooks,
Colab and exported HTML. Its colours are the page's light theme on a white box, readable
in a dark notebook too. Every piece of user text is escaped by the views themselves.
"""

import re

from app import contract, render, settings as schema
from app.i18n import text
from app.plain_text import lab_views, steps_text
from app.views.bars import render_bars
from app.views import registry
from app.views.html import esc
from app.views.sentence import render_sentence
from app.views.steps import render_table

INK, MUTED, LINE, PANEL, ACCENT = "#1d2330", "#4a5263", "#c9cfdb", "#f3f5f9", "#1f5fbf"
MONO = "font-family:ui-monospace,'DejaVu Sans Mono',Menlo,Consolas,monospace"
# The page's stylesheet (static/style.css), light theme, for the classes these views use.
CLASS_STYLES = {
    "words": "display:flex;flex-wrap:wrap;gap:6px;align-items:flex-start",
    "word": f"display:inline-flex;flex-direction:column;min-width:3.2em;border:2px solid {LINE};"
            "border-radius:6px;padding:4px 6px;background:#fff",
    "selected": f"border:3px solid {ACCENT};background:#e8f0fc",
    "guessed": "border-style:dashed",
    "card-legend": f"display:inline-flex;flex-direction:column;padding:4px 6px;color:{MUTED};text-align:right",
    "w": "font-weight:600;text-align:center;font-size:1.1em",
    "card": "display:grid;font-size:0.85em;text-align:center;line-height:1.35",
    "f0": "color:#00735c", "f1": "color:#b34700", "f2": "color:#005a9c", "f3": "color:#9c2f73",
    "legend": f"color:{MUTED};font-size:0.9em;margin:6px 0 0",
    "words-fieldset": "border:0;padding:0;margin:0",
    "sr-only": "position:absolute;width:1px;height:1px;padding:0;margin:-1px;overflow:hidden;"
               "clip:rect(0 0 0 0);white-space:nowrap;border:0",
    "bars": "list-style:none;padding:0;margin:0;display:grid;grid-template-columns:max-content "
            "minmax(6em,1fr) max-content;gap:4px 10px;align-items:center",
    "bar-row": "display:contents",
    "bar-word": "font-weight:600",
    "bar": "width:100%;height:1.2em;display:block",
    "bar-bg": "fill:#e2e7f0",
    "bar-fill": f"fill:{ACCENT}",
    "bar-value": "font-variant-numeric:tabular-nums",
    "formula": MONO,
    "table-wrap": f"overflow-x:auto;max-width:100%;border:1px solid {LINE};border-radius:6px",
    "steps": "border-collapse:collapse;font-variant-numeric:tabular-nums;width:100%",
    "masked": f"color:{MUTED}",
    "query": f"background:{PANEL}",
    "note": f"color:{MUTED}",
    "explain": f"padding:6px 10px;border-left:4px solid {ACCENT};background:{PANEL}",
    "prompt": f"padding:10px;background:{PANEL}",
    # model mode: the heads' tables, shaded as the page's heatmap (√ of the weight), the path outlined
    **{f"s{k}": f"background:color-mix(in srgb, {ACCENT} {9 * k}%, #fff)" for k in range(8)},
    "path": "outline:3px solid #b35c00;outline-offset:-3px;font-weight:700",
    "circuit": f"padding:6px 10px;border-left:4px solid {ACCENT};background:{PANEL}",
    "right": "color:#00735c", "wrong": "color:#b42318",
    "pos": f"font-size:0.75em;color:{MUTED};text-align:center",
    # the block model's stream (app/labs/transformer/style.css)
    "stage-bars": "width:12rem;height:2rem;display:block",
    "bar-up": "fill:#005a9c", "bar-down": "fill:#b34700", "zero": f"stroke:{LINE}",
}
TAG_STYLES = {
    "th": f"padding:4px 8px;border-bottom:1px solid {LINE};text-align:left",
    "td": f"padding:4px 8px;border-bottom:1px solid {LINE};text-align:right;white-space:nowrap",
    "caption": f"text-align:left;padding:4px 8px;color:{MUTED}",
    "h2": "font-size:1.15em;margin:14px 0 6px",
}
CELL_STYLES = {"card": f"text-align:left;{MONO}", "products": f"text-align:left;white-space:normal;min-width:12em;{MONO}"}
BOX = (f"background:#fff;color:{INK};font-family:system-ui,-apple-system,'Segoe UI',Roboto,sans-serif;"
       "line-height:1.5;padding:10px 12px;border-radius:6px;position:relative")
_START_TAG = re.compile(r"<([a-z][a-z0-9]*)((?:\s[^<>]*)?)>")
_WORD_RADIO = re.compile(r'<input type="radio" name="word"[^<>]*>')
_ROW_PICK = re.compile(r'<button type="button" class="row-pick"[^<>]*>([^<>]*)</button>')
# (the translation's box and its example pairs: nothing to type or press in a notebook)
_CROSS_FORM = re.compile(r'<div class="cross-(?:form|pairs)"[^<>]*>.*?</div>', re.S)


def inline_styles(html):
    """The views' HTML with each class (and table cell) turned into an inline style.

    Only for the views' own output: their attribute values are escaped, so a start tag
    never holds '<' or '>' and a regular expression can read it."""
    def restyle(match):
        tag, attrs = match.group(1), match.group(2)
        classes = re.search(r'class="([^"]*)"', attrs)
        styles = [TAG_STYLES.get(tag, "")]
        if classes:
            styles += [CLASS_STYLES.get(c, "") for c in classes.group(1).split()]
        col = re.search(r'data-col="([^"]*)"', attrs)
        if col:
            styles.append(CELL_STYLES.get(col.group(1), ""))
        style = ";".join(s for s in styles if s)
        return f'<{tag}{attrs} style="{style}">' if style else match.group(0)

    return _START_TAG.sub(restyle, html)


class Exploration:
    """One sentence explored as the page would: `.record` (every number), `.row` (the
    selected word's), `.state` (the state JSON as data), `.settings`, `.tokens`; shown as
    static HTML in a notebook and as the terminal's text elsewhere."""

    def __init__(self, settings, tokens, record):
        self.settings, self.tokens, self.record = settings, tokens, record
        self.row = contract.selected_row(settings, record)
        self.state = contract.build_state(settings, tokens, record)

    def html(self):
        """The sentence, the bars and the steps table, and with `target` the cross-attention's
        alignment (model mode: the letters, the induction path, the predictions and the named
        heads; the block model's stream, LayerNorm, FFN units and logit lens too): inline styles,
        no script."""
        lang, row = self.settings.lang, self.row
        if self.settings.mode == "model":
            return f'<div lang="{lang}" style="{BOX}">{inline_styles(self.model_html())}</div>'

        sentence = render_sentence(self.tokens, self.settings.focus, lang, interactive=False)
        sentence = _WORD_RADIO.sub("", sentence)  # nothing to click in a notebook
        if row is not None:
            sentence = sentence.replace(f'class="word" data-index="{row.focus}"',
                                        f'class="word selected" data-index="{row.focus}"', 1)
            sentence = sentence.replace(f'class="word guessed" data-index="{row.focus}"',
                                        f'class="word guessed selected" data-index="{row.focus}"', 1)
            note = render.explain(row, self.tokens, lang)
            body = (render_bars(row, self.tokens, lang)
                    + (f'<p class="explain">{esc(note)}</p>' if note else "")
                    + render_table(row, self.tokens, lang))
        else:
            body = f'<p class="prompt">{esc(text(lang, "pick_word"))}</p>'
        body += _CROSS_FORM.sub("", lab_views(self.settings, self.tokens, self.record))
        return f'<div lang="{lang}" style="{BOX}">{inline_styles(sentence + body)}</div>'

    def model_html(self):
        from app.views import model as views
        lang, record, focus = self.settings.lang, self.record, self.settings.focus
        if record is None:
            from app import model
            return f'<p class="prompt">{esc(text(lang, model.unavailable_key()))}</p>'
        letters = _WORD_RADIO.sub("", views.render_tokens([t.text for t in self.tokens], focus, lang, False))
        if focus is not None:
            letters = letters.replace(f'" data-index="{focus}"', f' selected" data-index="{focus}"', 1)
        heads = "".join(f"<h3>{esc(views.head_caption(record, layer, head, lang))}</h3>"
                        + views.render_head(record, layer, head, focus, lang)
                        for layer, head in views.named_heads(record))
        heads = _ROW_PICK.sub(r"\1", heads)  # (nothing to click in a notebook: the row's name)
        written = registry.model_texts(record, lang)  # (a lab's: the letters the model wrote)
        return (letters + written + views.render_notes(record, lang) + views.render_circuit(record, focus, lang)
                + lab_views(self.settings, self.tokens, record) + heads + views.render_predictions(record, focus, lang))

    def _repr_html_(self):
        return self.html()

    def __repr__(self):
        return "\n".join(steps_text(self.settings, self.tokens, self.record))


def link_params(sentence=None, **options):
    """The page's URL parameters ({name: [text]}) for `explore`'s arguments."""
    by_name = {s.url: s for s in schema.SCHEMA if s.url}
    by_name.update({s.attr: s for s in schema.SCHEMA if s.url})
    params = {} if sentence is None else {"s": [str(sentence)]}
    for name, value in options.items():
        setting = by_name.get(name)
        if setting is None or setting.attr == "sentence":
            raise TypeError(f"explore() has no setting {name!r}; settings: "
                            + ", ".join(s.url for s in schema.SCHEMA if s.url and s.attr != "sentence"))
        if value is None:
            continue
        params[setting.url] = [setting.to_text(value) if isinstance(value, (bool, float)) else str(value)]
    return params


def explore(sentence=None, focus=None, **options):
    """Explore `sentence` (default: the first example) with word `focus` selected."""
    settings, tokens, record, notes = contract.from_link(link_params(sentence, focus=focus, **options))
    if notes:
        from app.views.messages import note_text
        raise ValueError(" ".join(note_text(n, settings.lang) for n in notes))
    return Exploration(settings, tokens, record)
