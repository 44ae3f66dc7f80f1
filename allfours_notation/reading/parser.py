"""AFN text → :class:`~allfours_notation.reading.records.Game` records, with diagnostics:
the entry points of reading (``parse``, ``parse_file``, ``read_games``, ``FileReader``).

The file is decoded (:mod:`.source`) and cut into games by :mod:`.slicer` (no grammar
involved), then each game is read on its own (:class:`.assembler._GameAssembler`,
through Lark: :mod:`.lark_parser`), so a syntax error costs one game, never the file.
These give what reading finds (syntax, AFN1xx); what cannot be in a deal (a card twice,
a hand of seven …: AFN2xx) is the referee's to say (:mod:`..referee.structure`), and the
public ``parse`` (:mod:`..checking.parsing`) passes each game read through it
(``finish``).  Nothing here raises on user input.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import field
from typing import TYPE_CHECKING, Any

from ..collector import cyclic_gc_paused
from ..diagnostics import Diagnostic, Severity
from ..frozen import frozen
from ..guard import internal_error
from ..limits import MAX_NUMBER_DIGITS
from .assembler import ReadGame, _GameAssembler
from .records import (
    Comment,
    CommentStyle,
    Game,
    Span,
)
from .slicer import GameSlice, SliceResult, slice_games
from .source import control_characters, decode, strip_bom

if TYPE_CHECKING:
    from pathlib import Path

SUPPORTED_VERSION = 1

# What becomes of a game read (see :func:`read_game_body`): by default it is given as
# read (:func:`as_read`); the public ``parse`` adds its structure findings.
Finish = Callable[[ReadGame], Game]


def as_read(read: ReadGame) -> Game:
    """The game as reading found it: its syntax findings, no structure checked."""
    return read[0]


# --- results ----------------------------------------------------------------------------------


@frozen
class ParseResult:
    """Everything read from one file: its games, and every diagnostic (file-level
    ones and each game's, in file order)."""

    games: tuple[Game, ...]
    diagnostics: tuple[Diagnostic, ...]
    version: int | None = None
    trailing: tuple[Comment, ...] = ()
    file: str | None = None
    text: str = field(default="", repr=False, compare=False)

    @property
    def ok(self) -> bool:
        return not any(d.is_error for d in self.diagnostics)


# --- the public entry points --------------------------------------------------------------------


@frozen
class FileReader:
    """A file decoded and cut into games, each parsed only when asked for.

    :func:`parse` keeps every game; ``allfours check`` takes them one at a time
    from :meth:`games`, so that it holds the text but never more than one game's
    records, whatever the size of the file.
    """

    text: str
    file: str | None
    version: int | None
    # What is known before any game is parsed: bytes that are not UTF-8, the version line.
    diagnostics: tuple[Diagnostic, ...]
    slices: Sequence[GameSlice]  # compact: see slicer.Slices
    trailing: tuple[Comment, ...]

    def games(self, finish: Finish = as_read) -> Iterator[Game]:
        """Each game read, and ``finish``-ed (by default: as read)."""
        text, file = self.text, self.file
        for index, piece in enumerate(self.slices, start=1):
            yield finish(read_game_body(text[piece.start : piece.end], piece, index=index,
                                        filename=file))

    def closing_diagnostics(self) -> tuple[Diagnostic, ...]:
        """What is known after the last game: that there was none."""
        if self.slices:
            return ()
        return (Diagnostic("AFN107", Severity.WARNING, "no games found", file=self.file, line=1,
                           column=1),)


def read_games(source: str | bytes, *, filename: str | None = None) -> FileReader:
    """Decode ``source`` and cut it into games, parsing none of them yet."""
    if isinstance(source, bytes):
        text, diagnostics = decode(source, filename)
    else:
        text, diagnostics = strip_bom(source), []
    return read_sliced(text, slice_games(text), diagnostics, filename=filename)


def read_sliced(text: str, sliced: SliceResult, diagnostics: Iterable[Diagnostic] = (), *,
                filename: str | None = None,
                controls: Sequence[Diagnostic] | None = None) -> FileReader:
    """:func:`read_games` for decoded text its caller has already cut into games
    (the language server re-cuts only the part of a buffer that changed, and knows
    when an edit cannot have brought a control character: ``controls``, the
    :func:`control_characters` of ``text`` where the caller knows them)."""
    found = list(diagnostics)
    found.extend(control_characters(text, filename) if controls is None else controls)
    version, version_diags = _check_version(text, sliced.directives, filename)
    found.extend(version_diags)
    trailing: tuple[Comment, ...] = ()
    if sliced.trailing_start is not None:
        trailing = _loose_comments(text, sliced.trailing_start)
    return FileReader(text, filename, version, tuple(found), sliced.games, trailing)


def parse(source: str | bytes, *, filename: str | None = None,
          finish: Finish = as_read) -> ParseResult:
    """Read a whole AFN text: what reading finds (each game ``finish``-ed: by default
    as read; the public ``parse`` checks its structure too).  Never raises on bad
    input: problems are diagnostics."""
    reader = read_games(source, filename=filename)
    with cyclic_gc_paused():
        games = tuple(reader.games(finish))
    diagnostics = [*reader.diagnostics]
    for game in games:
        diagnostics.extend(game.diagnostics)
    diagnostics.extend(reader.closing_diagnostics())
    return ParseResult(
        games=games,
        diagnostics=tuple(diagnostics),
        version=reader.version,
        trailing=reader.trailing,
        file=filename,
        text=reader.text,
    )


def parse_game_slice(text: str, piece: GameSlice, *, index: int, filename: str | None,
                     finish: Finish = as_read) -> Game:
    """Parse one game cut out of ``text`` by the slicer (positions are ``text``'s)."""
    return finish(read_game_body(text[piece.start : piece.end], piece, index=index,
                                 filename=filename))


def parse_game_body(body: str, origin: GameSlice, *, index: int, filename: str | None,
                    finish: Finish = as_read) -> Game:
    """Parse one game's text; ``origin`` says where it stands in its file, so that
    positions are the file's even when ``body`` came from a streamed chunk.

    A fault in the parser itself gives a broken game holding one internal-error
    diagnostic (AFN901) at the game's start, and the next game is still read."""
    return finish(read_game_body(body, origin, index=index, filename=filename))


def read_game_body(body: str, origin: GameSlice, *, index: int,
                   filename: str | None) -> ReadGame:
    """One game's text read: the game with what reading found, and what its structure
    checks need (:func:`..referee.structure.check_read_game`).

    ``check`` reads a whole run of games and then checks their structure, rather than
    game by game: each half's code then stays hot in the processor's caches, which
    makes a file of thousands of small games a tenth cheaper (issue 16).  A fault in
    the parser itself gives a broken game holding one AFN901 (:func:`faulty_game`)."""

    # What guarded() does, written out: this runs once per game, and a file may hold
    # hundreds of thousands (a closure and a lambda per game cost more than "end" does).
    try:
        return _GameAssembler(body, origin, index=index, filename=filename).read()
    except Exception as error:  # one of the two places a fault in reading a game is caught
        return faulty_game(error, origin, index, filename), None, origin, []


def faulty_game(error: Exception, origin: GameSlice, index: int, filename: str | None) -> Game:
    """A broken game holding one internal-error diagnostic (AFN901) at its start."""
    problem = internal_error(error, doing="parsing this game", file=filename,
                             line=origin.line, column=origin.column, game=index)
    return Game(ended=origin.has_end, index=index, source=filename, diagnostics=(problem,),
                broken=True, span=Span(origin.line, origin.column, 0, 0, origin.start, origin.end))


def parse_file(path: str | Path, *, finish: Finish = as_read) -> ParseResult:
    """Read and parse a file.  ``OSError`` is the caller's to report (exit 2 in the CLI)."""
    from pathlib import Path  # not imported by the commands, which read through .files

    path = Path(path)
    return parse(path.read_bytes(), filename=str(path), finish=finish)


# --- version line -----------------------------------------------------------------------------

_VERSION_RE = re.compile(r"%\s*AFN\s+(\S+)\s*$")


def _check_version(
    text: str, directives: list[Any], filename: str | None
) -> tuple[int | None, list[Diagnostic]]:
    diags: list[Diagnostic] = []
    version: int | None = None
    first_content = _first_content_offset(text)
    for number, directive in enumerate(directives):
        match = _VERSION_RE.match(directive.text)
        is_first = number == 0 and directive.offset == first_content
        if match and is_first:
            raw = match.group(1)
            if raw.isdigit() and len(raw) <= MAX_NUMBER_DIGITS and int(raw) == SUPPORTED_VERSION:
                version = SUPPORTED_VERSION
            else:
                diags.append(
                    Diagnostic(
                        "AFN106",
                        Severity.ERROR,
                        f"this file declares AFN version {raw}; this tool reads AFN "
                        f"{SUPPORTED_VERSION}",
                        file=filename,
                        line=directive.line,
                        column=directive.column,
                        end_column=directive.column + len(directive.text),
                    )
                )
            continue
        message = (
            "the version line must be the first line of the file"
            if match
            else f"unknown directive {directive.text.strip()!r}; the only directive is '% AFN 1'"
        )
        diags.append(
            Diagnostic(
                "AFN110",
                Severity.WARNING,
                message,
                file=filename,
                line=directive.line,
                column=directive.column,
                end_column=directive.column + len(directive.text),
            )
        )
    if version is None and not any(d.code == "AFN106" for d in diags):
        diags.append(
            Diagnostic(
                "AFN105",
                Severity.WARNING,
                "no version line; reading the file as AFN 1",
                file=filename,
                line=1,
                column=1,
                hint="start the file with the line '% AFN 1'",
            )
        )
    return version, diags


_LEADING_SPACE = re.compile(r"\s*")


def _first_content_offset(text: str) -> int:
    match = _LEADING_SPACE.match(text)
    return match.end() if match else 0


_COMMENT_RE = re.compile(r"\{([^}]*)\}|;([^\n]*)")


def _loose_comments(text: str, start: int) -> tuple[Comment, ...]:
    """The comments after the last game."""
    out = []
    for match in _COMMENT_RE.finditer(text, start):
        if match.group(1) is not None:
            out.append(Comment(match.group(1).replace("\r\n", "\n"), CommentStyle.BRACE))
        else:
            out.append(Comment(match.group(2).rstrip("\r"), CommentStyle.LINE))
    return tuple(out)


__all__ = [
    "FileReader",
    "Finish",
    "ParseResult",
    "as_read",
    "cyclic_gc_paused",
    "faulty_game",
    "parse",
    "parse_file",
    "parse_game_body",
    "parse_game_slice",
    "read_game_body",
    "read_games",
]
