"""What a line a phone sends does: the venue's own few words, else the session's.

Every line comes through the table's entry queue (an id each, once, in order).  A
few are the recorder's keys that a phone has no key for: ``undo`` (Ctrl+Z), ``mode
cards`` and ``mode results`` (Ctrl+T), ``confirm LINE`` (the recorder's ``y`` after
"Record it?": a revoke or an undertrump entered all the same, judged again as
confirmed), and ``next game`` once a game is over.  Everything else is typed into
:meth:`Session.type`, which judges it.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..recording.outcome import Outcome
from .cards import MODES, switch_mode
from .games import NEXT_GAME, game_ended, next_game, undo_next_game

if TYPE_CHECKING:
    from .table import Table

__all__ = ["CONFIRM", "UNDO", "apply_line"]

UNDO = "undo"
CONFIRM = "confirm "  # then the line the referee asked to confirm


def apply_line(table: Table, line: str) -> Outcome:
    """Apply ``line`` to ``table``'s game (see the module docstring); a game it ends asks
    the event layer whether the table's match is over (in the entry's worker thread)."""
    outcome = _applied(table, line)
    if outcome.accepted:
        game_ended(table)
    return outcome


def _applied(table: Table, line: str) -> Outcome:
    words = " ".join(line.lower().split())
    if words == UNDO:
        return undo_next_game(table) or table.session.undo()
    if words in MODES:
        return switch_mode(table.session, MODES[words])
    if words == NEXT_GAME:
        return next_game(table)
    if words.startswith(CONFIRM):
        return table.session.type(line.strip()[len(CONFIRM):], confirmed=True)
    return table.session.type(line)
