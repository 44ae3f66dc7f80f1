"""Clocks: repeated in-process timings, cold subprocess wall times, peak memory."""

from __future__ import annotations

import gc
import json
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
    """Wall-clock seconds of repeated runs of one thing, and (for work done in this
    process) the CPU seconds of each: on a shared machine CPU time moves less with
    the load than wall time does."""

    runs: tuple[float, ...]
    cpu_runs: tuple[float, ...] = ()

    @property
    def median(self) -> float:
        return statistics.median(self.runs)

    @property
    def min(self) -> float:
        return min(self.runs)

    @property
    def max(self) -> float:
        return max(self.runs)

    @property
    def cpu_median(self) -> float | None:
        return statistics.median(self.cpu_runs) if self.cpu_runs else None


def time_repeated(work: Callable[[], object], repeats: int) -> tuple[Timing, object]:
    """Run ``work`` ``repeats`` times; return the timings and the last run's result.

    A collection runs before each run (not inside it), so one run does not pay
    for the garbage of the one before.
    """
    runs: list[float] = []
    cpu: list[float] = []
    result: object = None
    for _ in range(repeats):
        result = None
        gc.collect()
        start, start_cpu = time.perf_counter(), time.process_time()
        result = work()
        cpu.append(time.process_time() - start_cpu)
        runs.append(time.perf_counter() - start)
    return Timing(tuple(runs), tuple(cpu)), result


@dataclass(frozen=True)
class ProcessRun:
    """One child process: its wall time, exit code and (if captured) its output."""

    wall: float
    returncode: int
    stdout: str = ""
    stderr: str = ""


def run_process(argv: Sequence[str], *, cwd: Path | None = None,
                capture: bool = False) -> ProcessRun:
    """Run ``argv``; measure its wall time; keep its (small) output if ``capture``."""
    start = time.perf_counter()
    result = subprocess.run(list(argv), cwd=cwd, env=_child_env(), stdin=subprocess.DEVNULL,
                            stdout=subprocess.PIPE if capture else subprocess.DEVNULL,
                            stderr=subprocess.PIPE if capture else subprocess.DEVNULL,
                            check=False)
    wall = time.perf_counter() - start
    if not capture:
        return ProcessRun(wall, result.returncode)
    return ProcessRun(wall, result.returncode,
                      result.stdout.decode("utf-8", errors="replace"),
                      result.stderr.decode("utf-8", errors="replace"))


@dataclass(frozen=True)
class MemoryRun:
    wall: float
    peak_rss_mb: float
    returncode: int


def peak_memory(argv: Sequence[str], *, cwd: Path | None = None) -> MemoryRun:
    """Wall time and peak RSS of ``argv``, started from a small go-between process
    (see :mod:`bench.spawn` for why)."""
    spawned = run_process(python_command("-m", "bench.spawn", *argv), cwd=cwd, capture=True)
    facts = json.loads(spawned.stdout.strip().splitlines()[-1])
    return MemoryRun(facts["wall_s"], facts["peak_rss_mb"], facts["returncode"])


def _child_env() -> dict[str, str]:
    env = dict(os.environ)
    env["PYTHONDONTWRITEBYTECODE"] = "1"
    # The commands run from the repository root; make the bench package importable too.
    return env


def time_process(argv: Sequence[str], repeats: int, *, cwd: Path | None = None) -> Timing:
    """Cold wall time of a command: a fresh interpreter each run."""
    return Timing(tuple(run_process(argv, cwd=cwd).wall for _ in range(repeats)))


def python_command(*args: str) -> list[str]:
    """This interpreter with ``args``."""
    return [sys.executable, *args]


def load_average() -> tuple[float, float, float]:
    return os.getloadavg()
