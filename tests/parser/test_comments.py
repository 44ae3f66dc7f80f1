"""Comments survive parsing, attached to the node they stand beside."""

from __future__ import annotations

import dataclasses
from typing import Any, cast

from allfours_notation import parse
from allfours_notation.reading.records import Comment, CommentStyle, Game, Node
from allfours_notation.writing.formatter import format_result

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


# --- comments inside a statement ----------------------------------------------------------

PLAIN = """% AFN 1
[North "A"] [South "B"]
deal 1 dealer N
  S JS 9H 8H 7C 6D 5D
  N 9C 8C 7D ?? 2H 2D
  turn 4S
  S stands
  1. S:JS N:2D
  claim S high low N game jack 2
  total N 0 S 4
end
"""

# The same game with a comment between words of each statement that can be cut.
CUT = """% AFN 1
[North "A"] [South "B"]
deal 1 dealer N
  S JS 9H { after two } 8H 7C 6D 5D
  N 9C 8C ; the rest on the next line
    7D ?? { one unseen } 2H 2D
  turn { trumps } 4S
  S stands
  1. S:JS N:2D
  claim S high { c1 } low ; c2
    N game { c3 } jack { c4 } 2
  total N 0 { c5 } S 4
end
"""


def without_comments(game: Game) -> Game:
    """``game`` with every comment removed, for comparing records."""
    def strip(node: Any) -> Any:
        if isinstance(node, tuple):
            return tuple(strip(item) for item in node)
        if not dataclasses.is_dataclass(node) or isinstance(node, type):
            return node
        changes = {
            f.name: strip(getattr(node, f.name))
            for f in dataclasses.fields(node)
            if f.name not in ("leading", "trailing", "span")
        }
        if isinstance(node, (Node, Game)):
            changes["trailing"] = ()
        if isinstance(node, Node):
            changes["leading"] = ()
        return dataclasses.replace(node, **changes)

    return cast(Game, strip(game))


def test_a_comment_inside_a_statement_changes_nothing_but_the_comments() -> None:
    plain = parse(PLAIN)
    cut = parse(CUT)
    assert plain.ok and cut.ok, cut.diagnostics
    assert [d.code for d in cut.diagnostics] == [d.code for d in plain.diagnostics]
    assert without_comments(cut.games[0]) == without_comments(plain.games[0])
    deal = cut.games[0].deals[0]
    assert [len(hand.cards) for hand in deal.dealt_hands] == [6, 6]


def test_comments_inside_a_statement_lead_it_in_order() -> None:
    """Leading, not trailing: the formatter writes leading comments on lines of their
    own, which is the one place a line comment followed by more comments survives."""
    deal = parse(CUT).games[0].deals[0]
    south, north = deal.dealt_hands
    assert south.leading == (brace(" after two "),)
    assert north.leading == (line(" the rest on the next line"), brace(" one unseen "))
    assert deal.turnups[0].leading == (brace(" trumps "),)
    assert deal.claim is not None and deal.claim.leading == (
        brace(" c1 "), line(" c2"), brace(" c3 "), brace(" c4 "),
    )
    assert deal.total is not None and deal.total.leading == (brace(" c5 "),)
    assert [node.trailing for node in (south, north, deal.claim, deal.total)] == [()] * 4


def test_a_comment_inside_and_one_after_a_statement_keep_their_places() -> None:
    text = '% AFN 1\n[North "A"] [South "B"] deal 1 dealer N\nS JS { in } 9H ; after\nend'
    hand = parse(text).games[0].deals[0].dealt_hands[0]
    assert (hand.leading, hand.trailing) == ((brace(" in "),), (line(" after"),))


def test_a_cut_statement_spans_from_its_first_word_to_its_last() -> None:
    result = parse(CUT)
    deal = result.games[0].deals[0]
    north = deal.dealt_hands[1]
    claim, total, turn = deal.claim, deal.total, deal.turnups[0]
    assert claim is not None and total is not None
    for node, text in (
        (north, "N 9C 8C ; the rest on the next line\n    7D ?? { one unseen } 2H 2D"),
        (turn, "turn { trumps } 4S"),
        (claim, "claim S high { c1 } low ; c2\n    N game { c3 } jack { c4 } 2"),
        (total, "total N 0 { c5 } S 4"),
    ):
        assert node.span is not None
        assert result.text[node.span.start : node.span.end] == text
    assert north.span is not None and (north.span.line, north.span.end_line) == (5, 6)


def test_a_card_after_a_comment_continues_the_hand_it_follows() -> None:
    """Not a play: a bare card right after a hand belongs to the hand, comment or not."""
    text = "% AFN 1\n[North \"A\"] [South \"B\"] deal 1 dealer N S JS 9H { c } 8H 7C 6D 5D end"
    deal = parse(text).games[0].deals[0]
    assert deal.tricks == ()
    assert [str(card) for card in deal.dealt_hands[0].cards] == ["JS", "9H", "8H", "7C", "6D", "5D"]


def test_comments_inside_statements_survive_a_format_round_trip() -> None:
    first = parse(CUT)
    text = format_result(first)
    again = parse(text)
    assert again.ok, again.diagnostics
    assert again.games == first.games
    assert format_result(again) == text


def test_a_claim_word_cut_off_by_a_comment_is_blamed_where_it_stands() -> None:
    text = (
        '% AFN 1\n[North "A"] [South "B"]\n'
        "deal 1 dealer N\nclaim S high { c }\n  low 3 3\nend"
    )
    result = parse(text)
    (error,) = [d for d in result.diagnostics if d.code == "AFN213"]
    assert (error.line, error.column, error.end_column) == (5, 9, 10)
