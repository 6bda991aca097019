"""What the student reads beside the numbers says what the numbers show: a flat row is called
flat only when it is, a tie is said as a tie, the head cards' "more" line says what it stands
for, the bars say when their shown parts do not add up to 100, and a dozen words."""

from types import SimpleNamespace

import pytest

from app import contract, i18n
from app import settings as schema
from app.render import explain
from app.views.heads import TOP, head_summary, render_heads

LANGS = ("it", "en")


def row(weights, focus=0):
    """A row of the focus word looking at every other word with these weights (its own: 0)."""
    weights = [0.0] + list(weights) if focus == 0 else list(weights)
    return SimpleNamespace(focus=focus, n=len(weights), weights=weights,
                           candidates=[j != focus for j in range(len(weights))])


def words(n):
    return [SimpleNamespace(text=w) for w in ("Il", "gatto", "seduto", "sul", "tappeto", "dormiva", "qui")[:n]]


@pytest.mark.parametrize("lang", LANGS)
def test_a_row_is_called_flat_only_when_its_weights_are_close(lang):
    """55% / 45% reads "more or less the same"; 56% / 44% (step 6's word itself) does not."""
    flat = i18n.text(lang, "flat", word="Il")
    assert explain(row([0.55, 0.45]), words(3), lang) == flat
    assert explain(row([0.56, 0.44]), words(3), lang) == ""
    assert explain(row([0.2] * 5), words(6), lang) == flat  # (five words at 20% each)
    assert explain(row([0.3, 0.2, 0.2, 0.15, 0.15]), words(6), lang) == ""


@pytest.mark.parametrize("lang", LANGS)
def test_a_tie_is_said_as_a_tie(lang):
    """Five words at 20% each: "splits evenly over 5 words", never "looks mostly at «Il»"; two
    words sharing the top are both named; a single top word is named alone."""
    even = head_summary(row([0.2] * 5), words(6), lang)
    assert even == i18n.text(lang, "heads_even", n=5, pct="20%")
    two = head_summary(row([0.4, 0.4, 0.2]), words(4), lang)
    assert "gatto" in two and "seduto" in two and two == i18n.text(
        lang, "heads_top_tie", words=i18n.join_words(
            [("«{}»" if lang == "it" else "“{}”").format(w) for w in ("gatto", "seduto")], lang), pct="40%")
    one = head_summary(row([0.5, 0.3, 0.2]), words(4), lang)
    assert one == i18n.text(lang, "heads_top", word="gatto", pct="50%")


@pytest.mark.parametrize("lang", LANGS)
def test_the_head_cards_say_what_their_more_line_stands_for(lang, lexicons):
    """A card of more than five words ends with "… and 3 more words, with less weight", not "… 3"."""
    sentence = i18n.PRESETS[lang][1][0]
    settings = schema.default_settings(lang).copy(sentence=sentence, text=sentence, focus=0)
    tokens, _ = schema.check_sentence(sentence, lexicons[lang])
    record = contract.compute(settings, tokens)
    html = render_heads(record, 0, tokens, lang)
    rest = len(tokens) - 1 - TOP
    key = "heads_more_one" if rest == 1 else "heads_more"
    assert rest >= 1 and i18n.text(lang, key, n=rest) in html.replace("&#x27;", "'")
    assert f">… {rest}<" not in html
