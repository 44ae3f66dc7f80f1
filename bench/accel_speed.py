"""The compiled accelerator against the pure-Python solver, deal by deal, interleaved.

    python -m bench.accel_speed [--deals 500] [--nine 50] [--twelve 0] [--budget 5]
                                [--twelve-budget 60] [--reference 4x6,2x6,3x6]
                                [--sizes 2x6,3x6,4x6,4x9] [--seed 2026] [--json]

Needs the optional accelerator (``pip install ./accel``; it says so and stops when it is
absent).  On seeded generated deals of each size (players x cards per hand, as in
``bench.solver_speed``; ``4x12`` is four-handed trinidad14 after two runs of the pack),
the par from the first lead is solved by the accelerated solver and, for the sizes in
``--reference``, by the pure-Python one too, the two one after the other on each deal
(which goes first alternates), so that both see the same load of a shared machine.
Times are CPU seconds of this process (``time.process_time``), solver made and par
solved, each search stopped at the budget (``--budget``; ``--twelve-budget`` for twelve
cards).  Per size and solver: the median and p95 par time, the share solved within the
budget, the nodes; and the deals where both solved and the values differ (none is the
only right answer).  The load average is printed before and after.

Issue 40's targets: four-handed six-card median <= 5 ms and p95 <= 50 ms; nine-card
four-handed >= 99% within 5 s; twelve-card four-handed >= 90% within 60 s.
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Sequence
from typing import Any

from allfours_notation.checking.analysis import Solver, SolveTimeout
from allfours_notation.checking.analysis.accelerated import AcceleratedSolver, accelerator

from .analyse import Size, deals_of
from .solver_speed import ALL_SIZES, _summary, finish, par

SIZES = {**ALL_SIZES, "4x12": Size("4x12", "trinidad14", 4, 12)}


def bench_size(size: Size, count: int, seed: int, budget: float, reference: bool,
               fast: type[Solver] = AcceleratedSolver) -> dict[str, Any]:
    deals = deals_of(size, count, seed)
    plain: list[tuple[float, int, int | None]] = []
    accelerated: list[tuple[float, int, int | None]] = []
    differ = []
    for k, deal in enumerate(deals):  # alternate which goes first
        pair = [(fast, accelerated)]
        if reference:
            pair.append((Solver, plain))
        for solver_class, runs in (pair if k % 2 else pair[::-1]):
            runs.append(par(solver_class, SolveTimeout, deal, budget))
        if reference and plain[-1][2] is not None and accelerated[-1][2] is not None and \
                plain[-1][2] != accelerated[-1][2]:
            differ.append(deal.number)
    return {"size": size.name, "profile": size.profile, "deals": len(deals),
            "budget_s": budget, "accelerated": _summary(accelerated, budget),
            "python": _summary(plain, budget) if reference else None,
            "values_differ": differ}


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else None)
    parser.add_argument("--deals", type=int, default=500, help="six-card deals per size")
    parser.add_argument("--nine", type=int, default=50, help="nine-card deals per size")
    parser.add_argument("--twelve", type=int, default=10, help="twelve-card deals per size")
    parser.add_argument("--budget", type=float, default=5.0, help="CPU seconds per par")
    parser.add_argument("--twelve-budget", type=float, default=60.0,
                        help="CPU seconds per twelve-card par")
    parser.add_argument("--reference", default="2x6,3x6,4x6",
                        help="sizes where the pure-Python solver is timed too")
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--sizes", default="2x6,3x6,4x6,4x9")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    if accelerator() is None:
        print("the accelerator is not installed (pip install ./accel), or AFN_NO_ACCEL is "
              "set", file=sys.stderr)
        return 2
    references = set(filter(None, args.reference.split(",")))
    load = os.getloadavg()
    results = []
    for name in args.sizes.split(","):
        size = SIZES[name]
        count = {6: args.deals, 9: args.nine}.get(size.cards, args.twelve)
        budget = args.twelve_budget if size.cards >= 12 else args.budget
        result = bench_size(size, count, args.seed, budget, name in references)
        results.append(result)
        if not args.json:
            print(f"{name:4} {result['deals']:4} deals  accelerated: {result['accelerated']}\n"
                  f"{'':15}python:      {result['python'] or '(not timed)'}\n"
                  f"{'':15}values differ: {result['values_differ'] or 'none'}", flush=True)
    return finish({}, load, results, as_json=args.json)


if __name__ == "__main__":
    sys.exit(main())
