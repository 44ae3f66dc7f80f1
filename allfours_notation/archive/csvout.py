"""Games into CSV files, one per table (``games.csv``, ``plays.csv`` …), streamed.

The columns and keys are those of the SQLite export (:mod:`.tables`); here
``game_id`` numbers the games of this export from 1.  A game whose records
were already written in the same export (same digest) is written once.
"""

from __future__ import annotations

import csv
from pathlib import Path
from typing import IO, Any

from .tables import TABLES, GameRows, columns


class CsvWriter:
    """Writes every table's file under ``folder`` (created if needed; files replaced)."""

    def __init__(self, folder: str | Path) -> None:
        self.folder = Path(folder)
        self.folder.mkdir(parents=True, exist_ok=True)
        self._files: dict[str, IO[str]] = {}
        self._writers: dict[str, Any] = {}
        for table in TABLES:
            handle = open(  # noqa: SIM115 (closed in close(), files live as long as the writer)
                self.folder / f"{table}.csv", "w", encoding="utf-8", newline="")
            self._files[table] = handle
            writer = csv.writer(handle)
            writer.writerow(columns(table))
            self._writers[table] = writer
        self._seen: set[str] = set()
        self.added = 0
        self.skipped = 0

    def add(self, game: GameRows) -> bool:
        if game.digest in self._seen:
            self.skipped += 1
            return False
        self._seen.add(game.digest)
        self.added += 1
        game_id = self.added
        for table, rows in game.rows.items():
            self._writers[table].writerows((game_id, *row) for row in rows)
        return True

    def close(self) -> None:
        for handle in self._files.values():
            handle.close()
