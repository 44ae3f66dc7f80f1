"""The referee: re-plays every deal of a game and records the table after each event.

``replay(game)`` walks the deals in order — the deal, each turn-up, stand, beg,
give or run, each card, each trick, each point — and returns one immutable
:class:`Step` per event, each holding the whole :class:`TableState` after it, so
that a viewer can jump anywhere without recomputing.  On the way it checks the
rules of play (a card not held, out of turn, a revoke, an undertrump, begging
and running, the pack arithmetic, the dealer rotation) and asks
:mod:`.scoring` for the points.  It never raises on a parsed record: whatever
breaks a rule is reported as a :class:`Diagnostic` and play goes on as written.

Where a revoke is detected: :meth:`_DealReferee.check_follow`.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field, replace

from ..cards import Card, Rank, Seat, Suit
from ..diagnostics import Diagnostic, Severity
from ..records import (
    Abandoned,
    Call,
    CallKind,
    ClaimItem,
    Concede,
    Deal,
    Game,
    Hand,
    PenaltyKind,
    Play,
    Redeal,
    RedealReason,
    Span,
    Trick,
    TurnUp,
    diagnostic_at,
)
from ..table import SEATS_FOR_PLAYERS, next_seat, next_seats, side_of, sides
from .play import (
    DEALT,
    RUN_BATCH,
    hand_key,
    legal_cards,
    max_runs,
    trick_winner,
    turnup_position,
)
from .profiles import (
    BegsPerDeal,
    FollowRule,
    HandAfterRun,
    MisdealRule,
    Options,
    PackExhausted,
    RevokePenalty,
    YesNo,
    resolve_options,
)
from .scoring import (
    ITEM_LABELS,
    DealFacts,
    Offence,
    Point,
    count_in_order,
    gift_points,
    play_points,
    turnup_points,
)
from .state import DealResult, GameReplay, Step, StepKind, TableState

__all__ = [
    "DealResult",
    "GameReplay",
    "Point",
    "Referee",
    "Step",
    "StepKind",
    "TableState",
    "check_game",
    "fill_seats",
    "legal_cards",
    "max_runs",
    "replay",
    "replay_plain",
    "trick_winner",
    "turnup_position",
]

# --- the game referee --------------------------------------------------------------------------


def replay(game: Game, options: Options | None = None, *,
           record_states: bool = True) -> GameReplay:
    """Re-play ``game`` under ``options`` (default: the rules the record names).

    Never raises on a parsed record: anything unexpected inside the referee is
    turned into an AFN399 diagnostic and the replay so far is returned.  The
    result's diagnostics hold, in this order, the problems with the rules the
    record names (AFN5xx, also kept apart in ``option_diagnostics``), the rules
    findings (AFN3xx) and the disputes (AFN4xx).  ``record_states=False`` keeps
    no steps (no table snapshot per card): scores and diagnostics only, several
    times faster.
    """
    option_diags: list[Diagnostic] = []
    if options is None:
        options, option_diags = resolve_options(game)
    result = replay_plain(game, options, tuple(option_diags), record_states=record_states)
    from .disputes import find_disputes  # disputes compare a finished replay with the record

    try:
        disputes = find_disputes(result)
    except Exception as error:  # the referee must never take a file down
        disputes = [diagnostic_at(game, game.span, "AFN399",
                                  f"the dispute check stopped unexpectedly: {error!r}")]
    if disputes:
        result = replace(result, diagnostics=(*result.diagnostics, *disputes))
    return result


def replay_plain(
    game: Game,
    options: Options,
    option_diags: tuple[Diagnostic, ...] = (),
    *,
    record_states: bool = True,
) -> GameReplay:
    """The replay without the dispute report (used to try other rules on a claim).

    ``record_states=False`` computes scores and diagnostics only, with no steps.
    """
    referee = _GameReferee(game, options, record_states=record_states)
    try:
        referee.run()
    except Exception as error:  # the referee must never take a file down
        referee.report("AFN399", f"the replay stopped unexpectedly: {error!r}", game.span,
                       deal=None, trick=None)
    return referee.result(option_diags)


def check_game(game: Game, options: Options | None = None) -> list[Diagnostic]:
    """Rules, options and dispute diagnostics: what ``allfours check`` adds to the parser's.

    A check needs no table snapshots, and taking one per card was three quarters
    of the replay's time.
    """
    result = replay(game, options, record_states=False)
    return list(result.diagnostics)


def fill_seats(game: Game, options: Options | None = None) -> Game:
    """``game`` with the seat of every play filled in where the rules tell who played it."""
    if options is None:
        options, _ = resolve_options(game)
    seats = _table_seats(game, options)
    deals = []
    for deal in game.deals:
        try:
            assigned = _assign_seats(deal, seats, options, _trump_of(deal), report=None)
        except Exception:  # never raise on a parsed record; leave the deal as written
            deals.append(deal)
            continue
        tricks = []
        for trick, seated in zip(deal.tricks, assigned, strict=False):
            plays = tuple(
                play if play.seat is not None else replace(play, seat=seat)
                for play, (seat, _) in zip(trick.plays, seated, strict=False)
            )
            tricks.append(replace(trick, plays=plays))
        deals.append(replace(deal, tricks=tuple(tricks)))
    return replace(game, deals=tuple(deals))


class Referee:
    """Replays a game deal by deal, for callers that build the game as they go.

    The generator uses it to know the scores before dealing the next deal.
    ``record_states=False`` skips the table snapshots (scores and diagnostics only).
    """

    def __init__(self, game: Game, options: Options, *, record_states: bool = True) -> None:
        self._referee = _GameReferee(game, options, record_states=record_states)

    def add_deal(self, deal: Deal) -> DealResult:
        return self._referee.add_deal(deal)

    @property
    def scores(self) -> dict[str, int]:
        return dict(self._referee.scores)

    @property
    def winner(self) -> str | None:
        return self._referee.winner

    @property
    def decided(self) -> str | None:
        return self._referee.decided

    @property
    def seats(self) -> tuple[Seat, ...]:
        return self._referee.seats

    @property
    def diagnostics(self) -> tuple[Diagnostic, ...]:
        return tuple(self._referee.found)

    @property
    def expected_dealer(self) -> Seat | None:
        """Who deals next under the rules (``None`` before the first deal)."""
        return self._referee.expected_dealer


def _table_seats(game: Game, options: Options) -> tuple[Seat, ...]:
    seats = game.seats
    if len(seats) not in SEATS_FOR_PLAYERS:
        seats = SEATS_FOR_PLAYERS.get(options.players, SEATS_FOR_PLAYERS[2])
    return seats


def _trump_of(deal: Deal) -> Suit | None:
    """The suit of the last turn-up before play: the trump suit."""
    turnups = deal.turnups
    return turnups[-1].card.suit if turnups else None


def _elder(dealer: Seat, seats: tuple[Seat, ...], options: Options) -> Seat:
    if dealer not in seats:
        return seats[0]
    return next_seat(dealer, seats, clockwise=options.clockwise)


class _Reporter:
    """Makes diagnostics located in the game being replayed."""

    def __init__(self, game: Game) -> None:
        self.game = game
        self.found: list[Diagnostic] = []

    def report(
        self,
        code: str,
        message: str,
        span: Span | None,
        *,
        deal: int | None,
        trick: int | None,
        severity: Severity = Severity.ERROR,
        hint: str | None = None,
    ) -> Diagnostic:
        diagnostic = diagnostic_at(
            self.game, span, code, message, severity=severity, deal=deal, trick=trick, hint=hint
        )
        self.found.append(diagnostic)
        return diagnostic


def _assign_seats(
    deal: Deal,
    seats: tuple[Seat, ...],
    options: Options,
    trump: Suit | None,
    report: _Reporter | None,
) -> list[list[tuple[Seat, Card]]]:
    """Who played each card: the written label, else the seat whose turn it was.

    Reports a wrong leader (AFN303) and a card out of turn (AFN302) when asked.
    """
    leader = _elder(deal.dealer, seats, options)
    following = next_seats(seats, clockwise=options.clockwise)
    result: list[list[tuple[Seat, Card]]] = []
    for trick in deal.tricks:
        seated: list[tuple[Seat, Card]] = []
        expected = leader
        for position, play in enumerate(trick.plays):
            seat = play.seat if play.seat is not None else expected
            if report is not None and play.seat is not None and play.seat is not expected:
                _report_turn(report, deal, trick, position, play, expected, seated)
            seated.append((seat, play.card))
            expected = following.get(seat, expected)  # a seat not at the table: no turn
        result.append(seated)
        if seated:
            leader = trick_winner(seated, trump)
    return result


def _report_turn(
    report: _Reporter,
    deal: Deal,
    trick: Trick,
    position: int,
    play: Play,
    expected: Seat,
    seated: list[tuple[Seat, Card]],
) -> None:
    assert play.seat is not None
    if position == 0:
        why = "the elder hand leads the first trick" if trick.number == 1 else \
            "the winner of the last trick leads"
        report.report("AFN303", f"{play.seat.letter} leads trick {trick.number}, but "
                      f"{expected.letter} should lead ({why})", play.span, deal=deal.number,
                      trick=trick.number)
        return
    already = any(seat is play.seat for seat, _ in seated)
    detail = f"{play.seat.letter} has already played to this trick" if already else \
        f"it is {expected.letter}'s turn"
    report.report("AFN302", f"{play.seat.letter} plays {play.card} out of turn: {detail}",
                  play.span, deal=deal.number, trick=trick.number)


class _GameReferee(_Reporter):
    def __init__(self, game: Game, options: Options, *, record_states: bool = True) -> None:
        super().__init__(game)
        self.options = options
        self.record_states = record_states
        self.step_count = 0
        self.expected_dealer: Seat | None = None
        self.warned_after_end = False
        self.seats = _table_seats(game, options)
        self.sides = sides(self.seats)
        self.next_of = next_seats(self.seats, clockwise=options.clockwise)
        # Each seat's scoring side, asked at every trick: worked out once per game.
        self.side_by_seat = {seat: side_of(seat, self.seats) for seat in self.seats}
        self.scores: dict[str, int] = {side: 0 for side in self.sides}
        self.steps: list[Step] = []
        self.deals: list[DealResult] = []
        self.winner: str | None = None
        self.decided: str | None = None
        self.decided_deal: int | None = None

    def run(self) -> None:
        for deal in self.game.deals:
            self.add_deal(deal)
        self.finish()

    def add_deal(self, deal: Deal) -> DealResult:
        """Replay one more deal of the game; the scores carry over."""
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
        _DealReferee(self, deal).run()
        self.expected_dealer = self.next_dealer(deal)
        return self.deals[-1]

    def next_dealer(self, deal: Deal) -> Seat:
        ending = deal.ending
        dealer = deal.dealer if deal.dealer in self.seats else self.seats[0]
        stays = False
        if isinstance(ending, Redeal):
            if ending.reason is RedealReason.EXHAUSTED:
                stays = self.options.pack_exhausted is PackExhausted.REDEAL_SAME_DEALER
            else:
                stays = self.options.misdeal is MisdealRule.REDEAL_SAME_DEALER
        if stays:
            return dealer
        return next_seat(dealer, self.seats, clockwise=self.options.clockwise)

    def finish(self) -> None:
        last = self.steps[-1].state if self.steps else None
        if last is None:
            self.step_count += 1
            return
        if self.winner is not None:
            text = f"{self.winner} wins the game, {self.score_text()} ({self.decided})"
        else:
            text = f"the game is unfinished, {self.score_text()}"
        self.add_step(StepKind.GAME_END, last.deal, None, text, last, None, ())

    def score_text(self) -> str:
        return " ".join(f"{side} {self.scores[side]}" for side in self.sides)

    def add_step(
        self,
        kind: StepKind,
        deal: int,
        trick: int | None,
        text: str,
        state: TableState,
        span: Span | None,
        diagnostics: tuple[Diagnostic, ...],
    ) -> Step:
        step = Step(len(self.steps), kind, deal, trick, text, state, span, diagnostics)
        self.steps.append(step)
        self.step_count += 1
        return step

    def result(self, option_diags: tuple[Diagnostic, ...]) -> GameReplay:
        return GameReplay(
            game=self.game,
            options=self.options,
            steps=tuple(self.steps),
            deals=tuple(self.deals),
            diagnostics=(*option_diags, *self.found),
            scores=tuple((side, self.scores[side]) for side in self.sides),
            winner=self.winner,
            decided=self.decided,
            option_diagnostics=option_diags,
        )


@dataclass(slots=True)
class _Slots:
    """The cards the record shows one seat received, and where each came from."""

    known: list[Card] = field(default_factory=list)
    origin: dict[Card, str] = field(default_factory=dict)  # "as dealt", "in the run", "played"


class _DealReferee:
    """Replays one deal: opening, play, scoring."""

    def __init__(self, game_ref: _GameReferee, deal: Deal) -> None:
        self.g = game_ref
        self.deal = deal
        self.options = game_ref.options
        # Without steps (``allfours check``) no step text is read, so the steps met
        # for every card and point skip building theirs.
        self.keeps_steps = game_ref.record_states
        self.seats = game_ref.seats
        self.dealer = deal.dealer if deal.dealer in self.seats else self.seats[0]
        self.elder = _elder(self.dealer, self.seats, self.options)
        self.scoring = game_ref.decided is None
        self.received: dict[Seat, _Slots] = {seat: _Slots() for seat in self.seats}
        self.hands: dict[Seat, list[Card]] = {seat: [] for seat in self.seats}
        self.unknown: dict[Seat, int] = {seat: 0 for seat in self.seats}
        self.turnups: list[Card] = []
        self.trump: Suit | None = None
        self.trick_number = 0
        self.trick: list[tuple[Seat, Card]] = []
        self.leader: Seat | None = None
        self.to_move: Seat | None = None
        self.won: dict[str, int] = {side: 0 for side in game_ref.sides}
        self.pips: dict[str, int] = {side: 0 for side in game_ref.sides}
        self.last_winner: Seat | None = None
        self.points: list[Point] = []
        self.unscored: list[Point] = []
        self.offences: list[Offence] = []
        self.calls: list[str] = []
        self.runs = 0
        self.first_step = game_ref.step_count
        self.pending: list[Diagnostic] = []
        self.decided_here = False
        self.completed_tricks: list[tuple[int, Seat, tuple[tuple[Seat, Card], ...]]] = []
        self.assigned: list[list[tuple[Seat, Card]]] = []
        self.holders: dict[Card, Seat] = {}
        self.not_held: set[tuple[int, int]] = set()
        self.held_at_start: tuple[tuple[Seat, tuple[Card, ...]], ...] = ()
        self.played_by: dict[Seat, list[Card]] = {}
        self.settled_by: str | None = None  # "stand", "give" or "run"
        self._held_cache: tuple[tuple[tuple[Seat, tuple[Card, ...]], ...],
                                tuple[tuple[Seat, int], ...]] | None = None
        self._later_plays: dict[Seat, list[tuple[int, Card]]] | None = None
        self.begs = 0

    # -- plumbing --

    def report(self, code: str, message: str, span: Span | None, *, trick: int | None = None,
               severity: Severity = Severity.ERROR, hint: str | None = None) -> None:
        self.pending.append(self.g.report(code, message, span, deal=self.deal.number,
                                          trick=trick, severity=severity, hint=hint))

    def state(self) -> TableState:
        seats = self.seats
        legal: frozenset[Card] = frozenset()
        if self.to_move in self.hands and self.unknown[self.to_move] == 0:
            # a finished trick stays on show until the next card, but the next card leads
            on_table = self.trick if len(self.trick) < len(seats) else []
            legal = legal_cards(self.hands[self.to_move], on_table, self.trump, self.options)
        if self._held_cache is None:  # rebuilt only after a card leaves or joins a hand
            self._held_cache = (
                tuple((seat, tuple(self.hands[seat])) for seat in seats),
                tuple((seat, self.unknown[seat]) for seat in seats),
            )
        hands, unknown = self._held_cache
        return TableState(
            deal=self.deal.number,
            dealer=self.dealer,
            elder=self.elder,
            seats=seats,
            hands=hands,
            unknown=unknown,
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
        )

    def step(self, kind: StepKind, text: str, span: Span | None, trick: int | None = None) -> None:
        if not self.g.record_states:
            self.g.step_count += 1
            return
        diagnostics = tuple(self.pending)
        self.pending = []
        self.g.add_step(kind, self.deal.number, trick, text, self.state(), span, diagnostics)

    def side(self, seat: Seat) -> str:
        side = self.g.side_by_seat.get(seat)
        return side if side is not None else side_of(seat, self.seats)

    # -- the deal --

    def run(self) -> None:
        self.read_hands()
        self.infer_from_play()
        runs_written = len(self.deal.turnups) - 1
        if runs_written <= 0:
            self.merge_inferred()  # no run: every card played was in the hand as dealt
        self.step(StepKind.DEAL_START, f"deal {self.deal.number}: {self.dealer.letter} deals, "
                  f"{self.elder.letter} is elder hand", self.deal.span)
        state = self.opening()
        if runs_written > 0:
            self.merge_inferred()
        ending = self.deal.ending
        if self.decided_here and self.deal.tricks:
            self.report("AFN313", f"the game was decided before play ({self.g.decided}); the "
                        "tricks of this deal are not scored", self.deal.tricks[0].span,
                        severity=Severity.WARNING)
        self.check_opening_end(state, ending)
        self.play()
        self.check_trick_count(self.tricks_expected())
        self.score(ending)
        self.finish(ending)

    def read_hands(self) -> None:
        """The hands as recorded: the dealt six, then the cards of each run."""
        seen_turn = False
        for event in self.deal.opening:
            if isinstance(event, TurnUp):
                seen_turn = True
            elif isinstance(event, Hand) and event.seat in self.received:
                slots = self.received[event.seat]
                origin = "in a run" if seen_turn else "as dealt"
                for held in event.cards:
                    if held is not None and held not in slots.origin:
                        slots.known.append(held)
                        slots.origin[held] = origin
        discarding = self.discarding()
        for seat, slots in self.received.items():
            if discarding:
                self.hands[seat] = []
                self.unknown[seat] = DEALT
                continue
            dealt = [c for c in slots.known if slots.origin[c] == "as dealt"]
            self.hands[seat] = sorted(dealt, key=hand_key)
            self.unknown[seat] = DEALT - min(DEALT, len(dealt))

    def discarding(self) -> bool:
        """Whether players discard down to six after a run (rule 15)."""
        return self.options.hand_after_run is HandAfterRun.DISCARD_TO_SIX and \
            len(self.deal.turnups) > 1

    def hand_size_received(self, runs: int) -> int:
        return DEALT + RUN_BATCH * runs

    def tricks_expected(self) -> int:
        if self.options.hand_after_run is HandAfterRun.DISCARD_TO_SIX:
            return DEALT
        return self.hand_size_received(self.runs)

    # -- who held what: the record, and the play --

    def infer_from_play(self) -> None:
        """Seat every card played; a card no hand records was held by its player.

        A card recorded in another seat's hand, or more cards than a seat
        received, is a card not held (reported when it is played).
        """
        self.assigned = _assign_seats(self.deal, self.seats, self.options,
                                      _trump_of(self.deal), report=self.g)
        recorded_owner: dict[Card, Seat] = {}
        for seat, slots in self.received.items():
            for c in slots.known:
                recorded_owner.setdefault(c, seat)
        turned = {t.card for t in self.deal.turnups}
        self.holders = {} if self.discarding() else dict(recorded_owner)
        self.played_by = {seat: [] for seat in self.seats}
        for t_index, seated in enumerate(self.assigned):
            for p_index, (seat, c) in enumerate(seated):
                if seat not in self.played_by or c in turned:
                    continue
                owner = recorded_owner.get(c)
                if owner is not None and owner is not seat:
                    self.not_held.add((t_index, p_index))
                elif c not in self.played_by[seat]:  # played twice: the parser's AFN201
                    self.played_by[seat].append(c)

    def merge_inferred(self) -> None:
        """Put the cards known only from the play into the hands (unseen slots first)."""
        self._held_cache = None
        for seat in self.seats:
            slots = self.received[seat]
            played = self.played_by[seat]
            if self.discarding():
                kept = played[:DEALT]
                self.hands[seat] = sorted(kept, key=hand_key)
                self.unknown[seat] = DEALT - len(kept)
                for c in kept:
                    self.holders.setdefault(c, seat)
                for c in played[DEALT:]:
                    self.mark_not_held(c, seat)
                continue
            extra = [c for c in played if c not in slots.origin]
            room = self.unknown[seat]
            for c in extra[room:]:
                self.mark_not_held(c, seat)
            take = extra[:room]
            for c in take:
                slots.origin[c] = "played"
                self.holders[c] = seat
            self.hands[seat] = sorted([*self.hands[seat], *take], key=hand_key)
            self.unknown[seat] -= len(take)

    def mark_not_held(self, c: Card, seat: Seat) -> None:
        for t_index, seated in enumerate(self.assigned):
            for p_index, (who, played) in enumerate(seated):
                if who is seat and played == c:
                    self.not_held.add((t_index, p_index))

    # -- opening: turn-up, stand, beg, give, run --

    def opening(self) -> str:
        """Replays the turn-ups and calls; returns the state at the end of the opening.

        States: ``turn`` (nothing turned yet) → ``call`` (the elder to stand or
        beg) → ``answer`` (the dealer to give or run) → ``running`` (a new
        turn-up is due) → ``settled`` (trumps fixed; ``self.settled_by`` says how).
        """
        state = "turn"
        for event in self.deal.opening:
            if isinstance(event, TurnUp):
                self.to_move = self.elder if self.g.decided is None else None
                state = self.turn_up(event, state)
            elif isinstance(event, Call):
                self.to_move = self.elder if event.kind is CallKind.STANDS else None
                state = self.call(event, state)
        return state

    def check_opening_end(self, state: str, ending: object) -> None:
        if self.decided_here:
            return  # the game ended during the opening: nothing more was due
        has_play = bool(self.deal.tricks)
        if not self.deal.turnups:
            if has_play or ending is None:
                self.report("AFN314", "the deal has no turn-up, so trumps are unknown",
                            self.deal.span, hint="write the turned card: 'turn 4S'")
            return
        if state == "answer" and (has_play or ending is None):
            self.report("AFN316", f"{self.elder.letter} begged but the dealer neither gave nor "
                        "ran", self.deal.span, hint="write 'N gives' or 'N runs' after the beg")
        exhausted = self.runs >= max_runs(len(self.seats))
        redeal = isinstance(ending, Redeal) and ending.reason is RedealReason.EXHAUSTED
        if state == "running" and not redeal:
            last = self.turnups[-1]
            if self.runs == 0:
                self.report("AFN309", "the cards were run but no new turn-up is written",
                            self.deal.span, hint="write the card turned after the run: 'turn QD'")
            elif exhausted:
                self.report("AFN311", f"the run turned {last}, the suit of the original turn-up, "
                            "and the pack is exhausted: the same dealer deals again",
                            self.deal.span, hint="end the deal with 'redeal exhausted'")
            else:
                self.report("AFN309", f"the run turned {last}, the suit of the original "
                            f"turn-up: the dealer must run again (rule 9)", self.deal.span,
                            hint="write the next turn-up after it")
        if redeal and not (state == "running" and exhausted):
            assert isinstance(ending, Redeal)
            why = "a new suit was turned" if state != "running" else "the dealer may run again"
            self.report("AFN311", f"'redeal exhausted', but the pack is not exhausted: "
                        f"{self.runs} of {max_runs(len(self.seats))} possible runs, and {why}",
                        ending.span)

    def turn_up(self, event: TurnUp, state: str) -> str:
        """One turned card; while the run goes on nobody is to play."""
        card = event.card
        if self.turnups and self.turnups[0].suit is card.suit:
            self.to_move = None
        original = self.turnups[0] if self.turnups else None
        from_run = original is not None
        if from_run and state != "running":
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
            self.add_run_cards()
        self.turnups.append(card)
        same_suit = original is not None and card.suit is original.suit
        becomes_trump = not same_suit
        if becomes_trump:
            self.trump = card.suit
        text = f"{self.dealer.letter} turns up {card}"
        if from_run:
            text += f" (run {self.runs})" + (", the same suit: run again" if same_suit else
                                              f": {card.suit.noun} are trumps")
        else:
            text += f": {card.suit.noun} are trumps"
        self.step(StepKind.TURN_UP, text, event.span)
        points = turnup_points(card, dealer=self.dealer, seats=self.seats, options=self.options,
                               from_run=from_run, becomes_trump=becomes_trump)
        self.award(points, event.span)
        if original is None:
            return "call"
        if same_suit:
            return "running"
        self.settled_by = "run"
        return "settled"

    def add_run_cards(self) -> None:
        """A run gives three cards to each player: they join the hands (unseen ones counted)."""
        if self.discarding():
            return
        self._held_cache = None
        for seat, slots in self.received.items():
            batch = [c for c in slots.known if slots.origin[c] == "in a run"][:RUN_BATCH]
            for c in batch:
                slots.origin[c] = "in the run"
            self.hands[seat] = sorted([*self.hands[seat], *batch], key=hand_key)
            self.unknown[seat] += RUN_BATCH - len(batch)

    def call(self, event: Call, state: str) -> str:
        seat, kind = event.seat, event.kind
        self.calls.append(f"{seat.letter} {kind.value}")
        if kind is CallKind.STANDS:
            self.check_stand(event, state)
            self.step(StepKind.CALL, f"{seat.letter} stands", event.span)
            if state in ("call", "settled"):
                self.settled_by = self.settled_by or "stand"
                return "settled"
            return state
        if kind is CallKind.BEGS:
            self.check_beg(event, state)
            self.begs += 1
            self.step(StepKind.CALL, f"{seat.letter} begs", event.span)
            return "answer"
        if seat is not self.dealer:
            self.report("AFN309", f"{seat.letter} {kind.value}, but only the dealer "
                        f"({self.dealer.letter}) gives or runs", event.span)
        if state != "answer":
            self.report("AFN309", f"{seat.letter} {kind.value}, but nobody has begged",
                        event.span)
        if kind is CallKind.GIVES:
            self.to_move = self.elder
            self.step(StepKind.CALL, f"{seat.letter} gives one (take one)", event.span)
            points, refused = gift_points(dealer=self.dealer, elder=self.elder, seats=self.seats,
                                          options=self.options, scores=self.g.scores)
            if refused is not None:
                self.report("AFN310", f"the gift is forbidden under these rules: {refused}; "
                            "it is not scored", event.span)
            self.award(points, event.span)
            self.settled_by = "give"
            return "settled"
        if self.runs >= max_runs(len(self.seats)):
            self.report("AFN311", f"the pack is exhausted after {self.runs} runs: the cards "
                        "cannot be run again", event.span)
        self.step(StepKind.RUN, f"{seat.letter} runs the cards: three more each", event.span)
        return "running"

    def check_stand(self, event: Call, state: str) -> None:
        seat = event.seat
        if seat is not self.elder:
            self.report("AFN308", f"{seat.letter} stands, but only the elder hand "
                        f"({self.elder.letter}) stands or begs", event.span)
        problem = {
            "turn": "before any card is turned up",
            "answer": "after begging: the dealer must give or run",
            "running": "while the run has not turned a new suit",
        }.get(state)
        if state == "settled" and self.settled_by in ("stand", "give"):
            problem = "twice: the trump is already settled"
        if problem:
            self.report("AFN308", f"{seat.letter} stands {problem}", event.span)

    def check_beg(self, event: Call, state: str) -> None:
        seat = event.seat
        if seat is not self.elder:
            self.report("AFN308", f"{seat.letter} begs, but only the elder hand "
                        f"({self.elder.letter}) begs", event.span)
        problem = {
            "turn": "before any card is turned up",
            "answer": "again before the dealer answered the beg",
            "running": "while the run has not turned a new suit",
        }.get(state)
        if state == "settled":
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

    # -- play --

    def play(self) -> None:
        self.held_at_start = tuple((seat, tuple(self.hands[seat])) for seat in self.seats)
        tricks = self.deal.tricks
        self.leader = self.elder
        self.to_move = self.elder if tricks or self.trump is not None else None
        for t_index, trick in enumerate(tricks):
            self.trick_number = trick.number
            self.trick = []
            seated = self.assigned[t_index]
            self.leader = seated[0][0] if seated else self.leader
            for p_index, (play, (seat, c)) in enumerate(zip(trick.plays, seated, strict=False)):
                self.play_card(play, seat, c, (t_index, p_index), trick.number)
            if len(self.trick) == len(self.seats) or (self.trick and trick is tricks[-1]):
                self.end_trick(trick)

    def later_plays(self) -> dict[Seat, list[tuple[int, Card]]]:
        """Every card each seat plays in this deal, with its trick number.

        Only a suspected revoke or undertrump needs it (to name the proof), so it
        is built on the first such suspicion rather than for every deal.
        """
        if self._later_plays is None:
            self._later_plays = self.later_plays_index()
        return self._later_plays

    def later_plays_index(self) -> dict[Seat, list[tuple[int, Card]]]:
        index: dict[Seat, list[tuple[int, Card]]] = {seat: [] for seat in self.seats}
        for trick, seated in zip(self.deal.tricks, self.assigned, strict=False):
            for seat, c in seated:
                if seat in index:
                    index[seat].append((trick.number, c))
        return index

    def play_card(self, play: Play, seat: Seat, c: Card, where: tuple[int, int],
                  number: int) -> None:
        known = self.hands.get(seat)
        if known is None:
            self.trick.append((seat, c))
            self.play_step(seat, c, play.span, number)
            return
        if where in self.not_held:
            self.report_not_held(play, seat, c, number)
        elif c not in self.turnups:
            self.check_follow(play, seat, c, number)
        self._held_cache = None
        if c in known:
            known.remove(c)
        elif where not in self.not_held and c not in self.turnups and self.unknown[seat] > 0:
            self.unknown[seat] -= 1
        self.trick.append((seat, c))
        nxt = self.g.next_of.get(seat)
        self.to_move = nxt if len(self.trick) < len(self.seats) else None
        self.play_step(seat, c, play.span, number)

    def play_step(self, seat: Seat, c: Card, span: Span | None, number: int) -> None:
        text = f"{seat.letter} plays {c}" if self.keeps_steps else ""
        self.step(StepKind.PLAY, text, span, number)

    def report_not_held(self, play: Play, seat: Seat, c: Card, number: int) -> None:
        owner = next((s for s, slots in self.received.items()
                      if c in slots.origin and slots.origin[c] != "played"), None)
        if owner is not None and owner is not seat:
            message = f"{seat.letter} plays {c}, but {c} was dealt to {owner.letter}"
        else:
            size = self.hand_size_received(self.runs)
            message = (f"{seat.letter} plays {c}, a card {seat.letter} does not hold: its hand "
                       f"of {size} is already accounted for")
        self.report("AFN301", message, play.span, trick=number)

    def check_follow(self, play: Play, seat: Seat, c: Card, number: int) -> None:
        """Rule 18 (revoke) and rule 20 (undertrump).  This is where a revoke is detected."""
        if not self.trick:
            return
        led = self.trick[0][1].suit
        trump = self.trump
        held = self.hands[seat]
        if c.suit is not led and c.suit is not trump:
            proof = self.best_proof([h for h in held if h.suit is led and h != c], seat)
            if proof is not None:
                because = self.proof_text(seat, proof)
                reason = f"{seat.letter} revoked in trick {number}"
                self.report("AFN306", f"revoke: {seat.letter} plays {c} on {led.noun} led, "
                            f"neither following suit nor trumping, but held {proof} ({because}); "
                            "the card stands and the revoke is penalised", play.span,
                            trick=number, severity=Severity.WARNING)
                self.offences.append(Offence(seat, "revoke", number, reason))
            return
        if (self.options.follow_rule is FollowRule.NO_UNDERTRUMP and trump is not None
                and led is not trump and c.suit is trump):
            top = max((p.rank for _, p in self.trick if p.suit is trump), default=None)
            if top is not None and c.rank < top:
                other = self.best_proof([h for h in held if h.suit is not trump], seat)
                if other is not None:
                    because = self.proof_text(seat, other)
                    reason = f"{seat.letter} undertrumped in trick {number}"
                    self.report("AFN307", f"undertrump: {seat.letter} plays {c} under a higher "
                                f"trump while holding {other} ({because}); penalised like a "
                                "revoke", play.span, trick=number, severity=Severity.WARNING)
                    self.offences.append(Offence(seat, "undertrump", number, reason))

    def best_proof(self, candidates: list[Card], seat: Seat) -> Card | None:
        """The card that best proves an offence: one recorded in the hand, else the one
        the offender plays soonest."""
        if not candidates:
            return None
        origin = self.received[seat].origin
        when = {c: number for number, c in self.later_plays().get(seat, [])}

        def strength(c: Card) -> tuple[int, int]:
            recorded = origin.get(c) in ("as dealt", "in the run", "in a run")
            return (0 if recorded else 1, when.get(c, 1 << 20))

        return min(candidates, key=strength)

    def proof_text(self, seat: Seat, c: Card) -> str:
        origin = self.received[seat].origin.get(c)
        if origin in ("as dealt", "in the run", "in a run"):
            return "hand as dealt" if origin == "as dealt" else "received in the run"
        for number, played in self.later_plays().get(seat, []):
            if played == c:
                return f"proved when {seat.letter} plays it in trick {number}"
        return "inferred from the play"

    def end_trick(self, trick: Trick) -> None:
        winner = trick_winner(self.trick, self.trump)
        side = self.side(winner) if winner in self.seats else winner.letter
        self.won[side] = self.won.get(side, 0) + 1
        self.pips[side] = self.pips.get(side, 0) + sum(c.pips for _, c in self.trick)
        self.last_winner = winner
        self.leader = winner
        self.to_move = winner
        self.step(StepKind.TRICK_END, self.trick_text(winner, trick.number) if self.keeps_steps
                  else "", trick.span, trick.number)
        self.completed_tricks.append((trick.number, winner, tuple(self.trick)))
        self.trick = []

    def trick_text(self, winner: Seat, number: int) -> str:
        best = next(c for s, c in self.trick if s is winner)
        return f"{winner.letter} wins trick {number} with {best}"

    def check_trick_count(self, expected: int) -> None:
        if self.trump is None or isinstance(self.deal.ending, Redeal):
            if isinstance(self.deal.ending, Redeal) and self.deal.tricks:
                self.report("AFN305", "cards are played in a deal that was redealt",
                            self.deal.tricks[0].span)
            return
        played = len(self.deal.tricks)
        if played > expected:
            self.report("AFN305", f"{played} tricks are played; each player holds {expected} "
                        "cards, so a deal has " + str(expected), self.deal.tricks[expected].span,
                        trick=expected + 1)
        elif played < expected and self.deal.ending is None and self.g.decided is None:
            self.report("AFN304", f"only {played} of {expected} tricks are written and the deal "
                        "does not say why", self.deal.tricks[-1].span if self.deal.tricks
                        else self.deal.span,
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
        for point in scored:
            self.points.append(point)
            text = f"{point.side} scores {ITEM_LABELS[point.item]} ({point.points}): " \
                f"{point.reason}" if self.keeps_steps else ""
            self.step(StepKind.AWARD, text, span)
        if decider is not None:
            self.g.winner = decider.side
            self.g.decided = f"deal {self.deal.number}, at {ITEM_LABELS[decider.item]}"
            self.g.decided_deal = self.deal.number
            self.decided_here = True
            self.unscored.extend(points[len(scored):])

    def declared_offences(self) -> list[Offence]:
        """Penalties written in the record, matched with the offences the play shows."""
        found = list(self.offences)
        unmatched = list(self.offences)
        for penalty in self.deal.penalties:
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

    def complete_hands(self) -> bool:
        return all(self.unknown[seat] == 0 for seat in self.seats) and bool(self.deal.tricks)

    def score(self, ending: object) -> None:
        if isinstance(ending, Redeal):
            self.score_redeal(ending)
            return
        offences = self.declared_offences()
        if isinstance(ending, (Abandoned, Concede)) and len(self.deal.tricks) < \
                self.tricks_expected():
            if any(o.kind in ("misdeal", "wrongscore") for o in offences):
                self.award(self.penalties_only(offences), self.deal.span)
            return
        if not self.deal.tricks and self.trump is None:
            return
        if not self.deal.tricks and self.g.decided is not None:
            return
        holders = self.holders
        turnup_jack = bool(self.turnups) and self.trump is not None and \
            self.turnups[-1] == Card(self.trump, Rank.JACK)
        facts = DealFacts(
            seats=self.seats,
            dealer=self.dealer,
            elder=self.elder,
            trump=self.trump,
            turnup_trump_jack=turnup_jack,
            holders=holders,
            tricks=tuple(self.completed_tricks),
            offences=tuple(offences),
            pips=self.pips,
        )
        points = play_points(facts, self.options, self.g.scores)
        capped: frozenset[str] = frozenset()
        if self.options.revoke_penalty is RevokePenalty.FOSTER_GRADED:
            capped = frozenset(self.side(o.seat) for o in offences
                               if o.kind in ("revoke", "undertrump"))
        self.award(points, self.deal.claim.span if self.deal.claim else self.deal.span, capped)

    def penalties_only(self, offences: list[Offence]) -> list[Point]:
        facts = DealFacts(self.seats, self.dealer, self.elder, self.trump, False, {}, (),
                          tuple(o for o in offences if o.kind in ("misdeal", "wrongscore")))
        from .scoring import penalty_points

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

    def finish(self, ending: object) -> None:
        if isinstance(ending, Concede):
            self.concede(ending)
        self.to_move = None
        self.step(StepKind.DEAL_END, self.end_text(ending) if self.keeps_steps else "",
                  self.deal.ending.span if self.deal.ending else
                  (self.deal.total.span if self.deal.total else None))
        last = self.g.step_count - 1
        ending_text = None
        if isinstance(ending, Redeal):
            ending_text = f"redeal {ending.reason.value}"
        elif isinstance(ending, Abandoned):
            ending_text = "abandoned"
        elif isinstance(ending, Concede):
            ending_text = f"{ending.seat.letter} concedes"
        complete = ending is None and len(self.deal.tricks) >= self.tricks_expected()
        self.g.deals.append(DealResult(
            number=self.deal.number,
            points=tuple(self.points),
            scores_after=tuple((side, self.g.scores[side]) for side in self.g.sides),
            first_step=self.first_step,
            last_step=last,
            trump=self.trump,
            turnups=tuple(self.turnups),
            calls=tuple(self.calls),
            complete=complete,
            ending=ending_text,
            unscored=tuple(self.unscored),
            dealer=self.dealer,
            elder=self.elder,
            held=self.held_at_start,
            tricks=tuple(self.completed_tricks),
            claim_span=self.deal.claim.span if self.deal.claim else None,
            total_span=self.deal.total.span if self.deal.total else None,
            after_decision=not self.scoring,
        ))

    def end_text(self, ending: object) -> str:
        if isinstance(ending, Redeal):
            return f"deal {self.deal.number}: redeal ({ending.reason.value}); " \
                f"{self.g.score_text()}"
        if isinstance(ending, Abandoned):
            return f"deal {self.deal.number} is abandoned; {self.g.score_text()}"
        if isinstance(ending, Concede):
            return f"deal {self.deal.number}: {ending.seat.letter} concedes; " \
                f"{self.g.score_text()}"
        return f"deal {self.deal.number} ends: {self.g.score_text()}"

    def concede(self, ending: Concede) -> None:
        if self.g.decided is not None or ending.seat not in self.seats:
            return
        loser = self.side(ending.seat)
        others = [side for side in self.g.sides if side != loser]
        if not others:
            return
        best = max(others, key=lambda side: self.g.scores[side])
        self.g.winner = best
        self.g.decided = f"deal {self.deal.number}, by {ending.seat.letter}'s concession"
        self.g.decided_deal = self.deal.number


_KIND_TEXT = {
    "revoke": "a revoke",
    "undertrump": "an undertrump",
    "misdeal": "a misdeal",
    "wrongscore": "scoring wrongly",
    "other": "an irregularity",
}
