"""Heads, W_O, the distance bias and word order, checked against numpy and by hand."""

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

from app import contract, heads, i18n
from app import settings as schema
from tests.reference import attention_matrix

unit = st.sampled_from([0.0, 0.05, 0.1, 0.5, 0.8, 0.9, 0.95, 1.0])
cards_strategy = st.lists(st.lists(unit, min_size=4, max_size=4), min_size=1, max_size=10)


def computed(sentence, lexicons, lang="it", **options):
    s = schema.Settings(sentence, None, lang=lang).copy(**options)
    tokens, _ = schema.check_sentence(sentence, lexicons[lang])
    return s, tokens, contract.compute(s, tokens)


class Cards:
    """Tokens with given cards (no lexicon)."""

    def __init__(self, cards):
        from app.lexicon import Token
        self.tokens = [Token(f"w{i}", list(c), True) for i, c in enumerate(cards)]


@settings(max_examples=120, deadline=None)
@given(cards=cards_strategy, mask=st.booleans(), include_self=st.booleans(), scaled=st.booleans(),
       slope=st.sampled_from([0.0, 0.5, 2.0]), head=st.integers(0, len(heads.HEADS) - 1))
def test_every_head_concat_and_w_o_equal_numpy(cards, mask, include_self, scaled, slope, head):
    """Each head's weights and outputs, the concatenation and concat · W_O equal numpy's."""
    tokens = Cards(cards).tokens
    s = schema.Settings("x", None, mask=mask, include_self=include_self).copy(
        scaled=scaled, slope=slope, head=head)
    record = contract.compute(s, tokens)
    x = np.asarray(cards, dtype=float)
    outputs = []
    for h, rec in enumerate(record.head_records):
        w_q, w_k, w_v = (np.asarray(m) for m in heads.designed(h))
        ref = attention_matrix(x @ w_q, x @ w_k, x @ w_v, mask, include_self, scaled, 1.0, slope)
        np.testing.assert_allclose(rec.weights, ref["weights"], rtol=0, atol=1e-12)
        outputs.append(np.nan_to_num(ref["output"], nan=0.0))
    assert record is record.head_records[head]
    joined = np.hstack(outputs)
    w_o = np.vstack([np.eye(4)] * len(heads.HEADS)) / len(heads.HEADS)
    np.testing.assert_allclose(heads.w_o(), w_o, rtol=0, atol=0)
    np.testing.assert_allclose(record.concat, joined, rtol=0, atol=1e-12)
    np.testing.assert_allclose(record.multihead_output, joined @ w_o, rtol=0, atol=1e-12)
    assert np.asarray(record.concat).shape == (len(cards), 4 * len(heads.HEADS))
    assert np.asarray(record.multihead_output).shape == (len(cards), 4)


@pytest.mark.parametrize("lang", i18n.LANGS)
def test_three_heads_disagree_about_the_verb_of_every_example(lexicons, lang):
    """On every example sentence the selected verb's favourite word differs in at least three heads."""
    for sentence, focus in i18n.PRESETS[lang]:
        _, tokens, record = computed(sentence, lexicons, lang)
        favourites = {int(np.argmax(r.weights[focus])) for r in record.head_records}
        assert len(favourites) >= 3, (sentence, [tokens[j].text for j in favourites])


def test_every_head_has_a_name_and_a_line_in_both_languages():
    """Each head is named and described in Italian and English (different texts)."""
    for h in heads.HEADS:
        for key in ("head_name_", "head_about_"):
            it, en = i18n.text("it", key + h.id), i18n.text("en", key + h.id)
            assert it and en and it != en


def test_an_edited_w_q_changes_only_the_active_head(lexicons):
    """A W_Q typed in for the active head moves its weights; the other heads keep theirs."""
    sentence = i18n.PRESETS["it"][0][0]
    _, _, plain = computed(sentence, lexicons)
    tuned = [list(r) for r in heads.HEADS[0].w_q]
    tuned[1] = [0.0, 0.0, 3.0, 0.0]  # a verb now looks for things
    _, tokens, edited = computed(sentence, lexicons, w_q=tuple(map(tuple, tuned)))
    dormiva = 5
    assert tokens[int(np.argmax(edited.weights[dormiva]))].text == "tappeto"
    assert tokens[int(np.argmax(plain.weights[dormiva]))].text == "gatto"
    for h in range(1, len(heads.HEADS)):
        assert edited.head_records[h].weights == plain.head_records[h].weights


def test_the_distance_bias_lets_the_article_find_its_own_noun(lexicons):
    """«Il» splits between gatto (32%) and tappeto (30%) without the bias; with m = 0.5, gatto wins clearly."""
    sentence = i18n.PRESETS["it"][0][0]
    _, _, off = computed(sentence, lexicons)
    _, _, on = computed(sentence, lexicons, slope=0.5)
    assert round(off.weights[0][1], 2) == 0.32 and round(off.weights[0][4], 2) == 0.30
    assert on.weights[0][1] > 0.55 and on.weights[0][4] < 0.15
    # by hand: logit(Il → gatto) = q·k / 2 − 0.5·|0 − 1|, with q = [2, 0, 2, 0]
    q_dot_k = 2 * 0.95 + 2 * 0.1
    assert abs(on.logits[0][1] - (q_dot_k / 2 - 0.5)) < 1e-12


@settings(max_examples=80, deadline=None)
@given(cards=st.lists(st.lists(unit, min_size=4, max_size=4), min_size=2, max_size=8),
       data=st.data(), include_self=st.booleans())
def test_swapping_two_words_permutes_the_weights_without_mask_or_bias(cards, data, include_self):
    """With the mask and the bias off, swapping words a and b swaps their rows and columns exactly."""
    n = len(cards)
    a = data.draw(st.integers(0, n - 1))
    b = data.draw(st.integers(0, n - 1))
    perm = list(range(n))
    perm[a], perm[b] = perm[b], perm[a]
    swapped = [cards[p] for p in perm]
    s = schema.Settings("x", None, include_self=include_self)
    one = contract.compute(s, Cards(cards).tokens)
    two = contract.compute(s, Cards(swapped).tokens)
    w1, w2 = np.asarray(one.weights), np.asarray(two.weights)
    np.testing.assert_allclose(w2, w1[np.ix_(perm, perm)], rtol=0, atol=1e-15)


def test_with_the_mask_swapping_two_words_does_not_just_move_the_weights(lexicons):
    """«il gatto insegue il topo» / «il topo insegue il gatto»: with the causal mask the verb's
    row is not the swapped row (the mask knows positions); without, it is."""
    cat = [0.95, 0.05, 0.1, 0.0]
    mouse = [0.9, 0.0, 0.2, 0.0]
    art, verb = [0, 0, 0, 1.0], [0, 1.0, 0, 0]
    one = [art, cat, verb, art, mouse]
    two = [art, mouse, verb, art, cat]
    perm = [0, 4, 2, 3, 1]
    for mask in (False, True):
        s = schema.Settings("x", None, mask=mask)
        w1 = np.asarray(contract.compute(s, Cards(one).tokens).weights)
        w2 = np.asarray(contract.compute(s, Cards(two).tokens).weights)
        moved = np.allclose(w2, w1[np.ix_(perm, perm)], atol=1e-12)
        assert moved is (not mask)


def test_state_json_carries_heads_w_o_and_position_bias(lexicons):
    """The state lists every head with its name, W_O (16×4), the slope and the multi-head matrices."""
    s, tokens, record = computed(i18n.PRESETS["en"][0][0], lexicons, "en", head=2, slope=0.25)
    state = contract.build_state(s, tokens, record)
    assert state["head"] == 2 and state["position_bias"] == 0.25
    assert [h["name"] for h in state["heads"]] == [i18n.text("en", "head_name_" + h.id) for h in heads.HEADS]
    assert state["w_q"] == heads.designed(2)[0]
    assert np.asarray(state["w_o"]).shape == (16, 4)
    assert np.asarray(state["matrix"]["concat"]).shape == (len(tokens), 16)
    assert np.asarray(state["matrix"]["multihead_output"]).shape == (len(tokens), 4)


def test_order_verdict_says_moved_or_why_not(lexicons):
    """Swapping gatto and tappeto: 'moved' with mask and bias off, 'mask' with the mask, 'bias' with pos."""
    from app import order
    sentence = i18n.PRESETS["it"][0][0]
    words = sentence.split()
    for options, key in (({}, "order_moved"), ({"mask": True}, "order_mask"), ({"slope": 0.5}, "order_bias")):
        s, tokens, before = computed(sentence, lexicons, **options)
        cards = tuple(tuple(c) for c in order.swapped([t.card for t in tokens], 1, 4))
        swapped = " ".join(order.swapped(words, 1, 4))
        s2 = s.copy(sentence=swapped, cards=cards)
        tokens2, _ = schema.check_sentence(swapped, lexicons["it"])
        after = contract.compute(s2, tokens2)
        assert order.verdict(before, after, 1, 4) == key


@settings(max_examples=60, deadline=None)
@given(cards=cards_strategy, mask=st.booleans(), head=st.integers(0, len(heads.HEADS) - 1))
def test_the_second_layer_attends_over_the_first_layers_outputs(cards, mask, head):
    """Layer 2 = the active head applied to layer 1's multi-head output (own card where no head looked), as numpy says."""
    s = schema.Settings("x", None, mask=mask).copy(head=head)
    record = contract.compute(s, Cards(cards).tokens)
    x = np.asarray(cards, dtype=float)
    outs = []
    for h in range(len(heads.HEADS)):
        w_q, w_k, w_v = (np.asarray(m) for m in heads.designed(h))
        outs.append(attention_matrix(x @ w_q, x @ w_k, x @ w_v, mask)["output"])
    stacked = np.stack(outs)  # [h, n, 4], NaN rows where a head had no candidate
    mixed = np.nan_to_num(stacked, nan=0.0).mean(axis=0)
    nobody = np.isnan(stacked).all(axis=(0, 2))
    layer2_in = np.where(nobody[:, None], x, mixed)
    w_q, w_k, w_v = (np.asarray(m) for m in heads.designed(head))
    ref = attention_matrix(layer2_in @ w_q, layer2_in @ w_k, layer2_in @ w_v, mask)
    np.testing.assert_allclose(record.layer2.queries, layer2_in @ w_q, rtol=0, atol=1e-12)
    np.testing.assert_allclose(record.layer2.weights, ref["weights"], rtol=0, atol=1e-12)
    assert np.asarray(record.layer2.weights).shape == (len(cards), len(cards))


def test_gatto_enters_layer_2_with_a_different_card_in_each_sentence(lexicons):
    """Same card in layer 1, different cards in layer 2: the context got in."""
    entering = []
    for sentence, i in (("Il gatto seduto sul tappeto dormiva", 1), ("Il cane rincorre il gatto", 4)):
        _, tokens, record = computed(sentence, lexicons)
        assert tokens[i].text == "gatto" and tokens[i].card == [0.95, 0.05, 0.1, 0.0]
        entering.append(contract.layer2_cards(record, [t.card for t in tokens])[i])
    assert max(abs(a - b) for a, b in zip(*entering)) > 0.1


def test_past_sixty_words_only_the_active_head_runs_and_the_page_says_so(lexicons):
    """A 200-word text computes the chosen head alone (a setting change stays fast); the views say why."""
    from app import render
    sentence = " ".join(["Il gatto seduto sul tappeto dormiva"] * 34)
    s = schema.Settings(sentence, 5, limit=500).copy(head=2)
    tokens, _ = schema.check_sentence(sentence, lexicons["it"], 500)
    record = contract.compute(s, tokens)
    assert [r is not None for r in record.head_records] == [False, False, True, False]
    assert record.layer2 is None and np.asarray(record.concat).shape == (len(tokens), 4)
    outputs = np.asarray([o if o is not None else [0.0] * 4 for o in record.outputs])  # (rows read when asked)
    np.testing.assert_allclose(np.asarray(record.multihead_output), outputs @ np.asarray(heads.w_o(1)), rtol=0, atol=1e-12)
    views = render.render_row_views(record.row(5), tokens, "it")
    assert views["heads"].count('<li class="head-card') == 1 and "Oltre 60 parole" in views["layer2"]
