"""Validate a loaded card file against the JSON Schema and turn failures into diagnostics."""

from __future__ import annotations

import difflib
import json
from functools import cache
from pathlib import Path
from typing import Any

import jsonschema
from kingdom.compiler.errors import Diagnostic
from kingdom.compiler.loader import Located

SCHEMA_FILE = Path(__file__).with_name("card.schema.json")


@cache
def card_schema() -> dict[str, Any]:
    return json.loads(SCHEMA_FILE.read_text(encoding="utf-8"))


@cache
def _validator() -> jsonschema.Draft202012Validator:
    return jsonschema.Draft202012Validator(card_schema())


SCENARIO_KEYS = {"setup", "steps", "expect"}  # (docs/scenario-format.md: no card has them)


def _looks_like_scenarios(data: Any) -> bool:
    """A scenario (a mapping with a name and setup, steps or expect) or a list of them."""
    items = data if isinstance(data, list) else [data]
    return bool(items) and all(isinstance(item, dict) and "name" in item
                               and SCENARIO_KEYS & set(item) and "dsl" not in item
                               for item in items)


def validate(doc: Located) -> list[Diagnostic]:
    """Every schema violation of the document, most specific first, one per place."""
    if _looks_like_scenarios(doc.data):
        return [Diagnostic("K511", "this looks like a scenario file, not a card file",
                           doc.file, *doc.where(()),
                           "every *.yaml in a card folder is read as a card, except in a "
                           "`scenarios/` subfolder: move it there (or out of the card folder) "
                           "and run it with `kingdom test`")]
    if not isinstance(doc.data, dict):
        return [Diagnostic("K101", "a card file must be a mapping of keys (name:, cost:, ...)",
                           doc.file, *doc.where(()))]
    out: list[Diagnostic] = []
    seen: set[tuple] = set()
    for error in sorted(_validator().iter_errors(doc.data), key=_in_file_order):
        best = jsonschema.exceptions.best_match([error])
        diag = _diagnose(best, doc)
        key = (diag.line, diag.column, diag.code)
        if key not in seen:
            seen.add(key)
            out.append(diag)
    return out


def _in_file_order(error: jsonschema.ValidationError) -> list[tuple[str, Any]]:
    """A sort key for an error's path whose keys may mix types (`1:` beside `foo:`)."""
    return [(type(p).__name__, p if isinstance(p, int) else str(p)) for p in error.absolute_path]


def _diagnose(error: jsonschema.ValidationError, doc: Located) -> Diagnostic:
    path = tuple(error.absolute_path)
    known = list(card_schema()["properties"])
    if error.validator == "additionalProperties" and not path:
        extra = sorted(set(error.instance) - set(error.schema.get("properties", {})), key=str)
        key = extra[0]
        line, col = doc.where((key,), key=True)
        match = difflib.get_close_matches(str(key), known, n=1, cutoff=0.6)
        hint = f"did you mean '{match[0]}'?" if match else f"known keys: {', '.join(known)}"
        return Diagnostic("K102", f"unknown key '{key}'", doc.file, line, col, hint)
    if error.validator == "required":
        line, col = doc.where(path)
        return Diagnostic("K103", f"missing required key: {error.message.split(' ')[0]}",
                          doc.file, line, col)
    line, col = doc.where(path)
    where = ".".join(str(p) for p in path) or "the card"
    if error.validator in ("type", "oneOf", "enum", "minimum", "minItems", "const"):
        expected = error.schema.get("description") or _expected(error)
        return Diagnostic("K104", f"{where}: {_short(error.instance)} is not valid here; "
                          f"expected {expected}", doc.file, line, col)
    return Diagnostic("K101", f"{where}: {error.message}", doc.file, line, col)


def _expected(error: jsonschema.ValidationError) -> str:
    schema = error.schema
    if "type" in schema:
        return str(schema["type"])
    if "enum" in schema:
        return "one of " + ", ".join(map(str, schema["enum"]))
    return error.message


def _short(value: Any) -> str:
    text = json.dumps(value) if not isinstance(value, str) else repr(value)
    return text if len(text) <= 40 else text[:37] + "..."
