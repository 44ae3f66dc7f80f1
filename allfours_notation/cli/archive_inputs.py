"""Reading the files of an archive command, one at a time, with their headers.

``list``, ``find``, ``stats`` and ``export --sqlite/--csv`` all walk the same way:
expand folders, read each file (an unreadable one is one line on standard
error and exit status 2 at the end), decode it and scan its headers; a game is
parsed only when a command needs more than its headers.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass

from ..headers import GameHeader, parse_indexed, scan_headers
from ..records import Game
from ..source import decode
from .inputs import InputError, expanded_or_fail, fail, read_input


@dataclass(frozen=True, slots=True)
class Scanned:
    """One file: its name, bytes, decoded text and the header of every game."""

    name: str
    data: bytes
    text: str
    headers: list[GameHeader]

    def game(self, header: GameHeader) -> Game:
        return parse_indexed(self.text, header, filename=self.name)


@dataclass(slots=True)
class Walk:
    """The files named on the command line, read one after another."""

    names: tuple[str, ...]
    unreadable: bool = False

    def scans(self) -> Iterator[Scanned]:
        for name in self.names:
            try:
                source = read_input(name)
            except InputError as error:
                fail(str(error))
                self.unreadable = True
                continue
            text, _ = decode(source.data, source.name)
            yield Scanned(source.name, source.data, text, scan_headers(text))


def walk(names: Sequence[str]) -> Walk:
    """The files of ``names`` (folders expanded; an empty folder reported now)."""
    expanded, problems = expanded_or_fail(names)
    return Walk(expanded, unreadable=problems)
