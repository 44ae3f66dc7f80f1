"""The double-dummy solver's speed on fixed seeded deals, one core, pure Python.

    python -m bench.analyse [--deals 500] [--nine 500] [--seed 2026] [--limit 5]
                            [--prunings 40] [--sizes 2x6,4x6,3x9,4x9]

Deals come from the package's seeded generator, complete deals with the given number of
cards per hand: ``2x6`` two-handed hoffmann1909, ``4x6`` four-handed trinidad14,
``3x9`` three-handed hoffmann1909 after one run, ``4x9`` four-handed trinidad14 after
one run.  Times are CPU seconds of this process (``time.process_time``), so that a
shared machine's other work counts for little.

* par — ``Solver.value()`` from the first lead, a fresh solver per deal;
* check — ``analyse_deal``: the par, the best line and every card judged (the
  transposition table kept across the positions of the deal), six-card sizes only;
* nine-card sizes: the share of deals whose par is solved within ``--limit`` seconds
  of CPU time (the solver's own time limit, read on the CPU clock), and the median CPU
  time of those solved;
* prunings — on the first ``--prunings`` deals of each six-card size, the nodes and
  time with each pruning switched off in turn (a deal still unsolved after 30 s counts
  as 30 s).

The targets (issue 26): 2x6 par median <= 5 ms, check median <= 20 ms; 4x6 par median
<= 80 ms, p95 <= 1 s, check median <= 0.5 s.
"""

from __future__ import annotations

import argparse
import json
import platform
import statistics
import time
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from allfours_notation.checking.analysis import Solver, SolveTimeout
from allfours_notation.checking.analysis.deals import PlayedDeal, played_deals
from allfours_notation.checking.analysis.report import analyse_deal
from allfours_notation.generate import generate_games
from allfours_notation.referee import replay

from .replay_cost import cpu_name


@dataclass(frozen=True)
class Size:
    name: str
    profile: str
    players: int
    cards: int


SIZES = {
    "2x6": Size("2x6", "hoffmann1909", 2, 6),
    "4x6": Size("4x6", "trinidad14", 4, 6),
    "3x9": Size("3x9", "hoffmann1909", 3, 9),
    "4x9": Size("4x9", "trinidad14", 4, 9),
}
SWITCHES = ("equivalence", "table", "bounds", "ordering", "null_window", "relative",
            "last_trick")
PRUNING_LIMIT = 30.0


def deals_of(size: Size, count: int, seed: int) -> list[PlayedDeal]:
    out: list[PlayedDeal] = []
    for game in generate_games(seed, 1_000_000, profile=size.profile, players=size.players):
        for deal in played_deals(replay(game, record_states=False)):
            if deal.layout is not None and len(deal.layout.hands[0][1]) == size.cards:
                out.append(deal)
                if len(out) == count:
                    return out
    return out


def _perspective(deal: PlayedDeal) -> str | None:
    assert deal.layout is not None
    return None if len(deal.layout.sides) == 2 else deal.layout.sides[0]


def par_time(deal: PlayedDeal, limit: float | None = None,
             **switches: bool) -> tuple[float, int, bool]:
    """CPU seconds, nodes, and whether it was solved within ``limit`` CPU seconds."""
    assert deal.layout is not None
    solver = Solver(deal.layout, _perspective(deal), **switches)
    solver.clock = time.process_time
    start = time.process_time()
    deadline = None if limit is None else start + limit
    try:
        solver.value(deadline)
        solved = True
    except SolveTimeout:
        solved = False
    return time.process_time() - start, solver.stats.nodes, solved


def _ms(seconds: float) -> float:
    return round(seconds * 1000, 2)


def _summary(times: Sequence[float]) -> dict[str, float]:
    ordered = sorted(times)
    return {"median_ms": _ms(statistics.median(ordered)),
            "p95_ms": _ms(ordered[min(len(ordered) - 1, int(0.95 * len(ordered)))]),
            "max_ms": _ms(ordered[-1]), "mean_ms": _ms(statistics.fmean(ordered))}


def bench_size(size: Size, count: int, seed: int, limit: float, prunings: int) -> dict[str, Any]:
    deals = deals_of(size, count, seed)
    report: dict[str, Any] = {"size": size.name, "profile": size.profile, "deals": len(deals)}
    if size.cards == 6:
        runs = [par_time(d) for d in deals]
        report["par"] = _summary([t for t, _, _ in runs])
        report["nodes_per_second"] = round(sum(n for _, n, _ in runs) /
                                           max(1e-9, sum(t for t, _, _ in runs)))
        checks = []
        for deal in deals:
            start = time.process_time()
            analysis = analyse_deal(deal, time_limit=None)
            checks.append(time.process_time() - start)
            assert analysis.solved and analysis.checked
        report["check"] = _summary(checks)
        if prunings:
            subset = deals[:prunings]
            base = [par_time(d, PRUNING_LIMIT) for d in subset]
            report["prunings"] = {"all on": _pruning_row(base)}
            for switch in SWITCHES:
                runs = [par_time(d, PRUNING_LIMIT, **{switch: False}) for d in subset]
                report["prunings"][f"{switch} off"] = _pruning_row(runs)
    else:
        runs = [par_time(d, limit) for d in deals]
        solved = [t for t, _, ok in runs if ok]
        report["limit_s"] = limit
        report["solved_share"] = round(len(solved) / max(1, len(runs)), 3)
        report["solved_median_ms"] = _ms(statistics.median(solved)) if solved else None
        report["nodes_per_second"] = round(sum(n for _, n, _ in runs) /
                                           max(1e-9, sum(t for t, _, _ in runs)))
    return report


def _pruning_row(runs: Sequence[tuple[float, int, bool]]) -> dict[str, Any]:
    return {"nodes": sum(n for _, n, _ in runs), "cpu_s": round(sum(t for t, _, _ in runs), 2),
            "median_ms": _ms(statistics.median(t for t, _, _ in runs)),
            "unsolved": sum(1 for _, _, ok in runs if not ok)}


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--deals", type=int, default=500, help="six-card deals per size")
    parser.add_argument("--nine", type=int, default=500, help="nine-card deals per size")
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--limit", type=float, default=5.0, help="nine-card time limit (s)")
    parser.add_argument("--prunings", type=int, default=40,
                        help="deals per six-card size for the prunings table (0: none)")
    parser.add_argument("--sizes", default=",".join(SIZES))
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    results = []
    for name in args.sizes.split(","):
        size = SIZES[name]
        count = args.deals if size.cards == 6 else args.nine
        start = time.perf_counter()
        result = bench_size(size, count, args.seed, args.limit, args.prunings)
        result["wall_s"] = round(time.perf_counter() - start, 1)
        results.append(result)
        if not args.json:
            print(json.dumps(result, indent=1))
    machine = {"cpu": cpu_name(), "python": platform.python_version()}
    if args.json:
        print(json.dumps({"machine": machine, "results": results}, indent=1))
    else:
        print(f"machine: {machine['cpu']}, Python {machine['python']}")


if __name__ == "__main__":
    main()
