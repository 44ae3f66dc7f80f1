"""Clocks: repeated in-process timings, cold subprocess wall times, peak memory."""

from __future__ import annotations

import gc
import os
import statistics
import subprocess
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path


@dataclass(frozen=True)
class Timing:
    """Wall-clock seconds of repeated runs of one thing."""

    runs: tuple[float, ...]

    @property
    def median(self) -> float:
        return statistics.median(self.runs)

    @property
    def min(self) -> float:
        return min(self.runs)

    @property
    def max(self) -> float:
        return max(self.runs)


def time_repeated(work: Callable[[], object], repeats: int) -> tuple[Timing, object]:
    """Run ``work`` ``repeats`` times; return the timings and the last run's result.

    A collection runs before each run (not inside it), so one run does not pay
    for the garbage of the one before.
    """
    runs: list[float] = []
    result: object = None
    for _ in range(repeats):
        result = None
        gc.collect()
        start = time.perf_counter()
        result = work()
        runs.append(time.perf_counter() - start)
    return Timing(tuple(runs)), result


@dataclass(frozen=True)
class ProcessRun:
    """One child process: its wall time, peak resident memory, exit code and output."""

    wall: float
    peak_rss_mb: float
    returncode: int
    stdout: str = ""


def run_process(argv: Sequence[str], *, cwd: Path | None = None,
                capture: bool = False) -> ProcessRun:
    """Run ``argv``; measure wall time and peak RSS; keep its output if ``capture``.

    ``os.wait4`` gives the resource usage of exactly this child, so peak memory
    is not mixed with that of other children.  Captured output must be small
    (a line or two): it is read after the child ends.
    """
    env = dict(os.environ)
    env["PYTHONDONTWRITEBYTECODE"] = "1"
    start = time.perf_counter()
    process = subprocess.Popen(list(argv), cwd=cwd, env=env, stdin=subprocess.DEVNULL,
                               stdout=subprocess.PIPE if capture else subprocess.DEVNULL,
                               stderr=subprocess.DEVNULL)
    _, status, usage = os.wait4(process.pid, 0)
    wall = time.perf_counter() - start
    process.returncode = os.waitstatus_to_exitcode(status)
    output = ""
    if capture and process.stdout is not None:
        output = process.stdout.read().decode("utf-8", errors="replace")
        process.stdout.close()
    # ru_maxrss is in kilobytes on Linux.
    return ProcessRun(wall, usage.ru_maxrss / 1024, process.returncode, output)


def time_process(argv: Sequence[str], repeats: int, *, cwd: Path | None = None) -> Timing:
    """Cold wall time of a command: a fresh interpreter each run."""
    return Timing(tuple(run_process(argv, cwd=cwd).wall for _ in range(repeats)))


def python_command(*args: str) -> list[str]:
    """This interpreter with ``args``."""
    return [sys.executable, *args]


def load_average() -> tuple[float, float, float]:
    return os.getloadavg()
