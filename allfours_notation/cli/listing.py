"""``allfours list``: one line per game of an archive."""

from __future__ import annotations

import argparse
import json
import sys

from ..archive.catalog import CSV_COLUMNS, Entry, csv_row, entry_line, entry_of, with_counts
from ..visible import CsvRows, TerminalSafe, visible
from .archive_inputs import walk
from .check import exit_status

NAME = "list"
HELP = "list the games of AFN files and folders, one line each"
DESCRIPTION = """\
Print one line per game of each FILE (a folder stands for every .afn file under
it, recursively, in sorted order; '-' reads stdin): where it is (file:game),
date, event, the players by seat, the rules, the number of deals, the Result
tag and the last total written.  Only the header and the last 'total' line of
each game are read, so listing a large archive is quick.

--check also replays every game and adds its number of errors, warnings and
disputes (as 'allfours check' counts them), at the speed of a check.

examples:
  allfours list season/
  allfours list --check --csv season/ > games.csv

exit status: 0 listed (with --check: no game has errors or disputes), 1 with
--check some game has errors, 2 unreadable input, 3 with --check some game has
disputes and none has errors (as 'allfours check').
"""


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("files", nargs="+", metavar="FILE",
                        help="AFN files or folders of them; '-' reads stdin")
    parser.add_argument("--check", action="store_true",
                        help="replay each game and count its errors, warnings and disputes")
    form = parser.add_mutually_exclusive_group()
    form.add_argument("--json", action="store_true", help="a JSON array, one object per game")
    form.add_argument("--csv", action="store_true", help="CSV with a header row")


def run(args: argparse.Namespace) -> int:
    from ..archive.analysis import analyse

    files = walk(args.files)
    printer = EntryPrinter(as_json=args.json, as_csv=args.csv)
    with_errors = with_disputes = False
    for scanned in files.scans():
        with files.each(scanned):
            for header in scanned.headers:
                entry = entry_of(scanned.name, scanned.text, header)
                if args.check:
                    entry = with_counts(entry, analyse(scanned.game(header)))
                    with_errors |= bool(entry.errors)
                    with_disputes |= bool(entry.disputes)
                printer.add(entry)
    printer.close()
    if files.unreadable:
        return 2
    return exit_status(unreadable=False, errors=int(with_errors or files.faulty),
                       disputes=int(with_disputes))


class EntryPrinter:
    """Prints entries as they come: text lines, CSV rows or the items of a JSON array."""

    def __init__(self, *, as_json: bool = False, as_csv: bool = False) -> None:
        self.as_json, self.as_csv = as_json, as_csv
        self.count = 0
        self.terminal = sys.stdout.isatty()  # data shown, not obeyed: escaped on a terminal
        out = TerminalSafe(sys.stdout) if self.terminal else sys.stdout
        self.writer = CsvRows(out) if as_csv else None
        if self.writer is not None:
            self.writer.writerow(CSV_COLUMNS)

    def add(self, entry: Entry) -> None:
        if self.as_json:
            text = json.dumps(entry.as_json(), ensure_ascii=False)
            if self.terminal:  # \u009b in a JSON string is the same string, and inert
                text = visible(text)
            sys.stdout.write(("[\n  " if self.count == 0 else ",\n  ") + text)
        elif self.writer is not None:
            self.writer.writerow(csv_row(entry))
        else:
            sys.stdout.write(entry_line(entry) + "\n")  # plain: Rich costs more than the scan
        self.count += 1

    def close(self) -> None:
        if self.as_json:
            sys.stdout.write("\n]\n" if self.count else "[]\n")
        sys.stdout.flush()
