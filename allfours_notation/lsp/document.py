"""An editor buffer cut into games, each parsed and checked once per text it had.

A keystroke changes one game.  :class:`Analyzer` slices the buffer (a regular
expression scan, no grammar), and for every game looks up its text in the cache
of the previous analysis: only a game whose text changed is parsed and replayed
again.  Each game is parsed *relative to its own start* (line 1 is the game's
first line), so a game that merely moved down because lines were added above it
keeps its cached analysis; :class:`GameAnalysis` shifts positions back into the
document when they are read.

Nothing here knows about the language server protocol; :mod:`.features` and
:mod:`.server` translate.
"""

from __future__ import annotations

import bisect
import re
from array import array
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field, replace
from itertools import accumulate, islice

from ..checking.parsing import parse_game_body
from ..diagnostics import Diagnostic, Severity
from ..frozen import frozen
from ..limits import LIMIT_CODE, MAX_EDITOR_CHARS, MAX_EDITOR_GAMES
from ..reading.parser import read_sliced
from ..reading.records import Game
from ..reading.slicer import Directive, GameSlice, SliceResult, slice_games
from ..reading.source import BOM, CONTROL_CODE, control_characters
from .settings import NO_CHOICE, RuleChoice

_SURROGATE = re.compile("[\ud800-\udfff]+")
MAX_SURROGATE_DIAGNOSTICS = 20
# A game's analysis unused for this many analyses of its document is forgotten (when
# the cache holds many more than the document's games): long enough to outlive the
# keystrokes between typing a '{' that swallows the games after it and its '}'.
KEEP_ANALYSES = 64


_UNIT_BYTES = {"utf-8": 1, "utf-16": 2, "utf-32": 4}


@frozen
class LineIndex:
    """Offsets of line starts, to turn (line, column) into offsets and back.

    ``encoding`` is how the client counts columns: ``utf-16`` code units (the
    protocol's default), ``utf-32`` (characters, as Python's ``str`` indexes) or
    ``utf-8`` bytes.
    """

    text: str
    starts: array[int]
    encoding: str = "utf-16"

    @classmethod
    def of(cls, text: str, *, encoding: str = "utf-16") -> LineIndex:
        return cls(text, _line_starts(text, 0), encoding if encoding in _UNIT_BYTES else "utf-16")

    def extended(self, text: str, same_until: int, *, encoding: str,
                 same_from: int | None = None) -> LineIndex:
        """The index of ``text``, which equals this index's text before offset
        ``same_until`` (and, given ``same_from``, from there on equals the end of this
        index's text): the lines before the edit are kept, the lines after it moved,
        and only the lines in between are counted."""
        if encoding != self.encoding:
            return LineIndex.of(text, encoding=encoding)
        kept = bisect.bisect_right(self.starts, same_until) - 1
        start = self.starts[kept]
        delta = len(text) - len(self.text)
        if same_from is None or same_from - delta <= start:
            return LineIndex(text, self.starts[:kept] + _line_starts(text, start), encoding)
        # the old lines that start after the unchanged tail's first line break
        tail_break = text.find("\n", same_from)
        if tail_break < 0:
            return LineIndex(text, self.starts[:kept] + _line_starts(text, start), encoding)
        middle = _line_starts(text[: tail_break + 1], start)  # to the line after that break
        after = bisect.bisect_right(self.starts, tail_break + 1 - delta)
        moved = array("q", map(delta.__add__, self.starts[after:]))
        return LineIndex(text, self.starts[:kept] + middle + moved, encoding)

    def replaced(self, text: str, *, encoding: str) -> LineIndex:
        """The index of ``text``, a whole new text for this index's (a client's full
        sync): the lines of the head and the tail it shares with the old text are
        kept, and only those in between are counted.  Counting a 1 MB text's lines
        afresh costs 15 ms, a fifth of a keystroke's budget; comparing it, under 1 ms."""
        same_until = common_prefix(self.text, text)
        room = min(len(self.text), len(text)) - same_until
        same_from = len(text) - common_suffix(self.text, text, room)
        return self.extended(text, same_until, encoding=encoding, same_from=same_from)

    @property
    def line_count(self) -> int:
        return len(self.starts)

    def line_text(self, line: int) -> str:
        """The text of 0-based ``line`` without its line break."""
        if line < 0 or line >= len(self.starts):
            return ""
        end = self.starts[line + 1] if line + 1 < len(self.starts) else len(self.text)
        return self.text[self.starts[line] : end].rstrip("\r\n")

    def _units(self, text: str) -> int:
        width = _UNIT_BYTES[self.encoding]
        codec = "utf-8" if width == 1 else f"{self.encoding}-le"
        return len(text.encode(codec, "surrogatepass")) // width

    def to_client(self, line: int, column: int) -> tuple[int, int]:
        """0-based (line, character column) → 0-based (line, client column)."""
        line = min(max(line, 0), len(self.starts) - 1)
        text = self.line_text(line)
        column = min(max(column, 0), len(text))
        if self.encoding == "utf-32" or text.isascii():
            return line, column
        return line, self._units(text[:column])

    def from_client(self, line: int, column: int) -> tuple[int, int]:
        """0-based (line, client column) → 0-based (line, character column)."""
        line = min(max(line, 0), len(self.starts) - 1)
        text = self.line_text(line)
        if self.encoding == "utf-32" or text.isascii():
            return line, min(max(column, 0), len(text))
        units = 0
        for index, char in enumerate(text):
            if units >= column:
                return line, index
            units += self._units(char)
        return line, len(text)

    def offset(self, line: int, column: int) -> int:
        """Offset of 0-based (line, character column)."""
        line = min(max(line, 0), len(self.starts) - 1)
        return min(self.starts[line] + max(column, 0), len(self.text))

    def position(self, offset: int) -> tuple[int, int]:
        """0-based (line, character column) of ``offset``."""
        line = bisect.bisect_right(self.starts, offset) - 1
        return line, offset - self.starts[line]


_LINES_BLOCK = 1 << 20


def _line_starts(text: str, start: int) -> array[int]:
    """Offsets of the starts of the lines of ``text[start:]`` (``start`` is a line's
    start), counted in C: split, measure, add up.  A block of the text at a time, into
    an array of machine integers: 8 bytes a line, and never a copy of the whole text
    as lines (a 100 MB buffer once cost 500 MB here)."""
    starts = array("q", [start])
    for block_start in range(start, len(text), _LINES_BLOCK):
        block = text[block_start : block_start + _LINES_BLOCK]
        after = accumulate(map((1).__add__, map(len, block.split("\n"))), initial=block_start)
        starts.extend(islice(after, 1, block.count("\n") + 1))  # after each line break
    return starts


def common_prefix(a: str, b: str, block: int = 1 << 16) -> int:
    """How many leading characters ``a`` and ``b`` share, comparing block by block."""
    limit = min(len(a), len(b))
    at = 0
    while at < limit and a[at : at + block] == b[at : at + block]:
        at += block
    if at >= limit:
        return limit
    low, high = at, min(at + block, limit)  # the first difference is in [low, high)
    while low < high:
        middle = (low + high) // 2
        if a[low : middle + 1] == b[low : middle + 1]:
            low = middle + 1
        else:
            high = middle
    return low


def common_suffix(a: str, b: str, limit: int, block: int = 1 << 16) -> int:
    """How many trailing characters ``a`` and ``b`` share, at most ``limit``."""
    limit = min(limit, len(a), len(b))
    size = 0
    while size < limit:
        step = min(block, limit - size)
        if a[len(a) - size - step : len(a) - size] != b[len(b) - size - step : len(b) - size]:
            break
        size += step
    else:
        return limit
    low, high = size, size + step  # the first difference from the end is in [low, high)
    while low < high:
        middle = (low + high + 1) // 2
        if a[len(a) - middle : len(a) - size] == b[len(b) - middle : len(b) - size]:
            low = middle
        else:
            high = middle - 1
    return low


@frozen
class Recut:
    """A text cut into games reusing the previous cut: the games before the edit
    (``kept`` of them, unchanged), the games cut again around it, and the previous
    cut's games after it (from the previous game ``reused_from`` on, None for none),
    which are the same games moved by ``offset`` characters and ``lines`` lines."""

    sliced: SliceResult
    kept: int
    reused_from: int | None = None
    offset: int = 0
    lines: int = 0


def _shifted(piece: GameSlice, offset: int, lines: int) -> GameSlice:
    """``piece`` moved ``offset`` characters and ``lines`` lines on (its column stays)."""
    return GameSlice(piece.start + offset, piece.end + offset, piece.line + lines,
                     piece.column, piece.tags, piece.has_end, piece.deals,
                     [(start + offset, end + offset) for start, end in piece.tag_blocks],
                     piece.too_many_tags)


def recut(text: str, previous: SliceResult | None, old_text: str, same_until: int,
          same_from: int) -> Recut:
    """Cut ``text`` into games reusing ``previous`` (the cut of ``old_text``):
    ``text`` equals ``old_text`` before ``same_until`` and from ``same_from`` on
    (``old_text`` from ``same_from - len(text) + len(old_text)`` on).

    The slicer starts afresh after each ``end``.  So the games before the edit are
    kept; the text from the last of them is cut again only until the cut meets a
    previous game's ``end`` that lies wholly in the unchanged tail, on a line that
    starts there too: from that point on both texts are the same characters read
    from the same state, so they cut into the same games, moved.  The text cut
    again is a window ending at such an ``end``; the window's cut is taken only if
    its last game ends with that very ``end`` (nothing read across the window's
    edge, such as a comment left open, swallowed it), else a longer window is tried.
    """
    if previous is None:
        return Recut(slice_games(text), 0)
    old_games = previous.games
    kept = _kept(old_games, same_until)
    delta = len(text) - len(old_text)
    resume = old_games[kept - 1].end if kept else 0
    candidate = _first_after(old_games, same_from - delta + 3, kept)
    window = 0
    while candidate is not None:
        end = old_games[candidate].end + delta
        if end - resume >= window and text.rfind("\n", 0, end) >= same_from:
            synced = _synced(text, old_text, previous, kept, resume, candidate, delta)
            if synced is not None:
                return synced
            window = 2 * (end - resume)  # grow the window at least twofold each time
        candidate = _first_after(old_games, old_games[candidate].end + 1, candidate + 1)
    return Recut(*slice_after(text, previous, same_until))


def _kept(games: Sequence[GameSlice], same_until: int) -> int:
    """How many of ``games`` end with ``end`` before offset ``same_until``, in a row."""
    kept = 0
    for piece in games:
        if not (piece.has_end and piece.end < same_until):
            break
        kept += 1
    return kept


def _first_after(games: Sequence[GameSlice], offset: int, start: int) -> int | None:
    """The first of ``games`` from ``start`` on that ends with ``end`` at or after
    ``offset``."""
    low, high = start, len(games)
    while low < high:  # the games' ends increase
        middle = (low + high) // 2
        if games[middle].end < offset:
            low = middle + 1
        else:
            high = middle
    for at in range(low, len(games)):
        if games[at].has_end:
            return at
    return None


def _synced(text: str, old_text: str, previous: SliceResult, kept: int, resume: int,
            candidate: int, delta: int) -> Recut | None:
    """The cut with the window ``text[resume : end of candidate, moved]`` cut again and
    the previous games after ``candidate`` moved; None where the window's cut does not
    end with the candidate's ``end``."""
    old_games = previous.games
    old = old_games[candidate]
    end = old.end + delta
    window = slice_games(text[resume:end])
    last = window.games[-1] if window.games else None
    if last is None or not last.has_end or last.end != end - resume or \
            window.unterminated_comment is not None:
        return None
    kept_games = list(old_games[:kept])
    if kept:
        first = kept_games[-1]
        eaten = text[first.start : resume]
        newlines = eaten.count("\n")
        line = first.line + newlines
        column = resume - text.rfind("\n", 0, resume) if newlines else first.column + len(eaten)
    else:
        line, column = 1, 1
    cut = [piece.moved(line, column, resume) for piece in window.games]
    lines = (cut[-1].line + text.count("\n", cut[-1].start, end)) - \
        (old.line + old_text.count("\n", old.start, old.end))
    moved = [_shifted(piece, delta, lines) for piece in old_games[candidate + 1 :]]
    directives = [d for d in previous.directives if d.offset < resume]
    for directive in window.directives:
        d_column = directive.column + (column - 1 if directive.line == 1 else 0)
        directives.append(Directive(directive.text, directive.line + line - 1, d_column,
                                    directive.offset + resume))
    directives += [Directive(d.text, d.line + lines, d.column, d.offset + delta)
                   for d in previous.directives if d.offset >= old.end]
    unterminated = previous.unterminated_comment
    if unterminated is not None:  # one before the window, or one after the games
        unterminated = unterminated if unterminated < resume else unterminated + delta
    trailing = None if previous.trailing_start is None else previous.trailing_start + delta
    return Recut(SliceResult([*kept_games, *cut, *moved], directives, trailing, unterminated),
                 kept, candidate + 1, delta, lines)


def slice_after(text: str, previous: SliceResult | None,
                same_until: int) -> tuple[SliceResult, int]:
    """Cut ``text`` into games, keeping the previous cut's games that end before
    offset ``same_until`` (where the text first differs) and cutting only the rest.

    The slicer starts afresh after each ``end``, so cutting the tail on its own
    gives the games the whole text would.  Returns the cut and how many games
    were kept.
    """
    kept = 0
    if previous is not None:
        for piece in previous.games:
            if not (piece.has_end and piece.end < same_until):
                break
            kept += 1
    if not kept or previous is None:
        return slice_games(text), 0
    games = previous.games[:kept]
    resume = games[-1].end
    last = games[-1]
    eaten = text[last.start : resume]
    newlines = eaten.count("\n")
    line = last.line + newlines
    column = resume - text.rfind("\n", 0, resume) if newlines else last.column + len(eaten)
    tail = slice_games(text[resume:])
    directives = [d for d in previous.directives if d.offset < resume]
    for directive in tail.directives:
        d_column = directive.column + (column - 1 if directive.line == 1 else 0)
        directives.append(Directive(directive.text, directive.line + line - 1, d_column,
                                    directive.offset + resume))
    unterminated = previous.unterminated_comment
    if unterminated is None or unterminated >= resume:
        unterminated = None if tail.unterminated_comment is None else \
            tail.unterminated_comment + resume
    trailing = None if tail.trailing_start is None else tail.trailing_start + resume
    moved = [piece.moved(line, column, resume) for piece in tail.games]
    return SliceResult([*games, *moved], directives, trailing, unterminated), kept


@dataclass(slots=True)
class GameAnalysis:
    """One game parsed and checked relative to its own first line.

    ``game`` and ``diagnostics`` carry positions in the game's own coordinates:
    line 1 is the line the game starts on; columns on that first line are the
    document's (the game may start after another game's ``end``); offsets count
    from the game's first character.  The replay with table states is made only
    when hover or completion first asks for it, then kept.
    """

    body: str
    column: int
    index: int
    game: Game
    diagnostics: tuple[Diagnostic, ...]
    rules: RuleChoice = NO_CHOICE  # what the server's settings choose (see .settings)
    _replay: object | None = field(default=None, repr=False)
    seen: int = 0  # the last analysis of the document that used this one

    def replay(self) -> object | None:
        """The game's :class:`~allfours_notation.referee.state.GameReplay`, with every
        step's table (None for a game a syntax error stopped)."""
        if self.game.broken:
            return None
        if self._replay is None:
            from ..checking import replay_of  # check's replay, its slips not searched

            self._replay = replay_of(self.game, self.rules.given(), steps=True, empty=True)
        return self._replay


@frozen
class PlacedGame:
    """A cached game analysis and where the game stands in the document now:
    its slice and its place in the file (``index``, 1-based)."""

    analysis: GameAnalysis
    piece: GameSlice
    index: int

    @property
    def game(self) -> Game:
        return self.analysis.game

    @property
    def line_shift(self) -> int:
        """Add to a game-relative 1-based line to get the document's line."""
        return self.piece.line - 1

    def document_diagnostics(self) -> list[Diagnostic]:
        """The game's diagnostics where the game stands now: moved down its lines and
        numbered as its place in the file (the analysis may have been made for the
        same text elsewhere, before a game above it was split or merged)."""
        shift, index = self.line_shift, self.index
        if not shift and index == self.analysis.index:
            return list(self.analysis.diagnostics)
        return [
            replace(d, line=None if d.line is None else d.line + shift,
                    game=None if d.game is None else index)
            for d in self.analysis.diagnostics
        ]

    def relative_offset(self, offset: int) -> int:
        return offset - self.piece.start


@frozen
class DocumentAnalysis:
    """Everything known about one version of a buffer."""

    text: str
    lines: LineIndex
    games: tuple[PlacedGame, ...]
    file_diagnostics: tuple[Diagnostic, ...]
    parsed: int  # how many games this analysis had to parse (the others came from the cache)
    # Why the document was not analysed (past MAX_EDITOR_CHARS or MAX_EDITOR_GAMES)
    refused: str | None = None

    def diagnostics(self) -> list[Diagnostic]:
        """File-level diagnostics first, then each game's, as ``allfours check`` orders them."""
        found = list(self.file_diagnostics)
        for placed in self.games:
            found.extend(placed.document_diagnostics())
        return found

    def game_at(self, offset: int) -> PlacedGame | None:
        """The game whose slice holds ``offset`` (the last game for the end of text)."""
        starts = [placed.piece.start for placed in self.games]
        position = bisect.bisect_right(starts, offset) - 1
        if position < 0:
            return self.games[0] if self.games else None
        return self.games[position]


def game_diagnostics(game: Game, rules: RuleChoice = NO_CHOICE) -> tuple[Diagnostic, ...]:
    """What ``allfours check`` reports for one game, in its order: the parser's
    findings and, unless a syntax error stopped it, the rules profile, rules and
    dispute findings, with the probable slips named, each linked to the root it
    follows from (``id``/``cause`` numbered within the game): the one door's
    (:func:`..checking.check`)."""
    from ..checking import check

    return check(game, rules.given()).diagnostics


def clean_text(text: str) -> tuple[str, list[Diagnostic]]:
    """Replace lone surrogates (undecodable bytes some clients pass through) with
    U+FFFD, keeping every offset, and report them as ``check`` reports bad bytes.
    A byte-order mark (which ``check`` drops) becomes a space, for the same reason."""
    if text.startswith(BOM):  # a space keeps every offset where the editor has it
        text = " " + text[1:]
    if text.isascii():
        return text, []
    try:  # encoding fails exactly when there is a surrogate, and runs in C at memory speed
        text.encode("utf-8")
    except UnicodeEncodeError:
        pass
    else:
        return text, []
    lines = LineIndex.of(text)
    found: list[Diagnostic] = []
    for match in _SURROGATE.finditer(text):
        if len(found) == MAX_SURROGATE_DIAGNOSTICS:
            break
        line, column = lines.position(match.start())
        found.append(
            Diagnostic(
                "AFN102",
                Severity.ERROR,
                "the editor passed characters that are not text (bytes that are not "
                "UTF-8); AFN files are UTF-8 text",
                line=line + 1,
                column=column + 1,
                end_column=column + 1 + len(match.group()),
                hint="re-save the file as UTF-8",
            )
        )
    return _SURROGATE.sub(lambda m: "\ufffd" * len(m.group()), text), found


class Stale(Exception):
    """The text changed while it was being analysed; the result would be thrown away."""


class Analyzer:
    """Analyses successive versions of one buffer, reusing every unchanged game.

    Three things are reused from the previous version: the cut into games before
    the first changed character (only the rest of the text is cut again), the
    line index before it, and the analysis of every game whose text is unchanged
    wherever it now stands.  Not thread-safe: the server gives each buffer's
    analyses to one worker thread, one after another.
    """

    def __init__(self, rules: RuleChoice = NO_CHOICE) -> None:
        self.rules = rules
        self._cache: dict[tuple[str, int], GameAnalysis] = {}
        self._generation = 0  # how many analyses this analyzer has made
        self._clean = False  # _text holds no control character
        self._text = ""
        self._sliced: SliceResult | None = None
        self._placed: tuple[PlacedGame, ...] = ()
        self._lines: LineIndex | None = None

    def analyse(self, text: str, stale: Callable[[], bool] = lambda: False, *,
                encoding: str = "utf-16") -> DocumentAnalysis:
        """Analyse ``text``; raise :class:`Stale` as soon as ``stale()`` says a newer
        text has arrived (checked between games, so a big buffer stops early)."""
        text, bad_text = clean_text(text)
        if len(text) > MAX_EDITOR_CHARS:
            return self.refuse(text, f"{len(text):,} characters, more than the "
                               f"{MAX_EDITOR_CHARS:,}", encoding)
        old_text = self._text
        same_until = common_prefix(old_text, text) if self._sliced is not None else 0
        same_from = len(text) - common_suffix(old_text, text, min(len(old_text),
                                                                  len(text)) - same_until)
        cut = recut(text, self._sliced, old_text, same_until, same_from)
        sliced, kept = cut.sliced, cut.kept
        if len(sliced.games) > MAX_EDITOR_GAMES:
            return self.refuse(text, f"{len(sliced.games):,} games, more than the "
                               f"{MAX_EDITOR_GAMES:,}", encoding)
        # An edit that brings no control character into a text that had none leaves
        # none: the whole text is not scanned again.
        known = self._clean and not control_characters(text[same_until:same_from])
        reader = read_sliced(text, sliced, controls=[] if known else None)
        clean = known or all(d.code != CONTROL_CODE for d in reader.diagnostics)
        self._generation = generation = self._generation + 1
        cache = self._cache
        placed = list(self._placed[:kept])
        reused = [] if cut.reused_from is None else self._placed[cut.reused_from:]
        parsed = 0
        for index, piece in enumerate(sliced.games[kept : len(sliced.games) - len(reused)],
                                      start=kept + 1):
            body = text[piece.start : piece.end]
            key = (body, piece.column)
            found = cache.get(key)
            if found is None:
                if stale():
                    raise Stale
                found = analyse_game(body, piece, index, self.rules)
                cache[key] = found
                parsed += 1
            found.seen = generation
            placed.append(PlacedGame(found, piece, index))
        first = len(placed) + 1
        for index, (before, piece) in enumerate(zip(reused, sliced.games[len(placed):],
                                                    strict=True), start=first):
            before.analysis.seen = generation
            placed.append(PlacedGame(before.analysis, piece, index))
        if len(cache) > 2 * len(placed) + 64:  # forget the games long gone from the text
            cache = {key: found for key, found in cache.items()
                     if found.seen > generation - KEEP_ANALYSES}
        if self._lines is None or not same_until:
            lines = LineIndex.of(text, encoding=encoding)
        else:
            lines = self._lines.extended(text, same_until, encoding=encoding,
                                         same_from=same_from)
        self._cache, self._text, self._sliced, self._clean = cache, text, sliced, clean
        self._placed, self._lines = tuple(placed), lines
        from ..checking import file_findings  # sorted by position, as ``check`` prints them

        file_level = file_findings(reader, before=bad_text)
        return DocumentAnalysis(text, lines, self._placed, file_level, parsed)


    def refuse(self, text: str, size: str, encoding: str) -> DocumentAnalysis:
        """The analysis of a document too large to check in the editor: one AFN120
        diagnostic at 1:1, no games, and nothing kept from earlier versions."""
        self._cache, self._text, self._sliced, self._placed, self._lines = {}, "", None, (), None
        self._clean = False
        reason = (f"this document has {size} the editor checks (see 'Limits' in "
                  "NOTATION.md); no diagnostics, hovers or completions for it")
        first_line = text[: text.find("\n") + 1] if "\n" in text[:1000] else text[:1000]
        found = Diagnostic(LIMIT_CODE, Severity.WARNING, reason, line=1, column=1,
                           hint="check it in a terminal: allfours check FILE")
        return DocumentAnalysis(text, LineIndex.of(first_line, encoding=encoding), (),
                                (found,), 0, refused=reason)


def game_origin(body: str, piece: GameSlice) -> GameSlice:
    """The slice ``body`` (a game's text, or its beginning) is parsed as, in the game's
    own coordinates; it keeps the counts the parser's input limits read, so that no
    path parses a game past the limits (AFN120) that ``check`` refuses."""
    return GameSlice(
        start=0, end=len(body), line=1, column=piece.column, has_end=piece.has_end,
        deals=piece.deals, too_many_tags=piece.too_many_tags,
    )


def analyse_game(body: str, piece: GameSlice, index: int,
                 rules: RuleChoice = NO_CHOICE) -> GameAnalysis:
    """Parse and check one game's text in its own coordinates (see :class:`GameAnalysis`),
    under the rules ``rules`` chooses."""
    game = parse_game_body(body, game_origin(body, piece), index=index, filename=None)
    return GameAnalysis(body, piece.column, index, game, game_diagnostics(game, rules), rules)


def errors_in(diagnostics: Iterable[Diagnostic]) -> int:
    return sum(1 for d in diagnostics if d.is_error)
