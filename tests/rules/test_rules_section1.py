"""docs/rules.md section 2, Setup: rules 1-6."""

from __future__ import annotations

import pytest

from allfours_notation.cards import FULL_PACK, Rank, Seat, card
from allfours_notation.referee import trick_winner
from allfours_notation.referee.replay import StepKind
from tests.rules.helpers import (
    EXAMPLE_A,
    EXAMPLE_C,
    S_TO_EIGHT,
    find,
    items,
    rules_codes,
    run,
)


def test_rule_1_standard_pack_ace_high() -> None:
    assert len(set(FULL_PACK)) == 52
    spades = card("AS").suit
    assert trick_winner([(Seat.NORTH, card("KS")), (Seat.SOUTH, card("AS"))], None) is Seat.SOUTH
    assert trick_winner([(Seat.NORTH, card("2H")), (Seat.SOUTH, card("3H"))], spades) \
        is Seat.SOUTH
    assert [r.pips for r in (Rank.TEN, Rank.ACE, Rank.KING, Rank.QUEEN, Rank.JACK, Rank.NINE)] \
        == [10, 4, 3, 2, 1, 0]


@pytest.mark.parametrize(("players", "sides"), [
    (2, ("N", "S")), (3, ("N", "E", "S")), (4, ("NS", "EW"))])
def test_rule_2_players_and_partnerships(players: int, sides: tuple[str, ...]) -> None:
    result = run("deal 1 dealer N\n  turn 4S\n  abandoned", players=players)
    assert tuple(side for side, _ in result.scores) == sides
    assert result.steps[0].state.seats[0] is Seat.NORTH


def test_rule_3_target_seven_wins_the_game() -> None:
    result = run(S_TO_EIGHT)
    assert result.winner == "S"
    assert dict(result.scores) == {"N": 0, "S": 7}


def test_rule_4_the_deal_passes_in_turn() -> None:
    assert "AFN312" not in rules_codes(run(S_TO_EIGHT))
    twice = run(EXAMPLE_A + EXAMPLE_A.replace("deal 1", "deal 2"))
    [problem] = find(twice, "AFN312")
    assert problem.deal == 2 and "should pass to S" in problem.message
    first_by_south = run(EXAMPLE_A.replace("dealer N", "dealer S").replace("S stands",
                                                                          "N stands"))
    assert "AFN312" not in rules_codes(first_by_south)


@pytest.mark.parametrize(("players", "rules", "elder"), [
    (2, "hoffmann1909", Seat.SOUTH), (3, "hoffmann1909", Seat.EAST),
    (4, "hoffmann1909", Seat.EAST), (4, "trinidad14", Seat.WEST)])
def test_rule_5_elder_hand(players: int, rules: str, elder: Seat) -> None:
    result = run("deal 1 dealer N\n  turn 4S\n  abandoned", players=players, rules=rules)
    assert result.steps[0].state.elder is elder
    assert result.steps[0].state.to_move is None


def test_rule_5_the_elder_leads_the_first_trick() -> None:
    wrong = EXAMPLE_A.replace("1. S:JS N:2D", "1. N:2D S:JS")
    [problem] = find(run(wrong), "AFN303")
    assert problem.trick == 1 and "S should lead" in problem.message


def test_rule_6_six_each_and_the_turn_up_is_in_no_hand() -> None:
    result = run(EXAMPLE_C)
    start = result.steps[0].state
    assert all(len(start.hand(seat)) == 6 for seat in start.seats)
    assert card("AS") not in {c for seat in start.seats for c in start.hand(seat)}
    assert [(i, side) for i, side, _ in items(result)][:2] == [("high", "N"), ("low", "N")]


def test_rule_6_six_tricks_a_deal() -> None:
    short = run(EXAMPLE_A.replace("  6. N:7D S:6D\n", ""))
    [problem] = find(short, "AFN304")
    assert "5 of 6" in problem.message
    assert sum(1 for s in run(EXAMPLE_A).steps if s.kind is StepKind.TRICK_END) == 6
