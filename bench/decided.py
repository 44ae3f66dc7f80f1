"""The decided/provisional property of issue 24 on many generated games.

    python -m bench.decided [--games 200] [--seed 24] [--continuations 3]

Every deal of each game is cut after each of its events; at each cut every item the
table calls decided must be among the deal's items at its end, for the recorded
continuation and for random legal continuations of the cards nobody has seen; and a
game the cut declares won must be won by the same side at the same moment in the full
record and in each continuation (``tests/rules/decided_check.py``).  Prints the games,
cuts, continuations, decided items checked, wins declared at a cut, every problem (none
is the expected answer) and the time.  The suite runs a Hypothesis sample.
"""

from __future__ import annotations

import argparse
import random
import sys
import time


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.decided",
                                     description=__doc__.split("\n\n")[0] if __doc__ else None)
    parser.add_argument("--games", type=int, default=200, help="games (default 200)")
    parser.add_argument("--seed", type=int, default=24, help="the generator's seed")
    parser.add_argument("--continuations", type=int, default=3,
                        help="random continuations per cut (default 3)")
    args = parser.parse_args(argv)
    from tests.rules.decided_check import Figures, check_game, games_for

    start = time.perf_counter()
    total = Figures()
    rng = random.Random(args.seed)
    for game in games_for(args.seed, args.games):
        total.add(check_game(game, rng, continuations=args.continuations))
    took = time.perf_counter() - start
    for problem in total.problems:
        print(problem)
    print(f"{total.games} games, {total.cuts} cuts, {total.continuations} continuations, "
          f"{total.decided_items} decided items checked, {total.wins_at_a_cut} wins declared "
          f"at a cut: {len(total.problems)} problems ({took:.0f} s)")
    return 1 if total.problems else 0


if __name__ == "__main__":
    sys.exit(main())
