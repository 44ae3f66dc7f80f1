"""docs/rules.md section 3, the turn-up, begging and running: rules 7-15."""

from __future__ import annotations

import pytest

from allfours_notation.cards import Seat
from allfours_notation.referee.replay import StepKind, max_runs, turnup_position
from tests.rules.helpers import EXAMPLE_A, N_AT_SIX, find, items, rules_codes, run


def test_rule_7_turned_jack_scores_the_dealer_at_once() -> None:
    result = run("deal 1 dealer N\n  turn JC\n  S stands\n  abandoned")
    kinds = [s.kind for s in result.steps]
    assert kinds[:4] == [StepKind.DEAL_START, StepKind.TURN_UP, StepKind.AWARD, StepKind.CALL]
    assert items(result) == [("kick", "N", 1)]


def test_rule_7_a_dealer_needing_one_wins_on_the_turn() -> None:
    result = run(N_AT_SIX + "\ndeal 3 dealer N\n  turn JH")
    assert result.winner == "N" and result.decided == "deal 3, at the turn-up"
    assert "AFN304" not in rules_codes(result)  # no play is due once the game is won


def test_rule_8_only_the_elder_stands_or_begs() -> None:
    assert rules_codes(run(EXAMPLE_A)) == []
    wrong = run(EXAMPLE_A.replace("S stands", "N stands"))
    [problem] = find(wrong, "AFN308")
    assert "only the elder hand (S)" in problem.message


def test_rule_9_gift_scores_the_elder_and_the_trump_stands() -> None:
    result = run(EXAMPLE_A.replace("S stands", "S begs\n  N gives"))
    assert items(result)[0] == ("gift", "S", 1)
    assert result.deals[0].trump is not None and result.deals[0].trump.letter == "S"
    assert rules_codes(result) == []


def test_rule_9_running_gives_three_more_and_repeats_on_the_same_suit() -> None:
    result = run("""
deal 1 dealer N
  turn 4S
  S begs
  N runs
  turn 9S
  turn 2H
  abandoned""")
    turns = [s.text for s in result.steps if s.kind is StepKind.TURN_UP]
    assert turns == ["N turns up 4S: spades are trumps",
                     "N turns up 9S (run 1), the same suit: run again",
                     "N turns up 2H (run 2): hearts are trumps"]
    last = result.steps[-2].state
    assert last.trump is not None and last.trump.letter == "H"
    assert last.unknown_count(Seat.SOUTH) == 12  # 6 dealt + 2 runs of 3, none seen
    assert rules_codes(result) == []


def test_rule_9_a_run_that_turns_the_same_suit_must_go_on() -> None:
    result = run("""
deal 1 dealer N
  turn 4S
  S begs
  N runs
  turn 9S
  1. S:2H N:3H""")
    assert any("must run again" in d.message for d in find(result, "AFN309"))


def test_rule_9_give_or_run_only_after_a_beg() -> None:
    result = run(EXAMPLE_A.replace("S stands", "N gives"))
    assert any("nobody has begged" in d.message for d in find(result, "AFN309"))


@pytest.mark.parametrize(("value", "expected"), [
    ("any_turned_jack", [("kick", "N", 1)]),
    ("only_if_trump", []),
    ("never", [])])
def test_rule_10_a_jack_turned_while_running(value: str, expected: list[object]) -> None:
    deal = "deal 1 dealer N\n  turn 4S\n  S begs\n  N runs\n  turn JS\n  turn 5H\n  abandoned"
    assert items(run(deal, tags={"JackOnRun": value})) == expected


@pytest.mark.parametrize(("value", "expected"), [
    ("any_turned_jack", [("kick", "N", 1)]),
    ("only_if_trump", [("kick", "N", 1)]),
    ("never", [])])
def test_rule_10_a_jack_that_becomes_trump(value: str, expected: list[object]) -> None:
    deal = "deal 1 dealer N\n  turn 4S\n  S begs\n  N runs\n  turn JH\n  abandoned"
    assert items(run(deal, tags={"JackOnRun": value})) == expected


BEG_TWICE = "deal 1 dealer N\n  turn 4S\n  S begs\n  N runs\n  turn 5H\n  S begs\n  N gives\n" \
    "  abandoned"


def test_rule_11_one_beg_per_deal() -> None:
    [problem] = find(run(BEG_TWICE), "AFN308")
    assert "one beg per deal" in problem.message


def test_rule_11_more_begs_by_agreement() -> None:
    result = run(BEG_TWICE, tags={"BegsPerDeal": "unlimited"})
    assert rules_codes(result) == []
    assert items(result) == [("gift", "S", 1)]


def test_rule_11_only_the_elder_begs() -> None:
    result = run(EXAMPLE_A.replace("S stands", "N begs\n  N runs\n  turn 2C"))
    assert any("only the elder hand" in d.message for d in find(result, "AFN308"))


GIFT_3 = "deal 1 dealer N\n  turn 4S\n  E begs\n  N gives\n  abandoned"


def test_rule_12_three_players_gift_to_each_adversary() -> None:
    assert items(run(GIFT_3, players=3, rules="foster")) == [("gift", "E", 1), ("gift", "S", 1)]
    assert items(run(GIFT_3, players=3)) == [("gift", "E", 1)]


GIFT_AT_SIX = """
deal 1 dealer N
  S JS 9H 8H 7C 6D 5D
  N 9C 8C 7D 3H 2H 2D
  turn 4S
  S stands
  1. S:JS N:2D 2. S:9H N:3H 3. S:8H N:2H 4. S:7C N:8C 5. N:9C S:5D 6. N:7D S:6D

deal 2 dealer S
  S 7S TH 5D 6C JD 2C
  N KH QH 9D 8C 4C 3D
  turn AS
  N stands
  1. N:KH S:TH 2. N:QH S:7S 3. S:JD N:9D 4. S:5D N:3D 5. S:6C N:8C 6. N:4C S:2C

deal 3 dealer N
  turn 4S
  S begs
  N gives
  abandoned
"""


def test_rule_13_the_gift_that_puts_the_elder_out() -> None:
    allowed = run(GIFT_AT_SIX)
    assert dict(allowed.deals[1].scores_after) == {"N": 1, "S": 6}
    assert allowed.winner == "S" and allowed.decided == "deal 3, at the gift"
    forbidden = run(GIFT_AT_SIX, rules="foster")
    [problem] = find(forbidden, "AFN310")
    assert problem.deal == 3 and "must run the cards" in problem.message
    assert forbidden.winner is None and dict(forbidden.scores) == {"N": 1, "S": 6}


def _runs(count: int, ending: str = "redeal exhausted") -> str:
    spades = ["3S", "4S", "5S", "6S", "7S", "8S", "9S"][:count]
    turns = "\n".join(f"  turn {c}" for c in spades)
    return f"deal 1 dealer N\n  turn 2S\n  S begs\n  N runs\n{turns}\n  {ending}"


def test_rule_14_pack_arithmetic() -> None:
    assert [max_runs(p) for p in (2, 3, 4)] == [5, 3, 2]
    assert [turnup_position(2, r) for r in range(6)] == [13, 20, 27, 34, 41, 48]
    assert [turnup_position(3, r) for r in range(4)] == [19, 29, 39, 49]


def test_rule_14_exhausted_pack_redeals() -> None:
    assert rules_codes(run(_runs(5))) == []
    [early] = find(run(_runs(4)), "AFN311")
    assert "not exhausted" in early.message
    assert "AFN311" in rules_codes(run(_runs(6)))
    missing = run(_runs(5, "abandoned").replace("abandoned", "1. S:2H N:3H"))
    assert any("same dealer deals again" in d.message for d in find(missing, "AFN311"))


def test_rule_14_the_same_dealer_deals_again() -> None:
    again = _runs(5) + "\n\n" + EXAMPLE_A.replace("deal 1", "deal 2")
    assert "AFN312" not in rules_codes(run(again))
    passed = run(again, tags={"PackExhausted": "redeal_next_dealer"})
    assert "AFN312" in rules_codes(passed)


JACK_THEN_BUNCH = "deal 1 dealer N\n  turn 2S\n  S begs\n  N runs\n  turn JS\n  turn 3S\n" \
    "  turn 4S\n  turn 5S\n  turn 6S\n  redeal exhausted"


def test_rule_14_turn_up_points_stand_after_a_redeal() -> None:
    assert dict(run(JACK_THEN_BUNCH).scores) == {"N": 1, "S": 0}
    cancelled = run(JACK_THEN_BUNCH, tags={"KeepTurnupPointsOnRedeal": "no"})
    assert dict(cancelled.scores) == {"N": 0, "S": 0}


def test_rule_15_every_card_is_kept_after_a_run() -> None:
    deal = EXAMPLE_A.replace("S stands", "S begs\n  N runs\n  turn AC")
    [keep] = find(run(deal), "AFN304")
    assert "6 of 9 tricks" in keep.message
    assert "AFN304" not in rules_codes(run(deal, tags={"HandAfterRun": "discard_to_six"}))


def test_rule_7_play_after_the_winning_turn_is_not_scored() -> None:
    result = run(N_AT_SIX + "\ndeal 3 dealer N\n  turn JH\n  S stands\n  1. S:2C N:3C")
    [late] = find(result, "AFN313")
    assert late.trick is None and "decided before play" in late.message
    assert dict(result.scores) == {"N": 7, "S": 1}
