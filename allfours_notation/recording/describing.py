"""What the recorder says of an entry: one line describing it, and whether it may come now.

The recorder's own entries (who deals, the other side's word, a deal's results, a
director's ruling) are taken only where the recorder is at a point that takes them;
:func:`placement_problem` says why one cannot come now.
"""

from __future__ import annotations

from ..reading.records import (
    Abandoned,
    Call,
    Claim,
    Concede,
    Discard,
    Hand,
    Pack,
    Penalty,
    Play,
    Redeal,
    RedealReason,
    TurnUp,
)
from .entries import (
    Agreed,
    DealStart,
    Entry,
    Expectation,
    GameTied,
    Item,
    Phase,
    ResultsDone,
    Ruling,
)

__all__ = ["describe", "placement_problem"]


# table's events go to the table, which judges whether each may come now.
_OWN_ENTRIES = (DealStart, Agreed, Claim, Ruling, Item, GameTied, ResultsDone)
_BETWEEN: dict[Phase, tuple[type, ...]] = {
    Phase.DEALER: (DealStart, Claim, Ruling),
    Phase.RESULTS: (Item, GameTied, ResultsDone, Ruling, Redeal, Abandoned, Concede, TurnUp,
                    Call),
    Phase.CONFIRM: (Agreed, Claim, Ruling),
    Phase.OVER: (Claim, Ruling),
}


def placement_problem(entry: Entry, expecting: Expectation, exhausted: bool) -> str | None:
    """Why ``entry`` cannot come now, when the recorder is not at a point that takes it
    (``exhausted``: the table's word that the pack is used up)."""
    if isinstance(entry, type(None)):
        return "nothing entered"
    taken = _BETWEEN.get(expecting.phase)
    if not isinstance(entry, taken) if taken is not None else isinstance(entry, _OWN_ENTRIES):
        return f"not now: {expecting.text}"
    if isinstance(entry, Redeal) and entry.reason is RedealReason.EXHAUSTED and \
            not exhausted and expecting.phase is not Phase.RESULTS:
        return "refused: 'redeal exhausted' only when a run has used up the pack"
    return None


def describe(entry: Entry) -> str:
    """One line for an entry in the list of entries."""
    if isinstance(entry, DealStart):
        return f"{entry.dealer.letter} deals"
    if isinstance(entry, Hand):
        return f"{entry.seat.letter} holds " + " ".join(str(c) if c else "??"
                                                        for c in entry.cards)
    if isinstance(entry, TurnUp):
        return f"turned up {entry.card}"
    if isinstance(entry, Call):
        return f"{entry.seat.letter} {entry.kind.value}"
    if isinstance(entry, Discard):
        return f"{entry.seat.letter} discards " + " ".join(str(c) if c else "??"
                                                             for c in entry.cards)
    if isinstance(entry, Pack):
        return "the pack, top first: " + " ".join(str(c) if c else "??" for c in entry.cards)
    if isinstance(entry, Play):
        return f"{entry.seat.letter if entry.seat else '?'} plays {entry.card}"
    if isinstance(entry, Penalty):
        return f"penalty {entry.offender.letter} {entry.kind.value}"
    if isinstance(entry, Redeal):
        return f"redeal {entry.reason.value}"
    if isinstance(entry, Abandoned):
        return "abandoned"
    if isinstance(entry, Concede):
        return f"{entry.seat.letter} concedes"
    if isinstance(entry, Item):
        award = entry.award
        return f"{award.seat.letter} {award.item.value}" + \
            (f" {award.points}" if award.points is not None else "")
    if isinstance(entry, GameTied):
        tie = entry.award
        return "Game tied" + (f": {tie.seat.letter} game (the rules' tie)" if tie else
                              ": nobody scores it")
    if isinstance(entry, ResultsDone):
        return "results complete"
    if isinstance(entry, Agreed):
        return "agreed by the other side"
    if isinstance(entry, Ruling):
        return "director's ruling: " + " ".join(f"{a.seat.letter} {a.item.value}"
                                                for a in entry.awards)
    return "claim " + " ".join(f"{a.seat.letter} {a.item.value}" for a in entry.awards)
