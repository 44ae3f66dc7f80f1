"""Reading and indexing a file for the viewer, in batches, so the first game shows at once.

The header scan of a 20 MB file takes a couple of seconds; the viewer needs only the first
game to draw its first deal.  :func:`index_in_batches` scans the text a slice at a time,
each slice beginning right after a game's ``end``, and yields the headers of the games
that finished inside the slice with their offsets, lines and columns made absolute.  The
last game of a slice is held back (its ``end`` may be cut in two) and rescanned with the
next slice.  Nothing here imports Textual.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass, replace
from pathlib import Path

from allfours_notation import GameHeader, scan_headers
from allfours_notation.reading.files import unreadable_reason
from allfours_notation.reading.source import decode

FIRST_BATCH = 64 * 1024
_CONTENT = re.compile(r"\S")
BATCH = 1024 * 1024


class NotAfnError(Exception):
    """A path the viewer cannot open: missing, a directory, unreadable, or not AFN text."""


@dataclass(frozen=True, slots=True)
class Batch:
    """Headers of games found so far in one slice, and how far through the text we are."""

    headers: tuple[GameHeader, ...]
    done: int
    total: int

    @property
    def fraction(self) -> float:
        return 1.0 if self.total == 0 else self.done / self.total


def check_path(path: str | Path) -> None:
    """Raise :class:`NotAfnError` with one clear sentence unless ``path`` looks like AFN."""
    reason = unreadable_reason(Path(path))
    if reason is not None:
        raise NotAfnError(reason)


def read_text(path: str | Path) -> str:
    """The file's text, decoded as the parser does (bad bytes become U+FFFD)."""
    text, _ = decode(Path(path).read_bytes(), str(path))
    return text


def index_in_batches(text: str, *, first: int = FIRST_BATCH, size: int = BATCH) -> Iterator[Batch]:
    """Yield the games of ``text`` slice by slice; the first slice is small."""
    start, line, column, number = 0, 1, 1, 0
    chunk = first
    total = len(text)
    while start < total:
        stop = min(total, start + chunk)
        found = scan_headers(text[start:stop])
        if stop < total:
            found = [h for h in found[:-1] if h.has_end]
            if not found:  # one game longer than the slice: widen it and try again
                chunk *= 2
                continue
        headers = []
        for header in found:
            number += 1
            headers.append(_shifted(header, number, start, line, column))
        last = found[-1].end if found else stop - start
        finished = _CONTENT.search(text, start + last) is None
        yield Batch(tuple(headers), total if finished else start + last, total)
        if finished:
            break
        line, column = _advance(text, start, start + last, line, column)
        start += last
        chunk = size
    if total == 0 or number == 0:
        yield Batch((), total, total)


def _shifted(header: GameHeader, number: int, base: int, line: int, column: int) -> GameHeader:
    return replace(
        header,
        index=number,
        start=header.start + base,
        end=header.end + base,
        line=header.line + line - 1,
        column=header.column + (column - 1 if header.line == 1 else 0),
    )


def _advance(text: str, start: int, stop: int, line: int, column: int) -> tuple[int, int]:
    """Line and column of offset ``stop`` given those of ``start``."""
    newlines = text.count("\n", start, stop)
    if newlines == 0:
        return line, column + stop - start
    return line + newlines, stop - text.rfind("\n", start, stop)
