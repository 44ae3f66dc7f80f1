"""The reference the solver is held to: exhaustive minimax over every legal play.

Nothing of the solver is used: every line of play is walked with the referee's
``legal_cards`` and ``trick_winner``, and each complete line is scored by the
referee's whole scorer (``play_points`` on the line's tricks: High, Low, Jack or
Hang Jack, Game)."""

from __future__ import annotations

import random
from collections.abc import Iterator

from allfours_notation.cards import Card, Rank, Seat
from allfours_notation.checking.analysis import Layout
from allfours_notation.reading.table import next_seats, side_of, sides
from allfours_notation.referee.play import legal_cards, trick_winner
from allfours_notation.referee.profiles import Options
from allfours_notation.referee.scoring import deal_facts, play_points

__all__ = ["brute_value", "memo_brute_value", "small_layouts", "weights_for"]


def weights_for(layout: Layout, perspective: str | None) -> dict[str, int]:
    table_sides = sides(layout.seats)
    if perspective is None:
        return {table_sides[0]: 1, table_sides[1]: -1}
    return {side: int(side == perspective) for side in table_sides}


def _score(layout: Layout, tricks: list[tuple[int, Seat, tuple[tuple[Seat, Card], ...]]],
           weights: dict[str, int]) -> int:
    facts = deal_facts(layout.seats, layout.dealer, layout.elder, layout.trump,
                       layout.turnup_jack, layout.holders, tuple(tricks), (), None)
    return sum(weights[p.side] * p.points for p in play_points(facts, layout.options, {}))


def brute_value(layout: Layout, perspective: str | None,
                played: tuple[tuple[Seat, Card], ...] = ()) -> int:
    """The minimax value of every item of the deal (High and Low too) from the position
    after ``played``: the first side's points minus the second's, or ``perspective``'s
    points with everyone else against it."""
    weights = weights_for(layout, perspective)
    after = next_seats(layout.seats, clockwise=layout.options.clockwise)
    hands = {seat: set(held) for seat, held in layout.hands}
    tricks: list[tuple[int, Seat, tuple[tuple[Seat, Card], ...]]] = []
    trick: list[tuple[Seat, Card]] = []
    leader = layout.elder
    n = len(layout.seats)
    for seat, c in played:
        hands[seat].remove(c)
        trick.append((seat, c))
        if len(trick) == n:
            leader = trick_winner(trick, layout.trump)
            tricks.append((len(tricks) + 1, leader, tuple(trick)))
            trick = []
    maximiser = {seat: weights[side_of(seat, layout.seats)] > 0 for seat in layout.seats}

    def walk(seat: Seat) -> int:
        if not any(hands.values()) and not trick:
            return _score(layout, tricks, weights)
        values = []
        for c in sorted(legal_cards(hands[seat], trick, layout.trump, layout.options),
                        key=lambda c: (c.suit.value, c.rank)):
            hands[seat].remove(c)
            trick.append((seat, c))
            if len(trick) == n:
                winner = trick_winner(trick, layout.trump)
                tricks.append((len(tricks) + 1, winner, tuple(trick)))
                saved = list(trick)
                trick.clear()
                values.append(walk(winner))
                trick.extend(saved)
                tricks.pop()
            else:
                values.append(walk(after[seat]))
            trick.pop()
            hands[seat].add(c)
        return max(values) if maximiser[seat] else min(values)

    start = leader if not trick else after[trick[-1][0]]
    return walk(start)


def small_layouts(rng: random.Random, options: Options, seats: tuple[Seat, ...],
                  per_hand: int, count: int) -> Iterator[Layout]:
    """``count`` random layouts of ``per_hand`` cards a hand (trumps made likely)."""
    from allfours_notation.cards import FULL_PACK

    pack = list(FULL_PACK)
    for _ in range(count):
        rng.shuffle(pack)
        trump = pack[-1].suit
        # A few cards of one or two suits, so that following, trumping and the Jack matter
        suits = {trump, rng.choice(pack).suit}
        pool = [c for c in pack if c.suit in suits or rng.random() < 0.15]
        if rng.random() < 0.5 and Card(trump, Rank.JACK) in pool:
            pool.remove(Card(trump, Rank.JACK))
            pool.insert(0, Card(trump, Rank.JACK))
        needed = per_hand * len(seats)
        if len(pool) < needed:
            pool = pack[:]
        cards = pool[:needed]
        rng.shuffle(cards)
        dealer = rng.choice(seats)
        elder = next_seats(seats, clockwise=options.clockwise)[dealer]
        hands = tuple((seat, tuple(cards[k * per_hand:(k + 1) * per_hand]))
                      for k, seat in enumerate(seats))
        turnup_jack = Card(trump, Rank.JACK) not in cards and rng.random() < 0.1
        yield Layout(options, seats, dealer, elder, trump, turnup_jack, hands)


def memo_brute_value(layout: Layout, perspective: str | None) -> int:
    """:func:`brute_value` from the start of play, with identical states walked once: a
    state is the cards each seat still holds, the trick on the table, and which side has
    won which card (all the scorer reads).  Every legal play is still tried; no bound, no
    window, no equivalence.  At the end of a line the scorer is given one trick per won
    card (a seat of the winning side takes it), which it scores as it scores the line."""
    weights = weights_for(layout, perspective)
    after = next_seats(layout.seats, clockwise=layout.options.clockwise)
    seat_of_side: dict[str, Seat] = {}
    for seat in layout.seats:
        seat_of_side.setdefault(side_of(seat, layout.seats), seat)
    maximiser = {seat: weights[side_of(seat, layout.seats)] > 0 for seat in layout.seats}
    n = len(layout.seats)
    memo: dict[object, int] = {}

    def walk(hands: tuple[frozenset[Card], ...], trick: tuple[tuple[Seat, Card], ...],
             seat: Seat, won: frozenset[tuple[str, Card]]) -> int:
        key = (hands, trick, seat, won)
        found = memo.get(key)
        if found is not None:
            return found
        if not any(hands) and not trick:
            ordered = sorted(won, key=lambda w: (w[0], w[1].suit.value, w[1].rank))
            tricks: list[tuple[int, Seat, tuple[tuple[Seat, Card], ...]]] = [
                (k + 1, seat_of_side[side], ((seat_of_side[side], c),))
                for k, (side, c) in enumerate(ordered)]
            found = _score(layout, tricks, weights)
            memo[key] = found
            return found
        index = layout.seats.index(seat)
        values = []
        for c in legal_cards(hands[index], trick, layout.trump, layout.options):
            rest = tuple(h - {c} if k == index else h for k, h in enumerate(hands))
            played = (*trick, (seat, c))
            if len(played) == n:
                winner = trick_winner(played, layout.trump)
                side = side_of(winner, layout.seats)
                values.append(walk(rest, (), winner, won | {(side, x) for _, x in played}))
            else:
                values.append(walk(rest, played, after[seat], won))
        found = max(values) if maximiser[seat] else min(values)
        memo[key] = found
        return found

    start = tuple(frozenset(held) for _, held in layout.hands)
    return walk(start, (), layout.elder, frozenset())
