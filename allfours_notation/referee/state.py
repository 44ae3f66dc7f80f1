"""What the replayer hands out: one immutable table state per event, and the results.

These are the types the viewer renders and the formatter and reports read;
:mod:`.replay` builds them.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import MISSING, field, fields
from enum import Enum
from typing import TYPE_CHECKING, Any, TypeVar

from ..cards import Card, Seat, Suit
from ..diagnostics import Diagnostic
from ..frozen import draft_of, frozen
from ..reading.records import Game, Span
from .decided import ItemStatus
from .profiles import Options
from .scoring import Point

__all__ = ["DealResult", "GameReplay", "Step", "StepKind", "TableState"]

_Record = TypeVar("_Record")


def built_by_slots(kind: type[_Record]) -> Callable[..., _Record]:
    """A builder of ``kind`` (a frozen slotted dataclass): the same parameters and
    defaults as ``kind(...)``, its slots filled in as its draft (:func:`.frozen.draft_of`).

    The referee makes a :class:`DealResult` (22 fields) per deal and a
    :class:`GameReplay` (11) per game.  Calling the class with keywords packs them into
    a dict for ``__init__``, and a frozen dataclass's ``__init__`` sets each field through
    ``object.__setattr__``: about 2,000 instructions a field on Python 3.11, against
    about 950 here (a plain function takes keywords without a dict).  Worth 4.1% of
    ``check``'s instructions on 100 kB of tiny games, 2.8% on 100 kB of varied small
    games, 0.8% on the bench corpus (cachegrind, whole ``check -j 1 --quiet``, against
    the classes called with the same keywords; issue 22, item 6).  The classes are
    untouched: ``DealResult(...)`` is the plain way to make one.  Filled in as a draft
    (plain slot stores, then the class changed) rather than through each slot's
    descriptor, as the records' own ``__init__`` are (issue 38)."""
    names = [f.name for f in fields(kind)]  # type: ignore[arg-type]
    scope: dict[str, Any] = {"_new": object.__new__, "_draft": draft_of(kind), "_kind": kind}
    parameters = []
    for f in fields(kind):  # type: ignore[arg-type]
        if f.default_factory is not MISSING or not f.init:
            raise TypeError(f"{kind.__name__}.{f.name}: only plain defaults are filled")
        if f.default is MISSING:
            parameters.append(f.name)
        else:
            scope[f"_default_{f.name}"] = f.default
            parameters.append(f"{f.name}=_default_{f.name}")
    source = (f"def build(*, {', '.join(parameters)}):\n"
              "    self = _new(_draft)\n"
              + "".join(f"    self.{name} = {name}\n" for name in names)
              + "    self.__class__ = _kind\n"
              "    return self\n")
    exec(source, scope)  # as dataclasses writes its own __init__
    build: Callable[..., _Record] = scope["build"]
    build.__qualname__ = build.__name__ = f"build_{kind.__name__}"
    return build


def copied_by_slots(kind: type[_Record], changed: tuple[str, ...]) -> Callable[..., _Record]:
    """A copier of a ``kind`` record with the fields ``changed`` given anew (keywords
    only), every other slot taken from the old one: :func:`dataclasses.replace` without
    its per-call walk over the fields and its ``__init__`` by keywords.  A replay page
    completes the hands of about nine steps in ten this way (:func:`.plain.with_hindsight`),
    and ``replace`` was a sixth of the page's time (issue 38).  Filled in as a draft, as
    :func:`built_by_slots`."""
    names = [f.name for f in fields(kind)]  # type: ignore[arg-type]
    if not set(changed) <= set(names):
        raise TypeError(f"{kind.__name__} has no field {sorted(set(changed) - set(names))}")
    scope: dict[str, Any] = {"_new": object.__new__, "_draft": draft_of(kind), "_kind": kind}
    source = (f"def copy(old, *, {', '.join(changed)}):\n"
              "    self = _new(_draft)\n"
              + "".join(f"    self.{name} = {name if name in changed else 'old.' + name}\n"
                        for name in names)
              + "    self.__class__ = _kind\n"
              "    return self\n")
    exec(source, scope)  # as built_by_slots
    copy: Callable[..., _Record] = scope["copy"]
    copy.__qualname__ = copy.__name__ = f"copy_{kind.__name__}"
    return copy


class StepKind(Enum):
    DEAL_START = "deal_start"
    TURN_UP = "turn_up"
    CALL = "call"
    RUN = "run"
    PLAY = "play"
    TRICK_END = "trick_end"
    AWARD = "award"
    DEAL_END = "deal_end"
    GAME_END = "game_end"


@frozen
class TableState:
    """The table after one step.  Sides are ``"N"``/``"S"``… or ``"NS"``/``"EW"``."""

    deal: int
    dealer: Seat
    elder: Seat
    seats: tuple[Seat, ...]
    hands: tuple[tuple[Seat, tuple[Card, ...]], ...]  # known cards still held, per seat
    unknown: tuple[tuple[Seat, int], ...]  # unseen cards still held, per seat
    turnups: tuple[Card, ...]
    trump: Suit | None
    trick_number: int
    trick: tuple[tuple[Seat, Card], ...]  # cards on the table, leader first
    leader: Seat | None
    to_move: Seat | None
    legal: frozenset[Card]  # legal cards for to_move (empty if unknown)
    won: tuple[tuple[str, int], ...]  # tricks won per side this deal
    pips: tuple[tuple[str, int], ...]  # pips toward Game per side this deal
    last_trick_winner: Seat | None
    deal_points: tuple[Point, ...]  # awarded so far this deal
    scores: tuple[tuple[str, int], ...]  # game totals so far, per side (decided points)
    winner: str | None  # side that reached the target with decided points, if any
    # every item of the deal as the table knows it now: decided, provisional ("if the
    # deal ended now") or unknown (see :mod:`.decided`)
    items: tuple[ItemStatus, ...] = ()

    @property
    def provisional(self) -> tuple[ItemStatus, ...]:
        """The items that would score if the deal ended now but are not decided."""
        return tuple(item for item in self.items if not item.decided and item.side)

    def hand(self, seat: Seat) -> tuple[Card, ...]:
        for owner, held in self.hands:
            if owner is seat:
                return held
        return ()

    def unknown_count(self, seat: Seat) -> int:
        for owner, count in self.unknown:
            if owner is seat:
                return count
        return 0

    def score(self, side: str) -> int:
        for name, value in self.scores:
            if name == side:
                return value
        return 0


@frozen
class Step:
    """One step of the replay (a call, a play, a point scored), with the table after it."""

    index: int
    kind: StepKind
    deal: int
    trick: int | None
    text: str  # one line for people: "S plays JS"
    state: TableState
    span: Span | None
    diagnostics: tuple[Diagnostic, ...]  # problems found at this step


@frozen
class DealResult:
    """One deal's outcome: the points scored, the totals after it and its steps."""

    number: int
    points: tuple[Point, ...]
    scores_after: tuple[tuple[str, int], ...]
    first_step: int
    last_step: int
    trump: Suit | None = None
    turnups: tuple[Card, ...] = ()
    calls: tuple[str, ...] = ()  # "S begs", "N gives" … in order
    complete: bool = True  # every trick was played and scored
    ending: str | None = None  # "redeal exhausted", "abandoned", "S concedes"
    unscored: tuple[Point, ...] = ()  # items after the game was decided (rule 25)
    dealer: Seat | None = None
    elder: Seat | None = None
    # Every card each seat held when play began (recorded or inferred), and the tricks.
    held: tuple[tuple[Seat, tuple[Card, ...]], ...] = ()
    tricks: tuple[tuple[int, Seat, tuple[tuple[Seat, Card], ...]], ...] = ()
    claim_span: Span | None = None
    total_span: Span | None = None
    after_decision: bool = False  # played after the game was decided: not scored
    # A deal still being played when it was scored (no ending, claim or total, tricks
    # to come): ``points`` holds what is decided, ``provisional`` what would score if
    # it ended now (counted nowhere; rule 25 stops counting at the first of them).
    provisional: tuple[Point, ...] = ()
    open: bool = False
    # those of ``provisional`` that are decided themselves but wait for an earlier item
    # of the counting order that is not (a Jack won while Low is still open)
    waiting: tuple[Point, ...] = ()
    by_results: bool = False  # recorded by its results alone (``scored …``), not its cards
    # the pips toward Game each side won in the deal's tricks (the count for Game; the
    # event layer's "highest count for Game"), as the table counted them
    # (a deal recorded by its results: the record's count for Game, ``count N 31 S 18``,
    # or none when it gives no count)
    pips: tuple[tuple[str, int], ...] = ()
    time: str | None = None  # the clock time the deal began, as recorded ("20:41")


@frozen
class GameReplay:
    """A whole game replayed: its steps, its deals, its findings and its result."""

    game: Game
    options: Options
    steps: tuple[Step, ...]
    deals: tuple[DealResult, ...]
    diagnostics: tuple[Diagnostic, ...]  # AFN5xx, AFN3xx, then AFN4xx
    scores: tuple[tuple[str, int], ...]
    winner: str | None
    decided: str | None  # "deal 7, at High"
    # the AFN5xx problems with the rules the record names (also in ``diagnostics``)
    option_diagnostics: tuple[Diagnostic, ...] = field(default=())
    # those of ``diagnostics`` that only say the game is not finished yet (a deal cut
    # short, a [Result "*"] the computed score disagrees with): a recorder resumes it
    unfinished: tuple[Diagnostic, ...] = field(default=())
    # those that a hand proves (a stand or a gift without a trump): a kibitzer, who does
    # not see that hand, learns of them when the deal ends (revokes and undertrumps too,
    # by their codes)
    hand_proofs: tuple[Diagnostic, ...] = field(default=())


# What the referee builds its results with (keywords only); the type checker sees the
# classes themselves, so it checks every field's name and type at the call.
if TYPE_CHECKING:
    build_deal_result = DealResult
    build_game_replay = GameReplay
    build_table_state = TableState
else:
    build_deal_result = built_by_slots(DealResult)
    build_game_replay = built_by_slots(GameReplay)
    build_table_state = built_by_slots(TableState)
