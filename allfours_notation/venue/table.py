"""One table of the venue: its recording session, and the entries its phones sent.

A phone numbers its entries (a phone id and a counter).  The table applies an entry
once and in order: an id already applied answers with the state and applies nothing;
an id past the next one is refused with the id expected.  What each phone sent last
is kept in a small journal beside the game (``.NAME.serve.json``), written whole
(the project's safe writer) *before* the entry is applied, with the digest of the
game file as it was.  A server killed between the two writes finds, on restart, the
game file changed (the entry was applied: it counts) or not (it was not, or it was
refused: sent again it is judged again, the same way).  Who deals is the one entry the
game file does not record until the deal's first line: accepted, it is kept in the
journal too, with the digest of the file as it then stood, before the phone is told; a
server restarted on that same file, still asking who deals, takes it again, so the
table does not forget what the phone was told it took.  No rule here: every line
goes to :meth:`Session.type` or :meth:`Session.undo` (:mod:`.lines`: the venue's few
words, the mode switch and the next game among them).
"""

from __future__ import annotations

import hashlib
import json
import re
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..recording.entries import Entry, Phase
from ..recording.opening import NewGame, Refused, inspect
from ..recording.outcome import Outcome
from ..recording.session import Session
from ..recording.storage import FileLocked, RecordChanged, RecordFile
from ..referee.profiles import Profile
from ..referee.results import kick_values
from ..safe_write import replace_file
from .cards import card_view, serving_mode
from .games import MatchOver, MatchRule, game_ended, next_game_view
from .lines import apply_line

__all__ = ["Answer", "Table", "TableRefused", "open_table"]

RULING = "director"  # the word a director's ruling begins with, in the recorder too

# The longest line a phone may send: the longest claim of a deal fits many times over.
MAX_LINE = 200
# What a phone id may be: the page makes one from random bytes, URL-safe base64.
PHONE_ID = re.compile(r"[A-Za-z0-9_-]{8,64}")


class TableRefused(Exception):
    """The game file cannot be served (not valid AFN, no game header, locked)."""


@dataclass
class Answer:
    """What a phone is told after an entry: HTTP status, and the body as JSON."""

    status: int
    body: dict[str, Any]


@dataclass
class Table:
    """A game file served to the phones of one table."""

    name: str
    path: Path
    session: Session
    record: RecordFile
    sent: dict[str, int] = field(default_factory=dict)  # phone id → last entry applied
    last: dict[str, Any] | None = None  # the last entry's outcome, for every phone
    # when the table last had an entry accepted (seconds since the epoch): at the start,
    # when its file was last written
    last_at: float = field(default_factory=time.time)
    _disputes: tuple[tuple[Entry, ...], list[dict[str, Any]]] | None = None
    match: MatchRule = field(default_factory=MatchRule)  # the next game: .games
    # who deals, accepted and not in the game file yet, and the digest of the file it
    # stands on (see the module docstring)
    held: str | None = None
    held_on: str = ""

    @property
    def journal(self) -> Path:
        return self.path.with_name(f".{self.path.name}.serve.json")

    def state(self) -> dict[str, Any]:
        """The game as it stands, for the page: what it shows, nothing it must judge."""
        session = self.session
        expecting = session.expect()
        deals = session.game().deals
        text = session.text()
        # this game's last deal (not the game's before it, in the file's text before)
        start = text.rfind("\ndeal ", len(session.prefix.rstrip("\n")))
        return {
            "table": self.name,
            "players": {tag.name: tag.value for tag in session.tags
                        if tag.name in ("North", "East", "South", "West")},
            "seats": [seat.letter for seat in session.seats],
            "scores": [[side, points] for side, points in session.scores()],
            "deal": len(deals),
            "dealer": expecting.dealer.letter if expecting.dealer else
            (deals[-1].dealer.letter if deals and deals[-1].dealer else None),
            "phase": expecting.phase.value,
            "next": expecting.text,
            "kicks": list(kick_values(session.options)),
            "last_deal": text[start + 1:].removesuffix("end\n").rstrip()
            if start >= 0 else "",
            "sent": dict(self.sent),
            "last": self.last,
            "game": session.index,
            **card_view(session, expecting),
            "next_game": next_game_view(self, expecting.phase),
        }

    def enter(self, phone: str, number: int, line: str) -> Answer:
        """Entry ``number`` of ``phone``: applied once, in order; see the module docstring."""
        if not PHONE_ID.fullmatch(phone) or number < 1:
            return Answer(400, {"error": "a phone id and an entry number from 1 are needed"})
        if len(line) > MAX_LINE or any(ord(c) < 32 for c in line):
            return Answer(400, {"error": f"an entry is one line of at most {MAX_LINE} "
                                         "characters"})
        done = self.sent.get(phone, 0)
        if number <= done:
            return Answer(200, {"replayed": True, "state": self.state()})
        if number != done + 1:
            return Answer(409, {"error": f"entry {number} is out of order: entry "
                                         f"{done + 1} is expected next",
                                "expected": done + 1, "state": self.state()})
        choosing_dealer = self.session.expect().phase is Phase.DEALER
        self._write_journal(pending={"phone": phone, "number": number,
                                     "before": _digest(self.path)})
        try:
            outcome = apply_line(self, line)  # undo, the mode, the next game; or typed
        except (RecordChanged, OSError) as error:
            # the session keeps its entries when the write fails: nothing was applied,
            # and the phone keeps the entry to send again
            return Answer(503, {"error": f"the game file cannot be written ({error}): "
                                         "the entry waits on the phone; tell the director",
                                "state": self.state()})
        self.sent[phone] = number
        self.last = _outcome(line, outcome)
        if outcome.accepted:
            self.last_at = time.time()
            if choosing_dealer:
                self._hold(line)
        return Answer(200, {"replayed": False, "outcome": self.last, "state": self.state()})

    def _hold(self, line: str) -> None:
        """Who deals, ``line``, accepted: kept in the journal with the phones' entries
        before the phone is told (see the module docstring)."""
        self.held, self.held_on = line, _digest(self.path)
        self._write_journal(pending=None)

    def disputes(self) -> list[dict[str, Any]]:
        """The disputes of the game waiting for a ruling, as the referee finds them: the
        whole game checked, so kept until the table's entries change (the director's
        page asks every 4 s for every table; the entries are a new tuple at each change,
        as the session's own cache of the game takes them)."""
        entries = self.session.entries
        if self._disputes is None or self._disputes[0] is not entries:
            found = [{"deal": d.deal, "code": d.code, "message": d.message}
                     for d in self.session.disputes()]
            self._disputes = (entries, found)
        return list(self._disputes[1])

    def rule(self, items: str, deal: int | None = None) -> Answer:
        """The director's ruling (``E high low``) on deal ``deal``, judged by the
        recording core (:meth:`Session.rule`): written ``director scored …`` into that
        deal, one the table has left too (the later deals judged again with the score
        it makes), or refused with the reason, nothing written.  Without ``deal``: the
        deal a ruling typed at the table goes on (the deal just ended, or in hand)."""
        items = items.strip()
        if items.lower().startswith(RULING):
            items = items[len(RULING):].strip()
        if not items or len(items) > MAX_LINE or any(ord(c) < 32 for c in items):
            return Answer(400, {"error": "a ruling is one line of items and their sides "
                                         f"('E high low'), at most {MAX_LINE} characters"})
        ruled = self.session.ruled_deal() if deal is None else deal
        # nothing pending in the journal: a phone's entry refused before this ruling must
        # not count as applied on a restart because the ruling changed the file
        self._write_journal(pending=None)
        try:
            outcome = self.session.rule(ruled, items)
        except (RecordChanged, OSError) as error:
            return Answer(503, {"error": f"the game file cannot be written ({error})"})
        self.last = _outcome(f"{RULING} {items} (deal {ruled})", outcome)
        if outcome.accepted:
            self.last_at = time.time()
        return Answer(200, {"outcome": self.last, "deal": ruled})

    def _write_journal(self, pending: dict[str, Any] | None) -> None:
        data = {"sent": self.sent, "pending": pending,
                "held": {"on": self.held_on, "line": self.held}}
        replace_file(self.journal, json.dumps(data, sort_keys=True).encode(), notice=None)

    def release(self) -> None:
        self.record.release()


def _outcome(line: str, outcome: Outcome) -> dict[str, Any]:
    return {"line": line, "accepted": outcome.accepted, "message": outcome.message,
            "code": outcome.finding.code if outcome.finding is not None else None,
            "rest": outcome.rest, "confirm": outcome.confirm}


def _digest(path: Path) -> str:
    try:
        return hashlib.sha256(path.read_bytes()).hexdigest()
    except FileNotFoundError:
        return ""


def _read_journal(table: Table) -> tuple[dict[str, int], str | None]:
    """The entries each phone had applied when the server stopped (see the module
    docstring: a pending entry counts if the game file changed since it was sent), and
    who deals, where it was accepted on the game file as it stands."""
    try:
        data = json.loads(table.journal.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}, None
    if not isinstance(data, dict):
        return {}, None
    sent = {str(k): int(v) for k, v in dict(data.get("sent") or {}).items()
            if isinstance(v, int)}
    now = _digest(table.path)
    pending = data.get("pending")
    if isinstance(pending, dict) and pending.get("before") != now:
        sent[str(pending.get("phone"))] = int(pending.get("number", 0))
    held = data.get("held")
    if isinstance(held, dict) and held.get("on") == now and isinstance(held.get("line"), str):
        return sent, held["line"]
    return sent, None


def open_table(path: Path, name: str, house: Profile | None = None,
               over: MatchOver | None = None) -> Table:
    """The table of the game file ``path`` where it stood: its last game resumed (as
    ``allfours record FILE`` resumes an unfinished one), a finished one shown as it
    ended, the next game begun only when the table asks (:mod:`.games`); deals
    entered by their results unless the game says cards.  Locked while served.
    ``house``: the event's house rules, for games that name them (``[Rules
    "club:NAME"]``).  ``over``: the event's match rule, asked here once when the game
    is over already (a server restarted after it ended), in the thread that opens
    the tables, not on the page's poll."""
    record = RecordFile(path, notice=None)
    try:
        record.acquire()
    except (FileLocked, OSError) as error:
        raise TableRefused(str(error)) from error
    try:
        written_at = path.stat().st_mtime  # the last entry, as far as anyone knows
        opened = inspect(path, record, house=house, resume_finished=True)
        if isinstance(opened, Refused):
            problems = "; ".join(d.message for d in opened.diagnostics[:3])
            raise TableRefused(f"{opened.message}: {problems}")
        if isinstance(opened, NewGame):
            if not opened.proposed:
                raise TableRefused(f"{path}: no game to serve: write the game's header "
                                   "first (its rules and players), or record its first "
                                   "game with 'allfours record'")
            session = Session(opened.proposed, prefix=opened.prefix, index=opened.index,
                              record=record, house=house)
        else:
            session = opened.session
        serving_mode(session)
        table = Table(name, path, session, record, last_at=written_at,
                      match=MatchRule(over))
        table.sent, held = _read_journal(table)
        # who deals, accepted before the restart on this very file, which still asks
        if held is not None and len(held) <= MAX_LINE and \
                session.expect().phase is Phase.DEALER and apply_line(table, held).accepted:
            table.held, table.held_on = held, _digest(path)
        game_ended(table)  # a game over already: is the match too?
        return table
    except BaseException:
        record.release()
        raise
