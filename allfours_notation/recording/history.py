"""The session's undo and redo stacks, each state kept as the change from the next.

A session's states are tuples of entries, and nearly every change adds one entry to
the last state: kept whole, a game of n entries would hold n tuples of up to n
entries (a 30-deal game at a venue, 180 entries: about 130 kB a table, growing with
the square of the game).  Here only the newest state is kept whole; each older one
is kept as how to make it from the one after it (how many leading entries the two
share, and its own entries after those), so a step that added one entry costs a few
bytes, and taking the newest off rebuilds the next from it in one slice.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from typing import Generic, TypeVar

__all__ = ["History"]

T = TypeVar("T")


class History(Generic[T]):
    """A stack of tuples (oldest first) with the list operations the session uses."""

    def __init__(self, states: Iterable[tuple[T, ...]] = ()) -> None:
        self._top: tuple[T, ...] | None = None
        # _steps[i] makes state i from state i + 1: (entries shared, state i's own after)
        self._steps: list[tuple[int, tuple[T, ...]]] = []
        for state in states:
            self.append(state)

    def __len__(self) -> int:
        return 0 if self._top is None else len(self._steps) + 1

    def __bool__(self) -> bool:
        return self._top is not None

    def append(self, state: tuple[T, ...]) -> None:
        top = self._top
        if top is not None:
            shared = _shared(top, state)
            self._steps.append((shared, top[shared:]))
        self._top = state

    def pop(self) -> tuple[T, ...]:
        top = self._top
        if top is None:
            raise IndexError("pop from an empty history")
        if self._steps:
            shared, own = self._steps.pop()
            self._top = top[:shared] + own
        else:
            self._top = None
        return top

    def top(self) -> tuple[T, ...]:
        """The newest state (IndexError when there is none)."""
        if self._top is None:
            raise IndexError("an empty history")
        return self._top

    def replace_top(self, count: int, state: tuple[T, ...]) -> None:
        """The newest ``count`` states replaced by ``state`` (``stack[-count:] = [state]``)."""
        for _ in range(min(count, len(self))):
            self.pop()
        self.append(state)

    def clear(self) -> None:
        self._top = None
        self._steps.clear()

    def __iter__(self) -> Iterator[tuple[T, ...]]:
        """The states, oldest first (each rebuilt: for the rare rewrite of them all)."""
        states: list[tuple[T, ...]] = []
        state = self._top
        if state is not None:
            states.append(state)
            for shared, own in reversed(self._steps):
                state = state[:shared] + own
                states.append(state)
        return reversed(states)


def _shared(a: tuple[T, ...], b: tuple[T, ...]) -> int:
    """How many leading items ``a`` and ``b`` share (the same objects, or equal)."""
    limit = min(len(a), len(b))
    count = 0
    while count < limit and (a[count] is b[count] or a[count] == b[count]):
        count += 1
    return count
