"""The long comparison with exhaustive minimax (marked ``slow``: ``pytest -m slow``).

2,100 small deals (25 per profile, table size and option variant: 3,500 values, a
three-handed deal has one per seat) against the plain brute force, and 200 full six-card
two-handed deals (50 per profile) against the memoised one.  About two minutes on one
core."""

from __future__ import annotations

from allfours_notation.referee import PROFILES

from .brute import memo_brute_value
from .cases import generated_deals
from .test_solver import check_small, total


def test_2100_small_deals_match_brute_force() -> None:
    assert check_small(seed=101, per_set=25) == 3500


def test_200_six_card_two_handed_deals_match_brute_force() -> None:
    count = 0
    for profile in PROFILES:
        for deal in generated_deals(17, profile, 2, 50):
            assert deal.layout is not None
            assert total(deal.layout, None) == memo_brute_value(deal.layout, None), \
                (profile, deal.number)
            count += 1
    assert count == 200
