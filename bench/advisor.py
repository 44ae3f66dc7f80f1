"""The advisor's cost: CPU seconds of one ``advise`` call, per table and rules.

    python -m bench.advisor [--samples 100] [--dealer-samples 8] [--later 64]
                            [--positions 2x6,2x6-keep,3x6,4x6] [--seed 1] [--json]

Each position is one built decision (the elder's stand or beg, near the end of a game,
where the advisor matters most); the figure is the CPU time (``time.process_time``) of
the whole call — the sampled deals, the modelled dealer's own advice in each of them,
and the pool of later deals the first time it is made (timed apart: ``pool_s``) —
with how many sampled deals were left out (not solved in the time limit).

* ``2x6``: hoffmann1909, two players, cards cut back to six after a run;
* ``2x6-keep``: hoffmann1909 as it is, every card kept after a run (nine, twelve … a hand);
* ``3x6``: hoffmann1909, three players, cards cut back to six after a run;
* ``4x6``: trinidad14, four players, cards cut back to six after a run;
* ``4x6-keep``: trinidad14 as it is, every card kept after a run (nine, twelve a hand).
"""

from __future__ import annotations

import argparse
import json
import time
from dataclasses import dataclass, replace
from typing import Any

from allfours_notation.cards import Seat, card, cards
from allfours_notation.checking.analysis.advisor import advise, pool_of, position
from allfours_notation.reading.table import SEATS_FOR_PLAYERS
from allfours_notation.referee.profiles import PROFILES, HandAfterRun, Options, seated


@dataclass(frozen=True)
class Built:
    name: str
    options: Options
    players: int
    dealer: Seat
    hand: str
    turnup: str
    scores: dict[str, int]


def _options(profile: str, players: int, keep_all: bool = False) -> Options:
    options = seated(replace(PROFILES[profile].options, players=players))
    if keep_all:
        return options
    return replace(options, hand_after_run=HandAfterRun.DISCARD_TO_SIX)


POSITIONS = {
    "2x6": Built("2x6", _options("hoffmann1909", 2), 2, Seat.NORTH, "JS TS 2S 3H 4D 5C", "9S",
                 {"N": 6, "S": 6}),
    "2x6-keep": Built("2x6-keep", _options("hoffmann1909", 2, keep_all=True), 2, Seat.NORTH,
                      "JS TS 2S 3H 4D 5C", "9S", {"N": 6, "S": 6}),
    "3x6": Built("3x6", _options("hoffmann1909", 3), 3, Seat.NORTH, "JS TS 2S 3H 4D 5C", "9S",
                 {"N": 5, "E": 6, "S": 4}),
    "4x6": Built("4x6", _options("trinidad14", 4), 4, Seat.NORTH, "JD TD 2D 3H 4S 5C", "9D",
                 {"NS": 13, "EW": 12}),
    "4x6-keep": Built("4x6-keep", _options("trinidad14", 4, keep_all=True), 4, Seat.NORTH,
                      "JD TD 2D 3H 4S 5C", "9D", {"NS": 13, "EW": 12}),
}


def bench_position(built: Built, *, samples: int, dealer_samples: int, later: int,
                   seed: int) -> dict[str, Any]:
    seats = SEATS_FOR_PLAYERS[built.players]
    from allfours_notation.checking.analysis.advisor_play import deal_order

    elder = deal_order(built.options, seats, built.dealer)[0]
    pos = position(built.options, seats, built.dealer, elder, cards(built.hand),
                   card(built.turnup), built.scores)
    start = time.process_time()
    pool = pool_of(pos, later)
    pool_s = time.process_time() - start
    start = time.process_time()
    advice = advise(pos, samples=samples, seed=seed, dealer_samples=dealer_samples,
                    later=later)
    seconds = time.process_time() - start
    return {
        "position": built.name,
        "seat": elder.letter,
        "samples": samples,
        "dealer_samples": dealer_samples,
        "later": later,
        "later_left_out": pool.left_out,
        "pool_s": round(pool_s, 2),
        "advise_s": round(seconds, 2),
        "best": advice.best,
        "options": {o.option: {"win": round(dict(o.win)[pos.side].mean, 3),
                               "se": round(dict(o.win)[pos.side].se, 3),
                               "unsolved": o.unsolved} for o in advice.options},
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.advisor", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--samples", type=int, default=100)
    parser.add_argument("--dealer-samples", type=int, default=8)
    parser.add_argument("--later", type=int, default=64)
    parser.add_argument("--positions", default="2x6,2x6-keep,3x6,4x6")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    rows = [bench_position(POSITIONS[name], samples=args.samples,
                           dealer_samples=args.dealer_samples, later=args.later,
                           seed=args.seed)
            for name in args.positions.split(",")]
    if args.json:
        print(json.dumps(rows, indent=2))
        return 0
    print("| position | K | dealer's K | later deals | pool CPU s | advise CPU s | best | "
          "options (win ± se, unsolved) |")
    print("|---|---|---|---|---|---|---|---|")
    for row in rows:
        options = "; ".join(f"{name} {o['win']:.2f} ± {o['se']:.2f} ({o['unsolved']})"
                            for name, o in row["options"].items())
        print(f"| {row['position']} | {row['samples']} | {row['dealer_samples']} | "
              f"{row['later']} | {row['pool_s']} | {row['advise_s']} | {row['best']} | "
              f"{options} |")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
