"""The early stop's bounds against exact values: at every trick boundary along random
lines of small deals (every profile, table size and option variant: each follow rule) and
of generated six-card deals, the least and the most the solver's bounds say the rest of the
play can be worth hold the exact value of the position (found with the early stop off),
and the credit for what the sure trumps and the side on lead's winning leads force
(``forcing``) is what tightens them where they tighten."""

from __future__ import annotations

import random

from allfours_notation.checking.analysis import Layout, Solver

from .cases import generated_deals, perspectives, small_cases


def _check_line(layout: Layout, perspective: str | None, rng: random.Random,
                line: list[tuple[object, object]] | None = None) -> tuple[int, int]:
    """Walk a line (``line``, or random legal cards) and check the bounds at each trick
    boundary; the number of boundaries checked and of those where ``forcing`` tightened
    the bounds."""
    forcing = Solver(layout, perspective, forcing=True)
    plain = Solver(layout, perspective)
    exact = Solver(layout, perspective, bounds=False)
    checked = tightened = 0
    cards = len(layout.hands[0][1]) * len(layout.seats)
    for step in range(cards):
        if not forcing.trick and forcing.remaining.bit_count() > len(layout.seats):
            value = exact.value() - exact.captured
            low, high = forcing._bounds(forcing.remaining)
            assert low <= value <= high, (layout, perspective, forcing.line, low, value, high)
            old_low, old_high = plain._bounds(plain.remaining)
            assert old_low <= low and high <= old_high  # never looser than the sure trumps
            tightened += (low, high) != (old_low, old_high)
            checked += 1
        seat = forcing.to_move()
        assert seat is not None
        if line is not None:
            seat, card = line[step]  # type: ignore[assignment]
        else:
            card = rng.choice(forcing.legal_now())
        for solver in (forcing, plain, exact):
            solver.play(seat, card)  # type: ignore[arg-type]
    return checked, tightened


def small_deals_checked(per_set: int) -> tuple[int, int]:
    """Random lines of ``per_set`` small deals per profile, table size and option
    variant: the trick boundaries checked and those ``forcing`` tightened."""
    rng = random.Random(40)
    checked = tightened = 0
    for _, layout in small_cases(41, per_set, per_hand={2: 5, 3: 4, 4: 3}):
        for perspective in perspectives(layout):
            c, t = _check_line(layout, perspective, rng)
            checked += c
            tightened += t
    return checked, tightened


def six_card_deals_checked(per_size: tuple[int, int, int]) -> tuple[int, int]:
    """Two random lines of generated six-card deals (``per_size``: how many four-,
    three- and two-handed): the trick boundaries checked and those tightened."""
    rng = random.Random(2)
    checked = tightened = 0
    for (profile, players), count in zip((("trinidad14", 4), ("foster", 3),
                                          ("hoffmann1909", 2)), per_size, strict=True):
        for deal in generated_deals(12, profile, players, count):  # random lines
            layout = deal.layout
            assert layout is not None
            for perspective in perspectives(layout):
                for _ in range(2):
                    c, t = _check_line(layout, perspective, rng)
                    checked += c
                    tightened += t
    return checked, tightened


def test_the_bounds_hold_the_exact_value_on_small_deals_under_every_follow_rule() -> None:
    """A deal per set here; three in ``test_bounds_slow.py`` (1,260 boundaries)."""
    checked, tightened = small_deals_checked(1)
    assert checked == 420
    assert tightened >= 30  # the test reaches the new credit


def test_the_bounds_hold_the_exact_value_along_six_card_deals() -> None:
    """Six deals here; sixteen in ``test_bounds_slow.py`` (200 boundaries)."""
    checked, tightened = six_card_deals_checked((2, 1, 3))
    assert checked == 80
    assert tightened >= 3


def test_the_sure_trumps_take_the_cheapest_cards_of_every_other_hand() -> None:
    """Two hands: N holds the two sure trumps (cards 4 and 5) and a card worth 2; S three
    cards worth 3, 10 and 4.  N wins at least two tricks, to which S gives up at least its
    two cheapest cards (7 pips); N's own third card is not in them for sure."""
    from allfours_notation.checking.analysis.bounds import surrendered

    pips = [3, 10, 4, 2, 0, 0]
    extra, won = surrendered([0b111000, 0b000111], [0, 1], [0b110000, 0], pips)
    assert extra == (7, 0)
    assert won == (0b110000, 0)
    # with three sure trumps every card of S is N's
    extra, won = surrendered([0b111000, 0b000111], [0, 1], [0b111000, 0], [3, 10, 4, 0, 0, 0])
    assert extra == (17, 0)
    assert won == (0b111111, 0)


def test_a_run_of_top_trumps_draws_what_the_referee_makes_the_others_play() -> None:
    """N leads its two top trumps (cards 5 and 4): E, holding a trump worth 10 (card 3)
    and a trump worth nothing (card 2) besides a plain card worth 4 (card 0), must follow
    with both trumps when a trump lead binds it to a trump; when any card may be played,
    only its two cheapest cards are sure to go."""
    from allfours_notation.checking.analysis.bounds import led_run

    pips = [4, 0, 0, 10, 0, 0]
    trumps = 0b111100

    def must_trump(pos: int, hand: int, lead: int) -> int:
        return hand & trumps or hand

    def anything(pos: int, hand: int, lead: int) -> int:
        return hand

    hands = [0b110010, 0b001101]
    assert led_run(0, [5, 4], hands, [0, 1], 0b110000, pips, trumps, must_trump) == \
        (10, 0b111100, 2)
    assert led_run(0, [5, 4], hands, [0, 1], 0b110000, pips, trumps, anything) == \
        (4, 0b110000, 2)
