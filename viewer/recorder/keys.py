"""The recorder's keys taken one at a time: an item and its side in results mode, the
other side's ``y`` or claim when a deal is over, the answer to a y/n question.

What a key means is the recording core's (:class:`allfours_notation.recording.Session`:
``item_question``, ``claim_start``, ``claim_edit``, ``type``); this mixin of
:class:`.screen.RecorderScreen` only routes the keys and says what the core answers.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from textual import events
from textual.widgets import Input

from allfours_notation.reading.records import ClaimItem
from allfours_notation.recording.claiming import ClaimDraft
from allfours_notation.recording.entries import RESULT_KEYS, Item, Phase
from allfours_notation.recording.session import Outcome, Session

__all__ = ["KeyAnswers"]


class KeyAnswers:
    """The one-key answers of the recorder's screen (see the module docstring)."""

    session: Session | None
    stale: str | None
    confirming: bool
    correcting: int | None
    pending_item: str | None  # an item key awaiting its side
    claiming: ClaimDraft | None  # the other side's claim, typed by item keys
    lines_taken: int

    if TYPE_CHECKING:  # the screen's own
        @property
        def entry_line(self) -> Input: ...
        def note(self, text: str) -> None: ...
        def say(self, outcome: Outcome) -> None: ...
        def redraw(self) -> None: ...
        def guarded(self, step: Callable[[], Outcome], typed: str = "") -> Outcome: ...
        def enter(self, session: Session, text: str) -> Outcome: ...
        def typed(self, session: Session, text: str) -> Outcome: ...

    def one_key(self, event: events.Key) -> bool:
        """A key the entry line gives first: True when it was an answer taken here (an
        item in results mode, the side after it, Enter ending the deal; y for the other
        side's agreement, c and item keys for its claim).  Anything else, or any key
        while a line is being typed, goes to the line as usual."""
        session = self.session
        if self.stale:  # the file changed on disk: only r or q, typed on the line, count
            return False
        if session is not None and self.confirming and not self.entry_line.value:
            return self.yes_or_no(session, event)
        if session is None or self.correcting is not None or self.confirming or \
                self.entry_line.value:
            return False
        phase = self.phase(session)
        char = (event.character or "").lower() if event.character and \
            event.character.isprintable() else ""
        if phase is Phase.CONFIRM and self.claiming is None:
            if char == "y":
                self.take(session, "y")
                return True
            if char == "c":
                self.claiming = session.claim_start()  # the whole deal, to change
                self.note(self.claiming.prompt())
                self.redraw()
                return True
            return False
        if phase is not Phase.RESULTS and self.claiming is None:
            return False
        if event.key == "escape":
            self.pending_item, self.claiming = None, None
            self.note("")
            self.redraw()
            return True
        if event.key == "backspace":
            return self.back(session)
        if event.key == "enter":
            return self.results_enter(session)
        if self.pending_item is not None:
            return self.side_key(session, char)
        due = session.expect().due
        if self.claiming is None and ((due is Phase.CALL and char in ("s", "b")) or
                                      (due is Phase.ANSWER and char in ("t", "r"))):
            self.take(session, char)  # a call due: a stand, a beg, a gift or a run
            return True
        if char in RESULT_KEYS:
            question = session.item_question(char, claim=self.claiming is not None)
            if not question:  # whole as it is (the elder's gift, the dealer's kick)
                self.item(session, char)
            else:
                self.pending_item = char
                self.note(question)
            return True
        return False

    def back(self, session: Session) -> bool:
        """Backspace in results mode: the item key awaiting its side, else the last
        change to the claim being typed, else the last item entered."""
        if self.pending_item is not None:
            self.pending_item = None
            self.note(self.claiming.prompt() if self.claiming is not None else "")
        elif self.claiming is not None:
            self.claiming = self.claiming.back() or self.claiming
            self.note(self.claiming.prompt())
        elif session.entries and isinstance(session.entries[-1], Item):
            self.say(self.guarded(session.undo))
            self.redraw()
        return True

    def results_enter(self, session: Session) -> bool:
        """Enter in results mode: the deal's results are all in, or the claim typed
        is recorded (the scorer's items unchanged: the other side agrees)."""
        if self.pending_item is not None:
            self.note("which side? type the seat: " + self.seat_keys())
            return True
        if self.claiming is not None:
            draft, self.claiming = self.claiming, None
            self.take(session, draft.answer())
            return True
        self.take(session, "")
        return True

    def side_key(self, session: Session, char: str) -> bool:
        """The key after an item key: its side (a seat), a kick's points, ``=`` (a Game
        tied), or - (in a claim: nobody); any other key asks again."""
        assert self.pending_item is not None
        item = RESULT_KEYS[self.pending_item]
        if char in self.seat_keys().split() or (item is ClaimItem.KICK and char.isdigit()) \
                or (char == "-" and self.claiming is not None) \
                or (item is ClaimItem.GAME and char == "=" and self.claiming is None):
            key, self.pending_item = self.pending_item, None
            self.item(session, f"{key} {char}")  # the session judges it
            return True
        self.note(session.item_question(self.pending_item, claim=self.claiming is not None))
        return True

    @staticmethod
    def phase(session: Session) -> Phase:
        """What the table waits for, as the screen takes keys."""
        return session.expect().phase

    def yes_or_no(self, session: Session, event: events.Key) -> bool:
        """The y/n question takes one key: y records, n does not; any other key asks
        again and is not taken as an answer (nor as an entry)."""
        if event.key == "escape":
            return False
        char = (event.character or "").lower()
        if char in ("y", "n"):
            outcome = self.guarded(lambda: self.enter(session, char))
            self.say(outcome)
            self.redraw()
            self.lines_taken += 1
            return True
        self.say(Outcome(False, "answer y or n (Esc cancels): the question stands",
                         confirm=True))
        return True

    def seat_keys(self) -> str:
        assert self.session is not None
        return " ".join(seat.letter.lower() for seat in self.session.seats)

    def item(self, session: Session, words: str) -> None:
        """An item typed by keys (``h n``, ``k 2``, ``t``): an entry of the deal, or a
        change to the other side's claim."""
        if self.claiming is None:
            self.take(session, words)
            return
        changed = session.claim_edit(self.claiming, words)
        if isinstance(changed, str):
            self.note(changed)
            return
        self.claiming = changed
        self.note(changed.prompt())

    def take(self, session: Session, text: str) -> None:
        """One answer given by keys, dealt with as a typed line is: another program's
        save found on the way stops the recorder as a typed line does (r reloads, q
        quits), nothing lost."""
        outcome = self.guarded(lambda: self.typed(session, text), text)
        self.say(outcome)
        self.redraw()
        self.lines_taken += 1
