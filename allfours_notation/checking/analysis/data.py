"""Analyses as data: JSON, a digest of what an analysis depends on, and the cache.

The cache is one SQLite file, ``analysis.sqlite``, in ``$ALLFOURS_CACHE_DIR`` if set,
else ``$XDG_CACHE_HOME/allfours-notation``, else ``~/.cache/allfours-notation``.  Each
row is one deal's analysis keyed by the digest of the deal (the hands, the trump, the
dealer, the cards played, the points scored for turn-ups and gifts), every rule option
and the version of the solver; the same deal under the same rules is never solved
twice.  A deal not solved within its time limit is kept with that limit and tried again
under a longer one.  Nothing else is written there; deleting the file loses nothing but
time.
"""

from __future__ import annotations

import hashlib
import json
import os
import sqlite3
from collections.abc import Mapping
from dataclasses import fields
from pathlib import Path
from typing import Any

from ...cards import Card, Seat, card
from ...reading.records import ClaimItem
from ...referee.scoring import Point
from .deals import PlayedDeal
from .report import CardVerdict, DealAnalysis

__all__ = ["SOLVER_VERSION", "AnalysisCache", "cache_dir", "deal_digest", "from_json",
           "to_json"]

SOLVER_VERSION = "1"
CACHE_FILE = "analysis.sqlite"
_SEATS = {seat.letter: seat for seat in Seat}


def deal_digest(played: PlayedDeal) -> str:
    """What the analysis of ``played`` depends on, as a SHA-256 digest."""
    result = played.result
    parts: list[str] = [f"solver {SOLVER_VERSION}", f"deal {played.number}"]
    layout = played.layout
    if layout is not None:
        options = layout.options
        parts.append(" ".join(f"{f.name}={options.describe(f.name)}" for f in fields(options)))
        parts.append(f"{''.join(s.letter for s in layout.seats)} {layout.dealer.letter} "
                     f"{layout.elder.letter} {layout.trump.value} {layout.turnup_jack}")
        parts.extend(f"{seat.letter}:{' '.join(str(c) for c in held)}"
                     for seat, held in layout.hands)
    else:
        parts.append(played.why_not or "")
    parts.append(" ".join(f"{seat.letter}:{c}" for seat, c in played.line))
    parts.extend(f"{p.side} {p.item.value} {p.points}" for p in (*result.points,
                                                                  *result.unscored)
                 if p.item in (ClaimItem.KICK, ClaimItem.GIFT))
    return hashlib.sha256("\n".join(parts).encode()).hexdigest()


def _play(seat: Seat, c: Card) -> str:
    return f"{seat.letter}:{c}"


def _unplay(text: str) -> tuple[Seat, Card]:
    letter, name = text.split(":", 1)
    return _SEATS[letter], card(name)


def _point(point: Point) -> dict[str, Any]:
    return {"side": point.side, "seat": point.seat.letter if point.seat else None,
            "item": point.item.value, "points": point.points, "reason": point.reason}


def _unpoint(data: Mapping[str, Any]) -> Point:
    return Point(data["side"], _SEATS[data["seat"]] if data["seat"] else None,
                 ClaimItem(data["item"]), data["points"], data["reason"])


def to_json(analysis: DealAnalysis, time_limit: float | None = None) -> dict[str, Any]:
    """``analysis`` as JSON data (what ``allfours analyse --json`` prints per deal)."""
    return {
        "deal": analysis.number,
        "label": analysis.label,
        "solved": analysis.solved,
        "note": analysis.note,
        "sides": list(analysis.sides),
        "par": dict(analysis.par),
        "par_value": analysis.par_value,
        "actual": dict(analysis.actual),
        "fixed": [_point(p) for p in analysis.fixed],
        "recorded": [_point(p) for p in analysis.recorded],
        "best_line": [_play(s, c) for s, c in analysis.best_line],
        "checked": analysis.checked,
        "seconds": round(analysis.seconds, 4),
        "nodes": analysis.nodes,
        "time_limit": time_limit,
        "cards": [{
            "index": v.index,
            "trick": v.trick,
            "seat": v.seat.letter,
            "card": str(v.card),
            "legal": v.legal,
            "before": v.before,
            "after": v.after,
            "loss": v.loss,
            "points_lost": v.points_lost,
            "glyph": v.glyph,
            "better": str(v.better) if v.better is not None else None,
            "better_after": v.better_after,
            "reason": v.reason,
        } for v in analysis.cards],
    }


def from_json(data: Mapping[str, Any]) -> DealAnalysis:
    sides = tuple(data["sides"])
    return DealAnalysis(
        data["deal"], data["solved"], data["note"], sides, len(sides) != 3,
        tuple(data["par"].items()), data["par_value"], tuple(data["actual"].items()),
        tuple(_unpoint(p) for p in data["fixed"]), tuple(_unpoint(p) for p in data["recorded"]),
        tuple(CardVerdict(v["index"], v["trick"], _SEATS[v["seat"]], card(v["card"]), v["legal"],
                          v["before"], v["after"], v["loss"], v["points_lost"],
                          card(v["better"]) if v["better"] else None, v["better_after"],
                          v["reason"]) for v in data["cards"]),
        tuple(_unplay(p) for p in data["best_line"]), data["checked"], data["seconds"],
        data["nodes"])


def cache_dir() -> Path:
    chosen = os.environ.get("ALLFOURS_CACHE_DIR")
    if chosen:
        return Path(chosen)
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "allfours-notation"


class AnalysisCache:
    """Deal analyses by digest in one SQLite file; a cache that cannot be opened or
    written is no cache (every deal is solved), never an error."""

    def __init__(self, path: Path | None = None) -> None:
        self.path = path or cache_dir() / CACHE_FILE
        self._db: sqlite3.Connection | None = None
        self._failed = False

    def _open(self, create: bool) -> sqlite3.Connection | None:
        if self._db is not None or self._failed:
            return self._db
        if not create and not self.path.exists():
            return None
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            db = sqlite3.connect(self.path, timeout=10)
            db.execute("CREATE TABLE IF NOT EXISTS analyses "
                       "(digest TEXT PRIMARY KEY, data TEXT NOT NULL)")
            self._db = db
        except (OSError, sqlite3.Error):
            self._failed = True
        return self._db

    def get(self, digest: str, time_limit: float | None) -> DealAnalysis | None:
        """The stored analysis, if complete, or tried with a time limit at least as long."""
        db = self._open(create=False)
        if db is None:
            return None
        try:
            row = db.execute("SELECT data FROM analyses WHERE digest = ?", (digest,)).fetchone()
        except sqlite3.Error:
            return None
        if row is None:
            return None
        try:
            data = json.loads(row[0])
            stored = from_json(data)
        except (ValueError, KeyError, TypeError):
            return None
        complete = (stored.solved and stored.checked) or \
            (not stored.solved and stored.note and not stored.sides)
        limit = data.get("time_limit")
        if complete or (limit is None) or (time_limit is not None and limit >= time_limit):
            return stored
        return None

    def put(self, digest: str, analysis: DealAnalysis, time_limit: float | None) -> None:
        db = self._open(create=True)
        if db is None:
            return
        try:
            with db:
                db.execute("INSERT OR REPLACE INTO analyses VALUES (?, ?)",
                           (digest, json.dumps(to_json(analysis, time_limit))))
        except sqlite3.Error:
            self._failed = True

    def close(self) -> None:
        if self._db is not None:
            self._db.close()
            self._db = None
