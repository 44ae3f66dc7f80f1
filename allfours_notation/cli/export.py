"""``allfours export``: the records of files as JSON, or an archive into SQLite or CSV."""

from __future__ import annotations

import argparse
import json
import sys
from dataclasses import replace

from ..checking.parsing import parse
from ..diagnostics import Diagnostic
from ..guard import INTERNAL_ERROR, guarded, internal_error
from ..reading.records import Game
from ..visible import for_stdout
from ..writing.export import result_to_json
from ..writing.formatter import with_seats
from ..writing.schema import schema_text
from .inputs import Input, InputError, expanded_or_fail, fail, read_afn

NAME = "export"
HELP = "write the records of AFN files as JSON, or into an SQLite database or CSV files"
DESCRIPTION = """\
Parse each FILE (or standard input for '-') and write its records as JSON on
standard output: every game with its tags, its rules (the profile and every
option, numbers as numbers), deals, hands, turn-ups, calls,
tricks, claims, totals and comments, each with its position (line and column),
and every diagnostic (with its id, and the id of the root cause it follows
from).  Cards are written "JS", seats "N", an unseen card null.  The JSON
follows a JSON Schema (draft 2020-12) that ships with the package: 'allfours
export --schema' prints it (in the source tree: grammar/afn-records.schema.json).

One FILE gives one JSON document.  Several FILEs give one document per file, one
after the other (with --compact, one per line: JSON Lines), in the order given.
--no-positions leaves out the position of every record (a 'span' per card,
most of the output); diagnostics keep their line and column.

A file with errors is still exported (its broken games without deals, its
diagnostics saying why).

A FILE may be a folder: every .afn file under it, recursively, in sorted order.

--sqlite DB adds every game to an SQLite database (created if needed): tables
games, tags, seats, deals, turnups, calls, tricks, plays, awards, totals and
diagnostics, joined by game_id (and deal, trick), as the referee computes them;
the schema is docs/archive-schema.md.  A game already in the database (the
same records, however laid out) is not added again, so exporting a folder
again after new files arrived adds only the new games.  --csv DIR writes the
same tables as CSV files, one per table; files already in DIR are replaced
only with --force, and a symbolic link there is never followed.  A text cell
beginning with = + - @, TAB or CR is written with a leading ' so that no
spreadsheet takes it for a formula.
Both read one game at a time, so memory stays flat however large the archive,
and show a progress bar on a terminal.

--event EVENT.toml (with --sqlite or --csv) adds the event's own tables beside
the games': event, teams, team_players, matches, match_tables, event_games and
standings (CSV: event_TABLE.csv), computed as 'allfours event' computes them
from the event's games (the FILE when it is one folder, else the folder
'games' beside the event file).  Each event_games row carries the game's
digest, the same as games.digest, so one query joins the two; exported again,
the event's tables are replaced whole (in SQLite, in one transaction).  The
same as 'allfours event export EVENT.toml --sqlite DB' with the games added.

examples:
  allfours export --sqlite season.db season/
  sqlite3 season.db "SELECT player, COUNT(*) FROM awards JOIN seats USING (game_id, seat)
                     WHERE item = 'low' GROUP BY player ORDER BY 2 DESC"
  allfours export --csv tables/ season/
  allfours export --sqlite night.db --event EVENT.toml games/
  sqlite3 night.db "SELECT m.home, m.away, e.table_no, g.file FROM event_games e
                    JOIN games g USING (digest) JOIN matches m USING (match_id)"

exit status: 0 no errors, 1 a game has errors (everything is still written;
--sqlite/--csv: every game added, the last line says how many with errors), 2 usage
error, or an input unreadable or not text AFN (binary, empty).
"""


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("files", nargs="*", metavar="FILE",
                        help="AFN files or folders of them; '-' reads stdin (none with --schema)")
    formats = parser.add_argument_group("format").add_mutually_exclusive_group()
    formats.add_argument(
        "--json",
        action="store_true",
        help="write the records as JSON (the default)",
    )
    formats.add_argument("--sqlite", metavar="DB",
                         help="add the games to the SQLite database DB (created if needed)")
    formats.add_argument("--csv", metavar="DIR", help="write one CSV file per table into DIR")
    parser.add_argument("--event", metavar="EVENT.toml",
                        help="with --sqlite or --csv: add the event's tables (teams, "
                        "matches, tables, the games' places, standings), joined on each "
                        "game's digest")
    parser.add_argument("--force", action="store_true",
                        help="with --csv: replace the CSV files already in DIR")
    parser.add_argument("--compact", action="store_true",
                        help="each document on one line, no indentation")
    parser.add_argument("--no-positions", action="store_false", dest="positions",
                        help="leave out every record's position (its 'span')")
    parser.add_argument(
        "--schema",
        action="store_true",
        help="print the JSON Schema that the exported JSON follows, and exit",
    )
    parser.add_argument(
        "--fill-seats",
        action="store_true",
        help="give every card its seat, worked out from the play as 'fmt' does "
        "(by default a seat the writer left out is null)",
    )


def run(args: argparse.Namespace) -> int:
    if args.schema:
        if args.files:
            return fail("--schema takes no FILE: it prints the schema of every export")
        sys.stdout.buffer.write(schema_text().encode("utf-8"))
        sys.stdout.buffer.flush()
        return 0
    if not args.files:
        return fail("export needs a FILE ('-' reads standard input), or --schema")
    if args.files.count("-") > 1:
        return fail("'-' (standard input) can be given only once")
    if args.event and not (args.sqlite or args.csv):
        return fail("--event adds the event's tables to --sqlite DB or --csv DIR: name one")
    if args.sqlite or args.csv:
        from .export_tables import export_tables

        return export_tables(args)
    names, unreadable = expanded_or_fail(args.files)
    status = 2 if unreadable else 0
    for name in names:
        try:
            source = read_afn(name)
        except InputError as error:
            fail(str(error))
            status = 2
            continue
        try:
            ok = _export_one(source, args)
        except OSError:
            raise  # standard output failing is not this file's fault
        except Exception as error:  # a bug a file reaches: that file's line; the next is read
            fault = internal_error(error, doing="exporting this file", file=source.name)
            fail(f"{source.name}: {fault.code} {fault.message}")
            ok = False
        if not ok and status == 0:
            status = 1
    return status


def _export_one(source: Input, args: argparse.Namespace) -> bool:
    """Write one file's records as JSON; whether it has neither errors nor faults."""
    result = parse(source.data, filename=source.name)
    if args.fill_seats:
        faults: list[Diagnostic] = []
        games = tuple(game if game.broken else _seated(game, faults) for game in result.games)
        result = replace(result, games=games, diagnostics=(*result.diagnostics, *faults))
    data = result_to_json(result, positions=args.positions)
    text = json.dumps(data, indent=None if args.compact else 2, ensure_ascii=False) + "\n"
    sys.stdout.buffer.write(for_stdout(text).encode("utf-8", "surrogateescape"))
    sys.stdout.buffer.flush()
    faulty = any(d["code"] == INTERNAL_ERROR for d in data["diagnostics"])
    return not faulty and result.ok


def _seated(game: Game, faults: list[Diagnostic]) -> Game:
    """``game`` with its seats filled; as it was, with an AFN901, if that fails."""

    def unseated(problem: Diagnostic) -> Game:
        faults.append(problem)
        return replace(game, diagnostics=(*game.diagnostics, problem))

    return guarded(lambda: with_seats(game), unseated, doing="working out the seats",
                   file=game.source, line=game.span.line if game.span else None,
                   column=game.span.column if game.span else None, game=game.index)
