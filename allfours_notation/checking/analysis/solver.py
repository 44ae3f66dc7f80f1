"""An exact perfect-information ("double dummy") solver for the play of one deal.

Every hand is known.  From any position (after the calls, or after any card) the
solver finds the value of the items the play still decides — the Jack (or Hang
Jack), Low where Low goes to the trick winner, and Game — under the best play of
everyone:

* two sides (two players, or four in partnerships): the difference of the sides'
  points (the first side of the table minus the second), one side maximising it and
  the other minimising it;
* three players: one seat's guaranteed points with the other two playing against it
  (:class:`Solver` is made once per seat).

The rules come from the referee and nowhere else: which cards may be played is
:func:`~allfours_notation.referee.play.legal_cards` under the game's options (every
``follow_rule`` and undertrump variant), who wins a trick is
:func:`~allfours_notation.referee.play.trick_winner`, and what an item is worth is asked
of the scorer (:mod:`.items`).  Both are asked once per distinct question and the
answers kept.

The search is alpha-beta (fail-soft) with a transposition table at trick boundaries
(the remaining cards in canonical form — per suit, in rank order, who holds each and
which count — the leader and, for two sides, the pips margin clipped where it no
longer matters; where Game never falls with more pips, a bound found at one margin also
serves the same cards and leader at a larger or smaller one), each complete trick's
winner, pips and items worked out once and kept, equivalent cards searched once (cards
of one suit in one hand with nothing between them held elsewhere, none of them
counting), the best move of the
table tried first and then the last card that cut at the same depth (a killer), the
last trick played out without a search (nobody chooses it), and an early stop when the
items still open can no longer change the value or move it past the window (each side
credited beforehand with the trumps it is sure to take: a trump every higher one of which
still out is its side's, with its pips and the Jack or Low it may be).  Nothing is
sampled or guessed: a search that runs past its time limit raises :class:`SolveTimeout`.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from itertools import pairwise
from typing import TypeVar

from ...cards import Card, Seat, Suit
from ...frozen import frozen
from ...reading.table import next_seats, side_table, sides
from ...referee.play import legal_cards, trick_winner
from ...referee.profiles import Options
from ...referee.scoring import Point
from .early_stop import UNBOUNDED, EarlyStop
from .items import DealItems, deal_items, side_points

__all__ = ["Layout", "SolveTimeout", "Solver", "Stats"]

_INF = UNBOUNDED
_T = TypeVar("_T")


class SolveTimeout(Exception):
    """The search ran past its time limit: no value is given."""


@frozen
class Layout:
    """A deal as the solver needs it: the table, the trump and every hand at the start of
    play (the seat that leads the first trick is the elder)."""

    options: Options
    seats: tuple[Seat, ...]
    dealer: Seat
    elder: Seat
    trump: Suit
    turnup_jack: bool  # the Jack of trumps was the turn-up (it scores as a kick, not in play)
    hands: tuple[tuple[Seat, tuple[Card, ...]], ...]

    @property
    def sides(self) -> tuple[str, ...]:
        return sides(self.seats)

    @property
    def holders(self) -> dict[Card, Seat]:
        return {c: seat for seat, held in self.hands for c in held}

    def items(self) -> DealItems:
        return deal_items(self.seats, self.dealer, self.elder, self.trump, self.turnup_jack,
                          self.holders, self.options)


@dataclass(slots=True)
class Stats:
    """What a solver has done so far."""

    nodes: int = 0
    table_hits: int = 0
    settled: int = 0
    seconds: float = 0.0


class Solver(EarlyStop):
    """Exact values of the positions of one deal, for one point of view.

    ``perspective`` ``None`` (two sides): the value is the first side's points minus the
    second's.  A side name (three players): that seat's points.  The transposition table
    is kept between calls, so that solving every position of a deal costs little more
    than solving the first.  ``equivalence=False`` searches every card (for tests and the
    benchmark); ``table=False`` keeps no transposition table; ``bounds=False`` searches on
    when the open items are settled; ``relative=False`` keys the table by the cards
    themselves; ``last_trick=False`` searches the last trick too; ``forcing=True`` credits
    each side in the early stop with what its sure trumps force from the other hands and
    the side on lead with what its runs of winning leads force (:mod:`.bounds`): the
    compiled engine's default, where it pays; here it saves nodes (four-handed six-card
    deals -18%) but its bookkeeping costs the interpreter more time than it saves.
    """

    def __init__(self, layout: Layout, perspective: str | None = None, *,
                 equivalence: bool = True, table: bool = True, bounds: bool = True,
                 ordering: bool = True, null_window: bool = True, relative: bool = True,
                 last_trick: bool = True, forcing: bool = False,
                 max_entries: int = 250_000) -> None:
        self.layout = layout
        self.items = layout.items()
        table_sides = self.items.sides
        if perspective is None:
            if len(table_sides) != 2:
                raise ValueError("three players: give the seat whose points are wanted")
            weights: tuple[int, ...] = (1, -1)
        else:
            if perspective not in table_sides:
                raise ValueError(f"{perspective!r} is not a side at this table")
            weights = tuple(1 if side == perspective else 0 for side in table_sides)
        self.perspective = perspective
        self.weights = weights
        self.stats = Stats()
        self.use_equivalence = equivalence
        self.use_table = table
        self.use_bounds = bounds
        self.use_ordering = ordering
        self.use_null_window = null_window
        self.use_relative = relative
        self.use_last_trick = last_trick
        self.use_forcing = forcing
        self.max_entries = max_entries
        self.deadline: float | None = None
        # The clock the deadline is read on: the wall clock (the benchmark reads the
        # process's CPU time, so that other work on a shared machine does not count).
        self.clock: Callable[[], float] = time.perf_counter
        seats = layout.seats
        self.seats = seats
        self.pos_of = {seat: i for i, seat in enumerate(seats)}
        after = next_seats(seats, clockwise=layout.options.clockwise)
        self.next_pos = [self.pos_of[after[seat]] for seat in seats]
        by_seat = side_table(seats)
        self.side_of_pos = [table_sides.index(by_seat[seat]) for seat in seats]
        self.maximises = [weights[s] > 0 if perspective is not None else s == 0
                          for s in self.side_of_pos]
        cards = sorted((c for _, held in layout.hands for c in held),
                       key=lambda c: (c.suit.value, c.rank))
        self.cards = cards
        self.index = {c: i for i, c in enumerate(cards)}
        self.owner = [self.pos_of[layout.holders[c]] for c in cards]
        self.card_pips = [c.pips for c in cards]
        self.hands0 = [0] * len(seats)
        for i, _ in enumerate(cards):
            self.hands0[self.owner[i]] |= 1 << i
        self.total_pips = sum(self.card_pips)
        items = self.items
        self.jack = self.index[items.jack] if items.jack is not None else -1
        self.low = self.index[items.low] if items.low is not None else -1
        self.jack_value = [self._value(items.jack_points.get(seat, ())) for seat in seats]
        self.low_value = [self._value(items.low_points.get(seat, ())) for seat in seats]
        # static orders: leads trumps first, then the cards with most pips, then high
        # ones; cheap cards first; of the cards that win a trick, plain ones first, then
        # those with most pips (they are then the winning side's for sure)
        trump = layout.trump
        self.lead_key = [-(c.suit is trump) * 1000 - self.card_pips[i] * 20 - int(c.rank)
                         for i, c in enumerate(cards)]
        self.cheap_key = [self.card_pips[i] * 20 + int(c.rank) + (c.suit is trump) * 15
                          for i, c in enumerate(cards)]
        self.win_key = [(c.suit is trump) * 100_000 - self.card_pips[i] * 1000 + self.cheap_key[i]
                        for i, c in enumerate(cards)]
        counting = 0
        for i in range(len(cards)):
            if self.card_pips[i] or i in (self.jack, self.low):
                counting |= 1 << i
        self.counting = counting
        # the trumps, highest first: for the items each side is sure of (:meth:`_items_open`)
        self.trumps_high_first = [i for i in reversed(range(len(cards)))
                                  if cards[i].suit is trump]
        self.trump_mask = sum(1 << i for i in self.trumps_high_first)
        self.side_of_card = [self.side_of_pos[pos] for pos in self.owner]
        self.suit_of = [c.suit for c in cards]
        self._open_items: dict[object, tuple[tuple[int, ...], int, int,
                                             tuple[tuple[int, ...], int, int] | None]] = {}
        # (forcing) per cards out and leader: what the runs of the side on lead start from,
        # and the runs' credits (:meth:`_led_credit`)
        self._forced: dict[tuple[int, int], tuple[int, int, int, tuple[int, ...],
                                                  tuple[int, ...]]] = {}
        self._led: dict[object, tuple[tuple[tuple[int, ...], int, int], ...]] = {}
        self._sure_of: dict[int, tuple[tuple[int, ...], tuple[int, ...], int, int]] = {}
        self._pips_up: dict[int, list[int]] = {}
        # between[a][b] (a < b, one suit): the cards of that suit ranked between them
        self.between: dict[tuple[int, int], int] = {}
        for a, ca in enumerate(cards):
            for b in range(a + 1, len(cards)):
                if cards[b].suit is not ca.suit:
                    break
                self.between[a, b] = sum(1 << k for k in range(a + 1, b))
        # each suit's cards as a range of indices (cards are in suit and rank order), and
        # the canonical form of each set of them still out (see :meth:`_suit_shape`)
        self.suit_ranges: list[tuple[int, int]] = []
        for i, c in enumerate(cards):
            if i and cards[i - 1].suit is c.suit:
                start, _ = self.suit_ranges[-1]
                self.suit_ranges[-1] = (start, i + 1)
            else:
                self.suit_ranges.append((i, i + 1))
        self.suit_masks = [((1 << (end - start)) - 1, start) for start, end in self.suit_ranges]
        self._shapes: list[dict[int, int]] = [{} for _ in self.suit_ranges]
        self._shape_ids: dict[tuple[int, ...], int] = {}
        self._shape_of: dict[int, int] = {}  # the cards still out -> their key
        self._game: dict[tuple[int, ...], int] = {}
        self._game_points: dict[tuple[int, ...], tuple[Point, ...]] = {}
        self._game_range: dict[tuple[object, ...], tuple[int, int]] = {}
        self._legal: dict[tuple[int, tuple[int, ...]], tuple[int, ...]] = {}
        self._legal_by_rule: dict[tuple[int, Suit | None, int], tuple[int, ...]] = {}
        self._winner: dict[tuple[int, ...], int] = {}
        self.tt: dict[tuple[object, int, object], tuple[int, int, int]] = {}
        self.tt_old: dict[tuple[object, int, object], tuple[int, int, int]] = {}
        self._orders: dict[tuple[object, ...], tuple[int, ...]] = {}
        self._tricks: dict[tuple[int, ...], tuple[int, int, int, int]] = {}
        self._pairs_of: dict[tuple[int, ...], tuple[tuple[int, int], ...]] = {}
        self._last: dict[tuple[int, int], tuple[int, int, int, int]] = {}
        # per depth (cards still out, cards on the table): the last card that cut there
        self.killers = [-1] * (4 * len(cards) + 4)
        self.clip = len(table_sides) == 2 and self._margin_decides()
        # two sides: Game's value at the end for each number of pips of the first side
        self.game_by_first = [self.game_value((a, self.total_pips - a))
                              for a in range(self.total_pips + 1)] if len(table_sides) == 2 else []
        # Game never worth less to the first side for more of its pips (asked of the
        # scorer): then a position's bounds hold for the same cards and leader with a
        # larger margin (the lower) or a smaller one (the upper), and the table says so
        self.monotone = self.clip and all(a <= b for a, b in pairwise(self.game_by_first))
        self.margins: dict[tuple[object, int], list[int]] = {}
        self._reset()

    # --- what the referee says -------------------------------------------------------------

    def _value(self, points: Sequence[Point]) -> int:
        totals = side_points(points, self.items.sides)
        return sum(w * p for w, p in zip(self.weights, totals, strict=True))

    def game_points(self, pips: tuple[int, ...]) -> tuple[Point, ...]:
        found = self._game_points.get(pips)
        if found is None:
            found = self._game_points[pips] = self.items.game(pips)
        return found

    def game_value(self, pips: tuple[int, ...]) -> int:
        found = self._game.get(pips)
        if found is None:
            found = self._game[pips] = self._value(self.game_points(pips))
        return found

    def _margin_decides(self) -> bool:
        """Two sides: whether Game is the same for every split of the pips with the first
        side ahead (and for every one with it behind), which lets the table key on the
        margin clipped at the pips still to win.  Asked of the scorer, not assumed."""
        total = self.total_pips
        ahead = {self.game_value((a, total - a)) for a in range(total + 1) if 2 * a > total}
        behind = {self.game_value((a, total - a)) for a in range(total + 1) if 2 * a < total}
        return len(ahead) <= 1 and len(behind) <= 1

    def legal(self, pos: int, hand: int, trick: tuple[tuple[int, int], ...]) -> tuple[int, ...]:
        """The cards (indices) ``pos`` holding ``hand`` may play to ``trick`` (seats and
        cards), as the referee says."""
        return self._legal_of(hand, tuple(i for _, i in trick))

    def _legal_of(self, hand: int, trick: tuple[int, ...]) -> tuple[int, ...]:
        key = (hand, trick)
        found = self._legal.get(key)
        if found is None:
            # The follow rules (17, 20) read of a trick the suit led and the highest trump
            # in it: the referee is asked once for each hand and those two.
            top = -1
            for k in trick:
                if self.trump_mask >> k & 1 and k > top:
                    top = k
            rule_key = (hand, self.suit_of[trick[0]] if trick else None, top)
            found = self._legal_by_rule.get(rule_key)
            if found is None:
                cards = self.cards
                held = [cards[i] for i in range(len(cards)) if hand >> i & 1]
                allowed = legal_cards(held, self._plays(trick), self.layout.trump,
                                      self.layout.options)
                found = self._legal_by_rule[rule_key] = tuple(sorted(self.index[c]
                                                                     for c in allowed))
            self._legal[key] = found
        return found

    def _plays(self, trick: tuple[int, ...]) -> list[tuple[Seat, Card]]:
        """A trick (card indices) as the referee reads it: who played what."""
        return [(self.seats[self.owner[i]], self.cards[i]) for i in trick]

    def winner(self, trick: tuple[tuple[int, int], ...]) -> int:
        """Who (a position) wins ``trick`` (seats and cards), as the referee says."""
        return self._winner_of(tuple(i for _, i in trick))

    def _winner_of(self, trick: tuple[int, ...]) -> int:
        found = self._winner.get(trick)
        if found is None:
            seat = trick_winner(self._plays(trick), self.layout.trump)
            found = self._winner[trick] = self.pos_of[seat]
        return found

    # --- the position ------------------------------------------------------------------------

    def _reset(self) -> None:
        self.hands = list(self.hands0)
        self.remaining = sum(self.hands0)
        self.trick: tuple[int, ...] = ()  # the cards on the table (each played by its holder)
        self.leader = self.pos_of[self.layout.elder]
        self.pips = [0] * len(self.items.sides)
        self.rest = self.total_pips  # pips not yet in a finished trick
        self.captured = 0  # the value already decided (Jack, Low won)
        self.line: list[tuple[Seat, Card]] = []
        self.jack_by: int = -1
        self.low_by: int = -1

    def set_position(self, plays: Sequence[tuple[Seat, Card]]) -> None:
        """Put the deal at the position after ``plays`` (from the first lead; the cards
        need not have been legal)."""
        self._reset()
        for seat, c in plays:
            self.play(seat, c)

    def to_move(self) -> Seat | None:
        if not self.remaining and not self.trick:
            return None
        if not self.trick:
            return self.seats[self.leader]
        return self.seats[self.next_pos[self.owner[self.trick[-1]]]]

    def play(self, seat: Seat, c: Card) -> None:
        pos = self.pos_of[seat]
        i = self.index[c]
        bit = 1 << i
        if not self.hands[pos] & bit:
            raise ValueError(f"{seat.letter} does not hold {c}")
        self.hands[pos] ^= bit
        self.remaining ^= bit
        self.trick = (*self.trick, i)
        self.line.append((seat, c))
        if len(self.trick) == len(self.seats):
            w = self._winner_of(self.trick)
            gain = sum(self.card_pips[k] for k in self.trick)
            self.pips[self.side_of_pos[w]] += gain
            self.rest -= gain
            for k in self.trick:
                if k == self.jack:
                    self.captured += self.jack_value[w]
                    self.jack_by = w
                if k == self.low:
                    self.captured += self.low_value[w]
                    self.low_by = w
            self.leader = w
            self.trick = ()

    def legal_now(self) -> list[Card]:
        seat = self.to_move()
        if seat is None:
            return []
        pos = self.pos_of[seat]
        return [self.cards[i] for i in self._legal_of(self.hands[pos], self.trick)]

    def line_points(self) -> tuple[Point, ...]:
        """At the end of a deal: the points of the items the play decided (Jack or Hang
        Jack, Low where won, Game), as the scorer gives them."""
        if self.remaining or self.trick:
            raise ValueError("the deal is not over")
        items = self.items
        out: list[Point] = []
        if self.jack_by >= 0:
            out.extend(items.jack_points[self.seats[self.jack_by]])
        if self.low_by >= 0:
            out.extend(items.low_points[self.seats[self.low_by]])
        out.extend(self.game_points(tuple(self.pips)))
        return tuple(out)

    # --- searching ---------------------------------------------------------------------------

    def value(self, deadline: float | None = None) -> int:
        """The exact value of the current position (the items already decided included).

        ``deadline`` (a ``time.perf_counter()`` reading): raise :class:`SolveTimeout`
        when the search is still running then."""
        return self.captured + self._run(self._exact, deadline)

    def _exact(self, guess: int = 0) -> int:
        """The exact value from here on, by null-window tests (MTD(f)) around ``guess``,
        or one full-window search."""
        if not self.use_null_window:
            return self._search(-_INF, _INF)
        lower, upper = -_INF, _INF
        value = guess
        while lower < upper:
            beta = value + 1 if value == lower else value
            value = self._search(beta - 1, beta)
            if value < beta:
                upper = value
            else:
                lower = value
        return value

    def best(self, deadline: float | None = None) -> tuple[int, Card | None]:
        """The value of the current position and a card that keeps it (``None`` at the end)."""
        seat = self.to_move()
        if seat is None:
            return self.value(deadline), None
        pos = self.pos_of[seat]

        def root() -> tuple[int, int]:
            maximise = self.maximises[pos]
            best_value = -_INF if maximise else _INF
            best_card = -1
            for i in self._legal_of(self.hands[pos], self.trick):
                if best_card < 0:
                    v = self._child(pos, i, -_INF, _INF)
                elif maximise:
                    v = self._child(pos, i, best_value, best_value + 1)
                else:
                    v = self._child(pos, i, best_value - 1, best_value)
                if (maximise and v > best_value) or (not maximise and v < best_value) or \
                        best_card < 0:
                    if best_card >= 0:  # proved better: its exact value
                        v = self._child(pos, i, -_INF, _INF)
                    best_value, best_card = v, i
            return best_value, best_card

        value, card = self._run(root, deadline)
        return self.captured + value, self.cards[card]

    def _child(self, pos: int, i: int, alpha: int, beta: int) -> int:
        """The value (from here on) after ``pos`` plays card ``i``."""
        saved = (list(self.hands), self.remaining, self.trick, self.leader, list(self.pips),
                 self.rest, self.captured, self.jack_by, self.low_by, len(self.line))
        before = self.captured
        self.play(self.seats[pos], self.cards[i])
        gained = self.captured - before
        try:
            return gained + self._search(alpha - gained, beta - gained)
        finally:
            (hands, self.remaining, self.trick, self.leader, pips, self.rest, self.captured,
             self.jack_by, self.low_by, length) = saved
            self.hands, self.pips = hands, pips
            del self.line[length:]

    def _run(self, search: Callable[[], _T], deadline: float | None) -> _T:
        start = time.perf_counter()
        self.deadline = deadline
        try:
            return search()
        finally:
            self.stats.seconds += time.perf_counter() - start
            # (the suits' shapes stay: at most 2**13 per suit, and the table's keys use them)
            for memo in (self.tt, self._orders, self._legal, self._legal_by_rule,
                         self._winner, self._tricks, self._last, self._pairs_of,
                         self._shape_of, self._open_items, self._forced, self._led,
                         self._sure_of, self._pips_up):
                if len(memo) > self.max_entries:  # memory stays bounded
                    memo.clear()

    def _search(self, alpha: int, beta: int) -> int:
        stats = self.stats
        stats.nodes += 1
        if self.deadline is not None and not stats.nodes & 1023 and \
                self.clock() > self.deadline:
            raise SolveTimeout
        trick = self.trick
        remaining = self.remaining
        key: tuple[object, int, object] | None = None
        entry = None
        alpha0, beta0 = alpha, beta
        margin = 0
        fresh = False
        if not trick:
            if not remaining:
                return self.game_value(tuple(self.pips))
            if self.use_last_trick and remaining.bit_count() == len(self.seats):
                return self._last_trick()
            if self.use_bounds:
                low, high = self._bounds(remaining, alpha, beta)
                if low == high or high <= alpha or low >= beta:
                    stats.settled += 1
                    return low if low >= beta or low == high else high
            if self.use_table:
                pips = self.pips
                shape: object = self._shape_of.get(remaining) if self.use_relative else remaining
                if shape is None:
                    shape = self._shape(remaining)
                if self.clip:
                    margin = pips[0] - pips[1]
                    rest = self.rest
                    if margin > rest:
                        margin = rest + 1
                    elif margin < -rest:
                        margin = -rest - 1
                    key = (shape, self.leader, margin)
                else:
                    key = (shape, self.leader, tuple(pips))
                entry = self.tt.get(key)
                fresh = entry is None  # not in the table filling now
                if fresh and self.tt_old:
                    entry = self.tt_old.get(key)
                if entry is not None:
                    lower, upper, _ = entry
                else:
                    lower, upper = -_INF, _INF
                if self.monotone and lower < beta and upper > alpha and lower < upper:
                    # the same cards and leader with another margin bound this one
                    tt = self.tt
                    for other in self.margins.get((shape, self.leader), ()):
                        if other < margin:
                            bound = tt[shape, self.leader, other][0]
                            if bound > lower:
                                lower = bound
                        elif other > margin:
                            bound = tt[shape, self.leader, other][1]
                            if bound < upper:
                                upper = bound
                if lower >= beta or lower == upper:
                    stats.table_hits += 1
                    return lower
                if upper <= alpha:
                    stats.table_hits += 1
                    return upper
                if lower > alpha:
                    alpha = lower
                if upper < beta:
                    beta = upper
            pos = self.leader
            hint = entry[2] if entry is not None else -1
        else:
            pos = self.next_pos[self.owner[trick[-1]]]
            hint = -1
        hand = self.hands[pos]
        moves = self._legal.get((hand, trick))
        if moves is None:
            moves = self._legal_of(hand, trick)
        if len(moves) > 1:
            if self.use_equivalence:
                pairs = self._pairs_of.get(moves)
                if pairs is None:
                    pairs = self._pairs(moves)
                if pairs:
                    moves = self._distinct(pos, moves, pairs)
            if self.use_ordering and len(moves) > 1:
                if len(trick) == len(self.seats) - 2 and trick:
                    # the last seat but one: its order reads the last seat's hand too
                    last_hand = self.hands[self.next_pos[pos]]
                    order_key: tuple[object, ...] = (moves, trick, last_hand)
                else:
                    last_hand, order_key = -1, (moves, trick)
                ordered = self._orders.get(order_key)
                if ordered is None:
                    ordered = self._orders[order_key] = self._order(pos, moves, trick,
                                                                     last_hand)
                if hint < 0 or ordered[0] == hint or hint not in ordered:
                    moves = ordered
                else:
                    moves = (hint, *(i for i in ordered if i != hint))
                depth = remaining.bit_count() * 4 + len(trick)
                killer = self.killers[depth]
                if killer >= 0 and killer != moves[0] and killer in moves:
                    moves = (moves[0], killer, *(i for i in moves[1:] if i != killer))
        maximise = self.maximises[pos]
        best = -_INF if maximise else _INF
        best_move = -1
        last = len(trick) == len(self.seats) - 1
        hand = self.hands[pos]
        hands = self.hands
        for i in moves:
            bit = 1 << i
            hands[pos] = hand ^ bit
            self.remaining = remaining ^ bit
            played = (*trick, i)
            if last:
                outcome = self._tricks.get(played)
                if outcome is None:
                    outcome = self._trick_outcome(played)
                w, side, gain, value = outcome
                leader = self.leader
                self.pips[side] += gain
                self.rest -= gain
                self.leader = w
                self.trick = ()
                v = value + self._search(alpha - value, beta - value)
                self.pips[side] -= gain
                self.rest += gain
                self.leader = leader
            else:
                self.trick = played
                v = self._search(alpha, beta)
            self.trick = trick
            if maximise:
                if v > best:
                    best, best_move = v, i
                    if v > alpha:
                        alpha = v
                        if alpha >= beta:
                            break
            elif v < best:
                best, best_move = v, i
                if v < beta:
                    beta = v
                    if alpha >= beta:
                        break
        hands[pos] = hand
        self.remaining = remaining
        if alpha >= beta:  # a cut: the card that made it is tried early at this depth
            self.killers[remaining.bit_count() * 4 + len(trick)] = best_move
        if key is not None:
            lower, upper = (entry[0], entry[1]) if entry is not None else (-_INF, _INF)
            if best <= alpha0:
                upper = min(upper, best)
            elif best >= beta0:
                lower = max(lower, best)
            else:
                lower = upper = best
            tt = self.tt
            if len(tt) >= self.max_entries:
                # memory stays bounded: a new table, the full one kept to read until the
                # new one is full in turn
                self.tt_old = tt
                self.tt = tt = {}
                self.margins.clear()
                fresh = True
            if self.monotone and fresh:
                group = (key[0], self.leader)
                known = self.margins.get(group)
                if known is None:
                    self.margins[group] = [margin]
                else:
                    known.append(margin)
            tt[key] = (lower, upper, best_move)
        return best

    def _last_trick(self) -> int:
        """The value of the last trick, which nobody chooses: each seat holds one card
        and plays it (whatever the follow rule, a seat's only card is a legal one)."""
        key = (self.remaining, self.leader)
        outcome = self._last.get(key)
        if outcome is None:
            pos = self.leader
            next_pos = self.next_pos
            hands = self.hands
            played = []
            for _ in self.seats:
                played.append(hands[pos].bit_length() - 1)
                pos = next_pos[pos]
            outcome = self._last[key] = self._trick_outcome(tuple(played))
        _, side, gain, value = outcome
        pips = self.pips
        if self.game_by_first:  # two sides: the first side's pips say the rest
            return value + self.game_by_first[pips[0] + gain if side == 0 else pips[0]]
        final = list(pips)
        final[side] += gain
        return value + self.game_value(tuple(final))

    def _trick_outcome(self, played: tuple[int, ...]) -> tuple[int, int, int, int]:
        """A complete trick's winner, the winner's side, its pips and the value of the
        Jack or Low in it: worked out once per trick and kept."""
        w = self._winner_of(played)
        value = 0
        gain = 0
        pips_of = self.card_pips
        for k in played:
            gain += pips_of[k]
            if k == self.jack:
                value += self.jack_value[w]
            if k == self.low:
                value += self.low_value[w]
        outcome = self._tricks[played] = (w, self.side_of_pos[w], gain, value)
        return outcome

    def _shape(self, remaining: int) -> object:
        """The transposition table's key for the cards still out: the cards themselves,
        or (``relative``) their canonical form, so that positions that differ only in
        which of two cards equal in play is gone share one entry."""
        if not self.use_relative:
            return remaining
        known = self._shape_of.get(remaining)
        if known is not None:
            return known
        shapes = self._shapes
        out = 0
        for k, (mask, start) in enumerate(self.suit_masks):
            part = remaining >> start & mask
            found = shapes[k].get(part)
            if found is None:
                found = shapes[k][part] = self._suit_shape(start, part)
            out = out << 16 | found
        self._shape_of[remaining] = out
        return out

    def _suit_shape(self, start: int, part: int) -> int:
        """A number for the cards of one suit still out (bits of ``part`` from card
        ``start``): the same for two sets with, in rank order, the same holders and the
        same counting cards (the Jack, Low where it is open, any card with pips).  Trick
        winners, the cards that may be played and what a trick is worth depend only on
        that: which suit, the order of rank among the cards still out, and which cards
        count (the referee's rules compare ranks, never name one but the Jack and Low)."""
        form: list[int] = []
        k = 0
        while part >> k:
            if part >> k & 1:
                i = start + k
                form.append(self.owner[i] if not self.counting >> i & 1 else 16 + i)
            k += 1
        code = tuple(form)
        found = self._shape_ids.get(code)
        if found is None:
            found = self._shape_ids[code] = len(self._shape_ids) + 1
        return found

    def _pairs(self, moves: tuple[int, ...]) -> tuple[tuple[int, int], ...]:
        """The cards of ``moves`` (in suit and rank order) that may be equivalent to the
        one before them: same suit, neither counting; each with the cards between them."""
        counting = self.counting
        pairs = []
        for last, i in pairwise(moves):
            gap = self.between.get((last, i))
            if gap is not None and not counting >> i & 1 and not counting >> last & 1:
                pairs.append((i, gap))
        found = self._pairs_of[moves] = tuple(pairs)
        return found

    def _distinct(self, pos: int, moves: tuple[int, ...],
                  pairs: tuple[tuple[int, int], ...]) -> tuple[int, ...]:
        """One card of each group of equivalent cards: a card goes when nothing between
        it and the card before it (:meth:`_pairs`) is held by another seat or on the
        table."""
        outside = self.remaining & ~self.hands[pos]
        for k in self.trick:
            outside |= 1 << k
        dropped = [i for i, gap in pairs if not gap & outside]
        if not dropped:
            return moves
        return tuple(i for i in moves if i not in dropped)

    def _trick_kept(self, pos: int, trick: tuple[int, ...], last_hand: int) -> bool:
        """Whether ``trick`` stays the side of ``pos``'s whatever the last seat (holding
        ``last_hand``) plays to it (the last seat a partner: whether it can keep it so)."""
        side = self.side_of_pos
        ours = side[pos]
        outcomes = (side[self._winner_of((*trick, r))] == ours
                    for r in self._legal_of(last_hand, trick))
        if side[self.next_pos[pos]] == ours:
            return any(outcomes)
        return all(outcomes)

    def _order(self, pos: int, moves: tuple[int, ...], trick: tuple[int, ...],
               last_hand: int = -1) -> tuple[int, ...]:
        """Likely best cards first: when leading, trumps, cards with pips and high cards;
        when following a trick the own side is winning, the cards that count (winners
        last); otherwise a card that wins the trick (plain before trumps, most pips
        first), then the cheapest card.  The last seat but one (``last_hand`` the last
        seat's hand), its side winning, throws points on only where the last seat cannot
        then take the trick: its other cards go after the winners, the cheapest first
        (issue 40: the points first cost twelve-card deals up to six times the nodes)."""
        if not trick:
            ordered = sorted(moves, key=self.lead_key.__getitem__)
        else:
            pips = self.card_pips
            side = self.side_of_pos
            cheap = self.cheap_key
            winning: list[int] = []
            losing: list[int] = []
            winner = self._winner_of
            for i in moves:
                if winner((*trick, i)) == pos:
                    winning.append(i)
                else:
                    losing.append(i)
            winning.sort(key=self.win_key.__getitem__)
            if side[winner(trick)] == side[pos]:
                exposed: list[int] = []
                if last_hand >= 0:
                    kept = [i for i in losing if self._trick_kept(pos, (*trick, i), last_hand)]
                    exposed = sorted((i for i in losing if i not in kept), key=cheap.__getitem__)
                    losing = kept
                losing.sort(key=lambda i: -pips[i])
                ordered = [*losing, *winning, *exposed]
            else:
                losing.sort(key=cheap.__getitem__)
                ordered = [*winning, *losing]
        return tuple(ordered)

