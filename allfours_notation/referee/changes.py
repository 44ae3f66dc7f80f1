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
from typing import TYPE_CHECKING, Any, NamedTuple

from ..cards import Card, Seat, Suit
from ..diagnostics import Diagnostic
from ..reading.records import Span
from .play import hand_order, legal_cards
from .profiles import Options
from .state import StepKind

# read as globals: once for every step of a game
PLAY, TRICK_END = StepKind.PLAY, StepKind.TRICK_END

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
# the known hands, the unseen counts, who is to move, the trick, the trump, and the seat
# whose count alone fell by one (a card seen only in play), if any
_Held = tuple[_Hands, _Counts, Seat | None, _Trick, Suit | None, Seat | None]

_UNSET: Any = object()  # before the first step every part is new
_NO_CARDS: frozenset[Card] = frozenset()


class StepChange(NamedTuple):
    """One step of the replay (a call, a play, a point scored) with, as ``changed``, the
    parts of the table that differ from the step before's, by :data:`PARTS` name (every
    part at the first step).  ``hands`` is a dict of only the seats whose hand changed;
    every other part is the whole part, as the :class:`~.state.TableState` field holds it.
    The other fields are :class:`~.state.Step`'s.

    A named tuple rather than a ``@frozen`` record (immutable all the same): one is made
    for every step of a replay page, about 200 a game, and a tuple is made in C where a
    record's eight slots are each filled by a Python call (about 8,000 instructions a
    step, a tenth of the stepping replay beyond ``check``; issue 38)."""

    index: int  # type: ignore[assignment]  # the step's number, as Step's (not tuple.index)
    kind: StepKind
    deal: int
    trick: int | None
    text: str
    span: Span | None
    diagnostics: tuple[Diagnostic, ...]
    changed: dict[str, Any]


# a step made from the tuple of its fields (the named tuple's ``__new__`` takes them one
# by one, a Python call more)
_made = StepChange._make


class ChangeLog:
    """The steps of one game as changes, noted by the table as it takes them (a
    :class:`~.deal.table.Table` given one keeps no whole states).

    The parts a reader of the whole record sees otherwise than the table did (the hands,
    their unseen counts and the legal cards, where the play showed cards nobody saw) are
    kept as the table had them (the known hands and counts, who is to move, the trick;
    no legal cards) and made changes only at the end (:meth:`finish`), when every deal
    has shown its cards: the legal cards are then worked out once, of the hand shown."""

    __slots__ = ("following", "hand_lists", "held", "last", "offences", "options", "place",
                 "seats", "steps")

    def __init__(self, seats: tuple[Seat, ...], options: Options) -> None:
        self.seats = seats
        self.place = {seat: place for place, seat in enumerate(seats)}
        self.options = options
        self.steps: list[StepChange] = []
        self.held: list[_Held] = []
        # each part's value at the last step (the live containers' copies for comparing)
        self.last: dict[str, Any] = dict.fromkeys(
            ("dealer", "elder", "turnups", "trump", "trick_number", "trick_list", "trick",
             "to_move", "won_dict", "pips_dict", "last_trick_winner", "points_list", "deal_points",
             "items", "scores_dict", "scores", "winner", "unseen", "counts", "hands"),
            _UNSET)
        # each seat's hand at the last step (a copy of the live list, for comparing)
        self.hand_lists: dict[Seat, list[Card]] | None = None
        # after a card's step: its deal and trick (the live list) and the cards on it; after
        # a trick's end: its deal and trick, and -1
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
        seat: Seat | None = None
        held: _Held | None = None  # the table's hands as at the step before, but who moves
        if kind is PLAY and follows is not None and follows[0] is deal and (
                (follows[1] is live_trick and follows[2] + 1 == len(live_trick)) or
                (follows[2] < 0 and len(live_trick) == 1 and follows[1] is not live_trick)):
            # the next card of the trick the step before played to, or the first of a new
            # trick right after the trick before's end: between the two only the play of a
            # card ran (and the new trick's opening, which numbers it), which changes the
            # hands, the trick, who is to move and the items, not the deal's other parts
            # (the trick's end is a step of its own)
            if follows[2] < 0 and deal.trick_number != last["trick_number"]:
                last["trick_number"] = changed["trick_number"] = deal.trick_number
            if deal.to_move is not last["to_move"]:
                last["to_move"] = changed["to_move"] = deal.to_move
            last["trick_list"] = live_trick.copy()
            last["trick"] = changed["trick"] = tuple(live_trick)
            self.following = (deal, live_trick, len(live_trick))
            seat = live_trick[-1][0]
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
        elif kind is TRICK_END and follows is not None and follows[0] is deal and \
                follows[1] is live_trick and follows[2] == len(live_trick):
            # the trick's end right after its last card's step: between the two only the
            # trick's end ran (after what a deal's record writes after its play, for a
            # trick opened by its record: penalties, results, a claim, a total, none of
            # them a part), which changes who is to move, the last trick's winner, the
            # tricks won and the pips, not the hands or the unseen counts
            self._trick_end(deal, changed)
            self.following = (deal, live_trick, -1)  # the trick ended (see above)
            items = deal.items_now()
            hands, counts, _, on_table, trump, _ = self.held[-1]
            held = (hands, counts, deal.to_move, on_table, trump, None)
        else:
            self._compare(deal, changed)
            self.following = (deal, live_trick, len(live_trick)) if kind is PLAY else \
                (deal, live_trick, -1) if kind is TRICK_END else None
            items = deal.items_now()
        self.offences = len(deal.offences)
        if items is not last["items"] and items != last["items"]:
            changed["items"] = items
        last["items"] = items
        self.held.append(self._held(deal, seat) if held is None else held)
        self.steps.append(_made((len(self.steps), kind, deal.number, trick, text, span,
                                 diagnostics, changed)))

    def _trick_end(self, deal: DealBase, changed: dict[str, Any]) -> None:
        """Of the parts :meth:`_compare` compares, those a trick's end changes."""
        last = self.last
        if deal.to_move is not last["to_move"]:
            last["to_move"] = changed["to_move"] = deal.to_move
        if deal.last_winner is not last["last_trick_winner"]:
            last["last_trick_winner"] = changed["last_trick_winner"] = deal.last_winner
        self._tallies(deal, changed)

    def _tallies(self, deal: DealBase, changed: dict[str, Any]) -> None:
        """The tricks won and the pips by side, where they changed.  A new deal's counts
        are new dicts of the same sides in the same order, so equal dicts are equal
        tuples of their items."""
        last = self.last
        if deal.won != last["won_dict"]:
            last["won_dict"] = deal.won.copy()
            changed["won"] = tuple(deal.won.items())
        if deal.pips != last["pips_dict"]:
            last["pips_dict"] = deal.pips.copy()
            changed["pips"] = tuple(deal.pips.items())

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
        self._tallies(deal, changed)
        if deal.points != last["points_list"]:
            last["points_list"] = deal.points.copy()
            changed["deal_points"] = tuple(deal.points)
        if game.scores != last["scores_dict"]:
            last["scores_dict"] = game.scores.copy()
            changed["scores"] = tuple((side, game.scores[side]) for side in game.sides)

    def _held(self, deal: DealBase, seat: Seat | None) -> _Held:
        """The table's known hands and unseen counts now, with who is to move, the trick
        and the trump (what :meth:`finish` works the shown hands and the legal cards out
        of), each the step before's own object where it is the same (so that
        :meth:`finish` compares most of them by identity).  ``seat``: the one seat whose
        hand and count a card's step could change (the card's), else None."""
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
            if seat is not None and seat in kept:  # a card played: its seat's hand first
                kept[seat] = live[seat].copy()
                fresh[self.place[seat]] = tuple(live[seat])
            if live != kept:
                for place, each in enumerate(seats):
                    if live[each] != kept[each]:
                        kept[each] = live[each].copy()
                        fresh[place] = tuple(live[each])
            hands = last["hands"] = tuple(fresh)
        fell: Seat | None = None
        before = last["unseen"]
        if unseen != before:
            # a card seen only in play: its seat's count one less, the others the same
            if seat is not None and seat in before and unseen[seat] == before[seat] - 1:
                before[seat] -= 1
                if unseen == before:
                    fell = seat
            last["unseen"] = unseen.copy()
            # the ledger's counts are keyed by the seats, in seat order
            last["counts"] = tuple(unseen.values())
        return hands, last["counts"], deal.to_move, last["trick"], deal.trump, fell

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

        One pass over the steps, each step's hands, unseen counts and legal cards
        written as changes where they differ from the step before's.  Within a deal the
        play showed cards of, a seat's shown hand is its known cards and those it has
        still to play of the cards seen only in play (in hand order), its unseen count
        the table's less those; a card played from them is taken out of the step
        before's shown hand, and a hand the table did not change is the step before's
        own (issue 38)."""
        seats, held, steps, options = self.seats, self.held, self.steps, self.options
        size, place_of = len(seats), self.place
        deals = iter(hindsight)
        coming = next(deals, None)  # the next deal to complete: its steps come in order
        start = coming[0] if coming is not None else -1
        end = -1
        # per seat, the cards seen only in play it has still to play (none: no list), and
        # how many, in seat order
        waiting: dict[Seat, list[Card]] = {}
        still = [0] * size
        known: _Hands | None = None  # the table's hands the shown hands were made of
        known_counts: _Counts | None = None
        shown_hands: _Hands | None = None
        shown_counts: _Counts | None = None
        shown_legal: frozenset[Card] | None = None
        # the legal cards last worked out, with the hand, trick and trump they are of
        legal_of: tuple[object, object, object] | None = None
        legal: frozenset[Card] = _NO_CARDS
        for index, step in enumerate(steps):
            hands, counts, mover, trick, trump, fell = held[index]
            changed = step.changed
            if index == start and coming is not None:  # a deal the play showed cards of
                waiting = {seat: list(cards) for seat, cards in coming[2].items() if cards}
                still = [len(waiting.get(seat, ())) for seat in seats]
                end = coming[1]
                coming = next(deals, None)
                start = coming[0] if coming is not None else -1
                known = None  # its shown hands made anew
            if not waiting:  # the table showed every card already
                whole, shown = hands, counts
            else:
                seat: Seat | None = None  # the seat a card seen only in play was taken from
                if step.kind is PLAY and trick:
                    seat, card = trick[-1]
                    cards = waiting.get(seat)
                    if cards is not None and card in cards:
                        cards.remove(card)
                        still[place_of[seat]] -= 1
                        if not cards:
                            del waiting[seat]
                    else:
                        seat = None
                if known is None or shown_hands is None or shown_counts is None:
                    whole = tuple([_with_waiting(hand, waiting.get(each))
                                   for each, hand in zip(seats, hands, strict=True)])
                    shown = tuple(map(sub, counts, still))
                elif seat is None:
                    whole = shown_hands if hands is known else \
                        self._completed(hands, known, shown_hands, waiting, None, None)
                    shown = shown_counts if counts is known_counts else \
                        tuple(map(sub, counts, still))
                else:
                    if hands is known:  # the card taken out of its seat's shown hand
                        place = place_of[seat]
                        left = list(shown_hands[place])
                        left.remove(card)
                        full = list(shown_hands)
                        full[place] = fewer = tuple(left)
                        whole = tuple(full)
                        changed["hands"] = {seat: fewer}
                        shown_hands = whole
                    else:
                        whole = self._completed(hands, known, shown_hands, waiting, seat, card)
                    # its count and the table's both one less: the same shown count
                    shown = shown_counts if fell is seat else tuple(map(sub, counts, still))
            known, known_counts = hands, counts
            if index == end:  # the deal's last step: the next deal's hands are its own
                waiting = {}
            if whole is not shown_hands:
                if shown_hands is None:
                    changed["hands"] = dict(zip(seats, whole, strict=True))
                elif whole != shown_hands:
                    changed["hands"] = {each: now for each, now, before
                                        in zip(seats, whole, shown_hands, strict=True)
                                        if now is not before and now != before}
                shown_hands = whole
            if shown is not shown_counts:
                if shown != shown_counts:
                    changed["unknown"] = tuple(zip(seats, shown, strict=True))
                shown_counts = shown
            # the legal cards of the seat to move, where every card it holds is shown
            now = _NO_CARDS
            at = place_of.get(mover) if mover is not None else None
            if at is not None:
                hand: tuple[Card, ...] | None
                if shown[at] == 0:
                    hand = whole[at]
                elif counts[at] == 0 and mover in waiting:
                    hand = hands[at]  # the table's own, as the table knows it
                else:
                    hand = None
                if hand is not None:
                    if legal_of is not None and legal_of[0] is hand and \
                            legal_of[1] is trick and legal_of[2] is trump:
                        now = legal
                    else:
                        # a finished trick stays on show until the next card, which leads
                        legal = legal_cards(hand, trick if len(trick) < size else (), trump,
                                            options)
                        legal_of = (hand, trick, trump)
                        now = legal
            if now is not shown_legal and now != shown_legal:
                changed["legal"] = now
            shown_legal = now
        return tuple(_offences_at_their_cards(steps, proved_later))

    def _completed(self, hands: _Hands, known: _Hands, shown: _Hands,
                   waiting: dict[Seat, list[Card]], seat: Seat | None,
                   card: Card | None) -> _Hands:
        """The shown hands where the table's known hands changed: a seat whose known
        cards changed made anew, ``seat``'s shown hand without ``card`` (a card seen only
        in play it played), the others the step before's."""
        full = list(shown)
        for place, each in enumerate(self.seats):
            if hands[place] is not known[place]:
                full[place] = _with_waiting(hands[place], waiting.get(each))
            elif each is seat and card is not None:
                left = list(full[place])
                left.remove(card)
                full[place] = tuple(left)
        return tuple(full)


def _with_waiting(known: tuple[Card, ...], waiting: list[Card] | None) -> tuple[Card, ...]:
    """A seat's shown hand: its known cards and those seen only in play it has still to
    play, in hand order."""
    return tuple(sorted([*known, *waiting], key=hand_order)) if waiting else known


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
