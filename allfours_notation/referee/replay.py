"""Replaying a parsed game: thin loops that feed its records to the one referee.

``replay(game)`` feeds every deal of a game, event by event, to the incremental
table of :mod:`.deal` and returns one immutable :class:`Step` per event, each
holding the whole :class:`TableState` after it, so that a viewer can jump
anywhere without recomputing.  ``check_game`` keeps no steps (scores and
diagnostics only); ``fill_seats`` reads who played each card; :class:`Referee`
takes a game deal by deal.  Every rule lives in :mod:`.deal` (where a revoke
is detected: :meth:`~.deal.tricks.Tricks.check_follow`); nothing here decides
anything.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import replace

from ..cards import Seat
from ..diagnostics import Diagnostic
from ..reading.records import Deal, Game, diagnostic_at, with_seat
from .changes import StepChange
from .deal.answers import DealOver, DealStart, Event
from .deal.table import Table
from .disputes import find_disputes, read_result
from .plain import replay_changes_plain, replay_plain, with_hindsight
from .play import legal_cards, max_runs, trick_winner, turnup_position
from .profiles import Options, resolve_options
from .scoring import Point
from .state import DealResult, GameReplay, Step, StepKind, TableState

__all__ = [
    "DealResult",
    "GameReplay",
    "Point",
    "Referee",
    "Step",
    "StepChange",
    "StepKind",
    "TableState",
    "check_game",
    "deal_events",
    "fill_seats",
    "legal_cards",
    "max_runs",
    "replay",
    "replay_changes",
    "replay_plain",
    "seats_from_replay",
    "trick_winner",
    "turnup_position",
    "with_hindsight",
]


def deal_events(deal: Deal) -> Iterator[Event]:
    """The events of a recorded deal in the order they happen at the table."""
    yield DealStart.of(deal)
    yield from deal.opening
    for trick in deal.tricks:
        yield trick
        yield from trick.plays
    yield from deal.penalties
    if deal.results is not None:  # before the ending: the results score the deal
        yield deal.results
    if deal.count is not None:
        yield deal.count
    if deal.ending is not None:
        yield deal.ending
    if deal.claim is not None:
        yield deal.claim
    if deal.total is not None:
        yield deal.total
    yield DealOver()


def replay(game: Game, options: Options | None = None, *,
           record_states: bool = True) -> GameReplay:
    """Re-play ``game`` under ``options`` (default: the rules the record names).

    Never raises on a parsed record: anything unexpected inside the referee is
    turned into an AFN399 diagnostic and the replay goes on.  The result's
    diagnostics hold, in this order, the problems with the rules the record
    names (AFN5xx, also kept apart in ``option_diagnostics``), the rules
    findings (AFN3xx) and the disputes (AFN4xx).  ``record_states=False`` keeps
    no steps (no table snapshot per card): scores and diagnostics only, several
    times faster.
    """
    option_diags: list[Diagnostic] = []
    if options is None:
        options, option_diags = resolve_options(game)
    result = replay_plain(game, options, tuple(option_diags), record_states=record_states)
    return _with_disputes(result)


def replay_changes(game: Game, options: Options | None = None
                   ) -> tuple[GameReplay, tuple[StepChange, ...]]:
    """:func:`replay` for a replay page: the replay without its steps, and each step as
    what it changed at the table (:mod:`.changes`) rather than the whole table, which
    the page would compare with the step before's (issue 38).  The same findings,
    scores and deals as :func:`replay`'s."""
    option_diags: list[Diagnostic] = []
    if options is None:
        options, option_diags = resolve_options(game)
    result, changes = replay_changes_plain(game, options, tuple(option_diags))
    return _with_disputes(result), changes


def _with_disputes(result: GameReplay) -> GameReplay:
    """``result`` with the dispute report's findings (AFN4xx)."""
    game = result.game
    try:
        disputes = find_disputes(result)
    except Exception as error:  # the referee must never take a file down
        disputes = [diagnostic_at(game, game.span, "AFN399",
                                  f"the dispute check stopped unexpectedly: {error!r}")]
    if disputes:
        # a [Result "*"] the computed score disagrees with only says the record is
        # not finished yet (a game still being recorded)
        written = game.tag("Result")
        says_unfinished = written is not None and read_result(written, game.seats) == (True,
                                                                                     None)
        unfinished = tuple(d for d in disputes if d.code == "AFN403") if says_unfinished \
            else ()
        result = replace(result, diagnostics=(*result.diagnostics, *disputes),
                         unfinished=(*result.unfinished, *unfinished))
    return result


def check_game(game: Game, options: Options | None = None) -> list[Diagnostic]:
    """Rules, options and dispute diagnostics: what ``allfours check`` adds to the parser's.

    A check needs no table snapshots, and taking one per card was three quarters
    of the replay's time.
    """
    result = replay(game, options, record_states=False)
    return list(result.diagnostics)


def fill_seats(game: Game, options: Options | None = None) -> Game:
    """``game`` with the seat of every play filled in where the rules tell who played it."""
    if options is None:
        options, _ = resolve_options(game)
    table = Table(game, options, keep_steps=False)
    deals = []
    for deal in game.deals:
        seated: dict[int, Seat] = {}
        for event in deal_events(deal):
            table.feed(event)
            seat = table.last_seat
            if event.__class__.__name__ == "Play" and seat is not None:
                seated[id(event)] = seat
        tricks = tuple(
            replace(trick, plays=tuple(
                play if play.seat is not None or id(play) not in seated
                else replace(play, seat=seated[id(play)]) for play in trick.plays))
            for trick in deal.tricks)
        deals.append(replace(deal, tricks=tricks))
    table.release()
    return replace(game, deals=tuple(deals))


def seats_from_replay(replay: GameReplay) -> Game | None:
    """:func:`fill_seats` of the replayed game, read off a replay already made rather
    than refereeing the game again (``fmt`` checks every game anyway, and on a file
    without seat labels filling them was as dear as the check itself).

    The seats come from the tricks the referee completed, which list every card with
    the seat it was played from, in the order played.  They are used only where they
    line up with the record: the same number of deals, of tricks in each deal, and in
    each trick the same cards in the same order.  Anything else (a short trick, a card
    the referee could not place, a deal not replayed) gives None, and the caller fills
    the seats with :func:`fill_seats`, which follows every card on its own.
    """
    game = replay.game
    if len(replay.deals) != len(game.deals):
        return None
    deals = []
    for deal, result in zip(game.deals, replay.deals, strict=True):
        if len(result.tricks) != len(deal.tricks):
            return None
        tricks = []
        for trick, (_, _, placed) in zip(deal.tricks, result.tricks, strict=True):
            if len(placed) != len(trick.plays) or any(
                    play.card != card for play, (_, card) in zip(trick.plays, placed,
                                                                 strict=True)):
                return None
            tricks.append(replace(trick, plays=tuple(
                play if play.seat is not None else with_seat(play, seat)
                for play, (seat, _) in zip(trick.plays, placed, strict=True))))
        deals.append(replace(deal, tricks=tuple(tricks)))
    return replace(game, deals=tuple(deals))


class Referee:
    """Replays a game deal by deal, for callers that build the game as they go.

    The generator uses it to know the scores before dealing the next deal.
    ``record_states=False`` skips the table snapshots (scores and diagnostics only).
    """

    def __init__(self, game: Game, options: Options, *, record_states: bool = True) -> None:
        self.table = Table(game, options, keep_steps=record_states)

    def add_deal(self, deal: Deal) -> DealResult:
        self.table.feed_deal(deal)
        return self.table.deals[-1]

    @property
    def scores(self) -> dict[str, int]:
        return dict(self.table.scores)

    @property
    def winner(self) -> str | None:
        return self.table.winner

    @property
    def decided(self) -> str | None:
        return self.table.decided

    @property
    def seats(self) -> tuple[Seat, ...]:
        return self.table.seats

    @property
    def diagnostics(self) -> tuple[Diagnostic, ...]:
        return self.table.diagnostics

    @property
    def expected_dealer(self) -> Seat | None:
        """Who deals next under the rules (``None`` before the first deal)."""
        return self.table.expected_dealer
