"""A director's ruling on a deal the table has already left (``Session.rule``).

At a club the director reaches a disputed table a deal or two later.  The ruling is
then written into the deal it is on, ``director scored …`` at that deal's end (a
ruling made there before is replaced), and every later entry is judged again with the
score the ruling makes: the later deals' items stay as the table recorded them; only
the score running through them changes, and with it the totals written and maybe the
game's winner.  All or nothing: when a later entry would then be refused, or the
ruling would decide the game in a deal the table has played past, nothing is written
and the refusal says which deal and why.  What changed (the score, the winner, a game
no longer won) is said in the answer.

A first ruling on the deal a ruling typed now goes to (:meth:`Session.ruled_deal`: the
deal in hand, or the one just ended while the next has only its dealer) is typed as the
recorder's ``director …`` line, as before; a ruling made there before is replaced, as
on any deal, and kept in a comment after the new one (``{ replaces: E high low }``).

The table's undo does not take a late ruling back: it is the director's, written into
an earlier deal.  Every state undo and redo go back to that had left the deal gets the
ruling too, so that undo takes back the table's own last step, as before.
"""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING

from ..cards import Seat
from ..diagnostics import Diagnostic
from ..frozen import frozen
from ..reading.records import Comment, CommentStyle, Deal
from .building import deal_entries
from .describing import describe, placement_problem
from .entries import Annotation, DealStart, Entry, Expectation, Ruling, read_entry
from .history import History
from .outcome import Outcome
from .referee import Judgement, Verdict

__all__ = ["REPLACED_NOTE", "RULING_WORD", "Directing"]

RULING_WORD = "director"  # a ruling's line begins with it, in the recorder too
# After a ruling that replaced another on the same deal: the one replaced (nothing a
# director said is dropped).
REPLACED_NOTE = " replaces: "


class Directing:
    """The director's half of :class:`~.session.Session` (which gives what is declared
    here): a ruling on any deal of the game being recorded."""

    if TYPE_CHECKING:
        entries: tuple[Entry, ...]
        flags: dict[int, str]
        _past: History[Entry]
        _future: History[Entry]

        def judgement(self, entries: tuple[Entry, ...] | None = None) -> Judgement: ...
        def type(self, text: str, *, confirmed: bool = False) -> Outcome: ...
        def ruled_deal(self) -> int: ...
        def begin_next_deal(self) -> str: ...
        def _change(self, entries: tuple[Entry, ...]) -> None: ...
        def _expect_after(self, entries: tuple[Entry, ...]) -> Expectation: ...
        def _ruling(self, before: tuple[Entry, ...],
                    after: tuple[Entry, ...]) -> tuple[str, Diagnostic | None]: ...

    def rule(self, deal: int, items: str) -> Outcome:
        """The director's ruling ``items`` (``E high N low``: items and their sides, as
        after ``director``) on deal ``deal`` of the game, judged by the referee; see the
        module docstring.  The answer says what the ruling changed."""
        items = items.strip()
        if items.lower().startswith(RULING_WORD):
            items = items[len(RULING_WORD):].strip()
        deals = len(deal_entries(self.entries))
        if not 1 <= deal <= deals:
            return Outcome(False, f"refused: there is no deal {deal}: the game has " +
                           (f"deals 1 to {deals}" if deals > 1 else
                            "one deal" if deals else "no deal yet"))
        before = _Standing.of(self.judgement())
        began = ""
        start, end = _deal_span(self.entries, deal)
        ruled = any(isinstance(entry, Ruling) for entry in self.entries[start:end])
        if deal == self.ruled_deal() and not ruled:  # as the recorder types it
            outcome = self.type(f"{RULING_WORD} {items}")
        else:
            outcome = self._rule_earlier(deal, items)
            if outcome.accepted:
                self._past.pop()  # the state before the ruling: not the table's to go back to
                began = self.begin_next_deal()  # a game no longer won goes on
                self._keep_in_history(deal)
        if not outcome.accepted:
            return outcome
        changes = before.changes(_Standing.of(self.judgement()))
        return Outcome(True, outcome.message + changes + (f"; {began}" if began else ""),
                       finding=outcome.finding)

    def _rule_earlier(self, deal: int, items: str) -> Outcome:
        """The ruling written at the end of deal ``deal`` (which the table has left), or
        in the place of the ruling made there before."""
        old = self.entries
        start, end = _deal_span(old, deal)
        earlier = next((at for at in range(start, end) if isinstance(old[at], Ruling)), None)
        at, drop = (earlier, 1) if earlier is not None else (end, 0)
        head = old[:at]
        expecting = self._expect_after(head)
        read = read_entry(f"{RULING_WORD} {items}", expecting)
        if isinstance(read, str):
            return Outcome(False, read)
        if isinstance(read, Annotation) or not isinstance(read, Ruling):
            return Outcome(False, "a ruling is items and their sides: 'E high N low'")
        if earlier is not None:  # the ruling it replaces is kept in a comment after it
            replaced = old[earlier]
            read = replace(read, trailing=(*read.trailing, _replaced(replaced),
                                           *replaced.trailing))
        placed = placement_problem(read, expecting, self.judgement(head).exhausted)
        if placed is not None:
            return Outcome(False, placed)
        ruling, finding = self._ruling(head, (*head, read))
        if ruling == Verdict.REFUSE and finding is not None:
            return Outcome(False, f"refused: {finding.message}", finding=finding)
        entries = (*head, read, *old[at + drop:])
        if _bare_last_deal(entries) and self.judgement(entries[:-1]).closed.winner:
            # the next deal begun at once in results mode, nothing in it: a game the
            # ruling wins has no next deal (the file never has it: Session.written)
            entries = entries[:-1]
        refused = self._later_refused(entries, at + 1)
        if refused is not None:
            return refused
        played_after = _played_after_decision(self.judgement(entries), deals=len(
            deal_entries(entries)))
        if played_after is not None:
            return Outcome(False, f"refused: {played_after}; nothing written")
        try:
            self._change(entries)
        except RuntimeError as error:  # the text would not read back: nothing written
            return Outcome(False, f"refused: {error}")
        self.flags = {}
        done = f"{describe(read)} (deal {deal}, " + \
            ("replacing the ruling made before" if earlier is not None else
             "which the table has left") + ")"
        return Outcome(True, done + (f" — {finding.message}" if finding else ""),
                       finding=finding)

    def _keep_in_history(self, deal: int) -> None:
        """The ruling on ``deal`` put into every state undo or redo goes back to in which
        the table had left that deal: the table's undo takes back its own last step,
        never the director's ruling (a state from before the deal was left has none)."""
        start, end = _deal_span(self.entries, deal)
        ruling = next(entry for entry in self.entries[start:end] if isinstance(entry, Ruling))
        self._past = History(_with_ruling(state, deal, ruling) for state in self._past)
        self._future = History(_with_ruling(state, deal, ruling) for state in self._future)

    def _later_refused(self, entries: tuple[Entry, ...], first: int) -> Outcome | None:
        """The refusal when an entry after the ruling (from index ``first`` of
        ``entries``) would no longer stand, naming its deal and what it is."""
        for at in range(first, len(entries)):
            ruling, finding = self._ruling(entries[:at], entries[:at + 1])
            if ruling == Verdict.REFUSE and finding is not None:
                return Outcome(False, f"refused: with this ruling, deal "
                               f"{_deal_of(entries, at)}'s '{describe(entries[at])}' would "
                               f"be refused: {finding.message}; nothing written",
                               finding=finding)
        return None


@frozen
class _Standing:
    """The score and the winner (and where the game was decided), to say what a
    ruling changed."""

    scores: tuple[tuple[str, int], ...]
    winner: str | None
    decided: str | None

    @classmethod
    def of(cls, judged: Judgement) -> _Standing:
        table = judged.closed
        return cls(judged.replayed.scores, table.winner, table.decided)

    def changes(self, after: _Standing) -> str:
        """``; the score is now …`` and what became of the game's winner, or ""."""
        said = ""
        if after.scores != self.scores:
            said += f"; the score is now {_score(after.scores)} (was {_score(self.scores)})"
        if after.winner == self.winner:
            return said
        if after.winner is None:
            return said + f"; the game is no longer won ({self.winner} had won it, " \
                f"{self.decided}): play goes on"
        if self.winner is None:
            return said + f"; {after.winner} now win the game ({after.decided})"
        return said + f"; the game's winner changes: {after.winner} win it ({after.decided})," \
            f" not {self.winner}"


def _replaced(ruling: Entry) -> Comment:
    """The comment that keeps a ruling replaced by another: ``{ replaces: E high low }``."""
    from ..writing.formatter import awards_text

    assert isinstance(ruling, Ruling)
    said = awards_text("", ruling.awards, Deal(number=1, dealer=Seat.NORTH)).strip()
    return Comment(f"{REPLACED_NOTE}{said} ", CommentStyle.BRACE)


def _score(scores: tuple[tuple[str, int], ...]) -> str:
    return " ".join(f"{side} {points}" for side, points in scores)


def _deal_span(entries: tuple[Entry, ...], deal: int) -> tuple[int, int]:
    """Where deal ``deal``'s entries are: from its DealStart to the next one."""
    starts = [at for at, entry in enumerate(entries) if isinstance(entry, DealStart)]
    start = starts[deal - 1]
    return start, starts[deal] if deal < len(starts) else len(entries)


def _with_ruling(entries: tuple[Entry, ...], deal: int, ruling: Ruling) -> tuple[Entry, ...]:
    """``entries`` with ``ruling`` at the end of deal ``deal`` (in the place of a ruling
    there), when a later deal has begun in them; else as they are."""
    starts = [at for at, entry in enumerate(entries) if isinstance(entry, DealStart)]
    if len(starts) <= deal:
        return entries
    start, end = starts[deal - 1], starts[deal]
    earlier = next((at for at in range(start, end) if isinstance(entries[at], Ruling)), None)
    if earlier is not None:
        return (*entries[:earlier], ruling, *entries[earlier + 1:])
    return (*entries[:end], ruling, *entries[end:])


def _bare_last_deal(entries: tuple[Entry, ...]) -> bool:
    """Whether the last deal has only its dealer (and no comment), after another."""
    last = entries[-1] if entries else None
    return isinstance(last, DealStart) and not last.leading and not last.trailing and \
        sum(isinstance(entry, DealStart) for entry in entries) > 1


def _deal_of(entries: tuple[Entry, ...], at: int) -> int:
    """The number of the deal entry ``at`` belongs to."""
    return sum(isinstance(entry, DealStart) for entry in entries[:at + 1])


def _played_after_decision(judged: Judgement, *, deals: int) -> str | None:
    """Why the game cannot stand when the ruling decides it in a deal before the last
    (the table played on after the game was won: those deals would count for nothing),
    or None."""
    table = judged.closed
    decided = table.decided_deal
    if table.winner is None or decided is None or decided >= deals:
        return None
    later = f"deal {decided + 1}" if decided + 1 == deals else \
        f"deals {decided + 1} to {deals}"
    return (f"with this ruling {table.winner} win the game in deal {decided} "
            f"({table.decided}), but the table has played {later} since; undo "
            f"{'it' if decided + 1 == deals else 'them'} at the table first, then rule")
