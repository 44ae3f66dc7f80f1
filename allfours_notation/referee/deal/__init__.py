"""The referee's table: a game of All Fours taken one event at a time.

:class:`Table` (in :mod:`.table`) is the public door: it takes events, answers each
with an :class:`Outcome`, says what it :class:`Expect`\\ s next and which cards are
legal.  An open deal is a :class:`~.dealtable.DealTable`, built phase by phase:
:mod:`.base` (its state and plumbing) → :mod:`.opening` → :mod:`.tricks` →
:mod:`.closing`.  Who holds which card is one holdings ledger, :mod:`.holdings`.
"""

from .answers import DealOver, DealStart, Event, Expect, GameOver, Outcome, Phase
from .table import Table, table_seats

__all__ = [
    "DealOver",
    "DealStart",
    "Event",
    "Expect",
    "GameOver",
    "Outcome",
    "Phase",
    "Table",
    "table_seats",
]
