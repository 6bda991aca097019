"""The state JSON, contract version 2 (app/contract.py), validated against docs/state-v2.schema.json."""

import json

import numpy as np
import pytest

from app import attention, contract, settings as schema
from tests.contract_check import assert_valid_state
from tests.reference import attention_matrix


def state_for(query, lexicons):
    s, _ = schema.parse_params(query, lexicons)
    tokens, _ = schema.check_sentence(s.sentence, lexicons[s.lang], s.limit)
    return contract.build_state(s, tokens, contract.compute(s, tokens))


def test_default_state_keeps_version_1_numbers(lexicons):
    """With the defaults, dots, logits and weights are version 1's (same W_Q, ÷2); only percent changes."""
    st = state_for("", lexicons)
    assert_valid_state(st)
    assert st["version"] == 2 and st["mode"] == "sentence" and st["focus"] == 5
    assert st["features"] == ["alive", "action", "thing", "function"]
    assert st["d_k"] == 4 and st["scale"] == 2.0 and st["scaled"] is True and st["temperature"] == 1.0
    assert st["w_q"] == [list(r) for r in attention.W_Q]
    assert st["w_k"] == st["w_v"] == np.eye(4).tolist()
    assert st["tokens"][1] == {"text": "gatto", "card": [0.95, 0.05, 0.1, 0.0], "known": True}
    assert st["rows"][1]["dot"] == 3.05 and st["rows"][1]["logit"] == 1.525
    assert st["rows"][1]["weight"] == 0.42399760933593045  # full precision, as in version 1
    assert [r["percent"] for r in st["rows"]] == ["9,2%", "42,4%", "13,1%", "10,2%", "25,1%", None]
    assert st["rows"][5]["candidate"] is False and st["rows"][5]["weight"] == 0.0


@pytest.mark.parametrize("query", [
    "", "lang=en", "focus=0&mask=1", "mask=1&self=1", "scaled=0&temp=0.125", "temp=20",
    "s=Ciao", "s=Ciao&focus=0&self=1", "view=heatmap&temp=0.05", "s=%3Cscript%3E+x&focus=1",
])
def test_every_state_validates_and_its_matrix_equals_numpy(query, lexicons):
    """Each state validates against the schema; matrix dots/logits/weights/output equal numpy."""
    st = state_for(query, lexicons)
    assert_valid_state(st)
    m = st["matrix"]
    x = np.asarray([t["card"] for t in st["tokens"]])
    ref = attention_matrix(x @ np.asarray(st["w_q"]), x @ np.asarray(st["w_k"]), x @ np.asarray(st["w_v"]),
                           st["mask"], st["include_self"], st["scaled"], st["temperature"])
    assert st["scale"] == pytest.approx(ref["divisor"], abs=1e-15)
    for i, row in enumerate(m["weights"]):
        np.testing.assert_allclose(row, ref["weights"][i], rtol=0, atol=1e-12)
        for j, logit in enumerate(m["logits"][i]):
            masked = st["mask"] and j > i
            assert (logit is None) == masked  # null exactly where masked
            if logit is not None:
                assert logit == pytest.approx(ref["logits"][i][j], abs=1e-12)
        if ref["allowed"][i].any():
            np.testing.assert_allclose(m["output"][i], ref["output"][i], rtol=0, atol=1e-12)
        else:
            assert m["output"][i] is None
    if st["focus"] is not None:
        assert [r["weight"] for r in st["rows"]] == m["weights"][st["focus"]]


def test_no_selection_gives_placeholder_rows(lexicons):
    """With no word selected: focus and query null, rows candidate false, weight 0, percent null."""
    st = state_for("s=Il+cane+abbaia", lexicons)
    assert_valid_state(st)
    assert st["focus"] is None and st["query"] is None
    assert all(r["candidate"] is False and r["weight"] == 0.0 and r["percent"] is None for r in st["rows"])


def test_matrix_is_null_past_4096_cells(lexicons):
    """65 words (4,225 cells): matrix null, the rest of the state still there and valid."""
    words = "+".join(["gatto"] * 65)
    st = state_for(f"limit=100&s={words}&focus=3", lexicons)
    assert_valid_state(st)
    assert st["matrix"] is None and len(st["rows"]) == 65
    assert len(contract.state_json(st)) < 20000


def test_state_json_cannot_close_its_script_element():
    """'</script>' in a sentence is written as \\u003c/script> inside the JSON."""
    text = contract.state_json({"sentence": "</script><b>"})
    assert "<" not in text and json.loads(text)["sentence"] == "</script><b>"


def test_schema_copy_is_the_one_the_repository_uses():
    """The schema file lives in docs/ of this repository (a clone has nothing outside it)."""
    from tests.contract_check import SCHEMA_PATH
    data = json.loads(SCHEMA_PATH.read_text(encoding="utf-8"))
    assert data["properties"]["version"] == {"const": 2}
    assert "matrix" in data["required"] and "temperature" in data["required"]


@pytest.mark.parametrize("query", ["", "?lang=en&mask=1&self=1", "?mode=matrix&seed=7", "?quiz=1&pos=0.5"])
def test_a_word_click_publishes_the_state_built_from_scratch(query, lexicons):
    """Word after word (and after a new setting), the state a click publishes is, to the
    character, the JSON of the whole state built anew: nothing stale from the row before."""
    s, _ = schema.parse_params(query, lexicons)
    tokens, _ = schema.check_sentence(s.sentence, lexicons[s.lang], s.limit)
    for settings in (s, s.copy(temperature=0.5)):
        record = contract.compute(settings, tokens)
        shown = contract.shown_tokens(settings, tokens, record)
        for focus in [3, 0, None, record.n_q - 1, 1]:
            chosen = settings.copy(focus=focus)
            text = contract.state_json_of(chosen, shown, record)
            assert text == contract.state_json(contract.build_state(chosen, shown, record))
            assert json.loads(text)["focus"] == focus
