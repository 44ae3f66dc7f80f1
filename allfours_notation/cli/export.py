"""``allfours export --json``: the records of a file as JSON."""

from __future__ import annotations

import argparse
import json
import sys
from dataclasses import replace

from ..diagnostics import Diagnostic
from ..export import result_to_json
from ..formatter import with_seats
from ..guard import INTERNAL_ERROR, guarded
from ..parser import parse
from ..records import Game
from .inputs import InputError, fail, read_input

NAME = "export"
HELP = "write the records of an AFN file as JSON"
DESCRIPTION = """\
Parse FILE (or standard input for '-') and write its records as JSON on standard
output: every game with its tags, deals, hands, turn-ups, calls, tricks, claims,
totals and comments, each with its position (line and column), and every
diagnostic.  Cards are written "JS", seats "N", an unseen card null.  The JSON
Schema (draft 2020-12) is grammar/afn-records.schema.json.

A file with errors is still exported (its broken games without deals, its
diagnostics saying why).

exit status: 0 no errors, 1 the file has errors (the JSON is still written),
2 usage error or unreadable input.
"""


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("file", metavar="FILE", help="an AFN file; '-' reads stdin")
    parser.add_argument(
        "--json",
        action="store_true",
        default=True,
        help="write JSON (the only format, and the default)",
    )
    parser.add_argument("--compact", action="store_true", help="one line, no indentation")
    parser.add_argument(
        "--fill-seats",
        action="store_true",
        help="give every card its seat, worked out from the play as 'fmt' does "
        "(by default a seat the writer left out is null)",
    )


def run(args: argparse.Namespace) -> int:
    try:
        source = read_input(args.file)
    except InputError as error:
        return fail(str(error))
    result = parse(source.data, filename=source.name)
    if args.fill_seats:
        faults: list[Diagnostic] = []
        games = tuple(game if game.broken else _seated(game, faults) for game in result.games)
        result = replace(result, games=games, diagnostics=(*result.diagnostics, *faults))
    data = result_to_json(result)
    text = json.dumps(data, indent=None if args.compact else 2, ensure_ascii=False) + "\n"
    sys.stdout.buffer.write(text.encode("utf-8"))
    sys.stdout.buffer.flush()
    faulty = any(d["code"] == INTERNAL_ERROR for d in data["diagnostics"])
    return 0 if result.ok and not faulty else 1


def _seated(game: Game, faults: list[Diagnostic]) -> Game:
    """``game`` with its seats filled; as it was, with an AFN901, if that fails."""

    def unseated(problem: Diagnostic) -> Game:
        faults.append(problem)
        return replace(game, diagnostics=(*game.diagnostics, problem))

    return guarded(lambda: with_seats(game), unseated, doing="working out the seats",
                   file=game.source, line=game.span.line if game.span else None,
                   column=game.span.column if game.span else None, game=game.index)
