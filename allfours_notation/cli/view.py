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
from ..checking.parsing import parse_indexed
from ..reading.files import unreadable_reason as unreadable_reason  # re-exported: its old home
from ..reading.headers import scan_headers
from ..reading.source import decode
from .inputs import InputError, fail, read_afn

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

exit status: 0 after quitting, 2 when FILE is missing, a directory, a FIFO or a
device, larger than the size limit or not AFN, when --game, --deal or --trick
name nothing in it, or when there is no terminal.
"""



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


def out_of_range(path: Path, game: int, deal: int | None, trick: int | None) -> str | None:
    """Why ``--game/--deal/--trick`` name nothing in the file, or ``None`` when they
    name a place: a game by its place in the file, a deal by its number as written,
    a trick by its place in the deal (what the viewer's "go to" understands)."""
    if game < 1:
        return f"--game {game}: games are numbered from 1"
    if trick is not None and deal is None:
        return "--trick needs --deal"
    try:
        source = read_afn(str(path))
    except InputError as error:
        return str(error)
    text, _ = decode(source.data)
    headers = scan_headers(text)
    if game > len(headers):
        return f"--game {game}: {path} has {_count(len(headers), 'game')}"
    if deal is None:
        return None
    record = parse_indexed(text, headers[game - 1], filename=str(path))
    numbers = [d.number for d in record.deals]
    found = next((d for d in record.deals if d.number == deal), None)
    if found is None:
        listed = f" (its deals: {_ranges(numbers)})" if numbers else ""
        return f"--deal {deal}: game {game} has no deal {deal}{listed}"
    if trick is not None and not 1 <= trick <= len(found.tricks):
        return (f"--trick {trick}: deal {deal} of game {game} has "
                f"{_count(len(found.tricks), 'trick')}")
    return None


def _count(number: int, noun: str) -> str:
    return f"{number} {noun}{'' if number == 1 else 's'}"


def _ranges(numbers: list[int]) -> str:
    if numbers == list(range(numbers[0], numbers[0] + len(numbers))) and len(numbers) > 2:
        return f"{numbers[0]}–{numbers[-1]}"
    return ", ".join(str(n) for n in numbers[:20]) + (" …" if len(numbers) > 20 else "")


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
    reason = unreadable_reason(Path(args.file)) or out_of_range(
        Path(args.file), args.game, args.deal, args.trick)
    if reason is not None:
        return fail(reason)
    seat = Seat.from_letter(args.seat).letter if args.seat else None
    terminal = no_terminal_reason(args.file)
    if terminal is not None:
        return fail(terminal)

    from ..viewer import run_viewer  # Textual is imported only here

    return run_viewer(args.file, game=args.game, deal=args.deal, trick=args.trick, seat=seat,
                      unicode=False if args.ascii else None)
