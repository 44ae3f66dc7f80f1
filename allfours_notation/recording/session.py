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

from collections.abc import Callable
from dataclasses import replace

from ..checking.parsing import parse
from ..diagnostics import Diagnostic
from ..reading.records import (
    Award,
    Call,
    CallKind,
    Claim,
    ClaimItem,
    Comment,
    CommentStyle,
    Deal,
    Game,
    Penalty,
    Play,
    Tag,
    TurnUp,
)
from ..reading.table import elder_hand, side_of
from ..referee.profiles import GiftRecipients, Options, Profile, resolve_options
from ..referee.results import kick_values
from ..referee.scoring import Point, gift_points, tied_game
from ..referee.state import DealResult
from ..writing.formatter import format_game
from .building import (
    AGREED_NOTE,
    COMPUTED_NOTE,
    Built,
    build_game,
    deal_entries,
    last_deal_entries,
    points_text,
    scored_deal,
)
from .claiming import ClaimDraft
from .describing import describe, placement_problem
from .directing import Directing
from .editing import Editing
from .entries import (
    RESULT_KEYS,
    Agreed,
    Annotation,
    DealStart,
    Entry,
    Expectation,
    GameTied,
    Item,
    Phase,
    ResultsDone,
    Ruling,
    read_entry,
    read_results_chunk,
)
from .expecting import expectation, in_results, settled
from .history import History
from .outcome import Outcome
from .referee import RESULTS_CODES, Judge, Judgement, Verdict
from .resuming import entries_of_game
from .storage import RecordFile

__all__ = ["COMPUTED_NOTE", "Outcome", "Session", "build_game", "describe", "entries_of_game"]

# The tag that says a game is recorded by its results (the recorder's own, kept as is).
ENTRY_TAG = "Entry"
# The judgements a session finds by identity before it hashes the entries (see judgement).
_RECENT = 4
# The deals proved to read back that are no longer the game's (the last deal as each
# entry left it, the deals an undo went back from) kept for an undo's sake: a few,
# not a multiple of the game (a long game kept four of its deals' worth, 7 kB a deal).
_PROVED_STALE = 12


class Session(Editing, Directing):
    """The game being recorded and its entries; see the module docstring."""

    def __init__(self, tags: tuple[Tag, ...], *, entries: tuple[Entry, ...] = (),
                 prefix: str = "", index: int = 1, record: RecordFile | None = None,
                 overrides: dict[str, str] | None = None,
                 house: Profile | None = None, suffix: str = "",
                 results_mode: bool | None = None,
                 clock: Callable[[], str] | None = None) -> None:
        self.tags = tags
        # The time of day now ("20:41"), written on each deal begun (``at 20:41``): the
        # recorder's is the wall clock, a test's its own; None writes no time.
        self.clock = clock
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
        # undo and redo: the states before and after, each kept as the change from the next
        self._past: History[Entry] = History()
        self._future: History[Entry] = History()
        self._judged: dict[tuple[Entry, ...], Judgement] = {}
        self._recent: list[tuple[tuple[Entry, ...], Judgement]] = []  # the last asked, by identity
        self._made: tuple[tuple[Entry, ...], Game] | None = None  # game() of those entries
        self._expected: tuple[tuple[Entry, ...], bool, Expectation] | None = None  # expect()
        self._built: list[Built] = []  # the deals last built, with their entries
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
        scored = scored_deal(deal, result, self.seats, self.options)
        self._scored[position] = (deal, result, scored)
        return scored

    def text(self, game: Game | None = None) -> str:
        """The whole file: the games before this one as they were, then this one
        (``game``: :meth:`game`, when the caller has it already)."""
        body = format_game(game or self.written())
        if self.suffix.strip():
            body += self.suffix if self.suffix.endswith("\n") else self.suffix + "\n"
        if not self.prefix.strip():
            return "% AFN 1\n" + body
        return self.prefix.rstrip("\n") + "\n\n" + body

    def written(self) -> Game:
        """The game as the file has it: :meth:`game`, but a last deal that has only its
        dealer is left out (a file left between deals ends in a whole deal, not in one
        with no turn-up; the dealer is asked again, or proposed, on resume), and the
        last deal the other side agreed to says so while the game goes on (``total …
        { agreed }``: AFN 1 has no word for it; a later deal begun says it too), so a
        resume does not ask for their ``y`` again."""
        game = self.game()
        last = self.entries[-1] if self.entries else None
        if isinstance(last, DealStart) and not last.leading and not last.trailing and \
                game.deals:
            game = replace(game, deals=game.deals[:-1])
        groups = deal_entries(self.entries)
        if not game.deals or game.deals[-1].total is None or self.winner() is not None or \
                len(groups) < len(game.deals) or \
                not any(isinstance(e, Agreed) for e in groups[len(game.deals) - 1]):
            return game
        deal = game.deals[-1]
        assert deal.total is not None
        noted = replace(deal.total, trailing=(*deal.total.trailing,
                                              Comment(AGREED_NOTE, CommentStyle.BRACE)))
        return replace(game, deals=(*game.deals[:-1], replace(deal, total=noted)))

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
        return settled(self.entries)

    def in_results(self) -> bool:
        """Whether the last deal is recorded by its results and still being entered."""
        return in_results(self.entries, self.results_mode)

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
            opening = self.judgement(_without_results(self.entries)) \
                if self.in_results() else None
            known = self._expected = (self.entries, self.results_mode, expectation(
                self.judgement(), self.entries, self.results_mode, self.seats, opening))
        return known[2]


    # -- entries ------------------------------------------------------------------------------

    def type(self, text: str, *, confirmed: bool = False) -> Outcome:
        """One line typed by the scorer."""
        expecting = self.expect()
        typed = text.strip()
        if expecting.phase is Phase.RESULTS and typed and \
                not isinstance(read_entry(typed, expecting), Annotation):
            return self._type_results(typed)
        read = read_entry(text, expecting)
        if isinstance(read, str) and typed and expecting.phase is Phase.DEALER and \
                expecting.default is not None:
            return self._first_of_deal(text, DealStart(dealer=expecting.default), read)
        if isinstance(read, str):
            return Outcome(False, read)
        if isinstance(read, Annotation):
            return self.annotate(read)
        return self.add(read, confirmed=confirmed)

    def _first_of_deal(self, text: str, start: DealStart, why: str) -> Outcome:
        """A deal's first entry typed with no dealer chosen (the turn-up ``4s``): the
        deal the rules' dealer deals begins with it, and one undo takes back both;
        refused, it begins nothing (``why``: what the line is not, as a dealer)."""
        before = self.entries
        self._change((*before, start))
        outcome = self.type(text)
        if outcome.accepted:
            self._past.replace_top(2, before)
            return replace(outcome, message=f"{start.dealer.letter} deals; {outcome.message}")
        if not outcome.confirm:
            self._set(before)
            self._past.pop()
            return replace(outcome, message=f"{why} (or the deal's first entry: "
                           f"{outcome.message})")
        return outcome

    def add(self, entry: Entry, *, confirmed: bool = False) -> Outcome:
        """Judge ``entry`` after the last one; keep it if the referee allows.

        In results mode the next deal begins when the other side has confirmed the last
        (or claimed), dealt by whoever the rules say deals next (:meth:`begin_next_deal`):
        one undo takes back both.
        """
        expecting = self.expect()
        if isinstance(entry, (Claim, Ruling)) and self._on_deal_before():
            self._change((*self.entries[:-1], entry, self.entries[-1]))
            ruled = len(self.judgement().game.deals) - 1
            return Outcome(True, describe(entry) + f" (deal {ruled})")
        placed = placement_problem(entry, expecting, self.judgement().exhausted)
        if placed is not None:
            return Outcome(False, placed)
        if isinstance(entry, ResultsDone):
            wrong = self._unfinished_results()
            if wrong is not None:
                return Outcome(False, f"refused: {wrong.message}", finding=wrong)
        outcome = self._try(self.entries, entry, len(self.entries), confirmed=confirmed)
        if outcome.accepted and expecting.phase in (Phase.CONFIRM, Phase.RESULTS):
            began = self.begin_next_deal()  # one undo takes back both
            if began:
                outcome = replace(outcome, message=f"{outcome.message}; {began}")
        return outcome

    def _on_deal_before(self) -> bool:
        """The next deal has only its dealer: a claim or a ruling typed now is on the deal
        before it."""
        return bool(self.entries) and isinstance(self.entries[-1], DealStart) and \
            sum(isinstance(e, DealStart) for e in self.entries) > 1

    def ruled_deal(self) -> int:
        """The deal a ruling (or a claim) typed now is on: the deal just ended while the
        next has only its dealer, else the deal in hand.  A director ruling from afar
        (``allfours serve``'s page) checks it is the deal they mean."""
        return len(self.game().deals) - (1 if self._on_deal_before() else 0)

    def begin_next_deal(self) -> str:
        """In results mode, the next deal begun once the last is settled, dealt by whoever
        the rules say deals next (its items are typed at once; the file has it from its
        first item on): what was begun, or "" when nothing was (cards mode, the game
        over, no dealer the rules name).  Called after the other side's word, and when a
        game is resumed, so that both wait for the same thing."""
        following = self.expect()
        if not self.results_mode or following.phase is not Phase.DEALER or \
                following.default is None:
            return ""
        self._change((*self.entries, DealStart(dealer=following.default)))
        self._past.pop()
        return f"deal {len(self.judgement().game.deals)}: {following.default.letter} deals"

    def _type_results(self, text: str) -> Outcome:
        """A results line: its entries taken one by one (``h n l s``, ``k 1 h n``); at the
        first one not understood, or refused, the line stops: what was taken is said,
        then why not, and the text not taken is kept (:attr:`Outcome.rest`) for editing
        (never dropped: a stray key once ate the items typed after it)."""
        taken: list[Outcome] = []
        rest = text
        while rest and self.expect().phase is Phase.RESULTS:
            used, read = read_results_chunk(rest, self.expect())
            outcome = Outcome(False, read) if isinstance(read, str) else self._add_result(read)
            if not outcome.accepted:
                # an entry refused (by the referee, or as not due) is said and left out;
                # the text after it, or text not understood (nothing used), stays
                kept = rest[used:].strip() if used else rest
                done = "; ".join(o.message for o in taken)
                return replace(outcome, message=(f"{done}; then " if done else "") +
                               outcome.message, rest=kept)
            taken.append(outcome)
            rest = rest[used:].strip()
        if not taken:
            return Outcome(False, "type an entry (? for help)", rest=rest)
        return replace(taken[-1], message="; ".join(o.message for o in taken), rest=rest)

    def _add_result(self, entry: Entry) -> Outcome:
        """One entry of a deal entered by its results; what it means is the referee's: a
        Game tied goes where the rules give a tie, the dealer's gift gives the items the
        rules' ``gives`` counts, and the results are finished only when they stand."""
        deal = last_deal_entries(self.entries) or ()
        judged = self.judgement()
        current = judged.open.current
        games = [e for e in deal if _is_game(e)]
        if _is_game(entry) and games and GameTied in (type(entry), type(games[0])):
            # (Game twice, neither tied, is the referee's AFN404)
            return Outcome(False, "refused: the Game is written already, "
                           f"'{describe(games[0])}' (Backspace or Ctrl+Z takes it back)")
        entry = self._tie_scored(entry, self.entries)
        if isinstance(entry, Call) and entry.kind is CallKind.GIVES and current is not None:
            gifts, _ = gift_points(dealer=current.dealer, elder=current.elder,
                                   seats=self.seats, options=self.options,
                                   scores=dict(self.scores(judged)))
            return self._add_together((entry, *(Item(award=Award(p.seat, ClaimItem.GIFT))
                                                for p in gifts if p.seat is not None)))
        if isinstance(entry, TurnUp):
            return self._turn_up(entry)
        return self.add(entry)

    def _turn_up(self, entry: TurnUp) -> Outcome:
        """A turn-up in a deal entered by its results: the referee counts its kick (the
        turn-ups decide the kicks), written with it as the kick item it gives."""
        before = self.judgement()
        kicks = _kicks(before)
        judged = self.judgement((*self.entries, entry))
        scored = [p for p in _kicks(judged)]
        for point in kicks:
            if point in scored:
                scored.remove(point)
        single = len(kick_values(self.options)) == 1
        items = tuple(Item(award=Award(p.seat, ClaimItem.KICK, None if single else p.points))
                      for p in scored if p.seat is not None)
        return self._add_together((entry, *items))

    def _tie_scored(self, entry: Entry, before: tuple[Entry, ...]) -> Entry:
        """A Game tie typed after ``before``, with the Game the rules give a tie (the
        referee's ``tied_game``); any other entry as it is."""
        current = self.judgement(before).open.current
        if not isinstance(entry, GameTied) or current is None:
            return entry
        tie = tied_game(current.elder, self.seats, self.options)
        return replace(entry, award=Award(tie.seat, ClaimItem.GAME) if tie and tie.seat
                       else None)

    def _add_together(self, entries: tuple[Entry, ...]) -> Outcome:
        """Entries that stand or fall together (a gift and its items), judged one after
        another and written once: one undo takes them all back."""
        after = self.entries
        for entry in entries:
            ruling, finding = self._ruling(after, (*after, entry))
            if ruling != Verdict.ACCEPT and finding is not None:
                return Outcome(False, f"refused: {finding.message}", finding=finding)
            after = (*after, entry)
        self._change(after)
        return Outcome(True, "; ".join(describe(entry) for entry in entries))

    def _unfinished_results(self) -> Diagnostic | None:
        """What the referee still finds wrong with the results of the deal being entered,
        were it finished now (a turned Jack's kick not typed, say): it cannot be ended."""
        judged = self.judgement((*self.entries, ResultsDone()))
        number = judged.game.deals[-1].number if judged.game.deals else None
        return next((d for d in judged.probed if d.code in RESULTS_CODES and
                     d.deal == number), None)

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
        message = f"{describe(entry)}" + (f" — {finding.message}" if finding else "")
        if isinstance(entry, Penalty):
            value = self.penalty_values().get(at)
            message += f": {value}" + ("" if value == "no points" or self.judgement().finished
                                       else " (counted when the deal ends)")
        return Outcome(True, message, finding=finding)

    def set_mode(self, results: bool) -> Outcome:
        """Enter deals by their results (``results``) or by their cards (Ctrl+T): for the
        deal being entered if nothing is in it yet, and for the following deals.  The
        mode is written in the game's header, ``[Entry "results"]`` or ``[Entry
        "cards"]``, so that a resume (after a quit or a kill) returns to it; a deal with
        something in it says its own mode (a ``scored`` line, or cards)."""
        mode = "by their results" if results else "by their cards"
        done = Outcome(True, f"deals are entered {mode} (Ctrl+T switches)")
        if results == self.results_mode and self._mode_tag() == results:
            return done
        value = "results" if results else "cards"
        tags = tuple(replace(tag, value=value) if tag.name == ENTRY_TAG else tag
                     for tag in self.tags)
        if not any(tag.name == ENTRY_TAG for tag in tags):
            tags = (*tags, Tag(name=ENTRY_TAG, value=value))
        before = (self.tags, self.results_mode)
        self.tags, self.results_mode, self._made = tags, results, None
        try:
            self.save()
        except BaseException:
            (self.tags, self.results_mode), self._made = before, None
            raise
        return done

    def _mode_tag(self) -> bool | None:
        """The mode the header says (``None``: it says none)."""
        for tag in self.tags:
            if tag.name == ENTRY_TAG:
                return tag.value.lower() == "results"
        return None

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
        return Outcome(True, f"noted on {describe(last)}")

    def _change(self, entries: tuple[Entry, ...]) -> None:
        current = self.entries
        self._set(entries)
        self._past.append(current)
        self._future.clear()

    def _set(self, entries: tuple[Entry, ...]) -> None:
        """Make ``entries`` the session's, on disk first: if the write fails, nothing changed."""
        previous = self.entries
        last = entries[-1] if entries else None
        if isinstance(last, DealStart) and last.time is None and self.clock is not None and \
                len(entries) > len(previous):  # a deal begun now: when
            entries = (*entries[:-1], replace(last, time=self.clock()))
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
        game = self.written()
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
        if len(self._proved) > len(game.deals) + _PROVED_STALE:
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
                values[index] = points_text(tuple(points)) if points else "no points"
        return values

    def claim_start(self) -> ClaimDraft:
        """The other side's claim begins as the deal's items as the scorer has them (a
        claim is the whole deal: what it leaves out it says nobody took), to be changed
        item by item (:class:`.claiming.ClaimDraft`): a claim that differs in one item is
        then one dispute, not one per item left out."""
        deals = self.game().deals
        if not deals:
            return ClaimDraft((), ())
        deal = deals[-1]
        line = deal.results if deal.results is not None and not deal.results.director \
            else deal.claim
        awards = line.awards if line is not None else ()
        return ClaimDraft(awards, awards, deal.dealer,
                          elder_hand(deal.dealer, self.seats, clockwise=self.options.clockwise)
                          if self.seats else None)

    @staticmethod
    def claim_edit(draft: ClaimDraft, words: str) -> ClaimDraft | str:
        """``words`` typed in the claim ``draft`` by keys (``l s``, ``l -``, ``k 2``,
        ``t``): the claim changed, or why it is not a change (see
        :meth:`.claiming.ClaimDraft.typed`)."""
        key, _, side = words.strip().partition(" ")
        return draft.typed(key, side)

    def item_question(self, key: str, *, claim: bool = False) -> str:
        """What an item key (``h``, ``k``, ``t``…) typed alone still needs, as a front end
        asks it (``high: the side: n e s w``), or "" when it is whole without more: a
        gift goes to the elder (with three players and a gift to each opponent, the side
        says which) and a kick to the dealer, with its points where the rules give it
        several worths.  ``claim``: typed in the other side's claim, where ``-`` takes
        the item out."""
        item = RESULT_KEYS[key]
        worths = kick_values(self.options)
        each = self.options.gift_recipients is GiftRecipients.EACH_OPPONENT and \
            len(self.seats) == 3
        if (item is ClaimItem.GIFT and not each) or (item is ClaimItem.KICK and
                                                     len(worths) == 1):
            return ""
        if item is ClaimItem.KICK:
            return f"{item.value}: the points (" + "/".join(map(str, worths)) + ")"
        seats = " ".join(seat.letter.lower() for seat in self.seats)
        return f"{item.value}: the side: {seats}" + (", or - for nobody" if claim else "")

    def disputes(self) -> list[Diagnostic]:
        """What the players claimed that the rules do not give, per the full record: the
        findings of severity dispute (not an item claimed after the decision, a note)."""
        from ..checking import check

        return [d for d in check(self.game(), self.options).diagnostics if d.is_dispute]


def _is_game(entry: Entry) -> bool:
    """A Game entered in results mode: an item, or a tie."""
    return isinstance(entry, GameTied) or (isinstance(entry, Item) and
                                           entry.award.item is ClaimItem.GAME)


def _kicks(judged: Judgement) -> list[Point]:
    """The kicks the referee counted in the deal being entered, from its turn-ups."""
    deals = judged.so_far.deals
    return [p for p in (deals[-1].points if deals else ()) if p.item is ClaimItem.KICK]


def _without_results(entries: tuple[Entry, ...]) -> tuple[Entry, ...]:
    """``entries`` without the results typed in the last deal (the same tuple when it
    has none): what its opening (turn-ups, calls) waits for is the table's answer to it."""
    start = max((at for at, e in enumerate(entries) if isinstance(e, DealStart)), default=0)
    if not any(isinstance(e, (Item, GameTied)) for e in entries[start:]):
        return entries
    return (*entries[:start], *(e for e in entries[start:]
                                if not isinstance(e, (Item, GameTied))))
