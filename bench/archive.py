"""``python -m bench.archive``: the archive commands on the 100k-deal corpus.

Each command runs as its own process (``allfours …``), started from the small
go-between of :mod:`bench.spawn` so that its peak RSS is its own; every
measurement is the median wall time of several runs, with MB/s and deals/s of
the corpus.  For ``check -j 2`` the RSS is that of the largest process (the
parent or one worker; each holds at most its own share).

The targets (issue 11): ``list`` ≥ 20 MB/s; ``export --sqlite`` ≥ 0.5× the speed
of ``check``; ``check -j 2`` ≥ 1.7× ``check -j 1`` on two cores; every command's
peak RSS ≤ 200 MB.  On a shared machine the load average (printed before and
after) says how far the figures can be trusted; ratios taken in the same run
are the ones to compare.

Usage, from the repository root::

    python -m bench.archive              # 100k deals, 3 runs each (about 15 minutes on 2 cores)
    python -m bench.archive --quick      # 10k deals, 1 run each: a smoke run
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import tempfile
from collections.abc import Sequence
from dataclasses import asdict, dataclass
from pathlib import Path

from .corpus import OUT_DIR, Corpus, ensure_corpus
from .timing import peak_memory, python_command

MB = 1_000_000
SEED = 20261120


@dataclass(frozen=True)
class Measured:
    name: str
    walls: tuple[float, ...]
    peak_rss_mb: float
    returncode: int
    mb: float
    deals: int

    @property
    def median(self) -> float:
        return statistics.median(self.walls)

    @property
    def mb_per_s(self) -> float:
        return self.mb / self.median

    @property
    def deals_per_s(self) -> float:
        return self.deals / self.median


def commands(corpus: Path, scratch: Path) -> list[tuple[str, list[str]]]:
    """(name, allfours arguments) of every measured command."""
    db = scratch / "archive.db"
    return [
        ("list", ["list", str(corpus)]),
        ("find, tag filter (--tag Rules=trinidad14)", ["find", "--tag", "Rules=trinidad14",
                                                        str(corpus)]),
        ("find, content filter (--has hang-jack)", ["find", "--has", "hang-jack", str(corpus)]),
        ("stats", ["stats", str(corpus)]),
        ("export --sqlite", ["export", "--sqlite", str(db), str(corpus)]),
        ("check -j 1", ["check", "--quiet", "-j", "1", str(corpus)]),
        ("check -j 2", ["check", "--quiet", "-j", "2", str(corpus)]),
    ]


def measure(corpus: Corpus, repeats: int, log: object = None) -> list[Measured]:
    results = []
    with tempfile.TemporaryDirectory() as scratch:
        for name, args in commands(corpus.path, Path(scratch)):
            walls, peaks, code = [], [], 0
            for _ in range(repeats):
                (Path(scratch) / "archive.db").unlink(missing_ok=True)  # a fresh export each run
                run = peak_memory(python_command("-m", "allfours_notation", *args))
                walls.append(run.wall)
                peaks.append(run.peak_rss_mb)
                code = run.returncode
            measured = Measured(name, tuple(walls), max(peaks), code, corpus.bytes / MB,
                                corpus.deals)
            print(f"… {name}: {measured.median:.2f} s", file=sys.stderr, flush=True)
            results.append(measured)
    return results


def targets(rows: list[Measured]) -> list[tuple[str, str, str, bool]]:
    by = {row.name.split(",")[0] if row.name.startswith("find") else row.name: row
          for row in rows}
    listed, export = by["list"], by["export --sqlite"]
    one, two = by["check -j 1"], by["check -j 2"]
    worst = max(rows, key=lambda r: r.peak_rss_mb)
    return [
        ("list", "≥ 20 MB/s", f"{listed.mb_per_s:.1f} MB/s", listed.mb_per_s >= 20),
        ("export --sqlite vs check -j 1", "≥ 0.5×", f"{one.median / export.median:.2f}×",
         one.median / export.median >= 0.5),
        ("check -j 2 vs check -j 1", "≥ 1.7×", f"{one.median / two.median:.2f}×",
         one.median / two.median >= 1.7),
        ("peak RSS, every command", "≤ 200 MB", f"{worst.peak_rss_mb:.0f} MB ({worst.name})",
         worst.peak_rss_mb <= 200),
    ]


def markdown(corpus: Corpus, rows: list[Measured], load: tuple[tuple[float, ...], ...]) -> str:
    lines = [
        f"Corpus: {corpus.deals:,} deals in {corpus.games:,} games, {corpus.bytes / MB:.2f} MB. "
        f"Load average before {' '.join(f'{v:.2f}' for v in load[0])}, after "
        f"{' '.join(f'{v:.2f}' for v in load[1])}; {os.cpu_count()} cores. "
        f"Median of {len(rows[0].walls)} runs (min–max).",
        "",
        "| command | seconds | MB/s | deals/s | peak RSS MB |",
        "|---|---:|---:|---:|---:|",
    ]
    for row in rows:
        lines.append(f"| `allfours {row.name}` | {row.median:.2f} ({min(row.walls):.2f}–"
                     f"{max(row.walls):.2f}) | {row.mb_per_s:.2f} | {row.deals_per_s:,.0f} | "
                     f"{row.peak_rss_mb:.0f} |")
    lines += ["", "| target | goal | measured | met |", "|---|---:|---:|---:|"]
    for name, goal, value, met in targets(rows):
        lines.append(f"| {name} | {goal} | {value} | {'yes' if met else '**no**'} |")
    return "\n".join(lines) + "\n"


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.archive",
                                     description="Time the archive commands on a large corpus.")
    parser.add_argument("--quick", action="store_true", help="10k deals, one run each")
    parser.add_argument("--repeats", type=int, default=None, help="runs per command (default 3)")
    parser.add_argument("--out", type=Path, default=OUT_DIR / "archive.json",
                        help="JSON report (default bench/out/archive.json)")
    args = parser.parse_args(argv)
    label, deals = ("10k", 10_000) if args.quick else ("100k", 100_000)
    repeats = args.repeats or (1 if args.quick else 3)
    corpus = ensure_corpus(label, deals, SEED)
    before = os.getloadavg()
    rows = measure(corpus, max(1, repeats))
    load = (before, os.getloadavg())
    sys.stdout.write(markdown(corpus, rows, load))
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps({
        "corpus": corpus.describe(), "load": load,
        "rows": [{**asdict(row), "median": row.median, "mb_per_s": row.mb_per_s,
                  "deals_per_s": row.deals_per_s} for row in rows],
        "targets": [dict(zip(("name", "goal", "measured", "met"), t, strict=True))
                    for t in targets(rows)],
    }, indent=2), encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
