"""The one referee: a table that takes a game one event at a time.

Every tool that needs the rules drives this table: ``allfours check`` and
``score`` and the viewer feed it a parsed record (see :mod:`..replay`), the
recorder feeds it what the players say, the language server what the editor
holds.  An event is a :class:`~.answers.DealStart` (a deal's number and dealer; a
whole :class:`Deal` record is taken as its start), a record from :mod:`...reading.records` —
a :class:`Hand`, a :class:`TurnUp`, a :class:`Call`, a
:class:`Trick` (opens a trick; optional), a :class:`Play`, a :class:`Penalty`, an
ending (:class:`Redeal`, :class:`Abandoned`, :class:`Concede`), a :class:`Claim`,
a :class:`Total` — or one of the two markers of :mod:`.answers`, :class:`DealOver`
and :class:`GameOver`.  :meth:`Table.apply` answers with the new
:class:`~..state.TableState` and the diagnostics of that event.

A deal's events come in the order they happen at the table: hands, turn-ups and
calls (run cards after the ``runs`` call), the tricks, then penalties, the
ending, the claim and the total.  The deal is scored at the first of a claim, a
total, a redeal, a :class:`DealOver`, the next deal or the end of the game.

Nothing here sees the future.  A hand that was never written is a number of
unseen cards; a card played from it becomes known when it is played.  So a
revoke that only a later card proves (a play-only record: the revoker plays the
suit later) is reported with the play that proves it, positioned at the revoke.

Undo is going back to a snapshot: :meth:`Table.snapshot` copies the table
cheaply (the records are immutable and shared), and :meth:`Table.check` is a
dry run on such a copy.
"""

from __future__ import annotations

from ...cards import Card, Seat
from ...diagnostics import Diagnostic, Severity
from ...reading.records import (
    Deal,
    Game,
    Span,
    diagnostic_at,
)
from ...reading.table import (
    SEATS_FOR_PLAYERS,
    next_seats,
    seats_of_game,
    side_of,
    side_table,
    sides,
)
from ..changes import ChangeLog
from ..profiles import (
    Options,
)
from ..start import score_tag, starting_scores
from ..state import DealResult, Step, StepKind, TableState
from .answers import DealOver, DealStart, Event, Expect, GameOver, Outcome, Phase
from .dealtable import DealTable


def table_seats(game: Game, options: Options) -> tuple[Seat, ...]:
    """The seats of ``game``'s table; when the record names an impossible table, the
    profile's."""
    seats = seats_of_game(game)
    if len(seats) not in SEATS_FOR_PLAYERS:
        seats = SEATS_FOR_PLAYERS.get(options.players, SEATS_FOR_PLAYERS[2])
    return seats


class Table:
    """A game of All Fours at the table, one event at a time.

    ``keep_steps`` keeps one :class:`Step` (with its table state and text) per
    event for a viewer; without it only scores and diagnostics are kept, which
    is what ``check`` needs.  A card played twice is not the table's to report:
    the structure checks do (AFN201, :mod:`..structure`).
    """

    # Slots: a table is made for every game, and a file of tiny games is mostly that.
    __slots__ = (
        "__weakref__",  # its deal's table refers to it weakly: no cycle
        "changes",
        "current",
        "deals",
        "decided",
        "decided_deal",
        "expected_dealer",
        "found",
        "game",
        "hand_proofs",
        "hindsight",
        "keep_steps",
        "next_of",
        "options",
        "over",
        "proved_later",
        "scores",
        "seats",
        "side_by_seat",
        "sides",
        "start",
        "step_count",
        "steps",
        "unfinished",
        "warned_after_end",
        "winner",
    )

    def __init__(self, game: Game, options: Options, *, keep_steps: bool = True,
                 changes: bool = False) -> None:
        self.game = game
        self.options = options
        self.keep_steps = keep_steps or changes
        self.seats = seats = table_seats(game, options)
        # ``changes``: each step kept as what it changed (a replay page's), not as a whole
        # state in ``steps`` (see :mod:`..changes`)
        self.changes = ChangeLog(seats, options) if changes else None
        self.sides = sides(seats)
        self.next_of = dict(next_seats(seats, clockwise=options.clockwise))
        self.side_by_seat = side_table(seats)  # cached per table shape
        start_problems: list[Diagnostic] = []
        if score_tag(game) is None:  # every side starts at 0 (nearly every game)
            self.start: dict[str, int] = dict.fromkeys(self.sides, 0)
        else:
            start, start_problems = starting_scores(game, seats, options)
            self.start = dict(start)
        self.scores: dict[str, int] = self.start.copy()
        self.steps: list[Step] = []
        self.step_count = 0
        self.deals: list[DealResult] = []
        self.found: list[Diagnostic] = []
        self.winner: str | None = None
        self.decided: str | None = None
        self.decided_deal: int | None = None
        self.expected_dealer: Seat | None = None
        self.warned_after_end = False
        self.current: DealTable | None = None
        self.over = False
        # per deal: (first step the play shows more of, last step, cards each seat was
        # seen to hold only when it played them); see :func:`.replay.with_hindsight`
        self.hindsight: list[tuple[int, int, dict[Seat, list[Card]]]] = []
        # offences reported when their proof came: (diagnostic, how many diagnostics
        # there were at the offending card, the index of its step)
        self.proved_later: list[tuple[Diagnostic, int, int]] = []
        # the diagnostics found that only say a deal is not finished (see Outcome)
        self.unfinished: list[Diagnostic] = []
        # the stands and gifts without a trump: proved by a hand a kibitzer does not see
        self.hand_proofs: list[Diagnostic] = []
        self.found.extend(start_problems)  # a [Score] tag that cannot be read (AFN505)

    # -- the public answers --

    def apply(self, event: Event) -> Outcome:
        """Take one event; answer with the table after it and what it found.

        Never raises on a record: anything unexpected becomes an AFN399 diagnostic.
        """
        diagnostics, steps, unfinished = len(self.found), len(self.steps), len(self.unfinished)
        self.feed(event)
        return Outcome(self.state, tuple(self.found[diagnostics:]), tuple(self.steps[steps:]),
                       self.expects(), tuple(self.unfinished[unfinished:]))

    def feed(self, event: Event) -> None:
        """Take one event, as :meth:`apply` does, without building the answer: the loops
        over a whole record (``check``, ``replay``) read the results at the end."""
        try:
            self._dispatch(event)
        except Exception as error:  # the referee must never take a file down
            self.failed(error, event)

    def feed_deal(self, deal: Deal) -> None:
        """Feed a recorded deal: its header, opening, tricks and plays, penalties, ending,
        claim and total, then :class:`DealOver` — what :meth:`feed` does for each of
        ``replay.deal_events(deal)``, with the plays of a trick handed straight to the
        open deal (the loop ``check`` and ``replay`` spend their time in).

        The referee's one speed hack kept (issue 22): against ``feed`` for each event
        it saves 2.9% of ``check``'s instructions on the bench corpus (1.8% counting a
        file of tiny games too; cachegrind, whole ``check -j 1``)."""
        feed = self.feed
        try:
            self._start_deal(deal)  # what feed(deal) does, whatever is open: its header
        except Exception as error:
            self.failed(error, deal)
        for event in deal.opening:
            feed(event)
        current = self.current
        for trick in deal.tricks:
            if current is None or current.ended:  # a deal that could not open
                feed(trick)
                for play in trick.plays:
                    feed(play)
                continue
            # neither a trick nor a play closes the deal or opens one
            try:
                current.take_trick(trick)
            except Exception as error:  # as feed() does
                self.failed(error, trick)
            if current.closed or not current.started:
                for play in trick.plays:
                    feed(play)
            else:
                current.place(trick.plays)
        for penalty in deal.penalties:
            feed(penalty)
        if deal.results is not None:  # before the ending: the results score the deal
            feed(deal.results)
        if deal.count is not None:
            feed(deal.count)
        if deal.ending is not None:
            feed(deal.ending)
        if deal.claim is not None:
            feed(deal.claim)
        if deal.total is not None:
            feed(deal.total)
        try:
            self._close_deal()  # DealOver()
        except Exception as error:
            self.failed(error, None)

    def end_game(self) -> None:
        """No more deals: what :meth:`feed` does with :class:`GameOver`, without making
        one (the loops over a whole record end every game with it)."""
        try:
            self._close_deal()
            self._game_end()
        except Exception as error:  # as feed() does
            self.failed(error, None)

    def failed(self, error: Exception, event: object) -> None:
        """The referee must never take a file down: what went wrong becomes AFN399."""
        self.report("AFN399", f"the replay stopped unexpectedly: {error!r}",
                    getattr(event, "span", None) or self.game.span, deal=None, trick=None)

    def check(self, event: Event) -> tuple[Diagnostic, ...]:
        """The diagnostics ``event`` would get, leaving this table as it is (a dry run).

        A recorder refuses a card not held, already played or out of turn, or a
        call out of place, with these messages as the reason.
        """
        return self.snapshot().apply(event).diagnostics

    @property
    def last_seat(self) -> Seat | None:
        """Who played the last card: its label, else the seat whose turn it was."""
        return self.current.last_seat if self.current is not None else None

    def snapshot(self) -> Table:
        """An independent copy of the table now: keep it to undo back to this moment."""
        copy = _shallow(self)
        if self.current is not None:
            copy.current = self.current.copied(copy)
        return copy

    @property
    def state(self) -> TableState | None:
        """The table now (``None`` before the first deal)."""
        return self.current.state() if self.current is not None else None

    def legal_cards(self) -> frozenset[Card] | None:
        """The cards the player to move may play; ``None`` when nobody is to play or
        their hand is not fully known (a hand that was never written)."""
        deal = self.current
        if deal is None or deal.closed or deal.to_move is None:
            return None
        return self._legal_for(deal.to_move)

    def _legal_for(self, seat: Seat | None) -> frozenset[Card] | None:
        """The cards ``seat`` may play now (a lead, when the trick on the table is full);
        None when its hand is not fully known or nobody plays now."""
        deal = self.current
        if deal is None or deal.closed:
            return None
        return deal.legal_for(seat)

    def expects(self) -> Expect:
        """What comes next and who acts: dealer, turn-up, call, answer, run, play,
        claim, deal end or game over."""
        deal = self.current
        if deal is None or deal.ended:
            if self.winner is not None or self.over:
                return Expect(Phase.GAME_OVER, None, self.decided or "",
                              decided=self.winner is not None)
            dealer = self.expected_dealer or self.seats[0]
            return Expect(Phase.DEAL, dealer)
        return deal.expects()  # at PLAY (also between two tricks) with the legal cards

    @property
    def next_dealer(self) -> Seat | None:
        """Who deals next under the rules: after the open deal (as it stands, ending
        included: a bunch or a misdeal may keep the dealer), else after the last."""
        if self.current is not None and not self.current.ended:
            return self.current.next_dealer()
        return self.expected_dealer

    @property
    def target(self) -> int:
        return self.options.target

    @property
    def diagnostics(self) -> tuple[Diagnostic, ...]:
        """Every diagnostic so far, in the order found."""
        return tuple(self.found)

    def scores_now(self) -> tuple[tuple[str, int], ...]:
        """Each side's score, in side order."""
        scores = self.scores
        now = []
        for side in self.sides:
            now.append((side, scores[side]))
        return tuple(now)

    def score_text(self) -> str:
        return " ".join(f"{side} {self.scores[side]}" for side in self.sides)

    def release(self) -> None:
        """Let go of the open deal, which points back at this table: without that
        cycle a finished game's records are freed at once by reference counting
        instead of waiting for (and costing) the cycle collector."""
        self.current = None

    # -- plumbing --

    def report(self, code: str, message: str, span: Span | None, *, deal: int | None,
               trick: int | None, severity: Severity = Severity.ERROR,
               hint: str | None = None) -> Diagnostic:
        diagnostic = diagnostic_at(self.game, span, code, message, severity=severity,
                                   deal=deal, trick=trick, hint=hint)
        self.found.append(diagnostic)
        return diagnostic

    def add_step(self, kind: StepKind, deal: int, trick: int | None, text: str,
                 state: TableState, span: Span | None,
                 diagnostics: tuple[Diagnostic, ...]) -> None:
        step = Step(len(self.steps), kind, deal, trick, text, state, span, diagnostics)
        self.steps.append(step)
        self.step_count += 1

    def side(self, seat: Seat) -> str:
        found = self.side_by_seat.get(seat)
        return found if found is not None else side_of(seat, self.seats)

    def _dispatch(self, event: Event) -> None:
        if isinstance(event, (DealStart, Deal)):  # a whole record is taken as its start
            self._start_deal(event)
        elif isinstance(event, GameOver):
            self._close_deal()
            self._game_end()
        elif isinstance(event, DealOver):
            self._close_deal()
        elif self.current is None or self.current.ended:
            self.report("AFN206", "this comes before any deal: write 'deal N dealer S' first",
                        getattr(event, "span", None), deal=None, trick=None)
        else:
            self.current.take(event)

    def _start_deal(self, deal: DealStart | Deal) -> None:
        """Open a deal from its header (a record's ``number``, ``dealer`` and ``span``:
        a whole :class:`Deal` is not copied into a :class:`DealStart` first)."""
        self._close_deal()
        if self.decided is not None and not self.warned_after_end:
            self.report("AFN313", f"deal {deal.number} is played after the game was decided "
                        f"({self.decided}); it is not scored", deal.span, deal=deal.number,
                        trick=None, severity=Severity.WARNING)
            self.warned_after_end = True
        expected = self.expected_dealer
        if expected is not None and deal.dealer is not expected:
            self.report("AFN312", f"deal {deal.number} is dealt by {deal.dealer.letter}, but "
                        f"the deal should pass to {expected.letter}", deal.span,
                        deal=deal.number, trick=None, severity=Severity.WARNING,
                        hint="the deal passes in turn; after a bunch (pack exhausted) or a "
                        "misdeal it stays or passes as the rules say")
        self.current = DealTable(self, deal)

    def _close_deal(self) -> None:
        deal = self.current
        if deal is None or deal.ended:
            return
        deal.end()
        self.expected_dealer = deal.next_dealer()

    def _game_end(self) -> None:
        if self.over:
            return
        self.over = True
        if self.changes is not None:
            self.changes.game_end(self._game_end_text())
            self.step_count += 1
            return
        last = self.steps[-1].state if self.steps else None
        if last is None:
            self.step_count += 1
            return
        self.add_step(StepKind.GAME_END, last.deal, None, self._game_end_text(), last, None,
                      ())

    def _game_end_text(self) -> str:
        if self.winner is not None:
            return f"{self.winner} wins the game, {self.score_text()} ({self.decided})"
        return f"the game is unfinished, {self.score_text()}"


def _shallow(obj: Table) -> Table:
    """A copy of the game table whose containers are its own (the records are shared)."""
    copy = Table.__new__(Table)
    for name in Table.__slots__:
        if name == "__weakref__":
            continue
        value = getattr(obj, name)
        if isinstance(value, (list, dict, set)):
            value = value.copy()
        setattr(copy, name, value)
    return copy

