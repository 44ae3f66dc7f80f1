"""CPU seconds per MB and peak RSS of ``allfours check`` on adversarial files.

    python -m bench.hostile                       # 1, 10 and 50 MB, every shape
    python -m bench.hostile --sizes 1 10 --shapes disputed-deals end-words
    python -m bench.hostile --allfours path/to/other/allfours   # another install

Each (shape, size) runs ``allfours check --quiet FILE`` in a child process with
a wall-clock limit and an address-space limit, so a shape that hangs or eats
memory is reported as killed instead of taking the machine with it.  The
baseline row is well-formed generated games of the same size: the issue's
target is that no shape costs more than 3x its CPU per MB, and none more than
500 MB of memory at 10 MB.  The median of ``--runs`` runs is reported at 1 MB (one
run at larger sizes); the machine's load average is printed with it.  Progress goes
to standard error, the table (docs/reliability.md's) to standard output.
"""

from __future__ import annotations

import argparse
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

from fuzz.shapes import SHAPES

from .corpus import ensure_corpus

CHECKOUT = Path(__file__).resolve().parents[1]

MB = 1_000_000


@dataclass(frozen=True)
class Sample:
    """One run: CPU seconds (user + system), peak RSS in MB, and how it ended."""

    cpu: float
    rss_mb: float
    status: str  # "ok", "timeout", "memory", "traceback" or "exit N"


def _limits(memory_mb: int) -> None:
    limit = memory_mb * 1024 * 1024
    resource.setrlimit(resource.RLIMIT_AS, (limit, limit))


def run_once(command: list[str], path: Path, timeout: float, memory_mb: int) -> Sample:
    """Run ``command + [--quiet, path]`` once; CPU and peak RSS from ``wait4``."""
    started = time.monotonic()
    child = subprocess.Popen(
        [*command, "check", "--quiet", str(path)],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        preexec_fn=lambda: _limits(memory_mb),
        cwd=CHECKOUT,  # ``python -m allfours_notation`` runs this checkout's code
    )
    status = "ok"
    while True:
        pid, code, usage = os.wait4(child.pid, os.WNOHANG)
        if pid:
            break
        if time.monotonic() - started > timeout:
            child.kill()
            pid, code, usage = os.wait4(child.pid, 0)
            status = "timeout"
            break
        time.sleep(0.05)
    err = child.stderr.read() if child.stderr else b""
    exit_code = os.waitstatus_to_exitcode(code)
    if status == "ok" and b"MemoryError" in err:
        status = "memory"
    elif status == "ok" and b"Traceback" in err:
        status = "traceback"
    elif status == "ok" and exit_code not in (0, 1):
        status = f"exit {exit_code}"
    return Sample(usage.ru_utime + usage.ru_stime, usage.ru_maxrss / 1024, status)


def well_formed(size: int) -> str:
    """Generated legal games of about ``size`` bytes (the baseline): the cached 10k-deal
    bench corpus (``bench/out/``, made once), cut at a game's end or repeated whole.
    Generating 50 MB afresh would take longer than measuring it."""
    corpus = ensure_corpus("10k", 10_000, seed=16).path.read_text(encoding="utf-8")
    body = corpus.removeprefix("% AFN 1\n")
    text = "% AFN 1\n" + body * (size // len(body) + 1)
    cut = text.rfind("\nend\n", 0, size)
    return text[: cut + 5] if cut > 0 else text


def measure(command: list[str], name: str, text: str, runs: int, timeout: float,
            memory_mb: int) -> tuple[float, float, str]:
    """(CPU s/MB, peak RSS MB, status) as the median of ``runs`` runs."""
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / f"{name}.afn"
        path.write_text(text, encoding="utf-8")
        megabytes = len(text.encode("utf-8")) / MB
        samples = []
        for _ in range(runs):
            sample = run_once(command, path, timeout, memory_mb)
            samples.append(sample)
            if sample.status != "ok":
                break
        cpu = statistics.median(s.cpu for s in samples) / megabytes
        rss = max(s.rss_mb for s in samples)
        status = next((s.status for s in samples if s.status != "ok"), "ok")
        return cpu, rss, status


def cell(cpu: float, rss: float, status: str, baseline: float | None) -> str:
    """``0.31 (0.2x) / 34 MB``: CPU s/MB, times the well-formed baseline, peak RSS."""
    if status == "timeout":
        return f"> {cpu:.2f} / {rss:.0f} MB (killed)"
    shown = f"{cpu:.2f}"
    if baseline:
        shown += f" ({cpu / baseline:.1f}x)"
    shown += f" / {rss:.0f} MB"
    return shown if status == "ok" else f"{shown} ({status})"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.hostile", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--sizes", type=int, nargs="+", default=[1, 10, 50],
                        help="sizes in MB (default: 1 10 50)")
    parser.add_argument("--shapes", nargs="+", default=["well-formed", *SHAPES],
                        help="shape names (default: every shape and the baseline)")
    parser.add_argument("--runs", type=int, default=3,
                        help="runs per measure at 1 MB (median); larger sizes run once")
    parser.add_argument("--timeout", type=float, default=60.0,
                        help="wall seconds per MB before a run is killed")
    parser.add_argument("--max-wall", type=float, default=900.0,
                        help="wall seconds per run at most, whatever the size")
    parser.add_argument("--memory", type=int, default=3000, help="address-space limit, MB")
    parser.add_argument("--allfours", default=None,
                        help="the allfours command to measure (default: this checkout's "
                        "code, run by this interpreter, whatever 'allfours' is on PATH)")
    args = parser.parse_args(argv)
    command = [args.allfours] if args.allfours else [sys.executable, "-m", "allfours_notation"]
    names = args.shapes if "well-formed" in args.shapes else ["well-formed", *args.shapes]
    loads = [os.getloadavg()[0]]
    results: dict[tuple[str, int], tuple[float, float, str]] = {}
    for size in args.sizes:
        for name in names:
            make = well_formed if name == "well-formed" else SHAPES[name]
            runs = args.runs if size <= 1 else 1
            results[name, size] = measure(command, name, make(size * MB), runs,
                                          min(args.timeout * size, args.max_wall), args.memory)
            cpu, rss, status = results[name, size]
            print(f"  {name} {size} MB: {cpu:.2f} CPU s/MB, {rss:.0f} MB, {status}",
                  file=sys.stderr, flush=True)
            loads.append(os.getloadavg()[0])
    print("`allfours check --quiet FILE`: CPU seconds per MB (user + system, workers "
          "included), times the well-formed baseline of the same size, and peak RSS")
    print(f"(median of {args.runs} runs at 1 MB, one run above; load average "
          f"{min(loads):.1f}-{max(loads):.1f} during the runs)")
    print()
    print("| shape | " + " | ".join(f"{size} MB" for size in args.sizes) + " |")
    print("|---|" + "---:|" * len(args.sizes))
    for name in names:
        cells = []
        for size in args.sizes:
            baseline = results["well-formed", size][0] if name != "well-formed" else None
            cells.append(cell(*results[name, size], baseline))
        print(f"| {name} | " + " | ".join(cells) + " |")
    worst = [(name, size) for (name, size), (cpu, rss, status) in results.items()
             if name != "well-formed" and (status != "ok" or cpu > 3 * results["well-formed",
                                                                              size][0]
                                           or (size <= 10 and rss > 500))]
    print()
    print("over the issue's bounds (3x the baseline's CPU per MB; 500 MB at 10 MB): "
          + (", ".join(f"{name} at {size} MB" for name, size in worst) or "none"))
    return 0


if __name__ == "__main__":
    sys.exit(main())
