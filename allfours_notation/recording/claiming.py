"""The other side's claim, typed item by item when a deal is over: a whole deal.

A claim replaces every item of the deal: an item it leaves out is claimed to have gone
to nobody.  So a claim starts from the scorer's items (what the recorder has for the
deal, :meth:`.session.Session.claim_start`) and only what the other side disputes is
changed: ``l s`` gives Low to South, ``l -`` takes Low out, and each change can be
taken back.  A one-item disagreement is then a one-item dispute, not one per item left
out.  Any front end (the recorder's screen, a phone) shows :meth:`ClaimDraft.prompt`
and records :meth:`ClaimDraft.answer`.
"""

from __future__ import annotations

from ..cards import Seat
from ..frozen import frozen
from ..reading.records import Award, ClaimItem
from .entries import RESULT_KEYS

__all__ = ["ClaimDraft", "items_text"]

# The one Jack of trumps: a claim holds it as the Jack or as the Hang Jack, never both.
_ONE_JACK = frozenset({ClaimItem.JACK, ClaimItem.HANG_JACK})
# Items a deal may hold several of: one typed is added, not put in place of the other.
_SEVERAL = frozenset({ClaimItem.KICK, ClaimItem.PENALTY})
_SEATS = {seat.value.lower(): seat for seat in Seat}


def items_text(awards: tuple[Award, ...]) -> str:
    """``N high low  S jack game``: the items by seat, seats in the order they come
    (``nothing`` for none)."""
    by_seat: dict[Seat, list[str]] = {}
    for award in awards:
        word = award.item.value + (f" {award.points}" if award.points is not None else "")
        by_seat.setdefault(award.seat, []).append(word)
    return "  ".join(f"{seat.letter} " + " ".join(words)
                     for seat, words in by_seat.items()) or "nothing"


def _same_item(one: ClaimItem, other: ClaimItem) -> bool:
    return one is other or (one in _ONE_JACK and other in _ONE_JACK)


@frozen
class ClaimDraft:
    """The claim being typed: the scorer's items (``scorer``), changed item by item
    (``awards``); ``earlier``: the claim before each change, the last change last.
    ``dealer`` and ``elder``: the seats a kick and a gift go to (typed with no seat)."""

    scorer: tuple[Award, ...]
    awards: tuple[Award, ...]
    dealer: Seat | None = None
    elder: Seat | None = None
    earlier: tuple[tuple[Award, ...], ...] = ()

    @property
    def changed(self) -> bool:
        """Whether the claim differs from the scorer's items (in any order)."""
        return sorted(map(repr, self.awards)) != sorted(map(repr, self.scorer))

    def give(self, item: ClaimItem, seat: Seat | None, points: int | None = None) -> ClaimDraft:
        """``item`` to ``seat``; ``None``: to nobody (every one of it taken out).

        An item a deal has one of (High, Low, Game, the Jack or Hang Jack) takes the
        place of the claim's one; a gift takes the place of the same seat's gift (with
        three players each opponent may have one); a kick or a penalty is added."""
        replaced = [at for at, award in enumerate(self.awards) if _same_item(award.item, item)
                    and (seat is None or (item not in _SEVERAL and
                         (item is not ClaimItem.GIFT or award.seat == seat)))]
        kept = [award for at, award in enumerate(self.awards) if at not in replaced]
        if seat is not None:  # in the place of the one it replaces (the claim reads on)
            at = replaced[0] if replaced else len(self.awards)
            kept.insert(at - sum(1 for was in replaced if was < at), Award(seat, item, points))
        return ClaimDraft(self.scorer, tuple(kept), self.dealer, self.elder,
                          (*self.earlier, self.awards))

    def typed(self, key: str, side: str = "") -> ClaimDraft | str:
        """The change typed by keys: an item key (``l``, ``k``, ``t``, …) then a seat
        letter, ``-`` (nobody) or a kick's points; a kick's seat is the dealer's and a
        gift's the elder's when no seat is typed.  A string: why it is not a change."""
        item = RESULT_KEYS.get(key.lower())
        if item is None:
            return f"{key!r} is not an item key ({' '.join(RESULT_KEYS)})"
        side = side.strip().lower()
        if side == "-":
            return self.give(item, None)
        if side.isdigit() or not side:
            fixed = self.elder if item is ClaimItem.GIFT else self.dealer
            if fixed is None or (side and item is not ClaimItem.KICK):
                return f"{item.value}: which side? type the seat, or - for nobody"
            return self.give(item, fixed, int(side) if side else None)
        seat = _SEATS.get(side)
        if seat is None:
            return f"{item.value}: which side? type the seat, or - for nobody"
        return self.give(item, seat)

    def back(self) -> ClaimDraft | None:
        """The claim before the last change; ``None`` when nothing was changed."""
        if not self.earlier:
            return None
        return ClaimDraft(self.scorer, self.earlier[-1], self.dealer, self.elder,
                          self.earlier[:-1])

    def entry(self) -> str:
        """The line that records it: ``claim N high low S jack`` (a claim of nothing
        names a seat and no item)."""
        if not self.awards:
            return "claim " + (self.scorer[0].seat.letter if self.scorer else
                               self.dealer.letter if self.dealer is not None else "N")
        return "claim " + items_text(self.awards)

    def answer(self) -> str:
        """What Enter records: the claim, or ``y`` (the other side agrees) when it is
        the scorer's items unchanged."""
        return self.entry() if self.changed else "y"

    def prompt(self) -> str:
        """What a front end says while the claim is typed."""
        now = items_text(self.awards)
        was = "" if not self.changed else f" (the scorer's: {items_text(self.scorer)})"
        return (f"their claim, the whole deal: {now}{was}. An item key and a side changes "
                "it (l s), and - takes it out (l -); Backspace takes back a change, Enter "
                "records it, Esc cancels")
