"""The typed records an AFN file parses into.

Everything here is a frozen, slotted dataclass: records are values, safe to
share between the replayer, the formatter and the viewer.  A record keeps what
the writer wrote (a seat label left out stays ``None``) so that a formatter can
prove it lost nothing; inferred facts come from :mod:`allfours_notation.referee`.

Every node carries the comments written around it (``leading`` before it,
``trailing`` after it on the same line) and a :class:`Span` that is excluded
from equality, so two parses of differently laid-out text compare equal.
"""

from __future__ import annotations

import re
from bisect import bisect_left
from collections.abc import Callable, Iterator
from dataclasses import FrozenInstanceError, field, fields
from enum import Enum
from typing import Any, TypeVar, cast

from ..cards import Card, Seat
from ..diagnostics import Diagnostic, Severity
from ..frozen import draft_of, frozen


class TextLines:
    """Where the lines of one game's text start, found the first time a position is asked.

    Records made by the parser keep only offsets (a :class:`Span` per card would
    otherwise cost two line/column counts each); a span turns its offsets into lines
    and columns through this index when a diagnostic, an export or the formatter
    asks.  ``body`` is the game's text, which starts at ``offset`` in its file, on
    line ``line`` and column ``column`` of the file.  Lines end at a line feed only,
    as Lark counts them.
    """

    __slots__ = ("_breaks", "body", "column", "line", "offset")

    def __init__(self, body: str, offset: int = 0, line: int = 1, column: int = 1) -> None:
        self.body = body
        self.offset = offset
        self.line = line
        self.column = column
        self._breaks: list[int] | None = None

    def at(self, offset: int) -> tuple[int, int]:
        """The file's 1-based (line, column) of the file offset ``offset``."""
        breaks = self._breaks
        local = offset - self.offset
        if breaks is None:
            if 0 <= local <= _COUNTED_NEAR_START:  # counted: a small game's few positions
                before = self.body.count("\n", 0, local)
                if before:
                    return self.line + before, local - self.body.rfind("\n", 0, local)
                return self.line, local + self.column
            breaks = self._breaks = [m.start() for m in _LINE_FEED.finditer(self.body)]
        before = bisect_left(breaks, local)  # line feeds before ``local``
        if before:
            return self.line + before, local - breaks[before - 1]
        return self.line, local + self.column


_LINE_FEED = re.compile("\n")
# A position this near its game's start is counted from the start rather than looked
# up in the index of line starts, which is made only for a position further in: most
# findings of a small game are at its start or its first deal's header, and making
# the index cost more than counting (a file of thousands of tiny games).  Counting is
# bounded by this, so a large game still costs one index and a look-up per position.
_COUNTED_NEAR_START = 256
_Where = tuple[int, int, int, int]


class Span:
    """Where a node stands in its file: 1-based line/column, 0-based offsets.

    Immutable, equal and hashed on all six numbers, like the frozen dataclass it
    replaces.  ``Span(line, column, end_line, end_column, start, end)`` gives every
    number; :meth:`at` keeps only the offsets and works out lines and columns from
    the game's :class:`TextLines` when first read, which is what makes reading a
    file cheap (most spans are never looked at).
    """

    __slots__ = ("_where", "end", "start")
    __match_args__ = ("line", "column", "end_line", "end_column", "start", "end")

    start: int
    end: int
    _where: _Where | TextLines

    def __init__(self, line: int, column: int, end_line: int, end_column: int, start: int,
                 end: int) -> None:
        _set_start(self, start)
        _set_end(self, end)
        _set_where(self, (line, column, end_line, end_column))

    @staticmethod
    def at(lines: TextLines, start: int, end: int) -> Span:
        """The span of the file offsets ``start``-``end``, lines and columns left to ``lines``."""
        span: Any = _new(SpanDraft)
        span.start = start
        span.end = end
        span._where = lines
        span.__class__ = Span
        return span  # type: ignore[no-any-return]

    def position(self) -> tuple[int, int, int, int]:
        """(line, column, end_line, end_column) at once: one call where the four
        properties are four (a diagnostic reads them all).  Worked out from the
        game's lines when first asked for, then kept."""
        where = self._where
        if type(where) is tuple:
            return where
        assert isinstance(where, TextLines)
        line, column = where.at(self.start)
        end_line, end_column = where.at(self.end)
        found = (line, column, end_line, end_column)
        _set_where(self, found)  # worked out once; the index is no longer needed
        return found

    @property
    def line(self) -> int:
        return self.position()[0]

    @property
    def column(self) -> int:
        return self.position()[1]

    @property
    def end_line(self) -> int:
        return self.position()[2]

    @property
    def end_column(self) -> int:
        return self.position()[3]

    def _key(self) -> tuple[int, int, int, int, int, int]:
        return (*self.position(), self.start, self.end)

    def __eq__(self, other: object) -> bool:
        if type(other) is not Span:
            return NotImplemented
        return self._key() == other._key()

    def __hash__(self) -> int:
        return hash(self._key())

    def __repr__(self) -> str:
        line, column, end_line, end_column = self.position()
        return (f"Span(line={line}, column={column}, end_line={end_line}, "
                f"end_column={end_column}, start={self.start}, end={self.end})")

    def __setattr__(self, name: str, value: object) -> None:
        raise FrozenInstanceError(f"cannot assign to field {name!r}")

    def __delattr__(self, name: str) -> None:
        raise FrozenInstanceError(f"cannot delete field {name!r}")

    def __reduce__(self) -> tuple[type[Span], tuple[int, int, int, int, int, int]]:
        """Copies and pickles carry every number (not the game's text)."""
        return (Span, self._key())


_new = object.__new__


# A span being filled in (Span.at; the assembler fills a play's span in its own loop).
SpanDraft = draft_of(Span)
# The slots' own setters: how a span is filled in without its refusing __setattr__.
_set_start = cast(Any, Span.__dict__["start"]).__set__
_set_end = cast(Any, Span.__dict__["end"]).__set__
_set_where = cast(Any, Span.__dict__["_where"]).__set__


class CommentStyle(Enum):
    BRACE = "brace"  # { ... }, may span lines
    LINE = "line"  # ; ... to the end of the line


@frozen
class Comment:
    """A comment, its text without the delimiters, exactly as written."""

    text: str
    style: CommentStyle = CommentStyle.BRACE
    span: Span | None = field(default=None, compare=False, repr=False)

    def __str__(self) -> str:
        return "{" + self.text + "}" if self.style is CommentStyle.BRACE else ";" + self.text


@frozen(kw_only=True)
class Node:
    """Base of every record that can carry comments and a source position."""

    leading: tuple[Comment, ...] = ()
    trailing: tuple[Comment, ...] = ()
    span: Span | None = field(default=None, compare=False, repr=False)


# --- header -------------------------------------------------------------------------------


@frozen(kw_only=True)
class Tag(Node):
    """A header tag pair ``[Name "value"]``; unknown tags are kept verbatim."""

    name: str
    value: str


# --- the opening of a deal: hands, turn-ups, stand / beg / give / run ------------------------


@frozen(kw_only=True)
class Hand(Node):
    """Cards one seat received: the dealt hand, or the three cards of one run.

    ``None`` stands for ``??``, a card nobody saw.
    """

    seat: Seat
    cards: tuple[Card | None, ...]

    @property
    def known_cards(self) -> tuple[Card, ...]:
        return tuple(c for c in self.cards if c is not None)


@frozen(kw_only=True)
class TurnUp(Node):
    """A turned-up card (``turn 4S``): the first fixes trumps, later ones come from runs."""

    card: Card


class CallKind(Enum):
    STANDS = "stands"
    BEGS = "begs"
    GIVES = "gives"
    RUNS = "runs"


@frozen(kw_only=True)
class Call(Node):
    """``S stands``, ``S begs``, ``N gives`` (take one) or ``N runs`` (the cards)."""

    seat: Seat
    kind: CallKind


@frozen(kw_only=True)
class Discard(Node):
    """``S discards 9H 8H 7C``: the cards a seat put out after a run, where the rules make
    every player discard down to six (``hand_after_run``); ``None`` is a card nobody saw."""

    seat: Seat
    cards: tuple[Card | None, ...]


@frozen(kw_only=True)
class Pack(Node):
    """``pack AS 7D …``: the 52 cards in the order they were dealt, top card first; the
    hands, the turn-up and the cards of each run follow from it, the number of players
    and ``deal_pattern``.  ``None`` is a card nobody saw."""

    cards: tuple[Card | None, ...]


OpeningEvent = Hand | TurnUp | Call | Discard | Pack


# --- play ---------------------------------------------------------------------------------


class Glyph(Enum):
    GOOD = "!"
    POOR = "?"
    BRILLIANT = "!!"
    BLUNDER = "??"
    INTERESTING = "!?"
    DUBIOUS = "?!"


@frozen(kw_only=True)
class Play(Node):
    """One card played; ``seat`` is ``None`` when the writer left the label out."""

    card: Card
    seat: Seat | None = None
    glyph: Glyph | None = None


# The factories (make_play, make_trick, the statements', make_deal, make_game) fill in
# drafts: worth 10.4%, 0.4% and 5.2% of ``check`` on the bench's corpus (2,000 deals), tiny
# games and varied small games when they first filled slots rather than went through the
# frozen ``__init__`` (issue 22); as drafts, a sixth of reading a game less (issue 38).
def make_play(card: Card, seat: Seat | None, glyph: Glyph | None, span: Span | None) -> Play:
    """``Play(card=card, seat=seat, glyph=glyph, span=span)``, built for the parser.

    The same frozen record, filled in as a draft (:func:`..frozen.draft_of`) rather than through
    the frozen dataclass's ``__init__``: a play is made for every card of every file
    read."""
    play: Any = _new(PlayDraft)
    play.card = card
    play.seat = seat
    play.glyph = glyph
    play.span = span
    play.leading = ()
    play.trailing = ()
    play.__class__ = Play
    return play  # type: ignore[no-any-return]


# A play being filled in (make_play; the assembler fills plays in its own loop).
PlayDraft = draft_of(Play)


def with_seat(play: Play, seat: Seat) -> Play:
    """``dataclasses.replace(play, seat=seat)``, copied like :func:`make_play`: ``fmt``
    names the seat of every card of a file written without seat labels; worth 5.0% of
    its instructions on 1,000 such deals (issue 27)."""
    copy: Any = _new(PlayDraft)
    copy.card = play.card
    copy.seat = seat
    copy.glyph = play.glyph
    copy.span = play.span
    copy.leading = play.leading
    copy.trailing = play.trailing
    copy.__class__ = Play
    return copy  # type: ignore[no-any-return]


_N = TypeVar("_N", bound=Node)


def _statement_maker(kind: type[_N], *names: str) -> Callable[..., _N]:
    """A function making a ``kind`` record from the values of ``names`` and a span, no
    comments, filled in as a draft like :func:`make_play`: the parser makes a record per
    statement of every deal it reads (hands, turn-ups, calls, claims, totals), a few
    times faster than through the frozen ``__init__``."""
    draft = draft_of(kind)
    if len(names) == 1:
        (first_name,) = names

        def make_one(first: object, span: Span | None) -> _N:
            record: Any = _new(draft)
            setattr(record, first_name, first)
            record.span = span
            record.leading = ()
            record.trailing = ()
            record.__class__ = kind
            return record  # type: ignore[no-any-return]
        return make_one
    first_name, second_name = names

    def make_two(first: object, second: object, span: Span | None) -> _N:
        record: Any = _new(draft)
        setattr(record, first_name, first)
        setattr(record, second_name, second)
        record.span = span
        record.leading = ()
        record.trailing = ()
        record.__class__ = kind
        return record  # type: ignore[no-any-return]
    return make_two


# The field names of each record type, in field order (see with_comments).
_fields_of: dict[type, tuple[str, ...]] = {}


def with_comments(node: _N, leading: tuple[Comment, ...], trailing: tuple[Comment, ...]) -> _N:
    """``dataclasses.replace(node, leading=leading, trailing=trailing)``, for the parser,
    which attaches comments to every record that has any: a copy made as a draft
    (``replace`` goes through the frozen ``__init__``, a few times slower)."""
    kind = type(node)
    names = _fields_of.get(kind)
    if names is None:
        names = _fields_of[kind] = tuple(f.name for f in fields(kind))
    copy: Any = _new(draft_of(kind))
    for name in names:
        setattr(copy, name, getattr(node, name))
    copy.leading = leading
    copy.trailing = trailing
    copy.__class__ = kind
    return copy  # type: ignore[no-any-return]


@frozen(kw_only=True)
class Trick(Node):
    """The cards of one trick in play order, leader first.

    ``number`` is the trick's place in the deal (1-based), whether or not the
    writer numbered it; ``numbered`` says whether the writer did.
    """

    number: int
    plays: tuple[Play, ...]
    numbered: bool = field(default=True, compare=False)


def make_trick(number: int, plays: tuple[Play, ...], numbered: bool, span: Span | None) -> Trick:
    """``Trick(number=…, plays=…, numbered=…, span=…)`` built like :func:`make_play`."""
    trick: Any = _new(_DraftTrick)
    trick.number = number
    trick.plays = plays
    trick.numbered = numbered
    trick.span = span
    trick.leading = ()
    trick.trailing = ()
    trick.__class__ = Trick
    return trick  # type: ignore[no-any-return]


_DraftTrick = draft_of(Trick)


# --- after play: penalties, claims, totals, and how a deal ended ----------------------------


class PenaltyKind(Enum):
    REVOKE = "revoke"
    UNDERTRUMP = "undertrump"
    MISDEAL = "misdeal"
    WRONG_SCORE = "wrongscore"
    OTHER = "other"


@frozen(kw_only=True)
class Penalty(Node):
    """A penalty declared at the table: ``penalty S revoke`` names the offender.

    ``after_plays``: how many cards of the deal were played when it was declared, so
    that it is written where it was called (after the trick holding that card; None:
    after the tricks).  Where it stands is not what it means: not compared.
    """

    offender: Seat
    kind: PenaltyKind
    after_plays: int | None = field(default=None, compare=False)


class ClaimItem(Enum):
    """What a point can be scored for.  ``kick`` is a point for the turn-up
    (Hoffmann's turned Jack; Trinidad's kicks)."""

    KICK = "kick"
    GIFT = "gift"
    HIGH = "high"
    LOW = "low"
    JACK = "jack"
    HANG_JACK = "hangjack"
    GAME = "game"
    PENALTY = "penalty"

    # Enum members are singletons, so the identity hash (in C) is a valid one; the
    # scorer and the dispute report key dicts by item for every deal.
    __hash__ = object.__hash__


@frozen
class Award:
    """One claimed item: who took it and, if the writer said, for how many points."""

    seat: Seat
    item: ClaimItem
    points: int | None = None


@frozen(kw_only=True)
class Claim(Node):
    """``claim S high low jack game N kick``: what the players say they scored.

    A claim is complete: an item not listed is claimed to have gone to nobody.
    """

    awards: tuple[Award, ...]


@frozen(kw_only=True)
class Results(Node):
    """``scored N kick 3 W high low S jack game``: a deal recorded by its results alone.

    The items each side took, as the scorer chalked them, in place of the cards
    played: the referee scores the deal from them (after checking what results
    alone allow) instead of from tricks.  A ``claim`` beside them is the other
    side's word, compared with them as with a played deal's computed result.
    ``director`` (``director scored …``): the tournament director's ruling, which
    stands even over the cards of a played deal.
    """

    awards: tuple[Award, ...]
    director: bool = False


@frozen
class Score:
    """One seat's running total in a ``total`` line."""

    seat: Seat
    points: int


@frozen(kw_only=True)
class Count(Node):
    """``count N 31 S 18``: the pips toward Game each side counted in its tricks (ten 10,
    ace 4, king 3, queen 2, jack 1), as the scorer wrote them; a side left out counted
    none.  Chiefly for a deal recorded by its results, whose cards do not show it: the
    referee holds it to the Game item (and, in a played deal, to the cards)."""

    scores: tuple[Score, ...]


@frozen(kw_only=True)
class Total(Node):
    """``total N 0 S 4``: the running totals written down after the deal."""

    scores: tuple[Score, ...]


class RedealReason(Enum):
    EXHAUSTED = "exhausted"  # the pack ran out while running the cards ("bunch")
    MISDEAL = "misdeal"


@frozen(kw_only=True)
class Redeal(Node):
    """``redeal REASON``: the deal was thrown in and dealt again."""

    reason: RedealReason


@frozen(kw_only=True)
class Abandoned(Node):
    """The deal (and so the game) was left unfinished."""


@frozen(kw_only=True)
class Concede(Node):
    """``S concedes``: that seat gave up the game."""

    seat: Seat


Ending = Redeal | Abandoned | Concede


# --- deals and games ------------------------------------------------------------------------


@frozen(kw_only=True)
class Deal(Node):
    """One deal, from ``deal 3 dealer N`` to the next deal or ``end``.

    ``opening`` keeps hands, turn-ups and calls in the order written, because a
    run's cards and turn-up belong after the ``runs`` call that caused them.
    ``leading``/``trailing`` on the deal are the comments around its header.
    ``time`` is the clock time the deal began (``deal 3 dealer N at 20:41``), as
    ``HH:MM`` or ``HH:MM:SS``, when the record gives one.
    """

    number: int
    dealer: Seat
    opening: tuple[OpeningEvent, ...] = ()
    tricks: tuple[Trick, ...] = ()
    penalties: tuple[Penalty, ...] = ()
    claim: Claim | None = None
    total: Total | None = None
    ending: Ending | None = None
    results: Results | None = None
    count: Count | None = None
    time: str | None = None

    @property
    def by_results(self) -> bool:
        """Scored by its results (``scored …``, or a director's ruling over the cards),
        not by the cards played."""
        return self.results is not None and (not self.tricks or self.results.director)

    @property
    def dealt_hands(self) -> tuple[Hand, ...]:
        """Hands written before the first turn-up: the six cards as dealt."""
        hands: list[Hand] = []
        for event in self.opening:
            if isinstance(event, TurnUp):
                break
            if isinstance(event, Hand):
                hands.append(event)
        return tuple(hands)

    @property
    def turnups(self) -> tuple[TurnUp, ...]:
        return tuple(e for e in self.opening if isinstance(e, TurnUp))

    @property
    def calls(self) -> tuple[Call, ...]:
        return tuple(e for e in self.opening if isinstance(e, Call))

    def plays(self) -> Iterator[Play]:
        for trick in self.tricks:
            yield from trick.plays


@frozen(kw_only=True)
class Game:
    """One game: its header tags and deals.

    ``index`` is the game's 1-based place in its file.  ``diagnostics`` holds what
    the parser found (syntax and structure); ``broken`` is true when a syntax
    error stopped the parse, in which case ``deals`` holds nothing and ``tags``
    come from the header scan.  Neither takes part in equality.
    """

    tags: tuple[Tag, ...] = ()
    deals: tuple[Deal, ...] = ()
    ended: bool = True
    trailing: tuple[Comment, ...] = ()
    index: int = field(default=1, compare=False)
    source: str | None = field(default=None, compare=False)
    diagnostics: tuple[Diagnostic, ...] = field(default=(), compare=False)
    broken: bool = field(default=False, compare=False)
    span: Span | None = field(default=None, compare=False, repr=False)

    def tag(self, name: str, default: str | None = None) -> str | None:
        """The value of the first tag called ``name`` (case-sensitive), else ``default``."""
        for tag in self.tags:
            if tag.name == name:
                return tag.value
        return default

    @property
    def seats(self) -> tuple[Seat, ...]:
        """The seats at the table, clockwise from North.

        Named by the player tags (``[North "…"]``) when there are any; otherwise
        by the seats the deals use.
        """
        return seats_of_game(self)

    @property
    def has_errors(self) -> bool:
        return any(d.is_error for d in self.diagnostics)


# ``Hand(seat=…, cards=…, span=…)`` and the like, made for the parser (see _statement_maker).
make_hand: Callable[[Seat, tuple[Card | None, ...], Span | None], Hand] = \
    _statement_maker(Hand, "seat", "cards")
make_turnup: Callable[[Card, Span | None], TurnUp] = _statement_maker(TurnUp, "card")
make_tag: Callable[[str, str, Span | None], Tag] = _statement_maker(Tag, "name", "value")
make_call: Callable[[Seat, CallKind, Span | None], Call] = _statement_maker(Call, "seat", "kind")
make_claim: Callable[[tuple[Award, ...], Span | None], Claim] = \
    _statement_maker(Claim, "awards")
make_total: Callable[[tuple[Score, ...], Span | None], Total] = \
    _statement_maker(Total, "scores")

def make_deal(number: int, dealer: Seat, opening: tuple[OpeningEvent, ...],
              tricks: tuple[Trick, ...], penalties: tuple[Penalty, ...], claim: Claim | None,
              total: Total | None, ending: Ending | None, leading: tuple[Comment, ...],
              trailing: tuple[Comment, ...], span: Span | None,
              results: Results | None = None, count: Count | None = None,
              time: str | None = None) -> Deal:
    """``Deal(number=…, …, span=…)`` built like :func:`make_play`, once per deal read."""
    deal: Any = _new(_DraftDeal)
    deal.number = number
    deal.dealer = dealer
    deal.opening = opening
    deal.tricks = tricks
    deal.penalties = penalties
    deal.claim = claim
    deal.total = total
    deal.ending = ending
    deal.leading = leading
    deal.trailing = trailing
    deal.span = span
    deal.results = results
    deal.count = count
    deal.time = time
    deal.__class__ = Deal
    return deal  # type: ignore[no-any-return]


_DraftDeal = draft_of(Deal)


def make_game(tags: tuple[Tag, ...], deals: tuple[Deal, ...], ended: bool,
              trailing: tuple[Comment, ...], index: int, source: str | None,
              diagnostics: tuple[Diagnostic, ...], span: Span | None) -> Game:
    """``Game(tags=…, deals=…, …, broken=False)`` built like :func:`make_play`: the parser
    makes a game record two or three times per game read (a file of one-deal games is
    mostly that)."""
    game: Any = _new(_DraftGame)
    game.tags = tags
    game.deals = deals
    game.ended = ended
    game.trailing = trailing
    game.index = index
    game.source = source
    game.diagnostics = diagnostics
    game.broken = False
    game.span = span
    game.__class__ = Game
    return game  # type: ignore[no-any-return]


_DraftGame = draft_of(Game)


def set_diagnostics(game: Game, diagnostics: tuple[Diagnostic, ...]) -> None:
    """Give ``game``, just made by :func:`make_game` and not yet handed to anyone, its
    diagnostics.  The structure checks read a game before its diagnostics are known;
    setting them on that same record, rather than making the game a second time, is
    a tenth of the cost of reading a one-deal game.  Not for a game others may hold."""
    _set_game_diagnostics(game, diagnostics)


_set_game_diagnostics = cast(Any, Game.__dict__["diagnostics"]).__set__


def diagnostic_at(
    game: Game,
    span: Span | None,
    code: str,
    message: str,
    *,
    severity: Severity = Severity.ERROR,
    deal: int | None = None,
    trick: int | None = None,
    hint: str | None = None,
) -> Diagnostic:
    """A diagnostic about ``game`` at ``span`` (or at the game itself when the
    problem has no better place): the one way every layer locates its findings."""
    where = span or game.span
    line = column = 1  # a record built in code has no place: 1:1
    end_column = None
    if where is not None:
        line, column, end_line, last_column = where.position()
        if span is not None and line == end_line:
            end_column = last_column
    # In field order: a diagnostic is made for every finding of every game.
    return Diagnostic(code, severity, message, game.source, line, column, end_column,
                      game.index, deal, trick, hint)


# Last, beside the records it reads (it imports none of them at run time): a local
# import in ``Game.seats`` cost more than the seats themselves in a file of thousands
# of tiny games.
from .table import seats_of_game  # noqa: E402
