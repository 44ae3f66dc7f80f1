"""Claims, totals and the result against the computed score (AFN4xx)."""

from __future__ import annotations

from pathlib import Path

from allfours_notation.cards import Seat
from allfours_notation.checking.parsing import parse_file
from allfours_notation.diagnostics import Severity
from allfours_notation.referee import check_game, replay
from allfours_notation.referee.disputes import read_result, rules_name
from allfours_notation.referee.profiles import PROFILES
from tests.rules.helpers import EXAMPLE_A, EXAMPLE_C, S_TO_EIGHT, TIE, find, game_text, run

LOW_CAPTURED = """
deal 1 dealer N
  S 9H 8H JS 7C 6D 5D
  N 2H 3H 2D 8C 9C 7D
  turn 4H
  S stands
  1. S:9H N:2H 2. S:8H N:3H 3. S:JS N:2D 4. S:7C N:8C 5. N:9C S:5D 6. N:7D S:6D
"""


def test_low_claimed_by_the_captor() -> None:
    result = run(LOW_CAPTURED.replace("  S stands", "  S stands") + "  claim S high low game\n")
    [dispute] = find(result, "AFN401")
    assert dispute.message == (
        "deal 1: Low claimed by S, computed N: N was dealt 2H, the lowest trump in play; under "
        "hoffmann1909 Low goes to its original holder even though S captured it (the claim is "
        "right under low_owner=trick_winner)")
    text = game_text(LOW_CAPTURED + "  claim S high low game\n")
    assert text.splitlines()[dispute.line - 1].strip().startswith("claim")  # type: ignore[operator]
    assert dispute.deal == 1


def test_a_right_claim_is_silent() -> None:
    assert check_game(run(EXAMPLE_A + "  claim S high low jack game\n  total N 0 S 4\n").game) \
        == []


def test_an_item_not_claimed() -> None:
    result = run(EXAMPLE_A + "  claim S high low game\n")
    [dispute] = find(result, "AFN401")
    assert dispute.message == "deal 1: Jack not claimed, computed S: S won JS in trick 1"


def test_an_item_claimed_that_nobody_scored() -> None:
    result = run(EXAMPLE_C + "  claim N high low jack S game\n")
    [dispute] = find(result, "AFN401")
    assert dispute.message == ("deal 1: Jack claimed by N, computed nobody: the Jack of trumps "
                               "was not in play")


def test_points_that_differ_and_the_option_that_explains_them() -> None:
    result = run(EXAMPLE_A + "  claim S high low jack game 2\n")
    [dispute] = find(result, "AFN401")
    assert dispute.message.startswith("deal 1: Game claimed S 2, computed S 1: ")
    assert dispute.message.endswith("(the claim is right under game_value=2)")


def test_a_claim_right_under_another_profile() -> None:
    wrong = run(TIE + "  claim N game\n")
    [dispute] = find(wrong, "AFN401")
    assert "claimed by N, computed S" in dispute.message
    tie_nobody = run(TIE + "  claim S game\n", tags={"GameTie": "nobody"})
    [other] = find(tie_nobody, "AFN401")
    assert "claimed by S, computed nobody" in other.message
    assert "right under profile hoffmann1909" in other.message


def test_items_after_the_decision_are_not_scored() -> None:
    # a table writes what it took, Game too, after Jack put S out: a note, no dispute
    result = run(S_TO_EIGHT + "  claim S high low jack game\n")
    assert find(result, "AFN401") == []
    [note] = find(result, "AFN408")
    assert note.severity is Severity.INFO
    assert note.message == ("deal 2: claimed after the game was decided (deal 2, at Jack), "
                            "not scored: Game S")
    # claiming it for the wrong side is still a dispute
    wrong = run(S_TO_EIGHT + "  claim S high low jack N game\n")
    [dispute] = find(wrong, "AFN401")
    assert dispute.severity is Severity.DISPUTE
    assert dispute.message.startswith("deal 2: Game claimed by N, computed nobody: not scored, "
                                      "the game was decided first (deal 2, at Jack)")


def test_totals() -> None:
    right = run(EXAMPLE_A + "  total N 0 S 4\n")
    assert find(right, "AFN402") == []
    wrong = run(EXAMPLE_A + "  claim S high low game\n  total N 0 S 3\n")
    [total] = find(wrong, "AFN402")
    assert total.message == ("deal 1: total N 0 S 3, computed N 0 S 4; the difference comes "
                             "from the disputed claim of this deal")
    carried = run(EXAMPLE_A + "  total N 0 S 3\n" + EXAMPLE_C.replace("deal 1", "deal 2")
                  .replace("dealer N", "dealer S").replace("S stands", "N stands")
                  .replace("S K", "N K").replace("N 7S", "S 7S") + "  total N 1 S 5\n")
    assert len(find(carried, "AFN402")) >= 1


def test_partners_either_letter_stands_for_the_side() -> None:
    example_e = Path(__file__).parent / "golden" / "example_e.afn"
    game = parse_file(example_e).games[0]
    assert check_game(game) == []
    text = example_e.read_text(encoding="utf-8").replace("total N 0 E 5", "total S 0 W 5")
    from allfours_notation.checking.parsing import parse

    assert check_game(parse(text).games[0]) == []
    clash = text.replace("total S 0 W 5", "total N 0 E 5 W 4")
    [dispute] = find(replay(parse(clash).games[0]), "AFN402")
    assert "partners' scores differ" in dispute.message


def test_result_tag() -> None:
    assert find(run(S_TO_EIGHT, result="S"), "AFN403") == []
    [wrong] = find(run(S_TO_EIGHT, result="N"), "AFN403")
    assert wrong.message == ('[Result "N"] names N, but S won (deal 2, at Jack; N 0 S 7)')
    [unfinished] = find(run(S_TO_EIGHT, result="*"), "AFN403")
    assert "says unfinished" in unfinished.message
    [too_early] = find(run(EXAMPLE_A, result="S"), "AFN403")
    assert "no side reached 7" in too_early.message
    seats = (Seat.NORTH, Seat.EAST, Seat.SOUTH, Seat.WEST)
    assert read_result("N-S", seats) == (True, "NS")
    assert read_result("W", seats) == (True, "EW")
    assert read_result("?", seats) == (False, None)


def test_rules_name() -> None:
    from dataclasses import replace

    assert rules_name(PROFILES["foster"].options) == "foster"
    assert rules_name(replace(PROFILES["english10"].options, target=11)) == \
        "english10 with target=11"


def test_an_item_claimed_once_per_point() -> None:
    two_jacks = ("deal 1 dealer N\n  turn JC\n  S begs\n  N runs\n  turn JS\n  abandoned\n"
                 "  claim N kick kick\n")
    assert find(run(two_jacks), "AFN401") == []
    assert find(run(two_jacks.replace("kick kick", "kick 2")), "AFN401") == []
    [short] = find(run(two_jacks.replace("kick kick", "kick")), "AFN401")
    assert short.message.startswith("deal 1: Kick (turn-up) claimed N 1, computed N 2")


def test_no_alternative_is_named_when_it_only_ends_the_game_sooner() -> None:
    """Under game_value=2 S would win in deal 2, so deal 3 would score nothing; that must
    not be offered as the rule under which omitting Game is right."""
    from tests.rules.test_rules_section2 import GIFT_AT_SIX

    two_deals = GIFT_AT_SIX.split("deal 3")[0]
    third = """
deal 3 dealer N
  S 9C 8C 7D 3H 2H 2D
  N JS 9H 8H 7C 6D 5D
  turn 4S
  S stands
  1. S:2D N:5D 2. N:JS S:2H 3. N:9H S:3H 4. N:8H S:7D 5. N:7C S:9C 6. S:8C N:6D
  claim N high low jack
"""
    result = run(two_deals + third)
    assert dict(result.deals[1].scores_after) == {"N": 1, "S": 6}
    [dispute] = find(result, "AFN401")
    assert dispute.message == ("deal 3: Game not claimed, computed N: N won the most pips "
                               "toward Game (N 1, S 0)")
