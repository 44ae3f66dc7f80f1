"""Issue 10 item 1: a record that starts part-way through a game ([Score] tag)."""

from __future__ import annotations

import pytest

from allfours_notation.checking.parsing import parse
from allfours_notation.writing.formatter import format_result
from tests.rules.helpers import EXAMPLE_A, find, game_text, run


def test_a_game_starts_from_the_score_tag() -> None:
    # Example A scores S High, Low, Jack, Game = 4; from N 2 S 2 S reaches 6.
    replayed = run(EXAMPLE_A, tags={"Score": "N 2 S 2"})
    assert dict(replayed.scores) == {"N": 2, "S": 6}
    assert replayed.winner is None
    assert not find(replayed, "AFN505")


def test_without_the_tag_the_game_starts_at_nothing_all() -> None:
    assert dict(run(EXAMPLE_A).scores) == {"N": 0, "S": 4}


def test_the_deal_that_passes_the_target_from_the_start_decides_the_game() -> None:
    # S at 5 needs two: High and Low take S to 7 and Jack and Game are not scored.
    replayed = run(EXAMPLE_A, tags={"Score": "S 5"})
    assert replayed.winner == "S"
    assert dict(replayed.scores) == {"N": 0, "S": 7}
    assert [p.item.value for p in replayed.deals[0].points if p.side == "S"][:2] == \
        ["high", "low"]


def test_four_players_name_a_side_by_either_letter_or_its_name() -> None:
    deals = """
deal 1 dealer N
  turn 4S
  E stands
"""
    for text in ("N 12 E 13", "NS 12 EW 13", "S 12 W 13"):
        replayed = run(deals, players=4, rules="trinidad14", tags={"Score": text})
        assert dict(replayed.scores) == {"NS": 12, "EW": 13}, text


@pytest.mark.parametrize(
    ("value", "why"),
    [
        ("N 12", "already reached the target 7"),
        ("N twelve", "'twelve' is not a whole number"),
        ("N 1 S", "pairs"),
        ("E 1", "'E' is not a side at this table"),
        ("N 1 N 2", "N is given twice"),
        ("", "no scores are given"),
    ],
)
def test_a_bad_score_tag_is_afn505_at_the_tag_and_the_game_starts_from_0(
        value: str, why: str) -> None:
    replayed = run(EXAMPLE_A, tags={"Score": value})
    problems = find(replayed, "AFN505")
    assert len(problems) == 1
    assert why in problems[0].message
    assert problems[0].line == 9  # the tag's own line
    assert dict(replayed.scores) == {"N": 0, "S": 4}


def test_the_formatter_keeps_the_score_tag() -> None:
    text = game_text(EXAMPLE_A, tags={"Score": "N 2 S 2"})
    formatted = format_result(parse(text))
    assert '[Score "N 2 S 2"]' in formatted
    assert parse(formatted).games[0].tag("Score") == "N 2 S 2"
