"""A progress bar on standard error, shown only on a terminal and for long runs.

Progress is counted in bytes of input (known from the files' sizes before any
is read), so one bar covers many files.  Piped or redirected output never sees
it, and what the command prints on standard output goes above the bar.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager

LONG_RUN_BYTES = 2_000_000  # about two seconds of checking: below that, no bar

Advance = Callable[[int], None]


def _nothing(_: int) -> None:
    return None


def input_bytes(names: Sequence[str]) -> int:
    """Total size of the named files (``-`` and unreadable names count nothing)."""
    total = 0
    for name in names:
        if name == "-":
            continue
        try:
            total += os.stat(name).st_size
        except OSError:
            continue
    return total


@contextmanager
def progress_bar(names: Sequence[str], label: str, *, enabled: bool = True) -> Iterator[Advance]:
    """Yields ``advance(n_bytes)``; draws a bar only when standard error is a terminal
    and the input is large enough to wait for."""
    total = input_bytes(names)
    if not enabled or total < LONG_RUN_BYTES or not sys.stderr.isatty():
        yield _nothing
        return
    from rich.console import Console
    from rich.progress import (
        BarColumn,
        DownloadColumn,
        Progress,
        TextColumn,
        TimeRemainingColumn,
        TransferSpeedColumn,
    )

    progress = Progress(TextColumn("{task.description}"), BarColumn(), DownloadColumn(),
                        TransferSpeedColumn(), TimeRemainingColumn(),
                        console=Console(stderr=True, emoji=False), transient=True,
                        redirect_stdout=True)
    with progress:
        task = progress.add_task(label, total=total)
        yield lambda n: progress.advance(task, n)
