"""Streaming: games from a file read in chunks, one at a time.

Only the text of games not yet yielded is held, so memory stays flat however
large the file.  The buffer is cut at its last newline before slicing, because
no token the slicer needs (``end``, ``deal``, ``[``) spans a line; a brace
comment that does is simply left open until the next chunk arrives.
"""

from __future__ import annotations

import codecs
from collections.abc import Iterator
from io import TextIOBase
from pathlib import Path
from typing import IO, Any

from .parser import Finish, as_read, parse_game_body
from .records import Game
from .slicer import slice_games
from .source import BOM

CHUNK_SIZE = 1 << 20


def iter_games(source: str | Path | IO[Any], *, filename: str | None = None,
               finish: Finish = as_read) -> Iterator[Game]:
    """Yield the games of a file one at a time, reading it in chunks, each
    ``finish``-ed (by default as read; the public ``iter_games`` checks its structure).

    ``source`` is a path, or an open text or binary file.  Memory stays flat in the
    file size: only the games not yet yielded are held.
    """
    yield from stream_games(source, filename=filename, finish=finish)


def stream_games(
    source: str | Path | IO[Any], *, filename: str | None = None, chunk_size: int = CHUNK_SIZE,
    finish: Finish = as_read,
) -> Iterator[Game]:
    """Yield each game of ``source`` (a path or an open file) as soon as it is complete."""

    if isinstance(source, (str, Path)):
        with open(source, "rb") as handle:
            yield from stream_games(handle, filename=filename or str(source),
                                    chunk_size=chunk_size, finish=finish)
        return
    chunks = _text_chunks(source, chunk_size)
    buffer = ""
    line, column, offset = 1, 1, 0
    index = 0
    first = True
    for chunk, eof in chunks:
        if first:
            chunk = chunk.removeprefix(BOM)
            first = False
        buffer += chunk
        limit = len(buffer) if eof else buffer.rfind("\n") + 1
        if limit <= 0:
            continue
        sliced = slice_games(buffer[:limit])
        pieces = sliced.games
        if not eof and pieces and not pieces[-1].has_end:
            pieces = pieces[:-1]
        consumed = 0
        for piece in pieces:
            index += 1
            body = buffer[piece.start : piece.end]
            origin = piece.moved(line, column, offset)
            yield parse_game_body(body, origin, index=index, filename=filename, finish=finish)
            consumed = piece.end
        if consumed:
            eaten = buffer[:consumed]
            newlines = eaten.count("\n")
            if newlines:
                line += newlines
                column = consumed - eaten.rfind("\n")
            else:
                column += consumed
            offset += consumed
            buffer = buffer[consumed:]


def _text_chunks(handle: IO[Any], chunk_size: int) -> Iterator[tuple[str, bool]]:
    """Decoded chunks, each with a flag telling whether it is the last."""
    if isinstance(handle, TextIOBase):
        while True:
            text = handle.read(chunk_size)
            if not text:
                yield "", True
                return
            yield text, False
    decoder = codecs.getincrementaldecoder("utf-8")(errors="replace")
    while True:
        data = handle.read(chunk_size)
        if not data:
            yield decoder.decode(b"", final=True), True
            return
        yield decoder.decode(data), False
