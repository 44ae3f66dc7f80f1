"""The facts of each game file, kept by the file's digest, so that an event read again
refereees only the files that changed.

A file's key (:func:`.games.file_key`) is the SHA-256 of its bytes, the rules it is
refereed under, the package's version and the facts' own version (raised when they change
shape): a changed file, other rules or another release is read afresh.  The facts are kept
as JSON in one SQLite file
beside the analysis cache (``ALLFOURS_CACHE_DIR``, else ``$XDG_CACHE_HOME/allfours-notation``);
nothing read from it is run.  A cache that cannot be opened or written is no cache (every
file is read), never an error; a row that does not read back is read afresh.
"""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path
from typing import Any

from ..diagnostics import Diagnostic, Severity
from .games import DealFacts, HangJack, PlayedGame

CACHE_FILE = "events.sqlite"
PENDING = 64  # files' facts written in one transaction


def cache_path() -> Path:
    from ..checking.analysis.data import cache_dir

    return cache_dir() / CACHE_FILE


class FactsCache:
    """Game facts by file key in one SQLite file.

    The facts put are written :data:`PENDING` files at a time, in one transaction, and
    the rest at :meth:`flush` (which :func:`.games.read_folder` calls when done) or
    :meth:`close`: a commit of its own for each file cost more CPU than the file's facts
    as JSON (1.2 ms a commit, the site of 200 files 0.24 s, issue 38)."""

    def __init__(self, path: Path | None = None) -> None:
        self.path = path or cache_path()
        self._db: sqlite3.Connection | None = None
        self._failed = False
        self._pending: dict[str, str] = {}  # facts put and not yet written, as JSON
        self.hits = self.misses = 0  # files found in the cache, and not, since made

    def _open(self) -> sqlite3.Connection | None:
        if self._db is None and not self._failed:
            try:
                self.path.parent.mkdir(parents=True, exist_ok=True)
                db = sqlite3.connect(self.path, timeout=10)
                db.execute("CREATE TABLE IF NOT EXISTS facts (key TEXT PRIMARY KEY, "
                           "games TEXT NOT NULL)")
                self._db = db
            except (OSError, sqlite3.Error):
                self._failed = True
        return self._db

    def get(self, key: str, name: str) -> list[PlayedGame] | None:
        """The facts kept under ``key``, each named ``name`` (the file as found now)."""
        db = self._open()
        found = None
        if db is not None:
            try:
                kept = self._pending.get(key)
                if kept is None:
                    row = db.execute("SELECT games FROM facts WHERE key = ?",
                                     (key,)).fetchone()
                    kept = row[0] if row is not None else None
                if kept is not None:
                    found = [game_from_json(g, name) for g in json.loads(kept)]
            except (sqlite3.Error, ValueError, KeyError, TypeError, IndexError):
                found = None
        self.hits += found is not None
        self.misses += found is None
        return found

    def put(self, key: str, games: list[PlayedGame]) -> None:
        if self._open() is None:
            return
        self._pending[key] = json.dumps([game_to_json(g) for g in games])
        if len(self._pending) >= PENDING:
            self.flush()

    def flush(self) -> None:
        """The facts put so far written, in one transaction."""
        db = self._open()
        pending, self._pending = self._pending, {}
        if db is None or not pending:
            return
        try:
            with db:
                db.executemany("INSERT OR REPLACE INTO facts VALUES (?, ?)", pending.items())
        except sqlite3.Error:
            self._failed = True

    def close(self) -> None:
        self.flush()
        if self._db is not None:
            self._db.close()
            self._db = None


# --- the facts as JSON and back -------------------------------------------------------------


def game_to_json(game: PlayedGame) -> dict[str, Any]:
    return {"index": game.index, "line": game.line, "place": game.place,
            "rules_tag": game.rules_tag, "seats": game.seats, "winner": game.winner,
            "scores": game.scores, "disputes": game.disputes, "refereed": game.refereed,
            "digest": game.digest,
            "errors": [[d.code, d.severity.value, d.message, d.line, d.column, d.end_column,
                        d.game, d.deal, d.trick, d.hint, d.id, d.cause, d.fix]
                       for d in game.errors],
            "deals": [[d.number, d.line, [[h.side, h.seat, h.suit, h.card] for h in d.hang_jacks],
                       d.turnups, d.dealer_side, d.game_count, d.ruling, d.reneges,
                       d.by_results, d.counted, d.time] for d in game.deals]}


def game_from_json(data: dict[str, Any], name: str) -> PlayedGame:
    def pairs(value: Any) -> tuple[tuple[str, Any], ...]:
        return tuple((str(a), b) for a, b in value)

    errors = tuple(Diagnostic(code, Severity(severity), message, name, line, column, end,
                              game, deal, trick, hint, number, cause, fix)
                   for code, severity, message, line, column, end, game, deal, trick, hint,
                   number, cause, fix in data["errors"])
    deals = tuple(DealFacts(
        number=number, line=line,
        hang_jacks=tuple(HangJack(side, seat, suit, card) for side, seat, suit, card in hangs),
        turnups=tuple(turnups), dealer_side=dealer_side,
        game_count=(str(count[0]), int(count[1])) if count is not None else None,
        ruling=bool(ruling), reneges=tuple(reneges), by_results=bool(by_results),
        counted=bool(counted), time=None if time is None else str(time))
        for number, line, hangs, turnups, dealer_side, count, ruling, reneges, by_results,
        counted, time in data["deals"])
    return PlayedGame(
        file=name, index=int(data["index"]), line=int(data["line"]),
        place=pairs(data["place"]), rules_tag=data["rules_tag"], seats=pairs(data["seats"]),
        winner=data["winner"], scores=pairs(data["scores"]), deals=deals, errors=errors,
        disputes=int(data["disputes"]), refereed=bool(data["refereed"]),
        digest=str(data["digest"]))
