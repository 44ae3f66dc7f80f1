"""The compiled engine with its partition entries and without, deal by deal, interleaved.

    python -m bench.partition_speed [--size 4x9] [--count 40] [--deals 0,31]
                                    [--budget 60] [--seed 2026] [--json]

Needs the optional accelerator (``pip install ./accel``).  On the seeded deals of
``--size`` (as ``bench.accel_speed`` makes them; ``--deals`` picks some of the ``--count``,
all by default) the par from the first lead is solved by ``AcceleratedSolver`` with
partition search on and off, the two one after the other on each deal (which goes first
alternates), each within ``--budget`` CPU seconds.  Per deal: the value, nodes and CPU
seconds each way; then the totals and the load average.  Nodes are deterministic, CPU
seconds on a shared machine are not.  The values must agree where both solved.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from collections.abc import Sequence
from typing import Any

from allfours_notation.checking.analysis import SolveTimeout
from allfours_notation.checking.analysis.accelerated import AcceleratedSolver, accelerator

from .accel_speed import SIZES
from .analyse import deals_of


def solve(deal: Any, partition: bool, budget: float) -> tuple[float, int, int | None]:
    """CPU seconds, nodes, and the value (``None`` when not solved within ``budget``)."""
    layout = deal.layout
    perspective = None if len(layout.sides) == 2 else layout.sides[0]
    solver = AcceleratedSolver(layout, perspective, partition=partition)
    solver.clock = time.process_time
    start = time.process_time()
    try:
        value: int | None = solver.value(start + budget)
    except SolveTimeout:
        value = None
    return time.process_time() - start, solver.stats.nodes, value


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else None)
    parser.add_argument("--size", default="4x9", choices=sorted(SIZES))
    parser.add_argument("--count", type=int, default=40, help="deals of the size generated")
    parser.add_argument("--deals", default="", help="places of the deals (default: all)")
    parser.add_argument("--budget", type=float, default=60.0, help="CPU seconds per par")
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    if accelerator() is None:
        print("needs the accelerator: pip install ./accel", file=sys.stderr)
        return 2
    deals = deals_of(SIZES[args.size], args.count, args.seed)
    places = [int(text) for text in args.deals.split(",")] if args.deals else \
        list(range(len(deals)))
    load_before = os.getloadavg()
    rows = []
    totals = {True: [0.0, 0, 0], False: [0.0, 0, 0]}
    for k, place in enumerate(places):
        runs = {}
        for partition in ((True, False) if k % 2 else (False, True)):
            runs[partition] = solve(deals[place], partition, args.budget)
            seconds, nodes, value = runs[partition]
            totals[partition][0] += seconds
            totals[partition][1] += nodes
            totals[partition][2] += value is not None
        on, off = runs[True], runs[False]
        row = {"deal": place, "value_on": on[2], "value_off": off[2],
               "nodes_on": on[1], "nodes_off": off[1],
               "cpu_on": round(on[0], 3), "cpu_off": round(off[0], 3)}
        rows.append(row)
        if not args.json:
            print(f"deal {place}: value {on[2]} / {off[2]}; nodes {on[1]:,} on, {off[1]:,} off; "
                  f"CPU {on[0]:.2f} s on, {off[0]:.2f} s off", flush=True)
    differ = [r["deal"] for r in rows if None not in (r["value_on"], r["value_off"])
              and r["value_on"] != r["value_off"]]
    summary = {"size": args.size, "deals": len(places),
               "on": {"cpu_s": round(totals[True][0], 2), "nodes": totals[True][1],
                      "solved": totals[True][2]},
               "off": {"cpu_s": round(totals[False][0], 2), "nodes": totals[False][1],
                       "solved": totals[False][2]},
               "values_differ": differ, "load": [load_before, os.getloadavg()]}
    if args.json:
        print(json.dumps({"rows": rows, **summary}))
    else:
        print(json.dumps(summary))
    return 1 if differ else 0


if __name__ == "__main__":
    sys.exit(main())
