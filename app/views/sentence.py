"""The sentence: each word a native radio button (name="word", value = index) with its card."""

from app import i18n
from app.i18n import short, text
from app.views.html import esc


def render_card(card, lang, word=None):
    """A card's four numbers, coloured by feature; spoken as 'card of gatto: vivo 0,95, …'."""
    names = i18n.STRINGS[lang]["features"]
    cells = "".join(f'<span class="v f{i}">{esc(short(v, lang, "card"))}</span>' for i, v in enumerate(card))
    if word is None:
        return f'<span class="card" aria-hidden="true">{cells}</span>'
    values = ", ".join(f"{n} {short(v, lang, 'card')}" for n, v in zip(names, card))
    return (f'<span class="card" aria-hidden="true">{cells}</span>'
            f'<span class="sr-only">{esc(text(lang, "card_aria", word=word, values=values))}</span>')


def guess_note(token, lang):
    reason = i18n.STRINGS[lang]["guess"].get(token.guess or "noun", "")
    return f'{text(lang, "guess_marker")} — {reason}'


def card_legend(lang):
    names = i18n.STRINGS[lang]["features"]
    cells = "".join(f'<span class="v f{i}">{esc(n)}</span>' for i, n in enumerate(names))
    return (f'<div class="card-legend" aria-hidden="true"><span class="w">&nbsp;</span>'
            f'<span class="card">{cells}</span></div>')


def render_sentence(tokens, focus, lang, interactive=True):
    """The words as native radio buttons (name="word", value = index), each with its card
    (`interactive` False: disabled; "early", the pre-rendered page's: enabled, static/early.js)."""
    off = "" if interactive else " disabled"
    words = [card_legend(lang)]
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
            f'<span class="w">{esc(tok.text)}{guessed}</span>{render_card(tok.card, lang, tok.text)}</label>'
        )
    legend = f'<p class="legend">{esc(text(lang, "card_legend"))}'
    if any_guess:
        legend += f'<br><span class="guess-legend">{esc(text(lang, "guessed_legend"))}</span>'
    legend += "</p>"
    return (f'<fieldset class="words-fieldset"><legend>{esc(text(lang, "words_legend"))}</legend>'
            f'<div class="words">{"".join(words)}</div>{legend}</fieldset>')
