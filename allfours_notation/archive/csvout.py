"""Games into CSV files, one per table (``games.csv``, ``plays.csv`` …), streamed.

The columns and keys are those of the SQLite export (:mod:`.tables`); here
``game_id`` numbers the games of this export from 1.  A game whose records
were already written in the same export (same digest) is written once.

The files are written through :mod:`allfours_notation.safe_write`: each into a
temporary file in the folder, switched in whole when the export ends (an export that
fails or is interrupted before its end leaves the folder as it was); an existing file, or a symbolic
link in the folder, is refused unless ``force`` (a link never followed).  A text
cell that a spreadsheet would take for a formula gets a leading ``'``
(:func:`~allfours_notation.visible.spreadsheet_cell`).
"""

from __future__ import annotations

import csv
from pathlib import Path
from typing import Any

from ..safe_write import REAL, FileSystem, OutputFolder, Staged
from ..visible import spreadsheet_cell
from .tables import TABLES, GameRows, columns


class TextSink:
    """A text stream over a staged file (UTF-8, no newline translation), buffered."""

    def __init__(self, staged: Staged, limit: int = 1 << 16) -> None:
        self.staged = staged
        self.parts: list[str] = []
        self.size = 0
        self.limit = limit

    def write(self, text: str) -> int:
        self.parts.append(text)
        self.size += len(text)
        if self.size >= self.limit:
            self.flush()
        return len(text)

    def flush(self) -> None:
        if self.parts:
            data = "".join(self.parts).encode("utf-8", "surrogateescape")
            self.parts, self.size = [], 0
            self.staged.write(data)


def safe_row(row: Any) -> list[object]:
    return [spreadsheet_cell(value) for value in row]


class CsvWriter:
    """Writes every table's file under ``folder`` (created if needed)."""

    def __init__(self, folder: str | Path, *, force: bool = False,
                 fs: FileSystem = REAL) -> None:
        self.folder = OutputFolder(folder, force=force, fs=fs)
        names = [f"{table}.csv" for table in TABLES]
        self._staged: dict[str, Staged] = {}
        self._sinks: dict[str, TextSink] = {}
        self._writers: dict[str, Any] = {}
        try:
            self.folder.refuse_existing(names)
            for table, name in zip(TABLES, names, strict=True):
                staged = self._staged[table] = self.folder.staged(name)
                sink = self._sinks[table] = TextSink(staged)
                writer = csv.writer(sink)
                writer.writerow(columns(table))
                self._writers[table] = writer
        except BaseException:
            self.abort()
            raise
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
            self._writers[table].writerows(safe_row((game_id, *row)) for row in rows)
        return True

    def close(self) -> None:
        """Every file switched in, each whole (a failure leaves no file half-written)."""
        try:
            for sink in self._sinks.values():
                sink.flush()
            for staged in self._staged.values():
                staged.commit()
        except BaseException:
            self.abort()
            raise
        finally:
            self.folder.close()

    def abort(self) -> None:
        for staged in self._staged.values():
            staged.abort()
        self.folder.close()
