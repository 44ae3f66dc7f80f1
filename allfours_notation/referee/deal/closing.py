"""The end of a deal: penalties, the ending, the claim and the total; the trick
count; the points (decided or provisional while the deal is played); the deal's
result and who deals next.
"""

from __future__ import annotations

from collections.abc import Sequence

from ...cards import Card, Rank, Seat, Suit
from ...diagnostics import Severity
from ...reading.records import (
    Abandoned,
    CallKind,
    Claim,
    ClaimItem,
    Concede,
    Penalty,
    PenaltyKind,
    Redeal,
    RedealReason,
    Results,
    Total,
)
from ...reading.table import side_of
from ..decided import ItemStatus, Status, certain_high_low, item_of, under_the_cap
from ..play import (
    legal_cards,
    max_runs,
    trick_winner,
)
from ..profiles import (
    BegsPerDeal,
    FosterCap,
    LowOwner,
    MisdealRule,
    PackExhausted,
    PenaltyTiming,
    RevokePenalty,
    YesNo,
)
from ..results import Finding, ResultsFacts, count_pips, results_points, tally_text
from ..scoring import (
    ITEM_LABELS,
    PLAY_OFFENCES,
    TABLE_OFFENCES,
    DealFacts,
    Offence,
    Point,
    deal_facts,
    game_points,
    gift_points,
    high_low_points,
    jack_points,
    penalty_points,
    play_points,
)
from ..state import StepKind, build_deal_result
from .answers import Expect, Phase
from .tricks import Tricks

_KIND_TEXT = {
    PenaltyKind.REVOKE: "a revoke",
    PenaltyKind.UNDERTRUMP: "an undertrump",
    PenaltyKind.MISDEAL: "a misdeal",
    PenaltyKind.WRONG_SCORE: "scoring wrongly",
    PenaltyKind.OTHER: "an irregularity",
}


_JACK_OF = {suit: Card(suit, Rank.JACK) for suit in Suit}
# The enum members the items "if the deal ended now" read at each making, read as
# globals: a member read through its enum costs ten times a global on CPython 3.11
# (about 200 ns), and a making read some thirty of them (issue 38).
_DECIDED, _PROVISIONAL, _UNKNOWN = Status.DECIDED, Status.PROVISIONAL, Status.UNKNOWN
_HIGH, _LOW, _GAME, _KICK, _PENALTY = (ClaimItem.HIGH, ClaimItem.LOW, ClaimItem.GAME,
                                       ClaimItem.KICK, ClaimItem.PENALTY)
_JACKS = (ClaimItem.JACK, ClaimItem.HANG_JACK)
_PLAY, _SETTLED = Phase.PLAY, Phase.SETTLED
_PLAYING = (Phase.SETTLED, Phase.PLAY)
_FOSTER_GRADED, _BEFORE_HIGH = RevokePenalty.FOSTER_GRADED, PenaltyTiming.BEFORE_HIGH
_ORIGINAL_HOLDER, _TRICK_WINNER = LowOwner.ORIGINAL_HOLDER, LowOwner.TRICK_WINNER
_CAP_ALWAYS, _NO = FosterCap.ALWAYS, YesNo.NO
_PLUS_ONE_OR_FOURTEEN = (RevokePenalty.OPPONENT_PLUS_1, RevokePenalty.OPPONENT_PLUS_14)
_UNLIMITED_BEGS, _RUNS = BegsPerDeal.UNLIMITED, CallKind.RUNS
# the play's items while the trumps are not settled: the same records every time
_UNSETTLED = tuple(ItemStatus(item=item, status=Status.UNKNOWN, side=None, points=0,
                              note="the trumps are not settled")
                   for item in (ClaimItem.HIGH, ClaimItem.LOW, ClaimItem.JACK, ClaimItem.GAME))


class Closing(Tricks):
    """The deal's end and its scoring."""

    __slots__ = ()

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
            self.ledger.start_play()
            self.leader = self.elder
            self.to_move = self.elder if self.trump is not None else None
        if self.gift_ends_the_game():
            self.end_at_the_gift()
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
                        else self.header_span,
                        hint="write every trick, or end the deal with 'abandoned' or "
                        "'S concedes'")

    def found_offences(self) -> list[Offence]:
        return [o for _, o in sorted(self.offences, key=lambda pair: pair[0])]

    def declared_offences(self) -> list[Offence]:
        """Penalties written in the record, matched with the offences the play shows."""
        if not self.penalties:
            return self.found_offences() if self.offences else []
        found = self.found_offences()
        unmatched = list(found)
        for penalty in self.penalties:
            kind, offender = penalty.kind, penalty.offender
            match = next((o for o in unmatched if o.seat is offender and o.kind is kind), None)
            if match is not None:
                unmatched.remove(match)
                continue
            if kind in PLAY_OFFENCES and self.complete_hands():
                self.report("AFN315", f"'penalty {offender.letter} {kind.value}' is declared, "
                            f"but the play shows no {kind.value} by {offender.letter}; "
                            "the declared penalty is scored", penalty.span,
                            severity=Severity.WARNING)
            found.append(Offence(seat=offender, kind=kind, trick=None,
                                 reason=f"{offender.letter} was penalised for {_KIND_TEXT[kind]}"))
        return found

    def still_played(self) -> bool:
        """Whether the deal is still being played: no ending, claim or total, and the
        trumps unsettled or tricks to come (the deal is scored as if it ended now)."""
        if self.ending is not None or self.claim is not None or self.total is not None:
            return False
        if self.results is not None and (not self.trick_count or self.results.director):
            return False  # scored by its results: nothing more is to be played
        if self.phase not in (Phase.SETTLED, Phase.PLAY):
            return True
        return len(self.completed_tricks) < self.tricks_expected()

    def settled_for_good(self) -> bool:
        """Whether the trumps and the hands in play are fixed: the play began (or the deal
        is over), or nothing before the first lead can change them any more."""
        if self.phase is _PLAY or self.closed:
            return self.phase in _PLAYING
        if self.phase is not _SETTLED:
            return False
        if self.discarding and not self.discards_done:
            return False  # the discards still take cards out of play
        return not (self.settled_by is _RUNS and
                    self.options.begs_per_deal is _UNLIMITED_BEGS)

    def complete_hands(self) -> bool:
        return self.ledger.all_known() and self.trick_count > 0

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
            if any(o.kind in TABLE_OFFENCES for o in offences):
                self.award(self.penalties_only(offences), self.header_span)
            return
        if not self.trick_count and self.trump is None:
            return
        if not self.trick_count and self.g.decided is not None:
            return
        if self.phase is Phase.RUN:
            return  # the run turned the original suit and stops: no trumps (rule 9)
        points = self.play_points_now(offences)
        gift: list[Point] = []
        if self.pending_gift is not None:  # still being played: first in counting order
            gift, self.pending_gift = self.pending_gift[0], None
        capped = self.capped_sides(offences)
        span = self.claim.span if self.claim else self.header_span
        if not self.was_open:
            self.award(points, span, capped)
            return
        # Still being played: count the decided items in counting order up to the first
        # that is not decided (rule 25: a later one cannot go out before it); the rest
        # would score if the deal ended now, and count for nobody yet.
        statuses = [Status.DECIDED if self.gift_allowed() else Status.PROVISIONAL
                    for _ in gift] + self.point_statuses(points, offences)
        points, statuses = self.foster_cap_now([*gift, *points], statuses, capped)
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

    def capped_sides(self, offences: Sequence[Offence]) -> frozenset[str]:
        """The sides Foster's cap keeps from going out this deal: a revoke (or undertrump)
        of theirs is proven, and under ``foster_cap=jack_in_play`` the Jack is in play."""
        if not offences or self.options.revoke_penalty is not _FOSTER_GRADED:
            return frozenset()
        if self.options.foster_cap is not _CAP_ALWAYS and \
                (self.trump is None or _JACK_OF[self.trump] not in self.ledger.holders):
            return frozenset()
        return frozenset(self.side(o.seat) for o in offences if o.kind in PLAY_OFFENCES)

    def foster_cap_now(self, points: Sequence[Point], statuses: Sequence[Status],
                       capped: frozenset[str]) -> tuple[list[Point], list[Status]]:
        """The items of a deal still being played as Foster's cap leaves them: cut for a
        side whose revoke is proven, and not decided while a revoke still to come could
        cut them (see :func:`..decided.under_the_cap`)."""
        if self.options.revoke_penalty is not _FOSTER_GRADED or \
                not self.cap_may_come():
            return list(points), list(statuses)
        return under_the_cap(points, statuses, self.g.scores, self.options.target, capped,
                             penalties_first=self.options.penalty_timing is
                             _BEFORE_HIGH)

    def cap_may_come(self) -> bool:
        """Whether a revoke could still be capped: under ``foster_cap=jack_in_play``, not
        once the Jack is known to be out of play."""
        if self.options.foster_cap is _CAP_ALWAYS or self.trump is None:
            return True
        jack, ledger = _JACK_OF[self.trump], self.ledger
        if jack in ledger.holders:
            return True
        return not (ledger.unseen_total() == 0 or jack in ledger.accounted())

    def play_points_now(self, offences: Sequence[Offence]) -> list[Point]:
        """High, Low, Jack, Game and penalties from the complete tricks so far (rule 25
        order); no Game for a deal with no trick written."""
        points = play_points(self.facts_now(offences), self.options, self.g.scores)
        if not self.scored_tricks:
            points = [p for p in points if p.item is not ClaimItem.GAME]
        return points

    def facts_now(self, offences: Sequence[Offence]) -> DealFacts:
        trump = self.trump
        jack = _JACK_OF[trump] if trump is not None else None
        turnups = self.ledger.turnups
        turnup_jack = bool(turnups) and jack is not None and turnups[-1] is jack
        return deal_facts(self.seats, self.dealer, self.elder, trump, turnup_jack,
                          self.ledger.holders, tuple(self.scored_tricks), tuple(offences),
                          self.pips)

    def live_facts(self, trump: Suit) -> DealFacts:
        """:meth:`facts_now` of a deal with no offence, reading the deal's own lists and
        dicts (the holders, the tricks won, the pips), so that one record serves the
        deal's every step while the trump and the turn-up stay (:meth:`kept_play_points`
        asks at every trick and trump seen)."""
        jack = _JACK_OF[trump]
        turnups = self.ledger.turnups
        turnup_jack = bool(turnups) and turnups[-1] is jack
        kept = self.facts_memo
        if kept is not None and kept[0] is trump and kept[1] is turnup_jack:
            return kept[2]
        facts = deal_facts(self.seats, self.dealer, self.elder, trump, turnup_jack,
                           self.ledger.holders, self.scored_tricks, (), self.pips)
        self.facts_memo = (trump, turnup_jack, facts)
        return facts

    def kept_play_points(self, offences: Sequence[Offence]) -> list[Point]:
        """:meth:`play_points_now` for the items shown at each step (:meth:`make_items`),
        each of High and Low, Jack and Game made again only when what it reads changed:
        a trick won changes Game and seldom the others, a trump seen High or Low and
        seldom the others (issue 38: a replay page asks the items about sixty times a
        game).  The points are :func:`..scoring.play_points`'s own, kept with what they
        were made from; a deal with an offence has them all made again."""
        trump = self.trump
        if offences or trump is None:
            return self.play_points_now(offences)
        holders, tricks, memo = self.ledger.holders, self.scored_tricks, self.points_memo
        captured, options = self.captured, self.options
        high, low = self.ledger.trump_extremes(trump)
        jack = _JACK_OF[trump]
        turnups = self.ledger.turnups
        facts: DealFacts | None = None
        # each item's key, then its points: made again only when the key changed
        key: tuple[object, ...] = (
            trump, high, low, holders.get(high) if high else None,
            holders.get(low) if low else None,
            captured.get(low) if low and options.low_owner is _TRICK_WINNER else None)
        kept = memo.get("high_low")
        if kept is None or kept[0] != key:
            facts = self.live_facts(trump)
            memo["high_low"] = kept = (key, high_low_points(facts, options, extremes=(high, low),
                                                            captured=captured))
        points = kept[1].copy()
        key = (trump, bool(turnups) and turnups[-1] is jack, holders.get(jack),
               captured.get(jack))
        kept = memo.get("jack")
        if kept is None or kept[0] != key:
            if facts is None:
                facts = self.live_facts(trump)
            memo["jack"] = kept = (key, jack_points(facts, options, set()))
        points.extend(kept[1])
        key = (tuple(self.pips.items()), self.elder)
        kept = memo.get("game")
        if kept is None or kept[0] != key:
            if facts is None:
                facts = self.live_facts(trump)
            memo["game"] = kept = (key, game_points(facts, options, set()))
        if tricks:  # no Game for a deal with no trick written
            points.extend(kept[1])
        return points

    def point_statuses(self, points: Sequence[Point],
                       offences: Sequence[Offence]) -> list[Status]:
        """Decided or provisional, for each of ``points`` computed as if the deal ended
        now (see :mod:`.decided`); the ledger's unseen counts read without its method's
        call (asked at about sixty steps of a replay page, issue 38)."""
        if not self.was_open and self.closed:
            return [_DECIDED] * len(points)
        trump = self.trump
        if trump is None or (self.phase is not _PLAY and not self.settled_for_good()):
            return [_UNKNOWN if p.item is not _PENALTY else _PROVISIONAL
                    for p in points]
        ledger = self.ledger
        unseen = sum(ledger.unseen.values())
        accounted = ledger.accounted()
        holders = ledger.holders
        highest, lowest = ledger.trump_extremes(trump)
        # only the highest and the lowest trump seen tell (see certain_high_low)
        high, low = certain_high_low(trump, (highest, lowest) if highest is not None and
                                     lowest is not None else (),
                                     accounted, unseen)
        jack = _JACK_OF[trump]
        captured = self.captured  # whether a card is in a complete trick
        penalty = self.options.revoke_penalty
        foster = penalty is _FOSTER_GRADED
        low_sure = low and (self.options.low_owner is _ORIGINAL_HOLDER or
                            (lowest is not None and lowest in captured))
        found: list[Status] = []
        for point in points:
            item = point.item
            if item is _HIGH:
                sure = high
            elif item is _LOW:
                sure = low_sure
            elif item in _JACKS:
                # a later revoke bars it (Foster)
                sure = jack in captured and not foster
            elif item is _PENALTY:
                sure = penalty in _PLUS_ONE_OR_FOURTEEN or \
                    (foster and (unseen == 0 or jack in holders or jack in accounted))
            else:
                sure = False  # Game: at the deal's end
            found.append(_DECIDED if sure else _PROVISIONAL)
        return found

    def items_now(self) -> tuple[ItemStatus, ...]:
        """Every item of the deal as the table knows it now (the state's ``items``): made
        again only when something it depends on changed (a trick completed, a card seen,
        an offence proven, a point counted), not for every card.

        A memo kept although ``check`` never asks it (it keeps no steps): a replay with
        steps (the viewer, ``score``) takes a third longer without it (CPU, 80 games of
        the bench corpus, 3 interleaved runs: 0.67-0.80 s against 0.83-1.11 s).

        Of the trumps seen, the key holds what the items read of them: the highest and
        the lowest with their holders (High, Low, whether one trump is the only one) and
        the Jack's holder.  A trump seen between the highest and the lowest changes no
        item and no status (High and Low are certain when no unseen rank could beat
        them, and a rank between them never could), so it is not made again: about a
        third of the makings of a replay (issue 38).  A gift waiting for the play to show
        the dealer's trump is decided by any trump of the dealer's, so the key holds
        whether one was seen while a gift waits.  The key is read without a call where
        it can be (about a hundred keys a game of a replay page): the unseen counts, and
        whether the game is decided from the deal's own flags (during a deal only a
        point it scores, in ``points`` too, decides it, or a concession once the deal is
        scored, when the items no longer read it)."""
        trump, ledger = self.trump, self.ledger
        holders = ledger.holders
        high, low = ledger.trump_extremes(trump)
        key = (len(self.scored_tricks), high, low,
               holders.get(high) if high is not None else None,
               holders.get(low) if low is not None else None,
               holders.get(_JACK_OF[trump]) if trump is not None else None,
               len(self.offences), len(self.points),
               len(self.unscored), len(self.provisional), self.phase, self.closed,
               self.pending_gift is None or self.gift_allowed(), len(self.waiting_kick),
               len(ledger.discarded), len(ledger.turnups), self.scoring, self.decided_here,
               not any(ledger.unseen.values()), trump)
        cached = self.items_cache
        if cached is not None and cached[0] == key:
            return cached[1]
        found = self.make_items()
        self.items_cache = (key, found)
        return found

    def make_items(self) -> tuple[ItemStatus, ...]:
        item_of = self.kept_item
        items: list[ItemStatus] = []
        provisional_kicks = self.options.keep_turnup_points_on_redeal is _NO and \
            self.phase not in _PLAYING
        for p in self.points:
            status = _PROVISIONAL if provisional_kicks and p.item is _KICK \
                else _DECIDED
            items.append(item_of(p, status))
        for p in self.unscored:
            items.append(ItemStatus(item=p.item, status=_DECIDED, side=None, points=0,
                                    point=p, note="not scored: the game was already decided"))
        if self.closed:
            for p in self.provisional:
                items.append(item_of(p, _DECIDED if p in self.waiting
                                     else _PROVISIONAL))
            return tuple(items)
        for p in self.waiting_kick:
            items.append(item_of(p, _PROVISIONAL))
        if self.pending_gift is not None:
            status = _DECIDED if self.gift_allowed() else _PROVISIONAL
            items.extend(item_of(p, status) for p in self.pending_gift[0])
        if self.g.decided is not None or self.trump is None:
            return tuple(items)
        if self.phase not in _PLAYING:
            items.extend(_UNSETTLED)
            return tuple(items)
        offences = self.found_offences() if self.offences else []
        points = self.kept_play_points(offences)
        statuses = self.point_statuses(points, offences)
        if self.options.revoke_penalty is _FOSTER_GRADED:  # else no cap to apply
            points, statuses = self.foster_cap_now(points, statuses,
                                                   self.capped_sides(offences))
        memo = self.item_memo  # kept_item's, looked up here: most items are the step before's
        for p, status in zip(points, statuses, strict=True):
            kept = memo.get(id(p))
            items.append(kept[2] if kept is not None and kept[0] is p and kept[1] is status
                         else item_of(p, status))
        return tuple(items)

    def kept_item(self, point: Point, status: Status) -> ItemStatus:
        """:func:`..decided.item_of`, the same object again for the same point (the very
        object: the scored points and the play's kept ones stay) and status: a replay
        page's items are made again at each trick and trump seen, and most of them are
        the step before's (an ItemStatus costs about 7,000 instructions to make)."""
        kept = self.item_memo.get(id(point))
        if kept is not None and kept[0] is point and kept[1] is status:
            return kept[2]
        made = item_of(point, status)
        self.item_memo[id(point)] = (point, status, made)
        return made

    def score_results(self, results: Results) -> None:
        """A deal recorded by its results: the items checked (see :mod:`.results`), then
        counted in order like a played deal's; items after the target are not scored."""
        kicked = tuple(p for p in (*self.points, *self.unscored) if p.item is ClaimItem.KICK)
        facts = ResultsFacts(seats=self.seats, dealer=self.dealer, elder=self.elder,
                             turnups=tuple(self.ledger.turnups), kicked=kicked,
                             calls_written=bool(self.calls),
                             gave=any(c.endswith(" gives") for c in self.calls),
                             scores=dict(self.g.scores))
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
        facts = DealFacts(seats=self.seats, dealer=self.dealer, elder=self.elder,
                          trump=self.trump, turnup_trump_jack=False, holders={}, tricks=(),
                          offences=tuple(o for o in offences if o.kind in TABLE_OFFENCES))
        return penalty_points(facts, self.options, self.g.scores)

    def score_redeal(self, ending: Redeal) -> None:
        offences = [o for o in self.declared_offences() if o.kind in TABLE_OFFENCES]
        misdeal_costs = self.options.misdeal is MisdealRule.OPPONENT_PLUS_1_AND_PASS
        if ending.reason is RedealReason.MISDEAL and misdeal_costs and \
                not any(o.kind is PenaltyKind.MISDEAL for o in offences):
            offences.append(Offence(seat=self.dealer, kind=PenaltyKind.MISDEAL, trick=None,
                                    reason=f"{self.dealer.letter} misdealt"))
        if offences:
            self.award(self.penalties_only(offences), ending.span)
        if ending.reason is RedealReason.EXHAUSTED and \
                self.options.keep_turnup_points_on_redeal is YesNo.NO and not self.decided_here:
            kicks = [p for p in self.points if p.item is ClaimItem.KICK]
            cancel = [Point(side=p.side, seat=p.seat, item=ClaimItem.KICK, points=-p.points,
                            reason="turn-up points are cancelled by the redeal") for p in kicks]
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
        ledger = self.ledger
        if self.keeps_steps and ledger.revealed():
            start = self.first_step if len(ledger.turnups) <= 1 else self.patch_from
            self.g.hindsight.append((start, last, ledger.inferred))
        self.g.deals.append(build_deal_result(
            number=self.number,
            points=tuple(self.points),
            scores_after=self.g.scores_now(),
            first_step=self.first_step,
            last_step=last,
            trump=self.trump,
            turnups=tuple(ledger.turnups),
            calls=tuple(self.calls),
            complete=complete,
            ending=ending_text,
            unscored=tuple(self.unscored),
            dealer=self.dealer,
            elder=self.elder,
            held=ledger.held_with_inferred(),
            tricks=tuple(self.completed_tricks),
            claim_span=self.claim.span if self.claim else None,
            total_span=self.total.span if self.total else None,
            after_decision=not self.scoring,
            provisional=tuple(self.provisional),
            open=self.was_open,
            waiting=tuple(self.waiting),
            by_results=by_results,
            pips=self.counted_pips(by_results),
            time=self.time,
        ))

    def counted_pips(self, by_results: bool) -> tuple[tuple[str, int], ...]:
        """The deal's pips toward Game each side: the cards', or for a deal scored by its
        results the record's count (none without one).  A count written is held to the
        Game item of the results and, in a deal played out, to the cards (AFN411)."""
        count = self.count
        if count is None:
            return () if by_results else tuple(self.pips.items())
        pips, findings = count_pips(count, self.seats)
        if not findings:
            findings = self.count_disagrees(pips, by_results)
        for finding in findings:
            self.report(finding.code, finding.message, count.span, hint=finding.hint)
        return tuple(pips.items()) if by_results else tuple(self.pips.items())

    def count_disagrees(self, pips: dict[str, int], by_results: bool) -> list[Finding]:
        """A count that contradicts the Game item of the results (Game goes to the side
        with more pips; a tie as the rules say), or the cards of a deal played out."""
        if not by_results:
            if self.trick_count < self.tricks_expected() or self.ending is not None or \
                    pips == self.pips:
                return []
            return [Finding("AFN411", f"the count ({tally_text(pips)}) is not what the cards "
                            f"give ({tally_text(self.pips)})",
                            hint="correct the count, or leave it out: the cards show it")]
        facts = DealFacts(seats=self.seats, dealer=self.dealer, elder=self.elder,
                          trump=self.trump, turnup_trump_jack=False, holders={}, tricks=(),
                          offences=(), pips=pips)
        implied = next((p.side for p in game_points(facts, self.options, set())), None)
        awards = self.results.awards if self.results is not None else ()
        written = next((side_of(a.seat, self.seats) for a in awards
                        if a.item is ClaimItem.GAME and a.seat in self.seats), None)
        if implied == written:
            return []
        return [Finding("AFN411", f"the count ({tally_text(pips)}) gives Game to "
                        f"{implied or 'nobody'}, but the results give it to "
                        f"{written or 'nobody'}",
                        hint="correct the count or the Game item: Game goes to the side "
                        "with more pips, a tie as the rules say")]

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
        """What the deal waits for: its own phase while the opening goes on (``CALL``
        is the elder's, the others the dealer's), then the play, then its end."""
        if self.closed:
            return Expect(Phase.DEAL_END, None)
        if self.decided_here:
            return Expect(Phase.DEAL_END, None, f"the game was decided ({self.g.decided})",
                          decided=True)
        if self.ending is not None:
            return Expect(Phase.CLAIM, None)
        if self.gift_ends_the_game():
            return Expect(Phase.DEAL_END, None, "the gift puts a side out: the game ends at "
                          "the gift", decided=True)
        phase = self.phase
        if phase is Phase.CALL:  # a lead now is a stand (decision 5): discards may be due
            return Expect(phase, self.elder, must_beg=self.must_beg(),
                          discard=not self.discards_done and self.discards_after_run())
        if phase is Phase.ANSWER:
            return self.answer_expected()
        if phase is Phase.TURN_UP:
            return Expect(phase, self.dealer)
        if phase is Phase.RUN:
            if self.runs >= max_runs(len(self.seats)) and self.runs > 0:
                return Expect(Phase.DEAL_END, self.dealer,
                              "the pack is exhausted: redeal by the same rules", exhausted=True)
            return Expect(Phase.RUN, self.dealer)
        full = len(self.trick) >= len(self.seats)
        done = self.trick_ended or not self.trick or full
        if self.trick_count >= self.tricks_expected() and done:
            return Expect(Phase.CLAIM, None)
        seat = self.expected_seat if self.playing else self.elder
        if self.trick and full and not self.trick_ended:
            seat = trick_winner(self.trick, self.trump)
        first = phase is Phase.SETTLED and not self.trick
        again = first and self.may_beg()
        return Expect(Phase.PLAY, seat, legal=self.legal_for(seat), may_beg_again=again,
                      must_beg=again and self.must_beg(),
                      discard=first and not self.discards_done and self.discards_after_run())

    def legal_for(self, seat: Seat | None) -> frozenset[Card] | None:
        """The cards ``seat`` may play now (a lead, when the trick on the table is full);
        None when its hand is not fully known or nobody plays now."""
        hands = self.ledger.hands
        if seat is None or seat not in hands or self.ledger.unseen[seat] != 0 or \
                self.phase not in (Phase.SETTLED, Phase.PLAY):
            return None
        on_table = self.trick if len(self.trick) < len(self.seats) else []
        return legal_cards(hands[seat], on_table, self.trump, self.options)

    def must_beg(self) -> bool:
        """``stand_requires_trump``: the elder, whose hand is fully known, holds no trump
        (asked where a beg is his to make)."""
        trump, elder = self.trump, self.elder
        return self.options.stand_requires_trump is YesNo.YES and trump is not None and \
            self.ledger.fully_known(elder) and not self.ledger.holds_suit(elder, trump)

    def answer_expected(self) -> Expect:
        """The dealer answers a beg: whether the rules allow a gift (Foster's at target -
        1; ``give_requires_trump`` with the dealer's hand fully known) and another run."""
        _, refused = gift_points(dealer=self.dealer, elder=self.elder, seats=self.seats,
                                 options=self.options, scores=self.g.scores)
        trump, dealer = self.trump, self.dealer
        lacks = self.options.give_requires_trump is YesNo.YES and trump is not None and \
            self.ledger.fully_known(dealer) and not self.ledger.holds_suit(dealer, trump)
        return Expect(Phase.ANSWER, dealer, may_give=refused is None and not lacks,
                      gift_lacks_trump=refused is None and lacks,
                      may_run=self.runs < max_runs(len(self.seats)))

