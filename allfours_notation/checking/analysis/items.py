"""What each play-dependent item is worth, asked of the referee's own scorer.

The solver never scores anything itself: for every way an item can end (the Jack
captured by this seat, Low won by that seat, Game with these pips per side) it
builds the :class:`~allfours_notation.referee.scoring.DealFacts` of such a deal and
asks :mod:`allfours_notation.referee.scoring` for the points, once, and keeps the
answer.  An item whose points do not change with the play (High, Low to its holder)
is found that way too and reported as fixed by the deal.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from ...cards import Card, Rank, Seat, Suit
from ...frozen import frozen
from ...reading.records import ClaimItem
from ...reading.table import sides
from ...referee.profiles import Options
from ...referee.scoring import DealFacts, Point, game_points, high_low_points, jack_points

__all__ = ["DealItems", "deal_items", "side_points"]


@frozen
class DealItems:
    """The items of one deal as the scorer values them.

    ``jack`` and ``low``: the card (``None`` when it does not depend on the play) and,
    per seat that might win it, the points per side.  ``fixed``: the points the play
    cannot change (High, Low to its holder).  ``game(pips)``: Game's points for the
    pips per side (in the order of ``sides``)."""

    sides: tuple[str, ...]
    jack: Card | None
    jack_points: Mapping[Seat, tuple[Point, ...]]
    low: Card | None
    low_points: Mapping[Seat, tuple[Point, ...]]
    fixed: tuple[Point, ...]
    options: Options
    facts: DealFacts

    def game(self, pips: Sequence[int]) -> tuple[Point, ...]:
        facts = DealFacts(self.facts.seats, self.facts.dealer, self.facts.elder,
                          self.facts.trump, self.facts.turnup_trump_jack, self.facts.holders,
                          (), (), dict(zip(self.sides, pips, strict=True)))
        return tuple(game_points(facts, self.options, set()))


def _facts(seats: tuple[Seat, ...], dealer: Seat, elder: Seat, trump: Suit,
           turnup_jack: bool, holders: Mapping[Card, Seat],
           captures: Sequence[tuple[Seat, Card]]) -> DealFacts:
    tricks = tuple((n + 1, winner, ((winner, card),)) for n, (winner, card) in enumerate(captures))
    return DealFacts(seats, dealer, elder, trump, turnup_jack, holders, tricks, (),
                     {side: 0 for side in sides(seats)})


def deal_items(seats: tuple[Seat, ...], dealer: Seat, elder: Seat, trump: Suit,
               turnup_jack: bool, holders: Mapping[Card, Seat], options: Options) -> DealItems:
    """Ask the scorer what each item is worth for every seat that could win it."""
    table_sides = sides(seats)
    base = _facts(seats, dealer, elder, trump, turnup_jack, holders, ())
    jack_card = Card(trump, Rank.JACK)
    jack: Card | None = None
    jack_by_seat: dict[Seat, tuple[Point, ...]] = {}
    if jack_card in holders:
        for seat in seats:
            facts = _facts(seats, dealer, elder, trump, turnup_jack, holders,
                           ((seat, jack_card),))
            jack_by_seat[seat] = tuple(jack_points(facts, options, set()))
        if any(jack_by_seat.values()):
            jack = jack_card
    # High and Low: which trump is Low, and whether who wins it changes its points.
    in_play = sorted((c for c in holders if c.suit is trump), key=lambda c: c.rank)
    fixed: list[Point] = []
    low: Card | None = None
    low_by_seat: dict[Seat, tuple[Point, ...]] = {}
    if in_play:
        low_card = in_play[0]
        outcomes: dict[Seat, tuple[Point, ...]] = {}
        for seat in seats:
            facts = _facts(seats, dealer, elder, trump, turnup_jack, holders,
                           ((seat, low_card),))
            outcomes[seat] = tuple(p for p in high_low_points(facts, options)
                                   if p.item is ClaimItem.LOW)
        high = [p for p in high_low_points(base, options) if p.item is ClaimItem.HIGH]
        fixed.extend(high)
        if len({(p.side, p.points) for ps in outcomes.values() for p in ps}) > 1:
            low, low_by_seat = low_card, outcomes
        else:
            fixed.extend(next(iter(outcomes.values())))
    return DealItems(table_sides, jack, jack_by_seat, low, low_by_seat, tuple(fixed), options,
                     base)


def side_points(points: Sequence[Point], table_sides: Sequence[str]) -> tuple[int, ...]:
    """``points`` summed per side, in the order of ``table_sides``."""
    totals = dict.fromkeys(table_sides, 0)
    for point in points:
        totals[point.side] = totals.get(point.side, 0) + point.points
    return tuple(totals[side] for side in table_sides)

