"""How deals and games end: concession, abandonment, play after the end, odd records."""

from __future__ import annotations

from allfours_notation.checking.parsing import parse
from allfours_notation.referee import replay
from tests.rules.helpers import EXAMPLE_A, S_TO_EIGHT, find, game_text, rules_codes, run


def test_a_concession_ends_the_game() -> None:
    result = run(EXAMPLE_A + "\ndeal 2 dealer S\n  turn 4S\n  N concedes", result="S")
    assert result.winner == "S" and result.decided == "deal 2, by N's concession"
    assert find(result, "AFN403") == [] and "AFN304" not in rules_codes(result)


def test_an_abandoned_game_has_no_winner() -> None:
    result = run(EXAMPLE_A + "\ndeal 2 dealer S\n  turn 4S\n  N stands\n  1. N:2H S:3H\n"
                 "  abandoned")
    assert result.winner is None and dict(result.scores) == {"N": 0, "S": 4}
    assert result.deals[1].ending == "abandoned" and not result.deals[1].complete


def test_deals_after_the_decision_are_not_scored() -> None:
    result = run(S_TO_EIGHT + EXAMPLE_A.replace("deal 1", "deal 3"))
    [late] = find(result, "AFN313")
    assert late.deal == 3 and "decided (deal 2, at Jack)" in late.message
    assert dict(result.scores) == {"N": 0, "S": 7}


def test_a_seat_not_at_the_table_does_not_break_the_replay() -> None:
    text = game_text(EXAMPLE_A.replace("2. S:9H N:3H", "2. S:9H E:3H"))
    game = parse(text).games[0]
    assert "AFN205" in [d.code for d in game.diagnostics]
    result = replay(game)
    assert not [d for d in result.diagnostics if d.code == "AFN399"]
    assert any(d.code == "AFN302" for d in result.diagnostics)


def test_a_deal_without_a_turn_up() -> None:
    result = run("deal 1 dealer N\n  S stands\n  1. S:2H N:3H")
    assert any(d.code == "AFN314" for d in result.diagnostics)
    assert result.deals[0].trump is None
