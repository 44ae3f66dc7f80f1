"""The one referee: a table that takes a game one event at a time.

Every tool that needs the rules drives this table: ``allfours check`` and
``score`` and the viewer feed it a parsed record (see :mod:`.replay`), the
recorder feeds it what the players say, the language server what the editor
holds.  An event is a record from :mod:`..records` — a :class:`Deal` (its header:
number and dealer), a :class:`Hand`, a :class:`TurnUp`, a :class:`Call`, a
:class:`Trick` (opens a trick; optional), a :class:`Play`, a :class:`Penalty`, an
ending (:class:`Redeal`, :class:`Abandoned`, :class:`Concede`), a :class:`Claim`,
a :class:`Total` — or one of this module's two markers, :class:`DealOver` and
:class:`GameOver`.  :meth:`Table.apply` answers with the new
:class:`~.state.TableState` and the diagnostics of that event.

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

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from enum import Enum
from typing import Any

from ..cards import Card, Rank, Seat, Suit
from ..diagnostics import Diagnostic, Severity
from ..reading.records import (
    Abandoned,
    Call,
    CallKind,
    Claim,
    ClaimItem,
    Concede,
    Deal,
    Discard,
    Game,
    Hand,
    Pack,
    Penalty,
    PenaltyKind,
    Play,
    Redeal,
    RedealReason,
    Results,
    Span,
    Total,
    Trick,
    TurnUp,
    diagnostic_at,
)
from ..reading.table import (
    SEATS_FOR_PLAYERS,
    next_seats,
    seats_of_game,
    side_of,
    side_table,
    sides,
)
from ..referee.decided import ItemStatus, Status, certain_high_low, item_of
from ..referee.play import (
    CARD_PIPS,
    DEALT,
    RUN_BATCH,
    hand_order,
    legal_cards,
    max_runs,
    trick_winner,
    turnup_position,
)
from ..referee.profiles import (
    BegsPerDeal,
    DealPattern,
    FollowRule,
    FosterCap,
    HandAfterRun,
    JackOnRun,
    LowOwner,
    MisdealRule,
    Options,
    PackExhausted,
    PenaltyTiming,
    RevokePenalty,
    UndertrumpException,
    YesNo,
)
from ..referee.results import ResultsFacts, results_points
from ..referee.scoring import (
    ITEM_LABELS,
    DealFacts,
    Offence,
    Point,
    count_in_order,
    deal_facts,
    gift_points,
    penalty_points,
    play_points,
    turnup_points,
)
from ..referee.start import score_tag, starting_scores
from ..referee.state import DealResult, Step, StepKind, TableState, deal_result

__all__ = [
    "DealOver",
    "Event",
    "Expect",
    "ExpectKind",
    "GameOver",
    "Outcome",
    "Table",
    "table_seats",
]


@dataclass(frozen=True, slots=True)
class DealOver:
    """The deal is over: score it (if not yet) and close it.  The next deal's header
    closes a deal as well; a recorder sends this to see the scores at once."""

    span: Span | None = None


@dataclass(frozen=True, slots=True)
class GameOver:
    """No more deals: close the last deal and end the game."""

    span: Span | None = None


Event = (Deal | Hand | TurnUp | Call | Discard | Pack | Trick | Play | Penalty | Redeal
         | Abandoned | Concede | Claim | Results | Total | DealOver | GameOver)


class ExpectKind(Enum):
    """What the table waits for next (see :meth:`Table.expects`)."""

    DEAL = "deal"  # a deal header; ``seat`` is the dealer due
    TURN_UP = "turn-up"  # the dealer turns up (hands as dealt may come first)
    CALL = "call"  # the elder hand stands or begs
    ANSWER = "answer"  # the dealer gives or runs
    RUN = "run"  # the run's cards, then the dealer's next turn-up
    PLAY = "play"  # ``seat`` plays a card
    CLAIM = "claim"  # every trick is played: penalties, ending, claim, total
    DEAL_END = "deal end"  # nothing more is due in this deal (an ending, or the next deal)
    GAME_OVER = "game over"  # the game is decided


@dataclass(frozen=True, slots=True)
class Expect:
    """The next event due and who is to act, as data: ``kind`` is the phase; ``note``
    says why in words when it is not obvious (for people: no client reads it).

    ``legal``: the cards ``seat`` may play (None: nobody is to play, or the hand is not
    fully known); ``may_beg_again``: before the first card after a run, the elder may
    beg again instead of leading (``begs_per_deal=unlimited``); ``exhausted``: the run
    used up the pack, the deal can only be redealt; ``decided``: the game is decided.
    """

    kind: ExpectKind
    seat: Seat | None = None
    note: str = ""
    legal: frozenset[Card] | None = None
    may_beg_again: bool = False
    exhausted: bool = False
    decided: bool = False

    @property
    def phase(self) -> ExpectKind:
        return self.kind


@dataclass(frozen=True, slots=True)
class Outcome:
    """The answer to one event: the table after it, its diagnostics and its steps, what
    the table expects next, and which of the diagnostics only say that the deal is not
    finished yet (a run with no turn-up after it, the pack exhausted: what a deal still
    being played is bound to show)."""

    state: TableState | None
    diagnostics: tuple[Diagnostic, ...]
    steps: tuple[Step, ...] = ()
    expects: Expect | None = None
    unfinished: tuple[Diagnostic, ...] = ()


# The seat after each seat, per table shape (seats, clockwise): a plain dict shared by
# every table of that shape and never changed (a read-only mapping is slower to ask).
_NEXT_OF: dict[tuple[tuple[Seat, ...], bool], dict[Seat, Seat]] = {}


def _next_of(seats: tuple[Seat, ...], clockwise: bool) -> dict[Seat, Seat]:
    """:func:`.next_seats` as a plain dict, made once per table shape."""
    found = _NEXT_OF.get((seats, clockwise))
    if found is None:
        found = _NEXT_OF[seats, clockwise] = dict(next_seats(seats, clockwise=clockwise))
    return found


def table_seats(game: Game, options: Options) -> tuple[Seat, ...]:
    """The seats of ``game``'s table; when the record names an impossible table, the
    profile's."""
    seats = seats_of_game(game)
    if len(seats) not in SEATS_FOR_PLAYERS:
        seats = SEATS_FOR_PLAYERS.get(options.players, SEATS_FOR_PLAYERS[2])
    return seats


_KIND_TEXT = {
    "revoke": "a revoke",
    "undertrump": "an undertrump",
    "misdeal": "a misdeal",
    "wrongscore": "scoring wrongly",
    "other": "an irregularity",
}
_RECORDED = ("as dealt", "in the run", "in a run")
_JACK_OF = {suit: Card(suit, Rank.JACK) for suit in Suit}
_CALL_WORDS = {kind: kind.value for kind in CallKind}
# What is wrong with a stand or a beg made in each phase (made once, not per call).
_STAND_TOO_SOON = {
    "turn": "before any card is turned up",
    "answer": "after begging: the dealer must give or run",
    "running": "while the run has not turned a new suit",
    "play": "after the play began",
}
_BEG_TOO_SOON = {
    "turn": "before any card is turned up",
    "answer": "again before the dealer answered the beg",
    "running": "while the run has not turned a new suit",
    "play": "after the play began",
}


class Table:
    """A game of All Fours at the table, one event at a time.

    ``keep_steps`` keeps one :class:`Step` (with its table state and text) per
    event for a viewer; without it only scores and diagnostics are kept, which
    is what ``check`` needs.  ``records_checked`` says the events come from a
    parsed record whose structure checks already reported a card played twice
    (AFN201), so the table does not report it again.
    """

    # Slots: a table is made for every game, and a file of tiny games is mostly that.
    __slots__ = ("current", "deals", "decided", "decided_deal", "expected_dealer", "found",
                 "game", "hand_proofs", "hindsight", "keep_steps", "next_of", "options", "over",
                 "proved_later", "records_checked", "scores", "seats", "side_by_seat", "sides",
                 "start", "step_count", "steps", "unfinished", "warned_after_end", "winner")

    def __init__(self, game: Game, options: Options, *, keep_steps: bool = True,
                 records_checked: bool = False) -> None:
        self.game = game
        self.options = options
        self.keep_steps = keep_steps
        self.records_checked = records_checked
        self.seats = seats = table_seats(game, options)
        self.sides = sides(seats)
        # a plain dict, never changed, made once per table shape: asked twice for every card
        self.next_of = _next_of(seats, options.clockwise)
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
        self.current: _DealTable | None = None
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
            current = self.current
            if current is not None and not current.ended:
                if type(event) is Play:
                    current.take_play(event)  # nine events in ten: straight to the card
                    return
                taker = _TAKERS.get(type(event))
                if taker is not None:
                    taker(current, event)
                    return
            self._dispatch(event)
        except Exception as error:  # the referee must never take a file down
            self.failed(error, event)

    def feed_deal(self, deal: Deal) -> None:
        """Feed a recorded deal: its header, opening, tricks and plays, penalties, ending,
        claim and total, then :class:`DealOver` — what :meth:`feed` does for each of
        ``replay.deal_events(deal)``, with the plays of a trick handed straight to the
        open deal (the loop ``check`` and ``replay`` spend their time in)."""
        feed = self.feed
        try:
            self._start_deal(deal)  # what feed(deal) does, whatever is open
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
        if deal is None or deal.closed or seat is None or seat not in deal.hands or \
                deal.unknown[seat] != 0 or deal.phase not in ("settled", "play"):
            return None
        on_table = deal.trick if len(deal.trick) < len(self.seats) else []
        return legal_cards(deal.hands[seat], on_table, deal.trump, self.options)

    def expects(self) -> Expect:
        """What comes next and who acts: dealer, turn-up, call, answer, run, play,
        claim, deal end or game over."""
        deal = self.current
        if deal is None or deal.ended:
            if self.winner is not None or self.over:
                return Expect(ExpectKind.GAME_OVER, None, self.decided or "",
                              decided=self.winner is not None)
            dealer = self.expected_dealer or self.seats[0]
            return Expect(ExpectKind.DEAL, dealer)
        expects = deal.expects()
        if expects.kind is ExpectKind.PLAY:  # also between two tricks: the next lead
            return replace(expects, legal=self._legal_for(expects.seat))
        return expects

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
        if isinstance(event, Deal):
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

    def _start_deal(self, deal: Deal) -> None:
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
        self.current = _DealTable(self, deal)

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
        last = self.steps[-1].state if self.steps else None
        if last is None:
            self.step_count += 1
            return
        if self.winner is not None:
            text = f"{self.winner} wins the game, {self.score_text()} ({self.decided})"
        else:
            text = f"the game is unfinished, {self.score_text()}"
        self.add_step(StepKind.GAME_END, last.deal, None, text, last, None, ())


def _shallow(obj: Table) -> Table:
    """A copy of the game table whose containers are its own (the records are shared)."""
    copy = Table.__new__(Table)
    for name in Table.__slots__:
        value = getattr(obj, name)
        if isinstance(value, (list, dict, set)):
            value = value.copy()
        setattr(copy, name, value)
    return copy


@dataclass(slots=True)
class _Slots:
    """The cards the record shows one seat received, and where each came from."""

    known: list[Card] = field(default_factory=list)
    origin: dict[Card, str] = field(default_factory=dict)  # "as dealt", "in the run", "played"


@dataclass(slots=True)
class _Suspicion:
    """A card off suit (or under a trump) whose proof is not yet seen: the offender's
    hand was not written, so only a later play of the right card proves it."""

    kind: str  # "revoke" or "undertrump"
    seat: Seat
    card: Card
    led: Suit
    trick: int
    order: int  # place of the offending card in the deal's play (cards played before it)
    span: Span | None
    recorded: list[Card]  # written cards that prove it; the first of them played names it
    found_at: int  # how many diagnostics the game had when the card was played
    step: int  # the index of the offending card's step


@dataclass(slots=True)
class _Lack:
    """A stand or a gift that the options allow only to a player holding a trump, by a
    player whose hand was not fully written: the end of the play may show it had none."""

    call: str  # "stands" or "gives"
    seat: Seat
    trump: Suit
    span: Span | None
    found_at: int  # how many diagnostics the game had at the call
    step: int  # the index of the call's step


class _DealTable:
    """One deal at the table: opening, play, scoring; the state moves one event at a time.

    ``phase``: ``"turn"`` (nothing turned yet) → ``"call"`` (the elder to stand or
    beg) → ``"answer"`` (the dealer to give or run) → ``"running"`` (a new turn-up
    is due) → ``"settled"`` (trumps fixed; ``settled_by`` says how) → ``"play"``.
    """

    # Slots: a deal table is made for every deal, and its state is read for every card.
    __slots__ = (
        "begs",
        "calls",
        "claim",
        "closed",
        "completed_tricks",
        "dealer",
        "decided_here",
        "discard_spans",
        "discarded",
        "discarding",
        "discards",
        "discards_done",
        "elder",
        "ended",
        "ending",
        "expected_seat",
        "first_step",
        "first_trick_span",
        "forgotten",
        "g",
        "gift_refused",
        "hands",
        "header",
        "held_at_start",
        "holders",
        "inferred",
        "items_cache",
        "keeps_steps",
        "lacks",
        "last_seat",
        "last_trick_span",
        "last_winner",
        "leader",
        "next_of",
        "number",
        "offences",
        "options",
        "out",
        "pack_cards",
        "pack_place",
        "pack_span",
        "patch_from",
        "penalties",
        "pending",
        "pending_discards",
        "pending_gift",
        "phase",
        "pips",
        "played",
        "players",
        "playing",
        "points",
        "provisional",
        "received",
        "recorded_owner",
        "results",
        "runs",
        "scored_tricks",
        "scoring",
        "seats",
        "settled_by",
        "slips",
        "spent",
        "started",
        "suspicions",
        "to_move",
        "total",
        "trick",
        "trick_count",
        "trick_ended",
        "trick_number",
        "trick_span",
        "trick_spans",
        "trump",
        "turnup_spans",
        "turnups",
        "unknown",
        "unscored",
        "waiting",
        "waiting_kick",
        "waiting_span",
        "was_open",
        "won",
        "written",
    )

    def __init__(self, table: Table, deal: Deal) -> None:
        self.g = table
        self.header = deal
        self.number = deal.number
        self.options = table.options
        self.keeps_steps = table.keep_steps
        self.seats = table.seats
        self.players = len(table.seats)
        self.next_of = table.next_of
        self.dealer = deal.dealer if deal.dealer in self.seats else self.seats[0]
        self.elder = table.next_of[self.dealer] if deal.dealer in self.seats else self.seats[0]
        self.scoring = table.decided is None
        # per seat (one loop rather than three comprehensions: a deal table per deal)
        self.received: dict[Seat, _Slots] = {}
        self.hands: dict[Seat, list[Card]] = {}
        self.inferred: dict[Seat, list[Card]] = {}
        for seat in self.seats:
            self.received[seat] = _Slots([], {})
            self.hands[seat] = []
            self.inferred[seat] = []
        self.unknown: dict[Seat, int] = dict.fromkeys(self.seats, DEALT)
        self.recorded_owner: dict[Card, Seat] = {}
        self.turnups: list[Card] = []
        self.turnup_spans: list[Span | None] = []
        self.trump: Suit | None = None
        self.phase = "turn"
        self.settled_by: str | None = None
        self.runs = 0
        self.begs = 0
        self.calls: list[str] = []
        self.started = False  # the DEAL_START step is out
        self.discarding = False  # the rules make every player discard to six before play
        self.discards: dict[Seat, list[Card | None]] = {}  # per seat, once it discards
        self.discard_spans: dict[Seat, Span | None] = {}
        self.discarded: dict[Card, Seat] = {}  # known cards put out, and by whom
        self.pending_discards: list[Discard] = []  # written before the trumps were settled
        self.discards_done = False
        self.forgotten: set[Seat] = set()  # hands the discards leave unknown (six unseen)
        # the order of the pack, top first, when written: where each card goes
        self.pack_cards: list[Card | None] | None = None
        self.pack_span: Span | None = None
        self.pack_place: dict[Card, tuple[Seat | None, int]] = {}  # (seat or None, run)
        # jack_on_run=final_only: the first turn-up's points wait until it is known to stay
        # trumps (a stand, a gift, the play); a run drops them
        self.waiting_kick: list[Point] = []
        self.waiting_span: Span | None = None
        # play
        self.playing = False
        self.trick_number = 0
        self.trick: list[tuple[Seat, Card]] = []
        self.trick_span: Span | None = None
        self.trick_ended = True
        self.written = False  # the trick was opened by a Trick record
        self.trick_count = 0
        self.first_trick_span: Span | None = None
        self.last_trick_span: Span | None = None
        self.trick_spans: list[Span | None] = []
        self.expected_seat: Seat | None = None
        self.last_seat: Seat | None = None  # who played the last card (named or by turn)
        self.patch_from = 0  # the first step whose hands the whole record can complete
        self.leader: Seat | None = None
        self.to_move: Seat | None = None
        self.won: dict[str, int] = dict.fromkeys(table.sides, 0)
        self.pips: dict[str, int] = dict.fromkeys(table.sides, 0)
        self.last_winner: Seat | None = None
        self.completed_tricks: list[tuple[int, Seat, tuple[tuple[Seat, Card], ...]]] = []
        self.scored_tricks: list[tuple[int, Seat, tuple[tuple[Seat, Card], ...]]] = []
        self.slips: list[int] = []  # places in the current trick of cards already played
        self.played: set[Card] = set()
        # every card that cannot be in a hand: played, turned up or discarded (one test
        # per card instead of three)
        self.out: set[Card] = set()
        # on the table once, no longer evidence of a holding: each card, with the trick
        # its holder played it in (None when someone else played it, or it was discarded)
        self.spent: dict[Card, int | None] = {}
        self.suspicions: list[_Suspicion] = []
        self.lacks: list[_Lack] = []
        self.offences: list[tuple[int, Offence]] = []
        self.held_at_start: tuple[tuple[Seat, tuple[Card, ...]], ...] = ()
        self.holders: dict[Card, Seat] = {}
        # the end
        self.penalties: list[Penalty] = []
        self.ending: Redeal | Abandoned | Concede | None = None
        self.claim: Claim | None = None
        self.total: Total | None = None
        self.results: Results | None = None  # a deal recorded by its results alone
        self.points: list[Point] = []
        self.unscored: list[Point] = []
        # a deal still being played when scored: what would score if it ended now
        self.provisional: list[Point] = []
        self.waiting: list[Point] = []  # of those, the ones decided but not yet counted
        self.items_cache: tuple[tuple[object, ...], tuple[ItemStatus, ...]] | None = None
        self.was_open = False
        # a gift that a rule may forbid, by a dealer whose hand the play has yet to show
        # (give_requires_trump): counted when the deal is scored, if not proven forbidden
        self.pending_gift: tuple[list[Point], Span | None] | None = None
        self.gift_refused = False
        self.decided_here = False
        self.closed = False  # scored
        self.ended = False  # the DEAL_END step is out and the result is kept
        self.first_step = table.step_count
        self.pending: list[Diagnostic] = []

    def copied(self, table: Table) -> _DealTable:
        """A copy for ``table`` (a snapshot): every container is copied, the records shared."""
        copy = _DealTable.__new__(_DealTable)
        for name in _DealTable.__slots__:
            value = getattr(self, name)
            if isinstance(value, dict):
                value = {k: (v.copy() if isinstance(v, list) else v) for k, v in value.items()}
            elif isinstance(value, (list, set)):
                value = value.copy()
            setattr(copy, name, value)
        copy.received = {seat: _Slots(list(s.known), dict(s.origin))
                         for seat, s in self.received.items()}
        copy.g = table
        return copy

    # -- plumbing --

    def report(self, code: str, message: str, span: Span | None, *, trick: int | None = None,
               severity: Severity = Severity.ERROR, hint: str | None = None,
               unfinished: bool = False) -> None:
        found = self.g.report(code, message, span, deal=self.number, trick=trick,
                              severity=severity, hint=hint)
        if unfinished:  # only says the deal is not finished (see Outcome)
            self.g.unfinished.append(found)
        if self.keeps_steps:  # shown at the next step; without steps nobody reads it
            self.pending.append(found)

    def step(self, kind: StepKind, text: str, span: Span | None, trick: int | None = None) -> None:
        if not self.g.keep_steps:
            self.g.step_count += 1
            return
        diagnostics = tuple(self.pending)
        self.pending = []
        self.g.add_step(kind, self.number, trick, text, self.state(), span, diagnostics)

    def state(self) -> TableState:
        seats = self.seats
        legal: frozenset[Card] = frozenset()
        if self.to_move in self.hands and self.unknown[self.to_move] == 0:
            # a finished trick stays on show until the next card, but the next card leads
            on_table = self.trick if len(self.trick) < len(seats) else []
            legal = legal_cards(self.hands[self.to_move], on_table, self.trump, self.options)
        return TableState(
            deal=self.number,
            dealer=self.dealer,
            elder=self.elder,
            seats=seats,
            hands=tuple((seat, tuple(self.hands[seat])) for seat in seats),
            unknown=tuple((seat, self.unknown[seat]) for seat in seats),
            turnups=tuple(self.turnups),
            trump=self.trump,
            trick_number=self.trick_number,
            trick=tuple(self.trick),
            leader=self.leader,
            to_move=self.to_move,
            legal=legal,
            won=tuple(self.won.items()),
            pips=tuple(self.pips.items()),
            last_trick_winner=self.last_winner,
            deal_points=tuple(self.points),
            scores=tuple((side, self.g.scores[side]) for side in self.g.sides),
            winner=self.g.winner,
            items=self.items_now(),
        )

    def side(self, seat: Seat) -> str:
        return self.g.side(seat)

    def take_play(self, play: Play) -> None:
        """:meth:`take` for a :class:`Play`, the event nearly every step is."""
        if self.closed:
            self.report("AFN305", "play after the deal was scored", play.span)
            return
        if not self.started:
            self.start()
        self.place((play,))

    def place(self, plays: Sequence[Play]) -> None:
        """Play ``plays`` in turn: each card is seated, checked (held, in turn, follows
        suit or may not), added to the trick and to the inferred hand in one step, a
        trick opened first when none is open.

        A recorded trick's cards come here together (a trick opened by its
        :class:`Trick` record stays open for all of them), so that what every card
        needs is looked up once per trick.  A card that makes the referee fail is
        reported (AFN399), as :meth:`Table.feed` does, and the next one is played.
        """
        hands, next_of, out, played, spent = self.hands, self.next_of, self.out, \
            self.played, self.spent
        players, keeps_steps, game = self.players, self.keeps_steps, self.g
        for play in plays:
            try:
                if not self.playing or self.trick_ended:
                    self.open_trick(None, play.span)
                number = self.trick_number
                expected = self.expected_seat or self.elder
                seat = play.seat
                if seat is None:
                    seat = expected
                elif seat is not expected:
                    self.report_turn(play, expected, number)
                trick = self.trick
                if not trick:
                    self.leader = seat
                self.last_seat = seat
                c = play.card
                try:
                    after = next_of[seat]
                    known = hands[seat]
                except KeyError:  # a seat not at the table (AFN205): no hand to check
                    self.expected_seat = expected
                    trick.append((seat, c))
                    self.play_step(seat, c, play.span, number)
                    if len(trick) == players and not self.written:
                        self.end_trick()
                    continue
                self.expected_seat = after
                if c in out:  # played, turned up or discarded
                    self.play_spent_card(play, seat, c, number)
                elif c in known:  # the usual card: held, as written
                    if trick and c.suit is not trick[0][1].suit:
                        self.check_follow(play, seat, c, number)
                    known.remove(c)
                    spent[c] = number
                    if self.suspicions:
                        self.prove(seat, c, number, recorded=True)
                else:
                    owner = self.recorded_owner.get(c)
                    unknown = self.unknown
                    if owner is None and unknown[seat] > 0:
                        # one of the cards nobody saw: now known, and evidence from here on
                        if trick and c.suit is not trick[0][1].suit:
                            self.check_follow(play, seat, c, number)
                        unknown[seat] -= 1
                        self.inferred[seat].append(c)
                        self.received[seat].origin.setdefault(c, "played")
                        self.holders.setdefault(c, seat)
                        spent[c] = number
                        if self.suspicions:
                            self.prove(seat, c, number, recorded=False)
                    else:
                        self.play_unheld(play, seat, c, number, owner)
                played.add(c)
                out.add(c)
                trick.append((seat, c))
                placed = len(trick)
                self.to_move = after if placed < players else None
                if keeps_steps:
                    self.play_step(seat, c, play.span, number)
                else:
                    game.step_count += 1  # what step() does when no steps are kept
                if placed == players and not self.written:
                    self.end_trick()
            except Exception as error:  # the referee must never take a file down
                game.failed(error, play)

    def take_trick(self, trick: Trick) -> None:
        """:meth:`take` for a :class:`Trick` record (a numbered trick opens)."""
        if self.closed:
            self.report("AFN305", "play after the deal was scored", trick.span)
            return
        if not self.started:
            self.start()
        self.open_trick(trick.number, trick.span, explicit=True)

    def take_hand(self, event: Hand) -> None:
        self.hand(self.as_the_pack_deals(event))

    def take_turn_up(self, event: TurnUp) -> None:
        if self.closed:
            self.report("AFN305", "play after the deal was scored", event.span)
            return
        self.start()
        self.to_move = self.elder if self.g.decided is None else None
        self.turn_up(event)

    def take_call(self, event: Call) -> None:
        if self.closed:
            self.report("AFN305", "play after the deal was scored", event.span)
            return
        self.start()
        self.to_move = self.elder if event.kind is CallKind.STANDS else None
        self.call(event)

    def take_discard(self, event: Discard) -> None:
        if self.closed:
            self.report("AFN305", "play after the deal was scored", event.span)
            return
        self.start()
        self.discard(event)

    def take(self, event: Event) -> None:
        """One event of this deal (:data:`_TAKERS` sends each kind straight to its
        method; this is the long way, for an event of any other type)."""
        taker = _TAKERS.get(type(event))
        if taker is not None:
            taker(self, event)
            return
        if isinstance(event, Hand):
            self.hand(self.as_the_pack_deals(event))
            return
        if isinstance(event, Pack):
            self.pack(event)
            return
        if isinstance(event, (Penalty, Claim, Total, Redeal, Abandoned, Concede)):
            self.end_event(event)
            return
        if self.closed:
            self.report("AFN305", "play after the deal was scored", getattr(event, "span", None))
            return
        self.start()
        if isinstance(event, TurnUp):
            self.to_move = self.elder if self.g.decided is None else None
            self.turn_up(event)
        elif isinstance(event, Call):
            self.to_move = self.elder if event.kind is CallKind.STANDS else None
            self.call(event)
        elif isinstance(event, Discard):
            self.discard(event)
        elif isinstance(event, Trick):
            self.open_trick(event.number, event.span, explicit=True)
        elif isinstance(event, Play):
            self.take_play(event)

    def start(self) -> None:
        """The DEAL_START step, once the hands as dealt are written (or none will be)."""
        if self.started:
            return
        self.started = True
        self.step(StepKind.DEAL_START, f"deal {self.number}: {self.dealer.letter} deals, "
                  f"{self.elder.letter} is elder hand" if self.keeps_steps else "",
                  self.header.span)

    # -- hands: what the record shows each seat received --

    def hand(self, event: Hand) -> None:
        """Cards the record shows a seat received: as dealt, or from a run."""
        slots = self.received.get(event.seat)
        if slots is None:
            return
        seat = event.seat
        in_run = bool(self.turnups)
        origin = "in a run" if in_run else "as dealt"
        where = slots.origin
        fresh = []
        for c in event.cards:
            if c is not None and c not in where:
                fresh.append(c)
        slots.known.extend(fresh)
        owners = self.recorded_owner
        holders = self.holders
        for held in fresh:
            where[held] = origin
            if held not in owners:
                owners[held] = seat
            if held not in holders:
                holders[held] = seat
        if not in_run:
            self.hands[seat] = sorted([*self.hands[seat], *fresh], key=hand_order)
            self.unknown[seat] = max(0, DEALT - len(slots.known))
        elif self.runs > 0 and self.phase != "running":
            self.take_run_cards(seat)  # written after the run's turn-up

    def take_run_cards(self, seat: Seat) -> None:
        """The run's cards written for ``seat`` join its hand, in place of unseen ones."""
        slots = self.received[seat]
        room = RUN_BATCH * self.runs - sum(1 for c in slots.known
                                           if slots.origin[c] == "in the run")
        batch = [c for c in slots.known if slots.origin[c] == "in a run"][:max(0, room)]
        for c in batch:
            slots.origin[c] = "in the run"
            self.holders.setdefault(c, seat)
        taken = min(len(batch), self.unknown[seat])
        self.hands[seat] = sorted([*self.hands[seat], *batch], key=hand_order)
        self.unknown[seat] -= taken

    def hand_size_received(self) -> int:
        return DEALT + RUN_BATCH * self.runs

    def discards_after_run(self) -> bool:
        """Rule 15 as the options say: do the players discard to six after this run?"""
        rule = self.options.hand_after_run
        return rule is HandAfterRun.DISCARD_TO_SIX or \
            (rule is HandAfterRun.KEEP_IF_ONE_RUN and self.runs >= 2)

    def tricks_expected(self) -> int:
        if self.discarding:
            return DEALT
        return self.hand_size_received()

    # -- the order of the pack (deal_pattern) --

    def pack(self, event: Pack) -> None:
        """``pack …``: the 52 cards top first.  The hands as dealt follow at once (as if
        written); each run's cards and every turn-up follow as the deal goes on."""
        problem = ""
        known = [c for c in event.cards if c is not None]
        twice = sorted({c for c in known if known.count(c) > 1}, key=hand_order)
        if self.turnups:
            problem = "the pack is written after the turn-up: write it first in the deal"
        elif self.pack_cards is not None:
            problem = "the pack is written twice"
        elif len(event.cards) != 52:
            problem = f"the pack has {len(event.cards)} cards: write all 52, top first " \
                "(?? for a card nobody saw)"
        elif twice:
            problem = "the pack has " + ", ".join(map(str, twice)) + " twice"
        if problem:
            self.report("AFN318", problem, event.span)
            return
        self.pack_cards = list(event.cards)
        self.pack_span = event.span
        players = len(self.seats)
        for run in range(max_runs(players) + 1):
            for seat, cards in self.dealt_from_pack(run).items():
                for c in cards:
                    if c is not None:
                        self.pack_place.setdefault(c, (seat, run))
            turned = self.pack_cards[turnup_position(players, run) - 1]
            if turned is not None:
                self.pack_place.setdefault(turned, (None, run))
        for seat, cards in self.dealt_from_pack(0).items():
            written = [c for c in self.received[seat].known if c not in cards]
            for c in written:  # a hand written before the pack
                self.report_off_pack(seat, c, self.pack_span)
            self.hand(Hand(seat=seat, cards=tuple(cards), span=event.span))

    def dealt_from_pack(self, run: int) -> dict[Seat, list[Card | None]]:
        """The cards the pack gives each seat as dealt (``run`` 0) or in run ``run``: in deal
        order from the elder, three at a time or one at a time (``deal_pattern``); a run
        deals its three cards each the same way."""
        assert self.pack_cards is not None
        players = len(self.seats)
        order = [self.elder]
        while len(order) < players:
            order.append(self.g.next_of.get(order[-1], order[-1]))
        each = DEALT if run == 0 else RUN_BATCH
        start = 0 if run == 0 else turnup_position(players, run - 1)
        packet = RUN_BATCH if self.options.deal_pattern is DealPattern.THREE_THREE else 1
        dealt: dict[Seat, list[Card | None]] = {seat: [] for seat in order}
        place = start
        for _ in range(each // packet):
            for seat in order:
                dealt[seat].extend(self.pack_cards[place:place + packet])
                place += packet
        return dealt

    def deal_run_from_pack(self) -> None:
        """A run's three cards each, from the pack (``self.runs`` is the run's number)."""
        if self.pack_cards is None or self.runs > max_runs(len(self.seats)):
            return
        for seat, cards in self.dealt_from_pack(self.runs).items():
            self.hand(Hand(seat=seat, cards=tuple(cards), span=self.pack_span))

    def as_the_pack_deals(self, event: Hand) -> Hand:
        """A written hand checked against the pack: a card the pack gives elsewhere is
        reported and left out (the pack says where it went)."""
        if self.pack_cards is None:
            return event
        run = self.runs + (1 if self.phase == "running" else 0) if self.turnups else 0
        wrong = [c for c in event.cards if c is not None and
                 self.pack_place.get(c, (None, -1)) != (event.seat, run)]
        for c in wrong:
            self.report_off_pack(event.seat, c, event.span)
        if not wrong:
            return event
        return Hand(seat=event.seat, cards=tuple(c for c in event.cards if c not in wrong),
                    span=event.span)

    def report_off_pack(self, seat: Seat, c: Card, span: Span | None) -> None:
        where, run = self.pack_place.get(c, (None, -1))
        if run < 0:
            went = "is not dealt by the pack (it stays in the stock)"
        elif where is None:
            went = "is turned up" + (f" in run {run}" if run else "")
        else:
            went = f"goes to {where.letter}" + (f" in run {run}" if run else " as dealt")
        self.report("AFN318", f"{seat.letter}'s hand has {c}, but in the pack written {c} "
                    f"{went}", span)

    def check_turnup_in_pack(self, card: Card, span: Span | None) -> None:
        if self.pack_cards is None:
            return
        run = len(self.turnups)
        position = turnup_position(len(self.seats), run)
        if position > 52:
            return
        expected = self.pack_cards[position - 1]
        if expected is not None and expected != card:
            self.report("AFN318", f"{card} is turned up, but the pack written turns up "
                        f"{expected} here (card {position} of 52)", span)

    # -- discards after a run (hand_after_run) --

    def discard(self, event: Discard) -> None:
        """``S discards …``: put out now when the trumps are settled and the rules call for
        discards; written sooner, kept until the play begins (the rules may not call for
        them after all)."""
        if self.playing:
            self.report("AFN317", f"{event.seat.letter} discards after the play began: "
                        "discards come after the last turn-up, before the first trick",
                        event.span)
            return
        if event.seat not in self.hands:
            return  # a seat not at the table (AFN205)
        self.discard_spans.setdefault(event.seat, event.span)
        if self.discarding and self.phase == "settled":
            self.put_out(event)
        else:
            self.pending_discards.append(event)
        text = ""
        if self.keeps_steps:
            shown = " ".join("??" if c is None else str(c) for c in event.cards)
            text = f"{event.seat.letter} discards {shown}"
        self.step(StepKind.CALL, text, event.span)

    def put_out(self, event: Discard) -> None:
        """Take one seat's discards out of its hand: each must have been held."""
        seat = event.seat
        hand = self.hands[seat]
        for c in event.cards:
            self.discards.setdefault(seat, []).append(c)
            if c is None:
                continue
            problem = ""
            owner = self.recorded_owner.get(c)
            if c in self.turnups:
                problem = f"{c} is the turn-up, in nobody's hand"
            elif c in self.discarded:
                problem = f"{c} is already discarded by {self.discarded[c].letter}"
            elif c in hand:
                hand.remove(c)
            elif owner is not None and owner is not seat:
                problem = f"{c} was dealt to {owner.letter}"
            elif self.unknown[seat] > 0:
                self.unknown[seat] -= 1  # one of the cards nobody saw
            else:
                problem = f"{seat.letter} does not hold it: its hand of " \
                    f"{self.hand_size_received()} is already accounted for"
            if problem:
                self.report("AFN317", f"{seat.letter} discards {c}, but {problem}", event.span)
                continue
            self.discarded[c] = seat
            self.out.add(c)
            self.holders.pop(c, None)

    def discards_known(self, seat: Seat) -> bool:
        """Whether every card ``seat`` put out is written (none ``??``); true where the
        rules call for no discards."""
        if not self.discarding:
            return True
        put = self.discards.get(seat, ())
        return len(put) == RUN_BATCH * self.runs and None not in put

    def finish_discards(self) -> None:
        """The play begins (or the deal ends): check each seat's discards as a whole.

        Discards the rules do not call for are reported; a hand that its discards do
        not settle (none written, or a card nobody saw among them) becomes six unseen
        cards, which the play shows, as when no discards are written at all.
        """
        if self.discards_done:
            return
        self.discards_done = True
        pending, self.pending_discards = self.pending_discards, []
        if not self.discarding:
            for event in pending:
                why = "no cards were run" if not self.runs else \
                    f"after {self.runs} run{'s' if self.runs > 1 else ''} every card is kept " \
                    f"(hand_after_run={self.options.hand_after_run.value})"
                self.report("AFN317", f"{event.seat.letter} discards, but {why}", event.span)
            return
        for event in pending:
            self.put_out(event)
        must = RUN_BATCH * self.runs
        for seat in self.seats:
            put = self.discards.get(seat, [])
            if not put:
                if self.unknown[seat] == 0 and self.trump is not None:
                    self.report("AFN317", f"{seat.letter}'s hand after the run is known "
                                f"({len(self.hands[seat])} cards) but its discards are not "
                                "written", self.turnup_spans[-1] if self.turnup_spans else
                                self.header.span, severity=Severity.WARNING,
                                hint=f"write '{seat.letter} discards …' after the last "
                                f"turn-up: the {must} cards {seat.letter} put out")
            elif len(put) != must:
                self.report("AFN317", f"{seat.letter} discards {len(put)} card"
                            f"{'s' if len(put) != 1 else ''}, but after {self.runs} "
                            f"run{'s' if self.runs > 1 else ''} each player holds "
                            f"{self.hand_size_received()} and puts out {must} (back to six)",
                            self.discard_spans.get(seat))
            if not put or None in put or len(self.hands[seat]) + self.unknown[seat] != DEALT:
                self.forget_hand(seat)

    def forget_hand(self, seat: Seat) -> None:
        """Which six ``seat`` kept is not known: six unseen cards, shown by the play."""
        self.forgotten.add(seat)
        self.hands[seat] = []
        self.unknown[seat] = DEALT
        self.holders = {c: s for c, s in self.holders.items() if s is not seat}

    # -- opening: turn-up, stand, beg, give, run --

    def turn_up(self, event: TurnUp) -> None:
        """One turned card; while the run goes on nobody is to play."""
        card = event.card
        if self.turnups and self.turnups[0].suit is card.suit:
            self.to_move = None
        original = self.turnups[0] if self.turnups else None
        from_run = original is not None
        if from_run and self.phase != "running":
            self.report("AFN309", f"{card} is turned up, but nobody ran the cards", event.span,
                        hint="a new turn-up comes only after 'runs' (or after a run that "
                        "turned the original suit again)")
        if from_run:
            self.runs += 1
            limit = max_runs(len(self.seats))
            if self.runs > limit:
                players = len(self.seats)
                self.report("AFN311", f"run {self.runs} is impossible: with {players} players "
                            f"the pack allows {limit} runs (3 cards each and a turn-up; the "
                            f"last turn-up is card {turnup_position(players, limit)} of 52)",
                            event.span)
            self.deal_run_from_pack()
            self.add_run_cards()
        self.check_turnup_in_pack(card, event.span)
        self.turnups.append(card)
        self.out.add(card)
        self.turnup_spans.append(event.span)
        same_suit = original is not None and card.suit is original.suit
        becomes_trump = not same_suit
        if becomes_trump:
            self.trump = card.suit
        text = ""
        if self.keeps_steps:
            text = f"{self.dealer.letter} turns up {card}"
            if from_run:
                text += f" (run {self.runs})" + (", the same suit: run again" if same_suit
                                                  else f": {card.suit.noun} are trumps")
            else:
                text += f": {card.suit.noun} are trumps"
        self.step(StepKind.TURN_UP, text, event.span)
        again = any(p.item is ClaimItem.KICK for p in self.points)
        points = turnup_points(card, dealer=self.dealer, seats=self.seats, options=self.options,
                               from_run=from_run, becomes_trump=becomes_trump, again=again)
        if not from_run and self.options.jack_on_run is JackOnRun.FINAL_ONLY:
            self.waiting_kick, self.waiting_span = points, event.span
        else:
            self.award(points, event.span)
        if original is None:
            self.phase = "call"
        elif same_suit:
            self.phase = "running"
        else:
            self.settled_by = "run"
            self.phase = "settled"

    def add_run_cards(self) -> None:
        """A run gives three cards to each player: they join the hands (unseen ones counted).

        Where players discard down to six after a run (rule 15), the hands grow all the
        same until the trumps are settled; the ``discards`` written then (or, where none
        are, the play) say which six each player kept.
        """
        if self.discards_after_run():
            self.discarding = True
        for seat, slots in self.received.items():
            batch = [c for c in slots.known if slots.origin[c] == "in a run"][:RUN_BATCH]
            for c in batch:
                slots.origin[c] = "in the run"
                self.holders.setdefault(c, seat)
            self.hands[seat] = sorted([*self.hands[seat], *batch], key=hand_order)
            self.unknown[seat] += RUN_BATCH - len(batch)

    def call(self, event: Call) -> None:
        seat, kind = event.seat, event.kind
        self.calls.append(f"{seat.letter} {_CALL_WORDS[kind]}")
        if kind is not CallKind.BEGS:
            self.settle_kick(kept=kind is not CallKind.RUNS)
        if kind is CallKind.STANDS:
            self.check_stand(event)
            if self.options.stand_requires_trump is YesNo.YES and self.may_beg():
                self.check_trump_held("stands", seat, event.span)
            self.step(StepKind.CALL, f"{seat.letter} stands" if self.keeps_steps else "",
                      event.span)
            if self.phase in ("call", "settled"):
                self.settled_by = self.settled_by or "stand"
                self.phase = "settled"
            return
        if kind is CallKind.BEGS:
            self.check_beg(event)
            self.begs += 1
            self.step(StepKind.CALL, f"{seat.letter} begs" if self.keeps_steps else "",
                      event.span)
            self.phase = "answer"
            return
        if seat is not self.dealer:
            self.report("AFN309", f"{seat.letter} {kind.value}, but only the dealer "
                        f"({self.dealer.letter}) gives or runs", event.span)
        if self.phase != "answer":
            self.report("AFN309", f"{seat.letter} {kind.value}, but nobody has begged",
                        event.span)
        if kind is CallKind.GIVES:
            self.to_move = self.elder
            self.give(event)
            self.settled_by = "give"
            self.phase = "settled"
            return
        if self.runs >= max_runs(len(self.seats)):
            self.report("AFN311", f"the pack is exhausted after {self.runs} runs: the cards "
                        "cannot be run again", event.span)
        self.step(StepKind.RUN, f"{seat.letter} runs the cards: three more each"
                  if self.keeps_steps else "", event.span)
        self.phase = "running"

    def give(self, event: Call) -> None:
        """The gift (rules 9, 12, 13), or its refusal.  One reading for every rule that
        forbids a gift (Foster's at target - 1, ``give_requires_trump``): it scores
        nothing, it is reported at the call, and the deal is played on as recorded
        (docs/rules-decisions.md decision 8)."""
        seat = event.seat
        points, refused = gift_points(dealer=self.dealer, elder=self.elder, seats=self.seats,
                                      options=self.options, scores=self.g.scores)
        if self.options.give_requires_trump is YesNo.YES:
            self.check_trump_held("gives", seat, event.span)  # may refuse it, or wait
        self.step(StepKind.CALL, f"{seat.letter} gives one (take one)" if self.keeps_steps
                  else "", event.span)
        if refused is not None:
            self.refuse_gift("AFN310", f"the gift is forbidden under these rules: {refused}",
                             event.span)
            return
        if self.gift_refused:
            return
        if any(lack.call == "gives" for lack in self.lacks):
            self.pending_gift = (points, event.span)  # the play will show the hand
            return
        self.award(points, event.span)

    def refuse_gift(self, code: str, message: str, span: Span | None,
                    hint: str | None = None) -> None:
        """A gift the rules forbid: reported at the call, not scored."""
        self.gift_refused = True
        self.pending_gift = None
        self.report(code, f"{message}; the gift is not scored, and the deal is played on as "
                    "recorded", span, hint=hint)

    def gift_allowed(self) -> bool:
        """Whether a gift waiting for the play is known to be allowed: the dealer was
        seen to hold a trump (``give_requires_trump``)."""
        trump = self.trump
        return trump is not None and any(
            c.suit is trump and seat is self.dealer
            for c, seat in (*self.holders.items(), *self.discarded.items()))

    def settle_gift(self) -> None:
        """Count a gift that waited for the play to show the dealer's hand: at the
        deal's end, unless the play proved it forbidden (in order: before High)."""
        pending, self.pending_gift = self.pending_gift, None
        if pending is not None and not self.gift_refused:
            self.award(*pending)

    def settle_kick(self, *, kept: bool) -> None:
        """``jack_on_run=final_only``: the first turn-up stays trumps (``kept``) and
        scores now, or the cards are run and it never scores."""
        points, self.waiting_kick = self.waiting_kick, []
        if kept and points and self.runs == 0:
            self.award(points, self.waiting_span)

    def may_beg(self) -> bool:
        """Whether the elder could beg instead of standing now: at the first turn-up, or
        after a run where the rules allow another beg (a stand the run made needless is
        not held to ``stand_requires_trump``)."""
        if self.phase == "call":
            return True
        return self.phase == "settled" and self.settled_by == "run" and \
            self.options.begs_per_deal is BegsPerDeal.UNLIMITED

    def check_trump_held(self, call: str, seat: Seat, span: Span | None) -> None:
        """``stand_requires_trump`` / ``give_requires_trump``: the elder without a trump
        must beg, a dealer without a trump must run.  A hand fully known is judged now;
        one not fully written is judged when the play has shown every card of it."""
        trump = self.trump
        if trump is None or seat not in self.hands:
            return
        if any(c.suit is trump for c in self.hands[seat]):
            return
        lack = _Lack(call, seat, trump, span, len(self.g.found), self.g.step_count)
        if self.unknown[seat] == 0:
            self.report_lack(lack, sorted(self.hands[seat], key=hand_order), proved=False)
        else:
            self.lacks.append(lack)

    def report_lack(self, lack: _Lack, hand: list[Card], *, proved: bool) -> None:
        seat, noun = lack.seat, lack.trump.noun
        if lack.call == "stands":
            code, option, rule = "AFN308", "stand_requires_trump", \
                "the elder hand without a trump must beg"
        else:
            code, option, rule = "AFN309", "give_requires_trump", \
                "a dealer without a trump must run the cards, may not give"
        shown = " ".join(str(c) for c in hand)
        how = f"the play shows {seat.letter} held {shown}" if proved else \
            f"{seat.letter} holds {shown}"
        message = f"{seat.letter} {lack.call} without a trump ({how}: no {noun}); " \
            f"under {option}=yes {rule}"
        hint = f"{option}: a Trinidad house rule, docs/rules.md section 6.3"
        if lack.call == "gives":
            self.refuse_gift(code, message, lack.span, hint=hint)
        else:
            self.report(code, message, lack.span, hint=hint)
        self.g.hand_proofs.append(self.g.found[-1])
        if proved:
            self.g.proved_later.append((self.g.found[-1], lack.found_at, lack.step))

    def settle_lacks(self) -> None:
        """The deal is over: a stand or gift without a trump is proven when the play
        showed every card the player held (none a trump)."""
        if not self.lacks:
            return
        held = dict(self.held_at_start)
        for lack in self.lacks:
            if self.unknown.get(lack.seat, 1) != 0 or not self.discards_known(lack.seat):
                continue
            put_out = [c for c, s in self.discarded.items() if s is lack.seat]
            hand = [*held.get(lack.seat, ()), *self.inferred.get(lack.seat, ()), *put_out]
            if not any(c.suit is lack.trump for c in hand):
                self.report_lack(lack, sorted(hand, key=hand_order), proved=True)
        self.lacks = []

    def check_stand(self, event: Call) -> None:
        seat = event.seat
        if seat is not self.elder:
            self.report("AFN308", f"{seat.letter} stands, but only the elder hand "
                        f"({self.elder.letter}) stands or begs", event.span)
        problem = _STAND_TOO_SOON.get(self.phase)
        if self.phase == "settled" and self.settled_by in ("stand", "give"):
            problem = "twice: the trump is already settled"
        if problem:
            self.report("AFN308", f"{seat.letter} stands {problem}", event.span)

    def check_beg(self, event: Call) -> None:
        seat = event.seat
        if seat is not self.elder:
            self.report("AFN308", f"{seat.letter} begs, but only the elder hand "
                        f"({self.elder.letter}) begs", event.span)
        problem = _BEG_TOO_SOON.get(self.phase)
        if self.phase == "settled":
            if self.settled_by == "stand":
                problem = "after standing"
            elif self.settled_by == "give":
                problem = "after the gift: the trump stands"
            elif self.options.begs_per_deal is BegsPerDeal.ONE:
                problem = "a second time: the rules allow one beg per deal"
        if problem:
            self.report("AFN308", f"{seat.letter} begs {problem}", event.span,
                        hint="begs_per_deal=unlimited allows a beg after each run"
                        if "second" in problem else None)

    def check_opening_end(self, has_play: bool) -> None:
        """What the opening left undone, asked when the play begins (or the deal ends)."""
        if self.phase in ("call", "settled"):
            self.settle_kick(kept=True)  # play with no call is standing (decision 5)
        if self.decided_here:
            return  # the game ended during the opening: nothing more was due
        if self.results is not None and not has_play:
            return  # recorded by its results: the opening may be written in part, or not
        ending = self.ending
        if not self.turnups:
            if has_play or ending is None:
                self.report("AFN314", "the deal has no turn-up, so trumps are unknown",
                            self.header.span, hint="write the turned card: 'turn 4S'")
            return
        if self.phase == "answer" and (has_play or ending is None):
            self.report("AFN316", f"{self.elder.letter} begged but the dealer neither gave nor "
                        "ran", self.header.span, hint="write 'N gives' or 'N runs' after the beg")
        exhausted = self.runs >= max_runs(len(self.seats))
        redeal = isinstance(ending, Redeal) and ending.reason is RedealReason.EXHAUSTED
        if self.phase == "running" and not redeal:
            last = self.turnups[-1]
            if self.runs == 0:
                self.report("AFN309", "the cards were run but no new turn-up is written",
                            self.header.span,
                            hint="write the card turned after the run: 'turn QD'",
                            unfinished=True)
            elif exhausted:
                self.report("AFN311", f"the run turned {last}, the suit of the original turn-up, "
                            "and the pack is exhausted: the same dealer deals again",
                            self.header.span, hint="end the deal with 'redeal exhausted'",
                            unfinished=True)
            else:
                self.report("AFN309", f"the run turned {last}, the suit of the original "
                            f"turn-up: the dealer must run again (rule 9)", self.header.span,
                            hint="write the next turn-up after it", unfinished=True)
        if redeal and not (self.phase == "running" and exhausted):
            assert isinstance(ending, Redeal)
            why = "a new suit was turned" if self.phase != "running" else \
                "the dealer may run again"
            self.report("AFN311", f"'redeal exhausted', but the pack is not exhausted: "
                        f"{self.runs} of {max_runs(len(self.seats))} possible runs, and {why}",
                        ending.span)

    # -- play --

    def begin_play(self, first_span: Span | None) -> None:
        """The opening is over: check what it left undone; the elder leads."""
        self.playing = True
        self.patch_from = self.g.step_count
        if self.decided_here:
            self.report("AFN313", f"the game was decided before play ({self.g.decided}); the "
                        "tricks of this deal are not scored", first_span,
                        severity=Severity.WARNING)
        if self.phase == "call" and self.options.stand_requires_trump is YesNo.YES:
            self.check_trump_held("stands", self.elder, first_span)  # no call is standing
        self.check_opening_end(has_play=True)
        self.finish_discards()
        self.phase = "play"
        self.held_at_start = self.hands_now()
        self.leader = self.elder
        self.to_move = self.elder
        self.expected_seat = self.elder

    def open_trick(self, number: int | None, span: Span | None, *,
                   explicit: bool = False) -> None:
        """A new trick: a short trick before it keeps no winner, but its best card
        still says who leads next.

        A trick opened by a :class:`Trick` record (``explicit``) ends when the next
        one opens or the deal is scored, so that a record's trick of too many
        cards stays one trick; a trick opened by its first card ends when full.
        """
        if not self.playing:
            self.begin_play(span)
        elif self.trick and not self.trick_ended:
            if len(self.trick) == len(self.seats):
                self.end_trick()
            else:  # short or overfull (the parser said so): no winner kept
                self.expected_seat = trick_winner(self.trick, self.trump)
        self.written = explicit
        self.trick_count += 1
        self.trick_number = number if number is not None else self.trick_number + 1
        self.trick = []
        self.slips = []
        self.trick_ended = False
        self.trick_span = span
        self.trick_spans.append(span)
        if self.first_trick_span is None:
            self.first_trick_span = span
        self.last_trick_span = span

    def report_turn(self, play: Play, expected: Seat, number: int) -> None:
        """A wrong leader (AFN303) or a card out of turn (AFN302).

        These belong to the event (its outcome has them) but not to its step: the
        card is seated as labelled and play goes on, so the viewer marks no step.
        """
        assert play.seat is not None
        if not self.trick:
            why = "the elder hand leads the first trick" if number == 1 else \
                "the winner of the last trick leads"
            self.g.report("AFN303", f"{play.seat.letter} leads trick {number}, but "
                          f"{expected.letter} should lead ({why})", play.span,
                          deal=self.number, trick=number)
            return
        already = any(seat is play.seat for seat, _ in self.trick)
        detail = f"{play.seat.letter} has already played to this trick" if already else \
            f"it is {expected.letter}'s turn"
        self.g.report("AFN302", f"{play.seat.letter} plays {play.card} out of turn: {detail}",
                      play.span, deal=self.number, trick=number)

    def play_spent_card(self, play: Play, seat: Seat, c: Card, number: int) -> None:
        """A card that cannot be in a hand: played already, the turn-up, or discarded."""
        if c in self.played:
            self.slip(play, seat, c, number)
        elif c in self.turnups:
            pass  # the turn-up is in nobody's hand (AFN202): no evidence either way
        else:
            by = self.discarded[c]
            who = seat.letter if by is seat else by.letter
            self.report("AFN301", f"{seat.letter} plays {c}, but {who} discarded {c} after "
                        "the run", play.span, trick=number)
            self.spent[c] = None

    def play_unheld(self, play: Play, seat: Seat, c: Card, number: int,
                    owner: Seat | None) -> None:
        """A card not among those ``seat`` is known to hold, nor one of its unseen ones
        (those :meth:`take_play` places itself)."""
        if owner is not None and owner is not seat:
            self.report_not_held(play, seat, c, number)
            self.spent[c] = None
        elif owner is seat and seat not in self.forgotten:
            # written for this seat but not in its hand now (a run's card beyond the run)
            self.check_follow(play, seat, c, number)
            if self.unknown[seat] > 0:
                self.unknown[seat] -= 1
            self.spend(c, seat, number)
        elif self.unknown[seat] > 0:  # written for this seat, whose hand was then forgotten
            self.check_follow(play, seat, c, number)
            self.unknown[seat] -= 1
            self.inferred[seat].append(c)
            self.received[seat].origin.setdefault(c, "played")
            self.holders.setdefault(c, seat)
            self.spend(c, seat, number)
            self.prove(seat, c, number, recorded=False)
        else:
            self.report_not_held(play, seat, c, number)
            self.spent[c] = None

    def spend(self, c: Card, seat: Seat, number: int) -> None:
        """``seat`` played ``c`` as its holder, in trick ``number``."""
        self.spent[c] = number

    def slip(self, play: Play, seat: Seat, c: Card, number: int) -> None:
        """A card already played: a recording slip, not evidence and not a capture."""
        self.slips.append(len(self.trick))
        if self.records_checked:
            return  # the parser's structure checks said so (AFN201)
        first = self.spent.get(c)
        where = f" (first in trick {first})" if first is not None else ""
        self.report("AFN201", f"{c} is played twice{where}", play.span, trick=number)

    @property
    def records_checked(self) -> bool:
        return self.g.records_checked

    def play_step(self, seat: Seat, c: Card, span: Span | None, number: int) -> None:
        text = f"{seat.letter} plays {c}" if self.keeps_steps else ""
        self.step(StepKind.PLAY, text, span, number)

    def report_not_held(self, play: Play, seat: Seat, c: Card, number: int) -> None:
        owner = self.recorded_owner.get(c)
        if seat in self.forgotten or owner is None:
            owner = next((s for s, slots in self.received.items()
                          if c in slots.origin and slots.origin[c] != "played"), None)
        if owner is not None and owner is not seat:
            message = f"{seat.letter} plays {c}, but {c} was dealt to {owner.letter}"
        else:
            size = self.hand_size_received()
            message = (f"{seat.letter} plays {c}, a card {seat.letter} does not hold: its hand "
                       f"of {size} is already accounted for")
        self.report("AFN301", message, play.span, trick=number)

    def check_follow(self, play: Play, seat: Seat, c: Card, number: int) -> None:
        """Rule 18 (revoke) and rule 20 (undertrump).  This is where a revoke is detected.

        An offence is named by its proof: of the cards the record says the
        offender held, the first in their hand as written (what a recorder judging
        the deal at the offending card names too: the cards still to be played
        cannot change it); when the record shows none, the first card they later
        play from their unseen cards that shows it.  An offence is reported when a
        proof is played (or when the deal is scored), positioned at the offending
        card.
        """
        trick = self.trick
        if not trick:
            return
        led = trick[0][1].suit
        trump = self.trump
        suit = c.suit
        if suit is led:
            return
        spent = self.spent
        rule = self.options.follow_rule
        if suit is not trump or rule is FollowRule.MUST_FOLLOW:
            kind = "revoke"  # must_follow: trumping while holding the suit led is one too
            proofs = []  # (a loop: the hand is a handful of cards, often none of the suit)
            for h in self.hands[seat]:
                if h.suit is led and h not in spent:
                    proofs.append(h)
        elif rule is FollowRule.NO_UNDERTRUMP and trump is not None and led is not trump:
            top = None
            for _, p in trick:
                if p.suit is trump and (top is None or p.rank > top):
                    top = p.rank
            if top is None or c.rank > top:
                return
            kind = "undertrump"
            narrow = self.options.undertrump_exception is UndertrumpException.VOID_IN_LED_SUIT
            proofs = [h for h in self.hands[seat] if h not in spent and
                      (h.suit is led if narrow else h.suit is not trump)]
        else:
            return
        if proofs or self.unknown[seat] > 0:
            self.suspicions.append(_Suspicion(kind, seat, c, led, number, len(self.played),
                                              play.span, proofs, len(self.g.found),
                                              self.g.step_count))

    def offence(self, s: _Suspicion, proof: Card, because: str) -> None:
        seat, c, number = s.seat, s.card, s.trick
        if s.kind == "revoke":
            how, hint = "neither following suit nor trumping", None
            if c.suit is self.trump and self.options.follow_rule is FollowRule.MUST_FOLLOW:
                how = "trumping instead of following suit (follow_rule=must_follow)"
                hint = "follow_rule=must_follow: no trumping while holding the suit led " \
                    "(modern American tables and Pitch, docs/rules.md section 6.4)"
            self.report("AFN306", f"revoke: {seat.letter} plays {c} on {s.led.noun} led, "
                        f"{how}, but held {proof} ({because}); "
                        "the card stands and the revoke is penalised", s.span,
                        trick=number, severity=Severity.WARNING, hint=hint)
            reason = f"{seat.letter} revoked in trick {number}"
        else:
            narrow = self.options.undertrump_exception is UndertrumpException.VOID_IN_LED_SUIT
            bound = ", a card of the suit led" if narrow else ""
            hint = "undertrump_exception=void_in_led_suit: bound only while holding the " \
                "suit led (a narrower reading of the Trinidad rule, docs/rules.md section " \
                "6.4)" if narrow else None
            self.report("AFN307", f"undertrump: {seat.letter} plays {c} under a higher "
                        f"trump while holding {proof}{bound} ({because}); penalised like a "
                        "revoke", s.span, trick=number, severity=Severity.WARNING, hint=hint)
            reason = f"{seat.letter} undertrumped in trick {number}"
        self.offences.append((s.order, Offence(seat, s.kind, number, reason)))
        self.g.proved_later.append((self.g.found[-1], s.found_at, s.step))

    def prove(self, seat: Seat, c: Card, number: int, *, recorded: bool) -> None:
        """``seat`` played ``c`` from its hand: it was held all along, so it may prove
        (and name) an offence shown earlier."""
        suspicions = self.suspicions
        for s in suspicions:  # most cards prove nothing: look before rebuilding the list
            if s.seat is seat and (c in s.recorded if s.recorded else
                                   not recorded and self.shows(s, c)):
                break
        else:
            return
        left: list[_Suspicion] = []
        for s in suspicions:
            if s.seat is not seat:
                left.append(s)
            elif s.recorded:
                if c in s.recorded:  # named by the first proving card of the hand, as a
                    # recorder judging the deal before this card was played names it
                    first = s.recorded[0]
                    self.offence(s, first, self.proof_text(seat, first))
                else:
                    left.append(s)
            elif not recorded and self.shows(s, c):
                self.offence(s, c, f"proved when {seat.letter} plays it in trick {number}")
            else:
                left.append(s)
        self.suspicions = left

    def shows(self, s: _Suspicion, c: Card) -> bool:
        """Whether holding ``c`` all along makes suspicion ``s`` an offence: a card of the
        suit led for a revoke (and, in the narrower reading of rule 20, an undertrump),
        any card that is not a trump for an undertrump."""
        narrow = self.options.undertrump_exception is UndertrumpException.VOID_IN_LED_SUIT
        if s.kind == "revoke" or narrow:
            return c.suit is s.led
        return c.suit is not self.trump

    def settle_suspicions(self) -> None:
        """The deal is over: an offence the record proves but whose proof was never
        played is named by the first proving card of the hand."""
        if not self.suspicions:
            return
        for s in sorted(self.suspicions, key=lambda s: s.order):
            if s.recorded:
                self.offence(s, s.recorded[0], self.proof_text(s.seat, s.recorded[0]))
        self.suspicions = []

    def proof_text(self, seat: Seat, c: Card) -> str:
        origin = self.received[seat].origin.get(c)
        return "hand as dealt" if origin == "as dealt" else "received in the run"

    def end_trick(self) -> None:
        trick = self.trick
        plays = tuple(trick)
        slips = self.slips
        if slips:  # a card played twice counts once, in the trick it was first played to
            winner = trick_winner(trick, self.trump)
            scored = tuple(p for i, p in enumerate(plays) if i not in slips)
            pips = 0
            for _, c in scored:
                pips += CARD_PIPS[c]
        else:  # rule 19 in one place (play.trick_winner), not a copy inlined here
            scored = plays
            winner = trick_winner(trick, self.trump)
            pips = 0
            for _, c in trick:
                pips += CARD_PIPS[c]
        side = self.g.side_by_seat.get(winner)
        if side is None:  # a seat not at the table (AFN205)
            side = winner.letter
        won = self.won
        won[side] = won.get(side, 0) + 1
        self.pips[side] = self.pips.get(side, 0) + pips
        self.last_winner = winner
        self.leader = winner
        self.to_move = winner
        self.expected_seat = winner
        self.trick_ended = True
        number = self.trick_number
        if self.keeps_steps:
            self.step(StepKind.TRICK_END, self.trick_text(winner, number), self.trick_span,
                      number)
        else:
            self.g.step_count += 1  # what step() does when no steps are kept
        self.completed_tricks.append((number, winner, plays))
        self.scored_tricks.append((number, winner, scored))
        self.trick = []
        self.slips = []

    def trick_text(self, winner: Seat, number: int) -> str:
        best = next(c for s, c in self.trick if s is winner)
        return f"{winner.letter} wins trick {number} with {best}"

    # -- the end of the deal: penalties, ending, claim, total --

    def take_results(self, event: Results) -> None:
        """``scored …``: the deal's results, in place of its cards; the deal is scored."""
        if self.closed or self.results is not None:
            self.report("AFN206", "results after the deal was scored do not count", event.span)
            return
        self.results = event
        self.close()

    def end_event(self, event: Penalty | Claim | Total | Redeal | Abandoned | Concede) -> None:
        if isinstance(event, Penalty):
            if self.closed:
                self.report("AFN206", "a penalty after the deal was scored does not count",
                            event.span)
                return
            self.penalties.append(event)
            return
        if isinstance(event, (Redeal, Abandoned, Concede)):
            if self.closed and self.ending is None and self.results is not None and \
                    not self.trick_count:  # a results deal, scored by its results first
                self.ending = event
                if isinstance(event, Redeal):
                    self.score_redeal(event)
                return
            if self.ending is not None or self.closed:
                self.report("AFN206", "a deal can end only once", event.span)
                return
            self.ending = event
            if isinstance(event, Redeal):
                self.close()
            return
        if isinstance(event, Claim):
            self.claim = event
        else:
            self.total = event
        self.close()

    def close(self) -> None:
        """Score the deal: the short last trick, the trick count, the points."""
        if self.closed:
            return
        if not self.started:
            self.start()
        if self.playing and self.trick and not self.trick_ended and \
                len(self.trick) >= len(self.seats):
            self.end_trick()  # a full trick opened by its record; a short one counts for nobody
        self.was_open = self.still_played()
        if not self.playing:
            self.patch_from = self.g.step_count
            self.check_opening_end(has_play=False)
            self.finish_discards()
            self.held_at_start = self.hands_now()
            self.leader = self.elder
            self.to_move = self.elder if self.trump is not None else None
        self.closed = True
        if self.suspicions:
            self.settle_suspicions()
        if self.lacks:
            self.settle_lacks()
        self.check_trick_count(self.tricks_expected())
        self.score()

    def check_trick_count(self, expected: int) -> None:
        played = self.trick_count
        if self.results is not None:
            if played and self.results.director:
                self.report("AFN410", "the deal is scored by the director's ruling "
                            "('director scored'), not by its cards", self.results.span,
                            severity=Severity.WARNING)
            elif played:
                self.report("AFN409", "the deal is recorded both by its cards and by its "
                            "results; it is scored by the cards", self.results.span,
                            hint="keep one: the tricks, or the 'scored' line")
            return
        if self.trump is None or isinstance(self.ending, Redeal):
            if isinstance(self.ending, Redeal) and played:
                self.report("AFN305", "cards are played in a deal that was redealt",
                            self.first_trick_span)
            return
        if played > expected:
            self.report("AFN305", f"{played} tricks are played; each player holds {expected} "
                        "cards, so a deal has " + str(expected), self.trick_spans[expected],
                        trick=expected + 1)
        elif played < expected and self.ending is None and self.g.decided is None:
            self.report("AFN304", f"only {played} of {expected} tricks are written and the deal "
                        "does not say why", self.last_trick_span if played
                        else self.header.span,
                        hint="write every trick, or end the deal with 'abandoned' or "
                        "'S concedes'")

    # -- scoring --

    def award(self, points: Sequence[Point], span: Span | None,
              capped: frozenset[str] = frozenset()) -> None:
        if not points:
            return
        if not self.scoring or self.g.decided is not None:
            self.unscored.extend(points)
            return
        scored, decider = count_in_order(points, self.g.scores, self.options, capped=capped)
        if not self.keeps_steps:
            self.points.extend(scored)
            self.g.step_count += len(scored)  # what step() does when no steps are kept
        else:
            for point in scored:
                self.points.append(point)
                self.step(StepKind.AWARD, f"{point.side} scores {ITEM_LABELS[point.item]} "
                          f"({point.points}): {point.reason}", span)
        if decider is not None:
            self.g.winner = decider.side
            self.g.decided = f"deal {self.number}, at {ITEM_LABELS[decider.item]}"
            self.g.decided_deal = self.number
            self.decided_here = True
            self.unscored.extend(points[len(scored):])

    def found_offences(self) -> list[Offence]:
        return [o for _, o in sorted(self.offences, key=lambda pair: pair[0])]

    def declared_offences(self) -> list[Offence]:
        """Penalties written in the record, matched with the offences the play shows."""
        if not self.penalties:
            return self.found_offences() if self.offences else []
        found = self.found_offences()
        unmatched = list(found)
        for penalty in self.penalties:
            kind = penalty.kind.value
            match = next((o for o in unmatched if o.seat is penalty.offender and o.kind == kind),
                         None)
            if match is not None:
                unmatched.remove(match)
                continue
            if penalty.kind in (PenaltyKind.REVOKE, PenaltyKind.UNDERTRUMP) and \
                    self.complete_hands():
                self.report("AFN315", f"'penalty {penalty.offender.letter} {kind}' is declared, "
                            f"but the play shows no {kind} by {penalty.offender.letter}; "
                            "the declared penalty is scored", penalty.span,
                            severity=Severity.WARNING)
            found.append(Offence(penalty.offender, kind, None,
                                 f"{penalty.offender.letter} was penalised for {_KIND_TEXT[kind]}"))
        return found

    def still_played(self) -> bool:
        """Whether the deal is still being played: no ending, claim or total, and the
        trumps unsettled or tricks to come (the deal is scored as if it ended now)."""
        if self.ending is not None or self.claim is not None or self.total is not None:
            return False
        if self.results is not None and (not self.trick_count or self.results.director):
            return False  # scored by its results: nothing more is to be played
        if self.phase not in ("settled", "play"):
            return True
        return len(self.completed_tricks) < self.tricks_expected()

    def settled_for_good(self) -> bool:
        """Whether the trumps and the hands in play are fixed: the play began (or the deal
        is over), or nothing before the first lead can change them any more."""
        if self.phase == "play" or self.closed:
            return self.phase in ("settled", "play")
        if self.phase != "settled":
            return False
        if self.discarding and not self.discards_done:
            return False  # the discards still take cards out of play
        return not (self.settled_by == "run" and
                    self.options.begs_per_deal is BegsPerDeal.UNLIMITED)

    def complete_hands(self) -> bool:
        return all(self.unknown[seat] == 0 for seat in self.seats) and self.trick_count > 0

    def score(self) -> None:
        if not self.was_open:
            self.settle_gift()  # a deal the record closed: counted unless proven forbidden
        ending = self.ending
        if isinstance(ending, Redeal):
            self.score_redeal(ending)
            return
        if self.results is not None and (not self.trick_count or self.results.director):
            self.score_results(self.results)
            return
        offences = self.declared_offences()
        if isinstance(ending, (Abandoned, Concede)) and self.trick_count < self.tricks_expected():
            if any(o.kind in ("misdeal", "wrongscore") for o in offences):
                self.award(self.penalties_only(offences), self.header.span)
            return
        if not self.trick_count and self.trump is None:
            return
        if not self.trick_count and self.g.decided is not None:
            return
        if self.phase == "running":
            return  # the run turned the original suit and stops: no trumps (rule 9)
        points = self.play_points_now(offences)
        gift: list[Point] = []
        if self.pending_gift is not None:  # still being played: first in counting order
            gift, self.pending_gift = self.pending_gift[0], None
        capped: frozenset[str] = frozenset()
        if offences and self.options.revoke_penalty is RevokePenalty.FOSTER_GRADED and \
                (self.options.foster_cap is FosterCap.ALWAYS or
                 (self.trump is not None and _JACK_OF[self.trump] in self.holders)):
            capped = frozenset(self.side(o.seat) for o in offences
                               if o.kind in ("revoke", "undertrump"))
        span = self.claim.span if self.claim else self.header.span
        if not self.was_open:
            self.award(points, span, capped)
            return
        # Still being played: count the decided items in counting order up to the first
        # that is not decided (rule 25: a later one cannot go out before it); the rest
        # would score if the deal ended now, and count for nobody yet.
        statuses = [Status.DECIDED if self.gift_allowed() else Status.PROVISIONAL
                    for _ in gift] + self.point_statuses(points, offences)
        points = [*gift, *points]
        running = dict(self.g.scores)
        counted = 0
        foster = self.options.revoke_penalty is RevokePenalty.FOSTER_GRADED
        before_high = self.options.penalty_timing is PenaltyTiming.BEFORE_HIGH
        for point, status in zip(points, statuses, strict=True):
            if status is not Status.DECIDED:
                break
            if before_high and point.item not in (ClaimItem.PENALTY, ClaimItem.GIFT):
                break  # a revoke still to come would be counted before it
            if not before_high and point.item is ClaimItem.PENALTY:
                break  # after Game, which is never decided before the deal ends (and a
                # Game that nobody would score now may yet be somebody's)
            after = running.get(point.side, 0) + point.points
            if foster and after >= self.options.target:
                break  # a revoke still to come would keep that side from going out
            running[point.side] = after
            counted += 1
        self.award(points[:counted], span, capped)
        if self.g.decided is None:
            self.provisional.extend(points[counted:])
            self.waiting.extend(p for p, status in zip(points[counted:], statuses[counted:],
                                                       strict=True)
                                if status is Status.DECIDED)
        elif self.decided_here:
            self.unscored.extend(points[counted:])

    def play_points_now(self, offences: Sequence[Offence]) -> list[Point]:
        """High, Low, Jack, Game and penalties from the complete tricks so far (rule 25
        order); no Game for a deal with no trick written."""
        trump = self.trump
        jack = _JACK_OF[trump] if trump is not None else None
        turnup_jack = bool(self.turnups) and jack is not None and self.turnups[-1] is jack
        facts = deal_facts(self.seats, self.dealer, self.elder, trump, turnup_jack, self.holders,
                           tuple(self.scored_tricks), tuple(offences), self.pips)
        points = play_points(facts, self.options, self.g.scores)
        if not self.scored_tricks:
            points = [p for p in points if p.item is not ClaimItem.GAME]
        return points

    def point_statuses(self, points: Sequence[Point],
                       offences: Sequence[Offence]) -> list[Status]:
        """Decided or provisional, for each of ``points`` computed as if the deal ended
        now (see :mod:`.decided`)."""
        if not self.was_open and self.closed:
            return [Status.DECIDED] * len(points)
        trump = self.trump
        if trump is None or not self.settled_for_good():
            return [Status.UNKNOWN if p.item is not ClaimItem.PENALTY else Status.PROVISIONAL
                    for p in points]
        unseen = sum(self.unknown.get(seat, 0) for seat in self.seats)
        accounted = {*self.turnups, *self.discarded}
        high, low = certain_high_low(trump, self.holders, accounted, unseen)
        jack = _JACK_OF[trump]
        complete = {c for _, _, plays in self.scored_tricks for _, c in plays}
        foster = self.options.revoke_penalty is RevokePenalty.FOSTER_GRADED
        jack_known = unseen == 0 or jack in self.holders or jack in accounted
        found: list[Status] = []
        for point in points:
            item = point.item
            if item is ClaimItem.HIGH:
                sure = high
            elif item is ClaimItem.LOW:
                sure = low and (self.options.low_owner is LowOwner.ORIGINAL_HOLDER or
                                self.lowest_trump() in complete)
            elif item in (ClaimItem.JACK, ClaimItem.HANG_JACK):
                sure = jack in complete and not foster  # a later revoke bars it (Foster)
            elif item is ClaimItem.PENALTY:
                sure = self.options.revoke_penalty in (RevokePenalty.OPPONENT_PLUS_1,
                                                       RevokePenalty.OPPONENT_PLUS_14) or \
                    (foster and jack_known)
            else:
                sure = False  # Game: at the deal's end
            found.append(Status.DECIDED if sure else Status.PROVISIONAL)
        return found

    def lowest_trump(self) -> Card | None:
        trump = self.trump
        low = None
        for c in self.holders:
            if c.suit is trump and (low is None or c.rank < low.rank):
                low = c
        return low

    def items_now(self) -> tuple[ItemStatus, ...]:
        """Every item of the deal as the table knows it now (the state's ``items``): made
        again only when something it depends on changed (a trick completed, a card seen,
        an offence proven, a point counted), not for every card."""
        trump = self.trump
        trumps_seen = 0  # a card seen that is not a trump changes no item but Game's
        for c in self.holders:
            if c.suit is trump:
                trumps_seen += 1
        key = (len(self.scored_tricks), trumps_seen, len(self.offences), len(self.points),
               len(self.unscored), len(self.provisional), self.phase, self.closed,
               self.pending_gift is None, len(self.waiting_kick), len(self.discarded),
               self.g.decided is None, not any(self.unknown.values()), trump)
        cached = self.items_cache
        if cached is not None and cached[0] == key:
            return cached[1]
        found = self.make_items()
        self.items_cache = (key, found)
        return found

    def make_items(self) -> tuple[ItemStatus, ...]:
        items: list[ItemStatus] = []
        provisional_kicks = self.options.keep_turnup_points_on_redeal is YesNo.NO and \
            self.phase not in ("settled", "play")
        for p in self.points:
            status = Status.PROVISIONAL if provisional_kicks and p.item is ClaimItem.KICK \
                else Status.DECIDED
            items.append(item_of(p, status))
        for p in self.unscored:
            items.append(ItemStatus(p.item, Status.DECIDED, None, 0, p,
                                    "not scored: the game was already decided"))
        if self.closed:
            for p in self.provisional:
                items.append(item_of(p, Status.DECIDED if p in self.waiting
                                     else Status.PROVISIONAL))
            return tuple(items)
        for p in self.waiting_kick:
            items.append(item_of(p, Status.PROVISIONAL))
        if self.pending_gift is not None:
            status = Status.DECIDED if self.gift_allowed() else Status.PROVISIONAL
            items.extend(item_of(p, status) for p in self.pending_gift[0])
        if self.g.decided is not None or self.trump is None:
            return tuple(items)
        if self.phase not in ("settled", "play"):
            for item in (ClaimItem.HIGH, ClaimItem.LOW, ClaimItem.JACK, ClaimItem.GAME):
                items.append(ItemStatus(item, Status.UNKNOWN, None, 0, None,
                                        "the trumps are not settled"))
            return tuple(items)
        offences = self.found_offences()
        points = self.play_points_now(offences)
        statuses = self.point_statuses(points, offences)
        items.extend(item_of(p, status) for p, status in zip(points, statuses, strict=True))
        return tuple(items)

    def score_results(self, results: Results) -> None:
        """A deal recorded by its results: the items checked (see :mod:`.results`), then
        counted in order like a played deal's; items after the target are not scored."""
        kicked = tuple(p for p in (*self.points, *self.unscored) if p.item is ClaimItem.KICK)
        facts = ResultsFacts(self.seats, self.dealer, self.elder, tuple(self.turnups), kicked,
                             bool(self.calls), any(c.endswith(" gives") for c in self.calls),
                             dict(self.g.scores))
        points, findings = results_points(results.awards, facts, self.options)
        for finding in findings:
            self.report(finding.code, finding.message, results.span, severity=finding.severity,
                        hint=finding.hint)
        if not self.scoring:
            return  # after the game was decided (AFN313): nothing counts
        unscored_before = len(self.unscored)
        decided_before = self.g.decided
        self.award(points, results.span)
        late = self.unscored[unscored_before:]
        if late:
            decided = self.g.decided or decided_before
            self.report("AFN408", "not scored, the game was decided first (" + str(decided) +
                        "): " + ", ".join(f"{p.side} {ITEM_LABELS[p.item]}" for p in late),
                        results.span, severity=Severity.WARNING,
                        hint="rule 25: the items after the one that reaches the target do not "
                        "count")

    def penalties_only(self, offences: list[Offence]) -> list[Point]:
        facts = DealFacts(self.seats, self.dealer, self.elder, self.trump, False, {}, (),
                          tuple(o for o in offences if o.kind in ("misdeal", "wrongscore")))
        return penalty_points(facts, self.options, self.g.scores)

    def score_redeal(self, ending: Redeal) -> None:
        offences = [o for o in self.declared_offences() if o.kind in ("misdeal", "wrongscore")]
        misdeal_costs = self.options.misdeal is MisdealRule.OPPONENT_PLUS_1_AND_PASS
        if ending.reason is RedealReason.MISDEAL and misdeal_costs and \
                not any(o.kind == "misdeal" for o in offences):
            offences.append(Offence(self.dealer, "misdeal", None,
                                    f"{self.dealer.letter} misdealt"))
        if offences:
            self.award(self.penalties_only(offences), ending.span)
        if ending.reason is RedealReason.EXHAUSTED and \
                self.options.keep_turnup_points_on_redeal is YesNo.NO and not self.decided_here:
            kicks = [p for p in self.points if p.item is ClaimItem.KICK]
            cancel = [Point(p.side, p.seat, ClaimItem.KICK, -p.points,
                            "turn-up points are cancelled by the redeal") for p in kicks]
            self.award(cancel, ending.span)

    def end(self) -> None:
        """Close the deal for good: the DEAL_END step and the deal's result."""
        self.close()
        ending = self.ending
        if isinstance(ending, Concede):
            self.concede(ending)
        self.to_move = None
        span = ending.span if ending else (self.total.span if self.total else None)
        self.step(StepKind.DEAL_END, self.end_text() if self.keeps_steps else "", span)
        self.ended = True
        last = self.g.step_count - 1
        ending_text = None
        by_results = self.results is not None and (not self.trick_count or
                                                   self.results.director)
        if ending is None:
            complete = self.trick_count >= self.tricks_expected() or by_results
        else:
            complete = False
            if isinstance(ending, Redeal):
                ending_text = f"redeal {ending.reason.value}"
            elif isinstance(ending, Abandoned):
                ending_text = "abandoned"
            elif isinstance(ending, Concede):
                ending_text = f"{ending.seat.letter} concedes"
        if self.keeps_steps and any(self.inferred.values()):
            start = self.first_step if len(self.turnups) <= 1 else self.patch_from
            self.g.hindsight.append((start, last, self.inferred))
        self.g.deals.append(deal_result(  # DealResult's fields, in order
            self.number,  # number
            tuple(self.points),  # points
            self.g.scores_now(),  # scores_after
            self.first_step,  # first_step
            last,  # last_step
            self.trump,  # trump
            tuple(self.turnups),  # turnups
            tuple(self.calls),  # calls
            complete,  # complete
            ending_text,  # ending
            tuple(self.unscored),  # unscored
            self.dealer,  # dealer
            self.elder,  # elder
            self.held_with_inferred(),  # held
            tuple(self.completed_tricks),  # tricks
            self.claim.span if self.claim else None,  # claim_span
            self.total.span if self.total else None,  # total_span
            not self.scoring,  # after_decision
            tuple(self.provisional),  # provisional
            self.was_open,  # open
            tuple(self.waiting),  # waiting
            by_results,  # by_results
        ))

    def hands_now(self) -> tuple[tuple[Seat, tuple[Card, ...]], ...]:
        """Each seat's known cards as they stand, in seat order."""
        held = []
        for seat in self.seats:
            held.append((seat, tuple(self.hands[seat])))
        return tuple(held)

    def held_with_inferred(self) -> tuple[tuple[Seat, tuple[Card, ...]], ...]:
        """Every card each seat held when play began: recorded, and shown by the play.

        A hand is always kept in hand order, so only a seat the play showed more of
        needs sorting again."""
        inferred = self.inferred
        result = []
        for seat, held in self.held_at_start:
            shown = inferred.get(seat)
            result.append((seat, tuple(sorted([*held, *shown], key=hand_order))
                           if shown else held))
        return tuple(result)

    def end_text(self) -> str:
        ending = self.ending
        scores = self.g.score_text()
        if isinstance(ending, Redeal):
            return f"deal {self.number}: redeal ({ending.reason.value}); {scores}"
        if isinstance(ending, Abandoned):
            return f"deal {self.number} is abandoned; {scores}"
        if isinstance(ending, Concede):
            return f"deal {self.number}: {ending.seat.letter} concedes; {scores}"
        return f"deal {self.number} ends: {scores}"

    def concede(self, ending: Concede) -> None:
        if self.g.decided is not None or ending.seat not in self.seats:
            return
        loser = self.side(ending.seat)
        others = [side for side in self.g.sides if side != loser]
        if not others:
            return
        best = max(others, key=lambda side: self.g.scores[side])
        self.g.winner = best
        self.g.decided = f"deal {self.number}, by {ending.seat.letter}'s concession"
        self.g.decided_deal = self.number

    def next_dealer(self) -> Seat:
        ending = self.ending
        stays = False
        if isinstance(ending, Redeal):
            if ending.reason is RedealReason.EXHAUSTED:
                stays = self.options.pack_exhausted is PackExhausted.REDEAL_SAME_DEALER
            else:
                stays = self.options.misdeal is MisdealRule.REDEAL_SAME_DEALER
        if stays:
            return self.dealer
        return self.next_of[self.dealer]  # the dealer always sits at this table

    def expects(self) -> Expect:
        if self.closed:
            return Expect(ExpectKind.DEAL_END, None)
        if self.decided_here:
            return Expect(ExpectKind.DEAL_END, None, f"the game was decided ({self.g.decided})",
                          decided=True)
        if self.ending is not None:
            return Expect(ExpectKind.CLAIM, None)
        phase = self.phase
        if phase == "turn":
            return Expect(ExpectKind.TURN_UP, self.dealer)
        if phase == "call":
            return Expect(ExpectKind.CALL, self.elder)
        if phase == "answer":
            return Expect(ExpectKind.ANSWER, self.dealer)
        if phase == "running":
            if self.runs >= max_runs(len(self.seats)) and self.runs > 0:
                return Expect(ExpectKind.DEAL_END, self.dealer,
                              "the pack is exhausted: redeal by the same rules", exhausted=True)
            return Expect(ExpectKind.RUN, self.dealer)
        full = len(self.trick) >= len(self.seats)
        done = self.trick_ended or not self.trick or full
        if self.trick_count >= self.tricks_expected() and done:
            return Expect(ExpectKind.CLAIM, None)
        seat = self.expected_seat if self.playing else self.elder
        if self.trick and full and not self.trick_ended:
            seat = trick_winner(self.trick, self.trump)
        return Expect(ExpectKind.PLAY, seat,
                      may_beg_again=phase == "settled" and not self.trick and self.may_beg())


# Each event of an open deal, by its type, to the deal table's method for it.
_TAKERS: dict[type, Callable[[_DealTable, Any], None]] = {
    Play: _DealTable.take_play,
    Trick: _DealTable.take_trick,
    Hand: _DealTable.take_hand,
    Pack: _DealTable.pack,
    TurnUp: _DealTable.take_turn_up,
    Call: _DealTable.take_call,
    Discard: _DealTable.take_discard,
    Penalty: _DealTable.end_event,
    Claim: _DealTable.end_event,
    Results: _DealTable.take_results,
    Total: _DealTable.end_event,
    Redeal: _DealTable.end_event,
    Abandoned: _DealTable.end_event,
    Concede: _DealTable.end_event,
}
