"""Issue 40's speed table: par and the full card-by-card check, before and after.

    python -m bench.speed_table [--before REVISION] [--sizes 2x6,3x6,4x6,2x9,3x9,4x9,2x12,3x12,4x12]
                                [--deals 40] [--nine 20] [--twelve 3] [--budget 5]
                                [--twelve-budget 60] [--solvers before,python,accelerated]
                                [--seed 2026] [--json]

On the seeded generated deals of each size (players x cards per hand, as in
``bench.solver_speed``: two- and three-handed hoffmann1909, four-handed trinidad14; nine
cards are the deals after one run of the pack, twelve after two), each deal is timed with
up to three solvers, one after the other (which goes first turns with the deal, so that
all see the same load of a shared machine):

* **before**: ``solver.py`` as it was at ``--before`` (default: the revision before issue
  40's first change to the search), loaded beside the package;
* **python**: the working tree's pure-Python solver (the reference);
* **accelerated**: the optional compiled accelerator (``pip install ./accel``), when it
  is installed (else the column is left out and the report says so).

Two measures per deal and solver, both CPU seconds of this process
(``time.process_time``) and both stopped at the budget (``--budget``, ``--twelve-budget``
for twelve cards):

* **par**: the solver made and the value from the first lead solved;
* **full check**: what ``allfours analyse`` does for the deal: par, the best line, and
  every card of the recorded play judged (``analyse_deal`` with that solver).

Per size and solver: the median and p95 (a deal not finished counts as the budget) and
the share finished within the budget.  The values of par are compared between solvers
(none may differ: the bench is a differential test too), and the load average is
printed before and after.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from collections.abc import Sequence
from typing import Any

from allfours_notation.checking.analysis import Solver, SolveTimeout
from allfours_notation.checking.analysis.accelerated import AcceleratedSolver, accelerator
from allfours_notation.checking.analysis.deals import PlayedDeal
from allfours_notation.checking.analysis.report import SolverMaker, analyse_deal

from .analyse import Size, _perspective, deals_of
from .solver_speed import ALL_SIZES, finish, solver_at

# the revision before issue 40's first change to the search (bf43d4f)
BEFORE = "bf43d4f^"
SIZES = {**ALL_SIZES, "2x12": Size("2x12", "hoffmann1909", 2, 12),
         "3x12": Size("3x12", "hoffmann1909", 3, 12)}
SOLVERS = ("before", "python", "accelerated")
DEFAULT_SIZES = "2x6,3x6,4x6,2x9,3x9,4x9,2x12,3x12,4x12"

def time_par(make: SolverMaker, deal: PlayedDeal, budget: float) -> tuple[float, int | None]:
    """CPU seconds to make the solver and solve the par; the value, or ``None`` when the
    budget ran out."""
    assert deal.layout is not None
    start = time.process_time()
    solver = make(deal.layout, _perspective(deal))
    solver.clock = time.process_time
    try:
        value: int | None = solver.value(start + budget)
    except SolveTimeout:
        value = None
    return time.process_time() - start, value


def time_check(make: SolverMaker, deal: PlayedDeal, budget: float) -> tuple[float, bool]:
    """CPU seconds of the whole card-by-card check, and whether it finished within the
    budget (par solved and every card judged)."""
    start = time.process_time()
    analysis = analyse_deal(deal, time_limit=budget, make_solver=make,
                            clock=time.process_time)
    return time.process_time() - start, analysis.solved and analysis.checked


def summary(runs: Sequence[tuple[float, bool]], budget: float) -> dict[str, Any]:
    """Median and p95 in milliseconds (a run not finished counts as the budget) and the
    share finished."""
    times = sorted(t if done else budget for t, done in runs)
    finished = sum(1 for _, done in runs if done)
    return {"median_ms": round(1000 * statistics.median(times), 2),
            "p95_ms": round(1000 * times[min(len(times) - 1, int(0.95 * len(times)))], 2),
            "finished": f"{finished}/{len(runs)}"}


def bench_size(name: str, count: int, seed: int, budget: float,
               solvers: dict[str, SolverMaker]) -> dict[str, Any]:
    deals = deals_of(SIZES[name], count, seed)
    pars: dict[str, list[tuple[float, bool]]] = {label: [] for label in solvers}
    checks: dict[str, list[tuple[float, bool]]] = {label: [] for label in solvers}
    differ = []
    order = list(solvers)
    for k, deal in enumerate(deals):
        values = set()
        turn = order[k % len(order):] + order[:k % len(order)]
        for label in turn:
            make = solvers[label]
            seconds, value = time_par(make, deal, budget)
            pars[label].append((seconds, value is not None))
            if value is not None:
                values.add(value)
            checks[label].append(time_check(make, deal, budget))
        if len(values) > 1:
            differ.append(deal.number)
    return {"size": name, "profile": SIZES[name].profile, "deals": len(deals),
            "budget_s": budget,
            "par": {label: summary(runs, budget) for label, runs in pars.items()},
            "check": {label: summary(runs, budget) for label, runs in checks.items()},
            "values_differ": differ}


def solvers_to_time(names: Sequence[str], before: str) -> dict[str, SolverMaker]:
    out: dict[str, SolverMaker] = {}
    for name in names:
        if name == "before":
            old = solver_at(before)
            # its time-out raised as the package's own, which both timings catch
            vars(old)["SolveTimeout"] = SolveTimeout
            out[name] = old.Solver
        elif name == "python":
            out[name] = Solver
        else:
            out[name] = AcceleratedSolver
    return out


def _line(result: dict[str, Any]) -> str:
    cells = []
    for label in result["par"]:
        par, check = result["par"][label], result["check"][label]
        cells.append(f"{label}: par {par['median_ms']}/{par['p95_ms']} ms "
                     f"({par['finished']}), check {check['median_ms']}/{check['p95_ms']} ms "
                     f"({check['finished']})")
    return (f"{result['size']:4} {result['deals']:3} deals (median/p95)\n  " +
            "\n  ".join(cells) + f"\n  values differ: {result['values_differ'] or 'none'}")


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else None)
    parser.add_argument("--before", default=BEFORE,
                        help=f"git revision of the old solver (default {BEFORE}: the search "
                             "before issue 40)")
    parser.add_argument("--sizes", default=DEFAULT_SIZES,
                        help=f"players x cards per hand, comma-separated ({DEFAULT_SIZES})")
    parser.add_argument("--deals", type=int, default=40, help="six-card deals per size")
    parser.add_argument("--nine", type=int, default=20, help="nine-card deals per size")
    parser.add_argument("--twelve", type=int, default=3, help="twelve-card deals per size")
    parser.add_argument("--budget", type=float, default=5.0,
                        help="CPU seconds per par and per check (six and nine cards)")
    parser.add_argument("--twelve-budget", type=float, default=60.0,
                        help="CPU seconds per par and per check of a twelve-card deal")
    parser.add_argument("--solvers", default=",".join(SOLVERS),
                        help="which to time, comma-separated (default: all three; the "
                             "accelerated one only when installed)")
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    unknown = [n for n in args.sizes.split(",") if n not in SIZES]
    if unknown:
        parser.error(f"unknown size {', '.join(unknown)}: choose from {', '.join(SIZES)}")
    names = args.solvers.split(",")
    if any(n not in SOLVERS for n in names):
        parser.error(f"--solvers: choose from {', '.join(SOLVERS)}")
    if "accelerated" in names and accelerator() is None:
        names.remove("accelerated")
        print("the accelerator is not installed (pip install ./accel): its column is left "
              "out", file=sys.stderr)
    if not names:
        parser.error("no solver left to time")
    solvers = solvers_to_time(names, args.before)
    load = os.getloadavg()
    results = []
    for name in args.sizes.split(","):
        cards = SIZES[name].cards
        count = {6: args.deals, 9: args.nine}.get(cards, args.twelve)
        budget = args.twelve_budget if cards == 12 else args.budget
        result = bench_size(name, count, args.seed, budget, solvers)
        results.append(result)
        print(_line(result), flush=True, file=sys.stderr if args.json else sys.stdout)
    return finish({"before": args.before}, load, results, as_json=args.json)


if __name__ == "__main__":
    sys.exit(main())
