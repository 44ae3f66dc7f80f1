"""What refereeing one small game costs: rule options, the replay and the dispute
report, naming slips and linking the diagnostics, per game, the games parsed first.

    python -m bench.small_games                  # tiny games (fuzz.shapes.tiny_games, 1 MB)
    python -m bench.small_games --varied         # small games whose numbers, dealers,
                                                 # turn-ups and calls vary
    python -m bench.small_games FILE --profile   # and where the time goes

A file of thousands of tiny games is mostly per-game fixed cost (issue 16); this
times exactly the part of it that ``check`` spends in the referee, apart from the
parsing and the loop around it.  The figure is the median of ``--runs`` passes over
the same games, in CPU microseconds per game (``time.process_time``: the figure to
quote on a machine others are using), with the cycle collector paused as ``check``
pauses it.
"""

from __future__ import annotations

import argparse
import cProfile
import gc
import pstats
import statistics
import time
from pathlib import Path

from allfours_notation.checking import rules_diagnostics
from allfours_notation.checking.parsing import parse_game_slice
from allfours_notation.reading.parser import read_games
from allfours_notation.reading.records import Game
from fuzz.shapes import tiny_games, varied_small_games


def refereed(text: str, limit: int) -> list[Game]:
    """The first ``limit`` games of ``text`` that ``check`` would referee, parsed."""
    reader = read_games(text, filename="small.afn")
    games = []
    for index, piece in enumerate(reader.slices, start=1):
        game = parse_game_slice(reader.text, piece, index=index, filename="small.afn")
        if not game.broken and (game.deals or game.tags):
            games.append(game)
            if len(games) == limit:
                break
    return games


def check_rules(games: list[Game]) -> None:
    """What ``check`` does for each game after parsing it (its own function)."""
    for game in games:
        rules_diagnostics(game, (None, {}), list(game.diagnostics))


def cpu_seconds(games: list[Game]) -> float:
    gc.collect()
    gc.disable()
    try:
        start = time.process_time()
        check_rules(games)
        return time.process_time() - start
    finally:
        gc.enable()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("file", nargs="?", type=Path,
                        help="an AFN file (default: 1 MB of tiny games)")
    parser.add_argument("--varied", action="store_true",
                        help="1 MB of varied small games instead of the tiny-games shape")
    parser.add_argument("--games", type=int, default=20_000, help="games timed (default 20000)")
    parser.add_argument("--runs", type=int, default=5, help="passes; the median is reported")
    parser.add_argument("--profile", action="store_true",
                        help="then one pass under cProfile, the 25 costliest functions")
    args = parser.parse_args()
    if args.file is not None:
        text, name = args.file.read_text(encoding="utf-8"), args.file.name
    elif args.varied:
        text, name = varied_small_games(1 << 20), "varied small games (1 MB)"
    else:
        text, name = tiny_games(1 << 20), "tiny games (1 MB)"
    games = refereed(text, args.games)
    if not games:
        raise SystemExit(f"{name}: no game to referee")
    check_rules(games)  # warm up: caches per rule set and table shape are made once
    runs = [cpu_seconds(games) / len(games) * 1e6 for _ in range(args.runs)]
    print(f"{name}: {len(games)} games, options + replay + disputes + explain "
          f"{statistics.median(runs):.2f} µs CPU per game (median of {args.runs}: "
          + ", ".join(f"{run:.2f}" for run in runs) + ")")
    if args.profile:
        profile = cProfile.Profile()
        profile.runcall(check_rules, games)
        pstats.Stats(profile).sort_stats("tottime").print_stats(25)


if __name__ == "__main__":
    main()
