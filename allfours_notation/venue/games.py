"""The next game of a table's match, begun from the phone when a game ends.

A club table plays several games a match (a race to so many bullseye points, or so
many games a table): when a game is over the phone offers the next one, unless the
event layer says the match at this table is over (:func:`..events.assemble.table_over`:
the race won, the table's games played, its best of decided).  The next game is
appended to the table's file as ``allfours record`` appends one after a finished game
(:func:`..recording.opening.inspect`: the last game's tags, today's date, no result,
the same seats), its header written at once through the session's safe writer, so that
a server restarted finds it.  Who deals its first deal is the core's question (the
players cut: the dealer pad asks it).  An undo right after takes the new, empty game
back out of the file.  Only the table's asking begins it: a server restarted after a
game ended shows that game as it ended (:func:`.table.open_table`), the match
rule asked once as the table is opened.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ..frozen import frozen
from ..reading.records import Tag
from ..recording.entries import Entry, Phase
from ..recording.opening import NewGame, following, inspect
from ..recording.outcome import Outcome
from ..recording.session import Session
from .cards import serving_mode

if TYPE_CHECKING:
    from ..events.eventfile import Event
    from .table import Table

__all__ = ["NEXT_GAME", "Ended", "MatchOver", "MatchRule", "event_match_over", "game_ended",
           "next_game", "next_game_view", "undo_next_game"]

NEXT_GAME = "next game"  # the line the phone sends; the core reads no such line

# Why the match at a table is over (the session's tags place the table), or None.
MatchOver = Callable[[tuple[Tag, ...]], str | None]


@frozen
class Ended:
    """A finished game kept for the undo of the next game while that one is empty: its
    entries and where it stands in the file, not its session (the referee's tables,
    the undo history, the deals proved to read back: a 200-table night kept every
    table's last two games whole).  An undo makes its session again, as a restart
    resumes a game from the file's entries."""

    tags: tuple[Tag, ...]
    entries: tuple[Entry, ...]
    prefix: str
    suffix: str
    index: int
    results_mode: bool

    @classmethod
    def of(cls, session: Session) -> Ended:
        return cls(session.tags, session.entries, session.prefix, session.suffix,
                   session.index, session.results_mode)

    def session(self, begun: Session) -> Session:
        """The game's session again, writing to ``begun``'s file as ``begun`` does."""
        return Session(self.tags, entries=self.entries, prefix=self.prefix,
                       index=self.index, record=begun.record, house=begun.house,
                       suffix=self.suffix, results_mode=self.results_mode,
                       clock=begun.clock)


@dataclass
class MatchRule:
    """A table's match as the event layer sees it, and the game before the next one.

    Asking the event layer reads the whole games folder: it is asked in the entry's
    worker thread, when an entry ends the game and when the next game is asked for,
    and as the table is opened when its game is over already (a restart), never on
    the page's poll of the state (which shows the last answer)."""

    over: MatchOver | None = None  # None: a game file of its own, no match rule
    known: tuple[object, str | None] | None = None  # the last answer, for those entries
    previous: Ended | None = None  # the game before a next game still empty

    def ask(self, session: Session) -> str | None:
        """Why the match at the table is over, asked now (None: it is not)."""
        why = self.over(session.tags) if self.over is not None else None
        self.known = (session.entries, why)
        return why

    def last_answer(self, session: Session) -> str | None:
        """The last answer for this game as it stands (None: not over, or not asked)."""
        known = self.known
        return known[1] if known is not None and known[0] is session.entries else None


def next_game_view(table: Table, phase: Phase) -> dict[str, Any] | None:
    """For the page once the game is over: whether a next game is offered, or why not."""
    if phase is not Phase.OVER:
        return None
    why = table.match.last_answer(table.session)
    return {"offered": why is None, "why_not": why, "game": table.session.index + 1}


def game_ended(table: Table) -> None:
    """After an entry, or as the table is opened: a game over (and not asked about yet)
    asks the event layer whether the match is over."""
    match, session = table.match, table.session
    asked = match.known is not None and match.known[0] is session.entries
    if match.over is not None and not asked and session.expect().phase is Phase.OVER:
        match.ask(session)


def next_game(table: Table) -> Outcome:
    """Begin the next game of the table's file: see the module docstring."""
    session = table.session
    if session.expect().phase is not Phase.OVER:
        if not session.entries and session.index > 1:  # another phone's, or a restart's
            return Outcome(False, f"game {session.index} has begun already: "
                           f"{session.expect().text}")
        return Outcome(False, "the game is not over: the next game begins when it is")
    why = table.match.ask(session)
    if why is not None:
        return Outcome(False, f"no next game: {why}; tell the director")
    # what the session holds, the file read but not parsed again; parsed and checked
    # again only when it is not the session's text (changed on disk, written by hand)
    opened = following(session, table.record) or \
        inspect(table.path, table.record, house=session.house)
    if not isinstance(opened, NewGame) or not opened.proposed:
        return Outcome(False, "the file's last game is not finished as written: "
                       "tell the director")
    begun = Session(opened.proposed, prefix=opened.prefix, index=opened.index,
                   record=table.record, house=session.house,
                   results_mode=session.results_mode, clock=session.clock)
    if not serving_mode(begun):  # results, unless the game before named a mode
        begun.save()  # the header, at once: a server restarted resumes this game
    table.match.previous, table.session = Ended.of(session), begun
    return Outcome(True, f"game {opened.index} begins: {begun.expect().text}")


def undo_next_game(table: Table) -> Outcome | None:
    """An undo while the next game has nothing in it: the game before it again, the
    new game's header taken out of the file; None when the undo is the session's."""
    ended = table.match.previous
    if ended is None or table.session.entries:
        return None
    previous = ended.session(table.session)
    previous.save()
    table.session, table.match.previous = previous, None
    return Outcome(True, f"undone: game {previous.index + 1} (game {previous.index} is "
                   "over)")


def event_match_over(event: Event, folder: Path) -> MatchOver:
    """The event layer's word on the match at a table: the games folder read as
    ``allfours event`` reads it, the table's match found by its tags.  The folder's
    reading is kept for as long as its files' bytes are the same (a digest of them,
    read again at each ask: a few milliseconds where the reading takes most of a
    second): a server restarted with every table's game over asks once per table as
    it opens them, and reads the folder once, not once a table."""
    from ..events.assemble import Assembled, assemble, table_over
    from ..events.games import game_files, read_folder

    kept: list[tuple[str, Assembled]] = []  # the last reading, by the folder's digest

    def assembled() -> Assembled:
        files = game_files(folder)
        digest = hashlib.sha256()
        for path in files:
            try:
                data = path.read_bytes()
            except OSError:  # read_folder says why
                data = b"\0unreadable"
            digest.update(f"{path}\0{len(data)}\0".encode())
            digest.update(data)
        key = digest.hexdigest()
        if kept and kept[0][0] == key:
            return kept[0][1]
        made = assemble(event, read_folder(folder, event.given_rules, shown_from=folder))
        kept[:] = [(key, made)]  # one assignment: the entries' threads may ask at once
        return made

    def over(tags: tuple[Tag, ...]) -> str | None:
        named = {tag.name: tag.value for tag in tags}
        place = (named.get("Round"), named.get("HomeTeam"), named.get("AwayTeam"))
        number = named.get("Table", "")
        if None in place or not number.isdigit():
            return None
        for match in assembled().matches:
            if (match.round, match.home, match.away) == place:
                return table_over(event, match, int(number))
        return None

    return over
