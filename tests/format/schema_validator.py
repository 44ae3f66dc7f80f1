"""A small JSON Schema (draft 2020-12) validator for the keywords our schema uses.

No jsonschema package is installed and the project adds no dependency for a
test, so this checks the subset of the vocabulary that
``grammar/afn-records.schema.json`` uses, and refuses any other keyword, so the
schema cannot grow a rule this validator would silently ignore.
"""

from __future__ import annotations

import re
from typing import Any

_ANNOTATIONS = {"$schema", "$id", "title", "description"}
_ASSERTIONS = {
    "$ref",
    "$defs",
    "type",
    "properties",
    "required",
    "additionalProperties",
    "items",
    "minItems",
    "enum",
    "const",
    "pattern",
    "minimum",
    "oneOf",
}


class SchemaError(Exception):
    """The schema uses a keyword this validator does not know."""


def _same(a: Any, b: Any) -> bool:
    """JSON equality: true is not 1."""
    return type(a) is type(b) and a == b


def _is_type(value: Any, name: str) -> bool:
    checks = {
        "object": lambda v: isinstance(v, dict),
        "array": lambda v: isinstance(v, list),
        "string": lambda v: isinstance(v, str),
        "integer": lambda v: isinstance(v, int) and not isinstance(v, bool),
        "boolean": lambda v: isinstance(v, bool),
        "null": lambda v: v is None,
    }
    if name not in checks:
        raise SchemaError(f"unknown type {name!r}")
    return bool(checks[name](value))


def validate(instance: Any, schema: dict[str, Any]) -> list[str]:
    """Every way ``instance`` fails ``schema`` (empty when it conforms), as
    ``path: reason`` strings."""
    errors: list[str] = []
    _check(instance, schema, schema, "$", errors)
    return errors


def _check(
    value: Any, schema: dict[str, Any], root: dict[str, Any], path: str, errors: list[str]
) -> None:
    unknown = set(schema) - _ANNOTATIONS - _ASSERTIONS
    if unknown:
        raise SchemaError(f"unsupported keywords {sorted(unknown)} at {path}")
    if schema.get("additionalProperties", False) is not False:
        raise SchemaError(f"only additionalProperties: false is supported ({path})")
    if "$ref" in schema:
        ref = schema["$ref"]
        if not ref.startswith("#/$defs/"):
            raise SchemaError(f"unsupported $ref {ref!r}")
        _check(value, root["$defs"][ref.removeprefix("#/$defs/")], root, path, errors)
    if "type" in schema and not _is_type(value, schema["type"]):
        errors.append(f"{path}: expected {schema['type']}, got {value!r}")
        return
    if "const" in schema and not _same(value, schema["const"]):
        errors.append(f"{path}: expected {schema['const']!r}, got {value!r}")
    if "enum" in schema and not any(_same(value, option) for option in schema["enum"]):
        errors.append(f"{path}: {value!r} is not one of {schema['enum']!r}")
    if "pattern" in schema and isinstance(value, str) and not re.search(schema["pattern"], value):
        errors.append(f"{path}: {value!r} does not match {schema['pattern']}")
    if "minimum" in schema and _is_type(value, "integer") and value < schema["minimum"]:
        errors.append(f"{path}: {value} is below {schema['minimum']}")
    if "oneOf" in schema:
        matching = [option for option in schema["oneOf"] if not validate_sub(value, option, root)]
        if len(matching) != 1:
            errors.append(f"{path}: matches {len(matching)} of the oneOf choices, not exactly one")
    if isinstance(value, list):
        if "minItems" in schema and len(value) < schema["minItems"]:
            errors.append(f"{path}: fewer than {schema['minItems']} items")
        if "items" in schema:
            for number, item in enumerate(value):
                _check(item, schema["items"], root, f"{path}[{number}]", errors)
    if isinstance(value, dict):
        properties = schema.get("properties", {})
        for name in schema.get("required", []):
            if name not in value:
                errors.append(f"{path}: missing {name!r}")
        for name, item in value.items():
            if name in properties:
                _check(item, properties[name], root, f"{path}.{name}", errors)
            elif schema.get("additionalProperties") is False:
                errors.append(f"{path}: unexpected property {name!r}")


def validate_sub(value: Any, schema: dict[str, Any], root: dict[str, Any]) -> list[str]:
    errors: list[str] = []
    _check(value, schema, root, "$", errors)
    return errors
