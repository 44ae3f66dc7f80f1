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
from collections.abc import Callable
from dataclasses import fields, is_dataclass
from enum import Enum
from typing import Any, cast

from .cards import Card, Seat
from .diagnostics import Diagnostic
from .guard import guarded
from .parser import ParseResult
from .records import Abandoned, Call, Concede, Game, Hand, Redeal, TurnUp

FORMAT_NAME = "afn-records"
FORMAT_VERSION = 1

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
    """A whole file as a JSON-ready dict.

    A game the conversion fails on (a bug) is written as a broken game holding the
    internal-error diagnostic (AFN901), which is also added to the file's."""
    faults: list[Diagnostic] = []
    games = [_game_or_fault(game, faults) for game in result.games]
    return {
        "format": FORMAT_NAME,
        "format_version": FORMAT_VERSION,
        "file": result.file,
        "version": result.version,
        "games": games,
        "trailing": [to_json(comment) for comment in result.trailing],
        "diagnostics": [to_json(diagnostic) for diagnostic in (*result.diagnostics, *faults)],
    }


def _game_or_fault(game: Game, faults: list[Diagnostic]) -> dict[str, Any]:
    def stand_in(problem: Diagnostic) -> dict[str, Any]:
        faults.append(problem)
        return game_to_json(Game(index=game.index, source=game.source, ended=game.ended,
                                 diagnostics=(problem,), broken=True, span=game.span))

    where = game.span
    return guarded(lambda: game_to_json(game), stand_in, doing="writing this game as JSON",
                   file=game.source, line=where.line if where else None,
                   column=where.column if where else None, game=game.index)


def game_to_json(game: Game) -> dict[str, Any]:
    value = to_json(game)
    assert isinstance(value, dict)
    return value


def to_json(value: object) -> JSON:
    """Any record (or part of one) as plain JSON values."""
    kind = type(value)
    convert = _CONVERTERS.get(kind)
    if convert is None:
        convert = _CONVERTERS[kind] = _converter(kind)
    return convert(value)


_NODE_FIELDS = ("leading", "trailing", "span")
_CONVERTERS: dict[type, Callable[[Any], JSON]] = {}


def _converter(kind: type) -> Callable[[Any], JSON]:
    """How to write a value of this type; worked out once per type (export speed)."""
    if kind in (str, int, bool, type(None)):
        return _same
    if kind is Card:
        return str
    if issubclass(kind, Seat):
        return _seat_letter
    if issubclass(kind, Enum):
        return _enum_word
    if kind in (tuple, list):
        return _sequence
    if is_dataclass(kind):
        return _record_converter(kind)
    raise TypeError(f"cannot write {kind.__name__} as JSON")


def _same(value: Any) -> JSON:
    return cast(JSON, value)


def _seat_letter(value: Any) -> JSON:
    return cast(Seat, value).letter


def _enum_word(value: Any) -> JSON:
    member = cast(Enum, value)
    return member.value if isinstance(member.value, str) else member.name.lower()


def _sequence(value: Any) -> JSON:
    return [to_json(item) for item in value]


def _record_converter(kind: type) -> Callable[[Any], JSON]:
    """A record's own fields first, then its comments and span (easier to read);
    a union member's ``type`` before everything."""
    names = [field.name for field in fields(kind)]
    names = [n for n in names if n not in _NODE_FIELDS] + [n for n in names if n in _NODE_FIELDS]
    type_name = _TYPE_NAMES.get(kind)

    def convert(value: Any) -> JSON:
        out: dict[str, Any] = {"type": type_name} if type_name else {}
        for name in names:
            out[name] = to_json(getattr(value, name))
        return out

    return convert


def dumps(result: ParseResult, *, indent: int | None = 2) -> str:
    """The JSON text of a file's records (UTF-8 kept as is, keys in record order)."""
    return json.dumps(result_to_json(result), indent=indent, ensure_ascii=False) + "\n"


__all__ = ["FORMAT_NAME", "FORMAT_VERSION", "dumps", "game_to_json", "result_to_json", "to_json"]
