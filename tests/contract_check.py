"""Validation of state objects against the repository's copy of the contract's JSON Schema."""

import json
from pathlib import Path

import jsonschema

SCHEMA_PATH = Path(__file__).resolve().parent.parent / "docs" / "state-v2.schema.json"
_validator = jsonschema.Draft202012Validator(json.loads(SCHEMA_PATH.read_text(encoding="utf-8")))


def assert_valid_state(state):
    """Raise with every violation listed when `state` does not follow contract version 2."""
    errors = sorted(_validator.iter_errors(state), key=lambda e: list(e.path))
    assert not errors, "\n".join(f"{list(e.path)}: {e.message[:200]}" for e in errors)


def state_for_link(query, lexicons):
    """The state a page at the link `query` publishes (no note allowed: the link is meant right)."""
    from app import contract, settings as schema
    settings, notes = schema.parse_params(query, lexicons)
    assert notes == []
    tokens = [] if settings.mode == "matrix" else \
        schema.check_sentence(settings.sentence, lexicons[settings.lang], settings.limit)[0]
    record = contract.compute(settings, tokens)
    return contract.build_state(settings, contract.shown_tokens(settings, tokens, record), record)

