"""Open a file in the viewer, headless, and say when the first deal was on screen.

Run as ``python -m bench.viewer_probe FILE SPAWNED`` where SPAWNED is the
``time.time()`` at which the parent started this process.  Prints one JSON
line: seconds from process start and from app start to the first deal shown,
and to the end of indexing.  It also gives its own peak RSS: the viewer's memory
with the whole file open and indexed.
"""

from __future__ import annotations

import asyncio
import json
import sys
import time

SIZE = (160, 48)
TIMEOUT = 300.0


async def _probe(path: str, spawned: float) -> dict[str, float | None]:
    from allfours_notation.viewer.app import ViewerApp

    started = time.time()
    app = ViewerApp(path)
    first_wall: float | None = None
    async with app.run_test(size=SIZE) as pilot:
        while time.time() - started < TIMEOUT:
            if first_wall is None and app.first_shown is not None:
                first_wall = time.time()
            if app.library is not None and app.library.complete and first_wall is not None:
                break
            await pilot.pause(0.005)
        indexed = time.time()
    return {
        "peak_rss_mb": _peak_rss_mb(),
        "first_deal_from_process_start_s": None if first_wall is None else first_wall - spawned,
        "first_deal_from_app_start_s": app.first_shown,
        "indexed_from_app_start_s": indexed - started,
        "games": float(len(app.library)) if app.library is not None else None,
    }


def _peak_rss_mb() -> float:
    """This process's peak RSS since it started (VmHWM: not inherited across exec)."""
    with open("/proc/self/status", encoding="ascii") as status:
        for line in status:
            if line.startswith("VmHWM:"):
                return int(line.split()[1]) / 1024
    return 0.0


def main(argv: list[str]) -> int:
    path, spawned = argv[0], float(argv[1])
    print(json.dumps(asyncio.run(_probe(path, spawned))))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
