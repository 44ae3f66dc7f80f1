"""Who sits where: the seats of a game, turn order, partners and sides.

Two players sit North and South.  Three sit North, East and South (West stays
empty).  Four sit all round in two partnerships, North–South against East–West.
Turn order is clockwise (N → E → S → W) unless the rules say anticlockwise
(Trinidad), in which case it is N → W → S → E.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from functools import cache
from types import MappingProxyType
from typing import TYPE_CHECKING

from ..cards import CLOCKWISE, Seat

if TYPE_CHECKING:  # only the records' shapes: records imports this module (Game.seats)
    from .records import Game, Tag

SEATS_FOR_PLAYERS: dict[int, tuple[Seat, ...]] = {
    2: (Seat.NORTH, Seat.SOUTH),
    3: (Seat.NORTH, Seat.EAST, Seat.SOUTH),
    4: CLOCKWISE,
}


_SEAT_BY_TAG = {seat.tag_name: seat for seat in CLOCKWISE}
# Every set of seats, in clockwise order: a game's seats are looked up, not sorted.
_CLOCKWISE_OF: dict[frozenset[Seat], tuple[Seat, ...]] = {
    frozenset(chosen): chosen
    for chosen in (tuple(seat for n, seat in enumerate(CLOCKWISE) if mask >> n & 1)
                   for mask in range(1 << len(CLOCKWISE)))
}


def seats_of_game(game: Game) -> tuple[Seat, ...]:
    """The seats named by player tags, or else those the deals use, clockwise.

    A few set operations and one look-up, no sorting: this runs a few times per
    game, and a file of many tiny games is mostly that."""
    named = seats_named(game.tags) if game.tags else set()
    if named:
        return clockwise(named)
    if not game.deals:
        return ()
    used: set[Seat] = set()
    for deal in game.deals:
        used.add(deal.dealer)
        if deal.opening:
            add_seats(used, deal.opening)
        for trick in deal.tricks:
            add_seats(used, trick.plays)
    return clockwise(used)


def add_seats(used: set[Seat], events: Iterable[object]) -> None:
    """The seats a deal's events name, added to ``used``: a hand, a call, a discard, a
    labelled play (a turn-up, a pack, an unlabelled play name none).  With the
    dealers, these are the seats at a table whose player tags name none: the one rule
    for the parser (which reads it from the deals as it assembles them) and
    :func:`seats_of_game` (plain loops: this runs a few times per game)."""
    for event in events:
        seat = getattr(event, "seat", None)
        if seat is not None:
            used.add(seat)


def seats_named(tags: Iterable[Tag]) -> set[Seat]:
    """The seats the player tags (``North`` …) among ``tags`` name."""
    by_tag = _SEAT_BY_TAG
    named: set[Seat] = set()
    for tag in tags:
        seat = by_tag.get(tag.name)
        if seat is not None:
            named.add(seat)
    return named


def clockwise(seats: Iterable[Seat]) -> tuple[Seat, ...]:
    """``seats`` in clockwise order from North, looked up rather than sorted."""
    return _CLOCKWISE_OF[frozenset(seats)]


def turn_order(seats: tuple[Seat, ...], *, clockwise: bool = True) -> tuple[Seat, ...]:
    """``seats`` in the order play passes, starting from North."""
    ordered = tuple(seat for seat in CLOCKWISE if seat in seats)
    if clockwise:
        return ordered
    return (ordered[0], *reversed(ordered[1:]))


@cache
def next_seats(seats: tuple[Seat, ...], *, clockwise: bool = True) -> Mapping[Seat, Seat]:
    """The seat after each seat at this table, in the direction of play.

    A table has at most a handful of shapes (2, 3 or 4 seats, either direction),
    so the table is worked out once per shape and kept: the referee asks who is
    next for every card played.
    """
    order = turn_order(seats, clockwise=clockwise)
    return MappingProxyType({seat: order[(i + 1) % len(order)] for i, seat in enumerate(order)})


def next_seat(seat: Seat, seats: tuple[Seat, ...], *, clockwise: bool = True) -> Seat:
    """The seat that plays (or deals) after ``seat``."""
    table = next_seats(seats, clockwise=clockwise)
    if seat not in table:
        raise ValueError(f"{seat.letter} is not at a table of {len(table)}")
    return table[seat]


def elder_hand(dealer: Seat, seats: tuple[Seat, ...], *, clockwise: bool = True) -> Seat:
    """The player after the dealer: the non-dealer with two players."""
    return next_seat(dealer, seats, clockwise=clockwise)


def side_of(seat: Seat, seats: tuple[Seat, ...]) -> str:
    """The scoring side of a seat: ``"NS"``/``"EW"`` with four players, else the seat letter."""
    if len(seats) == 4:
        return "NS" if seat in (Seat.NORTH, Seat.SOUTH) else "EW"
    return seat.letter


@cache
def side_table(seats: tuple[Seat, ...]) -> Mapping[Seat, str]:
    """:func:`side_of` every seat (at the table or not) for a table of ``seats``, worked
    out once per table shape: the referee and the claim checks ask for every deal."""
    return MappingProxyType({seat: side_of(seat, seats) for seat in CLOCKWISE})


@cache
def sides(seats: tuple[Seat, ...]) -> tuple[str, ...]:
    """Every scoring side at the table, in seat order (kept per table shape: the
    referee and the scorer ask for every game, however small)."""
    result: list[str] = []
    for seat in seats:
        side = side_of(seat, seats)
        if side not in result:
            result.append(side)
    return tuple(result)


def partner(seat: Seat, seats: tuple[Seat, ...]) -> Seat | None:
    """The partner across the table with four players, else ``None``."""
    if len(seats) != 4:
        return None
    return CLOCKWISE[(CLOCKWISE.index(seat) + 2) % 4]
