"""A pytest plugin that records, for every test, its wall time and the CPU time it used.

Loaded by ``python -m bench.suite_time --per-test`` (``-p bench.suite_probe``).  Each
process (the controller and every xdist worker) appends one JSON line per test to
``$AFN_SUITE_PROBE_DIR/<worker>.jsonl``: the test's id, the worker, when it started
(``time.time()``), its wall seconds and its CPU seconds (this process's plus those of
the child processes it waited for, e.g. a subprocess or a browser) and how long its
thread waited for a core while it could have run (the run-queue delay, from
``/proc/thread-self/schedstat``: the part of the wall time that machine load adds).
Wall minus that delay estimates the test's wall time on an idle machine; wall much
larger than CPU plus delay means the test waits: on a timer, a pilot pause, a
subprocess or a browser.
"""

from __future__ import annotations

import json
import os
import resource
import time
from collections.abc import Generator
from pathlib import Path
from typing import IO

import pytest

DIRECTORY_VARIABLE = "AFN_SUITE_PROBE_DIR"

_handle: IO[str] | None = None


def _cpu_seconds() -> float:
    own = resource.getrusage(resource.RUSAGE_SELF)
    children = resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime + children.ru_utime + children.ru_stime


def _run_queue_delay() -> float:
    """Seconds this thread has waited for a core since it started (0 where unknown)."""
    try:
        with open("/proc/thread-self/schedstat", encoding="ascii") as stats:
            return int(stats.read().split()[1]) / 1e9
    except (OSError, IndexError, ValueError):
        return 0.0


def _worker() -> str:
    return os.environ.get("PYTEST_XDIST_WORKER", "main")


def _output() -> IO[str] | None:
    global _handle
    directory = os.environ.get(DIRECTORY_VARIABLE)
    if directory is None:
        return None
    if _handle is None:
        _handle = (Path(directory) / f"{_worker()}.jsonl").open("a", encoding="utf-8")
    return _handle


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_protocol(item: pytest.Item) -> Generator[None, None, None]:
    """Time the whole protocol of ``item``: setup, call and teardown."""
    started = time.time()
    wall = time.perf_counter()
    cpu = _cpu_seconds()
    delay = _run_queue_delay()
    yield
    record = {
        "test": item.nodeid,
        "worker": _worker(),
        "start": started,
        "wall": time.perf_counter() - wall,
        "cpu": _cpu_seconds() - cpu,
        "delay": _run_queue_delay() - delay,
    }
    handle = _output()
    if handle is not None:
        handle.write(json.dumps(record) + "\n")
        handle.flush()
