"""A penalty is written where it was called, among the tricks (NOTATION.md §4.5; issue 25)."""

from __future__ import annotations

from allfours_notation.checking.parsing import parse
from allfours_notation.writing.formatter import format_game

TEXT = """% AFN 1
[Rules "hoffmann1909"]
[North "A"]
[South "B"]

deal 1 dealer N
  turn 4S
  S stands
  penalty N other
  1. S:JS N:2D
  penalty S other
  2. S:9H
  penalty N revoke
  N:3H
  3. S:8H N:7H
  penalty S undertrump
end
"""


def test_penalties_stay_where_they_were_called_and_formatting_is_stable() -> None:
    game = parse(TEXT).games[0]
    assert [p.after_plays for p in game.deals[0].penalties] == [0, 2, 3, 6]
    text = format_game(game)
    lines = [line.strip() for line in text.splitlines()]
    at = lines.index
    assert at("penalty N other") < at("1. S:JS N:2D") < at("penalty S other") < \
        at("2. S:9H N:3H") < at("penalty N revoke") < at("3. S:8H N:7H") < \
        at("penalty S undertrump")  # one called mid-trick goes after its trick
    again = parse(text).games[0]
    assert again == game and format_game(again) == text


def test_a_penalty_after_the_tricks_is_written_after_them_as_before() -> None:
    text = TEXT.replace("  penalty S other\n", "").replace("  penalty N revoke\n", "")
    moved = text.replace("  penalty N other\n", "").replace(
        "end\n", "  penalty N other\nend\n")
    game = parse(moved).games[0]
    assert format_game(game).index("penalty N other") > format_game(game).index("3. S:8H")
