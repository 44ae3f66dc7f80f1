"""Cut AFN text into games without running the grammar.

A game ends at the word ``end``.  A tag (``[``) that follows a deal with no
``end`` in between also starts a new game, so one missing ``end`` costs one
warning, not the rest of the file.  Comments and quoted strings are skipped so
that an ``end`` inside them does not count.

The same scan reads the header tags, which makes :func:`scan_headers` (and the
viewer's index of a large file) possible without parsing any play.
"""

from __future__ import annotations

import re
from array import array
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from itertools import islice
from typing import TYPE_CHECKING, NamedTuple, overload

from ..frozen import frozen
from ..limits import MAX_TAGS_PER_GAME

if TYPE_CHECKING:
    from .records import Tag

# A quoted string's inside: characters other than a quote, backslash or line break, or
# a backslash and the character it escapes.  Written as runs of plain characters
# between escapes ("unrolled") rather than as a choice per character, because the
# regular-expression engine then takes a run in one step: the scan of a header block
# goes about half again as fast.
_QUOTED = r"""[^"\\\n]*(?:\\.[^"\\\n]*)*"""
# A tag after its "[": name, then the value in double quotes (escapes kept).
_TAG_BODY = r"""[ \t]*([A-Za-z][A-Za-z0-9_]*)[ \t]+"(""" + _QUOTED + r""")"[ \t]*\]"""
_TAG = re.compile(r"\[" + _TAG_BODY)

# One left-to-right scan finds everything that matters for cutting.  Every such
# token starts with one of the characters of the leading set, and that set is what
# makes the scan fast: the regular-expression engine skips in C to the next
# candidate character instead of trying every alternative at every position.  The
# look-behinds then pick the alternative by that first character; a D or E inside
# a word (the suit of "9D", "dealer", "stands") is rejected at once.  A "[" that
# does not open a well-formed tag matches no group (``lastgroup`` is None); a run of
# tags with only white space between them is one match (a game's header block),
# split afterwards by ``_TAG``.  Comments and strings swallow any keyword inside
# them.
_SCAN = re.compile(
    r"""
    [{;\["%DdEe] (?<![A-Za-z0-9_][DdEe])
    (?:
        (?<=\{) (?P<brace>[^}]*\}?)
      | (?<=;) (?P<semi>[^\n]*)
      | (?<=\[) (?P<tags>{tag} (?:\s*+\[{tag})*+ )?
      | (?<=") (?P<string>{quoted}"?)
      | (?<=%) (?P<directive>[^\n]*)
      | (?<=[Ee]) (?P<end>[Nn][Dd]) (?![A-Za-z0-9_])
      | (?<=[Dd]) (?P<deal>[Ee][Aa][Ll]) (?![A-Za-z0-9_])
    )
    """.replace("{tag}", _TAG_BODY).replace("{quoted}", _QUOTED),
    re.VERBOSE,
)

# White space and comments up to the end of the text.  Every repetition is possessive
# (``*+``): once a blank, a comment or a directive is read it is never given back, so
# a run of blanks or semicolons followed by a word fails in one pass instead of
# trying every way of splitting the run (the backtracking that once made 32 spaces
# and an "x" hang).  The alternatives start with different characters, so nothing
# is lost by not backtracking.
_ONLY_COMMENTS = re.compile(r"(?:\s++|\{[^}]*+\}|;[^\n]*+|%[^\n]*+)*+\Z")


class HeaderTag(NamedTuple):
    """A tag with its place: name, raw value (escapes kept) and offset in the text.

    The scan itself keeps only names and values (and where each run of tags
    stands); :func:`header_tags` finds the offsets again when a caller needs
    them, as the parser does for the tags of a game it cannot parse.
    """

    name: str
    value: str
    offset: int


@frozen
class Directive:
    """A ``%`` directive line (``% AFN 1``) and where it stands."""

    text: str
    line: int
    column: int
    offset: int


@dataclass(slots=True)
class GameSlice:
    """Where one game stands in the text, and its header tags."""

    start: int
    end: int
    line: int  # 1-based line of ``start``
    column: int  # 1-based column of ``start``
    tags: list[tuple[str, str]] = field(default_factory=list)  # (name, raw value)
    has_end: bool = False
    deals: int = 0
    # (start, end) offsets of each run of tags: where :func:`header_tags` looks
    tag_blocks: list[tuple[int, int]] = field(default_factory=list)
    # More tags than MAX_TAGS_PER_GAME: those past the limit were not kept.
    too_many_tags: bool = False

    def moved(self, line: int, column: int, offset: int) -> GameSlice:
        """This slice of a text that starts at ``offset`` (``line``, ``column``) of a
        larger one, placed in the larger text."""
        first_line = self.line == 1
        return GameSlice(
            self.start + offset,
            self.end + offset,
            self.line + line - 1,
            self.column + (column - 1 if first_line else 0),
            self.tags,
            self.has_end,
            self.deals,
            [(start + offset, end + offset) for start, end in self.tag_blocks],
            self.too_many_tags,
        )


_HAS_END = 1
_TOO_MANY_TAGS = 2


class Slices(Sequence[GameSlice]):
    """Every game slice of a text, kept as columns of numbers and made into a
    :class:`GameSlice` when read.

    A file holds as many games as it likes: 10 MB of ``end end end …`` is 2.5
    million of them.  As objects they cost about 300 bytes each (750 MB for that
    file); here a game is about 41 bytes (its offsets, line, column, deal count
    and flags), plus its tags for a game that has any.
    """

    __slots__ = ("_columns", "_deals", "_ends", "_flags", "_lines", "_starts", "_tags")

    def __init__(self, pieces: Iterable[GameSlice] = ()) -> None:
        self._starts = array("q")
        self._ends = array("q")
        self._lines = array("q")
        self._columns = array("q")
        self._deals = array("q")
        self._flags = bytearray()
        # (tags, tag blocks) of the games that have any, by position
        self._tags: dict[int, tuple[list[tuple[str, str]], list[tuple[int, int]]]] = {}
        for piece in pieces:
            self.append(piece)

    def append(self, piece: GameSlice) -> None:
        self.add(piece.start, piece.end, piece.line, piece.column, piece.deals, piece.has_end,
                 piece.tags, piece.tag_blocks, piece.too_many_tags)

    def add(self, start: int, end: int, line: int, column: int, deals: int, has_end: bool,
            tags: list[tuple[str, str]], tag_blocks: list[tuple[int, int]],
            too_many_tags: bool) -> None:
        """:meth:`append` of the slice these fields describe, without making it (the
        slicer's way: a file may hold millions of games)."""
        if tags or tag_blocks:
            self._tags[len(self._starts)] = (tags, tag_blocks)
        self._starts.append(start)
        self._ends.append(end)
        self._lines.append(line)
        self._columns.append(column)
        self._deals.append(deals)
        self._flags.append(has_end * _HAS_END | too_many_tags * _TOO_MANY_TAGS)

    def __len__(self) -> int:
        return len(self._starts)

    def windows(self, max_chars: int, max_games: int) -> Iterator[tuple[int, Slices]]:
        """Consecutive games in runs, each as (index of its first game, a :class:`Slices`
        of its own): runs whose text spans at most ``max_chars`` characters (a longer
        game is a run of its own) and holds at most ``max_games`` games.

        The columns are cut in C, which is what a worker process is sent: a window
        pickles as a few byte strings, where a tuple of slices pickles a dataclass
        per game (more than checking a game of ``end`` costs)."""
        starts, ends = self._starts, self._ends
        tagged = iter(sorted(self._tags.items()))  # by position: one pass over them all
        pending = next(tagged, None)
        first = 0
        for at in range(1, len(starts) + 1):
            if at < len(starts) and at - first < max_games and \
                    ends[at] - starts[first] <= max_chars:
                continue
            part = Slices()
            part._starts, part._ends = starts[first:at], ends[first:at]
            part._lines, part._columns = self._lines[first:at], self._columns[first:at]
            part._deals, part._flags = self._deals[first:at], self._flags[first:at]
            while pending is not None and pending[0] < at:
                part._tags[pending[0] - first] = pending[1]
                pending = next(tagged, None)
            yield first, part
            first = at

    @property
    def text_span(self) -> tuple[int, int]:
        """Where the text of these games starts and ends (0, 0 for none)."""
        if not self._starts:
            return 0, 0
        return self._starts[0], self._ends[-1]

    @overload
    def __getitem__(self, index: int) -> GameSlice: ...

    @overload
    def __getitem__(self, index: slice) -> list[GameSlice]: ...

    def __getitem__(self, index: int | slice) -> GameSlice | list[GameSlice]:
        if isinstance(index, slice):
            return [self._piece(at) for at in range(*index.indices(len(self)))]
        if index < 0:
            index += len(self)
        if not 0 <= index < len(self):
            raise IndexError("game slice out of range")
        return self._piece(index)

    def __iter__(self) -> Iterator[GameSlice]:
        return map(self._piece, range(len(self)))

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Sequence) or len(other) != len(self):
            return False
        return all(mine == theirs for mine, theirs in zip(self, other, strict=True))

    __hash__ = None  # type: ignore[assignment]  # mutable, like a list

    def _piece(self, at: int) -> GameSlice:
        tags, blocks = self._tags.get(at) or ([], [])
        flags = self._flags[at]
        return GameSlice(self._starts[at], self._ends[at], self._lines[at], self._columns[at],
                         tags, bool(flags & _HAS_END), self._deals[at], blocks,
                         bool(flags & _TOO_MANY_TAGS))


@dataclass(slots=True)
class SliceResult:
    games: Sequence[GameSlice]
    directives: list[Directive]
    trailing_start: int | None  # offset where comment-only text after the last game starts
    unterminated_comment: int | None  # offset of a "{" that is never closed


class _LineTracker:
    """Turns increasing offsets into (line, column) in linear total time."""

    __slots__ = ("_line", "_line_start", "_pos", "_text")

    def __init__(self, text: str, line: int = 1) -> None:
        self._text = text
        self._pos = 0
        self._line = line
        self._line_start = 0

    def at(self, offset: int) -> tuple[int, int]:
        text = self._text
        newlines = text.count("\n", self._pos, offset)
        if newlines:
            self._line += newlines
            self._line_start = text.rfind("\n", self._pos, offset) + 1
        self._pos = offset
        return self._line, offset - self._line_start + 1


def line_columns(text: str, offsets: list[int]) -> list[tuple[int, int]]:
    """1-based (line, column) of each of the increasing ``offsets`` of ``text``."""
    lines = _LineTracker(text)
    return [lines.at(offset) for offset in offsets]


def slice_games(text: str) -> SliceResult:
    """Find every game in ``text`` (already decoded, BOM removed)."""
    lines = _LineTracker(text)
    games = Slices()
    directives: list[Directive] = []
    unterminated: int | None = None

    # The game being cut, in local variables (a GameSlice is made only when one is read).
    start = 0
    line, column = 1, 1
    deals = 0
    tags: list[tuple[str, str]] = []
    tag_blocks: list[tuple[int, int]] = []
    too_many_tags = False
    in_body = False
    add = games.add

    for match in _SCAN.finditer(text):
        kind = match.lastgroup or "open"
        if kind == "deal":  # the most frequent match first
            in_body = True
            deals += 1
            continue
        if kind == "brace":
            if not match.group().endswith("}"):
                unterminated = match.start()
            continue
        if kind in ("semi", "string"):
            continue
        if kind == "directive":
            d_line, d_col = lines.at(match.start())
            directives.append(Directive(match.group().rstrip("\r"), d_line, d_col, match.start()))
            continue
        if kind in ("tags", "open"):
            if in_body:  # a new game began without "end"
                add(start, match.start(), line, column, deals, False, tags, tag_blocks,
                    too_many_tags)
                start = match.start()
                line, column = lines.at(start)
                deals, tags, tag_blocks, too_many_tags = 0, [], [], False
                in_body = False
            if kind == "tags" and not too_many_tags:  # past the limit, keep no more
                room = MAX_TAGS_PER_GAME + 1 - len(tags)  # one more says "too many"
                tags += [(tag[1], tag[2]) for tag in
                         islice(_TAG.finditer(text, match.start(), match.end()), room)]
                tag_blocks.append(match.span())
                if len(tags) > MAX_TAGS_PER_GAME:
                    too_many_tags = True
                    del tags[MAX_TAGS_PER_GAME:]
            continue
        # "end"
        end = match.end()
        add(start, end, line, column, deals, True, tags, tag_blocks, too_many_tags)
        start = end
        line, column = lines.at(start)
        if tags or tag_blocks:
            tags, tag_blocks = [], []
        deals, too_many_tags = 0, False
        in_body = False

    trailing_start: int | None = None
    rest = text[start:]
    if tags or in_body or not _ONLY_COMMENTS.match(rest):
        add(start, len(text), line, column, deals, False, tags, tag_blocks, too_many_tags)
    elif rest.strip():
        trailing_start = start
    return SliceResult(games, directives, trailing_start, unterminated)


def header_tags(text: str, piece: GameSlice, limit: int | None = None) -> list[HeaderTag]:
    """The tags of ``piece`` (sliced from ``text``), each with its offset; the first
    ``limit`` of them only, when given (a header block of a million tags is read no
    further than a game may hold)."""
    found: list[HeaderTag] = []
    for start, end in piece.tag_blocks:
        for tag in _TAG.finditer(text, start, end):
            if limit is not None and len(found) >= limit:
                return found
            found.append(HeaderTag(tag[1], tag[2], tag.start()))
    return found


def iter_slices(text: str) -> Iterator[tuple[GameSlice, str]]:
    """Each game slice with its text."""
    for game in slice_games(text).games:
        yield game, text[game.start : game.end]


def tag_from_scan(tag: HeaderTag, position: tuple[int, int], line_base: int, col_base: int,
                  offset_base: int) -> Tag:
    """A tag as :func:`header_tags` reads it (``position``: its line and column in the
    game's text), as a record: a game that does not parse keeps its tags (the assembler's
    broken game)."""
    from .records import Span, Tag
    from .statements import unescape_tag_value

    tag_line, tag_column = position
    line = tag_line + line_base
    column = tag_column + (col_base if tag_line == 1 else 0)
    offset = tag.offset + offset_base
    return Tag(
        name=tag.name,
        value=unescape_tag_value(tag.value),
        span=Span(line, column, line, column, offset, offset),
    )
