"""docs/rules.md section 5, scoring a deal: rules 21-30."""

from __future__ import annotations

import pytest

from allfours_notation.cards import Seat, card
from allfours_notation.reading.records import ClaimItem
from allfours_notation.referee import Options, Point
from allfours_notation.referee.profiles import TurnupPoints
from allfours_notation.referee.scoring import count_in_order, kick_value
from tests.rules.helpers import (
    EXAMPLE_A,
    EXAMPLE_C,
    REVOKE_BY_S,
    S_TO_EIGHT,
    TIE,
    find,
    items,
    rules_codes,
    run,
)

# N (dealt 2H, the lowest trump) loses it to S in trick 1; S holds the highest.
LOW_CAPTURED = """
deal 1 dealer N
  S 9H 8H JS 7C 6D 5D
  N 2H 3H 2D 8C 9C 7D
  turn 4H
  S stands
  1. S:9H N:2H 2. S:8H N:3H 3. S:JS N:2D 4. S:7C N:8C 5. N:9C S:5D 6. N:7D S:6D
"""


def test_rule_21_high_to_the_original_holder() -> None:
    assert items(run(LOW_CAPTURED))[0] == ("high", "S", 1)
    high = run(LOW_CAPTURED).deals[0].points[0]
    assert high.reason == "S was dealt 9H, the highest trump in play"


def test_rule_22_low_to_the_original_holder_even_if_captured() -> None:
    [low] = [p for p in run(LOW_CAPTURED).deals[0].points if p.item is ClaimItem.LOW]
    assert (low.side, low.reason) == ("N", "N was dealt 2H, the lowest trump in play")


def test_rule_22_low_to_the_trick_winner_by_option() -> None:
    result = run(LOW_CAPTURED, tags={"LowOwner": "trick_winner"})
    [low] = [p for p in result.deals[0].points if p.item is ClaimItem.LOW]
    assert (low.side, low.reason) == ("S", "S won 2H, the lowest trump in play, in trick 1")


def test_rule_22_a_lone_trump_is_high_and_low() -> None:
    assert [i for i, side, _ in items(run(EXAMPLE_C)) if side == "N"] == ["high", "low"]


def test_rule_23_turned_jack_goes_to_the_dealer_not_as_jack() -> None:
    result = run("deal 1 dealer N\n  turn JS\n  S stands\n" + EXAMPLE_A.split("S stands\n")[1]
                 .replace("S:JS", "S:4S"), )
    assert ("kick", "N", 1) in items(result)
    assert "jack" not in [i for i, _, _ in items(result)]


def test_rule_23_jack_to_the_winner_of_its_trick() -> None:
    captured = EXAMPLE_C.replace("turn AS", "turn AD")  # diamonds: N leads JD, S plays 9D
    result = run(captured)
    assert ("jack", "N", 1) in items(result)
    stolen = run(LOW_CAPTURED.replace("turn 4H", "turn 4S"))  # S wins JS: its own
    assert ("jack", "S", 1) in items(stolen)


def test_rule_23_jack_not_in_play_scores_nobody() -> None:
    assert "jack" not in [i for i, _, _ in items(run(EXAMPLE_C))]


def test_rule_23_hang_jack_in_trinidad() -> None:
    from pathlib import Path

    from allfours_notation.checking.parsing import parse_file
    from allfours_notation.referee import replay

    example_f = Path(__file__).parent / "golden" / "example_f.afn"
    game = parse_file(example_f).games[0]
    assert ("hangjack", "EW", 3) in items(replay(game))
    off = replay(game, Options(target=14, players=4, direction=replay(game).options.direction))
    assert ("jack", "EW", 1) in items(off)


def test_rule_24_game_to_the_most_pips() -> None:
    [game] = [p for p in run(EXAMPLE_C).deals[0].points if p.item is ClaimItem.GAME]
    assert (game.side, game.reason) == ("S", "S won the most pips toward Game (N 3, S 13)")


def test_rule_24_equal_pips_to_the_elder_or_nobody() -> None:
    tie = run(TIE)
    assert items(tie) == [("game", "S", 1)]
    assert "the pips are equal (N 10, S 10)" in tie.deals[0].points[0].reason
    assert items(run(TIE, tags={"GameTie": "nobody"})) == []


def test_rule_24_no_counting_card_to_the_elder() -> None:
    blank = TIE.replace("TH", "9H").replace("TS", "8S")
    result = run(blank)
    assert items(result) == [("game", "S", 1)]
    assert "no counting card" in result.deals[0].points[0].reason


def test_rule_24_game_worth_two() -> None:
    assert items(run(EXAMPLE_A, tags={"GameValue": "2"}))[-1] == ("game", "S", 2)


def test_rule_25_counting_order_and_the_race() -> None:
    result = run(S_TO_EIGHT)
    assert result.decided == "deal 2, at Jack"
    assert [p.item.value for p in result.deals[1].unscored] == ["game"]
    assert [s for s in result.steps if s.kind.value == "award"][-1].text.startswith("S scores Jack")


def test_rule_25_high_before_low() -> None:
    scores = {"N": 6, "S": 6}
    points = [Point("S", Seat.SOUTH, ClaimItem.HIGH, 1, "high"),
              Point("N", Seat.NORTH, ClaimItem.LOW, 1, "low")]
    scored, decider = count_in_order(points, scores, Options())
    assert decider is not None and decider.side == "S" and len(scored) == 1
    assert scores == {"N": 6, "S": 7}


@pytest.mark.parametrize(("turned", "rule", "points"), [
    ("AD", "trinidad", 1), ("6D", "trinidad", 2), ("JD", "trinidad", 3), ("2D", "trinidad", 0),
    ("AD", "tobago", 1), ("2D", "tobago", 2), ("JD", "tobago", 3), ("6D", "tobago", 0),
    ("JD", "jack1", 1), ("AD", "jack1", 0)])
def test_rule_26_kicks(turned: str, rule: str, points: int) -> None:
    assert kick_value(card(turned), Options(turnup_points=TurnupPoints(rule))) == points


def test_rule_26_kicks_on_run_turn_ups() -> None:
    deal = "deal 1 dealer N\n  turn 4S\n  W begs\n  N runs\n  turn AS\n  turn 6H\n  abandoned"
    assert items(run(deal, players=4, rules="trinidad14")) == [("kick", "NS", 1),
                                                               ("kick", "NS", 2)]


def test_rule_27_revoke_penalty_default() -> None:
    result = run(REVOKE_BY_S)
    assert items(result) == [("high", "N", 1), ("low", "N", 1), ("game", "S", 1),
                             ("penalty", "N", 1)]


def test_rule_27_foster_graded() -> None:
    result = run(REVOKE_BY_S, rules="foster")
    assert items(result) == [("high", "N", 1), ("low", "N", 1), ("penalty", "N", 1)]
    jack_in_play = run(REVOKE_BY_S.replace("turn AS", "turn AD"), rules="foster")
    assert ("penalty", "N", 2) in items(jack_in_play)


def test_rule_27_foster_revoker_cannot_go_out() -> None:
    scores = {"N": 6, "S": 0}
    points = [Point("N", Seat.NORTH, ClaimItem.HIGH, 1, "high")]
    scored, decider = count_in_order(points, scores, Options(), capped={"N"})
    assert decider is None and scores["N"] == 6 and len(scored) == 1


@pytest.mark.parametrize(("value", "winner"), [("opponent_plus_14", "N"), ("game_lost", "N")])
def test_rule_27_heavier_revoke_penalties(value: str, winner: str) -> None:
    result = run(REVOKE_BY_S, tags={"RevokePenalty": value})
    assert result.winner == winner and result.decided == "deal 1, at a penalty"


def test_rule_27_penalty_timing() -> None:
    assert items(run(REVOKE_BY_S, tags={"PenaltyTiming": "before_high"}))[0] == \
        ("penalty", "N", 1)


def test_rule_27_a_declared_revoke_is_penalised_once() -> None:
    declared = run(REVOKE_BY_S + "  penalty S revoke\n")
    assert [i for i, _, _ in items(declared)].count("penalty") == 1
    unproven = run(EXAMPLE_A + "  penalty N revoke\n")
    assert ("penalty", "S", 1) in items(unproven)
    assert "AFN315" in rules_codes(unproven)


@pytest.mark.parametrize(("rules", "points"), [("hoffmann1909", 1), ("english10", 4)])
def test_rule_28_scoring_wrongly(rules: str, points: int) -> None:
    result = run(EXAMPLE_A + "  penalty N wrongscore\n", rules=rules)
    assert items(result)[-1] == ("penalty", "S", points)


MISDEAL = "deal 1 dealer N\n  redeal misdeal\n"


def test_rule_29_misdeal_new_deal_by_the_same_dealer() -> None:
    result = run(MISDEAL + EXAMPLE_A.replace("deal 1", "deal 2"))
    assert "AFN312" not in rules_codes(result) and result.deals[0].points == ()


def test_rule_29_misdeal_in_trinidad_costs_a_point_and_the_deal_passes() -> None:
    result = run(MISDEAL + "\ndeal 2 dealer W\n  turn 4S\n  abandoned", players=4,
                 rules="trinidad14")
    assert items(result) == [("penalty", "EW", 1)]
    assert "AFN312" not in rules_codes(result)
    stays = run(MISDEAL + "\ndeal 2 dealer N\n  turn 4S\n  abandoned", players=4,
                rules="trinidad14")
    assert "AFN312" in rules_codes(stays)


def test_rule_30_at_most_five_a_deal_by_default() -> None:
    """The invariant on the examples; the property tests check it on generated games."""
    for text in (EXAMPLE_A, EXAMPLE_C, TIE, LOW_CAPTURED):
        for deal in run(text).deals:
            per_side: dict[str, int] = {}
            for point in deal.points:
                per_side[point.side] = per_side.get(point.side, 0) + point.points
            assert max(per_side.values(), default=0) <= 5
    assert find(run(EXAMPLE_A), "AFN304") == []
