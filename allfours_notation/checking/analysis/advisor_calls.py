"""The calls of a recorded game, each with what the advisor would have said there.

For the viewer and the replay page: every elder's first stand or beg and every dealer's
give or run is found among the replay's steps, with the position the caller could know
then (the hand as dealt, read from the record; the first turn-up; the score before the
deal), so that :func:`~.advisor.advise` can be asked on demand.  A call after a run (a
second beg) is not advised: the advisor models the first call of a deal only.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol

from ...cards import DEALT, Card, Seat
from ...frozen import frozen
from ...reading.records import Call, CallKind, Deal, Hand, TurnUp
from ...referee.start import starting_scores
from ...referee.state import DealResult, GameReplay, StepKind
from .advisor import AdviceError, Position, position

__all__ = ["CallPoint", "advice_at_calls", "call_points"]

# a stand, a beg or a gift is a call step; the dealer's run is a step of its own
_CALL_STEPS = (StepKind.CALL, StepKind.RUN)


@frozen
class CallPoint:
    """One call of the record: its step, the deal, who called what, and the position
    the advisor is asked about (``None`` with the reason when it cannot be)."""

    step: int
    deal: int
    seat: Seat
    call: CallKind
    position: Position | None
    why_not: str | None


class _Step(Protocol):  # the fields read of a step (a whole Step or a StepChange)
    @property
    def index(self) -> int: ...
    @property
    def kind(self) -> StepKind: ...
    @property
    def deal(self) -> int: ...


def call_points(replayed: GameReplay, steps: Sequence[_Step] | None = None) -> list[CallPoint]:
    """Every first call of each deal of ``replayed`` (the elder's, then the dealer's
    answer to it) with its step; ``steps``: the replay's steps when it was made without
    whole states (the replay page's changes)."""
    all_steps: Sequence[_Step] = steps if steps is not None else replayed.steps
    records = {deal.number: deal for deal in replayed.game.deals}
    seats = replayed.game.seats or tuple(seat for seat, _ in _first_held(replayed))
    start, _ = starting_scores(replayed.game, seats, replayed.options)
    before = tuple(start.items())
    found: list[CallPoint] = []
    for result in replayed.deals:
        record = records.get(result.number)
        call_steps = [step for step in all_steps[result.first_step:result.last_step + 1]
                      if step.kind in _CALL_STEPS and step.deal == result.number]
        if record is not None and result.dealer is not None:
            found.extend(_deal_points(replayed, record, result, call_steps, seats, before))
        before = result.scores_after
    return found


def _first_held(replayed: GameReplay) -> tuple[tuple[Seat, tuple[Card, ...]], ...]:
    for result in replayed.deals:
        if result.held:
            return result.held
    return ()


def _deal_points(replayed: GameReplay, record: Deal, result: DealResult,
                 call_steps: Sequence[_Step], seats: tuple[Seat, ...],
                 before: tuple[tuple[str, int], ...]) -> list[CallPoint]:
    calls = [event for event in record.opening if isinstance(event, Call)]
    dealt, turnup = _dealt(record)
    if not any(call.kind is CallKind.RUNS for call in calls):
        # no run: the hands play began with (recorded, or read from the play) are the
        # hands as dealt
        for seat, held in result.held:
            if seat not in dealt and len(held) == DEALT:
                dealt[seat] = held
    dealer = result.dealer
    assert dealer is not None
    out: list[CallPoint] = []
    for k, (call, step) in enumerate(zip(calls, call_steps, strict=False)):
        if k > 1 or (k == 1 and call.kind not in (CallKind.GIVES, CallKind.RUNS)):
            break  # after a run: not modelled
        if k == 0 and call.kind not in (CallKind.STANDS, CallKind.BEGS):
            break
        hand = dealt.get(call.seat)
        pos: Position | None = None
        why: str | None = None
        if turnup is None:
            why = "no turn-up recorded"
        elif hand is None:
            why = f"{call.seat.letter}'s hand as dealt is not recorded"
        else:
            try:
                pos = position(replayed.options, seats, dealer, call.seat, hand, turnup,
                               dict(before))
            except AdviceError as error:
                why = error.message
        out.append(CallPoint(step.index, result.number, call.seat, call.kind, pos, why))
    return out


def _dealt(record: Deal) -> tuple[dict[Seat, tuple[Card, ...]], Card | None]:
    """Each seat's hand as dealt (only where every card of it is written) and the first
    turn-up, read from the deal's opening."""
    hands: dict[Seat, tuple[Card, ...]] = {}
    for event in record.opening:
        if isinstance(event, TurnUp):
            return hands, event.card
        if isinstance(event, Hand) and event.seat not in hands:
            cards = tuple(c for c in event.cards if c is not None)
            if len(cards) == len(event.cards) == DEALT:
                hands[event.seat] = cards
    return hands, None


def advice_at_calls(replayed: GameReplay, steps: Sequence[_Step] | None = None, *,
                    samples: int, seed: int = 0, dealer_samples: int = 2,
                    later: int = 32, time_limit: float | None = 1.0
                    ) -> dict[int, list[str]]:
    """What the advisor would have said at each call of ``replayed``, in words, by the
    call's step (a call it cannot advise on says why)."""
    from .advisor import advise
    from .advisor_text import advice_lines

    out: dict[int, list[str]] = {}
    for point in call_points(replayed, steps):
        if point.position is None:
            out[point.step] = [f"no advice: {point.why_not}"]
            continue
        advice = advise(point.position, samples=samples, seed=seed,
                        dealer_samples=dealer_samples, later=later, time_limit=time_limit)
        out[point.step] = [f"{point.seat.letter} {point.call.value}; the advisor:",
                           *advice_lines(advice)]
    return out
