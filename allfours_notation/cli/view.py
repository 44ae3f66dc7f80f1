"""``allfours view``: step through a recorded game in the terminal (a Textual app).

The core package never imports Textual: the ``viewer`` package is imported inside
:func:`run`, after the file has been checked, so that a missing file, a directory or a
file that is not AFN gets one clear line and exit code 2 before any screen is drawn.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from ..cards import Seat
from ..headers import scan_headers
from ..source import decode
from .inputs import fail

NAME = "view"
HELP = "step through the games of an AFN file in the terminal"
DESCRIPTION = """\
Open FILE in the replay viewer: the table with every hand, the trick on the table,
trumps, tricks and pips won, the points of each deal with their reasons, the running
score, comments and glyphs, and the game's diagnostics.

keys: →/← card, ↓/↑ trick, PgDn/PgUp deal, n/p game, Home/End start/end of the
deal, g go to a deal or trick, k kibitz a seat, a autoplay, o open a file,
? help, q quit.

The viewer needs a terminal: with standard output (or input) not a terminal it
is refused at once, and FILE must be a file ('-' is refused: the keys are read
from the terminal, so the game cannot come from standard input; save it to a
file first).

exit status: 0 after quitting, 2 when FILE is missing, a directory or not AFN,
or when there is no terminal.
"""

SNIFF_BYTES = 64 * 1024


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("file", metavar="FILE", help="an AFN file (not '-')")
    parser.add_argument("--game", type=int, default=1, metavar="N",
                        help="open game N (1-based; default 1)")
    parser.add_argument("--deal", type=int, metavar="N", help="open at deal N of that game")
    parser.add_argument("--trick", type=int, metavar="N",
                        help="with --deal: open when trick N is complete")
    parser.add_argument("--seat", choices=["N", "E", "S", "W", "n", "e", "s", "w"],
                        help="kibitz this seat: the other hands are shown face down")
    parser.add_argument("--ascii", action="store_true",
                        help="write suits as letters (S H D C) instead of ♠ ♥ ♦ ♣")


def unreadable_reason(path: Path) -> str | None:
    """One sentence saying why ``path`` cannot be viewed, or ``None`` when it can."""
    if not path.exists():
        return f"{path}: no such file"
    if path.is_dir():
        return f"{path}: is a directory, not an AFN file"
    try:
        with path.open("rb") as handle:
            head = handle.read(SNIFF_BYTES)
    except OSError as error:
        return f"{path}: cannot read: {error.strerror or error}"
    if b"\x00" in head:
        return f"{path}: not an AFN file (binary data)"
    text, _ = decode(head)
    if not any(header.tags or header.deals for header in scan_headers(text)):
        return f"{path}: not an AFN file (no '[Tag \"…\"]' or 'deal N dealer S' found)"
    return None


def no_terminal_reason(file: str) -> str | None:
    """Why the viewer cannot run here, before anything is drawn: it reads keys from the
    terminal and draws on it, so neither may be a pipe or a file."""
    if file == "-":
        return ("view cannot read the game from standard input ('-'): the viewer reads "
                "its keys there; save the game to a file and view that")
    if not sys.stdout.isatty():
        return ("view needs a terminal, but standard output is not one; use 'allfours "
                "score' or 'allfours check' for output to a pipe or file")
    if not sys.stdin.isatty():
        return "view needs a terminal, but standard input is not one"
    return None


def run(args: argparse.Namespace) -> int:
    if args.file == "-":
        return fail(no_terminal_reason("-") or "")
    reason = unreadable_reason(Path(args.file))
    if reason is not None:
        return fail(reason)
    if args.game < 1:
        return fail(f"--game {args.game}: games are numbered from 1")
    if args.trick is not None and args.deal is None:
        return fail("--trick needs --deal")
    seat = Seat.from_letter(args.seat).letter if args.seat else None
    terminal = no_terminal_reason(args.file)
    if terminal is not None:
        return fail(terminal)

    from ..viewer import run_viewer  # Textual is imported only here

    return run_viewer(args.file, game=args.game, deal=args.deal, trick=args.trick, seat=seat,
                      unicode=False if args.ascii else None)
