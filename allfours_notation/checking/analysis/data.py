"""Analyses as data: JSON, a digest of what an analysis depends on, and the cache.

The cache is one SQLite file, ``analysis.sqlite``, in ``$ALLFOURS_CACHE_DIR`` if set,
else ``$XDG_CACHE_HOME/allfours-notation``, else ``~/.cache/allfours-notation``.  Each
row is one deal's analysis keyed by the digest of the deal (the hands, the trump, the
dealer, the cards played, the points scored for turn-ups and gifts), every rule option
and the version of the solver; the same deal under the same rules is never solved
twice.  Only a finished analysis is kept (solved and every card judged, or a deal that
cannot be analysed at all): a deal not solved within its time limit is not, so that a
limit missed once on a busy machine is tried again on the next run.  Nothing else is
written there; deleting the file loses nothing but time.

A cache is never an error, and never a way in: a row that is not of the shape
:func:`~.rows.valid_row` checks is ignored (the deal solved again, its row replaced);
the file is used only in a folder of this user's own that nobody else may write, as a
regular file of one link that this user owns, never through a symbolic link, and only
if it holds nothing but the analyses (a user's exported archive put there is left
alone).  When the cache is not used, one line says why, once; a file that is not a
database at all (torn, or overwritten) is set aside for a new one, which is said too.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import sqlite3
import stat
from collections.abc import Callable, Mapping
from dataclasses import fields
from pathlib import Path
from typing import Any

from ...cards import Card, Seat, card
from ...reading.records import ClaimItem
from ...referee.scoring import Point
from ...safe_write import say_on_stderr
from ...visible import visible
from .deals import PlayedDeal
from .report import CardVerdict, DealAnalysis
from .rows import valid_row

__all__ = ["SOLVER_VERSION", "AnalysisCache", "cache_dir", "deal_digest", "from_json",
           "read_row", "to_json"]

SOLVER_VERSION = "2"  # 2: par and actual count High and Low; conceded deals judged
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
        "actual_items": [_point(p) for p in analysis.actual_items],
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
        data["nodes"], actual_items=tuple(_unpoint(p) for p in data["actual_items"]))


def read_row(text: object) -> tuple[DealAnalysis, dict[str, Any]] | None:
    """The analysis a cache row holds, and its JSON data; None if the row is not one
    :func:`to_json` wrote (whatever it is: never an exception)."""
    try:
        data = json.loads(text) if isinstance(text, str) else None
        if not valid_row(data):
            return None
        return from_json(data), data
    except (ValueError, KeyError, TypeError, RecursionError):
        return None


def cache_dir() -> Path:
    chosen = os.environ.get("ALLFOURS_CACHE_DIR")
    if chosen:
        return Path(chosen)
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "allfours-notation"


_O_NOFOLLOW = getattr(os, "O_NOFOLLOW", 0)
_O_CLOEXEC = getattr(os, "O_CLOEXEC", 0)


class _NotUsed(Exception):
    """Why the cache file is not used (said once)."""


class AnalysisCache:
    """Deal analyses by digest in one SQLite file; a cache that cannot be opened or
    written is no cache (every deal is solved), never an error.  ``notice`` hears,
    once, why a cache file is not used or was started afresh."""

    def __init__(self, path: Path | None = None, *,
                 notice: Callable[[str], None] | None = say_on_stderr) -> None:
        self.path = path or cache_dir() / CACHE_FILE
        self.notice = notice
        self._db: sqlite3.Connection | None = None
        self._failed = False

    def _say(self, message: str) -> None:
        if self.notice is not None:
            self.notice(visible(message))

    def _open(self, create: bool) -> sqlite3.Connection | None:
        if self._db is not None or self._failed:
            return self._db
        try:
            self._db = self._connect(create)
        except _NotUsed as why:
            self._failed = True
            self._say(f"the analysis cache {self.path} is not used: {why}; every deal is "
                      "solved afresh")
        except (OSError, sqlite3.Error):
            self._failed = True
        return self._db

    def _connect(self, create: bool) -> sqlite3.Connection | None:
        """The cache's database, if it is this user's own file (made if ``create``)."""
        folder = self.path.parent
        if create:
            folder.mkdir(mode=0o700, parents=True, exist_ok=True)
        try:
            before = os.lstat(self.path)
        except FileNotFoundError:
            if not create:
                return None
            _private_folder(folder)
            os.close(os.open(self.path, os.O_RDWR | os.O_CREAT | os.O_EXCL | _O_NOFOLLOW
                             | _O_CLOEXEC, 0o600))
            before = os.lstat(self.path)
        _private_folder(folder)
        _own_file(before)
        db = sqlite3.connect(self.path, timeout=10)
        try:
            if not _same_file(before, os.lstat(self.path)):  # swapped while it was opened
                raise _NotUsed("it changed while it was opened")
            tables = {row[0] for row in db.execute(
                "SELECT name FROM sqlite_master WHERE type = 'table'")}
        except sqlite3.DatabaseError as error:
            db.close()
            if isinstance(error, sqlite3.OperationalError):
                raise  # locked, or the like: no cache this time, nothing said
            return self._afresh(before)
        except BaseException:
            db.close()
            raise
        if tables - {"analyses"}:
            db.close()
            raise _NotUsed("it holds other tables than the analyses, so it is not a cache "
                           "this toolkit made; it is left as it is")
        db.execute("CREATE TABLE IF NOT EXISTS analyses "
                   "(digest TEXT PRIMARY KEY, data TEXT NOT NULL)")
        return db

    def _afresh(self, before: os.stat_result) -> sqlite3.Connection:
        """A new, empty cache in place of a file that is not a database (a torn or
        overwritten cache in this user's own folder): renamed over it, whole."""
        fresh = self.path.with_name(f".{self.path.name}.{os.getpid()}.new")
        with contextlib.suppress(FileNotFoundError):
            os.unlink(fresh)
        db = sqlite3.connect(fresh)
        try:
            db.execute("CREATE TABLE analyses (digest TEXT PRIMARY KEY, data TEXT NOT NULL)")
            db.commit()
            if not _same_file(before, os.lstat(self.path)):
                raise _NotUsed("it changed while it was opened")
            os.replace(fresh, self.path)
        except BaseException:
            db.close()
            with contextlib.suppress(OSError):
                os.unlink(fresh)
            raise
        db.close()
        self._say(f"the analysis cache {self.path} was not a database (torn or overwritten); "
                  "a new one is started")
        return sqlite3.connect(self.path, timeout=10)

    def get(self, digest: str) -> DealAnalysis | None:
        """The stored analysis, if it is a finished one (a time-out is never an answer)."""
        db = self._open(create=False)
        if db is None:
            return None
        try:
            row = db.execute("SELECT data FROM analyses WHERE digest = ?", (digest,)).fetchone()
        except sqlite3.Error:
            return None
        if row is None:
            return None
        read = read_row(row[0])
        if read is None:
            return None  # not a row of ours: solved again, and replaced
        stored, _ = read
        return stored if finished(stored) else None

    def put(self, digest: str, analysis: DealAnalysis, time_limit: float | None) -> None:
        """Keep ``analysis`` if it is finished; a time-out is not kept (see the module)."""
        if not finished(analysis):
            return
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


def finished(analysis: DealAnalysis) -> bool:
    """Whether ``analysis`` is the deal's answer whatever the time allowed: solved with
    every card judged, or a deal that cannot be analysed (no sides: nothing to solve)."""
    return (analysis.solved and analysis.checked) or (not analysis.solved and
                                                       not analysis.sides)


def _private_folder(folder: Path) -> None:
    """The cache's folder must be this user's, and nobody else's to write in (else
    another user could put a link or a file of theirs under the cache's name)."""
    if os.name == "nt":
        return
    info = os.stat(folder)
    if not stat.S_ISDIR(info.st_mode):
        raise _NotUsed(f"{folder} is not a folder")
    if info.st_uid != os.geteuid():
        raise _NotUsed(f"its folder {folder} belongs to another user")
    if info.st_mode & 0o022:
        raise _NotUsed(f"its folder {folder} may be written by other users")


def _own_file(info: os.stat_result) -> None:
    """The cache file itself: never followed through a link, never another's file."""
    if stat.S_ISLNK(info.st_mode):
        raise _NotUsed("it is a symbolic link, which is never followed")
    if not stat.S_ISREG(info.st_mode):
        raise _NotUsed("it is not a regular file")
    if os.name != "nt" and info.st_uid != os.geteuid():
        raise _NotUsed("it belongs to another user")
    if info.st_nlink != 1:
        raise _NotUsed("it has other names (hard links), so it may be another file")


def _same_file(before: os.stat_result, now: os.stat_result) -> bool:
    return (before.st_dev, before.st_ino, before.st_mode) == (now.st_dev, now.st_ino,
                                                              now.st_mode)
