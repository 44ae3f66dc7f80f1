"""Keeping Python's cycle collector off the analyses the server holds.

The server keeps the analysis of every game of an open document between keystrokes
(:mod:`.document`): for a 1 MB document about 300,000 objects that live for the whole
session.  Python's collector walks all of them in each full collection, and one falls
due every few keystrokes: 120 ms each on the 2-core development machine, the slowest
keystrokes of a typing session (issue 27: keystroke to diagnostics, 95th percentile,
1 MB document, typed key by key: 87 ms in process, 73 ms with the analyses frozen;
the slowest keystroke 209 ms, then 89 ms).

So after each analysis the objects alive are *frozen* (:func:`gc.freeze`): moved out of
the collector's sight.  They are still freed the usual way, when nothing refers to them
(an edited game's old analysis goes the moment the new one replaces it); what a freeze
hides is only garbage in reference cycles, which the analyses do not make (a test checks
it) but asyncio and pygls can.  That is swept up once the person stops typing: after
:data:`IDLE_SWEEP_SECONDS` without a change, everything is unfrozen, collected once, and
frozen again, while nobody waits for an answer.
"""

from __future__ import annotations

import asyncio
import gc

IDLE_SWEEP_SECONDS = 5.0


class HeapKeeper:
    """Freezes what is alive after each analysis; sweeps cycles once the edits pause."""

    def __init__(self, idle: float = IDLE_SWEEP_SECONDS) -> None:
        self.idle = idle
        self._sweep: asyncio.TimerHandle | None = None

    def settle(self) -> None:
        """An analysis is done: freeze what is alive now, and sweep if nothing else comes.

        Called on the event loop.  A freeze is cheap (the collector's lists are joined,
        nothing is walked)."""
        gc.freeze()
        self.postpone()
        self._sweep = asyncio.get_running_loop().call_later(self.idle, self.sweep)

    @property
    def sweep_pending(self) -> bool:
        """Whether a sweep will run if no change comes first."""
        return self._sweep is not None and not self._sweep.cancelled()

    def postpone(self) -> None:
        """A change arrived: no sweep while the person is typing."""
        if self._sweep is not None:
            self._sweep.cancel()
            self._sweep = None

    def sweep(self) -> int:
        """Collect the cycles that became garbage since the last sweep; how many objects."""
        self._sweep = None
        gc.unfreeze()
        found = gc.collect()
        gc.freeze()
        return found
