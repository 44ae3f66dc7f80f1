"""Editing what was recorded: undo and redo, a correction, an entry inserted or deleted.

Undo and redo step through snapshots of the entries; a correction replaces an earlier
entry and re-judges every later one, keeping those that became invalid and saying
why; an insertion or a deletion re-judges every later entry and is refused whole if
one would not stand (the file is rewritten whole or not at all).
"""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING

from ..diagnostics import Diagnostic
from ..reading.records import Call, Play
from .describing import describe, placement_problem
from .entries import Annotation, DealStart, Entry, Expectation, Item, read_entry
from .history import History
from .outcome import Outcome
from .referee import RESULTS_CODES, Judgement, Verdict, findings, verdict

__all__ = ["Editing"]


class Editing:
    """The editing half of :class:`~.session.Session` (which gives what is declared here)."""

    if TYPE_CHECKING:
        entries: tuple[Entry, ...]
        flags: dict[int, str]
        _past: History[Entry]
        _future: History[Entry]

        def judgement(self, entries: tuple[Entry, ...] | None = None) -> Judgement: ...
        def expect(self) -> Expectation: ...
        def _try(self, before: tuple[Entry, ...], entry: Entry, at: int, *,
                 confirmed: bool) -> Outcome: ...
        def _set(self, entries: tuple[Entry, ...]) -> None: ...
        def _change(self, entries: tuple[Entry, ...]) -> None: ...
        def _tie_scored(self, entry: Entry, before: tuple[Entry, ...]) -> Entry: ...
        def save(self) -> None: ...

    def undo(self) -> Outcome:
        """Take back the last change; with none made in this session (a resumed file),
        the last entry of the file: the file is the history, back to the game's start."""
        current = self.entries
        if not self._past:
            if not current:
                return Outcome(False, "nothing to undo")
            self._set(current[:-1])
            self._future.append(current)
            self.flags = {}
            return Outcome(True, f"undone: {describe(current[-1])}")
        self._set(self._past.top())
        self._past.pop()
        self._future.append(current)
        self.flags = {}  # the marks of a correction undone are stale
        return Outcome(True, f"undone: {describe(current[-1])}" if current and
                       current[:-1] == self.entries else "undone")

    def redo(self) -> Outcome:
        if not self._future:
            return Outcome(False, "nothing to redo")
        current = self.entries
        self._set(self._future.top())
        self._future.pop()
        self._past.append(current)
        return Outcome(True, "redone")

    def correct(self, index: int, text: str, *, confirmed: bool = False) -> Outcome:
        """Replace entry ``index`` with what ``text`` says, then re-judge every later entry.

        The new entry is judged against the entries before it; later entries that
        became invalid are kept and flagged (see :attr:`flags`), never dropped.
        """
        if not 0 <= index < len(self.entries):
            return Outcome(False, f"there is no entry {index + 1}")
        before = self.entries[:index]
        read = self._entry_at(before, text)
        if isinstance(read, Outcome):
            return read
        outcome = self._try(before, read, index, confirmed=confirmed)
        if outcome.accepted:
            self.flags = self._flag_from(index + 1)
            bad = len(self.flags)
            outcome = replace(outcome, message=f"entry {index + 1} corrected; " +
                              (f"{bad} later entr{'y is' if bad == 1 else 'ies are'} now "
                               "invalid" if bad else "every later entry still stands"))
        return outcome

    def _entry_at(self, before: tuple[Entry, ...], text: str) -> Entry | Outcome:
        """What ``text`` says, read as the entry that follows ``before`` (a correction's
        or an insertion's), or the refusal in words: one reading for both."""
        read = read_entry(text, self._expect_after(before))
        if isinstance(read, str):
            return Outcome(False, read)
        if isinstance(read, Annotation):
            return Outcome(False, "write the entry itself, not a comment")
        return self._tie_scored(read, before)

    def insert(self, index: int, text: str, *, confirmed: bool = False) -> Outcome:
        """Insert what ``text`` says before entry ``index`` (a card left out, say).

        The new entry is judged where it stands; the later entries of its deal that
        were typed for the seat whose turn it was follow the turn again, and every later
        entry is judged again.  If any would then be refused, nothing changes and the
        refusal says which and why (the file is rewritten whole or not at all).
        """
        if not 0 <= index <= len(self.entries):
            return Outcome(False, f"there is no entry {index + 1}")
        before = self.entries[:index]
        read = self._entry_at(before, text)
        if isinstance(read, Outcome):
            return read
        placed = placement_problem(read, self._expect_after(before),
                                    self.judgement(before).exhausted)
        if placed is not None:
            return Outcome(False, placed)
        ruling, finding = self._ruling(before, (*before, read))
        if ruling == Verdict.REFUSE:
            assert finding is not None
            return Outcome(False, f"refused: {finding.message}", finding=finding)
        if ruling == Verdict.CONFIRM and not confirmed:
            assert finding is not None
            return Outcome(False, f"{finding.message}. Record it? (y/n)", confirm=True,
                           finding=finding)
        return self._rewrite(index, (read,), 0, f"inserted before entry {index + 1}: "
                             f"{describe(read)}")

    def delete(self, index: int) -> Outcome:
        """Delete entry ``index`` (an extra one), re-judging every later entry as
        :meth:`insert` does; refused in words when the game would not stand."""
        if not 0 <= index < len(self.entries):
            return Outcome(False, f"there is no entry {index + 1}")
        gone = self.entries[index]
        if isinstance(gone, DealStart) and index + 1 < len(self.entries) and \
                not isinstance(self.entries[index + 1], DealStart):
            return Outcome(False, f"refused: entry {index + 1} begins a deal that has "
                           "entries; delete them first (or correct the dealer with Enter)")
        return self._rewrite(index, (), 1, f"deleted entry {index + 1}: {describe(gone)}")

    def _rewrite(self, index: int, new: tuple[Entry, ...], drop: int, done: str) -> Outcome:
        """Entries ``index`` … ``index + drop`` replaced by ``new``; the later entries
        follow the turn again and are judged again: all stand, or nothing changes."""
        old = self.entries
        head = (*old[:index], *new)
        entries = (*head, *self._follow_turn(old, index + drop, head))
        for at in range(len(head), len(entries)):
            ruling, finding = self._ruling(entries[:at], entries[:at + 1])
            if ruling == Verdict.REFUSE and finding is not None:
                return Outcome(False, f"refused: entry {at + 1 - len(new) + drop} "
                               f"({describe(old[at - len(new) + drop])}) would then be "
                               f"invalid: {finding.message}", finding=finding)
        try:
            self._change(entries)
        except RuntimeError as error:  # the text would not read back: nothing written
            return Outcome(False, f"refused: {error}")
        self.flags = {}
        later = len(entries) > len(head)
        return Outcome(True, done + ("; every later entry still stands" if later else ""))

    def _follow_turn(self, old: tuple[Entry, ...], start: int,
                     head: tuple[Entry, ...]) -> list[Entry]:
        """The entries of ``old`` from ``start`` on, after ``head``: a card or a call of
        the same deal typed for the seat whose turn it was goes to the seat whose turn
        it now is (a card named for a seat, 'W:js', for another, stays)."""
        moved: list[Entry] = []
        for at in range(start, len(old)):
            entry = old[at]
            if isinstance(entry, DealStart):
                moved.extend(old[at:])
                break
            if isinstance(entry, (Play, Call)):
                was = self._expect_after(old[:at]).actor
                now = self._expect_after((*head, *moved)).actor
                if entry.seat is was and now is not None and now is not was:
                    entry = replace(entry, seat=now)
            moved.append(entry)
        return moved

    def _ruling(self, before: tuple[Entry, ...],
                after: tuple[Entry, ...]) -> tuple[str, Diagnostic | None]:
        """How the referee took the last entry of ``after``: its answer to the entry
        (see :func:`.referee.findings`) sorted into accept, refuse or confirm first."""
        judged = self.judgement(after)
        refused = RESULTS_CODES if after and isinstance(after[-1], Item) else ()
        return verdict(findings(self.judgement(before), judged), judged.unfinished,
                       refused=refused)

    def _expect_after(self, entries: tuple[Entry, ...]) -> Expectation:
        saved = self.entries
        self.entries = entries
        try:
            return self.expect()
        finally:
            self.entries = saved

    def _flag_from(self, start: int) -> dict[int, str]:
        flags = {}
        for index in range(start, len(self.entries)):
            ruling, finding = self._ruling(self.entries[:index], self.entries[:index + 1])
            if ruling != Verdict.ACCEPT and finding is not None:
                flags[index] = finding.message
        return flags
