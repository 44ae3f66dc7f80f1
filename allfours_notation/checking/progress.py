"""A game still being played: what only says so is a note, not an error.

A record saved in the middle of a game (the recorder saves after every entry) has a
last deal that is not over yet: no turn-up so far, a trick of one card, tricks still
to come, a beg not answered, a run with its turn-up to come, and at the deciding
deal's confirmation prompt a ``[Result "*"]`` that the computed score already
decides.  Each of those findings is true of the text, but none of them is an error
of the record: the game is in progress.  :func:`in_progress` tells them apart, and
they are reported as notes (``Severity.INFO``, the message beginning
``in progress:``).

Only a game that says it is unfinished (``[Result "*"]``) is in progress, and only
its last deal, and only while that deal is still open (no ending, claim, total or
results written): a game written as finished whose last deal stops short, or a deal
followed by another one, is still an error.  A finding the referee itself marks as
only saying the game is not finished yet (``GameReplay.unfinished``) counts too,
under the same conditions.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence

from ..diagnostics import Diagnostic, Severity
from ..reading.records import Deal, Game
from ..referee.disputes import read_result

__all__ = ["IN_PROGRESS", "in_progress", "noted"]

IN_PROGRESS = "in progress: "

# What an open last deal is bound to show: no turn-up yet (AFN314), a beg not answered
# yet (AFN316), a run whose turn-up is to come (AFN309, AFN311), a trick not full yet
# (AFN204), tricks still to come (AFN304); and the game without its 'end' (AFN104).
_BEFORE_PLAY = frozenset({"AFN314", "AFN316", "AFN309", "AFN311"})
_IN_PLAY = frozenset({"AFN204", "AFN304"})
_GAME_CODES = frozenset({"AFN104", "AFN403"})


def in_progress(game: Game, found: Sequence[Diagnostic],
                marked: Collection[Diagnostic] = ()) -> list[Diagnostic]:
    """Those of ``found`` that only say the game is still being played (see the
    module's docstring); ``marked``: the referee's own marks of such findings."""
    if not found or not _says_unfinished(game):
        return []
    last = game.deals[-1] if game.deals else None
    return [d for d in found if _only_in_progress(d, last, marked)]


def noted(diagnostic: Diagnostic) -> Diagnostic:
    """A finding that only says the game is in progress, as the note it is."""
    return diagnostic.located(severity=Severity.INFO, message=IN_PROGRESS + diagnostic.message)


def _says_unfinished(game: Game) -> bool:
    written = game.tag("Result")
    return written is not None and read_result(written, game.seats) == (True, None)


def _only_in_progress(diagnostic: Diagnostic, last: Deal | None,
                      marked: Collection[Diagnostic]) -> bool:
    code = diagnostic.code
    if diagnostic.deal is None:
        # the game without 'end' (cut off while being written), and a [Result "*"] that
        # the score decides where the referee says it only waits (the other side's word)
        return code == "AFN104" or (code in _GAME_CODES and diagnostic in marked)
    if last is None or diagnostic.deal != last.number or not _open(last):
        return False
    if code in _BEFORE_PLAY:
        return not last.tricks
    if code == "AFN204":  # only the last trick may still be filling
        return bool(last.tricks) and diagnostic.trick in (len(last.tricks),
                                                          last.tricks[-1].number)
    return code in _IN_PLAY


def _open(deal: Deal) -> bool:
    """Whether nothing closes the deal yet: no ending, claim, total or results."""
    return deal.ending is None and deal.claim is None and deal.total is None and \
        deal.results is None
