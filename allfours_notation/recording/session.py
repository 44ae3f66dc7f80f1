"""A recording session: the game being recorded, one entry at a time, always on disk.

The session holds the game's tags and the entries made so far.  Each new entry is
judged by the referee against the game before it (:mod:`.referee`): refused with
the reason, accepted, or — a revoke, an undertrump — accepted once confirmed.
After every accepted change the whole record (earlier games of the file verbatim,
then this game in canonical AFN, with each finished deal's ``claim`` and ``total``
as the scorer computes them) is re-parsed to prove it reads back as the same
records, then written atomically.  Undo and redo step through snapshots of the
entries; a correction replaces an earlier entry and re-judges every later one,
keeping those that became invalid and saying why.

No Textual here: the recorder's screens (``viewer.recorder``) drive this class.
"""

from __future__ import annotations

from dataclasses import replace

from ..cards import DEALT, RUN_BATCH, Seat
from ..checking.parsing import parse
from ..diagnostics import Diagnostic
from ..frozen import frozen
from ..reading.records import (
    Abandoned,
    Award,
    Call,
    CallKind,
    Claim,
    ClaimItem,
    Comment,
    CommentStyle,
    Concede,
    Deal,
    Discard,
    Game,
    Hand,
    OpeningEvent,
    Pack,
    Penalty,
    Play,
    Redeal,
    RedealReason,
    Results,
    Tag,
    Total,
    Trick,
    TurnUp,
)
from ..reading.table import side_of
from ..referee.deal import Phase as TablePhase  # the referee's phases; Phase is the recorder's
from ..referee.profiles import Options, Profile, resolve_options
from ..referee.scoring import Point
from ..referee.sheet import claim_for, total_for
from ..referee.state import DealResult
from ..writing.formatter import format_game
from .entries import (
    Agreed,
    Annotation,
    DealStart,
    Entry,
    Expectation,
    Item,
    Phase,
    ResultsDone,
    Ruling,
    read_entry,
)
from .referee import Judge, Judgement, Verdict, findings, verdict
from .storage import RecordFile

__all__ = ["COMPUTED_NOTE", "Outcome", "Session", "entries_of_game"]

# The comment the recorder puts after a claim the players made, saying what the
# rules give: both are kept, the dispute shows in 'allfours check'.
COMPUTED_NOTE = " computed: "
# Before a director's ruling on a deal recorded by its results: what the scorer had.
RECORDED_NOTE = " recorded: "
# The tag that says a game is recorded by its results (the recorder's own, kept as is).
ENTRY_TAG = "Entry"
# The judgements a session finds by identity before it hashes the entries (see judgement).
_RECENT = 4


@frozen
class Outcome:
    """What became of one keystroke line: one line for the status bar."""

    accepted: bool
    message: str
    confirm: bool = False  # a revoke or undertrump: enter it again with confirmed=True
    finding: Diagnostic | None = None


class Session:
    """The game being recorded and its entries; see the module docstring."""

    def __init__(self, tags: tuple[Tag, ...], *, entries: tuple[Entry, ...] = (),
                 prefix: str = "", index: int = 1, record: RecordFile | None = None,
                 overrides: dict[str, str] | None = None,
                 house: Profile | None = None, suffix: str = "",
                 results_mode: bool | None = None) -> None:
        self.tags = tags
        # Results mode: new deals are recorded by their results ([Entry "results"]),
        # switchable per deal (the screen toggles it).
        self.results_mode = results_mode if results_mode is not None else any(
            tag.name == ENTRY_TAG and tag.value.lower() == "results" for tag in tags)
        self.prefix = prefix
        # What stands after the game in its file (comments someone added there): kept.
        self.suffix = suffix.lstrip("\r\n")
        self.index = index
        self.record = record
        self.house = house
        header = Game(tags=tags, index=index)
        self.options: Options = resolve_options(header, overrides=overrides or {},
                                                house=house)[0]
        self.seats = header.seats
        self.entries: tuple[Entry, ...] = entries
        self.flags: dict[int, str] = {}  # entry index → why it is invalid after a correction
        self._past: list[tuple[Entry, ...]] = []
        self._future: list[tuple[Entry, ...]] = []
        self._judged: dict[tuple[Entry, ...], Judgement] = {}
        self._recent: list[tuple[tuple[Entry, ...], Judgement]] = []  # the last asked, by identity
        self._made: tuple[tuple[Entry, ...], Game] | None = None  # game() of those entries
        self._expected: tuple[tuple[Entry, ...], bool, Expectation] | None = None  # expect()
        self._built: list[_Built] = []  # the deals last built, with their entries
        # per deal: the deal and its result as the referee gave them, and the deal scored
        self._scored: dict[int, tuple[Deal, DealResult, Deal]] = {}
        self._written: tuple[Deal, ...] = ()  # the deals of the game last proved
        self._judge = Judge(self.options)
        self._pending: Entry | None = None  # an entry awaiting confirmation
        self._proved: set[Deal] = set()  # deals whose text was proved to read back

    # -- the game --------------------------------------------------------------------------

    def judgement(self, entries: tuple[Entry, ...] | None = None) -> Judgement:
        """The referee's word on ``entries`` (default: the session's), cached.

        The same tuple of entries is asked about many times an entry (the screen, the
        expectation, the ruling): it is found by identity first, as hashing a tuple
        hashes every entry in it, the whole game's."""
        key = self.entries if entries is None else entries
        for known, found in self._recent:
            if known is key:
                return found
        cached = self._judged.get(key)
        if cached is None:
            if len(self._judged) > 8:
                self._judged.clear()
            cached = self._judged[key] = self._judge.judge(build_game(self.tags, key,
                                                                      self.index, self._built))
        self._recent = [(key, cached), *self._recent[:_RECENT - 1]]
        return cached

    def game(self) -> Game:
        """The game as it is written: finished deals with their claim and total, and
        ``[Result]`` once the game is decided.  Made once for the session's entries
        (saving them writes it, the screen shows it)."""
        made = self._made
        if made is None or made[0] is not self.entries:
            made = self._made = (self.entries, self._game())
        return made[1]

    def _game(self) -> Game:
        judged = self.judgement()
        finished = self.finished_deals(judged)
        results = judged.replayed.deals  # one per deal that is over
        deals = []
        for position, deal in enumerate(judged.game.deals):
            if deal.number in finished and position < len(results):
                deal = self._scored_deal(position, deal, results[position])
            deals.append(deal)
        winner = self.winner(judged) if self.settled() else None
        tags = tuple(replace(tag, value=winner or "*") if tag.name == "Result" else tag
                     for tag in self.tags)
        return Game(tags=tags, deals=tuple(deals), index=self.index)

    def _scored_deal(self, position: int, deal: Deal, result: DealResult) -> Deal:
        """:func:`_scored`, kept per deal while the deal and the referee's result for it
        are the same objects (the deals before the one being typed: see build_game)."""
        kept = self._scored.get(position)
        if kept is not None and kept[0] is deal and kept[1] is result:
            return kept[2]
        scored = _scored(deal, result, self.seats, self.options)
        self._scored[position] = (deal, result, scored)
        return scored

    def text(self, game: Game | None = None) -> str:
        """The whole file: the games before this one as they were, then this one
        (``game``: :meth:`game`, when the caller has it already)."""
        body = format_game(game or self.game())
        if self.suffix.strip():
            body += self.suffix if self.suffix.endswith("\n") else self.suffix + "\n"
        if not self.prefix.strip():
            return "% AFN 1\n" + body
        return self.prefix.rstrip("\n") + "\n\n" + body

    def finished_deals(self, judged: Judgement | None = None) -> set[int]:
        """The deals that are over: every one before the last, and the last when it is."""
        judged = judged or self.judgement()
        deals = judged.game.deals
        done = {deal.number for deal in deals[:-1]}
        if deals and judged.finished:
            done.add(deals[-1].number)
        return done

    def settled(self) -> bool:
        """Whether the last deal needs nothing more from the table: the other side
        confirmed it (or claimed), or it ended without points to confirm."""
        deal = _last_deal_entries(self.entries)
        if deal is None:
            return True
        return any(isinstance(e, (Agreed, Claim, Ruling, Redeal, Abandoned, Concede))
                   for e in deal)

    def in_results(self) -> bool:
        """Whether the last deal is recorded by its results and still being entered."""
        deal = _last_deal_entries(self.entries)
        if deal is None:
            return False
        if any(isinstance(e, ResultsDone) for e in deal) or \
                any(isinstance(e, (Redeal, Abandoned, Concede)) for e in deal):
            return False
        if any(isinstance(e, Item) for e in deal):
            return True
        return self.results_mode and not any(
            isinstance(e, (Hand, TurnUp, Call, Discard, Pack, Play, Claim)) for e in deal)

    def winner(self, judged: Judgement | None = None) -> str | None:
        """The side that won, once it has."""
        return (judged or self.judgement()).closed.winner

    def scores(self, judged: Judgement | None = None) -> tuple[tuple[str, int], ...]:
        """The running score: the deals scored so far (and a turned Jack or a gift of
        the deal being played, scored at once)."""
        return (judged or self.judgement()).replayed.scores

    @property
    def over(self) -> bool:
        return self.expect().phase is Phase.OVER

    # -- what comes next --------------------------------------------------------------------

    def expect(self) -> Expectation:
        """What the table waits for now, and who acts (the referee's ``expects``).  Asked
        some ten times an entry (reading it, placing it, the screen): worked out once for
        the session's entries and mode."""
        known = self._expected
        if known is None or known[0] is not self.entries or known[1] != self.results_mode:
            known = self._expected = (self.entries, self.results_mode, self._expect())
        return known[2]

    def _expect(self) -> Expectation:
        judged = self.judgement()
        seats = self.seats
        deals = judged.game.deals
        last = deals[-1] if deals else None
        winner = self.winner(judged)
        if last is not None and self.in_results():
            return self._expect_results(last, judged)
        if last is not None and (judged.finished or winner is not None) and \
                not self.settled():
            return self._expect_confirm(last, judged)
        if winner is not None or (last is not None and
                                  isinstance(last.ending, (Abandoned, Concede))):
            why = f"{winner} wins" if winner else "abandoned"
            return Expectation(Phase.OVER, None, f"the game is over ({why})", seats=seats)
        if last is None or judged.finished:
            proposed = judged.expects.seat if last is not None else None
            text = "who deals the first deal? type N, E, S or W" if proposed is None else \
                f"deal {len(deals) + 1}: {proposed.letter} deals (Enter), or type another seat"
            return Expectation(Phase.DEALER, None, text, default=proposed, seats=seats)
        return self._expect_in_deal(last, judged)

    def _expect_results(self, deal: Deal, judged: Judgement) -> Expectation:
        elder = judged.open.current.elder if judged.open.current is not None else None
        so_far = judged.so_far.deals
        points = _points_text(so_far[-1].points if so_far else ())
        text = (f"deal {deal.number} by results, {deal.dealer.letter} deals: {points}. "
                "An item and its side; Enter ends")
        return Expectation(Phase.RESULTS, None, text, seats=self.seats, dealer=deal.dealer,
                           elder=elder)

    def _expect_confirm(self, deal: Deal, judged: Judgement) -> Expectation:
        results = judged.replayed.deals
        points = _points_text(results[-1].points if results else ())
        scores = "  ".join(f"{side} {value}" for side, value in self.scores(judged))
        text = f"deal {deal.number}: {points}, score {scores}. Other side: y agrees, c claims"
        return Expectation(Phase.CONFIRM, None, text, seats=self.seats)

    def _expect_in_deal(self, deal: Deal, judged: Judgement) -> Expectation:
        seats, dealer = self.seats, deal.dealer
        expects = judged.expects
        actor = expects.seat
        runs = sum(call.kind is CallKind.RUNS for call in deal.calls)
        # a hand may be typed until the first card: as dealt, or after a run the batch
        size = (RUN_BATCH if runs else DEALT) if not deal.tricks else None
        if judged.exhausted:
            return Expectation(Phase.EXHAUSTED, dealer, "the pack is exhausted: 'redeal' "
                               f"({dealer.letter} deals again)", seats=seats)
        if expects.kind is TablePhase.TURN_UP:
            text = f"{dealer.letter} deals: the turn-up (hands first if known: 'S js 9h …')"
            return Expectation(Phase.TURN, dealer, text, seats=seats, hand_size=size)
        if expects.kind is TablePhase.CALL and actor is not None:
            return Expectation(Phase.CALL, actor, f"{actor.letter} stands (s) or begs (b)",
                               seats=seats, hand_size=size)
        if expects.kind is TablePhase.ANSWER:
            return Expectation(Phase.ANSWER, dealer, f"{dealer.letter} gives one (g) or runs "
                               "(r)", seats=seats, hand_size=size)
        if expects.kind is TablePhase.RUN:
            return Expectation(Phase.RUN_TURN, dealer, f"run {runs}: its cards if known "
                               "('S 3c 4c 5c'), then the turn-up", seats=seats,
                               hand_size=size)
        may_beg = expects.may_beg_again  # the referee's answer, not a second copy of it
        number = len(deal.tricks) + (0 if deal.tricks and
                                     len(deal.tricks[-1].plays) < len(seats) else 1)
        who = actor.letter if actor is not None else "?"
        text = f"{who} to play to trick {number}" + (" (or b: beg again)" if may_beg else "")
        return Expectation(Phase.PLAY, actor, text, offered=judged.offered, may_beg=may_beg,
                           seats=seats, hand_size=size)

    # -- entries ------------------------------------------------------------------------------

    def type(self, text: str, *, confirmed: bool = False) -> Outcome:
        """One line typed by the scorer."""
        read = read_entry(text, self.expect())
        if isinstance(read, str):
            return Outcome(False, read)
        if isinstance(read, Annotation):
            return self.annotate(read)
        return self.add(read, confirmed=confirmed)

    def add(self, entry: Entry, *, confirmed: bool = False) -> Outcome:
        """Judge ``entry`` after the last one; keep it if the referee allows.

        In results mode the next deal begins when the other side has confirmed the last
        (or claimed), dealt by whoever the rules say deals next: one undo takes back both.
        """
        expecting = self.expect()
        placed = _placement_problem(entry, expecting, self.judgement().exhausted)
        if placed is not None:
            return Outcome(False, placed)
        if isinstance(entry, Ruling) and self.entries and \
                isinstance(self.entries[-1], DealStart) and \
                sum(isinstance(e, DealStart) for e in self.entries) > 1:
            # the next deal has only begun: the ruling is on the deal before it
            self._change((*self.entries[:-1], entry, self.entries[-1]))
            ruled = len(self.judgement().game.deals) - 1
            return Outcome(True, _describe(entry) + f" (deal {ruled})")
        outcome = self._try(self.entries, entry, len(self.entries), confirmed=confirmed)
        if outcome.accepted and self.results_mode and \
                expecting.phase in (Phase.CONFIRM, Phase.RESULTS):
            following = self.expect()
            if following.phase is Phase.DEALER and following.default is not None:
                self._past.pop()
                before = self.entries[:-1]
                self._set((*self.entries, DealStart(dealer=following.default)))
                self._past.append(before)
                outcome = replace(outcome, message=outcome.message +
                                  f"; deal {len(self.judgement().game.deals)}: "
                                  f"{following.default.letter} deals")
        return outcome

    def confirm(self) -> Outcome:
        """Record the entry that was waiting for confirmation (a revoke, an undertrump)."""
        entry, self._pending = self._pending, None
        if entry is None:
            return Outcome(False, "nothing to confirm")
        return self.add(entry, confirmed=True)

    def _try(self, before: tuple[Entry, ...], entry: Entry, at: int, *,
             confirmed: bool) -> Outcome:
        after = (*before, entry)
        ruling, finding = self._ruling(before, after)
        if ruling == Verdict.REFUSE:
            assert finding is not None
            return Outcome(False, f"refused: {finding.message}", finding=finding)
        if ruling == Verdict.CONFIRM and not confirmed:
            assert finding is not None
            self._pending = entry
            return Outcome(False, f"{finding.message}. Record it? (y/n)", confirm=True,
                           finding=finding)
        self._change((*self.entries[:at], entry, *self.entries[at + 1:])
                     if at < len(self.entries) else after)
        message = f"{_describe(entry)}" + (f" — {finding.message}" if finding else "")
        if isinstance(entry, Penalty):
            value = self.penalty_values().get(at)
            message += f": {value}" + ("" if value == "no points" or self.judgement().finished
                                       else " (counted when the deal ends)")
        return Outcome(True, message, finding=finding)

    def annotate(self, annotation: Annotation) -> Outcome:
        """Attach a comment or a glyph to the last entry."""
        if not self.entries:
            return Outcome(False, "nothing to comment on yet")
        last = self.entries[-1]
        if annotation.glyph is not None:
            if not isinstance(last, Play):
                return Outcome(False, "a glyph goes after a card played")
            changed: Entry = replace(last, glyph=annotation.glyph)
        else:
            assert annotation.comment is not None
            if last.trailing and last.trailing[-1].style is CommentStyle.LINE:
                # found by fuzzing the entry line: the record would not read back
                return Outcome(False, "a ';' comment runs to the end of its line, so nothing "
                               "can follow it on this entry: undo it and write one comment")
            changed = replace(last, trailing=(*last.trailing, annotation.comment))
        self._change((*self.entries[:-1], changed))
        return Outcome(True, f"noted on {_describe(last)}")

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
            return Outcome(True, f"undone: {_describe(current[-1])}")
        self._set(self._past[-1])
        self._past.pop()
        self._future.append(current)
        self.flags = {}  # the marks of a correction undone are stale
        return Outcome(True, f"undone: {_describe(current[-1])}" if current and
                       current[:-1] == self.entries else "undone")

    def redo(self) -> Outcome:
        if not self._future:
            return Outcome(False, "nothing to redo")
        current = self.entries
        self._set(self._future[-1])
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
        read = read_entry(text, self._expect_after(before))
        if isinstance(read, str):
            return Outcome(False, read)
        if isinstance(read, Annotation):
            return Outcome(False, "write the entry itself, not a comment")
        outcome = self._try(before, read, index, confirmed=confirmed)
        if outcome.accepted:
            self.flags = self._flag_from(index + 1)
            bad = len(self.flags)
            outcome = replace(outcome, message=f"entry {index + 1} corrected; " +
                              (f"{bad} later entr{'y is' if bad == 1 else 'ies are'} now "
                               "invalid" if bad else "every later entry still stands"))
        return outcome

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
        read = read_entry(text, self._expect_after(before))
        if isinstance(read, str):
            return Outcome(False, read)
        if isinstance(read, Annotation):
            return Outcome(False, "write the entry itself, not a comment")
        placed = _placement_problem(read, self._expect_after(before),
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
                             f"{_describe(read)}")

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
        return self._rewrite(index, (), 1, f"deleted entry {index + 1}: {_describe(gone)}")

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
                               f"({_describe(old[at - len(new) + drop])}) would then be "
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
        return verdict(findings(self.judgement(before), judged), judged.unfinished)

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

    def _change(self, entries: tuple[Entry, ...]) -> None:
        current = self.entries
        self._set(entries)
        self._past.append(current)
        self._future.clear()

    def _set(self, entries: tuple[Entry, ...]) -> None:
        """Make ``entries`` the session's, on disk first: if the write fails, nothing changed."""
        previous = self.entries
        self.entries = entries
        try:
            self.save()
        except BaseException:
            self.entries = previous
            raise
        self.flags = {i: m for i, m in self.flags.items() if i < len(entries)}

    def save(self) -> None:
        """Write the record, once its text is proved to read back as this game.

        Deals already proved (unchanged since) are not parsed again: a deal's text
        does not depend on the others'.
        """
        game = self.game()
        written = self._written
        fresh = tuple(deal for at, deal in enumerate(game.deals)
                      if not (at < len(written) and written[at] is deal)
                      and deal not in self._proved)  # by identity first: a hash is deep
        probe = replace(game, deals=fresh)
        reread = parse(format_game(probe)).games
        if len(reread) != 1 or reread[0].broken or \
                replace(reread[0], index=1) != replace(probe, index=1, ended=True):
            raise RuntimeError("the recorded game does not read back the same; not written")
        self._proved.update(fresh)
        if len(self._proved) > 4 * len(game.deals) + 64:
            self._proved = set(game.deals)
        self._written = game.deals
        if self.record is not None:
            self.record.write(self.text(game))

    # -- for the screen -----------------------------------------------------------------------

    def last_deal_result(self) -> DealResult | None:
        deals = self.judgement().replayed.deals
        return deals[-1] if deals else None

    def penalty_values(self) -> dict[int, str]:
        """What each penalty entry (by index) gives, in points to whom (``S 1``): the
        penalty points the referee gives the offender's opponents in its deal (counted
        when the deal ends: until then, as if it ended now); ``no points`` when none."""
        judged = self.judgement()
        deals = judged.so_far.deals
        values: dict[int, str] = {}
        deal = -1
        for index, entry in enumerate(self.entries):
            if isinstance(entry, DealStart):
                deal += 1
            elif isinstance(entry, Penalty) and 0 <= deal < len(deals):
                result = deals[deal]
                offender = side_of(entry.offender, self.seats)
                points = [p for p in (result.points or result.provisional)
                          if p.item is ClaimItem.PENALTY and p.side != offender]
                values[index] = _points_text(tuple(points)) if points else "no points"
        return values

    def disputes(self) -> list[Diagnostic]:
        """What the players claimed that the rules do not give (AFN4xx), per the full record."""
        from ..checking import check

        return [d for d in check(self.game(), self.options).diagnostics
                if d.code.startswith("AFN4")]


# --- building the game from entries ------------------------------------------------------------


# A deal built from its entries (its DealStart first), kept to be used again while they
# are the same objects: see build_game.
_Built = tuple[tuple[Entry, ...], Deal]


def build_game(tags: tuple[Tag, ...], entries: tuple[Entry, ...], index: int,
               built: list[_Built] | None = None) -> Game:
    """The records ``entries`` stand for: deals with their tricks, no claims computed.

    ``built``: the deals of an earlier call with their entries, refilled with this
    call's.  A deal whose entries are the very same objects is that deal again, not a
    new copy: while a deal is typed the ones before it are not rebuilt, and being the
    same objects they are compared and scored by identity later, not field by field
    (the entries are frozen, and a deal is made from its entries and number alone)."""
    players = len(Game(tags=tags).seats) or 2
    groups = _deal_entries(entries)
    deals: list[Deal] = []
    for number, group in enumerate(groups, start=1):
        old = built[number - 1] if built is not None and number <= len(built) else None
        if old is not None and len(old[0]) == len(group) and \
                all(was is now for was, now in zip(old[0], group, strict=True)):
            deals.append(old[1])
        else:
            start = group[0]
            assert isinstance(start, DealStart)
            deals.append(_deal(number, start, list(group[1:]), players))
    if built is not None:
        built[:] = list(zip(groups, deals, strict=True))
    return Game(tags=tags, deals=tuple(deals), ended=True, index=index)


def _deal_entries(entries: tuple[Entry, ...]) -> list[tuple[Entry, ...]]:
    """The entries of each deal, its DealStart first (entries before the first one, of
    no deal, are left out)."""
    starts = [at for at, entry in enumerate(entries) if isinstance(entry, DealStart)]
    ends = [*starts[1:], len(entries)]
    return [entries[at:end] for at, end in zip(starts, ends, strict=False)]


def _deal(number: int, start: DealStart, entries: list[Entry], players: int) -> Deal:
    opening: list[OpeningEvent] = []
    dealt_late: list[Hand] = []
    tricks: list[list[Play]] = []
    penalties: list[Penalty] = []
    claim: Claim | None = None
    ending: Redeal | Abandoned | Concede | None = None
    items: list[Award] = []
    item_comments: list[Comment] = []
    done = False
    ruling: Ruling | None = None
    ran = False
    for entry in entries:
        if isinstance(entry, Item):
            items.append(entry.award)
            item_comments.extend((*entry.leading, *entry.trailing))
            continue
        if isinstance(entry, ResultsDone):
            done = True
            continue
        if isinstance(entry, Ruling):
            ruling = entry
            continue
        if isinstance(entry, Agreed):
            continue
        if isinstance(entry, Hand):
            turned = any(isinstance(e, TurnUp) for e in opening)
            if turned and not ran:
                dealt_late.append(entry)  # a hand as dealt, entered after the turn-up
            else:
                opening.append(entry)
        elif isinstance(entry, (TurnUp, Call, Discard, Pack)):
            ran = ran or (isinstance(entry, Call) and entry.kind is CallKind.RUNS)
            opening.append(entry)
        elif isinstance(entry, Play):
            if not tricks or len(tricks[-1]) >= players:
                tricks.append([])
            tricks[-1].append(entry)
        elif isinstance(entry, Penalty):
            played = sum(map(len, tricks))  # written after the trick it was typed in
            penalties.append(replace(entry, after_plays=-(-played // players) * players))
        elif isinstance(entry, Claim):
            claim = entry
        elif isinstance(entry, (Redeal, Abandoned, Concede)):
            ending = entry
    total_played = sum(map(len, tricks))
    penalties = [replace(p, after_plays=min(p.after_plays or 0, total_played))
                 for p in penalties]
    if dealt_late:
        first_turn = next(i for i, e in enumerate(opening) if isinstance(e, TurnUp))
        opening[first_turn:first_turn] = dealt_late
    results: Results | None = None
    if items or done or (isinstance(ending, Redeal) and not opening and not tricks):
        results = Results(awards=_grouped(items), trailing=tuple(item_comments))
    if ruling is not None:
        recorded: tuple[Comment, ...] = ()
        if results is not None:  # the scorer's results, kept beside the ruling
            from ..writing.formatter import awards_text

            written = awards_text("", results.awards, Deal(number=number, dealer=start.dealer))
            recorded = (Comment(RECORDED_NOTE + written.strip() + " ", CommentStyle.BRACE),)
        results = Results(awards=_grouped(list(ruling.awards)), director=True,
                          leading=recorded, trailing=(*ruling.leading, *ruling.trailing))
    # a results deal the scorer finished: marked by a total, which the session writes
    total = Total(scores=()) if done and not tricks else None
    return Deal(number=number, dealer=start.dealer, opening=tuple(opening),
                tricks=tuple(Trick(number=i + 1, plays=tuple(plays))
                             for i, plays in enumerate(tricks)),
                penalties=tuple(penalties), claim=claim, ending=ending,
                leading=start.leading, trailing=start.trailing, results=results, total=total)


def _grouped(awards: list[Award]) -> tuple[Award, ...]:
    """Awards grouped by seat, seats in the order they first appear (as the parser keeps
    them, so that the written line reads back the same), items in counting order."""
    order = list(dict.fromkeys(award.seat for award in awards))
    rank = list(ClaimItem)
    return tuple(sorted(awards, key=lambda a: (order.index(a.seat), rank.index(a.item))))


def _last_deal_entries(entries: tuple[Entry, ...]) -> tuple[Entry, ...] | None:
    """The entries of the last deal, after its DealStart (``None`` before any deal)."""
    for index in range(len(entries) - 1, -1, -1):
        if isinstance(entries[index], DealStart):
            return entries[index + 1:]
    return None


def _points_text(points: tuple[Point, ...]) -> str:
    """``NS 2  EW 1`` for a deal's points so far (nothing yet: "no points yet")."""
    by_side: dict[str, int] = {}
    for point in points:
        by_side[point.side] = by_side.get(point.side, 0) + point.points
    return "  ".join(f"{side} {value}" for side, value in by_side.items()) or "no points yet"


def _scored(deal: Deal, result: DealResult, seats: tuple[Seat, ...], options: Options) -> Deal:
    """A finished deal with the claim and total the computed result gives; a claim the
    players made is kept, with what the rules give noted after it.  A deal recorded by
    its results gets no computed claim (its results say it)."""
    computed = claim_for(result.points, seats, options)
    claim = deal.claim
    total = total_for(result.scores_after, seats)
    if claim is None and deal.results is not None:
        return replace(deal, total=total)
    if claim is None:
        claim = computed
    elif computed is None or claim.awards != computed.awards:
        from ..writing.formatter import claim_text

        said = claim_text(computed, deal) if computed is not None else "nothing"
        note = Comment(COMPUTED_NOTE + said.removeprefix("claim ") + " ", CommentStyle.BRACE)
        claim = replace(claim, trailing=(note,))
    return replace(deal, claim=claim, total=total)


# The recorder's own entries, not events of the table: who deals, the other side's word,
# a deal's results, a director's ruling.  Each is taken where the recorder is between
# deals, at a deal's end or entering a deal by its results; while a deal is played the
# table's events go to the table, which judges whether each may come now.
_OWN_ENTRIES = (DealStart, Agreed, Claim, Ruling, Item, ResultsDone)
_BETWEEN: dict[Phase, tuple[type, ...]] = {
    Phase.DEALER: (DealStart, Claim, Ruling),
    Phase.RESULTS: (Item, ResultsDone, Ruling, Redeal, Abandoned, Concede),
    Phase.CONFIRM: (Agreed, Claim, Ruling),
    Phase.OVER: (Claim, Ruling),
}


def _placement_problem(entry: Entry, expecting: Expectation, exhausted: bool) -> str | None:
    """Why ``entry`` cannot come now, when the recorder is not at a point that takes it
    (``exhausted``: the table's word that the pack is used up)."""
    if isinstance(entry, type(None)):
        return "nothing entered"
    taken = _BETWEEN.get(expecting.phase)
    if not isinstance(entry, taken) if taken is not None else isinstance(entry, _OWN_ENTRIES):
        return f"not now: {expecting.text}"
    if isinstance(entry, Redeal) and entry.reason is RedealReason.EXHAUSTED and \
            not exhausted and expecting.phase is not Phase.RESULTS:
        return "refused: 'redeal exhausted' only when a run has used up the pack"
    return None


def _describe(entry: Entry) -> str:
    if isinstance(entry, DealStart):
        return f"{entry.dealer.letter} deals"
    if isinstance(entry, Hand):
        return f"{entry.seat.letter} holds " + " ".join(str(c) if c else "??"
                                                        for c in entry.cards)
    if isinstance(entry, TurnUp):
        return f"turned up {entry.card}"
    if isinstance(entry, Call):
        return f"{entry.seat.letter} {entry.kind.value}"
    if isinstance(entry, Discard):
        return f"{entry.seat.letter} discards " + " ".join(str(c) if c else "??"
                                                             for c in entry.cards)
    if isinstance(entry, Pack):
        return "the pack, top first: " + " ".join(str(c) if c else "??" for c in entry.cards)
    if isinstance(entry, Play):
        return f"{entry.seat.letter if entry.seat else '?'} plays {entry.card}"
    if isinstance(entry, Penalty):
        return f"penalty {entry.offender.letter} {entry.kind.value}"
    if isinstance(entry, Redeal):
        return f"redeal {entry.reason.value}"
    if isinstance(entry, Abandoned):
        return "abandoned"
    if isinstance(entry, Concede):
        return f"{entry.seat.letter} concedes"
    if isinstance(entry, Item):
        award = entry.award
        return f"{award.seat.letter} {award.item.value}" + \
            (f" {award.points}" if award.points is not None else "")
    if isinstance(entry, ResultsDone):
        return "results complete"
    if isinstance(entry, Agreed):
        return "agreed by the other side"
    if isinstance(entry, Ruling):
        return "director's ruling: " + " ".join(f"{a.seat.letter} {a.item.value}"
                                                for a in entry.awards)
    return "claim " + " ".join(f"{a.seat.letter} {a.item.value}" for a in entry.awards)


def describe(entry: Entry) -> str:
    """One line for an entry in the list of entries."""
    return _describe(entry)


# --- resuming ----------------------------------------------------------------------------------


def entries_of_game(game: Game, options: Options) -> tuple[Entry, ...]:
    """The entries that record ``game`` again: what resuming a file starts from.

    Claims equal to what the rules compute and every total are left out (the
    session writes them again); a claim that differs is the players' and is kept.
    """
    judged = Judge(options).judge(replace(game, deals=tuple(replace(d, claim=None, total=None)
                                                            for d in game.deals)))
    seats = game.seats
    entries: list[Entry] = []
    results = judged.replayed.deals  # the deals that are over (not one still being played)
    for position, deal in enumerate(game.deals):
        entries.append(DealStart(dealer=deal.dealer, leading=deal.leading,
                                 trailing=deal.trailing))
        entries.extend(deal.opening)
        entries.extend(deal.plays())
        entries.extend(deal.penalties)
        if deal.ending is not None:
            entries.append(deal.ending)
        line = deal.results
        if line is not None:
            scorer: Results | None = line
            if line.director:
                scorer = _recorded_results(line)
            if scorer is not None:
                entries.extend(Item(award=award) for award in scorer.awards)
                if deal.total is not None:
                    entries.append(ResultsDone())
        claim = deal.claim
        if claim is not None:
            points = results[position].points if position < len(results) else ()
            computed = claim_for(points, seats, options)
            mine = replace(claim, trailing=tuple(c for c in claim.trailing
                                                 if not c.text.startswith(COMPUTED_NOTE)))
            if deal.results is not None or computed is None or \
                    mine.awards != computed.awards or mine.leading or mine.trailing:
                entries.append(mine)
        if line is not None and line.director:
            entries.append(Ruling(awards=line.awards))
        if position < len(game.deals) - 1 and deal.ending is None:
            entries.append(Agreed())  # a later deal began: the table had agreed this one
    return tuple(entries)


def _recorded_results(ruling: Results) -> Results | None:
    """The scorer's results a director's ruling replaced, kept in a comment before it."""
    for comment in ruling.leading:
        if comment.text.startswith(RECORDED_NOTE):
            text = "% AFN 1\ndeal 1 dealer N\n scored " + \
                comment.text.removeprefix(RECORDED_NOTE) + "\nend\n"
            games = parse(text).games
            if games and games[0].deals and games[0].deals[0].results is not None:
                return games[0].deals[0].results
    return None
