"""A game's identity: a digest of its records, so that layout does not matter.

Two games are the same game when their records are equal (the parser's notion
of equality: tags, deals, comments; not positions, not the file they came
from, not how the text was laid out).  The digest is stable across runs and
machines, so a database can keep it and refuse a game it already holds.  A game
that could not be parsed has no records to compare: its text, with runs of
white space made one, stands in for them.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable
from dataclasses import fields, is_dataclass
from enum import Enum
from typing import Any

from ..cards import Card
from ..reading.records import Game, Play, Trick

_Writer = Callable[[Any, list[str]], None]
# Fields added to the records after games were first digested (a deal's clock time and
# count for Game, issue 38): left out while empty, so that every game written without
# them keeps its digest, and a database or event exported before still knows it.
_ADDED_LATER = frozenset({"count", "time"})
_WRITERS: dict[type, _Writer] = {}


def game_digest(game: Game, text: str = "") -> str:
    """Hex SHA-256 of the game's records; ``text`` (its source) is used only when
    the game is broken."""
    if game.broken:
        return "text:" + hashlib.sha256(" ".join(text.split()).encode("utf-8")).hexdigest()
    parts: list[str] = []
    _write(game, parts)
    return hashlib.sha256("\x1f".join(parts).encode("utf-8")).hexdigest()


def _write(value: Any, parts: list[str]) -> None:
    kind = type(value)
    writer = _WRITERS.get(kind)
    if writer is None:
        writer = _WRITERS[kind] = _writer_for(kind)
    writer(value, parts)


def _writer_for(kind: type) -> _Writer:
    """How a value of this type is written into the digest; found once per type."""
    if kind in (str, int, bool, type(None)):
        return lambda value, parts: parts.append(repr(value))
    if kind is Card:
        return lambda value, parts: parts.append(str(value))
    if kind is Trick:
        return _write_trick
    if issubclass(kind, Enum):
        name = kind.__name__
        return lambda value, parts: parts.append(f"{name}.{value.name}")
    if kind in (tuple, list):
        def sequence(value: Any, parts: list[str]) -> None:
            parts.append(f"({len(value)}")
            for item in value:
                _write(item, parts)
        return sequence
    if is_dataclass(kind):
        names = [field.name for field in fields(kind) if field.compare]
        label = kind.__name__

        def record(value: Any, parts: list[str]) -> None:
            parts.append(label)
            for name in names:
                found = getattr(value, name)
                if found is None and name in _ADDED_LATER:
                    continue  # absent: the digest a record without it always had
                _write(found, parts)
        return record
    raise TypeError(f"no identity for {kind.__name__}")


def _write_trick(trick: Trick, parts: list[str]) -> None:
    """Tricks and plays are nine tenths of a game's records: written in one step,
    with the generic walk only for the comments they may carry."""
    parts.append(f"Trick{trick.number}")
    if trick.leading or trick.trailing:
        _write(trick.leading, parts)
        _write(trick.trailing, parts)
    for play in trick.plays:
        parts.append(_play_text(play))
        if play.leading or play.trailing:
            _write(play.leading, parts)
            _write(play.trailing, parts)


def _play_text(play: Play) -> str:
    seat = play.seat.value if play.seat is not None else "-"
    glyph = play.glyph.value if play.glyph is not None else ""
    return f"{seat}{play.card}{glyph}"
