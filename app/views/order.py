"""Word order: choose two words and swap them (app/order.py says what happened)."""

from app.i18n import text
from app.views.html import esc
from app.views import registry


def render_order(tokens, lang, off=""):
    """Two selects (the words) and a button; #order-result says what the swap did."""
    def select(name, chosen):
        options = "".join(f'<option value="{j}"{" selected" if j == chosen else ""}>{j + 1}. {esc(t.text)}</option>'
                          for j, t in enumerate(tokens))
        return (f'<label for="{name}">{esc(text(lang, name))}</label>'
                f'<select id="{name}" name="{name}"{off}>{options}</select>')

    second = min(len(tokens) - 1, 4)
    return (f'<h2>{esc(text(lang, "order_heading"))}</h2>'
            f'<p class="order-help">{esc(text(lang, "order_help"))}</p>'
            f'<div class="order-choice">{select("swap-a", 1 if len(tokens) > 1 else 0)}{select("swap-b", second)}'
            f'<button type="button" class="secondary" id="swap"{off}>{esc(text(lang, "swap"))}</button></div>'
            f'<p id="order-result" class="order-result" role="status"></p>'
            f'<p class="note">{esc(text(lang, "pos_line"))}</p>')


# Drawn with the editor (app/render.py's render_edits), outside the analysis: a step shows it by name.
VIEW = registry.add(registry.View(id="order", place=100, selector="#editor > .order"))
