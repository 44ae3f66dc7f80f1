"""``allfours serve``: the tables of a club night scored on phones (see docs/serve.md).

aiohttp and segno are imported only inside :func:`run`: the other commands (and
``allfours --help``) never load them.
"""

from __future__ import annotations

import argparse
import asyncio
import functools
import os
import signal
import sys
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any
from urllib.parse import quote

from .inputs import fail

if TYPE_CHECKING:
    from ..referee.profiles import Profile
    from ..venue.app import Venue
    from ..venue.event import EventTable
    from ..venue.games import MatchOver
    from ..venue.table import Table

NAME = "serve"
HELP = "serve games to the phones at the tables: each table scores on its phone"
DESCRIPTION = """\
Serve each GAME file to the phone of one table: a page, phone first, where the
table enters each deal by its results (High, Low, Jack, Hang Jack, Game or a
tied Game, a kick, a gift, a penalty, and the calls) or card by card (the
hands if known, the turn-up, the calls, each card played), and the other side
agrees or claims at the deal's end.  Every entry is judged by the recording core of
'allfours record' (a refused entry shows the referee's reason), and the GAME
file is rewritten whole after every accepted entry.  A GAME whose last game is
unfinished is resumed where it stopped; one whose games are all finished gets a
new game with the same players.  When a game ends, the phone starts the table's
next game (not once the event's match rule says the match at the table is over).

Each table gets a link with an unguessable token, and the director a separate
one, to a page of every table's state: its score, deal and what it waits for,
the tables with no entry for --stale minutes, and the disputes waiting for a
ruling, entered there and written 'director scored ...' into the disputed
deal (one the table has since left too: its later deals keep their items and
are scored again).  The links are printed and written, with a QR code each,
to a printable page (--links; keep it private).  A request without a right
token is refused.  The page keeps entries made without a network on the phone and sends them, each
once and in order, when the network is back.  Stop with Ctrl+C; run the same
command again to go on (new links are made each time).

The server listens on 127.0.0.1 unless --host names the laptop's address on the
club's network (for the phones to reach it), e.g. --host 192.168.1.20.

Given an EVENT.toml, the tables of a round of the event are served (--round R;
repeated, --round 1 --round 2, or --all-rounds: several rounds at once, the
director's page grouping the tables by round and match): each table of each
match scores into GAMES/roundR-HOME-AWAY-tN.afn, made with the game's header
when missing (the event, its rules, the round, table and teams, the home pair
North-South and the away pair East-West).

exit status: 0 after Ctrl+C, 2 usage error, a GAME that cannot be served (not
valid AFN, no game header, another recorder writing it) or an address in use.
"""


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("games", metavar="GAME", nargs="+",
                        help="an AFN file, one per table (the table is named after it); or "
                        "one EVENT.toml: the tables of a round of the event")
    parser.add_argument("--round", metavar="NAME", action="append", default=[],
                        help="with an EVENT.toml: a round whose tables to serve (needed "
                        "when the event has more than one; repeat it to serve several "
                        "rounds at once)")
    parser.add_argument("--all-rounds", action="store_true",
                        help="with an EVENT.toml: serve the tables of every round of the "
                        "event (their game files are made now)")
    parser.add_argument("--games-folder", metavar="DIR",
                        help="with an EVENT.toml: the folder of its games (default: games "
                        "beside the event file, else the event file's folder)")
    parser.add_argument("--host", default="127.0.0.1",
                        help="the address to listen on (default: 127.0.0.1, this computer "
                        "only; give the laptop's address on the club's network for phones)")
    parser.add_argument("--port", type=int, default=8039,
                        help="the port to listen on (default: 8039; 0 picks a free one)")
    parser.add_argument("--links", metavar="HTML",
                        help="where to write the printable page of links and QR codes "
                        "(default: serve-links.html beside the first GAME or EVENT.toml)")
    parser.add_argument("--stale", metavar="MINUTES", type=float, default=10.0,
                        help="the director's page flags a table with no entry for this "
                        "many minutes as not reporting (default: 10)")


def run(args: argparse.Namespace) -> int:
    from ..venue.app import Venue
    from ..venue.table import TableRefused, open_table

    if not args.stale > 0:
        return fail("--stale: the minutes must be more than 0")
    paths = [Path(game) for game in args.games]
    for path in paths:
        if path.is_dir():
            return fail(f"{path}: is a directory, not an AFN file")
    names: list[str | None] = [None] * len(paths)
    report: Callable[[], dict[str, Any]] | None = None
    places: dict[str, tuple[str, str]] = {}
    beside = paths[0]  # the page of links is written beside it
    house: Profile | None = None
    match_over: MatchOver | None = None  # an event's: the match rule at each table
    if any(path.suffix.lower() == ".toml" for path in paths):
        if len(paths) != 1:
            return fail("serve one EVENT.toml, or AFN files, not both")
        found = _event_tables(paths[0], args.round, args.all_rounds, args.games_folder)
        if isinstance(found, int):
            return found
        house, tables_of_event, report, match_over = found
        paths = [table.path for table in tables_of_event]
        names = [table.name for table in tables_of_event]
        places = {table.name: (table.round, table.match) for table in tables_of_event}
    elif args.round or args.all_rounds or args.games_folder is not None:
        return fail("--round, --all-rounds and --games-folder are for an EVENT.toml")
    tables: list[Table] = []
    try:
        for path, name in zip(paths, names, strict=True):
            try:
                tables.append(open_table(path, name or _name(path, tables), house,
                                         match_over))
            except TableRefused as error:
                return fail(str(error))
            except OSError as error:
                return fail(f"{path}: cannot read: {error.strerror or error}")
        links = Path(args.links) if args.links else beside.with_name("serve-links.html")
        venue = Venue.of(tables, places)
        venue.stale, venue.report = args.stale * 60, report
        return asyncio.run(_serve(venue, args.host, args.port, links))
    finally:
        for table in tables:
            table.release()


def _event_tables(event_file: Path, round_names: list[str], every: bool, folder: str | None
                  ) -> tuple[Profile | None, list[EventTable], Callable[[], dict[str, Any]],
                             MatchOver] | int:
    """The tables of the event's rounds served, their missing game files written, the
    rounds' report and the match rule's word on a table (no next game once its match is
    over); or the exit status after saying why not (and nothing written)."""
    from ..events.eventfile import read_event_file
    from ..venue.event import (
        EventRefused,
        event_report,
        event_tables,
        rounds_to_serve,
        write_missing,
    )
    from ..venue.games import event_match_over
    from .event import _print_diagnostics, games_folder

    loaded = read_event_file(event_file)
    _print_diagnostics(loaded.diagnostics, {str(event_file): loaded.text}, to_stderr=True)
    if loaded.has_errors or loaded.event is None:
        return fail(f"{event_file}: the event file has mistakes; nothing served")
    games = games_folder(event_file, folder)
    event = loaded.event
    try:
        served = tuple(scheduled.name for scheduled in
                       rounds_to_serve(event, round_names, every=every))
        tables = [table for name in served for table in event_tables(event, games, name)]
        for path in write_missing(tables):
            print(f"new game file: {path}")
    except EventRefused as error:
        return fail(f"{event_file}: {error}")
    except OSError as error:
        return fail(f"{games}: cannot write a table's game file: {error.strerror or error}")
    return (event.house, tables, functools.partial(event_report, event, games, served),
            event_match_over(event, games))


def _name(path: Path, tables: list[Table]) -> str:
    """The table's name: its file's stem, numbered if two files share one."""
    taken = {table.name for table in tables}
    name, number = path.stem, 2
    while name in taken:
        name, number = f"{path.stem} ({number})", number + 1
    return name


async def _serve(venue: Venue, host: str, port: int, links: Path) -> int:
    from aiohttp import web

    from ..safe_write import replace_file
    from ..venue.app import make_app
    from ..venue.links import links_page

    runner = web.AppRunner(make_app(venue), access_log=None)
    await runner.setup()
    try:
        site = web.TCPSite(runner, host, port)
        try:
            await site.start()
        except OSError as error:
            return fail(f"cannot listen on {host}:{port}: {error.strerror or error}")
        if host in ("0.0.0.0", "::", ""):
            print(f"note: the links name {host or 'no address'}, which no phone can reach: "
                  "give --host the laptop's address on the club's network", file=sys.stderr)
        bound = runner.addresses[0][1]
        shown = f"[{host}]" if ":" in host else host
        venue.base_url = f"http://{shown}:{bound}"
        try:
            page = links_page(venue.links(), venue.headings())
            replace_file(links, page.encode("utf-8"), notice=None)
            os.chmod(links, 0o600)  # the links let their holder score: for the director only
        except OSError as error:
            return fail(f"{links}: cannot write the page of links: {error.strerror or error}")
        _announce(venue, links)
        stop = asyncio.Event()
        loop = asyncio.get_running_loop()
        for signum in (signal.SIGINT, signal.SIGTERM):
            loop.add_signal_handler(signum, stop.set)
        await stop.wait()
        return 0
    finally:
        await runner.cleanup()


def _announce(venue: Venue, links: Path) -> None:
    for name, link in venue.links():
        print(f"table {name}: {link}")
    rounds = list(dict.fromkeys(where[0] for where in venue.places.values()))
    if len(rounds) > 1:  # each round's links on a page of its own, to print apart
        for name in rounds:
            print(f"round {name}'s links and QR codes: {venue.base_url}/d/{venue.director}/"
                  f"links?round={quote(name)}")
    print(f"director (every table, disputes and rulings): "
          f"{venue.base_url}/d/{venue.director}/")
    print(f"printable page of the links and QR codes: {links}")
    print("Ctrl+C stops the server (every accepted entry is already on disk)")
    sys.stdout.flush()
