"""The double-dummy solver against an earlier version of itself, deal by deal, interleaved.

    python -m bench.solver_speed [--before main] [--deals 100] [--nine 20] [--budget 5]
                                 [--twelve 10] [--twelve-budget 60]
                                 [--seed 2026] [--sizes 2x6,3x6,4x6,3x9,4x9] [--json]

On seeded generated deals of each size (players x cards per hand: two-handed and
three-handed hoffmann1909, four-handed trinidad14; nine cards are the deals after one run
of the pack, twelve after two: ``4x12``, only when named in ``--sizes``), the par from
the first lead is solved by the solver of the working tree
("after") and by ``solver.py`` as it was at the git revision ``--before`` ("before"),
the two one after the other on each deal, so that both see the same load of a shared
machine in the same minutes.  Times are CPU seconds of this process
(``time.process_time``), each search stopped at ``--budget`` CPU seconds.  Per size and
solver: the median and p95 par time, the share solved within the budget, and the nodes;
and the deals where both solved and the values differ (none is the only right answer:
the bench is a differential test of the two on its deals too).  The load average is
printed before and after.

Issue 40's targets: four-handed six-card median <= 5 ms and p95 <= 50 ms; nine-card
four-handed >= 99% within 5 s; twelve-card four-handed >= 90% within 60 s (the budget of
twelve-card deals is ``--twelve-budget``).
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import os
import statistics
import subprocess
import sys
import time
from collections.abc import Sequence
from pathlib import Path
from types import ModuleType
from typing import Any

from allfours_notation.checking.analysis import Solver, SolveTimeout
from allfours_notation.checking.analysis.deals import PlayedDeal

from .analyse import SIZES, Size, deals_of

ROOT = Path(__file__).resolve().parents[1]
SOLVER_PATH = "allfours_notation/checking/analysis/solver.py"
ALL_SIZES = {**SIZES, "3x6": Size("3x6", "hoffmann1909", 3, 6),
             "2x9": Size("2x9", "hoffmann1909", 2, 9),
             "4x12": Size("4x12", "trinidad14", 4, 12)}


def solver_at(revision: str) -> ModuleType:
    """``solver.py`` as it was at ``revision``, loaded beside the package (its relative
    imports are the working tree's: the referee and the items are the same)."""
    source = subprocess.run(["git", "show", f"{revision}:{SOLVER_PATH}"], cwd=ROOT,
                            capture_output=True, text=True, check=True).stdout
    name = "allfours_notation.checking.analysis._solver_before"
    spec = importlib.util.spec_from_loader(name, loader=None)
    assert spec is not None
    module = importlib.util.module_from_spec(spec)
    module.__package__ = "allfours_notation.checking.analysis"
    sys.modules[name] = module
    exec(compile(source, f"{revision}:{SOLVER_PATH}", "exec"), module.__dict__)
    return module


def par(solver_class: Any, timeout: type[BaseException], deal: PlayedDeal,
        budget: float) -> tuple[float, int, int | None]:
    """CPU seconds, nodes, and the value (``None`` when not solved within ``budget``)."""
    assert deal.layout is not None
    perspective = None if len(deal.layout.sides) == 2 else deal.layout.sides[0]
    solver = solver_class(deal.layout, perspective)
    solver.clock = time.process_time
    start = time.process_time()
    try:
        value: int | None = solver.value(start + budget)
    except timeout:
        value = None
    return time.process_time() - start, solver.stats.nodes, value


def _summary(runs: Sequence[tuple[float, int, int | None]], budget: float) -> dict[str, Any]:
    times = sorted(t if v is not None else budget for t, _, v in runs)
    solved = sum(1 for _, _, v in runs if v is not None)
    return {"median_ms": round(1000 * statistics.median(times), 2),
            "p95_ms": round(1000 * times[min(len(times) - 1, int(0.95 * len(times)))], 2),
            "solved": f"{solved}/{len(runs)}",
            "solved_share": round(solved / max(1, len(runs)), 3),
            "nodes": sum(n for _, n, _ in runs),
            "cpu_s": round(sum(t for t, _, _ in runs), 2)}


def bench_size(size: Size, count: int, seed: int, budget: float,
               before: ModuleType) -> dict[str, Any]:
    deals = deals_of(size, count, seed)
    old: list[tuple[float, int, int | None]] = []
    new: list[tuple[float, int, int | None]] = []
    differ = []
    for k, deal in enumerate(deals):  # alternate which goes first
        pair = [(before.Solver, before.SolveTimeout, old), (Solver, SolveTimeout, new)]
        for solver_class, timeout, runs in (pair if k % 2 else pair[::-1]):
            runs.append(par(solver_class, timeout, deal, budget))
        if old[-1][2] is not None and new[-1][2] is not None and old[-1][2] != new[-1][2]:
            differ.append(deal.number)
    return {"size": size.name, "profile": size.profile, "deals": len(deals),
            "budget_s": budget, "before": _summary(old, budget),
            "after": _summary(new, budget), "values_differ": differ}


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else None)
    parser.add_argument("--before", default="main", help="git revision of the old solver")
    parser.add_argument("--deals", type=int, default=100, help="six-card deals per size")
    parser.add_argument("--nine", type=int, default=20, help="nine-card deals per size")
    parser.add_argument("--budget", type=float, default=5.0, help="CPU seconds per par")
    parser.add_argument("--twelve", type=int, default=10, help="twelve-card deals per size")
    parser.add_argument("--twelve-budget", type=float, default=60.0,
                        help="CPU seconds per par of a twelve-card deal")
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--sizes", default="2x6,3x6,4x6,3x9,4x9")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    before = solver_at(args.before)
    load = os.getloadavg()
    results = []
    for name in args.sizes.split(","):
        size = ALL_SIZES[name]
        count = {6: args.deals, 9: args.nine}.get(size.cards, args.twelve)
        budget = args.twelve_budget if size.cards == 12 else args.budget
        result = bench_size(size, count, args.seed, budget, before)
        results.append(result)
        if not args.json:
            print(f"{name:4} {result['deals']:4} deals  before: {result['before']}\n"
                  f"{'':15}after:  {result['after']}\n"
                  f"{'':15}values differ: {result['values_differ'] or 'none'}", flush=True)
    return finish({"before": args.before}, load, results, as_json=args.json)


def finish(report: dict[str, Any], load: Sequence[float], results: list[dict[str, Any]], *,
           as_json: bool) -> int:
    """Print the report (with the load average before and now) and give the exit status:
    1 when two solvers' values differed on a deal (the benches are differential tests too)."""
    report = {**report, "load_before": [round(x, 2) for x in load],
              "load_after": [round(x, 2) for x in os.getloadavg()], "results": results}
    if as_json:
        print(json.dumps(report, indent=1))
    else:
        print(f"load average before {report['load_before']}, after {report['load_after']} "
              f"({os.cpu_count()} cores)")
    return 1 if any(r["values_differ"] for r in results) else 0


if __name__ == "__main__":
    sys.exit(main())
