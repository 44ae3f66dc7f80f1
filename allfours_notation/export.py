"""Records → JSON, documented by ``grammar/afn-records.schema.json``.

Every field of every record is written, under its Python name: cards as
``"JS"``, seats as ``"N"``, enums as their AFN word (``"stands"``, ``"revoke"``),
an unseen card (``??``) as ``null``, spans as line/column (and offsets).  Members
of a union (an opening event, an ending) carry a ``"type"``.  Comments are kept
where the records keep them; diagnostics are included, the file's (every one,
in file order) and each game's own.

The conversion walks the dataclass fields, so a field added to a record shows
up in the JSON by itself; the schema test then fails until the schema says
what it means.
"""

from __future__ import annotations

import json
from dataclasses import fields, is_dataclass
from enum import Enum
from typing import Any

from .cards import Card, Seat
from .diagnostics import Diagnostic
from .parser import ParseResult
from .records import Abandoned, Call, Concede, Game, Hand, Redeal, TurnUp

FORMAT_NAME = "afn-records"
FORMAT_VERSION = 1
SCHEMA_ID = "https://allfours-notation.invalid/afn-records.schema.json"

# The "type" written for each member of a union of records.
_TYPE_NAMES: dict[type, str] = {
    Hand: "hand",
    TurnUp: "turn",
    Call: "call",
    Redeal: "redeal",
    Abandoned: "abandoned",
    Concede: "concede",
}

JSON = dict[str, Any] | list[Any] | str | int | bool | None


def result_to_json(result: ParseResult) -> dict[str, Any]:
    """A whole file as a JSON-ready dict."""
    return {
        "format": FORMAT_NAME,
        "format_version": FORMAT_VERSION,
        "file": result.file,
        "version": result.version,
        "games": [game_to_json(game) for game in result.games],
        "trailing": [to_json(comment) for comment in result.trailing],
        "diagnostics": [to_json(diagnostic) for diagnostic in result.diagnostics],
    }


def game_to_json(game: Game) -> dict[str, Any]:
    value = to_json(game)
    assert isinstance(value, dict)
    return value


def to_json(value: object) -> JSON:
    """Any record (or part of one) as plain JSON values."""
    if value is None or isinstance(value, bool | int | str):
        return value
    if isinstance(value, Card):
        return str(value)
    if isinstance(value, Seat):
        return value.letter
    if isinstance(value, Enum):
        return value.value if isinstance(value.value, str) else value.name.lower()
    if isinstance(value, tuple | list):
        return [to_json(item) for item in value]
    if isinstance(value, Diagnostic):
        return _fields_to_json(value)
    if is_dataclass(value) and not isinstance(value, type):
        out = _fields_to_json(value)
        type_name = _TYPE_NAMES.get(type(value))
        return {"type": type_name, **out} if type_name else out
    raise TypeError(f"cannot write {type(value).__name__} as JSON")


_NODE_FIELDS = ("leading", "trailing", "span")


def _fields_to_json(value: Any) -> dict[str, Any]:
    """A record's own fields first, then its comments and span (easier to read)."""
    names = [field.name for field in fields(value)]
    names = [n for n in names if n not in _NODE_FIELDS] + [n for n in names if n in _NODE_FIELDS]
    return {name: to_json(getattr(value, name)) for name in names}


def dumps(result: ParseResult, *, indent: int | None = 2) -> str:
    """The JSON text of a file's records (UTF-8 kept as is, keys in record order)."""
    return json.dumps(result_to_json(result), indent=indent, ensure_ascii=False) + "\n"


__all__ = ["FORMAT_NAME", "FORMAT_VERSION", "dumps", "game_to_json", "result_to_json", "to_json"]
