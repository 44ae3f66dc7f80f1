"""What the table waits for after a session's entries, and who acts.

The referee's ``expects`` says what comes next in a deal being played; the recorder
adds its own points: who deals the next deal, a deal entered by its results, the
other side's word on a deal just ended, the game over.  One :class:`Expectation`
says it, with one line for the screen.
"""

from __future__ import annotations

from ..cards import DEALT, RUN_BATCH, Seat
from ..reading.records import (
    Abandoned,
    CallKind,
    Claim,
    Concede,
    Deal,
    Discard,
    Hand,
    Pack,
    Play,
    Redeal,
)
from ..referee.deal import Phase as TablePhase  # the referee's phases; Phase is the recorder's
from .building import last_deal_entries, points_text
from .entries import Agreed, Entry, Expectation, GameTied, Item, Phase, ResultsDone, Ruling
from .referee import Judgement

__all__ = ["expectation", "in_results", "settled"]


def settled(entries: tuple[Entry, ...]) -> bool:
    """Whether the last deal needs nothing more from the table: the other side
    confirmed it (or claimed), or it ended without points to confirm."""
    deal = last_deal_entries(entries)
    if deal is None:
        return True
    return any(isinstance(e, (Agreed, Claim, Ruling, Redeal, Abandoned, Concede))
               for e in deal)


def in_results(entries: tuple[Entry, ...], results_mode: bool) -> bool:
    """Whether the last deal is recorded by its results and still being entered."""
    deal = last_deal_entries(entries)
    if deal is None:
        return False
    if any(isinstance(e, ResultsDone) for e in deal) or \
            any(isinstance(e, (Redeal, Abandoned, Concede)) for e in deal):
        return False
    if any(isinstance(e, (Item, GameTied)) for e in deal):
        return True
    # a turn-up and calls may be written in a deal entered by its results (the run's
    # turn-up decides its kick); hands, cards played or a claim make it a card deal
    return results_mode and not any(
        isinstance(e, (Hand, Discard, Pack, Play, Claim)) for e in deal)


def _who_deals_first(seats: tuple[Seat, ...]) -> str:
    """The first deal's question, naming the seats of this table (N or S for two)."""
    letters = [seat.letter for seat in seats]
    if len(letters) < 2:
        return "who deals the first deal? type the seat"
    return "who deals the first deal? type " + ", ".join(letters[:-1]) + f" or {letters[-1]}"


def expectation(judged: Judgement, entries: tuple[Entry, ...], results_mode: bool,
                seats: tuple[Seat, ...], opening: Judgement | None = None) -> Expectation:
    """What comes next after ``entries`` (judged: ``judged``), in the mode given;
    ``opening``: in results mode, the same without the last deal's results (a results
    line ends the table's opening: what the opening waits for is asked without it)."""
    deals = judged.game.deals
    last = deals[-1] if deals else None
    winner = judged.closed.winner
    if last is not None and in_results(entries, results_mode):
        return _expect_results(last, judged, seats, opening or judged)
    if last is not None and (judged.finished or winner is not None) and \
            not settled(entries):
        return _expect_confirm(last, judged, seats)
    if winner is not None or (last is not None and
                              isinstance(last.ending, (Abandoned, Concede))):
        why = f"{winner} wins" if winner else "abandoned"
        return Expectation(Phase.OVER, None, f"the game is over ({why})", seats=seats)
    if last is None or judged.finished:
        proposed = judged.expects.seat if last is not None else None
        text = _who_deals_first(seats) if proposed is None else \
            f"deal {len(deals) + 1}: {proposed.letter} deals (Enter), or type another seat"
        return Expectation(Phase.DEALER, None, text, default=proposed, seats=seats)
    return _expect_in_deal(last, judged, seats)


# Results mode: the table's opening, if the scorer records it (see Expectation.due).
_DUE = {TablePhase.TURN_UP: Phase.TURN, TablePhase.CALL: Phase.CALL,
        TablePhase.ANSWER: Phase.ANSWER, TablePhase.RUN: Phase.RUN_TURN}


def _expect_results(deal: Deal, judged: Judgement, seats: tuple[Seat, ...],
                    opening: Judgement) -> Expectation:
    elder = judged.open.current.elder if judged.open.current is not None else None
    so_far = judged.so_far.deals
    points = points_text(so_far[-1].points if so_far else ())
    expects = opening.open.expects()
    due = _DUE.get(expects.kind)
    actor = expects.seat if due is Phase.CALL else deal.dealer if due is not None else None
    said = ""  # what the opening waits for, first: the end of the line may be cut
    if due is Phase.CALL and actor is not None:
        said = f" {actor.letter} stands (s) or begs (b)."
    elif due is Phase.ANSWER:
        said = f" {deal.dealer.letter} gives (t) or runs (r)."
    elif due is Phase.RUN_TURN:
        said = " The run's turn-up: u and its card (u 6d)."
    text = (f"deal {deal.number} by results, {deal.dealer.letter} deals: {points}.{said} "
            "An item and its side; Enter ends")
    return Expectation(Phase.RESULTS, actor, text, seats=seats, dealer=deal.dealer,
                       elder=elder, due=due)


def _expect_confirm(deal: Deal, judged: Judgement, seats: tuple[Seat, ...]) -> Expectation:
    results = judged.replayed.deals
    points = points_text(results[-1].points if results else ())
    scores = "  ".join(f"{side} {value}" for side, value in judged.replayed.scores)
    text = f"deal {deal.number}: {points}, score {scores}. Other side: y agrees, c claims"
    return Expectation(Phase.CONFIRM, None, text, seats=seats)


def _expect_in_deal(deal: Deal, judged: Judgement, seats: tuple[Seat, ...]) -> Expectation:
    dealer = deal.dealer
    expects = judged.expects
    actor = expects.seat
    runs = sum(call.kind is CallKind.RUNS for call in deal.calls)
    # a hand may be typed until the first card: as dealt, or after a run the batch
    size = (RUN_BATCH if runs else DEALT) if not deal.tricks else None
    if judged.exhausted:
        return Expectation(Phase.EXHAUSTED, dealer, "the pack is exhausted: 'redeal' "
                           f"({dealer.letter} deals again)", seats=seats)
    if expects.kind is TablePhase.TURN_UP:
        text = f"{dealer.letter} deals: the turn-up (hands first if known: 'S js 9h …')"
        return Expectation(Phase.TURN, dealer, text, seats=seats, hand_size=size)
    if expects.kind is TablePhase.CALL and actor is not None:
        return Expectation(Phase.CALL, actor, f"{actor.letter} stands (s) or begs (b)",
                           seats=seats, hand_size=size)
    if expects.kind is TablePhase.ANSWER:
        return Expectation(Phase.ANSWER, dealer, f"{dealer.letter} gives one (g) or runs "
                           "(r)", seats=seats, hand_size=size)
    if expects.kind is TablePhase.RUN:
        return Expectation(Phase.RUN_TURN, dealer, f"run {runs}: its cards if known "
                           "('S 3c 4c 5c'), then the turn-up", seats=seats,
                           hand_size=size)
    may_beg = expects.may_beg_again  # the referee's answer, not a second copy of it
    number = len(deal.tricks) + (0 if deal.tricks and
                                 len(deal.tricks[-1].plays) < len(seats) else 1)
    who = actor.letter if actor is not None else "?"
    text = f"{who} to play to trick {number}" + (" (or b: beg again)" if may_beg else "")
    return Expectation(Phase.PLAY, actor, text, offered=judged.offered, may_beg=may_beg,
                       seats=seats, hand_size=size)
