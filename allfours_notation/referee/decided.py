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
- Under Foster's cap (rule 27) an item that could bring its side to the target is not
  decided while a revoke by that side could still come: the revoke would cut it (to 0
  if the side stood at target - 1).  A side whose revoke is proven has its items listed
  as the cap cuts them (:func:`under_the_cap`).

"Decided" assumes the deal is played on: a deal later abandoned or conceded scores
no High, Low, Jack or Game (decision 22 of docs/rules-decisions.md).
"""

from __future__ import annotations

from collections.abc import Collection, Iterable, Mapping, Sequence
from enum import Enum
from typing import Any

from ..cards import Card, Rank, Suit
from ..frozen import draft_of, frozen
from ..reading.records import ClaimItem
from .scoring import Point, cut_point

__all__ = ["ItemStatus", "Status", "certain_high_low", "item_of", "under_the_cap"]


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
    """The item ``point`` scores (or would, as ``status`` says), filled in here as its
    draft (:func:`..frozen.draft_of`) rather than through ``__init__``: the items "if
    the deal ended now" make about a hundred a game of a replay page, and the call with
    its arguments cost as much again as the stores (the stepping replay 0.3 M
    instructions a game the dearer with ``Point`` and ``ItemStatus`` made by their
    ``__init__``, issue 38)."""
    made = _new(_ItemDraft)
    made.item = point.item
    made.status = status
    made.side = point.side
    made.points = point.points
    made.point = point
    made.note = ""
    made.__class__ = ItemStatus
    return made  # type: ignore[no-any-return]


_new: Any = object.__new__
_ItemDraft = draft_of(ItemStatus)


_ACE, _TWO = int(Rank.ACE), int(Rank.TWO)  # read as globals: asked at every making


def certain_high_low(trump: Suit, in_play: Iterable[Card], accounted: Collection[Card],
                     unseen: int) -> tuple[bool, bool]:
    """Whether High and Low are certain: no card nobody has seen could be a higher
    (lower) trump in play than the highest (lowest) one seen, that is every trump above
    the highest seen (below the lowest) is known to be out of play.  A trump seen between
    the two changes neither.

    ``in_play`` are the cards known to have been dealt into a hand, ``accounted``
    those known to be out of play (turned up, discarded), ``unseen`` how many cards
    the hands hold that nobody has seen.
    """
    if unseen <= 0:
        return True, True
    top: Rank | None = None
    bottom: Rank | None = None
    for card in in_play:
        if card.suit is trump:
            rank = card.rank
            if top is None or rank > top:
                top = rank
            if bottom is None or rank < bottom:
                bottom = rank
    # every trump above the highest seen (below the lowest) is out of play: as many of
    # the cards out of play are such trumps as there are ranks above (below) it, counted
    # over the few cards out of play rather than the thirteen of the suit
    above: set[Card] = set()
    below: set[Card] = set()
    for card in accounted:
        if card.suit is trump:
            rank = card.rank
            if top is None or rank > top:
                above.add(card)
            if bottom is None or rank < bottom:
                below.add(card)
    if top is None or bottom is None:  # no trump seen: certain only with every one out
        every = len(above) == len(Rank)
        return every, every
    return len(above) == _ACE - top, len(below) == bottom - _TWO


def under_the_cap(points: Sequence[Point], statuses: Sequence[Status], scores: Mapping[str, int],
                  target: int, capped: Collection[str], *,
                  penalties_first: bool) -> tuple[list[Point], list[Status]]:
    """``points`` (in counting order, as if the deal ended now) and their ``statuses`` as
    Foster's cap leaves them while the deal is still played (rule 27).

    An item of a side in ``capped`` (its revoke proven) is cut as the cap would cut it
    now.  An item that could bring its side to ``target`` is not decided: a revoke still
    to come (or, for a capped side, an earlier item not yet decided) could cut it.
    "Could": the side's score before the deal, plus every earlier item that is its own
    or not yet decided, plus this one, reaches the target; or items the deal has not yet
    shown may still be counted before it (a penalty, which a revoke still to come adds
    before or among the penalties: before High under ``penalties_first``).  An item of a
    capped side keeps its status when its cut is certain: the side stood at target - 1
    before it whatever comes (cut to 0), or every item before it is decided and none
    can come between.
    """
    running = dict(scores)
    most = dict(scores)  # the most each side could have before the next item
    least = dict(scores)  # the least
    every_earlier_decided = True
    kept_points: list[Point] = []
    kept_statuses: list[Status] = []
    for point, status in zip(points, statuses, strict=True):
        side = point.side
        before = running.get(side, 0)
        if side in capped and before + point.points >= target:
            point = cut_point(point, max(before, target - 1) - before)
        more_may_come = point.item is ClaimItem.PENALTY or \
            (penalties_first and point.item not in (ClaimItem.GIFT, ClaimItem.KICK))
        could_reach = more_may_come or most.get(side, 0) + point.points >= target
        certain_cut = side in capped and (least.get(side, 0) >= target - 1 or
                                          (every_earlier_decided and not more_may_come))
        if status is Status.DECIDED and could_reach and not certain_cut:
            status = Status.PROVISIONAL
        running[side] = before + point.points
        if status is Status.DECIDED:
            most[side] = most.get(side, 0) + point.points
            least[side] = least.get(side, 0) + point.points
        else:
            most = {name: total + point.points for name, total in most.items()}
            most.setdefault(side, point.points)
            every_earlier_decided = False
        kept_points.append(point)
        kept_statuses.append(status)
    return kept_points, kept_statuses
