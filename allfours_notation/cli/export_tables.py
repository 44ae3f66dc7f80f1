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
    report = None
    if args.event:
        report = event_report(args.event, args.files)
        if isinstance(report, int):
            return report
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
    with_errors = 0  # games added with errors (their errors are in the tables too)
    try:
        with progress_bar(files.names, "exporting") as advance:
            for scanned in files.scans():
                with files.each(scanned, passing=(OutputRefused, SchemaError)):
                    for header in scanned.headers:
                        game = scanned.game(header)
                        analysed = analyse(game)
                        digest = game_digest(game, scanned.text[header.start : header.end])
                        before = writer.added
                        writer.add(game_rows(analysed, scanned.name, digest))
                        with_errors += analysed.errors > 0 and writer.added > before
                        advance(header.end - header.start)
    except BaseException:
        writer.abort()
        raise
    if files.unreadable and not files.read:  # nothing to add: no empty tables written
        writer.abort()
        return 2
    try:
        writer.close()
    except (OSError, OutputRefused) as error:
        return fail(f"{target}: cannot write: {getattr(error, 'strerror', None) or error}")
    console(stderr=True).print(added_line(target, writer.added, with_errors, writer.skipped),
                               markup=False)
    if report is not None:
        status = _add_event(report, args)
        if status:
            return status
    if files.unreadable:
        return 2
    return 1 if with_errors or files.faulty else 0


def added_line(target: str, added: int, with_errors: int, skipped: int) -> str:
    """``games.db: 24 games added, 2 of them with errors, 3 already there``: what exit
    status 1 means here (every game added, some with errors) said in words."""
    text = f"{target}: {added} game{'s' if added != 1 else ''} added"
    if with_errors:
        text += (", it with errors" if added == 1 else
                 f", {with_errors} of them with errors" if with_errors < added else
                 ", all with errors")
        text += " (see 'allfours check')"
    if skipped:
        text += f", {skipped} already there"
    return text


def event_report(event_file: str, files: list[str]) -> object:
    """The event's report (``allfours event``'s), its games read from the one folder
    given, else the event's own; or the exit status when the event file has mistakes."""
    from pathlib import Path

    from ..events.cache import FactsCache
    from ..events.eventfile import read_event_file
    from ..events.games import read_folder
    from ..events.report import build_report
    from .event import _print_diagnostics, games_folder

    loaded = read_event_file(event_file)
    _print_diagnostics(loaded.diagnostics, {event_file: loaded.text}, to_stderr=True)
    if loaded.has_errors or loaded.event is None:
        return fail(f"{event_file}: the event file has mistakes; nothing exported")
    given = files[0] if len(files) == 1 and Path(files[0]).is_dir() else None
    folder = games_folder(Path(event_file), given)
    if not folder.is_dir():
        return fail(f"{folder}: not a folder of games")
    cache = FactsCache()
    try:
        read = read_folder(folder, loaded.event.given_rules, cache=cache)
    finally:
        cache.close()
    return build_report(loaded.event, read)


def _add_event(report: object, args: argparse.Namespace) -> int:
    """The event's tables beside the games' (0, or the exit status of a failure)."""
    from ..events.export import TABLES, add_to_database, write_csv
    from ..events.report import EventReport
    from ..safe_write import OutputRefused

    assert isinstance(report, EventReport)
    target = args.sqlite or args.csv
    try:
        if args.sqlite:
            add_to_database(report, args.sqlite)
        else:
            write_csv(report, args.csv, force=args.force)
    except (OSError, OutputRefused) as error:
        return fail(f"{target}: cannot write: {getattr(error, 'strerror', None) or error}")
    except Exception as error:  # sqlite3.Error
        return fail(f"{target}: cannot add the event's tables: {error}")
    console(stderr=True).print(f"{target}: the event's {len(TABLES)} tables written",
                               markup=False)
    return 0
