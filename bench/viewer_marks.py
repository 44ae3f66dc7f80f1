"""How long the viewer's background check takes to mark every game, and what it costs
the person pressing keys meanwhile.

    python -m bench.viewer_marks FILE [--runs 3]

Headless (Textual's ``run_test``, 160×48).  Per run: seconds from app start until the
file is indexed and until every game has its mark; the median time for the app to
handle → (step) while the check runs, and again after it has finished.  Prints the
median of the runs as JSON.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import statistics
import time

SIZE = (160, 48)
PRESSES = 20


async def one_run(path: str) -> dict[str, float]:
    from allfours_notation.viewer.app import ViewerApp

    app = ViewerApp(path)
    started = time.perf_counter()
    async with app.run_test(size=SIZE) as pilot:
        while app.library is None or not app.library.complete or app.entry is None:
            await pilot.pause(0.005)
        indexed = time.perf_counter() - started
        during = await key_seconds(pilot)
        library = app.library
        while len(library.marks) < len(library):
            await pilot.pause(0.01)
        marked = time.perf_counter() - started
        after = await key_seconds(pilot)
    return {"indexed_s": indexed, "all_marked_s": marked, "key_during_check_s": during,
            "key_after_check_s": after, "games": float(len(library))}


async def key_seconds(pilot: object) -> float:
    """Median seconds for one → to be handled and the screen refreshed."""
    from textual.pilot import Pilot

    assert isinstance(pilot, Pilot)
    times = []
    for _ in range(PRESSES):
        begun = time.perf_counter()
        await pilot.press("right")
        times.append(time.perf_counter() - begun)
    return statistics.median(times)


def main() -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.viewer_marks", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("file")
    parser.add_argument("--runs", type=int, default=3)
    args = parser.parse_args()
    runs = [asyncio.run(one_run(args.file)) for _ in range(args.runs)]
    summary = {key: statistics.median(run[key] for run in runs) for key in runs[0]}
    print(json.dumps(summary, indent=2))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
