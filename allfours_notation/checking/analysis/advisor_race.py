"""What happens after the advised deal when it does not decide the game: a model.

The later deals are not simulated card by card (each would need its own calls and its
own solved play).  They are modelled as a race of independent deals, each drawn from a
fixed pool of *later deals*: random deals (a seeded shuffle, a random dealer) in which
the elder stands on the first turn-up and the play is the double-dummy line, scored by
the referee's table from 0–0, each kept as its points in the counting order (kicks,
then High, Low, Jack, Game).  Every deal of the pool is counted once for every way of
placing its sides at the table (two sides swapped, three players rotated), since later
deals rotate the deal and are dealt afresh.  From a score, the chance of each side going
out first is then exact for that model (:class:`Race`): the deals' points are added in
the counting order and the first side to reach the target wins there, as in the game.

What it leaves out, on purpose and said so in ``docs/analysis.md``: the later deals'
begs, gifts and runs (every later elder stands), the players' play being better or
worse than double dummy, and the score's effect on how later deals are played.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from functools import lru_cache
from itertools import permutations

from ...cards import DEALT, FULL_PACK, Seat
from ...frozen import frozen
from ...reading.records import CallKind
from ...reading.table import sides
from ...referee.profiles import Options
from .advisor_play import World, deal_order, play_world

__all__ = ["LATER_DEALS", "LaterDeals", "Race", "later_deals"]

LATER_DEALS = 64  # deals in the pool by default: see docs/analysis.md for the cost
# a later deal's play has this many times the advised deal's time limit (its elder
# stands, so it is played with six cards a hand); a deal not solved is left out
POOL_TIME_FACTOR = 2.5

Events = tuple[tuple[str, int], ...]


@frozen
class LaterDeals:
    """The pool: each deal's points in the counting order, and how many deals were
    drawn but left out (their play not solved in time)."""

    deals: tuple[Events, ...]
    left_out: int


def later_deals(options: Options, seats: tuple[Seat, ...], size: int = LATER_DEALS, *,
                clock: Callable[[], float], time_limit: float | None = None) -> LaterDeals:
    """The pool of later deals for this table and these rules (made once per process
    for each size and time limit); ``time_limit``: the advised deal's, of which each
    later deal's play has :data:`POOL_TIME_FACTOR` times."""
    limit = None if time_limit is None else time_limit * POOL_TIME_FACTOR
    return _later_deals(options, seats, size, clock, limit)


@lru_cache(maxsize=16)
def _later_deals(options: Options, seats: tuple[Seat, ...], size: int,
                 clock: Callable[[], float], time_limit: float | None) -> LaterDeals:
    rng = random.Random(f"allfours later deals {size}")
    start = tuple((side, 0) for side in sides(seats))
    found: list[Events] = []
    left_out = 0
    for _ in range(size):
        dealer = rng.choice(seats)
        pack = list(FULL_PACK)
        rng.shuffle(pack)
        order = deal_order(options, seats, dealer)
        hands = tuple((seat, tuple(pack[i * DEALT:(i + 1) * DEALT]))
                      for i, seat in enumerate(order))
        dealt = len(order) * DEALT
        world = World(hands, tuple(pack[dealt + 1:]))
        outcome = play_world(options, seats, dealer, start, world, pack[dealt],
                             CallKind.STANDS, _never_asked, advised=order[0],
                             time_limit=time_limit, clock=clock)
        if outcome.solved:
            found.append(outcome.events)
        else:
            left_out += 1
    return LaterDeals(tuple(found), left_out)


def _never_asked(_table: object) -> CallKind:
    raise AssertionError("the later deals' elder always stands")  # pragma: no cover


class Race:
    """The chance of each side going out first from a score, under the pool's model.

    ``target`` is the referee's (``Table.target``); a side goes out when its score
    reaches it, the deal's points being added in their counting order."""

    def __init__(self, table_sides: tuple[str, ...], target: int, pool: LaterDeals) -> None:
        self.sides = table_sides
        self.target = target
        index = {side: i for i, side in enumerate(table_sides)}
        placings = set(permutations(range(len(table_sides))))
        if len(table_sides) == 3:  # rotations only: the seats' order round the table stays
            placings = {(k % 3, (k + 1) % 3, (k + 2) % 3) for k in range(3)}
        self.deals: list[tuple[tuple[int, int], ...]] = []
        for events in pool.deals:
            as_indices = tuple((index[side], points) for side, points in events if points)
            for placing in sorted(placings):
                self.deals.append(tuple((placing[i], points) for i, points in as_indices))
        self._memo: dict[tuple[int, ...], tuple[float, ...]] = {}

    def chances(self, scores: tuple[tuple[str, int], ...]) -> tuple[float, ...]:
        """Each side's chance (in the order of ``sides``) of going out first from
        ``scores``, a score at or above the target counting as out already."""
        by_side = dict(scores)
        state = tuple(by_side.get(side, 0) for side in self.sides)
        return self._chances(state)

    def _chances(self, state: tuple[int, ...]) -> tuple[float, ...]:
        n = len(self.sides)
        for i, points in enumerate(state):
            if points >= self.target:
                return tuple(1.0 if k == i else 0.0 for k in range(n))
        known = self._memo.get(state)
        if known is not None:
            return known
        totals = [0.0] * n
        moving = 0
        for deal in self.deals:
            if not deal:
                continue
            moving += 1
            after = list(state)
            out = -1
            for side, points in deal:
                after[side] += points
                if after[side] >= self.target:
                    out = side
                    break
            result = (tuple(1.0 if k == out else 0.0 for k in range(n)) if out >= 0
                      else self._chances(tuple(after)))
            for k in range(n):
                totals[k] += result[k]
        # deals that score nothing leave the score as it was: they only delay the race
        found = tuple(t / moving for t in totals) if moving else tuple(1.0 / n for _ in range(n))
        self._memo[state] = found
        return found

