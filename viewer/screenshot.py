"""Save an SVG screenshot of the viewer, made by the app itself (for the docs).

    python -m allfours_notation.viewer.screenshot FILE OUT.svg [--size 160x48] [KEY ...]

The keys are pressed after the file has loaded (Textual key names: ``right``, ``down``,
``pagedown``, ``k`` …).  ``rsvg-convert OUT.svg -o OUT.png`` makes a PNG of it.
"""

from __future__ import annotations

import argparse
import asyncio
from collections.abc import Sequence
from pathlib import Path

from allfours_notation.safe_write import replace_file

from .app import ViewerApp


async def take(path: str, out: Path, keys: Sequence[str], size: tuple[int, int]) -> None:
    app = ViewerApp(path, unicode=True)
    async with app.run_test(size=size) as pilot:
        while app.library is None or not app.library.complete or app.entry is None:
            await pilot.pause(0.05)
        for key in keys:
            await pilot.press(key)
        waited = 0.0
        while app.analysing is not None and waited < 60:  # the analysis panel (key 7)
            await pilot.pause(0.05)
            waited += 0.05
        await pilot.pause(0.2)
        replace_file(out, app.export_screenshot().encode("utf-8"))  # whole (safe_write)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m allfours_notation.viewer.screenshot",
                                     description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("file")
    parser.add_argument("out", type=Path)
    parser.add_argument("--size", default="160x48", help="terminal size, COLUMNSxLINES")
    parser.add_argument("keys", nargs="*")
    args = parser.parse_args(argv)
    columns, lines = (int(n) for n in args.size.split("x"))
    asyncio.run(take(args.file, args.out, args.keys, (columns, lines)))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
