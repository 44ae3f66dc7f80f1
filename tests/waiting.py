"""Waiting for a condition in the Pilot tests, never for a fixed time.

A test that sleeps a fixed time and then looks fails on a machine slower than the one it
was written on (a loaded CI runner, two xdist workers beside other work) and wastes the
time on a fast one.  :func:`until` looks again and again, letting the app work in
between, and returns as soon as the condition holds; only a condition that never holds
costs the whole patience, and then the test fails saying what it waited for.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable
from typing import Any, TypeVar

from textual.pilot import Pilot

# Generous: a loaded machine is slow; a quiet one is not held up, since every wait ends
# as soon as its condition holds.
PATIENCE_SECONDS = 60.0
# How often to look: the app's worker threads and timers run in between.
LOOK_EVERY_SECONDS = 0.01

Seen = TypeVar("Seen")


async def holds(condition: Callable[[], object], what: str, *,
                patience: float = PATIENCE_SECONDS) -> None:
    """Wait until ``condition()`` is true, or fail after ``patience`` seconds naming
    ``what`` was awaited.  Whatever runs in this event loop works while this waits."""
    deadline = time.monotonic() + patience
    while not condition():
        if time.monotonic() > deadline:
            raise AssertionError(f"waited {patience:.0f} s for {what}")
        await asyncio.sleep(LOOK_EVERY_SECONDS)


async def until(pilot: Pilot[Any], condition: Callable[[], object], what: str, *,
                patience: float = PATIENCE_SECONDS) -> None:
    """Wait until ``condition()`` is true (:func:`holds`), then until the app has handled
    what is pending (:meth:`Pilot.pause`)."""
    await holds(condition, what, patience=patience)
    await pilot.pause()


def looked_until(look: Callable[[], Seen], condition: Callable[[Seen], object], what: str, *,
                 patience: float = PATIENCE_SECONDS) -> Seen:
    """The same wait outside an event loop (another process: tmux, a server): ``look()``
    again and again until ``condition`` holds of what it saw, and return that, or fail
    after ``patience`` seconds naming ``what`` with the last thing seen."""
    deadline = time.monotonic() + patience
    while True:
        seen = look()
        if condition(seen):
            return seen
        if time.monotonic() > deadline:
            raise AssertionError(f"waited {patience:.0f} s for {what}; last seen:\n{seen}")
        time.sleep(LOOK_EVERY_SECONDS)
