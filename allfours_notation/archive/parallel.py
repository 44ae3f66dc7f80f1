"""An ordered map over worker processes, with a bounded number in flight.

``allfours check -j N`` hands games to N processes and must print exactly what
``-j 1`` prints, in the same order: results are taken back in submission order.
At most a few batches per worker are queued at once, so neither the pending
inputs nor the finished results pile up in memory when the printing side is
slower than the workers.

Workers come from a ``forkserver``: a fresh single-threaded process that imports the
mapped function's module and the parser and referee (:mod:`.worker_start`), builds
the parser once, then forks each worker from itself.  Forking the caller instead
would copy whatever threads it runs (a progress bar's, a test runner's), which may
deadlock the child and which Python 3.12 warns about; starting each worker afresh
(``spawn``) would import the package once per worker.  Where there is no
``forkserver`` (Windows) the map runs in-process.
"""

from __future__ import annotations

import os
from collections import deque
from collections.abc import Callable, Iterable, Iterator
from typing import TYPE_CHECKING, TypeVar

if TYPE_CHECKING:  # multiprocessing is imported when workers are asked for (issue 27)
    from multiprocessing.context import ForkServerContext
    from multiprocessing.pool import AsyncResult, Pool

In = TypeVar("In")
Out = TypeVar("Out")

BATCH = 16  # items per task: enough to make the pickling worth it
IN_FLIGHT_PER_WORKER = 4


def cpu_count() -> int:
    """Cores this process may run on (the default of ``-j``)."""
    try:
        return len(os.sched_getaffinity(0)) or 1
    except AttributeError:  # not on Linux
        return os.cpu_count() or 1


START_METHOD = "forkserver"
WORKER_START = "allfours_notation.archive.worker_start"  # what the forkserver imports


def can_start_workers() -> bool:
    """Whether this platform has the way :class:`WorkerPool` starts its workers."""
    import multiprocessing

    return START_METHOD in multiprocessing.get_all_start_methods()


def context(*preload: str) -> ForkServerContext:
    """The forkserver's context; the server, when this call starts it, imports
    :data:`WORKER_START` and the modules ``preload`` names (a later call's ``preload``
    is not heeded: one server serves a process)."""
    import multiprocessing

    context = multiprocessing.get_context("forkserver")
    context.set_forkserver_preload([WORKER_START, *preload])
    return context


def _run_batch(function: Callable[[In], Out], batch: list[In]) -> list[Out]:
    return [function(item) for item in batch]


class WorkerPool:
    """A pool of ``jobs`` worker processes, made on first use, closed with ``close``."""

    def __init__(self, jobs: int) -> None:
        self.jobs = jobs
        self._pool: Pool | None = None

    @property
    def parallel(self) -> bool:
        """Whether :meth:`map` hands work to other processes (else it runs in this one,
        and a caller may skip what only crossing processes needs, such as packing)."""
        return self.jobs > 1 and can_start_workers()

    def map(self, function: Callable[[In], Out], items: Iterable[In], *,
            batch: int = BATCH) -> Iterator[Out]:
        """``function`` of each item, in order; ``function`` must be a module-level
        function (it is pickled by name).  Items go to the workers ``batch`` at a
        time (1 when each item is a batch already)."""
        if not self.parallel:
            yield from map(function, items)
            return
        if self._pool is None:
            self._pool = context(function.__module__).Pool(self.jobs)
        pending: deque[AsyncResult[list[Out]]] = deque()
        limit = self.jobs * IN_FLIGHT_PER_WORKER
        for part in _batches(items, batch):
            pending.append(self._pool.apply_async(_run_batch, (function, part)))
            while len(pending) >= limit:
                yield from pending.popleft().get()
        while pending:
            yield from pending.popleft().get()

    def close(self) -> None:
        if self._pool is not None:
            self._pool.close()
            self._pool.join()
            self._pool = None

    def __enter__(self) -> WorkerPool:
        return self

    def __exit__(self, *exc: object) -> None:
        if self._pool is not None and exc[0] is not None:
            self._pool.terminate()
            self._pool.join()
            self._pool = None
        self.close()


def _batches(items: Iterable[In], size: int) -> Iterator[list[In]]:
    batch: list[In] = []
    for item in items:
        batch.append(item)
        if len(batch) >= size:
            yield batch
            batch = []
    if batch:
        yield batch
