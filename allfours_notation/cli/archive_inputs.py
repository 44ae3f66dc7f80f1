"""Reading the files of an archive command, one at a time, with their headers.

``list``, ``find``, ``stats`` and ``export --sqlite/--csv`` all walk the same way:
expand folders, read each file (an unreadable one is one line on standard
error and exit status 2 at the end), decode it and scan its headers; a game is
parsed only when a command needs more than its headers.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass

from ..checking.parsing import parse_indexed
from ..frozen import frozen
from ..reading.headers import GameHeader, scan_headers
from ..reading.records import Game
from ..reading.source import decode
from .inputs import InputError, expanded_or_fail, fail, read_afn


@frozen
class Scanned:
    """One file: its name, decoded text and the header of every game.

    ``raw`` keeps the file's bytes only when some are not UTF-8 (the text then
    holds U+FFFD in their place, and :func:`original_bytes` needs the bytes to
    give a game back as it was); otherwise the text encodes back to them.
    """

    name: str
    text: str
    headers: list[GameHeader]
    raw: bytes | None = None

    def game(self, header: GameHeader) -> Game:
        return parse_indexed(self.text, header, filename=self.name)

    def original_bytes(self, header: GameHeader) -> bytes:
        """The game's bytes as they stand in the file (a version line before it cut)."""
        from ..archive.select import game_bytes, raw_games

        if self.raw is None:
            return game_bytes(self.text, header.start, header.end)
        return raw_games(self.raw).game_bytes(header.index)


@dataclass(slots=True)
class Walk:
    """The files named on the command line, read one after another."""

    names: tuple[str, ...]
    unreadable: bool = False
    faulty: bool = False  # a file's work met an internal error (AFN901): exit 1 at least
    read: int = 0  # files read (a command whose every input was unreadable says no more)

    def scans(self) -> Iterator[Scanned]:
        for name in self.names:
            try:
                source = read_afn(name)
            except InputError as error:
                fail(str(error))
                self.unreadable = True
                continue
            self.read += 1
            text, problems = decode(source.data, source.name)
            raw = source.data if problems else None
            del source  # the text is all that is kept of a clean file
            yield Scanned(name if name != "-" else "<stdin>", text, scan_headers(text), raw)


    @contextmanager
    def each(self, scanned: Scanned, *, passing: tuple[type[BaseException], ...] = ()
             ) -> Iterator[None]:
        """One file's work: a fault in it (a bug some file reaches) is one AFN901 line
        for that file on standard error, and the walk goes on to the next file (issue 41:
        a folder command never stops at a broken file).  ``OSError`` and ``passing``
        (the output failing, not the input) are not faults of the file: they pass."""
        passes: tuple[type[BaseException], ...] = (OSError, *passing)
        try:
            yield
        except passes:
            raise
        except Exception as error:
            from ..guard import internal_error

            fault = internal_error(error, doing="reading this file", file=scanned.name)
            fail(f"{scanned.name}: {fault.code} {fault.message}")
            self.faulty = True


def walk(names: Sequence[str]) -> Walk:
    """The files of ``names`` (folders expanded; an empty folder reported now)."""
    expanded, problems = expanded_or_fail(names)
    return Walk(expanded, unreadable=problems)
