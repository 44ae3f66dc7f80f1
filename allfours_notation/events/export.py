"""The event as tables: ``allfours event export EVENT.toml --sqlite DB`` or ``--csv DIR``.

Beside the archive's tables of games (``allfours export --sqlite``), an event has its own:
the event, its teams and players, its matches, their tables and each game's place and count.
Every game row carries the game's ``digest``, the same as the archive's ``games.digest``
(:func:`..archive.identity.game_digest`), so the two databases join on it (``ATTACH``).
The tables are documented in ``docs/events.md``; a test holds the two together.  A database
is made whole in memory and written at once; CSV files are each written whole.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Iterator
from pathlib import Path

from ..safe_write import OutputFolder
from ..visible import CsvRows, spreadsheet_cell
from .report import EventReport

EXPORT_VERSION = 1

# table → its columns (name, SQL type), the key first
TABLES: dict[str, tuple[tuple[str, str], ...]] = {
    "event": (("key", "TEXT PRIMARY KEY"), ("value", "TEXT")),
    "teams": (("team", "TEXT PRIMARY KEY"), ("division", "TEXT")),
    "team_players": (("team", "TEXT"), ("player", "TEXT"), ("substitute", "INTEGER")),
    "matches": (("match_id", "INTEGER PRIMARY KEY"), ("round", "TEXT"), ("home", "TEXT"),
                ("away", "TEXT"), ("name", "TEXT"), ("home_bullseyes", "INTEGER"),
                ("away_bullseyes", "INTEGER"), ("home_hang_jacks", "INTEGER"),
                ("away_hang_jacks", "INTEGER"), ("winner", "TEXT"), ("finished", "INTEGER"),
                ("race_ended_at", "TEXT"), ("not_reported", "TEXT")),
    "match_tables": (("match_id", "INTEGER"), ("table_no", "INTEGER"), ("files", "TEXT"),
                     ("home_bullseyes", "INTEGER"), ("away_bullseyes", "INTEGER")),
    "event_games": (("match_id", "INTEGER"), ("table_no", "INTEGER"), ("position", "INTEGER"),
                    ("digest", "TEXT"), ("file", "TEXT"), ("game_index", "INTEGER"),
                    ("home_side", "TEXT"), ("winner", "TEXT"), ("home_bullseyes", "INTEGER"),
                    ("away_bullseyes", "INTEGER"), ("home_hang_jacks", "INTEGER"),
                    ("away_hang_jacks", "INTEGER"), ("counts", "INTEGER"),
                    ("not_counted", "TEXT"), ("forfeit", "TEXT")),
    "standings": (("ranking", "TEXT"), ("place", "INTEGER"), ("team", "TEXT"),
                  ("played", "INTEGER"), ("wins", "INTEGER"), ("draws", "INTEGER"),
                  ("losses", "INTEGER"), ("byes", "INTEGER"), ("bullseyes_for", "INTEGER"),
                  ("bullseyes_against", "INTEGER"), ("hang_jacks", "INTEGER"),
                  ("hang_jacks_against", "INTEGER"), ("decided_by", "TEXT")),
}


def rows(report: EventReport) -> Iterator[tuple[str, tuple[object, ...]]]:
    """Every row of every table, as (table, row)."""
    event = report.event
    for key, value in (("format_version", EXPORT_VERSION), ("name", event.name),
                       ("venue", event.venue), ("dates", ", ".join(event.dates)),
                       ("rules", event.house.name if event.house else event.rules),
                       ("match_rule", event.match_rule), ("target", event.target),
                       ("games", event.games), ("game_value", event.game_value),
                       ("hang_jack_value", event.hang_jack_value),
                       ("tiebreaks", ", ".join(event.tiebreaks))):
        yield "event", (key, None if value is None else str(value))
    for team in event.teams:
        yield "teams", (team.name, team.division)
        for player in team.players:
            yield "team_players", (team.name, player, 0)
        for player in team.substitutes:
            yield "team_players", (team.name, player, 1)
    for match_id, match in enumerate(report.assembled.matches, 1):
        yield "matches", (match_id, match.round, match.home, match.away, match.name,
                          match.home_points, match.away_points, match.home_hang_jacks,
                          match.away_hang_jacks, match.winner, int(match.finished),
                          match.ended_at, ", ".join(map(str, match.missing)) or None)
        for table in match.tables:
            yield "match_tables", (match_id, table.number, ", ".join(table.files),
                                   table.total(True), table.total(False))
            for position, game in enumerate(table.games, 1):
                winner = None if game.winner_home is None else (
                    "home" if game.winner_home else "away")
                yield "event_games", (
                    match_id, table.number, position, game.game.digest, game.game.file,
                    game.game.index, game.home_side, winner, game.home_points,
                    game.away_points, game.home_hang_jacks, game.away_hang_jacks,
                    int(game.counts), game.why_not, game.forfeit)
    for ranking in report.standings:
        for place, row in enumerate(ranking.rows, 1):
            yield "standings", (ranking.title, place, row.team, row.played, row.wins,
                                row.draws, row.losses, row.byes, row.bullseyes_for,
                                row.bullseyes_against, row.hang_jacks,
                                row.hang_jacks_against, row.decided_by)


def schema_sql() -> str:
    return "\n".join(f"CREATE TABLE {table} (" + ", ".join(f'"{name}" {kind}'
                                                            for name, kind in columns) + ");"
                     for table, columns in TABLES.items())


def sqlite_bytes(report: EventReport) -> bytes:
    """The whole database, made in memory."""
    connection = sqlite3.connect(":memory:")
    try:
        connection.executescript(schema_sql())
        for table, row in rows(report):
            marks = ", ".join("?" * len(row))
            connection.execute(f"INSERT INTO {table} VALUES ({marks})", row)
        connection.commit()
        return connection.serialize()
    finally:
        connection.close()


def write_sqlite(report: EventReport, path: str | Path) -> None:
    """The database written whole at ``path`` (replacing one there)."""
    from ..safe_write import stage

    data = sqlite_bytes(report)
    with stage(path) as stream:
        stream.write(data)


def add_to_database(report: EventReport, path: str | Path) -> None:
    """The event's tables put into the SQLite database at ``path`` (the archive that
    ``allfours export --sqlite`` writes), replacing the event tables already there, in one
    transaction: the database has the old ones or the new ones, never a part."""
    connection = sqlite3.connect(str(path), isolation_level=None)
    try:
        connection.execute("BEGIN IMMEDIATE")
        try:
            for table in TABLES:
                connection.execute(f"DROP TABLE IF EXISTS {table}")
            for statement in schema_sql().splitlines():
                connection.execute(statement)
            for table, row in rows(report):
                marks = ", ".join("?" * len(row))
                connection.execute(f"INSERT INTO {table} VALUES ({marks})", row)
        except BaseException:
            connection.execute("ROLLBACK")
            raise
        connection.execute("COMMIT")
    finally:
        connection.close()


def write_csv(report: EventReport, folder: str | Path, *, force: bool = True) -> list[str]:
    """One CSV file a table in ``folder`` (each written whole); the names written.
    ``force``: replace an ``event_*.csv`` already there (else it is refused)."""
    import io

    tables: dict[str, list[tuple[object, ...]]] = {table: [] for table in TABLES}
    for table, row in rows(report):
        tables[table].append(row)
    names = []
    with OutputFolder(folder, force=force) as out:
        for table, found in tables.items():
            text = io.StringIO()
            writer = CsvRows(text)
            writer.writerow(name for name, _ in TABLES[table])
            writer.writerows([spreadsheet_cell(cell) for cell in row] for row in found)
            out.write(f"event_{table}.csv", text.getvalue().encode("utf-8"))
            names.append(f"event_{table}.csv")
    return names
