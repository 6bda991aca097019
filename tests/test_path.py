"""The guided path: every step round-trips through links and host messages, and every "try this"
answer says what numpy computes for the first example, in both languages, and for whatever an
earlier step left switched on (its numbers written from the record, app/path_answers.py)."""

import functools
import itertools

import numpy as np
import pytest

from app import contract, i18n, lexicon, path, path_answers
from app import settings as state
from app.heads import HEADS
from app.views import registry
from tests.path_reference import (LETTERS, WORK, WRITTEN, another_value, expected, fresh_message, mode_default,
                                  quoted, step_link)
from tests.reference import W_Q, attention_matrix, attention_row, lexicon_cards, rule_percent, shown

# The first example in each language, its asking word ("dormiva" / "slept") and the words the
# answers name, by position.
EXAMPLE = {"it": "Il gatto seduto sul tappeto dormiva".split(),
           "en": "The cat sat on the mat and slept".split()}
CAT, MAT = 1, {"it": 4, "en": 5}
LANGS = ("it", "en")


def cards(lang):
    known = lexicon_cards(lang)
    return np.array([known[w.lower()] for w in EXAMPLE[lang]])


@functools.lru_cache(maxsize=None)
def loaded(lang):
    return lexicon.load_lexicon(lang)


def live(step_id, lang, sentence=None, **changes):
    """(the answer of step `step_id`, the state JSON) for the first example (or `sentence`) with
    `changes` to the settings the step opens with."""
    number = next(n for n, s in enumerate(path.STEPS, 1) if s.id == step_id)
    settings = state.switch_mode(state.default_settings(lang).copy(step=number), path.step_of(number).mode)
    if sentence is not None:
        settings = settings.copy(sentence=sentence, text=sentence, focus=0)
    settings = settings.copy(**changes)
    tokens = [] if settings.mode == "matrix" else state.check_sentence(settings.sentence, loaded(lang))[0]
    record = contract.compute(settings, tokens)
    shown_tokens = contract.shown_tokens(settings, tokens, record)
    said = path_answers.answer(path.step_of(number), settings, shown_tokens, record)
    return said, contract.build_state(settings, shown_tokens, record)


def answer(step_id, lang, **changes):
    return live(step_id, lang, **changes)[0]


def test_there_are_at_least_five_steps_in_the_course_order():
    """The path has ≥ 5 steps, from the cards to matrix mode, in the order of the lesson."""
    ids = [s.id for s in path.STEPS]
    assert len(ids) >= 5 and ids[0] == "cards" and ids[-1] == "hands-on"
    order = ["cards", "query", "dots", "scale", "softmax", "mask", "values", "matrix", "heads", "order", "layer2"]
    assert [i for i in ids if i in order] == order


@pytest.mark.parametrize("lang", LANGS)
def test_every_step_has_its_text_in_both_languages(lang):
    """Each step has a title, a line of text, a thing to try and its answer, none left empty."""
    for step in path.STEPS:
        for part in ("title", "text", "try", "answer"):
            assert i18n.text(lang, f"path_{step.id}_{part}").strip(), (step.id, part)


@pytest.mark.parametrize("number", range(1, path.COUNT + 1))
def test_a_step_link_round_trips(number, lexicons):
    """A link to step N opens step N in its mode; the link the page writes for it reads back the same."""
    settings, notes = state.parse_params({"step": [str(number)]}, lexicons)
    assert notes == [] and settings.step == number
    assert settings.mode == ("matrix" if number == path.COUNT else "sentence")
    query = state.page_query(settings, [], None)
    assert f"step={number}" in query.split("&")
    params = {}
    for pair in query.split("&"):
        name, _, value = pair.partition("=")
        params.setdefault(name, []).append(value)
    again, notes = state.parse_params(params, lexicons)
    assert notes == [] and again.step == number and again.mode == settings.mode


@pytest.mark.parametrize("bad", ["0", "13", "-1", "2.5", "tre", ""])
def test_a_step_out_of_range_falls_back_to_the_explorer_with_a_note(bad, lexicons):
    """step=13 (or anything not 1…N) opens the explorer and a note says the steps go from 1 to N."""
    settings, notes = state.parse_params({"step": [bad]}, lexicons)
    assert settings.step is None and [n.key for n in notes] == ["link_step_bad"]
    assert notes[0].params["count"] == path.COUNT


def test_a_host_message_moves_through_the_steps_and_back_to_the_explorer(lexicons):
    """attention:set {step: 12} is matrix mode's step; {step: 3} goes back to a sentence; null: the explorer."""
    base = state.default_settings("it")
    tokens, _ = state.check_sentence(base.sentence, lexicons["it"])
    s, tokens, warnings, notes = state.host_update(base, tokens, {"step": 12}, lexicons)
    assert (s.step, s.mode, warnings, notes) == (12, "matrix", [], [])
    s, tokens, warnings, notes = state.host_update(s, tokens, {"step": 3}, lexicons)
    assert (s.step, s.mode, warnings, notes) == (3, "sentence", [], [])
    s, tokens, warnings, notes = state.host_update(s, tokens, {"step": None}, lexicons)
    assert (s.step, warnings, notes) == (None, [], [])


# -- the answers, against numpy ------------------------------------------------------------


@pytest.mark.parametrize("lang", LANGS)
def test_the_cards_answer(lang):
    """Cat and mat differ most in "alive" (0.95 against 0); mat is all "thing", cat 0.1 of it."""
    x = cards(lang)
    gap = np.abs(x[CAT] - x[MAT[lang]])
    assert gap.argmax() == 0 and x[CAT][0] == 0.95 and x[MAT[lang]][0] == 0
    text = answer("cards", lang)
    for value in (x[CAT][0], x[MAT[lang]][2], x[CAT][2]):
        assert shown(value, 2, lang).rstrip("0").rstrip(",.") in text


@pytest.mark.parametrize("lang", LANGS)
def test_the_query_and_dot_product_answers(lang):
    """The verb's question is [3; 0; 2; 0]; its largest q·k is the cat's 3.05, then the mat's 2."""
    x = cards(lang)
    focus = len(x) - 1
    q, scores, _, _ = attention_row(x, W_Q, focus)
    assert q.tolist() == [3, 0, 2, 0] and {"it": "[3; 0; 2; 0]", "en": "[3, 0, 2, 0]"}[lang] in answer("query", lang)
    dots = x @ q
    order = np.argsort(-dots)
    assert (order[0], order[1]) == (CAT, MAT[lang])
    assert shown(dots[CAT], 2, lang) in answer("dots", lang) and f" {shown(dots[MAT[lang]], 3, lang)}." in answer("dots", lang)


@pytest.mark.parametrize("lang", LANGS)
def test_the_scale_answer(lang):
    """Without ÷ √d_k the logits double and the cat's share grows: before the switch the answer says
    the cat's logit, its double and the share the table shows; after it, the larger share alone."""
    x = cards(lang)
    focus = len(x) - 1
    q = x[focus] @ np.array(W_Q)
    scaled = attention_matrix(x @ np.array(W_Q), x, x)
    plain = attention_matrix(x @ np.array(W_Q), x, x, scaled=False)
    assert np.allclose(plain["logits"], 2 * scaled["logits"])
    before, after = scaled["weights"][focus][CAT], plain["weights"][focus][CAT]
    assert after > before
    text = answer("scale", lang)
    assert text.index(shown(scaled["logits"][focus][CAT], 3, lang)) < text.index(shown(x[CAT] @ q, 2, lang))
    assert rule_percent(before, 1, lang) in text and rule_percent(after, 1, lang) not in text
    off = answer("scale", lang, scaled=False)
    assert shown(x[CAT] @ q, 2, lang) in off and shown(scaled["logits"][focus][CAT], 3, lang) in off
    assert rule_percent(after, 1, lang) in off and rule_percent(before, 1, lang) not in off


@pytest.mark.parametrize("lang", LANGS)
def test_the_softmax_answer(lang):
    """The weights add up to 1, and the words the answer pairs have the logits and weights it says."""
    x = cards(lang)
    focus = len(x) - 1
    m = attention_matrix(x @ np.array(W_Q), x, x)
    assert m["weights"][focus].sum() == pytest.approx(1.0)
    text = answer("softmax", lang)
    words = {"it": (0, 3), "en": (0,)}[lang]  # Il (logit 0) and sul (0.1); The, sat, the and: a tie at 0
    for j in words:
        assert rule_percent(m["weights"][focus][j], 1, lang) in text
    assert m["logits"][focus][0] == 0 and m["logits"][focus][3] == pytest.approx(0.1)
    if lang == "en":  # The, sat, the, and: all logit 0, all the same weight
        assert len({round(m["weights"][focus][j], 12) for j in (0, 2, 4, 6)}) == 1


@pytest.mark.parametrize("lang", LANGS)
def test_the_mask_answer(lang):
    """With the mask the second word can only look at the first: 100%; with the word itself too, the
    two shares the heatmap's second row shows; before the mask is on, no number at all."""
    _, _, weights, allowed = attention_row(cards(lang), W_Q, 1, mask=True)
    assert allowed.tolist().count(True) == 1 and weights[0] == 1.0
    _, _, shared, _ = attention_row(cards(lang), W_Q, 1, mask=True, include_self=True)
    assert quoted(answer("mask", lang)) == [] and quoted(answer("mask", lang, include_self=True)) == []
    assert "100%" in answer("mask", lang, mask=True)
    text = answer("mask", lang, mask=True, include_self=True)
    assert "100%" not in text
    assert text.index(rule_percent(shared[0], 0, lang)) < text.index(rule_percent(shared[1], 0, lang))


@pytest.mark.parametrize("lang", LANGS)
def test_the_values_answer(lang):
    """The new card's "alive" is Σ weight × value: the number the answer gives."""
    x = cards(lang)
    focus = len(x) - 1
    m = attention_matrix(x @ np.array(W_Q), x, x)
    text = answer("values", lang)
    assert shown(m["output"][focus][0], 3, lang) in text
    assert shown(m["weights"][focus][CAT] * x[CAT][0], 3, lang) in text


@pytest.mark.parametrize("lang", LANGS)
def test_the_heads_answer(lang):
    """Each head's favourite word and share are those the answer names (the even head: its equal share)."""
    x = cards(lang)
    focus = len(x) - 1
    text = answer("heads", lang)
    for head in HEADS:
        weights = attention_matrix(x @ np.array(head.w_q), x, x)["weights"][focus]
        top = weights.max()
        assert rule_percent(top, 0, lang) in text, head.id
        winners = [EXAMPLE[lang][j] for j in range(len(x)) if np.isclose(weights[j], top)]
        if len(winners) == 1:
            assert f"{winners[0]}" in text, head.id


@pytest.mark.parametrize("lang", LANGS)
def test_the_word_order_answer(lang):
    """Swapping cat and mat only moves their weights: each keeps its share; with the distance on it does not."""
    x = cards(lang)
    focus = len(x) - 1
    swapped = x.copy()
    swapped[[CAT, MAT[lang]]] = swapped[[MAT[lang], CAT]]
    before = attention_matrix(x @ np.array(W_Q), x, x)["weights"][focus]
    after = attention_matrix(swapped @ np.array(W_Q), swapped, swapped)["weights"][focus]
    assert after[MAT[lang]] == pytest.approx(before[CAT]) and after[CAT] == pytest.approx(before[MAT[lang]])
    near = attention_matrix(swapped @ np.array(W_Q), swapped, swapped, slope=0.5)["weights"][focus]
    far = attention_matrix(x @ np.array(W_Q), x, x, slope=0.5)["weights"][focus]
    assert not np.isclose(near[MAT[lang]], far[CAT])  # (the answer's last sentence: the distance)
    text = answer("order", lang)
    assert rule_percent(before[CAT], 0, lang) in text and rule_percent(before[MAT[lang]], 0, lang) in text


@pytest.mark.parametrize("lang", LANGS)
def test_the_second_layer_answer(lang):
    """Layer 2's card of the verb is the average of the heads' outputs: its "alive" is the number said."""
    x = cards(lang)
    focus = len(x) - 1
    outputs = [attention_matrix(x @ np.array(h.w_q), x @ np.array(h.w_k), x @ np.array(h.w_v))["output"][focus]
               for h in HEADS]
    card2 = np.mean(outputs, axis=0)  # concat · W_O with W_O the stacked identities ÷ h
    assert x[focus][0] == 0
    assert shown(card2[0], 3, lang).rstrip("0") in answer("layer2", lang)


def test_the_matrix_answers():
    """n × n comparisons for the example's n words and for twice as many; a masked 8×8 has zeros
    right of the diagonal, and its first row's 100% is said once the mask is on."""
    for lang in LANGS:
        n = len(EXAMPLE[lang])
        tried = i18n.text(lang, "path_matrix_try", **path_answers.try_params(path.STEPS[7], [None] * n))
        assert str(n) in tried and str(2 * n) in tried
        text = answer("matrix", lang)
        assert text.index(f"{n} × {n} = {n * n}") < text.index(f"{2 * n} × {2 * n} = {4 * n * n}")
    rng = np.random.default_rng(0)
    q, k, v = (rng.integers(-2, 3, size=(8, 4)) for _ in range(3))
    w = attention_matrix(q, k, v, mask=True, include_self=True)["weights"]
    assert w.shape == (8, 8) and np.all(np.triu(w, 1) == 0) and w[0][0] == 1.0
    assert "8 × 8" in answer("hands-on", "it", seed=3) and "%" not in answer("hands-on", "en", seed=3)
    assert "100%" in answer("hands-on", "en", seed=3, mask=True)  # (once the mask is on, as the step asks)


# Settings a student may change on a step, in view or behind "More settings" (the mask and the
# word itself, the scale, the temperature, the distance): every answer quotes the numbers of the
# settings in force, and only those the screen shows.
LEFT_ON = [dict(), dict(include_self=True), dict(mask=True, include_self=True), dict(scaled=False),
           dict(temperature=2.0, slope=0.5), dict(mask=True)]


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("changes", LEFT_ON, ids=lambda c: ",".join(c) or "fresh")
def test_every_answer_quotes_numpys_numbers_for_the_settings_in_force(lang, changes):
    """Every step's answer, with any of these switches on, quotes exactly the numbers numpy works
    out from the state's cards and matrices (step 9 with the word itself on: not 42/49/41/20)."""
    for step in path.STEPS:
        said, record_state = live(step.id, lang, **changes, **({"seed": 3} if step.mode == "matrix" else {}))
        assert quoted(said) == expected(step.id, record_state, lang), (step.id, said)


def test_step_9_with_the_word_itself_on_quotes_its_own_numbers():
    """The walkthrough's case: the word itself on at step 9, it says 39/44/39/17, not 42/49/41/20."""
    fresh, on = answer("heads", "it"), answer("heads", "it", include_self=True)
    assert "42%" in fresh and "49%" in fresh
    assert "42%" not in on and "49%" not in on and on != fresh


@pytest.mark.parametrize("lang", LANGS)
def test_an_answer_in_another_sentence_names_the_example_instead_of_numbers(lang):
    """In a sentence without the words the steps name, the answer says which sentence it is about."""
    other = i18n.PRESETS[lang][2][0]
    said, _ = live("values", lang, sentence=other)
    assert i18n.PRESETS[lang][0][0] in said and quoted(said.replace(i18n.PRESETS[lang][0][0], "")) == []
    said, record_state = live("matrix", lang, sentence=other)  # (step 8 counts any sentence's words)
    assert quoted(said) == expected("matrix", record_state, lang)


def test_the_path_and_the_mode_stay_one_link(lexicons):
    """Choosing the other mode on a step leaves the path; leaving step 12 for the explorer keeps
    matrix mode; a step 12 link keeps the row and the switch it names; reset stays on the step."""
    base = state.default_settings("it")
    tokens, _ = state.check_sentence(base.sentence, lexicons["it"])
    s, tokens, _, _ = state.host_update(base, tokens, {"step": 3}, lexicons)
    s, tokens, _, _ = state.host_update(s, tokens, {"mode": "matrix"}, lexicons)
    assert (s.step, s.mode) == (None, "matrix")
    again, _ = state.parse_params({"mode": ["matrix"], "step": ["3"]}, lexicons)
    assert (again.step, again.mode) == (3, "sentence")  # (the step says its mode)
    s, tokens, _, _ = state.host_update(base, tokens, {"step": 12}, lexicons)
    s, tokens, _, _ = state.host_update(s, tokens, {"step": None}, lexicons)
    assert (s.step, s.mode) == (None, "matrix")
    linked, notes = state.parse_params({"step": ["12"], "self": ["0"], "focus": ["2"]}, lexicons)
    assert notes == [] and (linked.mode, linked.include_self, linked.focus) == ("matrix", False, 2)
    on_step = state.parse_params({"step": ["4"], "temp": ["3"]}, lexicons)[0]
    fresh, _ = state.reset(on_step, lexicons)
    assert (fresh.step, fresh.temperature) == (4, 1.0)


def test_a_language_switch_on_matrix_mode_keeps_the_row(lexicons):
    """Step 12 in English keeps the selected row of Q (the sentence's word index means nothing there)."""
    s, notes = state.parse_params({"step": ["12"], "focus": ["2"]}, lexicons)
    english, _ = state.switch_language(s, "en", lexicons)
    assert (english.lang, english.mode, english.focus) == ("en", "matrix", 2)


# -- what every registered path promises: its steps own their settings --------------------------

STEPS = [(way.id, n) for way in registry.paths().values() for n in range(1, len(way.steps) + 1)]


def owned(name, number):
    """The settings step `number` of path `name` owns (app/path.py `Step.owned`)."""
    return path.step_of(number, name).owned(lambda control: state.BY_CONTROL[control].attr)


def opened(name, number, lang, lexicons):
    """(settings, tokens) of step `number` of path `name` opened by its link, with the work a student brings."""
    params = {}
    for key, value in step_link(name, number, lang, path.step_of(number, name).mode):
        params[key] = [value]
    settings, notes = state.parse_params(params, lexicons)
    assert notes == [] and settings.step == number
    return settings, state.sentence_tokens(settings, settings.sentence, lexicons)[0]


def test_every_step_of_every_path_owns_settings_of_the_schema_and_none_owns_the_work():
    """Each step of each registered path owns settings the schema has (as declared, or as its
    controls and views give them), each view's settings are the schema's, a step that puts a
    control in view owns it, and no step or view owns the student's work."""
    for way in registry.paths().values():
        for number, step in enumerate(way.steps, 1):
            mine = owned(way.id, number)
            assert mine <= set(state.BY_ATTR), (way.id, step.id, mine - set(state.BY_ATTR))
            assert set(step.owns or ()) <= set(state.BY_ATTR), (way.id, step.id)
            assert {state.BY_CONTROL[c].attr for c in step.controls} <= mine or step.owns is not None
            assert not mine & set(WORK), (way.id, step.id)
    for view in registry.views():
        assert set(view.settings) <= set(state.BY_ATTR) and not set(view.settings) & set(WORK), view.id
    assert owned("cost", 3) >= {"pattern", "window", "global_tokens", "random_keys", "mask", "include_self"}
    assert "pattern" not in owned("cost", 6) and "flash" in owned("cost", 6)


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("name, number", STEPS, ids=[f"{n}-{k}" for n, k in STEPS])
def test_entering_a_step_sets_back_what_another_step_changed_and_keeps_the_work(name, number, lang, lexicons):
    """From every other step of its path, with each setting that step owns changed as its controls
    would, entering this step (a host message, as Next and Back do) sets back to the mode's default
    each one it does not own and keeps those it owns; the sentence or letters, the word, the letters
    written and the language stay, and a step in another mode finds them again on the way back."""
    count = path.count(name)
    for other in range(1, count + 1):
        if other == number:
            continue
        settings, tokens = opened(name, other, lang, lexicons)
        changes = {state.BY_ATTR[attr].host: another_value(state.BY_ATTR[attr]) for attr in owned(name, other)}
        changed, tokens, warnings, notes = state.host_update(settings, tokens, changes, lexicons)
        assert warnings == [] and notes == [], (other, changes)
        entered, entered_tokens, warnings, _ = state.host_update(changed, tokens, {"step": number}, lexicons)
        assert warnings == [] and entered.step == number
        mode = path.step_of(number, name).mode
        for attr in owned(name, other):
            setting = state.BY_ATTR[attr]
            if attr not in owned(name, number):
                assert getattr(entered, attr) == mode_default(setting, mode), (other, attr)
            elif mode == changed.mode:
                assert getattr(entered, attr) == getattr(changed, attr), (other, attr)
        work = {attr: getattr(changed, attr) for attr in WORK}
        if entered.mode == changed.mode:
            assert {attr: getattr(entered, attr) for attr in WORK} == work, other
        back, _, _, _ = state.host_update(entered, entered_tokens, {"step": other}, lexicons)
        assert {attr: getattr(back, attr) for attr in WORK} == work, (other, "and back")


def test_bigbird_on_the_cost_paths_fifth_step_is_off_on_the_sixth(lexicons):
    """The walkthrough's case: BigBird chosen on step 5 no longer thins FlashAttention's keys on
    step 6, which computes every cell; a link to step 6 that names its pattern keeps it."""
    settings, tokens = opened("cost", 5, "en", lexicons)
    bigbird, tokens, _, _ = state.host_update(settings, tokens, {"pattern": "bigbird", "window": 1, "random": 1},
                                              lexicons)
    flash, tokens, _, _ = state.host_update(bigbird, tokens, {"step": 6, "flash": 2}, lexicons)
    assert (flash.pattern, flash.window, flash.random_keys, flash.flash) == ("full", None, None, 2)
    record = contract.compute(flash, tokens)
    assert all(record.candidates[i][j] for i in range(record.n_q) for j in range(record.n_k) if i != j)
    linked, _ = state.parse_params({"path": ["cost"], "step": ["6"], "pattern": ["bigbird"]}, lexicons)
    assert linked.pattern == "bigbird"


def test_the_generation_path_keeps_the_letters_through_next_and_back(lexicons):
    """Letters typed and written on step 3 (the trained model), Next to step 4 (the designed heads),
    then Back: the same letters, the same letters written, the same position selected."""
    settings, tokens = opened("generation", 3, "it", lexicons)
    typed, tokens, _, _ = state.host_update(settings, tokens, {"sentence": "a b c a b", "focus": 2, "generate": 4},
                                            lexicons)
    four, tokens, _, _ = state.host_update(typed, tokens, {"step": 4}, lexicons)
    assert four.mode == "sentence" and four.sentence == i18n.PRESETS["it"][0][0]
    three, tokens, _, _ = state.host_update(four, tokens, {"step": 3}, lexicons)
    assert (three.mode, three.sentence, three.focus, three.generate) == ("model", "a b c a b", 2, 4)
    assert [t.text for t in tokens][1:] == ["a", "b", "c", "a", "b"]
    assert (LETTERS, WRITTEN) == (settings.sentence, settings.generate)


@pytest.mark.parametrize("name, number", STEPS, ids=[f"{n}-{k}" for n, k in STEPS])
def test_a_host_message_of_every_setting_opens_a_step_as_its_link_does_from_any_state(name, number, lexicons):
    """The message tests/e2e/views/test_every_path.py sends in place of a link gives the link's own
    settings whatever the page showed before: the explorer, another path's step, the trained model
    with letters written, matrix mode with Q typed. (Not after a random example's seed, which a host
    message cannot take back to none: the walk never sets one.)"""
    for lang in LANGS:
        linked, tokens = opened(name, number, lang, lexicons)
        message = fresh_message(linked, state)
        starts = [state.parse_params(q, lexicons)[0] for q in (
            f"?lang={lang}", "?path=cost&step=5&pattern=bigbird&temp=3", "?mode=model&s=a+b+a+b&generate=2&kv_heads=1",
            "?step=12&q=1,0;0,1&mask=1&lang=en", f"?path=generation&step=6&window=3&lang={lang}")]
        for start in starts:
            start_tokens = state.sentence_tokens(start, start.sentence, lexicons)[0]
            opened_now, _, warnings, notes = state.host_update(start, start_tokens, message, lexicons)
            assert (opened_now, warnings, notes) == (linked, [], []), (lang, start)
