"""The play of a deal: each card seated, checked (held, in turn, following suit,
not undertrumping) and added to its trick; the trick's winner by
:func:`..play.trick_winner`; revokes and undertrumps proved when their proof
is played.
"""

from __future__ import annotations

from collections.abc import Sequence

from ...cards import Card, Seat
from ...diagnostics import Severity
from ...reading.records import (
    PenaltyKind,
    Play,
    Span,
)
from ..play import (
    CARD_PIPS,
    trick_winner,
)
from ..profiles import (
    FollowRule,
    UndertrumpException,
    YesNo,
)
from ..scoring import (
    Offence,
)
from ..state import StepKind
from .answers import Phase
from .base import _Suspicion
from .opening import Opening

# read as globals, once for every card played (an enum's member read through the enum
# costs ten times a global on CPython 3.11)
_PLAY, _TRICK_END, _REVOKE = StepKind.PLAY, StepKind.TRICK_END, PenaltyKind.REVOKE


class Tricks(Opening):
    """The play: trick by trick, card by card."""

    __slots__ = ()

    def begin_play(self, first_span: Span | None) -> None:
        """The opening is over: check what it left undone; the elder leads."""
        self.playing = True
        self.patch_from = self.g.step_count
        if self.decided_here:
            self.report("AFN313", f"the game was decided before play ({self.g.decided}); the "
                        "tricks of this deal are not scored", first_span,
                        severity=Severity.WARNING)
        if self.phase is Phase.CALL and self.options.stand_requires_trump is YesNo.YES:
            self.check_trump_held("stands", self.elder, first_span)  # no call is standing
        self.check_opening_end(has_play=True)
        self.finish_discards()
        self.phase = Phase.PLAY
        self.ledger.start_play()
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

    def place(self, plays: Sequence[Play]) -> None:
        """Play ``plays`` in turn: each card is seated, checked (held, in turn, follows
        suit or may not), added to the trick and to the inferred hand in one step, a
        trick opened first when none is open.

        A recorded trick's cards come here together (a trick opened by its
        :class:`Trick` record stays open for all of them), so that what every card
        needs is looked up once per trick.  A card that makes the referee fail is
        reported (AFN399), as :meth:`Table.feed` does, and the next one is played.
        """
        ledger = self.ledger  # its containers, bound once per trick (see .holdings)
        hands, out, played, dealt_to, unseen = ledger.hands, ledger.out, ledger.played, \
            ledger.dealt_to, ledger.unseen
        next_of, players, keeps_steps, game = self.next_of, self.players, self.keeps_steps, self.g
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
                    played[c] = True  # spent: no longer evidence of a holding
                    if self.suspicions:
                        self.prove(seat, c, number, recorded=True)
                else:
                    owner = dealt_to.get(c)
                    if owner is None and unseen[seat] > 0:
                        # one of the cards nobody saw: now known, and evidence from here on
                        if trick and c.suit is not trick[0][1].suit:
                            self.check_follow(play, seat, c, number)
                        unseen[seat] -= 1
                        ledger.shown(seat, c)
                        played[c] = True
                        if self.suspicions:
                            self.prove(seat, c, number, recorded=False)
                    else:
                        self.play_unheld(play, seat, c, number, owner)
                if c not in played:
                    played[c] = False  # a turn-up played: it proves nothing
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
        ledger = self.ledger
        if c in ledger.played:
            self.slip()
        elif c in ledger.turnups:
            pass  # the turn-up is in nobody's hand (AFN202): no evidence either way
        else:
            by = ledger.discarded[c]
            who = seat.letter if by is seat else by.letter
            self.report("AFN301", f"{seat.letter} plays {c}, but {who} discarded {c} after "
                        "the run", play.span, trick=number)
            ledger.played[c] = True

    def play_unheld(self, play: Play, seat: Seat, c: Card, number: int,
                    owner: Seat | None) -> None:
        """A card not among those ``seat`` is known to hold, nor one of its unseen ones
        (those :meth:`take_play` places itself)."""
        ledger = self.ledger
        unseen = ledger.unseen
        if owner is not None and owner is not seat:
            self.report_not_held(play, seat, c, number)
        elif owner is seat and seat not in ledger.forgotten:
            # written for this seat but not in its hand now (a run's card beyond the run)
            self.check_follow(play, seat, c, number)
            if unseen[seat] > 0:
                unseen[seat] -= 1
        elif unseen[seat] > 0:  # written for this seat, whose hand was then forgotten
            self.check_follow(play, seat, c, number)
            unseen[seat] -= 1
            ledger.shown(seat, c)
            ledger.played[c] = True
            self.prove(seat, c, number, recorded=False)
            return
        else:
            self.report_not_held(play, seat, c, number)
        ledger.played[c] = True  # spent: evidence of no holding from here on

    def slip(self) -> None:
        """A card already played: a recording slip, not evidence and not a capture.  The
        structure checks report it (AFN201, :mod:`..structure`); the trick
        counts it once."""
        self.slips.append(len(self.trick))

    def play_step(self, seat: Seat, c: Card, span: Span | None, number: int) -> None:
        text = f"{seat.letter} plays {c}" if self.keeps_steps else ""
        self.step(_PLAY, text, span, number)

    def report_not_held(self, play: Play, seat: Seat, c: Card, number: int) -> None:
        owner = self.ledger.dealt_owner(c, seat)
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
        played, hand = self.ledger.played, self.ledger.hands[seat]
        rule = self.options.follow_rule
        if suit is not trump or rule is FollowRule.MUST_FOLLOW:
            # must_follow: trumping while holding the suit led is a revoke too
            kind = PenaltyKind.REVOKE
            proofs = []  # (a loop: the hand is a handful of cards, often none of the suit)
            for h in hand:
                if h.suit is led and (h not in played or not played[h]):
                    proofs.append(h)
        elif rule is FollowRule.NO_UNDERTRUMP and trump is not None and led is not trump:
            top = None
            for _, p in trick:
                if p.suit is trump and (top is None or p.rank > top):
                    top = p.rank
            if top is None or c.rank > top:
                return
            kind = PenaltyKind.UNDERTRUMP
            narrow = self.options.undertrump_exception is UndertrumpException.VOID_IN_LED_SUIT
            proofs = [h for h in hand if (h not in played or not played[h]) and
                      (h.suit is led if narrow else h.suit is not trump)]
        else:
            return
        if proofs or self.ledger.unseen[seat] > 0:
            self.suspicions.append(_Suspicion(
                kind=kind, seat=seat, card=c, led=led, trick=number, order=len(played),
                span=play.span, recorded=proofs, found_at=len(self.g.found),
                step=self.g.step_count))

    def offence(self, s: _Suspicion, proof: Card, because: str) -> None:
        seat, c, number = s.seat, s.card, s.trick
        if s.kind is PenaltyKind.REVOKE:
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
        offence = Offence(seat=seat, kind=s.kind, trick=number, reason=reason)
        self.offences.append((s.order, offence))
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
        if s.kind is _REVOKE:
            return c.suit is s.led
        if self.options.undertrump_exception is UndertrumpException.VOID_IN_LED_SUIT:
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
        return self.ledger.proof_source(seat, c)

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
        # the winner leads the next trick; after the last one nobody is to move
        self.to_move = winner if self.trick_count < self.tricks_expected() else None
        self.expected_seat = winner
        self.trick_ended = True
        number = self.trick_number
        # the trick is among the won ones before its step is taken: the items "if the
        # deal ended now" shown at the trick's end credit it (its pips, the Jack or Low
        # it took), as its pips and its winner already are, not one step late
        self.completed_tricks.append((number, winner, plays))
        self.scored_tricks.append((number, winner, scored))
        taken, captured = (number, winner), self.captured
        for _, c in scored:
            captured[c] = taken
        if self.keeps_steps:
            self.step(_TRICK_END, self.trick_text(winner, number), self.trick_span,
                      number)
        else:
            self.g.step_count += 1  # what step() does when no steps are kept
        self.trick = []
        self.slips = []

    def trick_text(self, winner: Seat, number: int) -> str:
        best = next(c for s, c in self.trick if s is winner)
        return f"{winner.letter} wins trick {number} with {best}"

