"""The other side's claim, typed by keys when a deal is over: a whole deal.

A claim replaces every item of the deal: an item it leaves out is claimed to have gone
to nobody.  So the draft starts from the scorer's items (what the recorder shows for
the deal) and the scorer changes only what the other side disputes: ``l s`` gives Low
to South, ``l -`` takes Low out.  A one-item disagreement is then a one-item dispute.
"""

from __future__ import annotations

from allfours_notation import Seat
from allfours_notation.reading.records import Award, ClaimItem

__all__ = ["ClaimDraft", "awards_text"]

# Items a deal may hold several of: a new one is added, not put in place of the old.
_SEVERAL = frozenset({ClaimItem.PENALTY})


def awards_text(awards: tuple[Award, ...] | list[Award]) -> str:
    """``N high low  S jack game``: the items by seat, seats in the order they come
    (``nothing`` for none)."""
    by_seat: dict[Seat, list[str]] = {}
    for award in awards:
        word = award.item.value + (f" {award.points}" if award.points is not None else "")
        by_seat.setdefault(award.seat, []).append(word)
    return "  ".join(f"{seat.letter} " + " ".join(words) for seat, words in by_seat.items()) \
        or "nothing"


class ClaimDraft:
    """The claim being typed: the scorer's items, changed item by item."""

    def __init__(self, scorer: tuple[Award, ...]) -> None:
        self.scorer = scorer
        self.awards: list[Award] = list(scorer)
        self._history: list[list[Award]] = []

    @property
    def changed(self) -> bool:
        return sorted(map(repr, self.awards)) != sorted(map(repr, self.scorer))

    def give(self, item: ClaimItem, seat: Seat | None, points: int | None = None) -> None:
        """``item`` to ``seat`` (``None``: to nobody, taken out of the claim)."""
        self._history.append(list(self.awards))
        if item not in _SEVERAL or seat is None:
            self.awards = [award for award in self.awards if award.item is not item]
        if seat is not None:
            self.awards.append(Award(seat, item, points))
            order = list(ClaimItem)
            self.awards.sort(key=lambda award: order.index(award.item))

    def back(self) -> bool:
        """Take back the last change; False when there is none."""
        if not self._history:
            return False
        self.awards = self._history.pop()
        return True

    def entry(self) -> str:
        """The line that records it: ``claim N high low S jack`` (a claim of nothing
        names a seat and no item)."""
        if not self.awards:
            return "claim " + (self.scorer[0].seat.letter if self.scorer else "N")
        return "claim " + awards_text(self.awards)

    def prompt(self) -> str:
        """What the status line says while the claim is typed."""
        now = awards_text(self.awards)
        was = "" if not self.changed else f" (the scorer's: {awards_text(self.scorer)})"
        return (f"their claim, the whole deal: {now}{was}. An item key and a side changes "
                "it (l s), and - takes it out (l -); Enter records it, Esc cancels")
