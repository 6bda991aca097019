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
