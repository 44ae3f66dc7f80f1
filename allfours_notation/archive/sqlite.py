"""Games into an SQLite database (stdlib :mod:`sqlite3`), one game at a time.

The database keeps a digest of each game's records (``games.digest``, unique),
so exporting the same games again adds nothing, and exporting a season's new
files into last month's database adds only the new games.  Rows are written as
each game is read and committed in batches, so memory does not grow with the
archive.
"""

from __future__ import annotations

import os
import sqlite3
from pathlib import Path

from ..safe_write import OutputFolder, Staged, resolved
from .tables import SCHEMA_VERSION, TABLES, GameRows, columns

BATCH = 500  # games per transaction


def schema_sql() -> str:
    """The ``CREATE TABLE`` statements of the export (also in docs/archive-schema.md)."""
    statements = []
    for table, (cols, key) in TABLES.items():
        body = [f'"{name}" {kind}' for name, kind in cols]
        body.append(f"PRIMARY KEY ({', '.join(key)})")
        if table != "games":
            body.append("FOREIGN KEY (game_id) REFERENCES games (game_id)")
        statements.append(f"CREATE TABLE IF NOT EXISTS {table} (\n  " + ",\n  ".join(body)
                          + "\n);")
    statements.append("CREATE TABLE IF NOT EXISTS afn_export (key TEXT PRIMARY KEY, "
                      "value TEXT);")
    return "\n".join(statements)


class SchemaError(Exception):
    """The database exists but was not written by this exporter (or by another version)."""


class SqliteWriter:
    """Adds games to a database; a game already there (same digest) is skipped.

    A new database is built in a temporary file beside it and switched in whole at
    :meth:`close` (:mod:`allfours_notation.safe_write`), so an interrupted export
    leaves no half database; an existing one (a symbolic link's target) is added to
    in SQLite's own transactions, each whole or not at all."""

    def __init__(self, path: str | Path) -> None:
        target = resolved(path)
        self._folder: OutputFolder | None = None
        self._staged: Staged | None = None
        where = str(target)
        if not os.path.lexists(target):
            self._folder = OutputFolder(target.parent)
            self._staged = self._folder.staged(target.name)
            where = str(self._staged.temp_path)
        try:
            self.connection = sqlite3.connect(where)
            self._setup()
        except BaseException:
            self.abort()
            raise

    def _setup(self) -> None:
        self.added = 0
        self.skipped = 0
        self._pending = 0
        self._prepare()
        self._inserts = {
            table: f"INSERT INTO {table} VALUES ({', '.join('?' * len(columns(table)))})"
            for table in TABLES if table != "games"
        }
        self._insert_game = (f"INSERT INTO games VALUES "
                             f"(NULL, {', '.join('?' * (len(columns('games')) - 1))})")

    def _prepare(self) -> None:
        db = self.connection
        known = {row[0] for row in db.execute("SELECT name FROM sqlite_master WHERE type='table'")}
        if known and "afn_export" not in known:
            raise SchemaError("the database already holds tables that this exporter did not "
                              "write; choose a new file")
        if "afn_export" in known:
            row = db.execute("SELECT value FROM afn_export WHERE key='schema_version'").fetchone()
            if row is None or row[0] != str(SCHEMA_VERSION):
                raise SchemaError(f"the database has schema version {row[0] if row else '?'}, "
                                  f"this exporter writes version {SCHEMA_VERSION}")
            return
        db.executescript(schema_sql())
        db.execute("INSERT INTO afn_export VALUES ('schema_version', ?)", (str(SCHEMA_VERSION),))
        db.commit()

    def add(self, game: GameRows) -> bool:
        """Insert one game's rows unless its digest is already there; True if added."""
        db = self.connection
        if db.execute("SELECT 1 FROM games WHERE digest = ?", (game.digest,)).fetchone():
            self.skipped += 1
            return False
        (row,) = game.rows["games"]
        game_id = db.execute(self._insert_game, row).lastrowid
        for table, insert in self._inserts.items():
            rows = game.rows[table]
            if rows:
                db.executemany(insert, [(game_id, *row) for row in rows])
        self.added += 1
        self._pending += 1
        if self._pending >= BATCH:
            db.commit()
            self._pending = 0
        return True

    def close(self) -> None:
        try:
            self.connection.commit()
            self.connection.close()
            if self._staged is not None:
                self._staged.commit()
        except BaseException:
            self.abort()
            raise
        finally:
            if self._folder is not None:
                self._folder.close()

    def abort(self) -> None:
        """Stop: a new database is thrown away; an existing one keeps its last commit."""
        if hasattr(self, "connection"):
            self.connection.close()
        if self._staged is not None:
            self._staged.abort()
            self._staged = None
        if self._folder is not None:
            self._folder.close()
