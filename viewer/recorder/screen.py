"""The record mode of the viewer's app: the table as recorded so far, what comes next,
one line to type in.

Everything the scorer types goes to :class:`allfours_notation.recording.Session`,
which judges it with the referee and writes the file; this module only draws the
session and routes keys.  The table is the viewer's :class:`TableView`; Ctrl+R hands
the file recorded so far to the app's view (replay) mode, and Ctrl+R there comes back.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path
from typing import ClassVar

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical
from textual.message import Message
from textual.screen import Screen
from textual.widgets import Header, Input, Static

from allfours_notation import Card, Seat
from allfours_notation.reading.records import Play, Tag
from allfours_notation.recording.claiming import ClaimDraft
from allfours_notation.recording.entries import (
    Phase,
)
from allfours_notation.recording.session import Outcome, Session, describe
from allfours_notation.recording.storage import RecordChanged
from allfours_notation.visible import visible

from ..widgets.footer import KeyFooter
from ..widgets.table import TableView, results_renderable
from .form import StartForm
from .help import (
    CARDS_HINT,
    CLAIM_HINT,
    CONFIRM_HINT,
    STALE_HINT,
    RecorderHelp,
    entry_format,
    results_hint,
    results_mode_keys,
)
from .keys import KeyAnswers
from .widgets import EntryChosen, EntryLine, EntryList, PointsPanel, offered_text

# The phases in which someone at the table is to act; in the others (a deal or the game
# is over, a turn-up or a redeal is awaited) the table names nobody "to move".
ACTING = frozenset({Phase.CALL, Phase.ANSWER, Phase.PLAY})


class ReviewRequested(Message):
    """The scorer asks to replay what is recorded: game ``game`` (1-based) of ``path``."""

    def __init__(self, path: Path, game: int) -> None:
        super().__init__()
        self.path = path
        self.game = game


class RecorderScreen(KeyAnswers, Screen[None]):
    """Record one game into a file, entry by entry (the app's record mode)."""

    BINDINGS: ClassVar[list[BindingType]] = [
        # Quit and help first: the footer shows them even at 80 columns
        # priority: else the app's own hidden Ctrl+Q takes its place and the footer omits it
        Binding("ctrl+q", "app.quit", "Quit", priority=True,
                tooltip="Quit (everything entered is on disk)"),
        Binding("f1", "help", "Help", key_display="F1/?", tooltip="This help (or ? alone)"),
        Binding("ctrl+z", "undo", "Undo", priority=True,
                tooltip="Undo the last entry (again and again)"),
        Binding("ctrl+y", "redo", "Redo", priority=True, tooltip="Redo what was undone"),
        Binding("ctrl+e", "entries", "Correct", priority=True,
                tooltip="Go to the entries: ↑/↓ choose one; Enter corrects it, i inserts an "
                "entry before it, d deletes it; Esc returns"),
        Binding("ctrl+t", "mode", "Cards/Results", priority=True,
                tooltip="Switch between entering deals by their cards and by their results "
                "(this deal, if nothing is entered in it yet, and the next)"),
        Binding("ctrl+r", "review", "Review", priority=True,
                tooltip="Review the game recorded so far in the replay viewer (Ctrl+R returns)"),
        Binding("pagedown", "points(1)", "Score ↓", show=False, priority=True,
                tooltip="Scroll the score panel down (when it says there is more)"),
        Binding("pageup", "points(-1)", "Score ↑", show=False, priority=True,
                tooltip="Scroll the score panel up"),
        Binding("escape", "cancel", "Cancel", show=False,
                tooltip="Cancel a correction or a question; back to the entry line"),
        Binding("left", "offer(-1)", "Card", show=False, priority=True,
                tooltip="With an empty line: the previous legal card offered"),
        Binding("right", "offer(1)", "Card", show=False, priority=True,
                tooltip="With an empty line: the next legal card offered"),
    ]

    def __init__(self, *, session: Session | None = None, form: StartForm | None = None,
                 new_session: Callable[[tuple[Tag, ...]], Session] | None = None,
                 unicode: bool = True, title: str = "AFN recorder") -> None:
        super().__init__()
        self.session = session
        self.form = form  # the tags of a new game, asked first
        self.new_session = new_session
        self.unicode = unicode
        self.highlight: int | None = None  # the card chosen with ←/→, if any
        self.confirming = False
        self.correcting: int | None = None
        self.inserting = False  # the entry typed goes before entry ``correcting``
        self.pending_correction: tuple[int, str, bool] | None = None  # index, line, insert
        self.pending_item: str | None = None  # results mode: an item key awaiting its side
        self.claiming: ClaimDraft | None = None  # the other side's claim, typed by item keys
        self.last_refresh_seconds = 0.0
        self.lines_taken = 0  # lines submitted and dealt with (the tests and bench wait on it)
        self.title = title
        # The file changed on disk behind the recorder: no entry is taken until the
        # scorer reloads it (r) or quits (q).
        self.stale: str | None = None

    def compose(self) -> ComposeResult:
        yield Header()
        with Horizontal(id="rec-main"):
            yield TableView(id="rec-table")
            with Vertical(id="rec-side"):
                yield PointsPanel(id="rec-points")
                yield EntryList(id="rec-entries")
        yield Static("", id="rec-expect")
        yield Static("", id="rec-offered")
        line = EntryLine(placeholder=CARDS_HINT, id="rec-input", compact=True)
        line.key_hook = self.one_key
        line.line_hook = self.take_line
        yield line
        yield Static("", id="rec-status")
        yield KeyFooter(compact=True)

    def on_mount(self) -> None:
        self.query_one("#rec-points").border_title = "Score"
        self.query_one("#rec-entries").border_title = "Entries"
        if self.session is None and self.form is not None:
            self.app.push_screen(self.form, self.begin)
            return
        self.redraw()
        self.entry_line.focus()

    def begin(self, tags: tuple[Tag, ...] | None) -> None:
        """The form is filled in: the new game is written at once (its header)."""
        if tags is None:
            self.app.exit(0)
            return
        assert self.new_session is not None
        self.session = self.new_session(tags)
        try:
            self.session.save()
        except RecordChanged as error:
            self.say(self.changed(error))
        self.redraw()
        self.entry_line.focus()

    @property
    def entry_line(self) -> Input:
        return self.query_one("#rec-input", Input)

    # --- drawing --------------------------------------------------------------------------

    def redraw(self) -> None:
        started = time.perf_counter()
        session = self.session
        if session is None:
            return
        expecting = session.expect()
        judged = session.judgement()
        state = judged.table
        table = self.query_one(TableView)
        by_results = expecting.phase is Phase.RESULTS or (
            expecting.phase is Phase.CONFIRM and judged.game.deals and
            judged.game.deals[-1].by_results)
        if state is None:
            table.show_message("No deal yet. " + expecting.text)
        elif by_results:
            table.shown = None
            table.update(results_renderable(
                state, judged.game, unicode=self.unicode,
                title="by its results" + (f": {results_mode_keys()} then the side; Enter "
                                          "ends the deal"
                                          if expecting.phase is Phase.RESULTS else "")))
        else:
            if expecting.phase not in ACTING:  # the deal or the game is over: nobody moves
                state = replace(state, to_move=None, legal=frozenset())
            completed = self.completed_trick(session)
            if completed is not None and not state.trick:
                state = replace(state, trick=completed[1], trick_number=completed[0])
            table.show_state(state, judged.game, kibitz=None, unicode=self.unicode,
                             trick_over=completed is not None)
        self.query_one(PointsPanel).show_session(session)
        self.query_one(EntryList).show_session(session)
        if self.highlight is not None and self.highlight >= len(expecting.offered):
            self.highlight = None
        prompt = Text("Next: ", style="dim")
        prompt.append(expecting.text,
                      style="bold green" if expecting.phase is not Phase.OVER
                      else "bold yellow")
        if self.correcting is not None and self.inserting:
            prompt = Text(f"Inserting before entry {self.correcting + 1} "
                          f"({describe(session.entries[self.correcting])}): type the "
                          "entry left out, Enter; Esc cancels", style="bold magenta")
        elif self.correcting is not None:
            entry = session.entries[self.correcting]
            prompt = Text(f"Correcting entry {self.correcting + 1} ({describe(entry)}): "
                          f"{entry_format(entry)}, Enter; Esc cancels", style="bold magenta")
        self.entry_line.placeholder = self.hint(session)
        self.query_one("#rec-expect", Static).update(prompt)
        forced = self.last_card(session)
        offered = self.query_one("#rec-offered", Static)
        offered.set_class(not expecting.offered or self.correcting is not None, "-empty")
        offered.update(
            offered_text(expecting.offered, self.highlight, unicode=self.unicode,
                         last=forced is not None)
            if expecting.offered and self.correcting is None else Text(""))
        self.last_refresh_seconds = time.perf_counter() - started

    @staticmethod
    def completed_trick(session: Session) -> tuple[int, tuple[tuple[Seat, Card], ...]] | None:
        """The trick the last entry completed, its number and its cards by seat, leader
        first: it stays on the table, with who won it, until the next entry (a slip is
        cheapest to see then).  None when the last entry did not complete a trick."""
        if not session.entries or not isinstance(session.entries[-1], Play):
            return None
        deals = session.game().deals
        if not deals or not deals[-1].tricks:
            return None
        last = deals[-1].tricks[-1]
        if len(last.plays) < len(session.seats):
            return None
        before = session.judgement(session.entries[:-1]).table
        if before is None or before.to_move is None or \
                len(before.trick) != len(last.plays) - 1:
            return None
        return last.number, (*before.trick, (before.to_move, last.plays[-1].card))

    @staticmethod
    def last_card(session: Session) -> Card | None:
        """The card a seat must play because it is the last it holds (its hand known):
        Enter alone plays it.  None otherwise: a stray Enter never records a card."""
        expecting = session.expect()
        if expecting.phase is not Phase.PLAY or len(expecting.offered) != 1 or \
                expecting.actor is None:
            return None
        state = session.judgement().table
        if state is None:
            return None
        held = dict(state.hands).get(expecting.actor, ())
        unseen = dict(state.unknown).get(expecting.actor, 0)
        return expecting.offered[0] if len(held) == 1 and not unseen else None

    def hint(self, session: Session) -> str:
        """The empty entry line's hint: the keys of what the recorder waits for now."""
        if self.stale:
            return STALE_HINT
        if self.confirming:
            return "y or n (Esc cancels)"
        if self.claiming is not None:
            return CLAIM_HINT
        if self.correcting is not None:
            return "the entry as it should be (Esc cancels)"
        phase = self.phase(session)
        if phase is Phase.DEALER:
            return f"the dealer: {self.seat_keys()} (? help, Ctrl+Q quits)"
        if phase is Phase.CONFIRM:
            return CONFIRM_HINT
        if phase is Phase.RESULTS:
            return results_hint()
        return CARDS_HINT

    def say(self, outcome: Outcome) -> None:
        style = "green" if outcome.accepted else ("bold yellow" if outcome.confirm else "bold red")
        self.query_one("#rec-status", Static).update(Text(visible(outcome.message), style=style))

    # --- typing ---------------------------------------------------------------------------

    def on_input_changed(self, event: Input.Changed) -> None:
        """``?`` on an empty line opens the help at once, except just after a card: there
        it may begin a glyph (``??``, ``?!``), recorded as typed, and ``?`` alone then
        Enter opens the help (see :meth:`take_line`)."""
        session = self.session
        after_card = session is not None and bool(session.entries) and \
            isinstance(session.entries[-1], Play)
        if event.input.id == "rec-input" and event.value == "?" and not after_card:
            event.input.value = ""
            self.action_help()

    def on_input_submitted(self, event: Input.Submitted) -> None:
        if event.input.id != "rec-input":
            return
        self.take_line(event.value)

    def take_line(self, text: str) -> None:
        """A line the scorer typed and ended with Enter, taken in the order the keys came
        (the entry line calls this at once: the keys after it must find the table as
        the line left it, a one-key answer above all)."""
        if text.strip() == "?" and not self.confirming:
            self.action_help()
            self.lines_taken += 1
            return
        session = self.session
        if session is None:
            return
        try:
            outcome = self.answer_stale(text) if self.stale else self.enter(session, text)
        except RecordChanged as error:
            outcome = self.changed(error, text)
        except OSError as error:
            outcome = Outcome(False, f"not written: {error.strerror or error}")
        self.say(outcome)
        if outcome.rest and not self.entry_line.value:
            self.entry_line.value = outcome.rest  # kept for editing, never dropped
            self.entry_line.cursor_position = len(outcome.rest)
        self.redraw()
        self.lines_taken += 1

    def changed(self, error: RecordChanged, typed: str = "") -> Outcome:
        """The file is not what the recorder wrote: stop taking entries, say so (and
        what was typed and not recorded, to type again once reloaded)."""
        unrecorded = f" ('{visible(typed.strip())}' was not recorded: type it again " \
            "after reloading)" if typed.strip() else ""
        self.stale = (f"{error}{unrecorded}. Nothing more is recorded until the file is "
                      "reloaded: type r and Enter to reload it (judged again from its "
                      "text), q and Enter to quit")
        self.confirming, self.correcting, self.pending_correction = False, None, None
        self.inserting, self.pending_item, self.claiming = False, None, None
        return Outcome(False, self.stale)

    def answer_stale(self, text: str) -> Outcome:
        answer = text.strip().lower()
        if answer in ("q", "quit"):
            self.app.exit(0)
            return Outcome(True, "quitting")
        if answer not in ("r", "reload"):
            assert self.stale is not None
            return Outcome(False, self.stale)
        return self.reload()

    def reload(self) -> Outcome:
        """Read the file again, as ``allfours record`` opens it, and record on from it."""
        from allfours_notation.recording.opening import Refused, Resume, inspect

        session = self.session
        assert session is not None and session.record is not None
        record = session.record
        try:
            opened = inspect(record.path, record, house=session.house)
        except OSError as error:
            return Outcome(False, f"cannot read {record.path}: {error.strerror or error}")
        if isinstance(opened, Refused):
            problems = "; ".join(d.headline() for d in opened.diagnostics[:3])
            return Outcome(False, f"{opened.message}: {problems} — fix it and type r "
                           "again, or q to quit")
        if not isinstance(opened, Resume):
            return Outcome(False, "the file holds no unfinished game now (every game in it "
                           "is finished); type q to quit and record again")
        self.session, self.stale, self.highlight = opened.session, None, None
        return Outcome(True, f"reloaded {record.path}: {len(opened.session.entries)} entries "
                       "as the file has them now")

    def enter(self, session: Session, text: str) -> Outcome:
        """One line from the scorer: an answer to a question, a correction, or an entry."""
        answer = text.strip().lower()
        if self.confirming:
            if answer not in ("y", "yes", "n", "no"):  # asked again; nothing is lost
                return Outcome(False, "answer y or n (Esc cancels): the question stands",
                               confirm=True)
            self.confirming = False
            if answer not in ("y", "yes"):
                self.pending_correction = None
                return Outcome(False, "not recorded")
            if self.pending_correction is not None:
                index, line, insert = self.pending_correction
                self.pending_correction = None
                if insert:
                    return session.insert(index, line, confirmed=True)
                return session.correct(index, line, confirmed=True)
            return session.confirm()
        if self.correcting is not None:
            index, insert = self.correcting, self.inserting
            self.correcting, self.inserting = None, False
            outcome = session.insert(index, text) if insert else session.correct(index, text)
            if outcome.confirm:
                self.confirming = True
                self.pending_correction = (index, text, insert)
            return outcome
        expecting = session.expect()
        if not answer and expecting.phase is Phase.PLAY and expecting.offered:
            forced = self.last_card(session)
            if self.highlight is None and forced is None:  # a stray Enter never records a card
                return Outcome(False, "which card? type it (js), its number, or ←/→ then Enter")
            text = str(expecting.offered[self.highlight] if self.highlight is not None
                       else forced)
        outcome = self.typed(session, text)
        self.confirming = outcome.confirm
        if outcome.accepted:
            self.highlight = None
        return outcome

    def typed(self, session: Session, text: str) -> Outcome:
        """An entry for the session (which writes a deal in the file from its first entry
        on: a file left between deals ends in a whole deal)."""
        return session.type(text)

    def note(self, text: str) -> None:
        self.query_one("#rec-status", Static).update(Text(text, style="bold cyan"))

    # --- actions --------------------------------------------------------------------------

    def action_mode(self) -> None:
        session = self.session
        if session is None:
            return
        self.pending_item = None
        outcome = self.guarded(lambda: session.set_mode(not session.results_mode))
        if outcome.accepted:
            self.note(outcome.message)
        else:
            self.say(outcome)
        self.redraw()

    def action_points(self, delta: int) -> None:
        """PgUp/PgDn scroll the score panel; in the entries list they move its cursor."""
        focused = self.focused
        if isinstance(focused, EntryList):
            focused.action_cursor(10 * delta)
            return
        self.query_one(PointsPanel).scroll_points(delta)

    def action_offer(self, delta: int) -> None:
        """←/→ choose among the legal cards while the entry line is empty; elsewhere
        (a typed line, the start form) they move the text cursor as usual."""
        focused = self.focused
        if not isinstance(focused, Input):
            return
        if focused.value or focused.id != "rec-input":
            (focused.action_cursor_right if delta > 0 else focused.action_cursor_left)()
            return
        if self.session is None:
            return
        offered = self.session.expect().offered
        if offered:
            if self.highlight is None:  # the first press picks the first (→) or last (←)
                self.highlight = 0 if delta > 0 else len(offered) - 1
            else:
                self.highlight = (self.highlight + delta) % len(offered)
            self.redraw()

    def action_undo(self) -> None:
        session = self.session
        if session is None:
            return
        # (after the other side's y in results mode: with the deal the recorder began)
        self.say(self.guarded(session.undo))
        self.redraw()

    def action_redo(self) -> None:
        if self.session is not None:
            self.say(self.guarded(self.session.redo))
            self.redraw()

    def guarded(self, step: Callable[[], Outcome], typed: str = "") -> Outcome:
        """A step that writes the file (an entry given by keys, an undo, a redo):
        refused while the file is stale; a change found on disk makes it stale."""
        if self.stale:
            return Outcome(False, self.stale)
        try:
            return step()
        except RecordChanged as error:
            return self.changed(error, typed)
        except OSError as error:
            return Outcome(False, f"not written: {error.strerror or error}")

    def action_entries(self) -> None:
        entries = self.query_one(EntryList)
        if entries.line_count:
            entries.focus()
            self.query_one("#rec-status", Static).update(
                Text("↑/↓ choose an entry: Enter corrects it, i inserts one before it, "
                     "d deletes it; Esc returns", style="magenta"))

    def on_entry_chosen(self, message: EntryChosen) -> None:
        session = self.session
        self.confirming = False
        self.entry_line.focus()
        if message.action == "delete" and session is not None:
            self.say(self.guarded(lambda: session.delete(message.index)))
        else:
            self.correcting = message.index
            self.inserting = message.action == "insert"
            self.note("")  # the prompt above says what to type now
        self.redraw()

    def action_cancel(self) -> None:
        self.pending_item = None
        self.claiming = None
        self.correcting = None
        self.inserting = False
        self.confirming = False
        self.pending_correction = None
        self.entry_line.focus()
        self.query_one("#rec-status", Static).update("")
        self.redraw()

    def action_review(self) -> None:
        """Replay the game as it is on disk, at its last entry, in the viewer's mode."""
        session = self.session
        if session is None or session.record is None:
            self.query_one("#rec-status", Static).update(
                Text("nothing on disk to review yet", style="bold yellow"))
            return
        self.post_message(ReviewRequested(session.record.path, session.index))

    def action_help(self) -> None:
        bindings = [b for b in self.BINDINGS if isinstance(b, Binding)]
        session = self.session
        results = session is not None and (session.results_mode or
                                           self.phase(session) is Phase.RESULTS)
        self.app.push_screen(RecorderHelp(bindings, results=results))
