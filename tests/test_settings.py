"""The settings schema (app/settings.py): URL parameters, host messages, fallbacks."""

import pytest

from app import settings as state
from app.settings import MAX_TOKENS, SCHEMA, Note, parse_params, to_params


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


# --- every setting of the schema, attacked and round-tripped -----------------------------

VALUED = [x for x in SCHEMA if x.kind in ("flag", "number", "choice", "integer")]


def good_values(setting):
    """A few allowed values other than the default (ends of the range, each choice)."""
    if setting.kind == "flag":
        return [not setting.default]
    if setting.choices:  # (a choice's names, or the few numbers an integer takes: kv_heads)
        return [c for c in setting.choices if c != setting.default]
    middle = (setting.low + setting.high) / 2
    values = [setting.high, middle if setting.kind == "number" else int(middle)]
    if setting.kind == "number":
        values.append(setting.low)  # (limit=1 would refuse the 6-word example)
    return [v for v in values if v != setting.default]


def bad_texts(setting):
    """Values a link may carry that the setting must refuse."""
    common = ["", "  ", "<script>", "1e999", "nan", "Infinity", "-1", "xx", "0x10", "١"]
    if setting.kind == "flag":
        return ["2", "maybe", "<b>", "-1", "١"]
    if setting.kind in ("number", "integer"):
        others = [str(n) for n in range(int(setting.low), int(setting.high) + 1) if n not in setting.choices]
        in_range = [] if setting.low > -1 else ["-1"]  # (a setting whose range holds −1: b_Δ)
        return [c for c in common if c not in in_range] + [repr(setting.high * 10), repr(setting.low - 1)] \
            + (others if setting.choices else [])
    return [c for c in common if c not in setting.choices] + ["BARS", "english"]


@pytest.mark.parametrize("setting", VALUED, ids=lambda x: x.attr)
def test_every_setting_round_trips_url_and_host_message(setting, lexicons):
    """Each allowed value goes settings → URL → settings and settings → host message → settings unchanged."""
    base = state.default_settings("it")
    tokens, _ = state.check_sentence(base.sentence, lexicons["it"])
    values = good_values(setting)
    if setting.attr == "checkpoint":  # (a training step means something in model mode: a kept one)
        from app import model
        base = state.switch_mode(base, "model")
        tokens, _ = state.model_tokens(base.sentence)
        values = [model.steps()[0], model.steps()[len(model.steps()) // 2], model.steps()[-1]]
    if setting.attr == "lexicon":  # (the page's own language's lexicon is the default, kept as None)
        values = [v for v in values if v != base.lang]
    for value in values:
        # (as the page would hold it: through the setting's own hook, e.g. step 12 brings matrix mode)
        chosen = setting.apply(base, value, state.Change(tokens, lexicons)) if setting.attr == "step" \
            else base.copy(**{setting.attr: value})
        again, notes = parse_params("?" + to_params(chosen), lexicons)
        assert notes == [] and getattr(again, setting.attr) == value
        if setting.host:
            host_value = value
            new, _, warnings, notes = state.host_update(base, tokens, {"type": "attention:set",
                                                                      setting.host: host_value}, lexicons)
            assert warnings == [] and notes == [] and getattr(new, setting.attr) == value


@pytest.mark.parametrize("setting", VALUED, ids=lambda x: x.attr)
def test_every_bad_value_falls_back_with_a_note(setting, lexicons):
    """Each setting refuses wrong link values: its default stays and one note names the parameter."""
    for bad in bad_texts(setting):
        s, notes = parse_params({setting.url: [bad]}, lexicons)
        assert getattr(s, setting.attr) == setting.default, bad
        assert len(notes) == 1, bad
        note = notes[0]
        assert bad in note.params.values()


@pytest.mark.parametrize("setting", [x for x in VALUED if x.host and x.falls_back], ids=lambda x: x.attr)
def test_a_bad_host_value_of_a_setting_that_falls_back_gives_its_default_and_a_note(setting, lexicons):
    """attention:set with a wrong value of the step goes back to the explorer and says so on the page."""
    base = state.default_settings("it").copy(**{setting.attr: setting.high})
    tokens, _ = state.check_sentence(base.sentence, lexicons["it"])
    for bad in ("yes", [1], {"a": 1}, float("nan"), 1e9, -5, 0, setting.high + 1, "<img src=x>"):
        new, _, warnings, notes = state.host_update(base, tokens, {setting.host: bad}, lexicons)
        assert getattr(new, setting.attr) == setting.default and warnings == [], bad
        assert [n.key for n in notes] == [setting.note], bad


@pytest.mark.parametrize("setting", [x for x in VALUED if x.host and not x.falls_back], ids=lambda x: x.attr)
def test_every_bad_host_value_is_ignored_with_a_warning(setting, lexicons):
    """attention:set with a wrong type or range keeps the setting and warns on the console."""
    base = state.default_settings("it")
    tokens, _ = state.check_sentence(base.sentence, lexicons["it"])
    for bad in ("yes", None, [1], {"a": 1}, float("nan"), 1e9, -5, "<img src=x>"):
        if bad is None and setting.nullable:  # (null is a value there: the checkpoint's last one)
            continue
        if bad == -5 and setting.kind in ("number", "integer") and setting.low <= -5:  # (b_Δ: −5 is in range)
            bad = setting.low - 1
        new, _, warnings, _ = state.host_update(base, tokens, {setting.host: bad}, lexicons)
        assert getattr(new, setting.attr) == getattr(base, setting.attr), bad
        assert len(warnings) == 1 and setting.host in warnings[0], bad


def test_new_parameters_are_written_only_when_not_default(lexicons):
    """A default link keeps version 1's parameters; temp, scaled and view appear when changed."""
    s = state.default_settings("it")
    assert [k for k, _ in state.param_pairs(s)] == ["s", "focus", "mask", "self", "lang"]
    changed = s.copy(scaled=False, temperature=0.5, view="heatmap")
    assert ("scaled", "0") in state.param_pairs(changed) and ("temp", "0.5") in state.param_pairs(changed)
    assert ("view", "heatmap") in state.param_pairs(changed)


def test_reset_returns_every_setting_to_its_default_in_the_same_language(lexicons):
    """'Reset everything' gives the first example with every switch at its default, language kept."""
    s = state.default_settings("en").copy(mask=True, scaled=False, temperature=4.0, view="table", focus=1)
    fresh, tokens = state.reset(s, lexicons)
    assert fresh == state.default_settings("en") and len(tokens) == 8


def test_boot_script_lists_every_url_parameter_of_the_schema():
    """index.html's boot script carries data-params with every URL key of the schema (build time)."""
    from tools import build
    page = (build.ROOT / "index.html").read_text(encoding="utf-8")
    assert f'data-params="{" ".join(state.URL_KEYS)}"' in page


def test_the_page_address_is_written_as_the_browser_writes_it(lexicons):
    """The address after a click: the host's own parameters kept in order, the settings as
    URLSearchParams writes them (space +, ~ %7E, * kept, UTF-8 bytes %XX), embed set or dropped."""
    s, _ = parse_params("?s=Il+gatto+dorme&lang=it&focus=1", lexicons)
    others = [("lesson", "3 ~ a*b"), ("s", "old"), ("embed", "0"), ("x", "è")]
    assert state.page_query(s, others) == (
        "lesson=3+%7E+a*b&embed=0&x=%C3%A8&s=Il+gatto+dorme&focus=1&mask=0&self=0&lang=it")
    assert state.page_query(s, others, embed=True).startswith("lesson=3+%7E+a*b&embed=1&x=%C3%A8&s=")
    assert "embed" not in state.page_query(s, others, embed=False)
    assert state.page_query(s, [], embed=True).endswith("&lang=it&embed=1")
    assert parse_params("?" + state.page_query(s, others), lexicons)[0] == s


def test_a_link_value_a_setting_refuses_becomes_its_default(lexicons):
    """A word index that is no word selects none (not the example's word), a bad switch is off,
    each with its note, and a good value after a bad one is still read."""
    settings, notes = parse_params("?focus=-1&mask=maybe&temp=2", lexicons)
    assert settings.focus is None and settings.mask is False and settings.temperature == 2.0
    assert [n.key for n in notes] == ["link_focus_bad", "link_flag_bad"]


def test_a_links_sentence_is_kept_with_its_spaces_and_its_cards_count_is_said(lexicons):
    """s= is the box's text as the link carries it (a trailing space a phone added stays, so the
    example's word is not picked for it), and cards for the wrong number of words get their note."""
    settings, notes = parse_params("?s=Il+gatto+seduto+sul+tappeto+dormiva+", lexicons)
    assert settings.text == "Il gatto seduto sul tappeto dormiva " and settings.focus is None and notes == []
    settings, notes = parse_params("?s=Il+cane+dorme&cards=1,0,0,0", lexicons)
    assert settings.cards is None and [n.key for n in notes] == ["link_cards_bad"]
