"""The knock-out bracket seeded from the standings."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from allfours_notation.events.eventfile import read_event_text
from allfours_notation.events.standings import Row, Table, bracket, seed_order
from tests.events.test_eventfile import GOOD


@given(st.integers(1, 6))
def test_seeds_meet_their_mirror_and_the_top_seeds_meet_last(power: int) -> None:
    size = 2 ** power
    order = seed_order(size)
    assert sorted(order) == list(range(1, size + 1))
    for first, second in zip(order[::2], order[1::2], strict=True):
        assert first + second == size + 1  # 1 v 8, 4 v 5, 3 v 6, 2 v 7
    half = size // 2
    assert 1 in order[:half] and 2 in order[half:]  # 1 and 2 only in the final


def test_the_issue_s_eight_team_order() -> None:
    pairs = list(zip(seed_order(8)[::2], seed_order(8)[1::2], strict=True))
    assert [tuple(sorted(p)) for p in pairs] == [(1, 8), (4, 5), (3, 6), (2, 7)]


@pytest.mark.parametrize(("teams", "byes"), [(8, 0), (6, 2), (3, 4)])
def test_a_bracket_seeds_the_ranking_and_gives_missing_seeds_as_byes(teams: int,
                                                                       byes: int) -> None:
    event = read_event_text(GOOD.replace("[match]", "[knockout]\nteams = 8\n\n[match]")).event
    assert event is not None
    rows = tuple(Row(f"T{n}", "A", 0, 0, 0, 0, 0, 0, 0, 0, 0) for n in range(1, teams + 1))
    seeded = bracket(event, (Table("Division A", rows),))
    assert seeded is not None and seeded.source == "Division A"
    assert seeded.pairs[0] == ((1, "T1"), (8, "T8" if teams >= 8 else None))
    assert sum(1 for _, (_, other) in seeded.pairs if other is None) == byes  # 4 v 5 empty
    assert bracket(read_event_text(GOOD).event, (Table("Division A", rows),)) is None  # type: ignore[arg-type]
