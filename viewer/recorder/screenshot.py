"""Save an SVG screenshot of the recorder, made by the app itself (for the docs).

    python -m allfours_notation.viewer.recorder.screenshot FILE OUT.svg --entries N [LINE ...]

The last game of FILE is taken up to its N-th entry (in memory: FILE is not
written), then each LINE is typed as the scorer would, and the screen saved at
80×24 unless ``--size`` says otherwise.  ``rsvg-convert`` makes a PNG of it.
"""

from __future__ import annotations

import argparse
import asyncio
from collections.abc import Sequence
from pathlib import Path

from allfours_notation.checking.parsing import parse
from allfours_notation.recording.session import Session, entries_of_game
from allfours_notation.referee.profiles import resolve_options
from allfours_notation.safe_write import replace_file

from ..app import ViewerApp
from .screen import RecorderScreen


async def take(session: Session, out: Path, lines: Sequence[str], size: tuple[int, int]) -> None:
    screen = RecorderScreen(session=session, unicode=True, title="AFN recorder")
    app = ViewerApp(unicode=True, recorder=screen)
    async with app.run_test(size=size) as pilot:
        await pilot.pause()
        for line in lines:
            screen.entry_line.value = line
            await pilot.press("enter")
        await pilot.pause(0.2)
        replace_file(out, app.export_screenshot(title="AFN recorder").encode("utf-8"))


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m allfours_notation.viewer.recorder.screenshot",
                                     description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("file", type=Path)
    parser.add_argument("out", type=Path)
    parser.add_argument("--entries", type=int, default=None,
                        help="take the last game up to this entry (default: all of it)")
    parser.add_argument("--size", default="80x24", help="terminal size, COLUMNSxLINES")
    parser.add_argument("lines", nargs="*", help="lines typed after that")
    args = parser.parse_intermixed_args(argv)
    game = parse(args.file.read_text(encoding="utf-8")).games[-1]
    options, _ = resolve_options(game)
    entries = entries_of_game(game, options)
    session = Session(game.tags, entries=entries[: args.entries], index=game.index)
    columns, rows = (int(n) for n in args.size.split("x"))
    asyncio.run(take(session, args.out, args.lines, (columns, rows)))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
