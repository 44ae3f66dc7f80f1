"""What one player knows at a card decision, and the deals ("worlds") consistent with it.

At the table a player sees their own hand, the turn-ups, the calls and every card played;
the other hands are hidden.  The play proves a little about them: a card a seat played
was legal for the hand it held then.  That proof is asked of the referee
(:func:`~allfours_notation.referee.play.legal_cards` under the game's options), never
written here as a rule: in All Fours a trump on a plain lead proves nothing, a discard
on a plain lead proves a void in the suit led and in trumps only under ``must_follow``,
and an undertrump under ``no_undertrump`` proves a hand of trumps only — all of that
falls out of the one question "was this card legal for a hand holding that card too?".
A card that broke the rules in the record (a revoke, a forbidden undertrump: the referee
finds them) proves nothing.

:class:`Information` holds what the player knows; :class:`WorldSampler` draws worlds
uniformly from those consistent with it:

1. each unseen card is excluded from each hidden seat whose plays it would have made
   illegal (the one-card test above; it is a necessary condition because the referee's
   follow rules are monotone — a card illegal for a hand stays illegal for a larger one,
   which ``tests/analysis/test_information.py`` holds the referee to);
2. the unseen cards are dealt to the hidden hands and to the cards out of play (the
   stock, undealt cards, unseen discards) uniformly among the deals that respect those
   exclusions and the hands' sizes, by exact counting (cards with the same allowed
   holders form a class; the number of completions of each class's split is counted, so
   every respecting deal is equally likely);
3. each world is then checked whole against the referee (every card of the play legal
   for the hand the world gives its seat then) and drawn again if it fails, so a world
   returned is always consistent, whatever the rules.
"""

from __future__ import annotations

import bisect
import random
from collections.abc import Iterator, Sequence
from math import factorial

from ...cards import Card, Rank, Seat, Suit
from ...frozen import frozen
from ...referee.play import legal_cards
from .solver import Layout

__all__ = ["Information", "World", "WorldSampler", "consistent", "information_at", "world_layout"]

PACK = tuple(Card(suit, rank) for suit in Suit for rank in Rank)

# A world's hidden hands: per hidden seat (in :attr:`Information.hidden` order) the cards
# it holds at the decision.
World = tuple[frozenset[Card], ...]


@frozen
class Information:
    """What ``seat`` knows before its card number ``index`` of the deal (0-based, in the
    order of play): the information set the single-dummy verdicts sample from."""

    layout: Layout  # the deal as played (its hidden hands are not read for sampling)
    seat: Seat
    prefix: tuple[tuple[Seat, Card], ...]  # the cards played before the decision
    own: tuple[Card, ...]  # the seat's hand at the start of play
    seen: frozenset[Card]  # cards no hidden hand can hold: own, played, turn-ups, discards
    hidden: tuple[tuple[Seat, int], ...]  # each other seat and how many cards it holds now
    unseen: tuple[Card, ...]  # the cards that may be in a hidden hand or out of play
    # per hidden seat (in ``hidden`` order): the unseen cards its plays prove it lacks
    excluded: tuple[frozenset[Card], ...]
    # the places in ``prefix`` of cards that broke the rules (a revoke, a forbidden
    # undertrump): they prove nothing about the hand that played them
    broken: frozenset[int] = frozenset()

    @property
    def out_of_play(self) -> int:
        """How many unseen cards are in no hand (the stock, undealt, unseen discards)."""
        return len(self.unseen) - sum(count for _, count in self.hidden)

    def actual_world(self) -> World:
        """The hidden hands as they really were (for tests: it must be consistent)."""
        played = {c for _, c in self.prefix}
        held = dict(self.layout.hands)
        return tuple(frozenset(c for c in held[seat] if c not in played)
                     for seat, _ in self.hidden)


def information_at(layout: Layout, line: Sequence[tuple[Seat, Card]], index: int,
                   turnups: Sequence[Card] = (), also_seen: Sequence[Card] = ()) -> Information:
    """The information set of the seat that plays card ``index`` of ``line``.

    ``turnups``: every card turned up in the deal; ``also_seen``: cards every player saw
    put out of play (discards named aloud)."""
    seat = line[index][0]
    prefix = tuple(line[:index])
    held = dict(layout.hands)
    own = tuple(held[seat])
    played = frozenset(c for _, c in prefix)
    seen = frozenset(own) | played | frozenset(turnups) | frozenset(also_seen)
    unseen = tuple(c for c in PACK if c not in seen)
    hidden = tuple((other, len(held[other]) - sum(1 for s, _ in prefix if s == other))
                   for other in layout.seats if other != seat)
    broken = _broken(layout, prefix)
    excluded = tuple(_proven_absent(layout, prefix, other, unseen, broken)
                     for other, _ in hidden)
    return Information(layout, seat, prefix, own, seen, hidden, unseen, excluded, broken)


def _broken(layout: Layout, prefix: Sequence[tuple[Seat, Card]]) -> frozenset[int]:
    """The cards of ``prefix`` the referee would not have allowed from the hand that
    played them (the record's revokes and forbidden undertrumps)."""
    size = len(layout.seats)
    hands = {seat: set(cards) for seat, cards in layout.hands}
    out = set()
    for i, (seat, c) in enumerate(prefix):
        trick = prefix[i - i % size:i]
        if c not in legal_cards(hands[seat], trick, layout.trump, layout.options):
            out.add(i)
        hands[seat].discard(c)
    return frozenset(out)


def _constraints(layout: Layout, prefix: Sequence[tuple[Seat, Card]], seat: Seat,
                 broken: frozenset[int]) -> Iterator[tuple[Card, tuple[tuple[Seat, Card], ...],
                                                           frozenset[Card]]]:
    """Each card ``seat`` played to a trick already led, but those that broke the rules:
    the card, the trick before it, and the cards the seat is known to have held then
    (that card and those it played later)."""
    size = len(layout.seats)
    for i, (who, c) in enumerate(prefix):
        if who != seat or i in broken:
            continue
        start = i - i % size
        if start == i:
            continue  # a lead: every card held may lead
        later = frozenset(x for s, x in prefix[i:] if s == seat)
        yield c, tuple(prefix[start:i]), later


def _proven_absent(layout: Layout, prefix: Sequence[tuple[Seat, Card]], seat: Seat,
                   unseen: Sequence[Card], broken: frozenset[int]) -> frozenset[Card]:
    """The unseen cards ``seat`` cannot hold now: holding one of them when it played a
    card of ``prefix`` would have made that card illegal (asked of the referee)."""
    out: set[Card] = set()
    for c, trick, known in _constraints(layout, prefix, seat, broken):
        for x in unseen:
            if x not in out and c not in legal_cards(known | {x}, trick, layout.trump,
                                                     layout.options):
                out.add(x)
    return frozenset(out)


def consistent(information: Information, world: World) -> bool:
    """Whether every card the hidden seats played was legal for the hand ``world`` gives
    them at that moment (the referee's ``legal_cards``; a card that broke the rules in
    the record is not asked about), and the hands have their sizes."""
    layout = information.layout
    prefix = information.prefix
    for (seat, count), hand in zip(information.hidden, world, strict=True):
        if len(hand) != count or hand & information.seen:
            return False
        for c, trick, known in _constraints(layout, prefix, seat, information.broken):
            if c not in legal_cards(hand | known, trick, layout.trump, layout.options):
                return False
    return True


def world_layout(information: Information, world: World) -> Layout:
    """The deal a world stands for: every hand at the start of play (the hidden seats'
    hands at the decision and the cards they played before it)."""
    layout = information.layout
    hands = dict(layout.hands)
    for (seat, _), hand in zip(information.hidden, world, strict=True):
        played = [c for s, c in information.prefix if s == seat]
        hands[seat] = (*played, *sorted(hand, key=lambda c: (c.suit.value, c.rank)))
    return Layout(layout.options, layout.seats, layout.dealer, layout.elder, layout.trump,
                  layout.turnup_jack, tuple((seat, tuple(hands[seat])) for seat in layout.seats))


class WorldSampler:
    """Worlds drawn uniformly from those consistent with ``information``.

    The holders are the hidden seats and, last, the cards out of play.  The unseen cards
    with the same allowed holders form a class; :meth:`_ways` counts the ways to place
    the classes from ``k`` on into the room left, and a class's split among its holders is
    drawn with probability proportional to its count of completions, so every deal that
    respects the exclusions and the sizes is equally likely.  A drawn deal the referee
    rejects as a whole (which monotone rules never give) is drawn again."""

    def __init__(self, information: Information) -> None:
        self.information = information
        holders = len(information.hidden) + 1
        out = holders - 1
        groups: dict[tuple[int, ...], list[Card]] = {}
        for c in information.unseen:
            allowed = (*(h for h in range(out) if c not in information.excluded[h]), out)
            groups.setdefault(allowed, []).append(c)
        # the largest class last: its split is then what room is left, found at once
        self.classes = sorted(groups.items(), key=lambda item: (len(item[1]), item[0]))
        self.room = (*(count for _, count in information.hidden), information.out_of_play)
        self._counted: dict[tuple[int, tuple[int, ...]], int] = {}
        self._splits: dict[tuple[int, tuple[int, ...]],
                           tuple[list[int], list[tuple[int, ...]]]] = {}
        self.draws = 0  # deals drawn, the rejected ones included
        self.rejected = 0

    def worlds_possible(self) -> int:
        """How many deals respect the exclusions and the sizes (0: none, an inconsistent
        record)."""
        return self._ways(0, self.room)

    def _ways(self, k: int, room: tuple[int, ...]) -> int:
        if k == len(self.classes):
            return 1 if not any(room) else 0
        key = (k, room)
        found = self._counted.get(key)
        if found is None:
            found = sum(weight for weight, _ in self._choices(k, room))
            self._counted[key] = found
        return found

    def _choices(self, k: int, room: tuple[int, ...]) -> Iterator[tuple[int, tuple[int, ...]]]:
        """Each split of class ``k`` among its holders that fits ``room``, with the
        number of deals it leads to."""
        allowed, members = self.classes[k]
        size = len(members)
        for split in _compositions(size, [room[h] for h in allowed]):
            rest = list(room)
            for h, n in zip(allowed, split, strict=True):
                rest[h] -= n
            after = self._ways(k + 1, tuple(rest))
            if after:
                ways = factorial(size)
                for n in split:
                    ways //= factorial(n)
                yield ways * after, split

    def _split(self, k: int, room: tuple[int, ...], rng: random.Random) -> tuple[int, ...]:
        key = (k, room)
        table = self._splits.get(key)
        if table is None:
            cumulative: list[int] = []
            splits: list[tuple[int, ...]] = []
            total = 0
            for weight, split in self._choices(k, room):
                total += weight
                cumulative.append(total)
                splits.append(split)
            table = self._splits[key] = (cumulative, splits)
        cumulative, splits = table
        return splits[bisect.bisect_right(cumulative, rng.randrange(cumulative[-1]))]

    def _draw(self, rng: random.Random) -> World:
        hands: list[set[Card]] = [set() for _ in self.room]
        room = self.room
        for k, (allowed, members) in enumerate(self.classes):
            split = self._split(k, room, rng)
            cards = list(members)
            rng.shuffle(cards)
            rest = list(room)
            start = 0
            for h, n in zip(allowed, split, strict=True):
                hands[h].update(cards[start:start + n])
                start += n
                rest[h] -= n
            room = tuple(rest)
        return tuple(frozenset(hand) for hand in hands[:-1])

    def sample(self, rng: random.Random) -> World:
        """One world, uniformly among the consistent ones.  Raises ``ValueError`` when
        there is none (the record contradicts itself)."""
        if not self.worlds_possible():
            raise ValueError("no deal of the unseen cards is consistent with the play")
        while True:
            self.draws += 1
            world = self._draw(rng)
            if consistent(self.information, world):
                return world
            self.rejected += 1


def _compositions(total: int, limits: Sequence[int]) -> Iterator[tuple[int, ...]]:
    """Every way to write ``total`` as a sum of ``len(limits)`` parts, part ``i`` at
    most ``limits[i]``."""
    if len(limits) == 1:
        if total <= limits[0]:
            yield (total,)
        return
    room_after = sum(limits[1:])
    for first in range(max(0, total - room_after), min(total, limits[0]) + 1):
        for rest in _compositions(total - first, limits[1:]):
            yield (first, *rest)
