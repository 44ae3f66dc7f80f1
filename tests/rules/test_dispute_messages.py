"""Every dispute message says only what is true of its deal and names only the options
that decide it; no hint contradicts its message (issue 37)."""

from __future__ import annotations

from pathlib import Path

from allfours_notation.checking import check_text
from allfours_notation.diagnostics import Diagnostic, Severity
from tests.rules.helpers import EXAMPLE_A, game_text

ROOT = Path(__file__).resolve().parents[2]
REVOKE = (ROOT / "samples" / "revoke.afn").read_text(encoding="utf-8")
EXAMPLE_F = (Path(__file__).parent / "golden" / "example_f.afn").read_text(encoding="utf-8")


def score_findings(text: str) -> list[Diagnostic]:
    """What ``check`` says of the claims, totals and result (AFN4xx)."""
    return [d for d in check_text(text).all_diagnostics() if d.code.startswith("AFN4")]


def test_low_claimed_by_the_side_that_was_dealt_it_and_captured_it_names_no_rule() -> None:
    # S was dealt JS, the only trump, and captured it: Low is S's under any low_owner;
    # the claim is wrong only in its points
    [dispute] = score_findings(game_text(EXAMPLE_A + "  claim S high low 2 jack game\n"))
    assert dispute.message == ("deal 1: Low claimed S 2, computed S 1: S was dealt JS, the only "
                               "trump in play")
    assert "original holder" not in dispute.message


def test_low_claimed_by_its_capturer_still_names_the_rule() -> None:
    low_captured = """
deal 1 dealer N
  S 9H 8H JS 7C 6D 5D
  N 2H 3H 2D 8C 9C 7D
  turn 4H
  S stands
  1. S:9H N:2H 2. S:8H N:3H 3. S:JS N:2D 4. S:7C N:8C 5. N:9C S:5D 6. N:7D S:6D
  claim S high low game
"""
    [dispute] = score_findings(game_text(low_captured))
    assert "Low goes to its original holder even though S captured it" in dispute.message


def revoke_deal_alone(claim: str) -> str:
    """revoke.afn's deal 2 (S revokes in trick 2; N gives, takes Low and the penalty,
    S High and Game) from N 2 S 3: under target 5 S goes out on Game, before the penalty."""
    deal = REVOKE.split("deal 2 dealer S")[1].split("deal 3")[0]
    deal = deal.replace("claim N gift low penalty S high game\n  total N 5 S 4", claim)
    return game_text("deal 1 dealer S" + deal, tags={"Score": "N 2 S 3"})


def test_a_forgotten_revoke_point_names_the_revoke_rule_and_no_target() -> None:
    [dispute] = score_findings(revoke_deal_alone("claim N gift low S high game"))
    assert dispute.message == ("deal 1: Penalty not claimed, computed N: S revoked in trick 2: "
                               "N scores 1 (the claim is right under revoke_penalty=none)")
    assert "target" not in dispute.message


def test_a_total_that_carries_an_earlier_error_gets_no_typo_hint() -> None:
    text = REVOKE.replace("total N 2 S 2", "total N 2 S 1").replace("total N 5 S 4",
                                                                    "total N 5 S 3")
    first, carried = score_findings(text)
    assert carried.message.endswith("it carries the error of an earlier total")
    assert carried.hint is None
    assert first.is_error and carried.is_error and carried.cause == first.id


def test_a_lone_digit_typo_still_gets_its_hint() -> None:
    [typo] = score_findings(REVOKE.replace("total N 5 S 4", "total N 5 S 14"))
    assert typo.hint == "S 14 looks like a typo for S 4: write S 4"


def test_jack_claimed_for_a_hang_jack_is_one_dispute() -> None:
    text = EXAMPLE_F.replace("W high hangjack game", "W high jack game").replace(
        "  total N 2 E 6\n", "")
    [dispute] = score_findings(text)
    assert dispute.severity is Severity.DISPUTE
    assert dispute.message == (
        "deal 1: Jack claimed by EW 1, computed Hang Jack to EW 3: W captured S's JD in "
        "trick 1: Hang Jack (the claim is right under hang_jack=off)")


def test_hang_jack_claimed_for_a_jack_is_one_dispute() -> None:
    # under hoffmann1909 there is no Hang Jack: W's side takes the Jack it captured
    text = EXAMPLE_F.replace('[Rules "trinidad14"]', '[Rules "trinidad14"]\n[Target "14"]')
    text = text.replace("claim N kick 2 W high hangjack game E low\n  total N 2 E 6\n",
                        "claim N kick 2 W high hangjack game E low\n")
    text = text.replace('[Rules "trinidad14"]', '[Rules "trinidad14"]\n[HangJack "off"]')
    [dispute] = score_findings(text)
    assert dispute.message.startswith("deal 1: Hang Jack claimed by EW 3, computed Jack to EW 1")
