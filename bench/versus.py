"""``check`` throughput of this checkout against a git revision's, interleaved in one run.

    python -m bench.versus --against main            # median of 5 runs each side
    python -m bench.versus --against 557f94f --runs 7 --deals 2000

The revision is checked out into a temporary worktree.  The inputs are a generated
corpus (:mod:`bench.corpus`, ``--deals`` deals), a file of tiny games and one of
varied small games (:mod:`fuzz.shapes`, ``--size`` bytes each).  Each run starts a
fresh interpreter for one side and one input, imports the package, then times
``allfours check -j 1 --quiet`` on the input (``--printed``: without ``--quiet``,
output thrown away) in CPU seconds
(``time.process_time``: the figure to quote on a shared machine); the two sides
alternate run by run, so a change in the machine's load falls on both.  Printed:
each input's median for each side and the ratio (new / old).
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
from collections.abc import Sequence
from pathlib import Path

from .corpus import ensure_corpus

ROOT = Path(__file__).resolve().parent.parent

_RUNNER = """
import contextlib, io, sys, time
import allfours_notation
from allfours_notation.cli import main
path, flags = sys.argv[1], sys.argv[2:]
main(["check", "-j", "1", *flags, path])  # warm: the grammar loaded, the code imported
with contextlib.redirect_stdout(io.StringIO()):
    start = time.process_time()
    main(["check", "-j", "1", *flags, path])
    print(time.process_time() - start, allfours_notation.__file__, file=sys.stderr)
"""


def one_run(code_root: Path, path: Path, flags: Sequence[str]) -> float:
    env = {**os.environ, "PYTHONPATH": str(code_root), "NO_COLOR": "1", "COLUMNS": "100"}
    done = subprocess.run([sys.executable, "-c", _RUNNER, str(path), *flags],
                          capture_output=True, text=True, env=env, cwd=code_root, check=False)
    seconds, imported = done.stderr.strip().splitlines()[-1].split(" ", 1)
    if not Path(imported).resolve().is_relative_to(code_root.resolve()):
        raise SystemExit(f"the run meant for {code_root} imported {imported}")
    return float(seconds)


def inputs(work: Path, deals: int, size: int) -> list[tuple[str, Path]]:
    from fuzz.shapes import tiny_games, varied_small_games

    corpus = ensure_corpus("versus", deals, 2026)
    tiny = work / "tiny.afn"
    tiny.write_text(tiny_games(size), encoding="utf-8")
    varied = work / "varied.afn"
    varied.write_text(varied_small_games(size), encoding="utf-8")
    return [(f"corpus {corpus.deals:,} deals ({corpus.bytes / 1e6:.1f} MB)", corpus.path),
            (f"tiny games ({size / 1e6:.1f} MB)", tiny),
            (f"varied small games ({size / 1e6:.1f} MB)", varied)]


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="python -m bench.versus", description=__doc__.split(
        "\n\n")[0])
    parser.add_argument("--against", default="main", help="the git revision (default: main)")
    parser.add_argument("--runs", type=int, default=5, help="runs per side and input (5)")
    parser.add_argument("--deals", type=int, default=2000, help="corpus deals (2000)")
    parser.add_argument("--size", type=int, default=100_000,
                        help="bytes of each small-games file (100000)")
    parser.add_argument("--printed", action="store_true",
                        help="time check printing every diagnostic (default: check --quiet, "
                        "the checking without rich's printing)")
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    flags = [] if args.printed else ["--quiet"]
    rows = []
    with tempfile.TemporaryDirectory(prefix="afn-versus-") as scratch:
        work = Path(scratch)
        base = work / "base"
        subprocess.run(["git", "-C", str(ROOT), "worktree", "add", "--detach", "-q",
                        str(base), args.against], check=True)
        try:
            for label, path in inputs(work, args.deals, args.size):
                old: list[float] = []
                new: list[float] = []
                for _ in range(args.runs):
                    old.append(one_run(base, path, flags))
                    new.append(one_run(ROOT, path, flags))
                a, b = statistics.median(old), statistics.median(new)
                rows.append({"input": label, "old": a, "new": b, "ratio": b / a})
                print(f"{label}: old {a:.3f} s, new {b:.3f} s, new/old {b / a:.3f} "
                      f"(median of {args.runs} CPU-second runs each, interleaved)")
        finally:
            subprocess.run(["git", "-C", str(ROOT), "worktree", "remove", "--force",
                            str(base)], check=False)
    print(json.dumps(rows))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
