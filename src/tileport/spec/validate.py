"""Validate spec.json files against the JSON Schema shipped in the package."""
from __future__ import annotations

import json
from functools import cache
from pathlib import Path

from ..errors import TileportError

SCHEMA_FILE = Path(__file__).with_name("spec.schema.json")


class SpecInvalid(TileportError):
    pass


@cache
def schema() -> dict:
    return json.loads(SCHEMA_FILE.read_text())


def validate(spec: dict) -> None:
    import jsonschema

    errors = sorted(jsonschema.Draft202012Validator(schema()).iter_errors(spec), key=lambda e: list(e.path))
    if errors:
        lines = [f"  at /{'/'.join(str(p) for p in e.path)}: {e.message}" for e in errors[:10]]
        raise SpecInvalid("spec does not match spec.schema.json:\n" + "\n".join(lines))
