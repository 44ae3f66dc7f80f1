"""The rules of play that need no history: who wins a trick, which cards may be
played, and the arithmetic of the pack (docs/rules.md rules 14, 17, 19 and 20)."""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from ..cards import DEALT, FULL_PACK, RUN_BATCH, Card, Seat, Suit
from .profiles import DealPattern, FollowRule, Options, UndertrumpException

__all__ = ["CARD_PIPS", "DEALT", "HAND_ORDER", "RUN_BATCH", "bound_not_to_undertrump",
           "compares_trump_ranks", "hand_key", "hand_order", "legal_cards",
           "max_runs", "trick_winner", "turnup_position"]



def trick_winner(plays: Sequence[tuple[Seat, Card]], trump: Suit | None) -> Seat:
    """Rule 19: the highest trump, else the highest card of the suit led."""
    best_seat, best = plays[0]
    first = True
    for seat, played in plays:  # _beats, inlined: this runs for every trick
        if first:
            first = False
        elif played.suit is best.suit:
            if played.rank > best.rank:
                best_seat, best = seat, played
        elif trump is not None and played.suit is trump:
            best_seat, best = seat, played
    return best_seat


def _beats(challenger: Card, best: Card, led: Suit, trump: Suit | None) -> bool:
    if challenger.suit is best.suit:
        return challenger.rank > best.rank
    return trump is not None and challenger.suit is trump


# read as globals (an enum's member read through the enum costs ten times a global on
# CPython 3.11): the legal cards are asked at nearly every step of a replay page
_MUST_FOLLOW, _NO_UNDERTRUMP = FollowRule.MUST_FOLLOW, FollowRule.NO_UNDERTRUMP


def legal_cards(
    hand: Iterable[Card],
    trick: Sequence[tuple[Seat, Card]],
    trump: Suit | None,
    options: Options,
) -> frozenset[Card]:
    """Rules 17 and 20 as the options read them: what a player holding ``hand`` may
    play to ``trick``."""
    held = frozenset(hand)
    if not trick or not held:
        return held
    led = trick[0][1].suit
    rule = options.follow_rule
    # one pass over the hand (a replay page asks at nearly every step): the cards of the
    # suit led, and those with the trumps
    of_led: list[Card] = []
    following: list[Card] = []
    for c in held:
        suit = c.suit
        if suit is led:
            of_led.append(c)
            following.append(c)
        elif suit is trump:
            following.append(c)
    if rule is _MUST_FOLLOW:
        return frozenset(of_led) if of_led else held
    allowed = frozenset(following) if of_led else held
    if rule is _NO_UNDERTRUMP and trump is not None and led is not trump:
        top = None
        for _, c in trick:
            if c.suit is trump and (top is None or c.rank > top):
                top = c.rank
        if top is not None and bound_not_to_undertrump(held, led, trump, options):
            allowed = frozenset(c for c in allowed if c.suit is not trump or c.rank > top)
    return allowed


def compares_trump_ranks(options: Options) -> bool:
    """Whether :func:`legal_cards` may compare a held trump's rank with the highest trump
    on the table (rule 20 against under-trumping); otherwise it reads suits alone.  The
    compiled search's partition entries keep that trump's rank where it does."""
    return options.follow_rule is _NO_UNDERTRUMP


def bound_not_to_undertrump(held: Iterable[Card], led: Suit, trump: Suit,
                            options: Options) -> bool:
    """Rule 20's exception: a player holding ``held`` may not undertrump unless down to
    trumps (``only_trumps``) or, in the narrower reading, void in the suit led."""
    if options.undertrump_exception is UndertrumpException.VOID_IN_LED_SUIT:
        return any(c.suit is led for c in held)
    return any(c.suit is not trump for c in held)


def max_runs(players: int) -> int:
    """Rule 14: runs the pack allows (3 per player + 1 turn-up each)."""
    return (52 - (DEALT * players + 1)) // (RUN_BATCH * players + 1)


def packet_size(options: Options) -> int:
    """How many cards the dealer gives each player at a time (``deal_pattern``): three
    (six as 3 + 3, a run's three at once) or one."""
    return RUN_BATCH if options.deal_pattern is DealPattern.THREE_THREE else 1


def turnup_position(players: int, run: int = 0) -> int:
    """Rule 14: the place in the pack of the card turned after ``run`` runs (1-based)."""
    return DEALT * players + 1 + run * (RUN_BATCH * players + 1)


def hand_key(c: Card) -> tuple[int, int]:
    """Order of cards in a hand as shown: by suit (S H C D), high cards first."""
    return (_SUIT_ORDER[c.suit], -int(c.rank))


_SUIT_ORDER = {Suit.SPADES: 0, Suit.HEARTS: 1, Suit.CLUBS: 2, Suit.DIAMONDS: 3}

# :func:`hand_key` as one number per card, for ``sorted(..., key=hand_order)``: a
# dictionary lookup in C instead of a Python call per card (the referee sorts every
# hand it is shown, and every hand again for the deal's result).
HAND_ORDER: dict[Card, int] = {c: _SUIT_ORDER[c.suit] * 16 + 15 - int(c.rank)
                               for c in FULL_PACK}
hand_order = HAND_ORDER.__getitem__

# Each card's pips toward Game (``Card.pips``), looked up without a call.
CARD_PIPS: dict[Card, int] = {c: c.pips for c in FULL_PACK}
