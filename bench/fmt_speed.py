"""``fmt`` against ``check`` in the same run (issue 27): is formatting a file, with its
proof, at least 0.7 times as fast as checking it?

Two texts of the bench corpus's games, about 1 MB each:

* ``corpus``: the corpus as generated (every play has its seat, so it is canonical
  but for a blank line): fmt reads back nothing it did not change;
* ``lax``: the same games with every seat label taken off the plays, so every game
  is rewritten (its seats filled by the referee) and read back and refereed again.

For each, CPU seconds (this process, user + system) of ``allfours check --quiet -j 1``
and of ``allfours fmt`` (output to nowhere), interleaved run by run so both see the
same load; the figure is the median of the runs and the ratio of the medians.

    python -m bench.fmt_speed                 # 3500 deals (about 1 MB), 5 rounds
    python -m bench.fmt_speed --deals 1000 --repeats 3
"""

from __future__ import annotations

import argparse
import contextlib
import io
import json
import os
import re
import statistics
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

from .corpus import ensure_corpus

SEED = 20261120
_SEAT_LABEL = re.compile(r"(?<=[ .])[NESW]:(?=[0-9TJQKA][CDHS])")


def lax(text: str) -> str:
    """``text`` with the seat labels taken off every play (``1. S:8C N:KC`` →
    ``1. 8C KC``): valid AFN whose seats the formatter must fill in."""
    return _SEAT_LABEL.sub("", text)


def _cpu(work: Callable[[], object]) -> float:
    start = time.process_time()
    work()
    return time.process_time() - start


def _quietly(argv: list[str]) -> Callable[[], int]:
    from allfours_notation.cli import main

    def run() -> int:
        with contextlib.redirect_stdout(io.StringIO()), \
                contextlib.redirect_stderr(io.StringIO()):
            return main(argv)
    return run


def measure(path: Path, repeats: int) -> dict[str, object]:
    """Interleaved CPU times of check and fmt on ``path``; the medians and their ratio."""
    check = _quietly(["check", "--quiet", "-j", "1", str(path)])
    fmt = _quietly(["fmt", str(path)])
    fmt()  # warm: imports, the grammar
    checks, fmts = [], []
    for _ in range(repeats):
        checks.append(_cpu(check))
        fmts.append(_cpu(fmt))
    size = path.stat().st_size
    check_cpu, fmt_cpu = statistics.median(checks), statistics.median(fmts)
    return {
        "bytes": size,
        "check_cpu_s": round(check_cpu, 3),
        "fmt_cpu_s": round(fmt_cpu, 3),
        "check_mb_per_s": round(size / check_cpu / 1e6, 3),
        "fmt_mb_per_s": round(size / fmt_cpu / 1e6, 3),
        "fmt_over_check": round(check_cpu / fmt_cpu, 3),
        "runs": {"check": [round(t, 3) for t in checks], "fmt": [round(t, 3) for t in fmts]},
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.fmt_speed", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--deals", type=int, default=3500, help="corpus size (default 3500)")
    parser.add_argument("--repeats", type=int, default=5, help="rounds (default 5)")
    args = parser.parse_args(argv)
    corpus = ensure_corpus(f"{args.deals}", args.deals, SEED)
    text = corpus.path.read_text(encoding="utf-8")
    report: dict[str, object] = {"load_average": os.getloadavg(), "repeats": args.repeats}
    with tempfile.TemporaryDirectory() as folder:
        for name, body in (("corpus", text), ("lax", lax(text))):
            path = Path(folder) / f"{name}.afn"
            path.write_text(body, encoding="utf-8")
            report[name] = measure(path, args.repeats)
    report["load_average_after"] = os.getloadavg()
    print(json.dumps(report, indent=2))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
