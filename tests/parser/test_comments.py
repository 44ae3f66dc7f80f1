"""Comments survive parsing, attached to the node they stand beside."""

from __future__ import annotations

from allfours_notation import parse
from allfours_notation.records import Comment, CommentStyle

TEXT = """% AFN 1
{ before the game }
[Event "x"] ; after the tag
[North "A"] [South "B"]
deal 1 dealer N
  S JS 9H ; the hand
  N 2D 3D
  turn 4S { trumps } S stands
  1. S:JS {lead} N:2D!
  2. S:9H N:3D ; last
  claim S high
{ end of game }
end
; after everything
"""


def brace(text: str) -> Comment:
    return Comment(text, CommentStyle.BRACE)


def line(text: str) -> Comment:
    return Comment(text, CommentStyle.LINE)


def test_each_comment_lands_on_its_neighbour() -> None:
    result = parse(TEXT)
    (game,) = result.games
    event = game.tags[0]
    assert event.leading == (brace(" before the game "),)
    assert event.trailing == (line(" after the tag"),)
    deal = game.deals[0]
    south_hand = deal.dealt_hands[0]
    assert south_hand.trailing == (line(" the hand"),)
    turn = deal.turnups[0]
    assert turn.leading == () and turn.trailing == ()
    stands = deal.calls[0]
    assert stands.leading == (brace(" trumps "),)  # another node follows on its line
    assert deal.tricks[0].plays[1].leading == (brace("lead"),)
    assert deal.tricks[1].plays[1].trailing == (line(" last"),)
    assert game.trailing == (brace(" end of game "),)
    assert result.trailing == (line(" after everything"),)


def test_comments_take_part_in_equality() -> None:
    assert parse(TEXT).games != parse(TEXT.replace("lead", "led")).games
    assert parse(TEXT).games == parse(TEXT.replace("  ", " ")).games
