"""Where each key of a TOML file stands: the positions ``tomllib`` does not give.

``tomllib`` reads a file into plain dictionaries and lists and forgets where each value
was written; a mistake in an event file must still be shown at its line and column.  This
scan reads the same text line by line and notes, for every ``key = value`` it sees, the
key's path (``("team", 1, "players")``: the second ``[[team]]``'s ``players``) with the
line and the columns of the key.  It follows table headers (``[event]``, ``[[team]]``,
``[[round.match]]``), dotted keys and multi-line arrays; it does not need to understand
values, because ``tomllib`` has already read them (the scan runs only on a file that
parsed).  A path it cannot place falls back to its nearest placed parent.
"""

from __future__ import annotations

import re
from collections.abc import Mapping

from ..frozen import frozen

Path = tuple[str | int, ...]

_BARE_KEY = r"[A-Za-z0-9_-]+"
_KEY = rf'(?:{_BARE_KEY}|"[^"\n]*"|\'[^\'\n]*\')'
_DOTTED = rf"{_KEY}(?:\s*\.\s*{_KEY})*"
_HEADER = re.compile(rf"^\s*(\[\[?)\s*({_DOTTED})\s*\]\]?")
_ASSIGN = re.compile(rf"^\s*({_DOTTED})\s*=")


@frozen
class Place:
    """Where a key was written: 1-based line and column, ``end_column`` exclusive."""

    line: int
    column: int
    end_column: int


def _parts(dotted: str) -> list[str]:
    return [part.strip().strip("\"'") for part in re.findall(_KEY, dotted)]


def key_places(text: str) -> dict[Path, Place]:
    """The place of every table header and key of ``text``, by its path."""
    places: dict[Path, Place] = {}
    counts: dict[Path, int] = {}  # how many [[array]] entries seen, per array path
    table: Path = ()
    depth = 0  # open brackets of a multi-line value
    for number, line in enumerate(text.split("\n"), start=1):
        if depth > 0:
            depth = max(0, depth + _bracket_balance(line))
            continue
        header = _HEADER.match(line)
        if header is not None and not _ASSIGN.match(line):
            table = _header_path(_parts(header.group(2)), header.group(1) == "[[", counts)
            column = line.index(header.group(1)) + 1
            places.setdefault(table, Place(number, column, len(line.rstrip()) + 1))
            continue
        assign = _ASSIGN.match(line)
        if assign is None:
            continue
        keys = _parts(assign.group(1))
        start = line.index(assign.group(1).strip()) + 1
        places[(*table, *keys)] = Place(number, start, start + len(assign.group(1).strip()))
        depth = max(0, _bracket_balance(line[assign.end():]))
    return places


def _header_path(keys: list[str], array: bool, counts: dict[Path, int]) -> Path:
    """The path of a table header: each array of tables along it at its latest entry."""
    path: Path = ()
    for position, key in enumerate(keys):
        path = (*path, key)
        last = position == len(keys) - 1
        if last and array:
            counts[path] = counts.get(path, -1) + 1
            for seen in [p for p in counts if len(p) > len(path) and p[:len(path)] == path]:
                del counts[seen]  # a new entry starts its own sub-arrays afresh
            path = (*path, counts[path])
        elif path in counts:
            path = (*path, counts[path])
    return path


def _bracket_balance(text: str) -> int:
    """Opening minus closing brackets outside strings and comments."""
    balance = 0
    quote: str | None = None
    for char in text:
        if quote is not None:
            if char == quote:
                quote = None
        elif char in "\"'":
            quote = char
        elif char == "#":
            break
        elif char in "[{":
            balance += 1
        elif char in "]}":
            balance -= 1
    return balance


def place_of(places: Mapping[Path, Place], path: Path) -> Place | None:
    """The place of ``path``, or of its nearest placed parent."""
    while path:
        found = places.get(path)
        if found is not None:
            return found
        path = path[:-1]
    return places.get(())


def value_place(text: str, key: Place, value: str) -> Place:
    """The place of the quoted ``value`` written at or after ``key`` (an element of an
    array, possibly on a later line); the key's own place when it is not found."""
    lines = text.split("\n")
    for offset, line in enumerate(lines[key.line - 1:key.line + 199]):
        for quoted in (f'"{value}"', f"'{value}'"):
            found = line.find(quoted, key.end_column if offset == 0 else 0)
            if found >= 0:
                return Place(key.line + offset, found + 1, found + 1 + len(quoted))
    return key
