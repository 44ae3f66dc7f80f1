"""The headers-only scan: every game's tags without running the grammar.

This is what an index of a large file needs (the viewer's game list, a
tournament director's search by player): one regular-expression pass over
the text, no parse of the play.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from ..frozen import frozen
from .records import Game
from .slicer import GameSlice, slice_games
from .source import decode

if TYPE_CHECKING:
    from .parser import Finish


@frozen
class GameHeader:
    """One game's place in its file and its tags, as written (escapes resolved)."""

    index: int
    tags: tuple[tuple[str, str], ...]
    line: int
    column: int
    start: int
    end: int
    deals: int
    has_end: bool
    too_many_tags: bool = False  # more than limits.MAX_TAGS_PER_GAME: not all are kept

    def tag(self, name: str, default: str | None = None) -> str | None:
        for tag_name, value in self.tags:
            if tag_name == name:
                return value
        return default


def _unescape(raw: str) -> str:
    return raw.replace('\\"', '"').replace("\\\\", "\\") if "\\" in raw else raw


def scan_headers(text: str) -> list[GameHeader]:
    """Headers of every game in ``text``; offsets index ``text``."""
    escaped = "\\" in text  # one look at the whole text spares a look at every value
    return [
        GameHeader(
            index=number,
            tags=(tuple((name, _unescape(value)) for name, value in piece.tags) if escaped
                  else tuple(piece.tags)),
            line=piece.line,
            column=piece.column,
            start=piece.start,
            end=piece.end,
            deals=piece.deals,
            has_end=piece.has_end,
            too_many_tags=piece.too_many_tags,
        )
        for number, piece in enumerate(slice_games(text).games, start=1)
    ]


def scan_headers_file(path: str | Path) -> tuple[str, list[GameHeader]]:
    """Read ``path`` and scan it; returns the decoded text too, so callers can parse
    a game later from its offsets."""
    text, _ = decode(Path(path).read_bytes(), str(path))
    return text, scan_headers(text)


def parse_indexed(text: str, header: GameHeader, *, filename: str | None = None,
                  finish: Finish | None = None) -> Game:
    """Parse the one game ``header`` points at (from :func:`scan_headers` on ``text``),
    ``finish``-ed (by default as read; the public ``parse_indexed`` checks its structure).

    This is how a viewer opens game 4,000 of a large file without parsing the
    3,999 before it.
    """
    from .parser import as_read, parse_game_slice

    piece = GameSlice(
        start=header.start,
        end=header.end,
        line=header.line,
        column=header.column,
        tags=[],
        has_end=header.has_end,
        deals=header.deals,
        too_many_tags=header.too_many_tags,
    )
    return parse_game_slice(text, piece, index=header.index, filename=filename,
                            finish=finish or as_read)
