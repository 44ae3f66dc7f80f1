"""The full differential run of issue 10: the referee against the simple scorer of
``tests/rules/differential.py`` on more than 5,000 generated games, every profile,
player count and option value.

    python -m bench.differential [--games-per-variant 11] [--seed 10]

Prints the number of games, deals and variants, the offences both scorers found
(the generator breaks a rule now and then: revokes, undertrumps, calls without a
required trump), every disagreement (none is the expected answer) and the time.
The suite runs a small sample of the same.
"""

from __future__ import annotations

import argparse
import sys
import time


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.differential",
                                     description=__doc__.split("\n\n")[0] if __doc__ else None)
    parser.add_argument("--games-per-variant", type=int, default=11,
                        help="games generated for each variant (default 11: 5,544 games)")
    parser.add_argument("--seed", type=int, default=10, help="the generator's seed")
    args = parser.parse_args(argv)
    from tests.rules.differential import run_differential

    start = time.perf_counter()
    result = run_differential(args.games_per_variant, seed=args.seed)
    took = time.perf_counter() - start
    for problem in result.disagreements:
        print(problem)
    print(f"{result.games} games, {result.deals} deals ({result.packs} written as the order "
          f"of the pack, {result.discards} with discards), {result.variants} variants, "
          f"{result.offences} offences: {len(result.disagreements)} disagreements "
          f"({took:.0f} s)")
    return 1 if result.disagreements else 0


if __name__ == "__main__":
    sys.exit(main())
