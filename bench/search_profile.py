"""Where a search of the compiled engine grows: its counts per depth and per null-window test.

    python -m bench.search_profile [--size 4x9] [--deals 31] [--count 40] [--budget 60]
                                   [--seed 2026] [--partition on|off] [--json]

Needs the accelerator built with its counters (``CFLAGS=-DAFN_SEARCH_STATS pip install
./accel``; the release build counts none of this and the script says so).  For each
seeded deal named (its place among the ``--count`` deals of ``--size``, as in
``bench.accel_speed``), the par is solved once within ``--budget`` CPU seconds and the
engine's counts are printed: each null-window test of MTD(f) (its threshold, its answer,
its nodes, and the nodes under each card of the root, most first), and per depth (cards
still out, cards on the table): nodes, the share of the searched nodes that cut and of
those the share cut by the first card tried, the mean place of the cutting card, cards
searched a node; at a trick boundary the share settled by the early stop, found in the
table and cut by it, the table's card tried first, and the stores that put out another
position's entry (and one deeper than the new); before a trick's last card, the share of
enhanced transposition cutoffs; per cards on the table, how often the first card
tried cut, by where it came from (the static order, the table's card, the killer); and
the share of the nodes searched in the pips-margin search (Game the only item open).  A
search not finished shows what it did up to the budget.
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


def _share(part: int, whole: int) -> str:
    return f"{100 * part / whole:6.1f}" if whole else f"{'-':>6}"


def table(profile: dict[str, Any], seats: int, cards: Sequence[str]) -> list[str]:
    """The profile as lines of text: the tests, then a row per depth."""
    lines = []
    for test in profile["tests"]:
        root = sorted(test["root"], key=lambda pair: -pair[1])
        lines.append(f"test value >= {test['beta']}: {test['value']}, {test['nodes']:,} nodes; "
                     "root: " + ", ".join(f"{cards[card]} {nodes:,}" for card, nodes in root))
    margin = profile.get("pip_nodes")
    if margin:
        width = len(profile["nodes/0"])
        per_depth = [sum(profile[f"nodes/{t}"][out] for t in range(seats)) for out in range(width)]
        whole = _share(sum(margin), sum(per_depth)).strip()
        lines.append(f"nodes in the pips-margin search: {whole}%"
                     " (by cards out: " + ", ".join(
                         f"{out} {_share(margin[out], per_depth[out]).strip()}%"
                         for out in range(width - 1, 0, -4) if per_depth[out]) + ")")
    names = ("the static order", "the table", "the killer")
    for on_table, source, first, later in profile["source"]:
        if first + later:
            lines.append(f"{on_table} on the table, first card from {names[source]}: "
                         f"cut first at {_share(first, first + later).strip()}% of "
                         f"{first + later:,} cut nodes")
    lines.append(f"{'out':>3} {'tbl':>3} {'nodes':>13} {'cut%':>6} {'first%':>6} {'place':>5} "
                 f"{'cards':>5} {'settl%':>6} {'found%':>6} {'ttcut%':>6} {'hint%':>6} "
                 f"{'evict%':>6} {'deeper%':>6} {'etc%':>6}")
    for out in range(len(profile["nodes/0"]) - 1, 0, -1):
        for on_table in range(seats):
            nodes = profile[f"nodes/{on_table}"][out]
            if not nodes:
                continue
            cuts = profile[f"cuts/{on_table}"][out]
            row = (f"{out:>3} {on_table:>3} {nodes:>13,} {_share(cuts, nodes)} "
                   f"{_share(profile[f'cut_first/{on_table}'][out], cuts)} "
                   f"{profile[f'cut_index/{on_table}'][out] / max(1, cuts):5.2f} "
                   f"{profile[f'children/{on_table}'][out] / nodes:5.2f}")
            if on_table == 0:
                probes, stores = profile["probes"][out], profile["stores"][out]
                row += (f" {_share(profile['settled'][out], nodes)}"
                        f" {_share(profile['found'][out], probes)}"
                        f" {_share(profile['tt_cut'][out], probes)}"
                        f" {_share(profile['hint_used'][out], nodes)}"
                        f" {_share(profile['evict'][out], stores)}"
                        f" {_share(profile['evict_deeper'][out], stores)}")
                if profile.get("part_out", [0] * (out + 1))[out]:
                    kept = _share(profile["part_kept"][out], profile["part_out"][out])
                    row += f"  kept {kept}"
            elif on_table == seats - 1:
                row += " " * 42 + _share(profile["etc_fires"][out], profile["etc_tries"][out])
            lines.append(row)
    return lines


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else None)
    parser.add_argument("--size", default="4x9", choices=sorted(SIZES))
    parser.add_argument("--deals", default="31", help="places of the deals, comma-separated")
    parser.add_argument("--count", type=int, default=40, help="deals of the size generated")
    parser.add_argument("--budget", type=float, default=60.0, help="CPU seconds per par")
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--partition", choices=("on", "off"), default="on",
                        help="the engine's partition entries (the pips-margin search)")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    module = accelerator()
    if module is None or not hasattr(module.Engine, "profile"):
        print("needs the accelerator built with its counters: "
              "CFLAGS=-DAFN_SEARCH_STATS pip install ./accel", file=sys.stderr)
        return 2
    size = SIZES[args.size]
    deals = deals_of(size, args.count, args.seed)
    for place in (int(text) for text in args.deals.split(",")):
        deal = deals[place]
        assert deal.layout is not None
        perspective = None if len(deal.layout.sides) == 2 else deal.layout.sides[0]
        solver = AcceleratedSolver(deal.layout, perspective, engine_module=module,
                                   partition=args.partition == "on")
        solver.clock = time.process_time
        start = time.process_time()
        try:
            value: int | None = solver.value(start + args.budget)
        except SolveTimeout:
            value = None
        seconds = time.process_time() - start
        profile: dict[str, Any] = solver.engine.profile()  # type: ignore[attr-defined]
        head = {"size": args.size, "deal": place, "value": value, "cpu_s": round(seconds, 3),
                "nodes": solver.stats.nodes, "load": os.getloadavg()}
        if args.json:
            print(json.dumps({**head, "profile": profile}))
            continue
        print(" ".join(f"{key} {value}" for key, value in head.items()))
        cards = [str(card) for card in solver.cards]
        print("\n".join(table(profile, len(deal.layout.seats), cards)), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
