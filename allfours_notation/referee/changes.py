"""Each step of a replay as what it changed at the table, not as the whole table.

A replay page shows the table after every step, and a step changes one or two parts of
it: a card played takes it out of one hand and puts it on the trick, a trick's end gives
it to a side.  :func:`.replay.replay` hands out a whole :class:`~.state.TableState` per
step, which the page then compared with the step before's to keep the parts that changed;
the viewer needs the whole states, the page does not.  Here the table, as it takes each
step, notes only the parts that differ from the step before (:class:`StepChange`), read
off its own live state: no whole state is built, copied or compared (issue 38).

Every value is the referee's, the same as the whole state's: the parts are the
:class:`~.state.TableState` fields of the same names, and the hands seen only in play are
completed from the whole record exactly as :func:`.plain.with_hindsight` completes them
(the deal's cards seen only in play, from the deal's first step on, each gone from its
hand once played; the legal cards of a hand so completed).  A test holds every step of
the samples and of generated games to the whole states' parts.

Nothing here decides anything: the legal cards are :func:`.play.legal_cards`, the items
"if the deal ended now" the deal's own (:meth:`.deal.closing.Closing.items_now`).
"""

from __future__ import annotations

from collections.abc import Sequence
from operator import sub
from typing import TYPE_CHECKING, Any

from ..cards import Card, Seat, Suit
from ..diagnostics import Diagnostic
from ..frozen import frozen
from ..reading.records import Span
from .play import hand_order, legal_cards
from .profiles import Options
from .state import StepKind

PLAY = StepKind.PLAY  # read as a global: once for every step of a game

if TYPE_CHECKING:
    from .deal.base import DealBase

__all__ = ["PARTS", "ChangeLog", "StepChange"]

# The parts of the table a step may change: the TableState fields of these names.
PARTS = ("dealer", "elder", "hands", "unknown", "turnups", "trump", "trick_number", "trick",
         "to_move", "legal", "won", "pips", "last_trick_winner", "deal_points", "items",
         "scores", "winner")

_Hands = tuple[tuple[Card, ...], ...]  # per seat, in seat order
_Counts = tuple[int, ...]  # the unseen counts, in seat order
_Trick = tuple[tuple[Seat, Card], ...]
# what the hands seen only in play complete, kept per step until the deal's end shows them:
# the known hands, the unseen counts, the legal cards, who is to move, the trick, the trump
_Held = tuple[_Hands, _Counts, frozenset[Card], Seat | None, _Trick, Suit | None]

_UNSET: Any = object()  # before the first step every part is new
_NO_CARDS: frozenset[Card] = frozenset()


@frozen
class StepChange:
    """One step of the replay (a call, a play, a point scored) with, as ``changed``, the
    parts of the table that differ from the step before's, by :data:`PARTS` name (every
    part at the first step).  ``hands`` is a dict of only the seats whose hand changed;
    every other part is the whole part, as the :class:`~.state.TableState` field holds it.
    The other fields are :class:`~.state.Step`'s."""

    index: int
    kind: StepKind
    deal: int
    trick: int | None
    text: str
    span: Span | None
    diagnostics: tuple[Diagnostic, ...]
    changed: dict[str, Any]


class ChangeLog:
    """The steps of one game as changes, noted by the table as it takes them (a
    :class:`~.deal.table.Table` given one keeps no whole states).

    The parts a reader of the whole record sees otherwise than the table did (the hands,
    their unseen counts and the legal cards, where the play showed cards nobody saw) are
    kept as the table had them and made changes only at the end (:meth:`finish`), when
    every deal has shown its cards."""

    __slots__ = ("following", "hand_lists", "held", "last", "offences", "options", "seats",
                 "steps")

    def __init__(self, seats: tuple[Seat, ...], options: Options) -> None:
        self.seats = seats
        self.options = options
        self.steps: list[StepChange] = []
        self.held: list[_Held] = []
        # each part's value at the last step (the live containers' copies for comparing)
        self.last: dict[str, Any] = dict.fromkeys(
            ("dealer", "elder", "turnups", "trump", "trick_number", "trick_list", "trick",
             "to_move", "won_dict", "pips_dict", "last_trick_winner", "points_list", "deal_points",
             "items", "scores_dict", "scores", "winner", "unseen", "counts", "hands",
             "legal", "legal_key"), _UNSET)
        # each seat's hand at the last step (a copy of the live list, for comparing)
        self.hand_lists: dict[Seat, list[Card]] | None = None
        # after a card's step: its deal and trick (the live list) and the cards on it
        self.following: tuple[DealBase, list[tuple[Seat, Card]], int] | None = None
        # how many offences the deal had proved at the last step
        self.offences = 0

    def step(self, deal: DealBase, kind: StepKind, trick: int | None, text: str,
             span: Span | None, diagnostics: tuple[Diagnostic, ...]) -> None:
        """The table after ``deal``'s step, as what changed since the step before.

        Each part is compared with a copy of the live container it is read from (a dict
        with a dict, a list with a list, in C) and made the page's tuple only when it
        changed: a step changes one or two parts of seventeen (issue 38)."""
        last = self.last
        changed: dict[str, Any] = {}
        live_trick = deal.trick
        follows = self.following
        if kind is PLAY and follows is not None and follows[0] is deal and \
                follows[1] is live_trick and follows[2] + 1 == len(live_trick):
            # the next card of the trick the step before played to: between the two only
            # the play of a card ran, which changes the hands, the trick, who is to move and
            # the items, not the deal's other parts (the trick's end is a step of its own)
            if deal.to_move is not last["to_move"]:
                last["to_move"] = changed["to_move"] = deal.to_move
            last["trick_list"] = live_trick.copy()
            last["trick"] = changed["trick"] = tuple(live_trick)
            self.following = (deal, live_trick, follows[2] + 1)
            # the items read of a card played only whether it is a trump (High, Low, the
            # Jack, a gift's trump), an offence it proved and whether every card is known
            # now: the unseen counts only fall, so some left now means some left before
            # (Closing.items_now's key is the same as at the step before)
            unseen = deal.ledger.unseen
            if live_trick[-1][1].suit is not deal.trump and \
                    len(deal.offences) == self.offences and \
                    (any(unseen.values()) or unseen == last["unseen"]):
                items = last["items"]
            else:
                items = deal.items_now()
        else:
            self._compare(deal, changed)
            self.following = (deal, live_trick, len(live_trick)) if kind is PLAY else None
            items = deal.items_now()
        self.offences = len(deal.offences)
        if items is not last["items"] and items != last["items"]:
            changed["items"] = items
        last["items"] = items
        self.held.append(self._held(deal))
        self.steps.append(StepChange(len(self.steps), kind, deal.number, trick, text, span,
                                     diagnostics, changed))

    def _compare(self, deal: DealBase, changed: dict[str, Any]) -> None:
        """Every part but the items and the hands, compared with the step before's."""
        last = self.last
        game = deal.g  # a weak reference's call: once a step
        if deal.trick_number != last["trick_number"]:
            last["trick_number"] = changed["trick_number"] = deal.trick_number
        if deal.to_move is not last["to_move"]:  # seats, suits and None: one of each
            last["to_move"] = changed["to_move"] = deal.to_move
        if deal.last_winner is not last["last_trick_winner"]:
            last["last_trick_winner"] = changed["last_trick_winner"] = deal.last_winner
        if deal.trump is not last["trump"]:
            last["trump"] = changed["trump"] = deal.trump
        if deal.dealer is not last["dealer"] or deal.elder is not last["elder"]:
            for name, value in (("dealer", deal.dealer), ("elder", deal.elder)):
                if value is not last[name]:
                    last[name] = changed[name] = value
        if game.winner != last["winner"]:
            last["winner"] = changed["winner"] = game.winner
        ledger = deal.ledger
        if ledger.turnups != last["turnups"]:
            last["turnups"] = ledger.turnups.copy()
            changed["turnups"] = tuple(ledger.turnups)
        live_trick = deal.trick
        if live_trick != last["trick_list"]:
            last["trick_list"] = live_trick.copy()
            last["trick"] = changed["trick"] = tuple(live_trick)
        # a new deal's counts are new dicts of the same sides in the same order, so equal
        # dicts are equal tuples of their items
        if deal.won != last["won_dict"]:
            last["won_dict"] = deal.won.copy()
            changed["won"] = tuple(deal.won.items())
        if deal.pips != last["pips_dict"]:
            last["pips_dict"] = deal.pips.copy()
            changed["pips"] = tuple(deal.pips.items())
        if deal.points != last["points_list"]:
            last["points_list"] = deal.points.copy()
            changed["deal_points"] = tuple(deal.points)
        if game.scores != last["scores_dict"]:
            last["scores_dict"] = game.scores.copy()
            changed["scores"] = tuple((side, game.scores[side]) for side in game.sides)

    def _held(self, deal: DealBase) -> _Held:
        """The hands, unseen counts and legal cards as the table has them now, each the
        step before's own object where it is the same (so that :meth:`finish` compares
        most of them by identity)."""
        last, seats = self.last, self.seats
        ledger = deal.ledger
        live, unseen = ledger.hands, ledger.unseen
        hands: _Hands = last["hands"]
        kept = self.hand_lists
        if kept is None or hands is _UNSET:
            self.hand_lists = {seat: live[seat].copy() for seat in seats}
            hands = last["hands"] = tuple([tuple(live[seat]) for seat in seats])
        elif live != kept:  # the seats' lists compared in C; then only the changed anew
            fresh = list(hands)
            for place, seat in enumerate(seats):
                if live[seat] != kept[seat]:
                    kept[seat] = live[seat].copy()
                    fresh[place] = tuple(live[seat])
            hands = last["hands"] = tuple(fresh)
        if unseen != last["unseen"]:
            last["unseen"] = unseen.copy()
            # the ledger's counts are keyed by the seats, in seat order
            last["counts"] = tuple(unseen.values())
        counts: _Counts = last["counts"]
        mover, trick, trump = deal.to_move, last["trick"], deal.trump
        legal: frozenset[Card] = _NO_CARDS
        if mover in live and unseen[mover] == 0:
            key = (mover, hands, trick, trump)
            if key == last["legal_key"]:
                legal = last["legal"]
            else:
                # a finished trick stays on show until the next card, which leads
                on_table = trick if len(trick) < len(seats) else ()
                legal = legal_cards(hands[seats.index(mover)], on_table, trump, deal.options)
                last["legal_key"], last["legal"] = key, legal
        return hands, counts, legal, mover, trick, trump

    def game_end(self, text: str) -> None:
        """The game's last step: the table as the step before left it (none in a game
        that took no step)."""
        if not self.steps:
            return
        before = self.steps[-1]
        self.held.append(self.held[-1])
        self.steps.append(StepChange(len(self.steps), StepKind.GAME_END, before.deal, None,
                                     text, None, (), {}))

    def finish(self, hindsight: Sequence[tuple[int, int, dict[Seat, list[Card]]]],
               proved_later: Sequence[tuple[Diagnostic, int, int]]) -> tuple[StepChange, ...]:
        """The steps with their hands, unseen counts and legal cards as a reader of the
        whole record sees them (``hindsight``: per deal, its first and last step and the
        cards each seat was seen to hold only when it played them, as for
        :func:`.plain.with_hindsight`), and each offence a later card proved shown at the
        step of the offending card (``proved_later``, as the whole states' replay does).

        One pass over the steps: each deal's hands completed as its cards are played,
        and each step's hands, unseen counts and legal cards written as changes where
        they differ from the step before's."""
        seats, held, steps = self.seats, self.held, self.steps
        deals = iter(hindsight)
        coming = next(deals, None)  # the next deal to complete: its steps come in order
        completing: _Completing | None = None
        end = -1
        shown_hands: _Hands | None = None
        shown_counts: _Counts | None = None
        shown_legal: frozenset[Card] | None = None
        for index, step in enumerate(steps):
            table = held[index]
            if coming is not None and index == coming[0]:
                completing = _Completing(seats, self.options, coming[2])
                end = coming[1]
                coming = next(deals, None)
            taken: tuple[Seat, tuple[Card, ...]] | None = None
            if completing is not None:
                trick = table[4]
                before = completing.last
                answer = completing.took(*trick[-1], table) \
                    if step.kind is PLAY and trick else None
                if answer is not None:  # nearly every card of a deal whose hands were not written
                    hands, counts, legal = answer
                    if before is not None and before[0] is shown_hands:
                        taken = completing.taken_out
                else:
                    if step.kind is PLAY and trick:
                        completing.played(*trick[-1])
                    if completing.waiting:  # else the table showed every card already
                        hands, counts, legal = completing.completed(table)
                        if before is not None and before[0] is shown_hands:
                            taken = completing.taken_out
                    else:
                        hands, counts, legal = table[0], table[1], table[2]
                if index == end:
                    completing = None
            else:
                hands, counts, legal = table[0], table[1], table[2]
            changed = step.changed
            if hands is not shown_hands:
                if shown_hands is None:
                    changed["hands"] = dict(zip(seats, hands, strict=True))
                elif taken is not None:  # the one hand a card played was taken out of
                    changed["hands"] = {taken[0]: taken[1]}
                elif hands != shown_hands:
                    changed["hands"] = {seat: now for seat, now, before
                                        in zip(seats, hands, shown_hands, strict=True)
                                        if now is not before and now != before}
                shown_hands = hands
            if counts is not shown_counts and counts != shown_counts:
                changed["unknown"] = tuple(zip(seats, counts, strict=True))
            shown_counts = counts
            if legal is not shown_legal and legal != shown_legal:
                changed["legal"] = legal
            shown_legal = legal
        return tuple(_offences_at_their_cards(steps, proved_later))


class _Completing:
    """One deal's hands completed with the cards each seat was seen to hold only when it
    played them (:func:`.plain.with_hindsight`'s ``_completed``, step after step): a seat's
    completed hand is made again only when its known cards changed, a card it played
    from those still to be played is taken out of the step before's (the hand stays in
    hand order), and the rest is the step before's own; the unseen counts are the
    table's less the cards still to be played, counted per seat as they are played."""

    __slots__ = ("known", "last", "legal", "options", "place", "played_now", "seats",
                 "taken_out", "unseen", "waiting", "waiting_counts")

    def __init__(self, seats: tuple[Seat, ...], options: Options,
                 inferred: dict[Seat, list[Card]]) -> None:
        self.seats = seats
        self.options = options
        self.place = {seat: place for place, seat in enumerate(seats)}
        # per seat, the cards seen only in play that it has still to play, and how many
        self.waiting = {seat: list(cards) for seat, cards in inferred.items() if cards}
        self.waiting_counts = [len(self.waiting.get(seat, ())) for seat in seats]
        # the cards played from them since the hands last completed, by seat
        self.played_now: dict[Seat, list[Card]] = {}
        # the table's hands and unseen counts last completed, and what they gave
        self.known: _Hands | None = None
        self.unseen: _Counts | None = None
        self.last: tuple[_Hands, _Counts, frozenset[Card]] | None = None
        # the legal cards last worked out, with what they depend on
        self.legal: tuple[tuple[object, ...], frozenset[Card]] | None = None
        # the seat whose hand alone the last completion changed, a card played taken
        # out of it, and that hand (None: any other change)
        self.taken_out: tuple[Seat, tuple[Card, ...]] | None = None

    def played(self, seat: Seat, card: Card) -> None:
        waiting = self.waiting.get(seat)
        if waiting is not None and card in waiting:
            waiting.remove(card)
            self.waiting_counts[self.place[seat]] -= 1
            self.played_now.setdefault(seat, []).append(card)
            if not waiting:
                del self.waiting[seat]

    def took(self, seat: Seat, card: Card,
             held: _Held) -> tuple[_Hands, _Counts, frozenset[Card]] | None:
        """:meth:`played` and :meth:`completed` at once for a card's step, where the card
        is one of those waiting, others still wait and the table's known hands are the
        step before's (nearly every card of a deal whose hands were not written): its
        seat's completed hand is the step before's less the card, and nothing else of the
        hands is looked at again.  None, with nothing done, for any other card."""
        waiting, last = self.waiting.get(seat), self.last
        if waiting is None or last is None or held[0] is not self.known or \
                self.played_now or card not in waiting or \
                (len(waiting) == 1 and len(self.waiting) == 1):
            return None
        waiting.remove(card)
        place = self.place[seat]
        self.waiting_counts[place] -= 1
        if not waiting:
            del self.waiting[seat]
        shown = list(last[0][place])
        shown.remove(card)
        full = list(last[0])
        full[place] = hand = tuple(shown)
        whole = tuple(full)
        self.taken_out = (seat, hand)
        unseen = held[1]
        counts = tuple(map(sub, unseen, self.waiting_counts))
        if counts == last[1]:
            counts = last[1]
        self.unseen = unseen
        self.last = answer = (whole, counts, self.legal_now(whole, counts, held))
        return answer

    def legal_now(self, whole: _Hands, counts: _Counts, held: _Held) -> frozenset[Card]:
        """The legal cards of the seat to move, its hand completed (``whole``), where it
        waits to play some card seen only in play and holds no card unseen; else the
        table's (``held``)."""
        mover, trick, trump = held[3], held[4], held[5]
        if mover not in self.waiting or counts[self.place[mover]] != 0:
            return held[2]
        hand = whole[self.place[mover]]
        key = (mover, hand, trick, trump)
        if self.legal is not None and self.legal[0] == key:
            return self.legal[1]
        on_table = trick if len(trick) < len(self.seats) else ()
        legal = legal_cards(hand, on_table, trump, self.options)
        self.legal = (key, legal)
        return legal

    def hand(self, seat: Seat, known: tuple[Card, ...]) -> tuple[Card, ...]:
        cards = self.waiting.get(seat)
        return tuple(sorted([*known, *cards], key=hand_order)) if cards else known

    def completed(self, held: _Held) -> tuple[_Hands, _Counts, frozenset[Card]]:
        hands, unseen = held[0], held[1]
        seats, last, played = self.seats, self.last, self.played_now
        before = self.known
        self.taken_out = None
        if last is None or before is None:
            whole = tuple([self.hand(seat, known) for seat, known in zip(seats, hands,
                                                                           strict=True)])
        elif hands is before and not played:
            whole = last[0]
        elif hands is before and len(played) == 1:  # a card played from those waiting
            [(seat, cards)] = played.items()
            place = self.place[seat]
            shown = list(last[0][place])
            for card in cards:
                shown.remove(card)
            full = list(last[0])
            full[place] = hand = tuple(shown)
            whole = tuple(full)
            self.taken_out = (seat, hand)
        else:
            full = list(last[0])
            for place, seat in enumerate(seats):
                if hands[place] is not before[place]:
                    full[place] = self.hand(seat, hands[place])
                elif seat in played:  # the same known cards: the played ones taken out
                    shown = list(full[place])
                    for card in played[seat]:
                        shown.remove(card)
                    full[place] = tuple(shown)
            whole = tuple(full)
        if last is not None and unseen is self.unseen and not played:
            counts = last[1]
        else:
            counts = tuple(map(sub, unseen, self.waiting_counts))
            if last is not None and counts == last[1]:  # a card played was one of them
                counts = last[1]
        self.known, self.unseen = hands, unseen
        played.clear()
        self.last = answer = (whole, counts, self.legal_now(whole, counts, held))
        return answer


def _offences_at_their_cards(steps: list[StepChange],
                             proved_later: Sequence[tuple[Diagnostic, int, int]]
                             ) -> list[StepChange]:
    """Each offence proved by a later card shown at the step of the offending card (as
    :func:`.plain.replay_plain` does with the whole states)."""
    if not proved_later:
        return steps
    out = list(steps)
    moved = {id(d) for d, _, _ in proved_later}
    for index, step in enumerate(out):
        if any(id(d) in moved for d in step.diagnostics):
            out[index] = _with_diagnostics(step, tuple(d for d in step.diagnostics
                                                       if id(d) not in moved))
    for diagnostic, _, index in proved_later:
        if index < len(out):
            step = out[index]
            out[index] = _with_diagnostics(step, (*step.diagnostics, diagnostic))
    return out


def _with_diagnostics(step: StepChange, diagnostics: tuple[Diagnostic, ...]) -> StepChange:
    return StepChange(step.index, step.kind, step.deal, step.trick, step.text, step.span,
                      diagnostics, step.changed)
