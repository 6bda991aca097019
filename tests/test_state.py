"""Settings from URL parameters and the state JSON contract (app/state.py)."""

import json

import pytest

from app import attention, state
from app.state import MAX_TOKENS, Note, parse_params, to_params


def test_no_parameters_give_the_first_example_with_its_word_selected(lexicons):
    """An empty URL shows 'Il gatto seduto sul tappeto dormiva' with 'dormiva' selected."""
    s, notes = parse_params("", lexicons)
    assert s.sentence == "Il gatto seduto sul tappeto dormiva" and s.focus == 5 and notes == []


def test_url_parameters_round_trip(lexicons):
    """to_params then parse_params gives back the same settings (including odd text)."""
    original = state.Settings("Il cane & il <gatto> dormono", 2, True, True, "it")
    again, notes = parse_params("?" + to_params(original), lexicons)
    assert notes == []
    assert (again.sentence, again.focus, again.mask, again.include_self, again.lang) == \
        (original.sentence, 2, True, True, "it")


@pytest.mark.parametrize("query, note", [
    ("focus=999", "link_focus_bad"),
    ("focus=-1", "link_focus_bad"),
    ("focus=abc", "link_focus_bad"),
    ("mask=maybe", "link_flag_bad"),
    ("self=2", "link_flag_bad"),
    ("lang=xx", "link_lang_bad"),
    ("s=%20%20", "link_sentence_bad"),
    ("s=" + "parola+" * (MAX_TOKENS + 1), "link_sentence_bad"),
])
def test_bad_url_values_fall_back_with_a_note(lexicons, query, note):
    """Every wrong URL value is replaced by a safe one and explained in a note."""
    s, notes = parse_params(query, lexicons)
    assert [n.key for n in notes] == [note]
    assert s.lang == "it" and (s.focus is None or 0 <= s.focus < 6)


def test_too_long_link_keeps_its_text_for_the_box(lexicons):
    """A link whose sentence is too long shows the example but keeps its text in the box."""
    long = " ".join(["gatto"] * (MAX_TOKENS + 5))
    s, notes = parse_params("s=" + long.replace(" ", "+"), lexicons)
    assert s.text == long and s.sentence != long
    assert notes[0].params["why"] == Note("too_long", count=MAX_TOKENS + 5, limit=MAX_TOKENS)


def test_repeated_parameters_use_the_first(lexicons):
    """?focus=1&focus=2 selects word 1."""
    s, _ = parse_params("focus=1&focus=2", lexicons)
    assert s.focus == 1


def test_custom_sentence_starts_with_no_word_selected(lexicons):
    """A sentence that is not an example starts with no word selected unless focus says so."""
    s, _ = parse_params("s=Il+cane+abbaia", lexicons)
    assert s.focus is None
    s, _ = parse_params("s=Il+cane+abbaia&focus=1", lexicons)
    assert s.focus == 1


def test_state_follows_the_contract(lexicons):
    """The state object has exactly the version-1 keys, with full-precision floats."""
    s, _ = parse_params("", lexicons)
    tokens, _ = state.check_sentence(s.sentence, lexicons["it"])
    result = state.analyse(s, tokens)
    st = state.build_state(s, tokens, result)
    assert list(st) == ["version", "lang", "sentence", "features", "tokens", "w_q", "focus", "mask",
                        "include_self", "d_k", "scale", "query", "rows"]
    assert st["features"] == ["alive", "action", "thing", "function"]
    assert st["d_k"] == 4 and st["scale"] == 2.0 and st["focus"] == 5
    assert st["tokens"][1] == {"text": "gatto", "card": [0.95, 0.05, 0.1, 0.0], "known": True}
    assert st["rows"][1]["weight"] == result.weights[1]  # not rounded
    assert st["rows"][5]["candidate"] is False and st["rows"][5]["weight"] == 0.0  # the word itself
    assert [r["percent"] for r in st["rows"]] == ["9%", "43%", "13%", "10%", "25%", "0%"]
    assert st["w_q"] == [list(r) for r in attention.W_Q]


def test_state_with_mask_has_null_logits_for_masked_words(lexicons):
    """Masked rows: candidate false, weight 0, dot and logit null."""
    s = state.Settings("Il gatto dorme", 1, mask=True)
    tokens, _ = state.check_sentence(s.sentence, lexicons["it"])
    st = state.build_state(s, tokens, state.analyse(s, tokens))
    assert st["rows"][2] == {"index": 2, "candidate": False, "dot": None, "logit": None,
                             "weight": 0.0, "percent": "0%"}
    assert st["rows"][0]["percent"] == "100%"


def test_state_json_cannot_close_its_script_element():
    """'</script>' in a sentence is written as \\u003c/script> inside the JSON."""
    text = state.state_json({"sentence": "</script><b>"})
    assert "<" not in text and json.loads(text)["sentence"] == "</script><b>"


def test_check_sentence_refuses_blank_and_too_long(lexicons):
    """Blank text and more than MAX_TOKENS pieces are refused with the reason."""
    assert state.check_sentence("   \u200b ", lexicons["it"])[1].key == "empty"
    assert state.check_sentence("a " * (MAX_TOKENS + 1), lexicons["it"])[1].key == "too_long"
    too_many_chars = "x" * (MAX_TOKENS * state.CHARS_PER_TOKEN + 1)
    assert state.check_sentence(too_many_chars, lexicons["it"])[1].key == "too_long_chars"


def test_limit_parameter_raises_the_word_limit_up_to_500(lexicons):
    """?limit=200 accepts a 200-word sentence; limit=0, 501 or 'x' keep 60 with a note."""
    long = "+".join(["gatto"] * 200)
    s, notes = parse_params(f"limit=200&s={long}&focus=3", lexicons)
    assert notes == [] and s.limit == 200 and s.focus == 3 and len(s.sentence.split()) == 200
    assert ("limit", "200") in state.param_pairs(s)
    for bad in ("0", "501", "x", "-5"):
        s, notes = parse_params(f"limit={bad}", lexicons)
        assert s.limit == MAX_TOKENS and [n.key for n in notes] == ["link_limit_bad"]


def test_host_update_applies_valid_fields_and_ignores_the_rest(lexicons):
    """attention:set: a sentence and one of its words apply; wrong types and keys only warn."""
    s = state.default_settings("it")
    tokens, _ = state.check_sentence(s.sentence, lexicons["it"])
    new, new_tokens, warnings, notes = state.host_update(
        s, tokens, {"type": "attention:set", "sentence": "Il cane dorme", "focus": 1, "mask": True,
                    "self": "yes", "evil": 1}, lexicons)
    assert (new.sentence, new.focus, new.mask, new.include_self) == ("Il cane dorme", 1, True, False)
    assert [t.text for t in new_tokens] == ["Il", "cane", "dorme"] and notes == []
    assert len(warnings) == 2  # 'self' of the wrong type, unknown key 'evil'
    same, same_tokens, warnings, _ = state.host_update(s, tokens, "not an object", lexicons)
    assert same is s and same_tokens is tokens and len(warnings) == 1
