"""One deal at the table, whole: the phases together, and each event of an open
deal sent to its method (:meth:`DealTable.take`).
"""

from __future__ import annotations

from ...reading.records import (
    Abandoned,
    Call,
    CallKind,
    Claim,
    Concede,
    Count,
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
        """One event of this open deal, sent to the phase that takes it (the table
        itself takes a deal's start, :class:`.answers.DealOver` and
        :class:`.answers.GameOver`)."""
        if isinstance(event, Play):
            self.take_play(event)
        elif isinstance(event, Trick):
            self.take_trick(event)
        elif isinstance(event, Hand):
            self.take_hand(event)
        elif isinstance(event, Pack):
            self.pack(event)
        elif isinstance(event, TurnUp):
            self.take_turn_up(event)
        elif isinstance(event, Call):
            self.take_call(event)
        elif isinstance(event, Discard):
            self.take_discard(event)
        elif isinstance(event, Results):
            self.take_results(event)
        elif isinstance(event, Count):
            self.count = event  # checked when the deal ends (see Closing.counted_pips)
        elif isinstance(event, (Penalty, Claim, Total, Redeal, Abandoned, Concede)):
            self.end_event(event)
