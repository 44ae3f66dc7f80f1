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

from ..cards import Card, Seat
from ..diagnostics import Diagnostic
from ..guard import guarded
from ..reading.parser import ParseResult
from ..reading.records import (
    Abandoned,
    Call,
    Concede,
    Discard,
    Game,
    Hand,
    Pack,
    Redeal,
    Span,
    TurnUp,
)

FORMAT_NAME = "afn-records"
FORMAT_VERSION = 1

# The "type" written for each member of a union of records.
_TYPE_NAMES: dict[type, str] = {
    Hand: "hand",
    TurnUp: "turn",
    Call: "call",
    Discard: "discard",
    Pack: "pack",
    Redeal: "redeal",
    Abandoned: "abandoned",
    Concede: "concede",
}

JSON = dict[str, Any] | list[Any] | str | int | bool | None


def result_to_json(result: ParseResult, *, positions: bool = True) -> dict[str, Any]:
    """A whole file as a JSON-ready dict; ``positions=False`` leaves out every ``span``
    (most of the bytes: a span per card) for readers that want the records only."""
    data = _file_json(result)
    return data if positions else cast(dict[str, Any], _without_spans(data))


def _without_spans(value: JSON) -> JSON:
    if isinstance(value, dict):
        return {key: _without_spans(item) for key, item in value.items() if key != "span"}
    if isinstance(value, list):
        return [_without_spans(item) for item in value]
    return value


def _file_json(result: ParseResult) -> dict[str, Any]:
    linked = _linked(result)
    games = []
    faults: list[Diagnostic] = []  # games the conversion failed on (a bug): AFN901
    for game in result.games:
        before = len(faults)
        value = _game_or_fault(game, faults)
        shown = faults[before:] or game.diagnostics
        value["diagnostics"] = [to_json(linked.get(_key(d), d)) for d in shown]
        games.append(value if faults[before:] else _with_rules(value, game))
    return {
        "format": FORMAT_NAME,
        "format_version": FORMAT_VERSION,
        "file": result.file,
        "version": result.version,
        "games": games,
        "trailing": [to_json(comment) for comment in result.trailing],
        "diagnostics": [to_json(linked.get(_key(d), d))
                        for d in (*result.diagnostics, *faults)],
    }


def _game_or_fault(game: Game, faults: list[Diagnostic]) -> dict[str, Any]:
    """The game's JSON; when converting it fails (a bug), a broken game holding the
    internal-error diagnostic, which is added to ``faults``."""

    def stand_in(problem: Diagnostic) -> dict[str, Any]:
        faults.append(problem)
        return game_to_json(Game(index=game.index, source=game.source, ended=game.ended,
                                 diagnostics=(problem,), broken=True, span=game.span))

    where = game.span
    return guarded(lambda: game_to_json(game), stand_in, doing="writing this game as JSON",
                   file=game.source, line=where.line if where else None,
                   column=where.column if where else None, game=game.index)


def option_value(value: object) -> JSON:
    """A rule option as JSON: numbers as numbers, a choice as its word."""
    if isinstance(value, bool | int):
        return value
    return value.value if isinstance(value, Enum) else str(value)


def rules_json(game: Game) -> dict[str, Any] | None:
    """The rules a game is played under, as the record names them (``[Rules]`` and the
    option tags): the nearest profile's name and every option, typed.  ``None`` for a
    game that cannot be read."""
    if game.broken:
        return None
    from ..referee.disputes import rules_name
    from ..referee.profiles import resolve_options

    options, _ = resolve_options(game)
    return {"name": rules_name(options),
            "options": {f.name: option_value(getattr(options, f.name)) for f in fields(options)}}


def _with_rules(value: dict[str, Any], game: Game) -> dict[str, Any]:
    """The game's JSON with its resolved rules right after its tags."""
    out: dict[str, Any] = {}
    for key, item in value.items():
        out[key] = item
        if key == "tags":
            out["rules"] = rules_json(game)
    return out


def _key(diagnostic: Diagnostic) -> tuple[object, ...]:
    return (diagnostic.code, diagnostic.line, diagnostic.column, diagnostic.game,
            diagnostic.message)


def _linked(result: ParseResult) -> dict[tuple[object, ...], Diagnostic]:
    """Every diagnostic of the file numbered once and linked to its root, game by game
    (a game's list and the file's list then show the same ``id``)."""
    from ..checking import check
    from ..checking.causes import link_causes

    found: dict[tuple[object, ...], Diagnostic] = {}
    next_id = 1
    in_games: set[tuple[object, ...]] = set()
    for game in result.games:  # the one door without the rules: the records' findings
        for diagnostic in check(game, None, first_id=next_id).diagnostics:
            found[_key(diagnostic)] = diagnostic
        next_id += len(game.diagnostics)
        in_games.update(_key(d) for d in game.diagnostics)
    alone = [d for d in result.diagnostics if _key(d) not in in_games]
    for diagnostic in link_causes(alone, first_id=next_id):
        found[_key(diagnostic)] = diagnostic
    return found


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
    if kind is Span:
        return _span
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


def _span(value: Any) -> JSON:
    span = cast(Span, value)
    return {"line": span.line, "column": span.column, "end_line": span.end_line,
            "end_column": span.end_column, "start": span.start, "end": span.end}


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


def dumps(result: ParseResult, *, indent: int | None = 2, positions: bool = True) -> str:
    """The JSON text of a file's records (UTF-8 kept as is, keys in record order)."""
    data = result_to_json(result, positions=positions)
    return json.dumps(data, indent=indent, ensure_ascii=False) + "\n"


__all__ = ["FORMAT_NAME", "FORMAT_VERSION", "dumps", "game_to_json", "option_value",
           "result_to_json", "rules_json", "to_json"]
