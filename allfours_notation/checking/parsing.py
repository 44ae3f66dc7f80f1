"""The public ``parse``: a text read, then each game's structure checked.

The reading floor gives what reading finds (syntax, AFN1xx); what no deal can
contain (AFN2xx) is the referee's to say (:mod:`..referee.structure`), and reading
may not import the referee.  ``allfours_notation.parse`` has always returned both,
so it is this: each reading entry point with the structure checks as its
``finish``.  Every tool that reads a game to show or check it reads it here (or
through the door, :mod:`.`, which runs the same two stages a run of games at a
time), so that they all see the same findings.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import IO, Any

from ..reading import headers, parser, stream
from ..reading.headers import GameHeader
from ..reading.parser import FileReader, ParseResult
from ..reading.records import Game
from ..reading.slicer import GameSlice
from ..referee.structure import check_read_game

__all__ = ["check_read_game", "games_of", "iter_games", "parse", "parse_file",
           "parse_game_body", "parse_game_slice", "parse_indexed"]


def parse(source: str | bytes, *, filename: str | None = None) -> ParseResult:
    """Parse a whole AFN text: its games and every diagnostic reading and the structure
    checks find.  Never raises on bad input: problems are diagnostics."""
    return parser.parse(source, filename=filename, finish=check_read_game)


def parse_file(path: str | Path) -> ParseResult:
    """Read and parse a file.  ``OSError`` is the caller's to report (exit 2 in the CLI)."""
    return parser.parse_file(path, finish=check_read_game)


def iter_games(source: str | Path | IO[Any], *, filename: str | None = None) -> Iterator[Game]:
    """Yield the games of a file one at a time, reading it in chunks (see
    :func:`..reading.stream.iter_games`), each with its structure findings."""
    return stream.iter_games(source, filename=filename, finish=check_read_game)


def parse_indexed(text: str, header: GameHeader, *, filename: str | None = None) -> Game:
    """Parse the one game ``header`` points at (from ``scan_headers`` on ``text``), with
    its structure findings: how a viewer opens game 4,000 of a large file without
    parsing the 3,999 before it."""
    return headers.parse_indexed(text, header, filename=filename, finish=check_read_game)


def parse_game_slice(text: str, piece: GameSlice, *, index: int, filename: str | None) -> Game:
    """One game cut out of ``text`` by the slicer, read and its structure checked."""
    return parser.parse_game_slice(text, piece, index=index, filename=filename,
                                   finish=check_read_game)


def parse_game_body(body: str, origin: GameSlice, *, index: int, filename: str | None) -> Game:
    """One game's text (``origin``: where it stands in its file), read and its structure
    checked."""
    return parser.parse_game_body(body, origin, index=index, filename=filename,
                                  finish=check_read_game)


def games_of(reader: FileReader) -> Iterator[Game]:
    """The games of a file read with ``read_games``, one at a time, each with its
    structure findings."""
    return reader.games(check_read_game)
