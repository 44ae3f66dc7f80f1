"""Disputes are not errors of the record, and a game in progress is notes (issue 37):
what ``check`` prints, counts and exits with, and what ``score`` and ``list --check``
say of the same files."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from allfours_notation.checking import check_text
from allfours_notation.checking.causes import settled_kind
from allfours_notation.cli import main
from allfours_notation.diagnostics import Diagnostic, Severity
from tests.rules.helpers import EXAMPLE_A, S_TO_EIGHT, game_text

ROOT = Path(__file__).resolve().parents[2]
DISPUTED = ROOT / "samples" / "disputed-claim.afn"
# Example A with its claim leaving out Jack (the total follows from it): a dispute only
A_DISPUTED = game_text(EXAMPLE_A + "  claim S high low game\n  total N 0 S 3\n")
# ... and with a total that adds up wrong besides: an error of the record
A_WRONG_TOTAL = game_text(EXAMPLE_A + "  claim S high low jack game\n  total N 0 S 5\n")


def write(tmp_path: Path, text: str, name: str = "game.afn") -> str:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return str(path)


def severities(text: str) -> list[tuple[str, str]]:
    return [(d.code, d.severity.value) for d in check_text(text).all_diagnostics()]


def test_a_recorded_dispute_exits_3_and_is_counted_apart(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = write(tmp_path, A_DISPUTED)
    assert main(["check", path]) == 3
    out = capsys.readouterr().out
    assert "dispute AFN401" in out and "error AFN" not in out
    assert out.splitlines()[-1] == "1 game, 0 with errors, 1 with disputes (2 disputes; " \
        "1 root cause)"
    assert main(["check", "--quiet", path]) == 3
    assert capsys.readouterr().out.startswith("1 game, 0 with errors, 1 with disputes")


def test_errors_win_over_disputes_and_both_are_counted(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["check", write(tmp_path, A_DISPUTED, "a.afn"),
                 write(tmp_path, A_WRONG_TOTAL, "b.afn")]) == 1
    assert capsys.readouterr().out.splitlines()[-1] == (
        "2 games, 1 with errors, 1 with disputes (1 error, 2 disputes; 2 root causes)")


def test_the_disputed_sample_counts_its_error_and_its_disputes(
        capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["check", "--json", str(DISPUTED)]) == 1  # deal 1's total adds up wrong
    report = json.loads(capsys.readouterr().out)
    assert (report["games"], report["games_with_errors"], report["games_with_disputes"]) == \
        (1, 1, 1)
    assert (report["errors"], report["disputes"], report["warnings"]) == (1, 3, 0)
    kinds = [(d["code"], d["severity"]) for d in report["diagnostics"]]
    assert kinds == [("AFN402", "error"), ("AFN401", "dispute"), ("AFN402", "dispute"),
                     ("AFN401", "dispute")]


def test_score_and_list_exit_as_check_does(tmp_path: Path,
                                           capsys: pytest.CaptureFixture[str]) -> None:
    disputed, wrong = write(tmp_path, A_DISPUTED, "a.afn"), write(tmp_path, A_WRONG_TOTAL,
                                                                  "b.afn")
    assert main(["score", disputed]) == 3
    assert main(["score", wrong]) == 1
    assert main(["list", "--check", disputed]) == 3
    assert main(["list", "--check", disputed, wrong]) == 1
    assert main(["list", disputed]) == 0  # without --check nothing is judged
    capsys.readouterr()


def test_warnings_as_errors_still_exit_1(tmp_path: Path,
                                         capsys: pytest.CaptureFixture[str]) -> None:
    revoke = (ROOT / "samples" / "revoke.afn").read_text(encoding="utf-8")
    assert main(["check", write(tmp_path, revoke)]) == 0
    assert main(["check", "--warnings-as-errors", write(tmp_path, revoke)]) == 1
    capsys.readouterr()


# --- what follows from a root takes its kind -----------------------------------------------


def finding(code: str, severity: Severity) -> Diagnostic:
    return Diagnostic(code, severity, "m")


def test_a_total_under_a_dispute_is_the_dispute_and_a_claim_under_a_slip_is_its_error() -> None:
    dispute, error = finding("AFN401", Severity.DISPUTE), finding("AFN221", Severity.ERROR)
    assert settled_kind(finding("AFN402", Severity.ERROR), dispute) is Severity.DISPUTE
    assert settled_kind(finding("AFN403", Severity.ERROR), dispute) is Severity.DISPUTE
    assert settled_kind(finding("AFN401", Severity.DISPUTE), error) is Severity.ERROR
    # a rules finding keeps its own kind; a note stays a note
    assert settled_kind(finding("AFN306", Severity.WARNING), dispute) is Severity.WARNING
    assert settled_kind(finding("AFN403", Severity.INFO), dispute) is Severity.INFO


def test_a_claims_disputed_items_are_one_root() -> None:
    # Example A: S took all four; N claims High and Low: four items disagree, one claim
    found = [d for d in check_text(game_text(EXAMPLE_A + "  claim N high low\n"))
             .all_diagnostics() if d.code == "AFN401"]
    assert len(found) == 4
    first, *others = found
    assert first.cause is None and all(d.cause == first.id for d in others)


def test_a_wrong_result_on_its_own_is_an_error_and_under_a_dispute_is_the_dispute() -> None:
    alone = game_text(S_TO_EIGHT, result="N")
    assert ("AFN403", "error") in severities(alone)
    disputed = game_text(S_TO_EIGHT + "  claim N high low jack game\n", result="N")
    found = severities(disputed)
    assert ("AFN403", "dispute") in found and not any(s == "error" for _, s in found)


def test_items_claimed_after_the_decision_are_a_note(tmp_path: Path,
                                                     capsys: pytest.CaptureFixture[str]) -> None:
    path = write(tmp_path, game_text(S_TO_EIGHT + "  claim S high low jack game\n",
                                     result="S"))
    assert main(["check", path]) == 0
    assert "1 game, 0 with errors" in capsys.readouterr().out.splitlines()[-1]


# --- a game in progress ----------------------------------------------------------------------

OPEN_DEAL = EXAMPLE_A.split("  1. ")[0] + "  1. S:JS\n"  # trick 1 of one card


def test_an_open_last_deal_of_an_unfinished_game_is_notes(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    text = game_text(OPEN_DEAL)
    assert {(code, kind) for code, kind in severities(text)} == {("AFN204", "info"),
                                                                 ("AFN304", "info")}
    assert main(["check", "--json", write(tmp_path, text)]) == 0
    notes = json.loads(capsys.readouterr().out)["diagnostics"]
    assert all(d["message"].startswith("in progress: ") for d in notes)


def test_a_deal_with_no_turn_up_yet_is_a_note_only_while_nothing_is_played() -> None:
    waiting = game_text("deal 1 dealer N\n")
    assert severities(waiting) == [("AFN314", "info")]
    played = game_text("deal 1 dealer N\n  1. S:JS N:2D\n")  # the turn-up forgotten
    assert ("AFN314", "error") in severities(played)


@pytest.mark.parametrize("broken", [
    # written as finished: the deal that stops short is an error
    game_text(OPEN_DEAL, result="S"),
    # an open deal followed by another one: not the last deal, an error
    game_text(OPEN_DEAL + EXAMPLE_A.replace("deal 1 dealer N", "deal 2 dealer S")
              .replace("S stands", "N stands")),
    # a card nobody holds in the open deal: truly broken, whatever the [Result]
    game_text(EXAMPLE_A.split("  1. ")[0] + "  1. S:AD\n"),
])
def test_an_unfinished_game_that_is_broken_is_still_flagged(broken: str) -> None:
    assert any(kind == "error" for _, kind in severities(broken)), severities(broken)
