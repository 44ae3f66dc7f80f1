"""Dispute hints name the targets (any whole number from 1 to 99) under which a claim is
right, not only the customary 7, 10, 11 and 14."""

from __future__ import annotations

import pytest

from tests.rules.helpers import EXAMPLE_A, find, run

# Example A scores S High, Low, Jack and Game: four points in that order.


def dispute_of(claim: str, tags: dict[str, str]) -> list[str]:
    return [d.message for d in find(run(EXAMPLE_A + f"  claim {claim}\n", tags=tags), "AFN401")]


def test_the_claim_of_a_side_that_went_out_sooner() -> None:
    # S from 5: High makes 6, Low 7 (the target): a claim of High alone is right at 6
    [message] = dispute_of("S high", {"Score": "S 5"})
    assert message.startswith("deal 1: Low not claimed, computed S")
    assert message.endswith("(the claim is right under target=6)")


@pytest.mark.parametrize(("start", "target", "claim", "right"), [
    ("40", "50", "S high low", "target=42"),  # far from the customary targets
    ("90", "99", "S high", "target=91"),
    ("2", "21", "S high low jack", "target=5"),  # the game goes on under 21
])
def test_any_target_from_1_to_99(start: str, target: str, claim: str, right: str) -> None:
    messages = dispute_of(claim, {"Score": f"S {start}", "Target": target})
    assert messages and all(m.endswith(f"(the claim is right under {right})")
                            for m in messages)


def test_items_claimed_after_the_target_are_a_note_not_a_dispute() -> None:
    # target 6 from S 4: S goes out on Low; Jack and Game are claimed as the table took
    # them, after the decision: one note, no dispute
    assert dispute_of("S high low jack game", {"Score": "S 4", "Target": "6"}) == []
    notes = find(run(EXAMPLE_A + "  claim S high low jack game\n",
                     tags={"Score": "S 4", "Target": "6"}), "AFN408")
    assert [d.message for d in notes] == [
        "deal 1: claimed after the game was decided (deal 1, at Low), not scored: "
        "Jack S, Game S"]


def test_items_after_the_target_for_the_wrong_side_name_the_targets_that_allow_them() -> None:
    # target 6 from S 4: S goes out on Low; Game claimed by N is no item taken after it
    messages = dispute_of("S high low jack N game", {"Score": "S 4", "Target": "6"})
    [message] = messages
    assert message.startswith("deal 1: Game claimed by N, computed nobody")
    assert "claim only the items counted before the target was reached" in message


def test_no_target_makes_a_wrong_side_right() -> None:
    # Game claimed by N: no target gives it to N
    [message] = dispute_of("S high low jack N game", {})
    assert "target=" not in message
