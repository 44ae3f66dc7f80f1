"""Measure the cost of replay + scoring relative to parsing alone, on one corpus, in one run.

    python -m bench.replay_cost [--deals 5000] [--repeat 5] [--seed 2026]

The corpus is made by the package's seeded generator (half two-handed
hoffmann1909, half four-handed trinidad14).  Each figure is the median of
``--repeat`` timed runs over the same text:

* parse       — ``parse(text)``: slicing, Lark, records, structural checks;
* replay      — ``replay(game)`` for every game (every table state kept, rules,
                scoring and the dispute report);
* score only  — the referee without table snapshots or disputes
                (``replay_plain(..., record_states=False)``).
"""

from __future__ import annotations

import argparse
import platform
import statistics
import time
from collections.abc import Callable

from allfours_notation.checking.parsing import parse
from allfours_notation.generate import generate_corpus
from allfours_notation.referee import replay
from allfours_notation.referee.profiles import resolve_options
from allfours_notation.referee.replay import replay_plain


def median_time(action: Callable[[], object], repeat: int) -> float:
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        action()
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def cpu_name() -> str:
    try:
        with open("/proc/cpuinfo", encoding="utf-8") as info:
            for line in info:
                if line.startswith("model name"):
                    return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or "unknown CPU"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=5000)
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--seed", type=int, default=2026)
    args = parser.parse_args()
    half = args.deals // 2
    text = generate_corpus(args.seed, n_deals=half) + generate_corpus(
        args.seed + 1, n_deals=args.deals - half, profile="trinidad14", players=4
    ).replace("% AFN 1\n", "", 1)
    games = parse(text).games
    deals = sum(len(game.deals) for game in games)
    options = [resolve_options(game)[0] for game in games]

    def replay_all() -> None:
        for game in games:
            replay(game)

    def score_only() -> None:
        for game, chosen in zip(games, options, strict=True):
            replay_plain(game, chosen, record_states=False)

    parse_s = median_time(lambda: parse(text), args.repeat)
    replay_s = median_time(replay_all, args.repeat)
    score_s = median_time(score_only, args.repeat)
    size = len(text.encode("utf-8"))
    print(f"machine: {cpu_name()}, {platform.python_implementation()} "
          f"{platform.python_version()}")
    print(f"input: {size / 1e6:.2f} MB, {len(games)} games, {deals} deals "
          f"(seed {args.seed}); median of {args.repeat}")
    for label, seconds in (("parse", parse_s), ("replay", replay_s), ("score only", score_s)):
        ratio = seconds / parse_s
        print(f"  {label:<11} {seconds * 1000:8.1f} ms  {deals / seconds:9.0f} deals/s  "
              f"{ratio:5.2f}x parse")


if __name__ == "__main__":
    main()
