"""The opening of a deal: the hands the record shows, the order of the pack, the
discards after a run, the turn-up, the stand, the beg, the gift and the run, and
what the opening left undone when the play begins.
"""

from __future__ import annotations

from ...cards import Card, Seat
from ...diagnostics import Severity
from ...reading.records import (
    Call,
    CallKind,
    ClaimItem,
    Discard,
    Hand,
    Pack,
    Redeal,
    RedealReason,
    Span,
    TurnUp,
)
from ..play import (
    DEALT,
    RUN_BATCH,
    hand_order,
    max_runs,
    packet_size,
    turnup_position,
)
from ..profiles import (
    BegsPerDeal,
    HandAfterRun,
    JackOnRun,
    YesNo,
)
from ..scoring import (
    count_in_order,
    gift_points,
    turnup_points,
)
from ..state import StepKind
from .answers import Phase
from .base import DealBase, _Lack

_CALL_WORDS = {kind: kind.value for kind in CallKind}


# What is wrong with a stand or a beg made in each phase (made once, not per call).
_STAND_TOO_SOON = {
    Phase.TURN_UP: "before any card is turned up",
    Phase.ANSWER: "after begging: the dealer must give or run",
    Phase.RUN: "while the run has not turned a new suit",
    Phase.PLAY: "after the play began",
}


_BEG_TOO_SOON = {
    Phase.TURN_UP: "before any card is turned up",
    Phase.ANSWER: "again before the dealer answered the beg",
    Phase.RUN: "while the run has not turned a new suit",
    Phase.PLAY: "after the play began",
}


class Opening(DealBase):
    """The opening: from the hands as dealt to the trumps settled."""

    __slots__ = ()

    def hand(self, event: Hand) -> None:
        """Cards the record shows a seat received: as dealt, or from a run."""
        in_run = bool(self.ledger.turnups)
        if not self.ledger.write(event.seat, event.cards, in_run=in_run):
            return  # a seat not at the table (AFN205)
        if in_run and self.runs > 0 and self.phase is not Phase.RUN:
            self.ledger.take_written_run(event.seat, self.runs)  # after the run's turn-up

    def discards_after_run(self) -> bool:
        """Rule 15 as the options say: do the players discard to six after this run?"""
        rule = self.options.hand_after_run
        return rule is HandAfterRun.DISCARD_TO_SIX or \
            (rule is HandAfterRun.KEEP_IF_ONE_RUN and self.runs >= 2)

    def pack(self, event: Pack) -> None:
        """``pack …``: the 52 cards top first.  The hands as dealt follow at once (as if
        written); each run's cards and every turn-up follow as the deal goes on."""
        problem = ""
        known = [c for c in event.cards if c is not None]
        twice = sorted({c for c in known if known.count(c) > 1}, key=hand_order)
        ledger = self.ledger
        if ledger.turnups:
            problem = "the pack is written after the turn-up: write it first in the deal"
        elif ledger.pack is not None:
            problem = "the pack is written twice"
        elif len(event.cards) != 52:
            problem = f"the pack has {len(event.cards)} cards: write all 52, top first " \
                "(?? for a card nobody saw)"
        elif twice:
            problem = "the pack has " + ", ".join(map(str, twice)) + " twice"
        if problem:
            self.report("AFN318", problem, event.span)
            return
        ledger.pack = pack = list(event.cards)
        self.pack_span = event.span
        players = len(self.seats)
        place = ledger.pack_place
        for run in range(max_runs(players) + 1):
            for seat, cards in self.dealt_from_pack(run).items():
                for c in cards:
                    if c is not None:
                        place.setdefault(c, (seat, run))
            turned = pack[turnup_position(players, run) - 1]
            if turned is not None:
                place.setdefault(turned, (None, run))
        for seat, cards in self.dealt_from_pack(0).items():
            written = [c for c in ledger.written[seat] if c not in cards]
            for c in written:  # a hand written before the pack
                self.report_off_pack(seat, c, self.pack_span)
            self.hand(Hand(seat=seat, cards=tuple(cards), span=event.span))

    def dealt_from_pack(self, run: int) -> dict[Seat, list[Card | None]]:
        """The cards the pack gives each seat as dealt (``run`` 0) or in run ``run``: in deal
        order from the elder, three at a time or one at a time (``deal_pattern``); a run
        deals its three cards each the same way."""
        pack = self.ledger.pack
        assert pack is not None
        players = len(self.seats)
        order = [self.elder]
        while len(order) < players:
            order.append(self.g.next_of.get(order[-1], order[-1]))
        each = DEALT if run == 0 else RUN_BATCH
        start = 0 if run == 0 else turnup_position(players, run - 1)
        packet = packet_size(self.options)
        dealt: dict[Seat, list[Card | None]] = {seat: [] for seat in order}
        place = start
        for _ in range(each // packet):
            for seat in order:
                dealt[seat].extend(pack[place:place + packet])
                place += packet
        return dealt

    def deal_run_from_pack(self) -> None:
        """A run's three cards each, from the pack (``self.runs`` is the run's number)."""
        if self.ledger.pack is None or self.runs > max_runs(len(self.seats)):
            return
        for seat, cards in self.dealt_from_pack(self.runs).items():
            self.hand(Hand(seat=seat, cards=tuple(cards), span=self.pack_span))

    def as_the_pack_deals(self, event: Hand) -> Hand:
        """A written hand checked against the pack: a card the pack gives elsewhere is
        reported and left out (the pack says where it went)."""
        ledger = self.ledger
        if ledger.pack is None:
            return event
        run = self.runs + (1 if self.phase is Phase.RUN else 0) if ledger.turnups else 0
        wrong = [c for c in event.cards if c is not None and
                 ledger.pack_place.get(c, (None, -1)) != (event.seat, run)]
        for c in wrong:
            self.report_off_pack(event.seat, c, event.span)
        if not wrong:
            return event
        return Hand(seat=event.seat, cards=tuple(c for c in event.cards if c not in wrong),
                    span=event.span)

    def report_off_pack(self, seat: Seat, c: Card, span: Span | None) -> None:
        where, run = self.ledger.pack_place.get(c, (None, -1))
        if run < 0:
            went = "is not dealt by the pack (it stays in the stock)"
        elif where is None:
            went = "is turned up" + (f" in run {run}" if run else "")
        else:
            went = f"goes to {where.letter}" + (f" in run {run}" if run else " as dealt")
        self.report("AFN318", f"{seat.letter}'s hand has {c}, but in the pack written {c} "
                    f"{went}", span)

    def check_turnup_in_pack(self, card: Card, span: Span | None) -> None:
        pack = self.ledger.pack
        if pack is None:
            return
        run = len(self.ledger.turnups)
        position = turnup_position(len(self.seats), run)
        if position > 52:
            return
        expected = pack[position - 1]
        if expected is not None and expected != card:
            self.report("AFN318", f"{card} is turned up, but the pack written turns up "
                        f"{expected} here (card {position} of 52)", span)

    def discard(self, event: Discard) -> None:
        """``S discards …``: put out now when the trumps are settled and the rules call for
        discards; written sooner, kept until the play begins (the rules may not call for
        them after all)."""
        if self.playing:
            self.report("AFN317", f"{event.seat.letter} discards after the play began: "
                        "discards come after the last turn-up, before the first trick",
                        event.span)
            return
        if event.seat not in self.ledger.hands:
            return  # a seat not at the table (AFN205)
        self.discard_spans.setdefault(event.seat, event.span)
        if self.discarding and self.phase is Phase.SETTLED:
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
        seat, ledger = event.seat, self.ledger
        for c in event.cards:
            ledger.note_discard(seat, c)
            if c is None:
                continue
            problem = ledger.discard(seat, c, self.hand_size_received())
            if problem:
                self.report("AFN317", f"{seat.letter} discards {c}, but {problem}", event.span)

    def discards_known(self, seat: Seat) -> bool:
        """Whether every card ``seat`` put out is written (none ``??``); true where the
        rules call for no discards."""
        if not self.discarding:
            return True
        return self.ledger.discards_known(seat, RUN_BATCH * self.runs)

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
        if isinstance(self.ending, Redeal):
            return  # a bunch or a misdeal: the cards are dealt again, nobody discards
        unsettled = self.phase is Phase.RUN  # the run turned the original suit and stops
        if not self.discarding or unsettled:
            for event in pending:
                why = "no trumps were made, so nobody plays" if unsettled else \
                    "no cards were run" if not self.runs else \
                    f"after {self.runs} run{'s' if self.runs > 1 else ''} every card is kept " \
                    f"(hand_after_run={self.options.hand_after_run.value})"
                self.report("AFN317", f"{event.seat.letter} discards, but {why}", event.span)
            return
        for event in pending:
            self.put_out(event)
        must = RUN_BATCH * self.runs
        ledger = self.ledger
        for seat in self.seats:
            put = ledger.discards.get(seat, [])
            if not put:
                if ledger.unseen[seat] == 0 and self.trump is not None:
                    self.report("AFN317", f"{seat.letter}'s hand after the run is known "
                                f"({len(ledger.hands[seat])} cards) but its discards are not "
                                "written", self.turnup_spans[-1] if self.turnup_spans else
                                self.header_span, severity=Severity.WARNING,
                                hint=f"write '{seat.letter} discards …' after the last "
                                f"turn-up: the {must} cards {seat.letter} put out")
            elif len(put) != must:
                self.report("AFN317", f"{seat.letter} discards {len(put)} card"
                            f"{'s' if len(put) != 1 else ''}, but after {self.runs} "
                            f"run{'s' if self.runs > 1 else ''} each player holds "
                            f"{self.hand_size_received()} and puts out {must} (back to six)",
                            self.discard_spans.get(seat))
            if not put or None in put or len(ledger.hands[seat]) + ledger.unseen[seat] != DEALT:
                ledger.forget(seat)  # which six it kept is not known: the play shows them

    def turn_up(self, event: TurnUp) -> None:
        """One turned card; while the run goes on nobody is to play."""
        card = event.card
        turnups = self.ledger.turnups
        if turnups and turnups[0].suit is card.suit:
            self.to_move = None
        original = turnups[0] if turnups else None
        from_run = original is not None
        if from_run and self.phase is not Phase.RUN:
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
        self.ledger.turn_up(card)
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
            self.phase = Phase.CALL
        elif same_suit:
            self.phase = Phase.RUN
        else:
            self.settled_by = CallKind.RUNS
            self.phase = Phase.SETTLED

    def add_run_cards(self) -> None:
        """A run gives three cards to each player: they join the hands (unseen ones counted).

        Where players discard down to six after a run (rule 15), the hands grow all the
        same until the trumps are settled; the ``discards`` written then (or, where none
        are, the play) say which six each player kept.
        """
        if self.discards_after_run():
            self.discarding = True
        self.ledger.deal_run()

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
            if self.phase in (Phase.CALL, Phase.SETTLED):
                self.settled_by = self.settled_by or CallKind.STANDS
                self.phase = Phase.SETTLED
            return
        if kind is CallKind.BEGS:
            self.check_beg(event)
            self.begs += 1
            self.step(StepKind.CALL, f"{seat.letter} begs" if self.keeps_steps else "",
                      event.span)
            self.phase = Phase.ANSWER
            return
        if seat is not self.dealer:
            self.report("AFN309", f"{seat.letter} {kind.value}, but only the dealer "
                        f"({self.dealer.letter}) gives or runs", event.span)
        if self.phase is not Phase.ANSWER:
            self.report("AFN309", f"{seat.letter} {kind.value}, but nobody has begged",
                        event.span)
        if kind is CallKind.GIVES:
            self.to_move = self.elder
            self.give(event)
            self.settled_by = CallKind.GIVES
            self.phase = Phase.SETTLED
            return
        if self.runs >= max_runs(len(self.seats)):
            self.report("AFN311", f"the pack is exhausted after {self.runs} runs: the cards "
                        "cannot be run again", event.span)
        self.step(StepKind.RUN, f"{seat.letter} runs the cards: three more each"
                  if self.keeps_steps else "", event.span)
        self.phase = Phase.RUN

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

    def gift_ends_the_game(self) -> bool:
        """Whether a gift waiting for the play would put a side out, no card played yet.
        Nobody plays on after a gift that ends the game, so a deal that stops there ends
        the game at the gift (:meth:`end_at_the_gift`); one whose record plays on is
        judged by its play (a gift proven forbidden scores nothing)."""
        pending = self.pending_gift
        if pending is None or self.playing or self.gift_refused or not self.scoring or \
                self.g.decided is not None:
            return False
        return count_in_order(pending[0], dict(self.g.scores), self.options)[1] is not None

    def end_at_the_gift(self) -> None:
        """The deal stops at a gift that ends the game: it is counted, since no play
        will show the dealer's hand (a gift is forbidden only when proven so)."""
        self.lacks = [lack for lack in self.lacks if lack.call != "gives"]
        self.settle_gift()

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
        return trump is not None and self.ledger.was_seen_with(self.dealer, trump)

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
        if self.phase is Phase.CALL:
            return True
        return self.phase is Phase.SETTLED and self.settled_by is CallKind.RUNS and \
            self.options.begs_per_deal is BegsPerDeal.UNLIMITED

    def check_trump_held(self, call: str, seat: Seat, span: Span | None) -> None:
        """``stand_requires_trump`` / ``give_requires_trump``: the elder without a trump
        must beg, a dealer without a trump must run.  A hand fully known is judged now;
        one not fully written is judged when the play has shown every card of it."""
        trump, ledger = self.trump, self.ledger
        if trump is None or seat not in ledger.hands:
            return
        if ledger.holds_suit(seat, trump):
            return
        lack = _Lack(call=call, seat=seat, trump=trump, span=span, found_at=len(self.g.found),
                     step=self.g.step_count)
        if ledger.unseen[seat] == 0:
            self.report_lack(lack, sorted(ledger.hands[seat], key=hand_order), proved=False)
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
        for lack in self.lacks:
            if not self.ledger.fully_known(lack.seat) or not self.discards_known(lack.seat):
                continue
            hand = self.ledger.whole_hand(lack.seat)
            if not any(c.suit is lack.trump for c in hand):
                self.report_lack(lack, hand, proved=True)
        self.lacks = []

    def check_stand(self, event: Call) -> None:
        seat = event.seat
        if seat is not self.elder:
            self.report("AFN308", f"{seat.letter} stands, but only the elder hand "
                        f"({self.elder.letter}) stands or begs", event.span)
        problem = _STAND_TOO_SOON.get(self.phase)
        if self.phase is Phase.SETTLED and self.settled_by in (CallKind.STANDS, CallKind.GIVES):
            problem = "twice: the trump is already settled"
        if problem:
            self.report("AFN308", f"{seat.letter} stands {problem}", event.span)

    def check_beg(self, event: Call) -> None:
        seat = event.seat
        if seat is not self.elder:
            self.report("AFN308", f"{seat.letter} begs, but only the elder hand "
                        f"({self.elder.letter}) begs", event.span)
        problem = _BEG_TOO_SOON.get(self.phase)
        if self.phase is Phase.SETTLED:
            if self.settled_by is CallKind.STANDS:
                problem = "after standing"
            elif self.settled_by is CallKind.GIVES:
                problem = "after the gift: the trump stands"
            elif self.options.begs_per_deal is BegsPerDeal.ONE:
                problem = "a second time: the rules allow one beg per deal"
        if problem:
            self.report("AFN308", f"{seat.letter} begs {problem}", event.span,
                        hint="begs_per_deal=unlimited allows a beg after each run"
                        if "second" in problem else None)

    def check_opening_end(self, has_play: bool) -> None:
        """What the opening left undone, asked when the play begins (or the deal ends)."""
        if self.phase in (Phase.CALL, Phase.SETTLED):
            self.settle_kick(kept=True)  # play with no call is standing (decision 5)
        if self.decided_here:
            return  # the game ended during the opening: nothing more was due
        if self.results is not None and not has_play:
            return  # recorded by its results: the opening may be written in part, or not
        ending = self.ending
        if not self.ledger.turnups:
            if has_play or ending is None:
                self.report("AFN314", "the deal has no turn-up, so trumps are unknown",
                            self.header_span, hint="write the turned card: 'turn 4S'")
            return
        if self.phase is Phase.ANSWER and (has_play or ending is None):
            self.report("AFN316", f"{self.elder.letter} begged but the dealer neither gave nor "
                        "ran", self.header_span, hint="write 'N gives' or 'N runs' after the beg")
        exhausted = self.runs >= max_runs(len(self.seats))
        redeal = isinstance(ending, Redeal) and ending.reason is RedealReason.EXHAUSTED
        if self.phase is Phase.RUN and not redeal:
            last = self.ledger.turnups[-1]
            if self.runs == 0:
                self.report("AFN309", "the cards were run but no new turn-up is written",
                            self.header_span,
                            hint="write the card turned after the run: 'turn QD'",
                            unfinished=True)
            elif exhausted:
                self.report("AFN311", f"the run turned {last}, the suit of the original turn-up, "
                            "and the pack is exhausted: the same dealer deals again",
                            self.header_span, hint="end the deal with 'redeal exhausted'",
                            unfinished=True)
            else:
                self.report("AFN309", f"the run turned {last}, the suit of the original "
                            f"turn-up: the dealer must run again (rule 9)", self.header_span,
                            hint="write the next turn-up after it", unfinished=True)
        if redeal and not (self.phase is Phase.RUN and exhausted):
            assert isinstance(ending, Redeal)
            why = "a new suit was turned" if self.phase is not Phase.RUN else \
                "the dealer may run again"
            self.report("AFN311", f"'redeal exhausted', but the pack is not exhausted: "
                        f"{self.runs} of {max_runs(len(self.seats))} possible runs, and {why}",
                        ending.span)

