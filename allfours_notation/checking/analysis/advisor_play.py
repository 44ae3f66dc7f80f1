"""One sampled deal played out for the advisor: the calls, the runs of the pack and the
play, with every rule asked of the referee.

A *world* is one way the cards the player cannot see may lie: every hand and the order
of the stock.  :func:`play_world` feeds the deal to a referee's :class:`Table` that sees
every card (the hands, the turn-up, the call, the answer, each run's cards and turn-up),
and lets the table say what each step scores (kicks, the gift, a turned Jack while
running), whether a gift is allowed, whether the pack holds another run, whether the
pack ran out (a redeal), whether a side went out, and what must be discarded after a run.
The play itself is valued by the double-dummy :class:`~.solver.Solver`: its best line is
played card by card at the table, which then scores High, Low, Jack and Game in the
counting order and stops at the target.  No rule of All Fours is written here.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from ...cards import DEALT, RUN_BATCH, Card, Rank, Seat, Suit
from ...frozen import frozen
from ...reading.records import (
    Call,
    CallKind,
    Discard,
    Game,
    Hand,
    Play,
    Redeal,
    RedealReason,
    Tag,
    TurnUp,
)
from ...reading.table import next_seat, sides, turn_order
from ...referee.deal import DealOver, DealStart, Expect, Phase, Table
from ...referee.profiles import Options
from ...referee.start import SCORE_TAG
from .solver import Layout, Solver, SolveTimeout

__all__ = ["DealOutcome", "World", "answers_allowed", "deal_order", "header_game",
           "keep_for_play", "play_world", "table_at_turnup"]

# The dealer's answer to a beg, chosen by the caller from what the dealer can know.
DealerPolicy = Callable[[Table], CallKind]


@frozen
class World:
    """Every card where it lies in one sampled deal: the hands as dealt (in seat order)
    and the stock below the turn-up, top card first."""

    hands: tuple[tuple[Seat, tuple[Card, ...]], ...]
    stock: tuple[Card, ...]

    def hand(self, seat: Seat) -> tuple[Card, ...]:
        for held_by, cards in self.hands:
            if held_by is seat:
                return cards
        raise KeyError(seat)


@frozen
class DealOutcome:
    """What one option made of one world: the points of the deal per side in the
    counting order (``(side, points)``), each side's score after it, the side that went
    out in it (``None``: the game goes on), whether the play was solved, and the calls
    the dealer's answer to a beg, if there was one; ``at_call``: the game was decided by
    the calls themselves (a gift), before any card the player cannot see mattered."""

    events: tuple[tuple[str, int], ...]
    scores_after: tuple[tuple[str, int], ...]
    winner: str | None
    solved: bool
    answer: CallKind | None
    redealt: bool
    at_call: bool = False


def deal_order(options: Options, seats: tuple[Seat, ...], dealer: Seat) -> tuple[Seat, ...]:
    """The seats in the order the cards are dealt, from the elder hand (the dealer's
    next seat in the direction of play) round to the dealer."""
    order = turn_order(seats, clockwise=options.clockwise)
    start = order.index(next_seat(dealer, seats, clockwise=options.clockwise))
    return order[start:] + order[:start]


def header_game(seats: tuple[Seat, ...], scores: Sequence[tuple[str, int]]) -> Game:
    """A game's header naming the table's seats and the score before this deal, for a
    referee's table to start from."""
    tags = [Tag(name=seat.tag_name, value=seat.letter) for seat in seats]
    if any(points for _, points in scores):
        tags.append(Tag(name=SCORE_TAG, value=" ".join(f"{side} {points}"
                                                       for side, points in scores)))
    return Game(tags=tuple(tags))


def table_at_turnup(options: Options, seats: tuple[Seat, ...], dealer: Seat,
                    scores: Sequence[tuple[str, int]], world: World,
                    turnup: Card) -> Table:
    """A referee's table that has seen the deal up to the first turn-up: every hand of
    ``world`` and ``turnup`` (which the table scores: a kick, a turned Jack)."""
    table = Table(header_game(seats, scores), options, keep_steps=False)
    table.feed(DealStart(number=1, dealer=dealer))
    for seat in deal_order(options, seats, dealer):
        table.feed(Hand(seat=seat, cards=world.hand(seat)))
    table.feed(TurnUp(card=turnup))
    return table


def answers_allowed(table: Table) -> tuple[CallKind, ...]:
    """The dealer's answers the rules allow after a beg, asked of ``table`` at the beg
    (a gift first); when neither is, he gives, as the table then expects."""
    expect = table.expects()
    allowed = []
    if expect.may_give:
        allowed.append(CallKind.GIVES)
    if expect.may_run:
        allowed.append(CallKind.RUNS)
    return tuple(allowed) or (CallKind.GIVES,)


def play_world(options: Options, seats: tuple[Seat, ...], dealer: Seat,
               scores: Sequence[tuple[str, int]], world: World, turnup: Card,
               call: CallKind, dealer_policy: DealerPolicy, *, advised: Seat,
               time_limit: float | None, clock: Callable[[], float]) -> DealOutcome:
    """The deal of ``world`` with the elder's ``call`` (``STANDS`` or ``BEGS``; for the
    dealer's own decision, ``GIVES`` or ``RUNS`` after the elder's beg), played out.
    ``advised``: whose points the solver's line is for where three play (the other two
    play against that seat); with two sides it maximises the first side's margin."""
    table = table_at_turnup(options, seats, dealer, scores, world, turnup)
    order = deal_order(options, seats, dealer)
    elder = order[0]
    hands = {seat: list(world.hand(seat)) for seat in seats}
    stock = list(world.stock)
    expect = table.expects()
    answer: CallKind | None = None
    at_call = False
    if not expect.decided:
        if call is CallKind.STANDS:
            table.feed(Call(seat=elder, kind=CallKind.STANDS))
        else:
            table.feed(Call(seat=elder, kind=CallKind.BEGS))
            answer = call if call in (CallKind.GIVES, CallKind.RUNS) else dealer_policy(table)
            table.feed(Call(seat=dealer, kind=answer))
            if answer is CallKind.RUNS:
                expect = _run(table, order, hands, stock)
        expect = table.expects()
        at_call = expect.decided and answer is not CallKind.RUNS
    redealt = expect.exhausted
    if redealt:
        table.feed(Redeal(reason=RedealReason.EXHAUSTED))
    solved = True
    if not expect.decided and not redealt and expect.kind is Phase.PLAY:
        if expect.discard:
            _discard(table, order, hands)
        solved = _play_out(table, options, seats, advised, time_limit, clock)
    table.feed(DealOver())
    result = table.deals[-1]
    return DealOutcome(tuple((p.side, p.points) for p in result.points), table.scores_now(),
                       table.winner, solved, answer, redealt, at_call)


def _run(table: Table, order: tuple[Seat, ...], hands: dict[Seat, list[Card]],
         stock: list[Card]) -> Expect:
    """Run the cards until the table no longer expects another run: three more cards
    to each, then the next turn-up (the table says whether its suit is the first one
    turned, whether it put a side out, and whether the pack is exhausted)."""
    while True:
        for seat in order:
            extra = tuple(stock[:RUN_BATCH])
            del stock[:RUN_BATCH]
            hands[seat].extend(extra)
            table.feed(Hand(seat=seat, cards=extra))
        table.feed(TurnUp(card=stock.pop(0)))
        expect = table.expects()
        if expect.decided or expect.exhausted or expect.kind is not Phase.RUN:
            return expect


def keep_for_play(cards: Sequence[Card], trump: Suit, keep: int) -> tuple[Card, ...]:
    """The cards kept when a hand after a run must be cut down to ``keep`` (the rules
    say when; which to keep is a player's choice): a documented policy, not a search —
    trumps from the highest, then the other cards from the highest, counting cards
    before others of the same rank."""
    ranked = sorted(cards, key=lambda c: (c.suit is trump, c.rank, c.pips), reverse=True)
    return tuple(ranked[:keep])


def _discard(table: Table, order: tuple[Seat, ...], hands: dict[Seat, list[Card]]) -> None:
    state = table.state
    trump = state.trump if state is not None else None
    if trump is None:
        return
    for seat in order:
        kept = keep_for_play(hands[seat], trump, DEALT)
        put = tuple(c for c in hands[seat] if c not in kept)
        if put:
            table.feed(Discard(seat=seat, cards=put))
        hands[seat] = list(kept)


def _play_out(table: Table, options: Options, seats: tuple[Seat, ...], advised: Seat,
              time_limit: float | None, clock: Callable[[], float]) -> bool:
    """The solver's best line, card by card, at the table; ``False`` when a search ran
    past ``time_limit`` (the deal is then left unplayed: its points are what the table
    had scored before the play)."""
    state = table.state
    if state is None or state.trump is None:
        return True
    trump = state.trump
    last = state.turnups[-1] if state.turnups else None
    turnup_jack = last is not None and last.suit is trump and last.rank is Rank.JACK
    held = dict(state.hands)
    layout = Layout(options, seats, state.dealer, state.elder, trump, turnup_jack,
                    tuple((seat, held[seat]) for seat in seats))
    table_sides = sides(seats)
    perspective = None if len(table_sides) == 2 else table.side(advised)
    solver = Solver(layout, perspective)
    solver.clock = clock
    deadline = clock() + time_limit if time_limit is not None else None
    try:
        while (seat := solver.to_move()) is not None:
            _, chosen = solver.best(deadline)
            if chosen is None:
                break
            solver.play(seat, chosen)
            table.feed(Play(card=chosen, seat=seat))
            if table.expects().decided:
                break
    except SolveTimeout:
        return False
    return True
