"""AFN text → :class:`~allfours_notation.reading.records.Game` records, with diagnostics.

The file is first cut into games by :mod:`.slicer` (no grammar involved), then
each game is parsed on its own by Lark (LALR, contextual lexer), so a syntax
error costs one game, never the file.  Lark returns the tokens of each deal
(no parse tree is built); :class:`_GameAssembler` splits the coarse tokens,
attaches comments, groups plays into tricks and checks the order of
statements; :mod:`.structure` then checks what cannot be (a card twice, a hand
of seven …).  Nothing here raises on user input.
"""

from __future__ import annotations

import bisect
import gc
import operator
import re
import threading
from collections.abc import Callable, Iterable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from importlib import resources
from itertools import pairwise
from pathlib import Path
from typing import Any, TypeVar, cast

from lark import Lark, Token
from lark.exceptions import UnexpectedEOF, UnexpectedInput, UnexpectedToken
from lark.grammar import Rule

from ..cards import Card, Seat, parse_card
from ..diagnostics import Diagnostic, Severity
from ..guard import internal_error
from ..limits import (
    LIMIT_CODE,
    MAX_CARDS_PER_DEAL,
    MAX_CARDS_PER_GAME,
    MAX_COMMENTS_PER_GAME,
    MAX_DEALS_PER_GAME,
    MAX_TAGS_PER_GAME,
)
from .lexer import install as install_lean_lexer
from .records import (
    Abandoned,
    Award,
    CallKind,
    Claim,
    ClaimItem,
    Comment,
    CommentStyle,
    Concede,
    Deal,
    Discard,
    Ending,
    Game,
    Glyph,
    Node,
    OpeningEvent,
    Pack,
    Penalty,
    PenaltyKind,
    Play,
    Redeal,
    RedealReason,
    Results,
    Score,
    Span,
    Tag,
    TextLines,
    Total,
    Trick,
    make_call,
    make_claim,
    make_deal,
    make_game,
    make_hand,
    make_play,
    make_total,
    make_trick,
    make_turnup,
    set_diagnostics,
    with_comments,
)
from .slicer import GameSlice, HeaderTag, SliceResult, header_tags, line_columns, slice_games
from .source import control_characters, decode, strip_bom
from .structure import check_structure, missing_tags
from .syntax_errors import deal_number_before, explain
from .table import add_seats, clockwise, seats_named

SUPPORTED_VERSION = 1

# The export order of the mandatory tags; every other tag follows in written order.
ROSTER: tuple[str, ...] = (
    "Event",
    "Site",
    "Date",
    "Rules",
    "North",
    "East",
    "South",
    "West",
    "Result",
)
_ROSTER_RANK = {name: rank for rank, name in enumerate(ROSTER)}


def sorted_tags(tags: Iterable[Tag]) -> tuple[Tag, ...]:
    """Roster tags first in roster order, every other tag after them as written."""
    return tuple(sorted(tags, key=lambda tag: _ROSTER_RANK.get(tag.name, len(ROSTER))))


# --- loading the grammar ----------------------------------------------------------------------


def grammar_text() -> str:
    """The AFN grammar: shipped in the wheel, or read from the source checkout."""
    packaged = resources.files("allfours_notation").joinpath("_grammar/allfours.lark")
    if packaged.is_file():
        return packaged.read_text(encoding="utf-8")
    checkout = Path(__file__).resolve().parents[2] / "grammar" / "allfours.lark"
    return checkout.read_text(encoding="utf-8")


class TooManyComments(Exception):
    """Raised from inside Lark's lexer when a game has more comments than
    :data:`~.limits.MAX_COMMENTS_PER_GAME`: the game is not read (AFN120), and the
    comments are not held."""


class _Collector:
    """Receives the comments Lark's lexer skips, for the game being parsed, and the
    last claim or total it read (where a claim cut by comments starts, for
    :func:`~.syntax_errors.explain`)."""

    def __init__(self) -> None:
        self.comments: list[Token] = []
        self.opened: Token | None = None

    def __call__(self, token: Token) -> Token:
        self.comments.append(token)
        if len(self.comments) > MAX_COMMENTS_PER_GAME:  # stop reading: a limit, AFN120
            raise TooManyComments
        return token

    def open_statement(self, token: Token) -> Token:
        self.opened = token
        return token


class _Callbacks:
    """Inline callbacks: keep tokens as they are, build no tree."""

    def start(self, children: list[Any]) -> Any:
        return children[0]

    def game(self, children: list[Any]) -> list[Any]:
        return children

    def deal(self, children: list[Any]) -> list[Any]:
        return children

    def statement(self, children: list[Any]) -> list[Any]:
        """A statement a comment cut in two or more tokens: its tokens, in order."""
        return children


_Reduction = Callable[[list[Any]], Any]


def _reduction(rule: Any) -> _Reduction:
    """What reducing by ``rule`` gives, as :class:`_Callbacks` and Lark's tree builder
    together give it: the children, with those of an inlined helper rule (a name
    starting with "_": Lark's expansion of ``x*``) spliced in; one child alone for a
    ``?`` rule; the game itself for ``start``.

    ``children`` is always a fresh list (the parser slices its value stack), so it
    is returned or extended in place rather than copied."""
    spliced = tuple(place for place, symbol in enumerate(rule.expansion)
                    if not symbol.is_term and symbol.name.startswith("_"))
    if rule.origin.name == "start":
        return operator.itemgetter(0)
    if rule.options.expand1:  # ?statement: the token itself, or its tokens
        if spliced == (1,) and len(rule.expansion) == 2:
            def statement(children: list[Any]) -> Any:
                first, more = children
                more.insert(0, first)
                return more
            return statement
        assert not spliced
        return lambda children: children[0] if len(children) == 1 else children
    if not spliced:
        return _as_is
    if spliced == (0,) and len(rule.expansion) == 2:  # x*: one more, to the list so far
        def one_more(children: list[Any]) -> Any:
            so_far, item = children
            so_far.append(item)
            return so_far
        return one_more

    def splice(children: list[Any]) -> Any:
        out: list[Any] = []
        for place, child in enumerate(children):
            if place in spliced:
                out.extend(child)
            else:
                out.append(child)
        return out
    return splice


def _as_is(children: list[Any]) -> Any:
    return children


def _resolve_callbacks(lark: Lark) -> None:
    """Give Lark's LALR parser one plain function per grammar rule, keyed by the very
    rule objects its parse table holds.

    Lark wraps each :class:`_Callbacks` method in tree-builder objects (a Python call
    or two and a ``Tree`` per reduction), and its cached parse table holds copies of
    the rules, so each lookup ends in the rules' Python ``__eq__``.  The functions
    here give the same values (a test compares both on every sample); with a Lark
    whose insides differ they are simply not installed."""
    try:
        parser = lark.parser.parser.parser  # ParsingFrontend → LALR_Parser → _Parser
        states = parser.parse_table.states
        rules = {id(arg): arg for actions in states.values()
                 for action, arg in actions.values() if action.name == "Reduce"}
        if any(type(key) is not Rule for key in parser.callbacks) or \
                any(type(rule) is not Rule for rule in rules.values()):
            return  # not the table this was written for: leave Lark's
        twins = {key: _twin(rule) for key, rule in rules.items()}
        for actions in states.values():
            for terminal, (action, arg) in actions.items():
                if action.name == "Reduce":
                    actions[terminal] = (action, twins[id(arg)])
        parser.callbacks = {twin: _reduction(twin) for twin in twins.values()}
    except (AttributeError, TypeError, ValueError):  # pragma: no cover
        return


class _TableRule(Rule):
    """A grammar rule as the parse table holds it, equal only to itself and hashed by
    identity in C: the parser hashes the rule of every reduction, and compares it with
    the end state (``Rule.__hash__`` and ``__eq__`` are Python code)."""

    __slots__ = ()
    __hash__ = object.__hash__
    __eq__ = object.__eq__


def _twin(rule: Any) -> _TableRule:
    twin = _TableRule.__new__(_TableRule)
    for name in ("origin", "expansion", "alias", "options", "order", "_hash"):
        setattr(twin, name, getattr(rule, name))
    return twin


_local = threading.local()


def _lark() -> tuple[Lark, _Collector]:
    """One Lark instance per thread (the comment collector is per-parse state)."""
    cached = getattr(_local, "parser", None)
    if cached is None:
        collector = _Collector()
        lark = Lark(
            grammar_text(),
            parser="lalr",
            lexer="contextual",
            transformer=cast(Any, _Callbacks()),
            lexer_callbacks={
                "BRACE_COMMENT": collector,
                "LINE_COMMENT": collector,
                "CLAIM": collector.open_statement,
                "TOTAL": collector.open_statement,
            },
            cache=True,
            propagate_positions=False,
            maybe_placeholders=False,
        )
        _resolve_callbacks(lark)
        install_lean_lexer(lark)
        cached = (lark, collector)
        _local.parser = cached
        _local.parse = _direct_parse(lark, collector)
    return cast(tuple[Lark, _Collector], cached)


def build_parser() -> None:
    """Build this thread's parser now rather than at the first game (a forkserver does,
    so that every process it forks starts with the parser built)."""
    _game_parser()


_GameParser = tuple[Callable[[str], Any], _Collector]


def _game_parser() -> _GameParser:
    """``_lark()``'s parse of one game's text, and its comment collector (asked for
    once per game: kept ready on the thread)."""
    found = getattr(_local, "game_parser", None)
    if found is None:
        collector = _lark()[1]  # which also makes _local.parse
        found = _local.game_parser = (_local.parse, collector)
    return cast(_GameParser, found)


def _direct_parse(lark: Lark, collector: _Collector) -> Callable[[str], Any]:
    """``lark.parse``, less its per-call set-up and its per-token layers.

    The same LALR parse table, callbacks and contextual lexers, driven by one loop:
    Lark's own parse goes through four layers of calls per text (start symbol, lexer
    thread, parse configuration, a parser state object) and, per token, a generator
    and a method that fetches the table again; for a one-deal game those were a
    third of reading it, and a file may hold tens of thousands.

    Only the successful parse is done here.  At anything unusual (a token the table
    does not expect, text no terminal matches, an internal surprise) the text is
    parsed again from the start by Lark's own loop (``lark_parse``), which raises
    exactly what Lark raises, with its parser state for the error explanation; the
    comment collector is emptied first, as before any parse.  A test compares both
    loops on every sample and on generated and mutated games.  A Lark built
    otherwise than this module builds its own keeps ``lark.parse``."""
    try:
        from lark.lexer import LexerState, LexerThread
        from lark.parsers.lalr_analysis import Shift
        from lark.parsers.lalr_parser_state import ParseConf, ParserState
        from lark.utils import TextSlice

        frontend = lark.parser
        inner = frontend.parser.parser  # ParsingFrontend → LALR_Parser → _Parser
        if frontend.skip_lexer or lark.options._plugins or \
                frontend.parser_conf.start != ["start"]:
            return lark.parse
        conf = ParseConf(inner.parse_table, inner.callbacks, "start")
        lexer = frontend.lexer
        run = inner.parse_from_state
        # The basic lexer of each parser state (Lark's contextual lexer picks it so).
        next_token = {state: basic.next_token for state, basic in lexer.lexers.items()}
        states = conf.states
        start_state, end_state = conf.start_state, conf.end_state
        callbacks = conf.callbacks
        reductions = {rule: (len(rule.expansion), rule.origin.name, callbacks[rule])
                      for actions in states.values()
                      for action, rule in actions.values() if action is not Shift}
        shifted = {kind for kind in callbacks if isinstance(kind, str)}
    except (ImportError, AttributeError, KeyError):  # pragma: no cover - another Lark
        return lark.parse

    def lark_parse(text: str) -> Any:
        return run(ParserState(conf, LexerThread(lexer, LexerState(TextSlice(text, 0,
                                                                            len(text))))))

    if shifted:  # pragma: no cover - this module's callbacks work on rules only
        return lark_parse

    def parse(text: str) -> Any:
        text_end = len(text)
        lex_state = LexerState(TextSlice(text, 0, text_end))
        line_counter = lex_state.line_ctr
        state_stack = [start_state]
        value_stack: list[Any] = []
        try:
            kind = ""
            while kind != "$END":
                state = state_stack[-1]
                if line_counter.char_pos >= text_end:  # where Lark's lexer raises EOFError
                    kind = "$END"
                else:
                    try:
                        token: Any = next_token[state](lex_state, None)
                        kind = token.type
                    except EOFError:  # only blanks or comments were left
                        kind = "$END"
                while True:
                    action, arg = states[state][kind]
                    if action is Shift:
                        if arg == end_state or kind == "$END":
                            raise _Unusual
                        state_stack.append(arg)
                        value_stack.append(token)
                        break
                    size, origin, reduce = reductions[arg]
                    if size:
                        children = value_stack[-size:]
                        del state_stack[-size:]
                        del value_stack[-size:]
                    else:
                        children = []
                    action, state = states[state_stack[-1]][origin]
                    state_stack.append(state)
                    value_stack.append(reduce(children))
                    if kind == "$END" and state == end_state:
                        return value_stack[-1]
        except TooManyComments:
            raise
        except Exception:  # Lark's own loop says what it was
            collector.comments = []
            collector.opened = None
            return lark_parse(text)
        raise _Unusual  # pragma: no cover - the loop ends only by returning

    return parse


class _Unusual(Exception):
    """What the direct loop met is for Lark's own loop to report."""


# --- results ----------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
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


@dataclass(frozen=True, slots=True)
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

    def games(self) -> Iterator[Game]:
        for index, piece in enumerate(self.slices, start=1):
            yield parse_game_slice(self.text, piece, index=index, filename=self.file)

    def closing_diagnostics(self) -> tuple[Diagnostic, ...]:
        """What is known after the last game: that there was none."""
        if self.slices:
            return ()
        return (Diagnostic("AFN107", Severity.WARNING, "no games found", file=self.file, line=1,
                           column=1),)


@contextmanager
def cyclic_gc_paused() -> Iterator[None]:
    """Pause Python's cycle collector while a whole file's records pile up, or
    while one game is read and checked.

    Records are immutable trees with no reference cycles, so the collector finds
    nothing in them; yet as they accumulate it walks all of them again and again
    (over 40% of parse()'s time on a 3 MB file; about a sixth of ``check``'s,
    game by game).  Reference counting still frees everything as usual, and the
    collector runs again as soon as the block ends.
    """
    if not gc.isenabled():  # the caller has paused it already
        yield
        return
    gc.disable()
    try:
        yield
    finally:
        gc.enable()


def read_games(source: str | bytes, *, filename: str | None = None) -> FileReader:
    """Decode ``source`` and cut it into games, parsing none of them yet."""
    if isinstance(source, bytes):
        text, diagnostics = decode(source, filename)
    else:
        text, diagnostics = strip_bom(source), []
    return read_sliced(text, slice_games(text), diagnostics, filename=filename)


def read_sliced(text: str, sliced: SliceResult, diagnostics: Iterable[Diagnostic] = (), *,
                filename: str | None = None) -> FileReader:
    """:func:`read_games` for decoded text its caller has already cut into games
    (the language server re-cuts only the part of a buffer that changed)."""
    found = list(diagnostics)
    found.extend(control_characters(text, filename))
    version, version_diags = _check_version(text, sliced.directives, filename)
    found.extend(version_diags)
    trailing: tuple[Comment, ...] = ()
    if sliced.trailing_start is not None:
        trailing = _loose_comments(text, sliced.trailing_start)
    return FileReader(text, filename, version, tuple(found), sliced.games, trailing)


def parse(source: str | bytes, *, filename: str | None = None) -> ParseResult:
    """Parse a whole AFN text.  Never raises on bad input: problems are diagnostics."""
    reader = read_games(source, filename=filename)
    with cyclic_gc_paused():
        games = tuple(reader.games())
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


def parse_game_slice(text: str, piece: GameSlice, *, index: int, filename: str | None) -> Game:
    """Parse one game cut out of ``text`` by the slicer (positions are ``text``'s)."""
    return parse_game_body(text[piece.start : piece.end], piece, index=index, filename=filename)


def parse_game_body(body: str, origin: GameSlice, *, index: int, filename: str | None) -> Game:
    """Parse one game's text; ``origin`` says where it stands in its file, so that
    positions are the file's even when ``body`` came from a streamed chunk.

    A fault in the parser itself gives a broken game holding one internal-error
    diagnostic (AFN901) at the game's start, and the next game is still read."""
    return check_read_game(read_game_body(body, origin, index=index, filename=filename))


# A game read but not yet through its structure checks: the game (holding what reading
# it found), the seats the checks need (None: nothing is left to check), and where it
# stands in its file.  See :func:`read_game_body`.
ReadGame = tuple[Game, tuple[Seat, ...] | None, GameSlice]


def read_game_body(body: str, origin: GameSlice, *, index: int,
                   filename: str | None) -> ReadGame:
    """:func:`parse_game_body` in two halves, this one and :func:`check_read_game`.

    ``check`` reads a whole run of games and then checks their structure, rather than
    game by game: each half's code then stays hot in the processor's caches, which
    makes a file of thousands of small games a tenth cheaper (issue 16).  The game
    this gives is not to be handed to anyone before :func:`check_read_game` has
    finished it."""

    # What guarded() does, written out: this runs once per game, and a file may hold
    # hundreds of thousands (a closure and a lambda per game cost more than "end" does).
    try:
        if not origin.deals and not origin.tags and body.strip().lower() == "end":
            # A game that is only "end" (no limit can be passed by it): no assembler needed.
            return _bare_end(origin, index, filename), None, origin
        return _GameAssembler(body, origin, index=index, filename=filename).read()
    except Exception as error:  # one of the two places a fault in reading a game is caught
        return _faulty_game(error, origin, index, filename), None, origin


def check_read_game(read: ReadGame) -> Game:
    """A game from :func:`read_game_body`, its structure checked (:mod:`.structure`) and
    those findings added after what reading it found."""
    game, seats, origin = read
    if seats is None:
        return game
    try:
        found = check_structure(game, filename=game.source, seats=seats)
    except Exception as error:  # the other place a fault in reading a game is caught
        return _faulty_game(error, origin, game.index, game.source)
    if found:
        set_diagnostics(game, (*game.diagnostics, *found))
    return game


def _faulty_game(error: Exception, origin: GameSlice, index: int, filename: str | None) -> Game:
    """A broken game holding one internal-error diagnostic (AFN901) at its start."""
    problem = internal_error(error, doing="parsing this game", file=filename,
                             line=origin.line, column=origin.column, game=index)
    return Game(ended=origin.has_end, index=index, source=filename, diagnostics=(problem,),
                broken=True, span=Span(origin.line, origin.column, 0, 0, origin.start, origin.end))


def _bare_end(piece: GameSlice, index: int, filename: str | None) -> Game:
    """A game that is only the word "end" (a file of "end end end …" holds a quarter
    of a million of them per MB): what the grammar and :meth:`_GameAssembler.assemble`
    would give (a test holds it to that), without running either."""
    span = Span(piece.line, piece.column, 0, 0, piece.start, piece.end)
    game = make_game((), (), True, (), index, filename, (), span)
    set_diagnostics(game, (missing_tags(game),))  # all check_structure finds in it
    return game


def parse_file(path: str | Path) -> ParseResult:
    """Read and parse a file.  ``OSError`` is the caller's to report (exit 2 in the CLI)."""
    path = Path(path)
    return parse(path.read_bytes(), filename=str(path))


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
            if raw.isdigit() and int(raw) == SUPPORTED_VERSION:
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


# --- splitting coarse tokens ----------------------------------------------------------------------

_CARD = r"(?:10|[AKQJTakqjt2-9])[SHDCshdc♠♥♦♣♤♡♢♧]"
_PLAY_RE = re.compile(rf"(?:([0-9]+)\.\s*)?(?:([NESWnesw]):)?({_CARD})(!!|\?\?|!\?|\?!|!|\?)?")
_HAND_CARD_RE = re.compile(rf"{_CARD}|\?\?")
_TAG_RE = re.compile(r'\[[ \t]*([A-Za-z][A-Za-z0-9_]*)[ \t]+"((?:[^"\\\n]|\\.)*)"[ \t]*\]')
_DEAL_WORD_RE = re.compile(r"(?<![A-Za-z0-9_])(?i:deal)(?![A-Za-z0-9_])")
_ANY_CARD_RE = re.compile(rf"(?<![A-Za-z0-9_]){_CARD}")


def _count_cards(text: str, enough: int) -> int:
    """How many cards ``text`` writes, counting no further than ``enough``."""
    count = 0
    for _ in _ANY_CARD_RE.finditer(text):
        count += 1
        if count >= enough:
            break
    return count
_DEAL_RE = re.compile(r"\S+\s+([0-9]+)\s+\S+\s+(\S)")
_WORDS = re.compile(r"\S+")
_UNESCAPE = re.compile(r"\\(.)")
_GLYPHS = {glyph.value: glyph for glyph in Glyph}
_SEATS = {case(seat.value): seat for seat in Seat for case in (str.upper, str.lower)}


def _every_card_spelling() -> dict[str, Card]:
    """Each way ``_CARD`` can write a card (``JS``, ``js``, ``10h``, ``J♠``), and its card."""
    spellings: dict[str, Card] = {}
    for rank in ["10", *"AKQJTakqjt23456789"]:
        for suit in "SHDCshdc♠♥♦♣♤♡♢♧":
            card = parse_card(rank + suit)
            assert card is not None
            spellings[rank + suit] = card
    return spellings


# Every card a play can name, looked up by its text (one dict lookup per card read).
_CARDS = _every_card_spelling()

_CLAIM_ITEMS = {item.value: item for item in ClaimItem}


def unescape_tag_value(raw: str) -> str:
    return _UNESCAPE.sub(r"\1", raw) if "\\" in raw else raw


# --- assembling one game ------------------------------------------------------------------------

# Statement order within a deal: opening < play < ending < claim < total.  Penalties
# may be declared during or after play.
_STAGE = {
    "HAND": 0,
    "TURN": 0,
    "TURN_WORD": 0,  # "turn { c } 4S": a turn-up a comment cut
    "CALL": 0,
    "DISCARD": 0,
    "PACK": 0,
    "PLAYS": 1,
    "PENALTY": 1,
    "REDEAL": 2,
    "ABANDONED": 2,
    "RESULTS": 3,
    "CLAIM": 4,
    "TOTAL": 5,
}
_STAGE_NAMES = {
    0: "the opening",
    1: "the play",
    2: "the end of the deal",
    3: "the results",
    4: "the claim",
    5: "the total",
}


# Where a trick number stands: the PLAYS token's start offset in the file, the number's
# first and last index in the token.  Its own span is worked out only for a diagnostic.
_NumberPlace = tuple[int, int, int]
_N = TypeVar("_N", bound=Node)
_V = TypeVar("_V")


class _RawDeal:
    """A deal's nodes as read, before plays are grouped into tricks and comments
    attached (the nodes carry none yet).  It also stands for the deal's header among
    the game's nodes (the comments around ``deal 3 dealer N`` are the deal's own), so
    no header record is made only to be thrown away."""

    __slots__ = ("claim", "dealer", "ending", "number", "numbers", "opening", "penalties",
                 "plays", "results", "span", "total")

    def __init__(self, number: int, dealer: Seat, span: Span) -> None:
        self.number = number
        self.dealer = dealer
        self.span = span
        self.opening: list[OpeningEvent] = []
        self.plays: list[Play] = []
        # (index in ``plays``, the number written, where) for each play a trick number
        # precedes
        self.numbers: list[tuple[int, int, _NumberPlace]] = []
        self.penalties: list[Penalty] = []
        self.claim: Claim | None = None
        self.total: Total | None = None
        self.ending: Ending | None = None
        self.results: Results | None = None


# What the parser reads from a statement's text that recurs, worked out once per
# distinct text: "deal 3 dealer N", "S stands", "turn QS", "claim S high game N low",
# "total N 3 S 5".  Each map is emptied when it grows past this many texts, so a file
# of unique texts costs no more memory than a small one.
_MEMO_LIMIT = 4096
_DEAL_HEADERS: dict[str, tuple[int, Seat]] = {}
_CALLS: dict[str, tuple[Seat, CallKind | None]] = {}  # kind None: "S concedes"
_CLAIMS: dict[str, tuple[Award, ...]] = {}  # only claims read without a diagnostic
_TOTALS: dict[str, tuple[Score, ...]] = {}


def _remember(memo: dict[str, _V], text: str, value: _V) -> _V:
    if len(memo) >= _MEMO_LIMIT:
        memo.clear()
    memo[text] = value
    return value


def _deal_header(text: str) -> tuple[int, Seat]:
    """``deal 3 dealer N`` → (3, N)."""
    found = _DEAL_HEADERS.get(text)
    if found is None:
        match = _DEAL_RE.match(text)
        assert match is not None  # the DEAL terminal guarantees the shape
        found = _remember(_DEAL_HEADERS, text,
                          (int(match.group(1)), Seat.from_letter(match.group(2))))
    return found


def _call(text: str) -> tuple[Seat, CallKind | None]:
    """``S stands`` → (S, STANDS); ``S concedes`` → (S, None)."""
    found = _CALLS.get(text)
    if found is None:
        seat_text, verb = text.split()
        verb = verb.lower()
        kind = None if verb == "concedes" else CallKind(verb)
        found = _remember(_CALLS, text, (Seat.from_letter(seat_text), kind))
    return found


_PlayText = tuple[Card, Seat | None, Glyph | None]
_PLAY_WORDS: dict[str, _PlayText] = {}  # "S:JS" → its card, seat and glyph


def _play_word(word: str) -> tuple[_PlayText, int]:
    """A word of a run of plays that is not a lone trick number: the play it writes,
    and the length of the trick number written against it ("12." in "12.S:JS"), or 0
    (a play alone, then remembered in ``_PLAY_WORDS``)."""
    match = _PLAY_RE.fullmatch(word)
    assert match is not None  # the PLAYS terminal guarantees the shape
    number_text, seat_text, card_text, glyph_text = match.groups()
    play = (_CARDS[card_text], _SEATS[seat_text] if seat_text else None,
            _GLYPHS[glyph_text] if glyph_text else None)
    if number_text is None:
        return _remember(_PLAY_WORDS, word, play), 0
    return play, match.start(2 if seat_text else 3)


def _cards_of(parts: list[Token], skip: int) -> tuple[Card | None, ...]:
    """The cards of a hand, a discard or a pack written in ``parts`` (its first token
    starts with ``skip`` characters of seat or word); ``??`` is no card: None."""
    cards = _CARDS
    if len(parts) == 1:
        return tuple([cards.get(text) for text in parts[0].value[skip:].split()])
    found: list[Card | None] = []
    for number, part in enumerate(parts):
        found.extend(cards.get(text) for text in part.value[skip if number == 0 else 0:].split())
    return tuple(found)


def _scores(parts: list[Token]) -> tuple[Score, ...]:
    """``total N 0 S 4`` → its scores, read once per distinct text."""
    text = parts[0].value
    if len(parts) == 1:
        found = _TOTALS.get(text)
        if found is not None:
            return found
    words = [word for part in parts for word in part.value.split()][1:]
    scores = tuple(Score(_SEATS[words[i]], int(words[i + 1])) for i in range(0, len(words), 2))
    if len(parts) == 1:
        _remember(_TOTALS, text, scores)
    return scores


class _GameAssembler:
    """Parses one game slice and turns its tokens into a :class:`Game`."""

    def __init__(self, body: str, piece: GameSlice, *, index: int, filename: str | None) -> None:
        """``body`` is the game's text; ``piece`` says where it starts in its file."""
        self.piece = piece
        self.index = index
        self.filename = filename
        self.body = body
        self.line_base = piece.line - 1
        self.col_base = piece.column - 1
        self.offset_base = piece.start
        self.diagnostics: list[Diagnostic] = []
        # Every node made from the text, in the order made: where comments are
        # attached (when the game has any) and where the game's last line is found.
        self.nodes: list[Node | _RawDeal] = []
        # The comments of each node that has any, by the node's id().
        self.comments_of: dict[int, tuple[list[Comment], list[Comment]]] = {}
        self.current_deal: int | None = None
        # Spans keep offsets only; lines and columns come from here when first asked for.
        self.lines = TextLines(body, piece.start, piece.line, piece.column)

    # -- positions --

    def span_of(self, token: Token) -> Span:
        base = self.offset_base
        # Lark types the offsets Optional; its lexer always sets them (no cast():
        # a function call per token).
        return Span.at(self.lines, token.start_pos + base,  # type: ignore[operator]
                       token.end_pos + base)  # type: ignore[operator]

    def diag(
        self,
        code: str,
        message: str,
        span: Span | None,
        *,
        severity: Severity = Severity.ERROR,
        hint: str | None = None,
        trick: int | None = None,
    ) -> None:
        self.diagnostics.append(
            Diagnostic(
                code,
                severity,
                message,
                file=self.filename,
                line=span.line if span else self.piece.line,
                column=span.column if span else self.piece.column,
                end_column=(span.end_column if span and span.end_line == span.line else None),
                game=self.index,
                deal=self.current_deal,
                trick=trick,
                hint=hint,
            )
        )

    def finished(self, node: _N) -> _N:
        """``node`` with the comments attached to it."""
        found = self.comments_of.get(id(node))
        if found is None:
            return node
        leading, trailing = found
        return with_comments(node, tuple(leading), tuple(trailing))

    def all_finished(self, nodes: list[_N]) -> tuple[_N, ...]:
        comments_of = self.comments_of
        if not comments_of or comments_of.keys().isdisjoint(map(id, nodes)):
            return tuple(nodes)  # the usual case: nothing to attach (checked in C)
        return tuple(self.finished(node) for node in nodes)

    # -- reading --

    def read(self) -> ReadGame:
        """The game read, its structure not yet checked (see :func:`read_game_body`)."""
        if self.over_limit():
            return self.broken_game(), None, self.piece
        parse_text, collector = _game_parser()
        collector.comments = []
        collector.opened = None
        try:
            raw = parse_text(self.body)
        except TooManyComments:
            collector.comments = []
            self.report_limit(f"this game has more than {MAX_COMMENTS_PER_GAME:,} comments", 0)
            return self.broken_game(), None, self.piece
        except UnexpectedInput as error:
            self.syntax_error(error)
            return self.broken_game(), None, self.piece
        except RecursionError:  # pragma: no cover - LALR does not recurse; belt and braces
            self.diag("AFN101", "the game is too deeply nested to read", None)
            return self.broken_game(), None, self.piece
        found = collector.comments
        comments = [self.comment_of(token) for token in found] if found else []
        return self.read_tree(cast(list[Any], raw), comments)

    def over_limit(self) -> bool:
        """Report (AFN120) a game past one of the documented limits, which is then not
        read: more tags or deals than a game may hold, or a deal with more cards.

        Only a large game is looked at closely: the slicer has counted its tags and
        deals already, and the cards are counted only in a deal's text long enough
        to hold too many."""
        piece, problem, offset = self.piece, "", 0
        size = len(self.body)
        if not (piece.too_many_tags or piece.deals > MAX_DEALS_PER_GAME or
                size > 2 * MAX_CARDS_PER_DEAL or size > 2 * MAX_CARDS_PER_GAME):
            return False  # a small game passes no limit (nearly every game)
        if piece.too_many_tags:
            problem = f"this game has more than {MAX_TAGS_PER_GAME:,} tags"
        elif piece.deals > MAX_DEALS_PER_GAME:
            problem = f"this game has {piece.deals:,} deals, more than {MAX_DEALS_PER_GAME:,}"
        elif size > 2 * MAX_CARDS_PER_GAME and \
                (cards := _count_cards(self.body, MAX_CARDS_PER_GAME + 1)) > MAX_CARDS_PER_GAME:
            problem = f"this game has more than {MAX_CARDS_PER_GAME:,} cards"
        elif size > 2 * MAX_CARDS_PER_DEAL:
            starts = [deal.start() for deal in _DEAL_WORD_RE.finditer(self.body)]
            # each deal runs to the next one's start; no deal word at all: nothing to count
            for start, end in pairwise([*starts, len(self.body)]):
                if end - start <= 2 * MAX_CARDS_PER_DEAL:
                    continue
                cards = len(_ANY_CARD_RE.findall(self.body, start, end))
                if cards > MAX_CARDS_PER_DEAL:
                    problem = f"this deal has {cards:,} cards, more than {MAX_CARDS_PER_DEAL:,}"
                    offset = start
                    break
        if not problem:
            return False
        self.report_limit(problem, offset)
        return True

    def report_limit(self, problem: str, offset: int) -> None:
        """AFN120 for a game that is not read: at the deal word at ``offset`` in it
        (underlined), or at the game's start (``offset`` 0)."""
        line = self.body.count("\n", 0, offset) + 1
        column = offset - self.body.rfind("\n", 0, offset)
        absolute_column = column + (self.col_base if line == 1 else 0)
        self.diag(
            LIMIT_CODE,
            f"{problem}; the game is not read (see 'Limits' in NOTATION.md)",
            Span(line + self.line_base, absolute_column, line + self.line_base,
                 absolute_column + (4 if offset else 1), offset + self.offset_base,
                 offset + self.offset_base),
            hint="split the record into smaller games; no real game comes near this",
        )

    def comment_of(self, token: Token) -> tuple[Comment, Span]:
        span = self.span_of(token)
        value = str(token)
        if value.startswith("{"):
            # Line breaks inside a comment are kept as LF, whatever the file used.
            return Comment(value[1:-1].replace("\r\n", "\n"), CommentStyle.BRACE, span), span
        return Comment(value[1:].rstrip("\r"), CommentStyle.LINE, span), span

    def assemble(self, children: list[Any], comments: list[tuple[Comment, Span]]) -> Game:
        """The game made of the grammar's tree, its structure checked."""
        return check_read_game(self.read_tree(children, comments))

    def read_tree(self, children: list[Any], comments: list[tuple[Comment, Span]]) -> ReadGame:
        """The game made of the grammar's tree, its structure not yet checked."""
        tag_nodes: list[Tag] = []
        raw_deals: list[_RawDeal] = []
        ended = False
        for child in children:
            if isinstance(child, Token):
                if child.type == "TAGS":
                    self.add_tags(tag_nodes, child)
                else:  # END
                    ended = True
            else:
                raw_deals.append(self.raw_deal(child))
        game_trailing = self.attach_comments(comments) if comments else ()
        tags = sorted_tags(self.all_finished(tag_nodes)) if tag_nodes else ()
        seats = self.seats_for(tags, raw_deals)
        players = len(seats)
        deals = tuple([self.build_deal(raw, players) for raw in raw_deals])
        piece = self.piece
        span = Span(piece.line, piece.column, 0, 0, piece.start, piece.end)
        # Made once, its diagnostics set when known (the structure checks read the
        # game, not its diagnostics): see set_diagnostics.
        game = make_game(tags, deals, ended, game_trailing, self.index, self.filename, (), span)
        if not ended:
            self.diag(
                "AFN104",
                "this game has no 'end'",
                self.last_span(),
                severity=Severity.WARNING,
                hint="close every game with the word 'end'",
            )
        self.current_deal = None
        set_diagnostics(game, tuple(self.diagnostics))
        return game, seats, piece

    def last_span(self) -> Span | None:
        if not self.nodes:
            return None
        end_line = cast(Span, self.nodes[-1].span).end_line
        return Span(end_line, 1, end_line, 1, 0, 0)

    def seats_for(self, tags: tuple[Tag, ...], raw_deals: list[_RawDeal]) -> tuple[Seat, ...]:
        """The seats at the table: named by the player tags, or else those the deals use
        (:func:`.table.add_seats`, the rule :func:`.table.seats_of_game` reads too)."""
        named = seats_named(tags) if tags else None
        if named:  # as seats_of_game reads the tags
            return clockwise(named)
        used: set[Seat] = set()
        for raw in raw_deals:
            used.add(raw.dealer)
            add_seats(used, raw.opening)
            add_seats(used, raw.plays)
        return clockwise(used)

    # -- comments --

    def attach_comments(self, comments: list[tuple[Comment, Span]]) -> tuple[Comment, ...]:
        """Give each comment to the node it stands beside; return the game's own.

        A comment inside a statement (between two cards of a hand, two words of a
        claim) leads that statement: the formatter writes it on a line of its own
        before the statement, where it reads back the same whatever its style (a
        line comment could not trail a statement followed by more comments).  A
        comment on the same line as the end of a node, with no node after it on that
        line, trails that node; any other comment leads the next node.  Comments
        after the last node belong to the game.
        """
        if not comments:
            return ()
        nodes = self.nodes
        starts = [node.span.start for node in nodes]  # type: ignore[union-attr]
        if not all(map(operator.le, starts, starts[1:])):  # nodes are made in text order
            order = sorted(range(len(nodes)), key=starts.__getitem__)
            nodes = [nodes[place] for place in order]
            starts = [starts[place] for place in order]
        game_trailing: list[Comment] = []
        # Whether two places are on one line: no line feed between them in the game's
        # text (no line index is built for it).
        body, base = self.body, self.offset_base
        for comment, span in comments:
            start, end = span.start, span.end
            after = bisect.bisect_left(starts, end)
            previous = nodes[after - 1] if after > 0 else None
            following = nodes[after] if after < len(nodes) else None
            if previous is not None:
                previous_end = cast(Span, previous.span).end
                if start < previous_end:  # inside it
                    self.comments_here(previous)[0].append(comment)
                    continue
                same_line = body.find("\n", previous_end - base, start - base) < 0
                next_on_line = following is not None and \
                    body.find("\n", end - base, starts[after] - base) < 0
                if same_line and not next_on_line:
                    self.comments_here(previous)[1].append(comment)
                    continue
            if following is not None:
                self.comments_here(following)[0].append(comment)
            else:
                game_trailing.append(comment)
        return tuple(game_trailing)

    def comments_here(self, node: Node | _RawDeal) -> tuple[list[Comment], list[Comment]]:
        """The leading and trailing comments of ``node``, to be added to."""
        return self.comments_of.setdefault(id(node), ([], []))

    # -- tokens → nodes --

    def add_tags(self, tags: list[Tag], token: Token) -> None:
        """Split a block of tags (one token, so that Lark reads a header in one step)."""
        lines, base = self.lines, token.start_pos + self.offset_base  # type: ignore[operator]
        block = [Tag(name=match.group(1), value=unescape_tag_value(match.group(2)),
                     span=Span.at(lines, base + match.start(), base + match.end()))
                 for match in _TAG_RE.finditer(token.value)]
        tags.extend(block)
        self.nodes.extend(block)

    def raw_deal(self, children: list[Any]) -> _RawDeal:
        """One deal's statements → its nodes, with the order of statements checked.

        The hot loop of reading: a statement is a token (or, cut by comments, a list
        of them), sent on by its type; the texts that recur are read once
        (``_deal_header``, ``_call``, the claim and total memos)."""
        header: Token = children[0]
        number, dealer = _deal_header(header.value)
        self.current_deal = number
        lines, base, at = self.lines, self.offset_base, Span.at
        raw = _RawDeal(number, dealer, at(lines, header.start_pos + base,  # type: ignore[operator]
                                          header.end_pos + base))  # type: ignore[operator]
        nodes = self.nodes
        nodes.append(raw)
        stage = 0
        for child in children[1:]:
            if type(child) is list:  # a statement a comment cut: its tokens
                parts: list[Token] = child
                token = parts[0]
                end = parts[-1].end_pos
            else:
                token = child
                parts = [token]
                end = token.end_pos
            kind = token.type
            value = token.value
            span = at(lines, token.start_pos + base, end + base)  # type: ignore[operator]
            call = None
            if kind == "CALL":
                call = _call(value)
                token_stage = 0 if call[1] is not None else 2
            else:
                token_stage = _STAGE[kind]
            if raw.ending is not None and kind != "CLAIM" and kind != "TOTAL" and \
                    kind != "RESULTS":
                self.diag("AFN206", f"{_describe(token)} after the deal has ended", span)
            elif token_stage < stage and not (kind == "PENALTY" and stage <= 2):
                self.diag(
                    "AFN206",
                    f"{_describe(token)} belongs to {_STAGE_NAMES[token_stage]}, but comes after "
                    f"{_STAGE_NAMES[stage]}",
                    span,
                    hint="a deal is written in table order: hands, turn-up, stand or beg, "
                    "tricks, penalties, claim, total",
                )
            if token_stage > stage:
                stage = token_stage
            if kind == "PLAYS":
                self.add_plays(raw, value, span.start)
                continue
            node: Node
            if kind == "HAND":
                node = make_hand(_SEATS[value[0]], _cards_of(parts, 1), span)
                raw.opening.append(node)
            elif call is not None:
                seat, call_kind = call
                if call_kind is None:
                    node = Concede(seat=seat, span=span)
                    self.set_ending(raw, node)
                else:
                    node = make_call(seat, call_kind, span)
                    raw.opening.append(node)
            elif kind == "TURN" or kind == "TURN_WORD":
                node = make_turnup(_CARDS[parts[-1].value.split()[-1]], span)
                raw.opening.append(node)
            elif kind == "CLAIM":
                if raw.claim is not None:
                    self.diag("AFN206", "a deal has one claim; merge the two", span)
                    continue
                node = raw.claim = self.claim(parts, span)
            elif kind == "RESULTS":
                if raw.results is not None:
                    self.diag("AFN206", "a deal has one line of results; merge the two", span)
                    continue
                director = value[:8].lower() == "director"
                node = raw.results = Results(
                    awards=self.claim_awards(parts, span, skip=2 if director else 1),
                    director=director, span=span)
            elif kind == "TOTAL":
                if raw.total is not None:
                    self.diag("AFN206", "a deal has one total", span)
                    continue
                node = raw.total = make_total(_scores(parts), span)
            else:
                node = self.other_statement(raw, kind, parts, span)
            nodes.append(node)
        return raw

    def other_statement(self, raw: _RawDeal, kind: str, parts: list[Token], span: Span) -> Node:
        """The statements most deals do without: a discard, a pack, a penalty, a redeal,
        an abandoned deal."""
        value = parts[0].value
        if kind == "DISCARD":
            skip = value.lower().index("discards") + len("discards")
            discard = Discard(seat=_SEATS[value[0]], cards=_cards_of(parts, skip), span=span)
            raw.opening.append(discard)
            return discard
        if kind == "PACK":
            pack = Pack(cards=_cards_of(parts, len("pack")), span=span)
            raw.opening.append(pack)
            return pack
        if kind == "PENALTY":
            _, seat_text, what = value.split()
            penalty = Penalty(offender=_SEATS[seat_text], kind=PenaltyKind(what.lower()),
                              span=span)
            raw.penalties.append(penalty)
            return penalty
        ending: Ending
        if kind == "REDEAL":
            ending = Redeal(reason=RedealReason(value.split()[-1].lower()), span=span)
        else:  # ABANDONED
            ending = Abandoned(span=span)
        self.set_ending(raw, ending)
        return ending

    def set_ending(self, raw: _RawDeal, ending: Ending) -> None:
        if raw.ending is None:
            raw.ending = ending
        else:
            self.diag("AFN206", "a deal can end only once", ending.span)

    def add_plays(self, raw: _RawDeal, text: str, base: int) -> None:
        """Split a run of plays (``text``, at file offset ``base``) and make a record per
        card, and nothing else (a span keeps offsets; its line and column are worked
        out only if something asks).

        The PLAYS terminal is plays and trick numbers ("12.") with whitespace between
        them, so its words are those, each found from where the last one ended; a
        play's text ("S:JS", "n:10h!?") is read once and remembered (a few hundred
        of them recur throughout a file)."""
        plays = raw.plays
        first = len(plays)
        lines, memo, at, play_of, append = self.lines, _PLAY_WORDS, Span.at, make_play, \
            plays.append
        find = text.find
        end = 0
        for word in text.split():
            start = find(word, end)
            end = start + len(word)
            play = memo.get(word)
            if play is None:
                if word[-1] == ".":  # a trick number before the next play
                    raw.numbers.append((len(plays), int(word[:-1]), (base, start, end)))
                    continue
                play, number_length = _play_word(word)
                if number_length:  # "12.S:JS": a trick number written against its play
                    raw.numbers.append((len(plays), int(word[:number_length - 1]),
                                        (base, start, start + number_length)))
                    start += number_length
            append(play_of(play[0], play[1], play[2], at(lines, base + start, base + end)))
        self.nodes.extend(plays[first:])

    def claim(self, parts: list[Token], span: Span) -> Claim:
        """A claim's awards: read once per distinct text (a claim with a problem, or cut
        by a comment, is read every time, so that each diagnostic is given)."""
        text = parts[0].value
        if len(parts) == 1:
            awards = _CLAIMS.get(text)
            if awards is not None:
                return make_claim(awards, span)
        found = len(self.diagnostics)
        awards = self.claim_awards(parts, span)
        if len(parts) == 1 and len(self.diagnostics) == found:
            _remember(_CLAIMS, text, awards)
        return make_claim(awards, span)

    def claim_awards(self, parts: list[Token], span: Span, *,
                     skip: int = 1) -> tuple[Award, ...]:
        awards: list[Award] = []
        seat: Seat | None = None
        for token_start, word_match in self.claim_words(parts, span, skip):
            word = word_match.group()
            lower = word.lower()
            if lower in _CLAIM_ITEMS:
                if seat is None:
                    self.diag(
                        "AFN213",
                        f"claim item '{word}' has no seat before it",
                        Span.at(self.lines, token_start + word_match.start(),
                                token_start + word_match.end()),
                        hint="write the seat first: claim S high low",
                    )
                    continue
                awards.append(Award(seat, _CLAIM_ITEMS[lower]))
            elif word.isdigit():
                if not awards or awards[-1].points is not None:
                    self.diag(
                        "AFN213",
                        f"the number {word} follows no claim item",
                        Span.at(self.lines, token_start + word_match.start(),
                                token_start + word_match.end()),
                        hint="a number gives the points of the item before it: N kick 3",
                    )
                    continue
                last = awards[-1]
                awards[-1] = Award(last.seat, last.item, int(word))
            else:
                seat = _SEATS[word]
        # A claim is a set of awards: keep them grouped by seat, seats in the order they
        # first appear (stable within a seat), which is the order the formatter writes.
        first_seen = {award.seat: place for place, award in reversed(list(enumerate(awards)))}
        awards.sort(key=lambda award: first_seen[award.seat])
        return tuple(awards)

    def claim_words(self, parts: list[Token], span: Span,
                    skip: int = 1) -> Iterator[tuple[int, re.Match[str]]]:
        """Each word of a claim after 'claim' (the first ``skip`` words), with the file
        offset of the token it stands in (for the span of a word named in a diagnostic)."""
        for number, token in enumerate(parts):
            token_start = span.start if number == 0 else \
                token.start_pos + self.offset_base  # type: ignore[operator]
            words = _WORDS.finditer(token.value)
            if number == 0:
                for _ in range(skip):
                    next(words)  # the word 'claim' ('scored', 'director scored')
            for word_match in words:
                yield token_start, word_match

    # -- nodes → deal --

    def build_deal(self, raw: _RawDeal, players: int) -> Deal:
        self.current_deal = raw.number
        leading: tuple[Comment, ...] = ()
        trailing: tuple[Comment, ...] = ()
        claim, total, ending, results = raw.claim, raw.total, raw.ending, raw.results
        if self.comments_of:
            found = self.comments_of.get(id(raw))
            if found is not None:
                leading, trailing = tuple(found[0]), tuple(found[1])
            finished = self.finished
            claim = finished(claim) if claim else None
            total = finished(total) if total else None
            ending = finished(ending) if ending else None
            results = finished(results) if results else None
        return make_deal(raw.number, raw.dealer, self.all_finished(raw.opening),
                         self.group_tricks(raw, max(players, 1)) if raw.plays else (),
                         self.all_finished(raw.penalties) if raw.penalties else (),
                         claim, total, ending, leading, trailing, raw.span, results)

    def group_tricks(self, raw: _RawDeal, players: int) -> tuple[Trick, ...]:
        """Plays → tricks.  A trick number starts a trick that runs to the next number,
        as the writer grouped it; unnumbered plays make a trick every ``players`` cards."""
        plays = raw.plays
        numbers = raw.numbers
        # Where each trick begins: plays before the first number (all of them, when none
        # is written) are cut every ``players`` cards; then each number begins one.
        begins = list(range(0, numbers[0][0] if numbers else len(plays), players))
        unnumbered = len(begins)
        begins.extend([begin for begin, _, _ in numbers])
        ends = begins[1:]
        ends.append(len(plays))
        lines, at, trick_of = self.lines, Span.at, make_trick
        finish = None if not self.comments_of else self.all_finished
        tricks: list[Trick] = []
        for number, (begin, end) in enumerate(zip(begins, ends, strict=True), start=1):
            cards = tuple(plays[begin:end]) if finish is None else finish(plays[begin:end])
            tricks.append(trick_of(number, cards, number > unnumbered,
                                   at(lines, cards[0].span.start,  # type: ignore[union-attr]
                                      cards[-1].span.end)))  # type: ignore[union-attr]
        for number, (_, written, (base, first, last)) in enumerate(numbers, unnumbered + 1):
            if written != number:
                self.diag(
                    "AFN207",
                    f"trick numbered {written} is trick {number} of this deal",
                    at(lines, base + first, base + last),
                    severity=Severity.WARNING,
                    trick=number,
                )
        return tuple(tricks)


    # -- errors --

    def syntax_error(self, error: UnexpectedInput) -> None:
        position = getattr(error, "pos_in_stream", None)
        if isinstance(error, UnexpectedToken) and isinstance(error.token, Token):
            position = error.token.start_pos
        if isinstance(error, UnexpectedEOF) or position is None or position >= len(self.body):
            position = len(self.body.rstrip())
        explanation = explain(error, self.body, position, _lark()[1].opened)
        offset = explanation.offset
        line = self.body.count("\n", 0, offset) + 1
        column = offset - self.body.rfind("\n", 0, offset)
        absolute_column = column + (self.col_base if line == 1 else 0)
        self.diagnostics.append(
            Diagnostic(
                explanation.code,
                Severity.ERROR,
                explanation.message,
                file=self.filename,
                line=line + self.line_base,
                column=absolute_column,
                end_column=absolute_column + explanation.length,
                game=self.index,
                deal=deal_number_before(self.body, offset),
                hint=explanation.hint,
            )
        )

    def broken_game(self) -> Game:
        # The tags as the slicer reads them (a game that does not parse is not read
        # further); a text without a '[' has none, and is not scanned again for them.
        scanned = slice_games(self.body).games if "[" in self.body else ()
        found = header_tags(self.body, scanned[0], MAX_TAGS_PER_GAME) if scanned else []
        positions = line_columns(self.body, [tag.offset for tag in found])
        tags = tuple(
            _tag_from_scan(tag, position, self.line_base, self.col_base, self.offset_base)
            for tag, position in zip(found, positions, strict=True)
        )
        tags = sorted_tags(tags)
        return Game(
            tags=tags,
            ended=self.piece.has_end,
            index=self.index,
            source=self.filename,
            diagnostics=tuple(self.diagnostics),
            broken=True,
            span=Span(self.piece.line, self.piece.column, 0, 0, self.piece.start, self.piece.end),
        )


def _tag_from_scan(tag: HeaderTag, position: tuple[int, int], line_base: int, col_base: int,
                   offset_base: int) -> Tag:
    """A tag read by the slicer (``position``: its line and column in the game's text)."""
    tag_line, tag_column = position
    line = tag_line + line_base
    column = tag_column + (col_base if tag_line == 1 else 0)
    offset = tag.offset + offset_base
    return Tag(
        name=tag.name,
        value=unescape_tag_value(tag.value),
        span=Span(line, column, line, column, offset, offset),
    )


def _describe(token: Token) -> str:
    words = str(token).split()
    first = words[0].lower() if words else ""
    if token.type == "PLAYS":
        return "play"
    if token.type == "HAND":
        return f"the hand of {words[0].upper()}"
    if token.type in ("CALL", "DISCARD"):
        return f"'{' '.join(words[:2])}'"
    return f"'{first}'"


# Re-exported for :mod:`.stream`.
__all__ = [
    "ROSTER",
    "FileReader",
    "ParseResult",
    "cyclic_gc_paused",
    "grammar_text",
    "parse",
    "parse_file",
    "parse_game_slice",
    "read_games",
    "unescape_tag_value",
]
