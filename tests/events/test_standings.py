"""The knock-out bracket seeded from the standings."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from allfours_notation.events.assemble import MatchResult
from allfours_notation.events.eventfile import read_event_text
from allfours_notation.events.standings import Bracket, Row, Table, bracket, seed_order
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


def played(round_name: str, home: str, away: str, winner: str | None,
           finished: bool = True) -> MatchResult:
    points = (18, 12) if winner == home else (12, 18)
    return MatchResult(round_name, home, away, (), (), *points, 0, 0, winner, finished, None)


FOUR = GOOD.replace("[match]", '[knockout]\nteams = 4\nrounds = ["SF", "F"]\n\n[match]')


def four_team_bracket(teams: int, matches: list[MatchResult]) -> Bracket:
    found = read_event_text(FOUR.replace('[[round]]\nname = "1"', '[[round]]\nname = "SF"\n\n'
                                         '[[round]]\nname = "F"\n\n[[round]]\nname = "1"'))
    assert found.event is not None and not found.has_errors, found.diagnostics
    rows = tuple(Row(f"T{n}", "A", 0, 0, 0, 0, 0, 0, 0, 0, 0) for n in range(1, teams + 1))
    seeded = bracket(found.event, (Table("Division A", rows),), matches)
    assert seeded is not None
    return seeded


def test_the_bracket_carries_the_winners_forward_to_the_final() -> None:
    seeded = four_team_bracket(4, [played("SF", "T1", "T4", "T4"),
                                   played("SF", "T3", "T2", "T2"),  # either team at home
                                   played("1", "T2", "T4", "T2"),  # not a knock-out round
                                   played("F", "T4", "T2", "T4")])
    (semis_name, semis), (final_name, (final,)) = seeded.rounds
    assert (semis_name, final_name) == ("SF", "F")
    assert [tie.winner for tie in semis] == [(4, "T4"), (2, "T2")]
    assert final.entrants == ((2, "T2"), (4, "T4")) and final.winner == (4, "T4")
    assert seeded.champion == (4, "T4")
    assert final.outcome == "T4 18–12 T2: T4 goes through"
    shown = seeded.as_json()
    assert shown["champion"] == {"seed": 4, "team": "T4"}
    assert shown["rounds"][1]["ties"][0]["match"]["bullseyes"] == [18, 12]  # type: ignore[index]


def test_a_tie_not_played_or_not_over_leaves_its_place_to_be_decided() -> None:
    seeded = four_team_bracket(4, [played("SF", "T1", "T4", "T1"),
                                   played("SF", "T2", "T3", "T2", finished=False)])
    (_, semis), (_, (final,)) = seeded.rounds
    assert semis[1].winner is None and semis[1].outcome == "T2 18–12 T3: not over"
    assert final.entrants == ((1, "T1"), (None, None)) and final.winner is None
    assert final.outcome == "waiting" and seeded.champion is None


def test_a_missing_seed_is_a_bye_into_the_next_round() -> None:
    seeded = four_team_bracket(3, [played("SF", "T2", "T3", "T3")])
    (_, (bye, semi)), (_, (final,)) = seeded.rounds
    assert semi.winner == (3, "T3")
    assert bye.winner == (1, "T1") and bye.outcome == "a bye" and bye.match is None
    assert final.entrants == ((1, "T1"), (3, "T3"))
    assert final.outcome == "not played yet"
