"""The solver against exhaustive minimax, and its searches against each other.

168 small deals (2 per profile, table size and option variant; 280 values, a
three-handed deal has one per seat) and 2 full six-card two-handed deals run here;
``test_solver_slow.py`` runs 2,100 small deals and 200 six-card two-handed deals
(``pytest -m slow``)."""

from __future__ import annotations

import functools
import random
from dataclasses import replace

import pytest

from allfours_notation.cards import Card, Seat, Suit, card
from allfours_notation.checking.analysis import Layout, Solver
from allfours_notation.reading.table import SEATS_FOR_PLAYERS, side_of
from allfours_notation.referee import PROFILES
from allfours_notation.referee.scoring import Point

from .brute import brute_value, memo_brute_value, weights_for
from .cases import generated_deals, perspectives, small_cases


def fixed_value(solver: Solver, layout: Layout, perspective: str | None) -> int:
    weights = weights_for(layout, perspective)
    return sum(weights[p.side] * p.points for p in solver.items.fixed)


def total(layout: Layout, perspective: str | None, **kw: bool) -> int:
    """The solver's value of every item (the fixed ones added), as the brute force counts."""
    solver = Solver(layout, perspective, **kw)
    return solver.value() + fixed_value(solver, layout, perspective)


def check_small(seed: int, per_set: int, **switches: bool) -> int:
    count = 0
    for label, layout in small_cases(seed, per_set):
        for perspective in perspectives(layout):
            assert total(layout, perspective, **switches) == brute_value(layout, perspective), \
                (label, perspective, layout)
            count += 1
    return count


def test_small_deals_match_brute_force_under_every_profile_and_variant() -> None:
    assert check_small(seed=11, per_set=2) == 280  # 168 deals, three-handed ones 3 times


def test_six_card_two_handed_deals_match_brute_force() -> None:
    for deal in generated_deals(5, "hoffmann1909", 2, 2):
        assert deal.layout is not None
        assert total(deal.layout, None) == memo_brute_value(deal.layout, None)


def test_positions_in_the_play_and_the_best_card_match_brute_force() -> None:
    rng = random.Random(3)
    for label, layout in small_cases(23, 1):
        for perspective in perspectives(layout):
            solver = Solver(layout, perspective)
            fixed = fixed_value(solver, layout, perspective)
            line: list[tuple[Seat, Card]] = []
            for _ in range(rng.randrange(1, len(layout.hands[0][1]) * len(layout.seats))):
                seat = solver.to_move()
                assert seat is not None
                card = rng.choice(solver.legal_now())
                solver.play(seat, card)
                line.append((seat, card))
            expected = brute_value(layout, perspective, tuple(line))
            value, best = solver.best()
            assert value + fixed == expected, (label, perspective, line)
            if best is not None:  # the card reported best keeps the value
                mover = solver.to_move()
                assert mover is not None
                solver.play(mover, best)
                assert solver.value() + fixed == expected
                assert brute_value(layout, perspective, (*line, (mover, best))) == expected


@functools.cache
def _with_every_pruning() -> tuple[tuple[Layout, str | None, int], ...]:
    """The cases of the test below, each with the solver's value with every pruning on:
    the same for each switch, so solved once per process rather than once per switch."""
    cases = [(layout, perspective)
             for _, layout in small_cases(31, 1, per_hand={2: 3, 3: 3, 4: 2})
             for perspective in perspectives(layout)]
    for deal in generated_deals(8, "hoffmann1909", 2, 1):
        assert deal.layout is not None
        cases.append((deal.layout, None))
    return tuple((layout, perspective, total(layout, perspective))
                 for layout, perspective in cases)


@pytest.mark.parametrize("switch", ["equivalence", "table", "bounds", "ordering",
                                    "null_window", "relative", "last_trick"])
def test_each_pruning_off_gives_identical_values(switch: str) -> None:
    for layout, perspective, value in _with_every_pruning():
        assert total(layout, perspective, **{switch: False}) == value, (layout, perspective)


def test_the_forcing_credit_gives_identical_values() -> None:
    """The early stop crediting what sure trumps and winning leads force (the compiled
    engine's default, off by default in pure Python) changes the work, never a value:
    the small deals against brute force, and the cases above."""
    assert check_small(seed=17, per_set=1, forcing=True) == 140
    for layout, perspective, value in _with_every_pruning():
        assert total(layout, perspective, forcing=True) == value, (layout, perspective)


def test_the_faster_searches_equal_the_plain_one_on_three_and_four_handed_deals() -> None:
    """Issue 40: the canonical table key and the last trick played out change the work,
    never a value: each position along the play of generated six-card deals (four-handed
    trinidad14, three-handed foster), from the second trick on, is worth the same with
    them off (the search as it was), and the best card found keeps the value.  (The
    killer cards only reorder: the brute-force tests above hold the search with them to
    exact values.)"""
    checked = 0
    for profile, players, count in (("trinidad14", 4, 2), ("foster", 3, 1)):
        for deal in generated_deals(9, profile, players, count):
            layout = deal.layout
            assert layout is not None
            for perspective in perspectives(layout):
                fast = Solver(layout, perspective)
                plain = Solver(layout, perspective, relative=False, last_trick=False)
                for length in range(len(layout.seats), len(deal.line), 8):
                    fast.set_position(deal.line[:length])
                    plain.set_position(deal.line[:length])
                    value, card = fast.best()
                    assert value == plain.value(), (profile, deal.number, length)
                    if card is not None:
                        seat = plain.to_move()
                        assert seat is not None
                        plain.play(seat, card)
                        assert plain.value() == value
                    checked += 1
    assert checked == 2 * 3 + 1 * 3 * 2


def test_the_solver_scores_complete_lines_as_the_referee_does() -> None:
    """Every deal the referee scored: the solver's points of the line actually played
    (Jack or Hang Jack, Low where won, Game) are the referee's, item by item."""
    checked = 0
    for profile, players in (("hoffmann1909", 2), ("trinidad14", 4), ("foster", 3),
                             ("english10", 2)):
        for deal in generated_deals(2, profile, players, 40, cards=None):
            assert deal.layout is not None
            solver = Solver(deal.layout, None if players != 3 else deal.layout.sides[0])
            solver.set_position(deal.line)
            mine = sorted(_key(p) for p in (*solver.line_points(), *solver.items.fixed))
            refs = sorted(_key(p) for p in (*deal.result.points, *deal.result.unscored)
                          if p.item.value not in ("kick", "gift", "penalty"))
            assert mine == refs, (profile, deal.number)
            checked += 1
    assert checked == 160


def _key(point: Point) -> tuple[str, str, int]:
    return point.side, point.item.value, point.points


def test_three_players_each_seat_guarantees_at_most_what_it_makes_in_some_line() -> None:
    """A seat's guarantee is a lower bound on its points whatever the others do: along
    the line that is best for it, it makes at least that much."""
    for _, layout in small_cases(41, 1):
        if len(layout.sides) != 3:
            continue
        for perspective in layout.sides:
            solver = Solver(layout, perspective)
            guaranteed = solver.value()
            line = []
            while (seat := solver.to_move()) is not None:
                _, card = solver.best()
                assert card is not None
                solver.play(seat, card)
                line.append((seat, card))
            made = sum(p.points for p in solver.line_points() if p.side == perspective)
            assert made == guaranteed
            assert all(side_of(seat, layout.seats) for seat, _ in line)


def _third_seat_order(east: str) -> list[str]:
    """South's cards in the order the solver tries them (trinidad14, play anticlockwise),
    North having led the Ace of spades (winning) and West followed: South, void in
    spades, holds the Ten and Three of diamonds and the Four of trumps (hearts); East,
    last to play, holds ``east``."""
    hands = {Seat.NORTH: "AS 5C 7C", Seat.WEST: "2S 6C 8C", Seat.SOUTH: "TD 3D 4H",
             Seat.EAST: east}
    layout = Layout(replace(PROFILES["trinidad14"].options, players=4),
                    SEATS_FOR_PLAYERS[4], Seat.EAST, Seat.NORTH, Suit.HEARTS, False,
                    tuple((seat, tuple(card(text) for text in held.split()))
                          for seat, held in hands.items()))
    solver = Solver(layout)
    solver.set_position([(Seat.NORTH, card("AS")), (Seat.WEST, card("2S"))])
    south = solver.pos_of[Seat.SOUTH]
    assert solver.seats[solver.next_pos[south]] is Seat.EAST
    moves = solver._legal_of(solver.hands[south], solver.trick)
    last_hand = solver.hands[solver.next_pos[south]]
    return [str(solver.cards[i]) for i in solver._order(south, moves, solver.trick, last_hand)]


def test_the_last_seat_but_one_throws_points_on_only_where_the_last_seat_cannot_take_the_trick(
) -> None:
    """Its partner winning, the last seat but one throws its points on first only where the
    last seat cannot then take the trick; where it can (East could trump), the card that
    wins comes first and then the cheapest (issue 40: the points first cost twelve-card
    deals up to six times the nodes)."""
    assert _third_seat_order("2C 3C 4C") == ["TD", "3D", "4H"]
    assert _third_seat_order("9H 2C 3C") == ["4H", "3D", "TD"]
