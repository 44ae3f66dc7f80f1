"""One deal at the table, whole: the phases together, and each event of an open
deal sent to its method (:data:`TAKERS`).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ...reading.records import (
    Abandoned,
    Call,
    CallKind,
    Claim,
    Concede,
    Discard,
    Hand,
    Pack,
    Penalty,
    Play,
    Redeal,
    Results,
    Total,
    Trick,
    TurnUp,
)
from .answers import Event
from .closing import Closing


class DealTable(Closing):
    """One deal at the table: opening, play, scoring; the state moves one event at a time."""

    __slots__ = ()

    def take_play(self, play: Play) -> None:
        """:meth:`take` for a :class:`Play`, the event nearly every step is."""
        if self.closed:
            self.report("AFN305", "play after the deal was scored", play.span)
            return
        if not self.started:
            self.start()
        self.place((play,))

    def take_trick(self, trick: Trick) -> None:
        """:meth:`take` for a :class:`Trick` record (a numbered trick opens)."""
        if self.closed:
            self.report("AFN305", "play after the deal was scored", trick.span)
            return
        if not self.started:
            self.start()
        self.open_trick(trick.number, trick.span, explicit=True)

    def take_hand(self, event: Hand) -> None:
        self.hand(self.as_the_pack_deals(event))

    def take_turn_up(self, event: TurnUp) -> None:
        if self.closed:
            self.report("AFN305", "play after the deal was scored", event.span)
            return
        self.start()
        self.to_move = self.elder if self.g.decided is None else None
        self.turn_up(event)

    def take_call(self, event: Call) -> None:
        if self.closed:
            self.report("AFN305", "play after the deal was scored", event.span)
            return
        self.start()
        self.to_move = self.elder if event.kind is CallKind.STANDS else None
        self.call(event)

    def take_discard(self, event: Discard) -> None:
        if self.closed:
            self.report("AFN305", "play after the deal was scored", event.span)
            return
        self.start()
        self.discard(event)

    def take(self, event: Event) -> None:
        """One event of this deal (:data:`TAKERS` sends each kind straight to its
        method; this is the long way, for an event of any other type)."""
        taker = TAKERS.get(type(event))
        if taker is not None:
            taker(self, event)
            return
        if isinstance(event, Hand):
            self.hand(self.as_the_pack_deals(event))
            return
        if isinstance(event, Pack):
            self.pack(event)
            return
        if isinstance(event, (Penalty, Claim, Total, Redeal, Abandoned, Concede)):
            self.end_event(event)
            return
        if self.closed:
            self.report("AFN305", "play after the deal was scored", getattr(event, "span", None))
            return
        self.start()
        if isinstance(event, TurnUp):
            self.to_move = self.elder if self.g.decided is None else None
            self.turn_up(event)
        elif isinstance(event, Call):
            self.to_move = self.elder if event.kind is CallKind.STANDS else None
            self.call(event)
        elif isinstance(event, Discard):
            self.discard(event)
        elif isinstance(event, Trick):
            self.open_trick(event.number, event.span, explicit=True)
        elif isinstance(event, Play):
            self.take_play(event)



# Each event of an open deal, by its type, to the deal table's method for it.
TAKERS: dict[type, Callable[[DealTable, Any], None]] = {
    Play: DealTable.take_play,
    Trick: DealTable.take_trick,
    Hand: DealTable.take_hand,
    Pack: DealTable.pack,
    TurnUp: DealTable.take_turn_up,
    Call: DealTable.take_call,
    Discard: DealTable.take_discard,
    Penalty: DealTable.end_event,
    Claim: DealTable.end_event,
    Results: DealTable.take_results,
    Total: DealTable.end_event,
    Redeal: DealTable.end_event,
    Abandoned: DealTable.end_event,
    Concede: DealTable.end_event,
}
