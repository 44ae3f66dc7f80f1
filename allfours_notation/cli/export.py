"""``allfours export --json``: the records of a file as JSON."""

from __future__ import annotations

import argparse
import sys
from dataclasses import replace

from ..export import dumps
from ..formatter import with_seats
from ..parser import parse
from ..schema import schema_text
from .inputs import InputError, fail, read_input

NAME = "export"
HELP = "write the records of an AFN file as JSON"
DESCRIPTION = """\
Parse FILE (or standard input for '-') and write its records as JSON on standard
output: every game with its tags, deals, hands, turn-ups, calls, tricks, claims,
totals and comments, each with its position (line and column), and every
diagnostic.  Cards are written "JS", seats "N", an unseen card null.  The JSON
follows a JSON Schema (draft 2020-12) that ships with the package: 'allfours export
--schema' prints it (in the source tree: grammar/afn-records.schema.json).

A file with errors is still exported (its broken games without deals, its
diagnostics saying why).

exit status: 0 no errors, 1 the file has errors (the JSON is still written),
2 usage error or unreadable input.
"""


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("file", metavar="FILE", nargs="?",
                        help="an AFN file; '-' reads stdin (not needed with --schema)")
    parser.add_argument(
        "--json",
        action="store_true",
        default=True,
        help="write JSON (the only format, and the default)",
    )
    parser.add_argument("--compact", action="store_true", help="one line, no indentation")
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
        if args.file is not None:
            return fail("--schema takes no FILE: it prints the schema of every export")
        sys.stdout.buffer.write(schema_text().encode("utf-8"))
        sys.stdout.buffer.flush()
        return 0
    if args.file is None:
        return fail("export needs a FILE ('-' reads standard input), or --schema")
    try:
        source = read_input(args.file)
    except InputError as error:
        return fail(str(error))
    result = parse(source.data, filename=source.name)
    if args.fill_seats:
        games = tuple(game if game.broken else with_seats(game) for game in result.games)
        result = replace(result, games=games)
    text = dumps(result, indent=None if args.compact else 2)
    sys.stdout.buffer.write(text.encode("utf-8"))
    sys.stdout.buffer.flush()
    return 0 if result.ok else 1
