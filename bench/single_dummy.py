"""Single-dummy decisions timed on fixed seeded deals, one core, pure Python.

    python -m bench.single_dummy [--two 20] [--four 10] [--seed 2026] [--samples-two 200]
                                 [--samples-four 100]

Deals come from the package's seeded generator (``2x6`` two-handed hoffmann1909, ``4x6``
four-handed trinidad14, six cards a hand).  From each deal two decisions of the play are
timed: the first card played with a choice of legal cards, and the first with a choice
from the third trick on.  A decision is :func:`~allfours_notation.checking.analysis.
single_dummy.judge`: the information set built, K worlds drawn, each distinct world
solved for every legal card (a fresh solver per world).  Times are CPU seconds of this
process (``time.process_time``), so that a shared machine's other work counts for
little; ``sampling`` is the part spent drawing the worlds alone.

The targets (issue 40): a two-handed decision at K = 200 <= 0.5 s; a four-handed decision
at K = 100 <= 3 s.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import random
import statistics
import time
from collections.abc import Sequence
from typing import Any

from allfours_notation.checking.analysis.deals import PlayedDeal
from allfours_notation.checking.analysis.information import WorldSampler, information_at
from allfours_notation.checking.analysis.single_dummy import choices, judge

from .analyse import SIZES, Size, deals_of
from .replay_cost import cpu_name

TARGETS = {"2x6": 0.5, "4x6": 3.0}


def decisions_of(deal: PlayedDeal) -> list[int]:
    """The two decisions timed in ``deal``: the first card played with a choice, and
    the first with a choice from the third trick on."""
    assert deal.layout is not None
    size = len(deal.layout.seats)
    found = choices(deal)
    later = [index for index in found if index >= 2 * size]
    return found[:1] + later[:1]


def time_decision(deal: PlayedDeal, index: int, samples: int,
                  seed: int) -> tuple[float, float, int, int]:
    """CPU seconds of the whole decision (:func:`judge`), of drawing its worlds alone,
    the legal cards and the distinct worlds solved."""
    start = time.process_time()
    verdict = judge(deal, index, samples=samples, seed=seed, deal_key="bench")
    total = time.process_time() - start
    assert verdict is not None
    assert deal.layout is not None
    start = time.process_time()
    sampler = WorldSampler(information_at(deal.layout, deal.line, index,
                                          deal.result.turnups))
    rng = random.Random(seed)
    for _ in range(samples):
        sampler.sample(rng)
    return total, time.process_time() - start, len(verdict.estimates), verdict.worlds


def _summary(times: Sequence[float], target: float) -> dict[str, Any]:
    ordered = sorted(times)
    return {"decisions": len(ordered),
            "median_s": round(statistics.median(ordered), 3),
            "p90_s": round(ordered[min(len(ordered) - 1, int(0.9 * len(ordered)))], 3),
            "max_s": round(ordered[-1], 3),
            "within_target": f"{sum(t <= target for t in ordered)} of {len(ordered)}",
            "target_s": target}


def bench_size(size: Size, deals: int, samples: int, seed: int) -> dict[str, Any]:
    totals: list[float] = []
    sampling: list[float] = []
    worlds: list[int] = []
    for k, deal in enumerate(deals_of(size, deals, seed)):
        for index in decisions_of(deal):
            total, drawing, _, distinct = time_decision(deal, index, samples, seed + k)
            totals.append(total)
            sampling.append(drawing)
            worlds.append(distinct)
    report = {"size": size.name, "profile": size.profile, "samples": samples,
              **_summary(totals, TARGETS[size.name]),
              "sampling_median_s": round(statistics.median(sampling), 4),
              "distinct_worlds_median": statistics.median(worlds)}
    return report


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--two", type=int, default=20, help="two-handed deals (2 decisions each)")
    parser.add_argument("--four", type=int, default=10, help="four-handed deals (2 decisions each)")
    parser.add_argument("--samples-two", type=int, default=200)
    parser.add_argument("--samples-four", type=int, default=100)
    parser.add_argument("--seed", type=int, default=2026)
    args = parser.parse_args(argv)
    load_before = os.getloadavg()
    rows = []
    if args.two:
        rows.append(bench_size(SIZES["2x6"], args.two, args.samples_two, args.seed))
    if args.four:
        rows.append(bench_size(SIZES["4x6"], args.four, args.samples_four, args.seed))
    print(json.dumps({"python": platform.python_version(), "cpu": cpu_name(),
                      "load_average": [round(x, 1) for x in (*load_before, *os.getloadavg())],
                      "sizes": rows}, indent=2))


if __name__ == "__main__":
    main()
