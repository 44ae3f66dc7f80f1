"""docs/rules.md section 10, worked examples A-F, as golden tests.

Each ``golden/example_X.afn`` is replayed; the score sheet printed by
``allfours score`` must equal ``golden/example_X.txt`` (``pytest --update-goldens``
rewrites them after a deliberate change), and the facts the example states
are asserted one by one.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from allfours_notation.cards import Seat, card, cards
from allfours_notation.checking.parsing import parse_file
from allfours_notation.cli import main
from allfours_notation.referee import Options, legal_cards, replay
from allfours_notation.referee.replay import max_runs, turnup_position
from tests.golden import check_golden
from tests.rules.helpers import rules_codes, run

GOLDEN = Path(__file__).parent / "golden"
EXAMPLES = ["a", "c", "d", "e", "f"]


def replay_example(name: str):  # type: ignore[no-untyped-def]
    return replay(parse_file(GOLDEN / f"example_{name}.afn").games[0])


@pytest.mark.parametrize("name", EXAMPLES)
def test_score_sheet_matches_golden(
    name: str, capsys: pytest.CaptureFixture[str], update_goldens: bool
) -> None:
    source = GOLDEN / f"example_{name}.afn"
    assert main(["score", str(source)]) == 0
    output = capsys.readouterr().out
    check_golden(output, GOLDEN / f"example_{name}.txt", update=update_goldens)


@pytest.mark.parametrize("name", EXAMPLES)
def test_examples_check_clean(name: str, capsys: pytest.CaptureFixture[str]) -> None:
    """The claims and totals written in the examples are the computed ones."""
    assert main(["check", str(GOLDEN / f"example_{name}.afn")]) == 0
    assert "0 with errors" in capsys.readouterr().out
    assert replay_example(name).diagnostics == ()


def test_a_one_card_counts_all_four() -> None:
    result = replay_example("a")
    assert [(p.item.value, p.side) for p in result.deals[0].points] == [
        ("high", "S"), ("low", "S"), ("jack", "S"), ("game", "S")]
    assert dict(result.scores) == {"N": 0, "S": 4}
    assert dict(result.deals[0].tricks[-1:][0][2]) == {Seat.NORTH: card("7D"),
                                                       Seat.SOUTH: card("6D")}


def test_b_follow_or_trump_legal_sets() -> None:
    """Trumps hearts; E holds 3H 2H TS (and no other spade) and two clubs."""
    options = Options()
    hand = list(cards("3H 2H TS 5C 9C"))
    hearts = card("4H").suit
    led = [(Seat.NORTH, card("AS"))]
    assert legal_cards(hand, led, hearts, options) == frozenset(cards("3H 2H TS"))
    hand.remove(card("2H"))
    led = [(Seat.NORTH, card("KS"))]
    assert legal_cards(hand, led, hearts, options) == frozenset(cards("3H TS"))
    hand.remove(card("3H"))
    led = [(Seat.NORTH, card("QS"))]
    assert legal_cards(hand, led, hearts, options) == frozenset(cards("TS"))


def test_b_legal_set_in_a_replayed_state() -> None:
    result = run("""
deal 1 dealer S
  N AS KS QS 4C 5D 6D
  S 3H 2H TS 5C 9C 7D
  turn 4H
  N stands
  1. N:AS S:2H 2. S:3H N:KS 3. S:TS N:QS 4. N:4C S:5C 5. S:9C N:5D 6. S:7D N:6D
""")
    assert rules_codes(result) == []
    after_lead = next(s for s in result.steps if s.text == "N plays AS")
    assert after_lead.state.to_move is Seat.SOUTH
    assert after_lead.state.legal == frozenset(cards("3H 2H TS"))


def test_c_turn_up_is_not_in_play() -> None:
    result = replay_example("c")
    assert [(p.item.value, p.side) for p in result.deals[0].points] == [
        ("high", "N"), ("low", "N"), ("game", "S")]
    assert "7S" in result.deals[0].points[0].reason


def test_d_turned_jack_wins_before_play() -> None:
    result = replay_example("d")
    assert dict(result.deals[1].scores_after) == {"N": 6, "S": 1}
    assert result.winner == "N"
    assert result.decided == "deal 3, at the turn-up"
    last_deal = result.deals[2]
    assert [(p.item.value, p.side) for p in last_deal.points] == [("kick", "N")]
    assert not any(s.kind.value == "play" for s in result.steps[last_deal.first_step:])


def test_e_four_handed_positions_and_runs() -> None:
    assert [turnup_position(4, run) for run in range(3)] == [25, 38, 51]
    assert max_runs(4) == 2
    result = replay_example("e")
    first = result.deals[0]
    assert first.ending == "redeal exhausted" and first.points == ()
    assert result.steps[0].state.elder is Seat.EAST
    assert result.deals[1].dealer is Seat.NORTH  # the same dealer deals again
    gift = result.deals[1].points[0]
    assert (gift.item.value, gift.side, gift.points) == ("gift", "EW", 1)


def test_f_trinidad_kick_and_hang_jack() -> None:
    result = replay_example("f")
    assert result.steps[0].state.elder is Seat.WEST  # the dealer's right
    assert [(p.item.value, p.side, p.points) for p in result.deals[0].points] == [
        ("kick", "NS", 2), ("high", "EW", 1), ("low", "EW", 1), ("hangjack", "EW", 3),
        ("game", "EW", 1)]
    assert dict(result.scores) == {"NS": 2, "EW": 6}
