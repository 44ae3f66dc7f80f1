"""Who holds which card in one deal: the holdings ledger.

Why one ledger: where a card is known to be was once kept in sixteen structures side by
side on the deal's state (the hands, the unseen counts, the cards written for each seat
and where each came from, who was dealt a card, who is known to hold it, the cards only
the play showed, the turn-ups, the discards twice over, the hands the discards left
unknown, the pack twice over, the cards played, the cards out of every hand, the cards
spent as evidence, the hands at the first lead), and each phase kept several of them in
step by hand.  Here they live together, with the few moves that change them (a hand
written, a run dealt, a discard, a card shown by the play, a hand forgotten) and the
questions the phases ask (what a seat holds now, how many of its cards nobody saw,
whether a card was seen and where, the proof card of a revoke, the hands as dealt), so
that a rule in :mod:`.opening`, :mod:`.tricks` or :mod:`.closing` reads as a question
and the bookkeeping is written once.

Nothing here judges a rule: the ledger says where cards are; the phases say what is
wrong with that.  The play's inner loop (:meth:`.tricks.Tricks.place`) reads the
ledger's containers directly, bound once per trick: a card played is the referee's
most frequent event.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from enum import Enum

from ...cards import Card, Seat, Suit
from ..play import DEALT, RUN_BATCH, hand_order


class Origin(Enum):
    """How a seat came by a card the record shows it with."""

    AS_DEALT = "as dealt"
    IN_A_RUN = "in a run"  # written for a run whose cards are not yet in the hand
    IN_THE_RUN = "in the run"  # in the hand, with its run's three cards
    PLAYED = "played"  # shown only when the seat played it


_PLAYED = Origin.PLAYED  # read as a global: once for every card the play shows


class Holdings:
    """Where every card of one deal is known to be, and what each seat holds.

    Per seat: ``hands`` (the known cards held now, in hand order), ``unseen`` (how many
    of its cards nobody saw yet), ``written`` (the cards the record gave it, in the
    order written, a card written twice kept twice) with ``origin`` (how it came by
    each, the play's shown cards too) and ``inferred`` (cards only the play showed).
    Per card: ``dealt_to`` (the first seat written with it), ``holders`` (who is known
    to hold or have held it; cards put out leave it), ``discarded`` (who put it out),
    ``played`` (every card played; true when it is spent as evidence of a holding,
    false for a turn-up played, which proves nothing) and ``out`` (played, turned up or
    discarded: one test per card instead of three).  And ``turnups``, each seat's
    ``discards`` as written (``None`` for a card nobody saw), the seats whose kept six
    are unknown (``forgotten``), the ``pack`` top first with where it sends each card
    (``pack_place``), and the hands when the play began (``held_at_start``).
    """

    __slots__ = ("dealt_to", "discarded", "discards", "extremes", "forgotten", "hands",
                 "held_at_start", "holders", "inferred", "origin", "out", "pack", "pack_place",
                 "played", "turnups", "unseen", "written")

    def __init__(self, seats: Sequence[Seat]) -> None:
        # one loop rather than four comprehensions: a ledger per deal
        self.hands: dict[Seat, list[Card]] = {}
        self.written: dict[Seat, list[Card]] = {}
        self.origin: dict[Seat, dict[Card, Origin]] = {}
        self.inferred: dict[Seat, list[Card]] = {}
        for seat in seats:
            self.hands[seat] = []
            self.written[seat] = []
            self.origin[seat] = {}
            self.inferred[seat] = []
        self.unseen: dict[Seat, int] = dict.fromkeys(seats, DEALT)
        self.dealt_to: dict[Card, Seat] = {}
        self.holders: dict[Card, Seat] = {}
        # the highest and the lowest trump of ``holders`` for the trump they were worked
        # out for (see :meth:`trump_extremes`); None once ``holders`` lost a card
        self.extremes: tuple[Suit | None, Card | None, Card | None] | None = None
        self.turnups: list[Card] = []
        self.discards: dict[Seat, list[Card | None]] = {}
        self.discarded: dict[Card, Seat] = {}
        self.forgotten: set[Seat] = set()
        self.pack: list[Card | None] | None = None
        self.pack_place: dict[Card, tuple[Seat | None, int]] = {}  # (seat or None, run)
        self.played: dict[Card, bool] = {}
        self.out: set[Card] = set()
        self.held_at_start: tuple[tuple[Seat, tuple[Card, ...]], ...] = ()

    def copy(self) -> Holdings:
        """An independent copy (for a table's snapshot): every container its own, the
        cards (immutable) shared; a few dozen small containers, no deep copy."""
        copy = Holdings.__new__(Holdings)
        copy.hands = {seat: cards.copy() for seat, cards in self.hands.items()}
        copy.written = {seat: cards.copy() for seat, cards in self.written.items()}
        copy.origin = {seat: where.copy() for seat, where in self.origin.items()}
        copy.inferred = {seat: cards.copy() for seat, cards in self.inferred.items()}
        copy.unseen = self.unseen.copy()
        copy.dealt_to = self.dealt_to.copy()
        copy.holders = self.holders.copy()
        copy.extremes = self.extremes
        copy.turnups = self.turnups.copy()
        copy.discards = {seat: cards.copy() for seat, cards in self.discards.items()}
        copy.discarded = self.discarded.copy()
        copy.forgotten = self.forgotten.copy()
        copy.pack = None if self.pack is None else self.pack.copy()
        copy.pack_place = self.pack_place.copy()
        copy.played = self.played.copy()
        copy.out = self.out.copy()
        copy.held_at_start = self.held_at_start
        return copy

    # -- the moves --

    def write(self, seat: Seat, cards: Iterable[Card | None], *, in_run: bool) -> bool:
        """Cards the record shows ``seat`` received: as dealt (they join the hand now), or
        in a run (kept until the run's cards join the hand, :meth:`join_run`).  A card
        already written for the seat is not written again; False for a seat not at the
        table."""
        where = self.origin.get(seat)
        if where is None:
            return False
        fresh = [c for c in cards if c is not None and c not in where]
        written = self.written[seat]
        written.extend(fresh)
        origin = Origin.IN_A_RUN if in_run else Origin.AS_DEALT
        owners, holders = self.dealt_to, self.holders
        for c in fresh:
            where[c] = origin
            if c not in owners:
                owners[c] = seat
            if c not in holders:
                holders[c] = seat
                self.seen(c)
        if not in_run:
            self.hands[seat] = sorted([*self.hands[seat], *fresh], key=hand_order)
            self.unseen[seat] = max(0, DEALT - len(written))
        return True

    def join_run(self, seat: Seat, room: int) -> int:
        """Up to ``room`` of the run cards written for ``seat`` join its hand; how many."""
        where = self.origin[seat]
        batch = [c for c in self.written[seat] if where[c] is Origin.IN_A_RUN][:max(0, room)]
        holders = self.holders
        for c in batch:
            where[c] = Origin.IN_THE_RUN
            if c not in holders:
                holders[c] = seat
                self.seen(c)
        self.hands[seat] = sorted([*self.hands[seat], *batch], key=hand_order)
        return len(batch)

    def take_written_run(self, seat: Seat, runs: int) -> None:
        """The run cards written for ``seat`` after its run's turn-up join its hand (as
        many as the ``runs`` so far leave room for), each in place of an unseen card
        while it has one."""
        where = self.origin[seat]
        taken = sum(1 for c in self.written[seat] if where[c] is Origin.IN_THE_RUN)
        joined = self.join_run(seat, RUN_BATCH * runs - taken)
        self.unseen[seat] -= min(joined, self.unseen[seat])

    def deal_run(self) -> None:
        """A run deals three cards to each seat: those written join the hand, the rest
        are unseen."""
        for seat in self.origin:
            self.unseen[seat] += RUN_BATCH - self.join_run(seat, RUN_BATCH)

    def turn_up(self, card: Card) -> None:
        self.turnups.append(card)
        self.out.add(card)

    def note_discard(self, seat: Seat, card: Card | None) -> None:
        """One card of ``seat``'s discards as written (``None``: nobody saw it)."""
        self.discards.setdefault(seat, []).append(card)

    def discard(self, seat: Seat, card: Card, hand_size: int) -> str:
        """``seat`` puts ``card`` out of its hand of ``hand_size``: "" when it may, else
        why not (the card stays where it was)."""
        owner = self.dealt_to.get(card)
        hand = self.hands[seat]
        if card in self.turnups:
            return f"{card} is the turn-up, in nobody's hand"
        if card in self.discarded:
            return f"{card} is already discarded by {self.discarded[card].letter}"
        if card in hand:
            hand.remove(card)
        elif owner is not None and owner is not seat:
            return f"{card} was dealt to {owner.letter}"
        elif self.unseen[seat] > 0:
            self.unseen[seat] -= 1  # one of the cards nobody saw
        else:
            return f"{seat.letter} does not hold it: its hand of {hand_size} is already " \
                "accounted for"
        self.discarded[card] = seat
        self.out.add(card)
        if self.holders.pop(card, None) is not None:
            self.extremes = None
        return ""

    def forget(self, seat: Seat) -> None:
        """Which six ``seat`` kept is not known: six unseen cards, shown by the play."""
        self.forgotten.add(seat)
        self.hands[seat] = []
        self.unseen[seat] = DEALT
        holders = self.holders
        for c in [c for c, s in holders.items() if s is seat]:
            del holders[c]  # in place: the play's loop holds this dict
        self.extremes = None

    def shown(self, seat: Seat, card: Card) -> None:
        """``seat`` played ``card``, one of its unseen cards: now known, and evidence of
        what it held from the start (the caller counts the unseen card)."""
        self.inferred[seat].append(card)
        self.origin[seat].setdefault(card, _PLAYED)
        holders = self.holders
        if card not in holders:
            holders[card] = seat
            if self.extremes is not None:  # kept only where the items are asked
                self.seen(card)

    def seen(self, card: Card) -> None:
        """``card`` joined ``holders``: the trump extremes kept for it, if it is a trump
        beyond them."""
        kept = self.extremes
        if kept is None or card.suit is not kept[0]:
            return
        trump, high, low = kept
        if high is None or card.rank > high.rank:
            high = card
        if low is None or card.rank < low.rank:
            low = card
        self.extremes = (trump, high, low)

    def start_play(self) -> None:
        """The play begins: the hands as they stand are the hands as dealt for the play."""
        self.held_at_start = self.hands_now()

    # -- the questions --

    def trump_extremes(self, trump: Suit | None) -> tuple[Card | None, Card | None]:
        """The highest and the lowest trump of ``holders`` (None, None: none), kept up to
        date as cards join it rather than looked for among them all: a replay page asks
        at every step (issue 38)."""
        kept = self.extremes
        if kept is not None and kept[0] is trump:
            return kept[1], kept[2]
        high: Card | None = None
        low: Card | None = None
        for c in self.holders:
            if c.suit is trump:
                if high is None or c.rank > high.rank:
                    high = c
                if low is None or c.rank < low.rank:
                    low = c
        self.extremes = (trump, high, low)
        return high, low

    def hands_now(self) -> tuple[tuple[Seat, tuple[Card, ...]], ...]:
        """Each seat's known cards as they stand, in seat order."""
        held = []
        for seat, cards in self.hands.items():
            held.append((seat, tuple(cards)))
        return tuple(held)

    def fully_known(self, seat: Seat) -> bool:
        """Whether every card ``seat`` holds is known (False for a seat not at the table)."""
        return self.unseen.get(seat, 1) == 0

    def holds_suit(self, seat: Seat, suit: Suit) -> bool:
        """Whether ``seat`` is known to hold a card of ``suit`` now."""
        return any(c.suit is suit for c in self.hands.get(seat, ()))

    def unseen_total(self) -> int:
        return sum(self.unseen.values())

    def all_known(self) -> bool:
        return not any(self.unseen.values())

    def accounted(self) -> set[Card]:
        """The cards in nobody's hand that are not played: turned up or discarded."""
        return {*self.turnups, *self.discarded}

    def was_seen_with(self, seat: Seat, suit: Suit) -> bool:
        """Whether ``seat`` was seen to hold a card of ``suit``: held, shown or discarded."""
        return any(c.suit is suit and s is seat
                   for c, s in (*self.holders.items(), *self.discarded.items()))

    def put_out_by(self, seat: Seat) -> list[Card]:
        return [c for c, s in self.discarded.items() if s is seat]

    def discards_known(self, seat: Seat, count: int) -> bool:
        """Whether ``seat`` put out ``count`` cards, every one of them written."""
        put = self.discards.get(seat, ())
        return len(put) == count and None not in put

    def dealt_owner(self, card: Card, seat: Seat) -> Seat | None:
        """Who ``card`` was dealt to, as the record shows, for a message that ``seat``
        played it: for a forgotten hand, or a card nobody was dealt, the first seat
        written with it (a card only shown by the play does not count)."""
        owner = self.dealt_to.get(card)
        if seat in self.forgotten or owner is None:
            owner = next((s for s, where in self.origin.items()
                          if card in where and where[card] is not _PLAYED), None)
        return owner

    def proof_source(self, seat: Seat, card: Card) -> str:
        """Where the proof of a revoke came from, as a message says it."""
        return "hand as dealt" if self.origin[seat].get(card) is Origin.AS_DEALT \
            else "received in the run"

    def revealed(self) -> bool:
        """Whether the play showed any card nobody had seen."""
        return any(self.inferred.values())

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

    def whole_hand(self, seat: Seat) -> list[Card]:
        """Every card ``seat`` is known to have held in the play: at the first lead,
        shown since, and put out (in hand order)."""
        held = dict(self.held_at_start)
        return sorted([*held.get(seat, ()), *self.inferred.get(seat, ()),
                       *self.put_out_by(seat)], key=hand_order)
