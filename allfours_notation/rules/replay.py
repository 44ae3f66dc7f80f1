"""Replaying a parsed game: thin loops that feed its records to the one referee.

``replay(game)`` feeds every deal of a game, event by event, to the incremental
table of :mod:`.engine` and returns one immutable :class:`Step` per event, each
holding the whole :class:`TableState` after it, so that a viewer can jump
anywhere without recomputing.  ``check_game`` keeps no steps (scores and
diagnostics only); ``fill_seats`` reads who played each card; :class:`Referee`
takes a game deal by deal.  Every rule lives in :mod:`.engine` (where a revoke
is detected: ``_DealTable.check_follow``); nothing here decides anything.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import replace

from ..cards import Card, Seat
from ..diagnostics import Diagnostic
from ..records import Deal, Game, diagnostic_at
from .disputes import find_disputes
from .engine import DealOver, Event, Table
from .play import hand_order, legal_cards, max_runs, trick_winner, turnup_position
from .profiles import Options, resolve_options
from .scoring import Point
from .state import DealResult, GameReplay, Step, StepKind, TableState, game_replay

__all__ = [
    "DealResult",
    "GameReplay",
    "Point",
    "Referee",
    "Step",
    "StepKind",
    "TableState",
    "check_game",
    "deal_events",
    "fill_seats",
    "legal_cards",
    "max_runs",
    "replay",
    "replay_plain",
    "trick_winner",
    "turnup_position",
    "with_hindsight",
]


def deal_events(deal: Deal) -> Iterator[Event]:
    """The events of a recorded deal in the order they happen at the table."""
    yield deal
    yield from deal.opening
    for trick in deal.tricks:
        yield trick
        yield from trick.plays
    yield from deal.penalties
    if deal.results is not None:  # before the ending: the results score the deal
        yield deal.results
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
    try:
        disputes = find_disputes(result)
    except Exception as error:  # the referee must never take a file down
        disputes = [diagnostic_at(game, game.span, "AFN399",
                                  f"the dispute check stopped unexpectedly: {error!r}")]
    if disputes:
        result = replace(result, diagnostics=(*result.diagnostics, *disputes))
    return result


def replay_plain(
    game: Game,
    options: Options,
    option_diags: tuple[Diagnostic, ...] = (),
    *,
    record_states: bool = True,
) -> GameReplay:
    """The replay without the dispute report (used to try other rules on a claim).

    ``record_states=False`` computes scores and diagnostics only, with no steps.
    """
    table = Table(game, options, keep_steps=record_states, records_checked=True)
    for deal in game.deals:
        table.feed_deal(deal)
    table.end_game()
    steps: tuple[Step, ...] = ()
    if record_states:
        kept = with_hindsight(table.steps, table.hindsight, options)
        steps = tuple(_offences_at_their_cards(kept, table.proved_later))
    result = game_replay(  # GameReplay's fields, in order
        game,  # game
        options,  # options
        steps,  # steps
        tuple(table.deals),  # deals
        (*option_diags, *_in_play_order(table.found, table.proved_later)),  # diagnostics
        table.scores_now(),  # scores
        table.winner,  # winner
        table.decided,  # decided
        option_diags,  # option_diagnostics
    )
    table.release()
    return result


def with_hindsight(steps: list[Step], deals: list[tuple[int, int, dict[Seat, list[Card]]]],
                   options: Options) -> list[Step]:
    """The steps as a reader of the whole record sees them.

    The table knows a card of a hand that was never written only when it is
    played; a viewer of a finished record can show it in the hand from the deal
    (or, after a run, the play) on.  Each deal's ``(first step, last step,
    cards seen only in play)`` says which states to complete.
    """
    if not deals:
        return steps
    out = list(steps)
    for first, last, inferred in deals:
        waiting = {seat: list(cards) for seat, cards in inferred.items() if cards}
        for index in range(first, last + 1):
            step = out[index]
            state = step.state
            if step.kind is StepKind.PLAY and state.trick:
                seat, played = state.trick[-1]
                if played in waiting.get(seat, ()):
                    waiting[seat].remove(played)
            out[index] = replace(step, state=_completed(state, waiting, options))
    return out


def _in_play_order(found: list[Diagnostic],
                   proved_later: list[tuple[Diagnostic, int, int]]) -> list[Diagnostic]:
    """The diagnostics in the order of the cards they are about: an offence proved by a
    later card goes back to where the offending card was played."""
    if not proved_later:
        return found
    later = {id(d): (at, n) for n, (d, at, _) in enumerate(proved_later)}
    keyed = [((later[id(d)][0], 0, later[id(d)][1]) if id(d) in later else (i, 1, 0), d)
             for i, d in enumerate(found)]
    keyed.sort(key=lambda pair: pair[0])
    return [d for _, d in keyed]


def _offences_at_their_cards(steps: list[Step],
                             proved_later: list[tuple[Diagnostic, int, int]]) -> list[Step]:
    """Each offence proved by a later card shown at the step of the offending card."""
    if not proved_later:
        return steps
    out = list(steps)
    moved = {id(d) for d, _, _ in proved_later}
    for index, step in enumerate(out):
        if any(id(d) in moved for d in step.diagnostics):
            out[index] = replace(step, diagnostics=tuple(d for d in step.diagnostics
                                                         if id(d) not in moved))
    for diagnostic, _, index in proved_later:
        if index < len(out):
            step = out[index]
            out[index] = replace(step, diagnostics=(*step.diagnostics, diagnostic))
    return out


def _completed(state: TableState, waiting: dict[Seat, list[Card]],
               options: Options) -> TableState:
    hands = tuple((seat, tuple(sorted([*held, *waiting.get(seat, ())], key=hand_order))
                   if waiting.get(seat) else held) for seat, held in state.hands)
    unknown = tuple((seat, count - len(waiting.get(seat, ()))) for seat, count in state.unknown)
    legal = state.legal
    mover = state.to_move
    if mover is not None and waiting.get(mover) and dict(unknown).get(mover) == 0:
        on_table = state.trick if len(state.trick) < len(state.seats) else ()
        legal = legal_cards(dict(hands)[mover], on_table, state.trump, options)
    return replace(state, hands=hands, unknown=unknown, legal=legal)


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
    table = Table(game, options, keep_steps=False, records_checked=True)
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


class Referee:
    """Replays a game deal by deal, for callers that build the game as they go.

    The generator uses it to know the scores before dealing the next deal.
    ``record_states=False`` skips the table snapshots (scores and diagnostics only).
    """

    def __init__(self, game: Game, options: Options, *, record_states: bool = True) -> None:
        self.table = Table(game, options, keep_steps=record_states, records_checked=True)

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
