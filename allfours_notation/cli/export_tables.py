"""``allfours export --sqlite DB`` and ``--csv DIR``: an archive as relational tables."""

from __future__ import annotations

import argparse

from .archive_inputs import walk
from .inputs import console, fail
from .progress import progress_bar


def export_tables(args: argparse.Namespace) -> int:
    """Stream every game of the inputs into the database or CSV folder."""
    from ..archive.analysis import analyse
    from ..archive.csvout import CsvWriter
    from ..archive.identity import game_digest
    from ..archive.sqlite import SchemaError, SqliteWriter
    from ..archive.tables import game_rows
    from ..safe_write import OutputRefused

    target = args.sqlite or args.csv
    try:
        writer: SqliteWriter | CsvWriter = (SqliteWriter(args.sqlite) if args.sqlite
                                            else CsvWriter(args.csv, force=args.force))
    except SchemaError as error:
        return fail(f"{target}: {error}")
    except OutputRefused as error:
        return fail(str(error))
    except Exception as error:  # sqlite3.Error, OSError: a path that cannot be written
        return fail(f"{target}: cannot write: {error}")
    files = walk(args.files)
    with_errors = False
    try:
        with progress_bar(files.names, "exporting") as advance:
            for scanned in files.scans():
                for header in scanned.headers:
                    game = scanned.game(header)
                    analysed = analyse(game)
                    with_errors |= analysed.errors > 0
                    digest = game_digest(game, scanned.text[header.start : header.end])
                    writer.add(game_rows(analysed, scanned.name, digest))
                    advance(header.end - header.start)
    except BaseException:
        writer.abort()
        raise
    try:
        writer.close()
    except (OSError, OutputRefused) as error:
        return fail(f"{target}: cannot write: {getattr(error, 'strerror', None) or error}")
    console(stderr=True).print(
        f"{target}: {writer.added} game{'s' if writer.added != 1 else ''} added"
        + (f", {writer.skipped} already there" if writer.skipped else ""), markup=False)
    if files.unreadable:
        return 2
    return 1 if with_errors else 0
