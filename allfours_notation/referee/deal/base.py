"""The state of one deal at the table, and the plumbing every phase of it uses:
reporting, steps, the table's state, awarding points.
"""

from __future__ import annotations

import weakref
from abc import abstractmethod
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Self

from ...cards import Card, Seat, Suit
from ...diagnostics import Diagnostic, Severity
from ...reading.records import (
    Abandoned,
    CallKind,
    Claim,
    Concede,
    Count,
    Discard,
    Penalty,
    PenaltyKind,
    Redeal,
    Results,
    Span,
    Total,
)
from ..decided import ItemStatus, Status
from ..play import (
    DEALT,
    RUN_BATCH,
    legal_cards,
)
from ..scoring import (
    ITEM_LABELS,
    DealFacts,
    Offence,
    Point,
    count_in_order,
)
from ..state import StepKind, TableState, build_table_state
from .answers import Phase
from .holdings import Holdings

if TYPE_CHECKING:
    from ...reading.records import Deal
    from .answers import DealStart
    from .table import Table


@dataclass(slots=True)
class _Suspicion:
    """A card off suit (or under a trump) whose proof is not yet seen: the offender's
    hand was not written, so only a later play of the right card proves it."""

    kind: PenaltyKind  # REVOKE or UNDERTRUMP
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


class DealBase:
    """One deal at the table: its state, and the plumbing every phase uses.

    The phases add their methods on top, one class each, in the order a deal is
    played: :class:`.opening.Opening` (the deal, the pack, the hands, the turn-up,
    the beg, the gift, the run), :class:`.tricks.Tricks` (the play) and
    :class:`.closing.Closing` (penalties, the ending, the scoring, the result);
    :class:`.dealtable.DealTable` takes the events.

    One deal at the table: opening, play, scoring; the state moves one event at a time.

    ``phase``: ``TURN_UP`` (nothing turned yet) → ``CALL`` (the elder to stand or
    beg) → ``ANSWER`` (the dealer to give or run) → ``RUN`` (a new turn-up is due)
    → ``SETTLED`` (trumps fixed; ``settled_by`` says how: a stand, a gift or a run
    that turned a new suit) → ``PLAY`` (see :class:`.answers.Phase`).
    """

    # Slots: a deal table is made for every deal, and its state is read for every card.
    __slots__ = (
        "_game_table",
        "begs",
        "calls",
        "captured",
        "claim",
        "closed",
        "completed_tricks",
        "count",
        "dealer",
        "decided_here",
        "discard_spans",
        "discarding",
        "discards_done",
        "elder",
        "ended",
        "ending",
        "expected_seat",
        "facts_memo",
        "first_step",
        "first_trick_span",
        "gift_refused",
        "header_span",
        "item_memo",
        "items_cache",
        "keeps_steps",
        "lacks",
        "last_seat",
        "last_trick_span",
        "last_winner",
        "leader",
        "ledger",
        "next_of",
        "number",
        "offences",
        "options",
        "pack_span",
        "patch_from",
        "penalties",
        "pending",
        "pending_discards",
        "pending_gift",
        "phase",
        "pips",
        "players",
        "playing",
        "points",
        "points_memo",
        "provisional",
        "results",
        "runs",
        "scored_tricks",
        "scoring",
        "seats",
        "settled_by",
        "slips",
        "started",
        "suspicions",
        "time",
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
        "unscored",
        "waiting",
        "waiting_kick",
        "waiting_span",
        "was_open",
        "won",
        "written",
    )

    def __init__(self, table: Table, deal: DealStart | Deal) -> None:
        self._game_table = weakref.ref(table)
        self.header_span = deal.span  # the line "deal N dealer S"
        self.number = deal.number
        self.options = table.options
        self.keeps_steps = table.keep_steps
        self.seats = table.seats
        self.players = len(table.seats)
        self.next_of = table.next_of
        self.dealer = deal.dealer if deal.dealer in self.seats else self.seats[0]
        self.elder = table.next_of[self.dealer] if deal.dealer in self.seats else self.seats[0]
        self.scoring = table.decided is None
        # where every card is known to be: one ledger (see .holdings)
        self.ledger = Holdings(self.seats)
        self.turnup_spans: list[Span | None] = []
        self.trump: Suit | None = None
        self.phase = Phase.TURN_UP
        self.settled_by: CallKind | None = None  # a stand, a gift or a run
        self.runs = 0
        self.begs = 0
        self.calls: list[str] = []
        self.started = False  # the DEAL_START step is out
        self.discarding = False  # the rules make every player discard to six before play
        self.discard_spans: dict[Seat, Span | None] = {}
        self.pending_discards: list[Discard] = []  # written before the trumps were settled
        self.discards_done = False
        self.pack_span: Span | None = None
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
        # each card of the scored tricks by the trick that took it (its number and winner;
        # the last such trick, as :func:`..scoring.captured_in` finds it)
        self.captured: dict[Card, tuple[int, Seat]] = {}
        self.slips: list[int] = []  # places in the current trick of cards already played
        self.suspicions: list[_Suspicion] = []
        self.lacks: list[_Lack] = []
        self.offences: list[tuple[int, Offence]] = []
        # the end
        self.penalties: list[Penalty] = []
        self.ending: Redeal | Abandoned | Concede | None = None
        self.claim: Claim | None = None
        self.total: Total | None = None
        self.results: Results | None = None  # a deal recorded by its results alone
        self.count: Count | None = None  # the record's count for Game ("count N 31 S 18")
        self.time = deal.time  # the clock time the deal began, as recorded
        self.points: list[Point] = []
        self.unscored: list[Point] = []
        # a deal still being played when scored: what would score if it ended now
        self.provisional: list[Point] = []
        self.waiting: list[Point] = []  # of those, the ones decided but not yet counted
        self.items_cache: tuple[tuple[object, ...], tuple[ItemStatus, ...]] | None = None
        # the play's points shown at each step, each with what it was made from
        # (Closing.kept_play_points)
        self.points_memo: dict[str, tuple[tuple[object, ...], list[Point]]] = {}
        # the items made of them, by the point's id (Closing.kept_item)
        self.item_memo: dict[int, tuple[Point, Status, ItemStatus]] = {}
        # the facts the play's points are made from, read live (Closing.live_facts)
        self.facts_memo: tuple[Suit, bool, DealFacts] | None = None
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

    def copied(self, table: Table) -> Self:
        """A copy for ``table`` (a snapshot): every container is copied, the records shared."""
        copy = type(self).__new__(type(self))
        for name in DealBase.__slots__:
            value = getattr(self, name)
            if isinstance(value, dict):
                value = {k: (v.copy() if isinstance(v, list) else v) for k, v in value.items()}
            elif isinstance(value, (list, set)):
                value = value.copy()
            setattr(copy, name, value)
        copy.ledger = self.ledger.copy()
        copy._game_table = weakref.ref(table)
        copy.facts_memo = None  # it reads this deal's own containers, not the copy's
        return copy

    @property
    def g(self) -> Table:
        """The game's table this deal is played at.  Held weakly: the game's table holds
        its deal (``current``), and a strong reference back made every table a cycle,
        garbage only a full collection finds (a recorder's snapshots, a few an entry:
        at a venue of 200 tables, full collections of a second, often)."""
        table = self._game_table()
        if table is None:
            raise ReferenceError("a deal's table used after its game's table is gone")
        return table

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
        table = self.g  # a weak reference's call: once a step
        if not self.keeps_steps:  # the table's own, copied when the deal opened
            table.step_count += 1
            return
        diagnostics = tuple(self.pending)
        self.pending = []
        changes = table.changes
        if changes is not None:  # a replay page's: what changed, not the whole table
            changes.step(self, kind, trick, text, span, diagnostics)
            table.step_count += 1
            return
        table.add_step(kind, self.number, trick, text, self.state(), span, diagnostics)

    def side(self, seat: Seat) -> str:
        return self.g.side(seat)

    def start(self) -> None:
        """The DEAL_START step, once the hands as dealt are written (or none will be)."""
        if self.started:
            return
        self.started = True
        self.step(StepKind.DEAL_START, f"deal {self.number}: {self.dealer.letter} deals, "
                  f"{self.elder.letter} is elder hand" if self.keeps_steps else "",
                  self.header_span)

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

    def hand_size_received(self) -> int:
        return DEALT + RUN_BATCH * self.runs

    def tricks_expected(self) -> int:
        if self.discarding:
            return DEALT
        return self.hand_size_received()

    def state(self) -> TableState:
        seats = self.seats
        legal: frozenset[Card] = frozenset()
        ledger = self.ledger
        hands, unseen = ledger.hands, ledger.unseen
        if self.to_move in hands and unseen[self.to_move] == 0:
            # a finished trick stays on show until the next card, but the next card leads
            on_table = self.trick if len(self.trick) < len(seats) else []
            legal = legal_cards(hands[self.to_move], on_table, self.trump, self.options)
        return build_table_state(
            deal=self.number,
            dealer=self.dealer,
            elder=self.elder,
            seats=seats,
            hands=tuple((seat, tuple(hands[seat])) for seat in seats),
            unknown=tuple((seat, unseen[seat]) for seat in seats),
            turnups=tuple(ledger.turnups),
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

    @abstractmethod
    def items_now(self) -> tuple[ItemStatus, ...]:
        """Every item of the deal as the table knows it now (the scoring computes it:
        :meth:`.closing.Closing.items_now`)."""
