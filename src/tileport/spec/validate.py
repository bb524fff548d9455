"""Validate tileport's JSON documents against the JSON Schemas shipped in the package.

``spec.schema.json`` (what ``analyze`` writes), ``capture.schema.json`` (``capture`` writes, ``--capture`` reads),
``sigs.schema.json`` (``--sigs`` reads) and ``port.schema.json`` (``translate`` writes, ``verify`` reads). Each
schema that pins ``"format": {"const": N}`` names the layout version it describes: a document of another version is
refused with a message that says so, before any other check.
"""
from __future__ import annotations

import json
from functools import cache
from pathlib import Path
from typing import Any

from ..errors import TileportError

SCHEMA_DIR = Path(__file__).parent
SCHEMA_FILE = SCHEMA_DIR / "spec.schema.json"


class SpecInvalid(TileportError):
    pass


@cache
def schema(name: str = "spec") -> dict:
    """The schema ``NAME.schema.json`` of this package."""
    return json.loads((SCHEMA_DIR / f"{name}.schema.json").read_text())


def format_version(name: str) -> int | None:
    """The format version the schema pins (``properties.format.const``), or None when it pins none."""
    fmt = schema(name).get("properties", {}).get("format", {})
    return fmt.get("const") if isinstance(fmt, dict) else None


def _errors(data: Any, name: str) -> list:
    import jsonschema

    return sorted(jsonschema.Draft202012Validator(schema(name)).iter_errors(data), key=lambda e: list(e.path))


def _where(error) -> str:
    return "/" + "/".join(str(p) for p in error.path)


def validate(spec: dict) -> None:
    """Check a spec.json document; every mismatch (up to 10) is listed."""
    errors = _errors(spec, "spec")
    if errors:
        lines = [f"  at {_where(e)}: {e.message}" for e in errors[:10]]
        raise SpecInvalid("spec does not match spec.schema.json:\n" + "\n".join(lines))


def check_document(data: Any, name: str, where: str) -> None:
    """Check a document a user handed in against ``NAME.schema.json``; fail with one line naming ``where`` (the
    file, and the option that named it), the format version when it is not this tileport's, else the most relevant
    mismatch."""
    import jsonschema.exceptions

    want = format_version(name)
    if want is not None and isinstance(data, dict) and "format" in data and data["format"] != want:
        raise SpecInvalid(f"{where}: format version {data['format']!r} is not one this tileport reads (format "
                          f"{want}); it was written by another tileport version — write it again with this one")
    errors = _errors(data, name)
    if not errors:
        return
    best = jsonschema.exceptions.best_match(errors)
    message = " ".join(best.message.split())
    if best.validator in ("oneOf", "anyOf") and "x-expected" in best.schema:  # "not valid under any of ..."
        message = f"expected {best.schema['x-expected']}"
    if len(message) > 160:
        message = message[:157] + "..."
    more = f" (and {len(errors) - 1} more)" if len(errors) > 1 else ""
    raise SpecInvalid(f"{where}: not a valid {schema(name).get('title', name)}: at {_where(best)}: {message}{more}")
