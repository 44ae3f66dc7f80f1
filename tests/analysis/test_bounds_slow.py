"""The early stop's bounds against exact values at full size (marked ``slow``: ``pytest
-m slow``): three small deals per profile, table size and option variant and sixteen
generated six-card deals, where ``test_bounds.py`` checks one and six (about 3 s)."""

from __future__ import annotations

from .test_bounds import six_card_deals_checked, small_deals_checked


def test_the_bounds_hold_the_exact_value_on_small_deals_under_every_follow_rule() -> None:
    checked, tightened = small_deals_checked(3)
    assert checked == 1260
    assert tightened >= 100  # the test reaches the new credit


def test_the_bounds_hold_the_exact_value_along_six_card_deals() -> None:
    checked, tightened = six_card_deals_checked((6, 2, 8))
    assert checked == 200
    assert tightened >= 3
