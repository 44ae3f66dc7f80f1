"""docs/rules.md section 4, play: rules 16-20."""

from __future__ import annotations

from allfours_notation.cards import Seat, card, cards
from allfours_notation.checking.parsing import parse
from allfours_notation.referee import Options, legal_cards, replay, trick_winner
from allfours_notation.referee.profiles import FollowRule
from tests.rules.helpers import (
    EXAMPLE_A,
    EXAMPLE_C,
    REVOKE_BY_S,
    find,
    game_text,
    items,
    rules_codes,
    run,
)


def test_rule_16_the_winner_of_a_trick_leads_the_next() -> None:
    assert rules_codes(run(EXAMPLE_C)) == []
    wrong = EXAMPLE_C.replace("3. N:JD S:9D", "3. S:9D N:JD")
    [problem] = find(run(wrong), "AFN303")
    assert problem.trick == 3 and "winner of the last trick leads" in problem.message


def test_rule_16_out_of_turn() -> None:
    wrong = EXAMPLE_C.replace("3. N:JD S:9D", "3. N:JD N:9D")
    [problem] = find(run(wrong), "AFN302")
    assert problem.trick == 3 and "N has already played to this trick" in problem.message


def test_rule_17_trumping_is_allowed_while_holding_the_suit() -> None:
    hearts = card("2H").suit
    hand = cards("3H TS 5C")
    assert card("3H") in legal_cards(hand, [(Seat.NORTH, card("AS"))], hearts, Options())
    assert card("5C") not in legal_cards(hand, [(Seat.NORTH, card("AS"))], hearts, Options())


def test_rule_17_when_trumps_are_led_a_trump_must_be_played() -> None:
    hearts = card("2H").suit
    led = [(Seat.NORTH, card("AH"))]
    assert legal_cards(cards("3H TS 5C"), led, hearts, Options()) == frozenset(cards("3H"))
    assert legal_cards(cards("TS 5C"), led, hearts, Options()) == frozenset(cards("TS 5C"))


def test_rule_18_revoke_with_hands_recorded() -> None:
    result = run(REVOKE_BY_S)
    [revoke] = find(result, "AFN306")
    assert (revoke.deal, revoke.trick) == (1, 3)
    assert "S plays 8C on diamonds led" in revoke.message and "hand as dealt" in revoke.message
    text = game_text(REVOKE_BY_S)
    line = text.splitlines()[revoke.line - 1]  # type: ignore[operator]
    assert line[revoke.column - 1:].startswith("S:8C")  # type: ignore[operator]
    # the card stands as played: N wins the trick with JD
    assert result.deals[0].tricks[2][1] is Seat.NORTH
    assert ("penalty", "N", 1) in items(result)


def test_rule_18_revoke_proven_by_a_later_play() -> None:
    unrecorded = "\n".join(line for line in REVOKE_BY_S.splitlines()
                           if not line.startswith(("  S K", "  N 7")))
    [revoke] = find(run(unrecorded), "AFN306")
    assert revoke.trick == 3
    assert "proved when S plays it in trick 4" in revoke.message


def test_rule_18_no_revoke_without_proof() -> None:
    """Hands unknown and the deal stops before the offender plays the suit again."""
    stopped = "deal 1 dealer N\n  turn AS\n  S stands\n  1. S:KH N:TH 2. S:QH N:7S 3. N:JD S:8C" \
        "\n  abandoned"
    assert "AFN306" not in rules_codes(run(stopped))


def test_rule_19_highest_trump_else_highest_of_the_suit_led() -> None:
    spades = card("2S").suit
    plays = [(Seat.NORTH, card("KH")), (Seat.EAST, card("AD")), (Seat.SOUTH, card("2S")),
             (Seat.WEST, card("AH"))]
    assert trick_winner(plays, spades) is Seat.SOUTH
    assert trick_winner(plays, None) is Seat.WEST
    assert trick_winner(plays[:2], spades) is Seat.NORTH  # an off-suit ace does not win


UNDERTRUMP = """
deal 1 dealer N
  W 9S 8S 7S 6S 5S 9H
  S 2D 3D 8H 7H 6H 5H
  E QD 9C 8C 7C 6C 5C
  N 3S 4S 4H 4C 2S 2H
  turn 6D
  W stands
  1. W:9S S:2D E:QD N:3S
"""


def test_rule_20_undertrumping_forbidden_in_trinidad() -> None:
    """Anticlockwise: W leads, S trumps with 2D, E plays a higher trump (fine) …"""
    fine = run(UNDERTRUMP + "  abandoned", players=4, rules="trinidad14")
    assert "AFN307" not in rules_codes(fine)
    under = UNDERTRUMP.replace("S:2D E:QD N:3S", "S:3D E:QD N:3S").replace(
        "E QD 9C", "E 2D 9C").replace("E:QD", "E:2D").replace("S 2D 3D", "S QD 3D")
    result = run(under + "  abandoned", players=4, rules="trinidad14")
    [problem] = find(result, "AFN307")
    assert problem.trick == 1 and "E plays 2D under a higher trump" in problem.message
    assert "AFN307" not in rules_codes(run(under + "  abandoned", players=4,
                                           rules="trinidad14",
                                           tags={"FollowRule": "follow_or_trump"}))


def test_rule_20_undertrump_allowed_when_down_to_trumps() -> None:
    hearts = card("2H").suit
    trick = [(Seat.WEST, card("9S")), (Seat.SOUTH, card("QH"))]
    strict = Options(follow_rule=FollowRule.NO_UNDERTRUMP)
    assert legal_cards(cards("2H 3H"), trick, hearts, strict) == frozenset(cards("2H 3H"))
    assert legal_cards(cards("2H 5C"), trick, hearts, strict) == frozenset(cards("5C"))
    assert legal_cards(cards("2H KH 5C"), trick, hearts, strict) == frozenset(cards("KH 5C"))


def test_a_card_not_held() -> None:
    result = run(EXAMPLE_A.replace("6. N:7D S:6D", "6. N:7D S:AD"))
    [problem] = find(result, "AFN301")
    assert problem.trick == 6 and "does not hold" in problem.message
    parsed = parse(game_text(EXAMPLE_A.replace("4. S:7C N:8C", "4. S:7C N:6D")))
    assert [d.code for d in parsed.diagnostics if d.is_error] == ["AFN201"]
    other = replay(parsed.games[0])
    assert any("was dealt to S" in d.message for d in find(other, "AFN301"))


def test_a_card_played_twice_is_the_parsers_alone() -> None:
    text = game_text(EXAMPLE_A.replace("6. N:7D S:6D", "6. N:7D S:5D"))
    parsed = parse(text)
    assert [d.code for d in parsed.diagnostics if d.is_error] == ["AFN201"]
    result = replay(parsed.games[0])
    assert not [d for d in result.diagnostics if "twice" in d.message]


def test_too_many_tricks() -> None:
    [problem] = find(run(EXAMPLE_A + "  7. S:AD N:AC\n"), "AFN305")
    assert problem.trick == 7
