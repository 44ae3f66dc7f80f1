"""``format_game(as_recorded=True)``: lax text for generated corpora, still lossless."""

from __future__ import annotations

from allfours_notation import format_game, parse

LAX = """[Event "lax"] [North "A"] [South "B"]
deal 1 dealer N
  turn 4S S stands
  JS 2D 9H 3H
end
"""


def test_as_recorded_keeps_labels_and_numbers_out() -> None:
    (game,) = parse(LAX).games
    text = format_game(game, as_recorded=True)
    assert "  JS 2D\n  9H 3H\n" in text
    assert parse(text).games == (game,)


def test_canonical_form_adds_them() -> None:
    (game,) = parse(LAX).games
    assert "  1. S:JS N:2D\n  2. S:9H N:3H\n" in format_game(game)
