"""What a scorer writes after a deal: the ``claim`` and ``total`` the computed result gives.

The generator writes them into its games and the live recorder into the file it
keeps; both need the same text, so that a game recorded from a generated one
equals it record for record.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from ..cards import Seat
from ..reading.records import Award, Claim, ClaimItem, Score, Total
from ..reading.table import side_of
from .disputes import tally_points
from .profiles import Options
from .scoring import Point

__all__ = ["claim_for", "default_points", "total_for"]


def default_points(item: ClaimItem, options: Options) -> int:
    """What an item is worth when a claim gives no number: the rules' value."""
    if item is ClaimItem.GAME:
        return options.game_value
    return 3 if item is ClaimItem.HANG_JACK else 1


def claim_for(points: Sequence[Point], seats: tuple[Seat, ...], options: Options) -> Claim | None:
    """The claim that says exactly what ``points`` scored (``None`` when nothing was).

    Items in the order of :class:`ClaimItem`, grouped by seat in the order the seats
    first appear (as the formatter writes a claim, so the records read back equal);
    a number only where it differs from the rules' value; each item under the seat
    that took it, else a seat of its side.
    """
    tally = tally_points(points)
    awards: list[Award] = []
    for item in ClaimItem:
        for side, value in tally.get(item, {}).items():
            seat = _seat_for(side, item, points, seats)
            awards.append(Award(seat, item, None if value == default_points(item, options)
                                else value))
    order = list(dict.fromkeys(award.seat for award in awards))
    awards.sort(key=lambda award: order.index(award.seat))  # stable: item order kept
    return Claim(awards=tuple(awards)) if awards else None


def total_for(scores_after: Iterable[tuple[str, int]], seats: tuple[Seat, ...]) -> Total:
    """The running totals after a deal, one seat standing for each side."""
    return Total(scores=tuple(Score(_side_seat(side, seats), value)
                              for side, value in scores_after))


def _seat_for(side: str, item: ClaimItem, points: Sequence[Point],
              seats: tuple[Seat, ...]) -> Seat:
    for point in points:
        if point.side == side and point.item is item and point.seat is not None:
            return point.seat
    return _side_seat(side, seats)


def _side_seat(side: str, seats: tuple[Seat, ...]) -> Seat:
    return next(seat for seat in seats if side_of(seat, seats) == side)
