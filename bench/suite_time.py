"""``python -m bench.suite_time``: how long the README's test command takes, median of N.

Usage, from the repository root::

    python -m bench.suite_time               # 3 runs of `python -m pytest`, the median wall
    python -m bench.suite_time --runs 1 --per-test   # also: the slowest and most idle tests
    python -m bench.suite_time --root OTHER_CHECKOUT --python OTHER/.venv/bin/python

Each run is the README's command exactly (``python -m pytest``: xdist workers, the
``dev`` Hypothesis profile unless ``HYPOTHESIS_PROFILE`` says otherwise), started in a
fresh process from the repository root, its output kept out of sight.  For every run it
prints the wall seconds, the CPU seconds of the whole process tree (pytest, its workers
and what they waited for: the CPU the suite costs, less sensitive to machine load than
the wall time) and the load average before and after, since a figure taken while
other work runs is not comparable with one taken on an idle machine.

``--per-test`` loads the :mod:`bench.suite_probe` plugin and then lists the slowest
tests, the tests that wait most (wall time far above their CPU time) and how busy each
worker was: what to look at when the suite gets slow.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from .suite_probe import DIRECTORY_VARIABLE

REPO_ROOT = Path(__file__).resolve().parent.parent
PROBE_MODULE = "afn_suite_probe"
SUMMARY = re.compile(r"(\d+) passed")
FAILED = re.compile(r"(\d+) (failed|error)")


@dataclass(frozen=True, slots=True)
class SuiteRun:
    """One run of the whole suite."""

    wall: float
    cpu: float
    passed: int
    returncode: int
    load_before: float
    load_after: float
    tail: str  # the last lines of pytest's output, shown when the run failed


@dataclass(frozen=True, slots=True)
class TestTime:
    """One test as the probe saw it."""

    test: str
    worker: str
    start: float
    wall: float
    cpu: float
    delay: float  # run-queue delay: what machine load added to the wall time

    @property
    def idle_wall(self) -> float:
        """An estimate of the wall time on an idle machine."""
        return max(self.wall - self.delay, 0.0)


def _children_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def run_suite(root: Path, python: str, extra: Sequence[str],
              probe_dir: Path | None = None, log: Path | None = None) -> SuiteRun:
    """Run ``python -m pytest`` in ``root`` once and measure it."""
    env = dict(os.environ)
    command = [python, "-m", "pytest", "-q", "-p", "no:cacheprovider", *extra]
    if probe_dir is not None:
        # The plugin is imported from a folder that holds it alone: putting the checkout on
        # PYTHONPATH would let the wheel test's installed copy import the checkout instead.
        plugins = probe_dir / "plugin"
        plugins.mkdir()
        shutil.copy(Path(__file__).with_name("suite_probe.py"), plugins / f"{PROBE_MODULE}.py")
        env[DIRECTORY_VARIABLE] = str(probe_dir)
        env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(plugins),
                                                          env.get("PYTHONPATH")]))
        command[3:3] = ["-p", PROBE_MODULE]
    load_before = os.getloadavg()[0]
    cpu_before = _children_cpu()
    started = time.perf_counter()
    result = subprocess.run(command, cwd=root, env=env, stdin=subprocess.DEVNULL,
                            capture_output=True, text=True, check=False)
    wall = time.perf_counter() - started
    cpu = _children_cpu() - cpu_before
    if log is not None:
        log.write_text(result.stdout + result.stderr, encoding="utf-8")
    summary = result.stdout.strip().splitlines()[-1] if result.stdout.strip() else ""
    passed = SUMMARY.search(summary)
    failures = [line for line in result.stdout.splitlines()
                if line.startswith(("FAILED", "ERROR"))]
    tail = "\n".join([*failures, summary] if failures else
                     (result.stdout + result.stderr).strip().splitlines()[-15:])
    return SuiteRun(wall, cpu, int(passed.group(1)) if passed else 0, result.returncode,
                    load_before, os.getloadavg()[0], tail)


def read_probe(directory: Path) -> list[TestTime]:
    times: list[TestTime] = []
    for path in sorted(directory.glob("*.jsonl")):
        for line in path.read_text(encoding="utf-8").splitlines():
            data = json.loads(line)
            times.append(TestTime(data["test"], data["worker"], data["start"], data["wall"],
                                  data["cpu"], data.get("delay", 0.0)))
    return times


def per_test_report(times: list[TestTime], top: int) -> str:
    """The slowest tests, the most waiting ones, the files and the workers.

    "idle" columns subtract the run-queue delay: they estimate an idle machine.
    """
    lines = [f"{len(times)} tests probed; wall and idle-estimated wall (wall minus run-queue "
             "delay), CPU (with waited-for children), in seconds", "",
             f"Slowest {top} (idle wall, CPU, wall):"]
    for t in sorted(times, key=lambda t: -t.idle_wall)[:top]:
        lines.append(f"  {t.idle_wall:6.2f} {t.cpu:6.2f} {t.wall:6.2f}  {t.test}")
    lines += ["", f"Most waiting {top} (idle wall − CPU):"]
    for t in sorted(times, key=lambda t: t.cpu - t.idle_wall)[:top]:
        lines.append(f"  {t.idle_wall - t.cpu:6.2f}  {t.test}")
    files: dict[str, list[float]] = defaultdict(lambda: [0.0, 0.0, 0.0])
    for t in times:
        total = files[t.test.split("::")[0]]
        total[0] += t.idle_wall
        total[1] += t.cpu
        total[2] += 1
    lines += ["", f"Files by idle wall (top {top}; idle wall, CPU, tests):"]
    for name, (wall, cpu, count) in sorted(files.items(), key=lambda f: -f[1][0])[:top]:
        lines.append(f"  {wall:6.2f} {cpu:6.2f} {count:4.0f}  {name}")
    workers: dict[str, list[float]] = defaultdict(lambda: [0.0, 0.0, 0.0, float("inf"), 0.0])
    for t in times:
        worker = workers[t.worker]
        worker[0] += t.idle_wall
        worker[1] += t.cpu
        worker[2] += t.wall
        worker[3] = min(worker[3], t.start)
        worker[4] = max(worker[4], t.start + t.wall)
    lines += ["", "Workers (idle wall, CPU, wall of its tests; first test start to last end):"]
    for name, (idle, cpu, wall, first, last) in sorted(workers.items()):
        lines.append(f"  {name}: {idle:6.1f} {cpu:6.1f} {wall:6.1f}; {last - first:6.1f}")
    total_idle = sum(t.idle_wall for t in times)
    total_cpu = sum(t.cpu for t in times)
    lines.append(f"  all: {total_idle:6.1f} {total_cpu:6.1f} "
                 f"{sum(t.wall for t in times):6.1f}")
    return "\n".join(lines)


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="python -m bench.suite_time",
        description="Run the whole test suite (the README's `python -m pytest`) several "
        "times and print the median wall time, CPU time and load average.",
    )
    parser.add_argument("--runs", type=int, default=3, help="how many runs (default 3)")
    parser.add_argument("--root", type=Path, default=REPO_ROOT,
                        help="the checkout to test (default: this one)")
    parser.add_argument("--python", default=sys.executable,
                        help="the interpreter that runs pytest (default: this one)")
    parser.add_argument("--per-test", action="store_true",
                        help="also record every test's wall and CPU time and list the "
                        "slowest, the most waiting, and each worker's load")
    parser.add_argument("--top", type=int, default=25, help="rows per --per-test list")
    parser.add_argument("--keep", type=Path, default=None,
                        help="with --per-test: copy each run's raw probe records (one JSON "
                        "line per test) to KEEP.N/ for a later comparison")
    parser.add_argument("--log", type=Path, default=None,
                        help="write pytest's whole output here (run N to LOG.N)")
    parser.add_argument("pytest_args", nargs="*",
                        help="more pytest arguments, after `--` (e.g. -- -n 3)")
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    runs: list[SuiteRun] = []
    for index in range(1, max(1, args.runs) + 1):
        with tempfile.TemporaryDirectory(prefix="suite-probe-") as scratch:
            probe = Path(scratch) if args.per_test else None
            log = None if args.log is None else args.log.with_name(f"{args.log.name}.{index}")
            run = run_suite(args.root, args.python, args.pytest_args, probe, log)
            print(f"run {index}: {run.wall:.1f} s wall, {run.cpu:.1f} s CPU, "
                  f"{run.passed} passed, exit {run.returncode}, "
                  f"load {run.load_before:.2f} → {run.load_after:.2f}", flush=True)
            if run.returncode != 0:
                print(run.tail, file=sys.stderr)
            if probe is not None:
                print(per_test_report(read_probe(probe), args.top), flush=True)
                if args.keep is not None:
                    kept = args.keep.with_name(f"{args.keep.name}.{index}")
                    shutil.copytree(probe, kept, ignore=shutil.ignore_patterns("plugin"),
                                    dirs_exist_ok=True)
        runs.append(run)
    walls = [run.wall for run in runs]
    cpus = [run.cpu for run in runs]
    print(f"median of {len(runs)}: {statistics.median(walls):.1f} s wall "
          f"(min {min(walls):.1f}, max {max(walls):.1f}), "
          f"{statistics.median(cpus):.1f} s CPU; nproc {os.cpu_count()}; "
          f"load {runs[0].load_before:.2f} at the start, {runs[-1].load_after:.2f} at the end")
    return 0 if all(run.returncode == 0 for run in runs) else 1


if __name__ == "__main__":
    sys.exit(main())
