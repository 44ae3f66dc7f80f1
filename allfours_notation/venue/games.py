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
back out of the file.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ..reading.records import Tag
from ..recording.entries import Phase
from ..recording.opening import NewGame, inspect
from ..recording.outcome import Outcome
from ..recording.session import Session

if TYPE_CHECKING:
    from ..events.eventfile import Event
    from .table import Table

__all__ = ["NEXT_GAME", "MatchRule", "event_match_over", "next_game", "next_game_view",
           "undo_next_game"]

NEXT_GAME = "next game"  # the line the phone sends; the core reads no such line
RECHECK = 30.0  # seconds after which the match's state is asked again (other tables play)

# Why the match at a table is over (the session's tags place the table), or None.
MatchOver = Callable[[tuple[Tag, ...]], str | None]


@dataclass
class MatchRule:
    """A table's match as the event layer sees it, and the game before the next one."""

    over: MatchOver | None = None  # None: a game file of its own, no match rule
    # the last answer, for the game it was asked about (its entries) and when
    known: tuple[object, float, str | None] | None = None
    previous: Session | None = None  # the game before a next game still empty

    def why_over(self, session: Session, *, fresh: bool = False) -> str | None:
        if self.over is None:
            return None
        known = self.known
        if fresh or known is None or known[0] is not session.entries or \
                time.monotonic() - known[1] > RECHECK:
            known = self.known = (session.entries, time.monotonic(),
                                  self.over(session.tags))
        return known[2]


def next_game_view(table: Table, phase: Phase) -> dict[str, Any] | None:
    """For the page once the game is over: whether a next game is offered, or why not."""
    if phase is not Phase.OVER:
        return None
    why = table.match.why_over(table.session)
    return {"offered": why is None, "why_not": why, "game": table.session.index + 1}


def next_game(table: Table) -> Outcome:
    """Begin the next game of the table's file: see the module docstring."""
    session = table.session
    if session.expect().phase is not Phase.OVER:
        return Outcome(False, "the game is not over: the next game begins when it is")
    why = table.match.why_over(session, fresh=True)
    if why is not None:
        return Outcome(False, f"no next game: {why}; tell the director")
    opened = inspect(table.path, table.record, house=session.house)
    if not isinstance(opened, NewGame) or not opened.proposed:
        return Outcome(False, "the file's last game is not finished as written: "
                       "tell the director")
    following = Session(opened.proposed, prefix=opened.prefix, index=opened.index,
                        record=table.record, house=session.house,
                        results_mode=session.results_mode, clock=session.clock)
    following.save()  # the header, at once: a server restarted resumes this game
    table.match.previous, table.session = session, following
    return Outcome(True, f"game {opened.index} begins: {following.expect().text}")


def undo_next_game(table: Table) -> Outcome | None:
    """An undo while the next game has nothing in it: the game before it again, the
    new game's header taken out of the file; None when the undo is the session's."""
    previous = table.match.previous
    if previous is None or table.session.entries:
        return None
    previous.save()
    table.session, table.match.previous = previous, None
    return Outcome(True, f"undone: game {previous.index + 1} (game {previous.index} is "
                   "over)")


def event_match_over(event: Event, folder: Path) -> MatchOver:
    """The event layer's word on the match at a table: the games folder read as
    ``allfours event`` reads it, the table's match found by its tags."""
    from ..events.assemble import assemble, table_over
    from ..events.games import read_folder

    def over(tags: tuple[Tag, ...]) -> str | None:
        named = {tag.name: tag.value for tag in tags}
        place = (named.get("Round"), named.get("HomeTeam"), named.get("AwayTeam"))
        number = named.get("Table", "")
        if None in place or not number.isdigit():
            return None
        assembled = assemble(event, read_folder(folder, event.given_rules,
                                                shown_from=folder))
        for match in assembled.matches:
            if (match.round, match.home, match.away) == place:
                return table_over(event, match, int(number))
        return None

    return over
