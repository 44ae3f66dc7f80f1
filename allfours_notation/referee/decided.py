"""What is decided in a deal being played, what is only provisional, what is unknown.

The table says, for each item of the current deal, whether it is *decided* (no way
of playing the recorded deal on can change it), *provisional* (the side that
would score it if the deal ended now) or *unknown* (the trumps are not settled).
The rules of knowledge are here (docs/rules.md section 8); the deal table of
:mod:`.deal` asks them.

- The turn-up points and the gift are decided when they are counted.
- High is decided once the holder of the highest trump in play is certain: no card
  that nobody has seen can be a higher trump in play; Low likewise with the lower
  trumps (or, under ``low_owner=trick_winner``, once the trick that took it is
  complete).
- Jack (or Hang Jack) is decided when the trick holding it is complete, Game at the
  deal's end; a penalty when its offence is proven and its value cannot change.

"Decided" assumes the deal is played on: a deal later abandoned or conceded scores
no High, Low, Jack or Game (decision 22 of docs/rules-decisions.md).
"""

from __future__ import annotations

from collections.abc import Collection, Iterable
from enum import Enum

from ..cards import Card, Rank, Suit
from ..frozen import frozen
from ..reading.records import ClaimItem
from .scoring import Point

__all__ = ["ItemStatus", "Status", "certain_high_low", "item_of"]


class Status(Enum):
    DECIDED = "decided"
    PROVISIONAL = "provisional"
    UNKNOWN = "unknown"


@frozen
class ItemStatus:
    """One item of the deal as the table knows it now: ``side`` ``None`` is nobody (or,
    unknown, not yet anybody).  The reason is the point's (``point``), written only
    when read, or ``note``."""

    item: ClaimItem
    status: Status
    side: str | None
    points: int
    point: Point | None = None
    note: str = ""

    @property
    def reason(self) -> str:
        if self.point is None:
            return self.note
        return f"{self.note} ({self.point.reason})" if self.note else self.point.reason

    @property
    def decided(self) -> bool:
        return self.status is Status.DECIDED


def item_of(point: Point, status: Status) -> ItemStatus:
    return ItemStatus(point.item, status, point.side, point.points, point)


_SUIT = {suit: tuple(Card(suit, rank) for rank in Rank) for suit in Suit}


def certain_high_low(trump: Suit, in_play: Iterable[Card], accounted: Collection[Card],
                     unseen: int) -> tuple[bool, bool]:
    """Whether High and Low are certain: no card nobody has seen could be a higher
    (lower) trump in play than the highest (lowest) one seen.

    ``in_play`` are the cards known to have been dealt into a hand, ``accounted``
    those known to be out of play (turned up, discarded), ``unseen`` how many cards
    the hands hold that nobody has seen.
    """
    if unseen <= 0:
        return True, True
    ranks = [card.rank for card in in_play if card.suit is trump]
    seen = set(ranks)
    free = [card.rank for card in _SUIT[trump]
            if card.rank not in seen and card not in accounted]
    if not ranks:
        return not free, not free
    top, bottom = max(ranks), min(ranks)
    return all(rank < top for rank in free), all(rank > bottom for rank in free)
