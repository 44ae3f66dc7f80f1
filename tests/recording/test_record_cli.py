"""``allfours record`` before any screen: its help, and what it refuses."""

from __future__ import annotations

from pathlib import Path

import pytest

from allfours_notation import parse_file
from allfours_notation.cli import main


def test_help_explains_typing_keys_and_exit_codes(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as stop:
        main(["record", "--help"])
    assert stop.value.code == 0
    text = capsys.readouterr().out
    for words in ("--players {2,3,4}", "--rules NAME", "--set OPTION=VALUE",
                  "rewritten atomically", "resume", "Ctrl+Z undo", "exit status"):
        assert words in text


def test_a_file_that_is_not_afn_is_refused_with_its_diagnostics_and_untouched(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "bad.afn"
    text = "% AFN 1\n[Event \"x\"]\ndeal 1 dealer N\n  turn 4S\n  1. S:JS N:JS\nend\n"
    path.write_text(text, encoding="utf-8")
    assert main(["record", str(path)]) == 1
    out = capsys.readouterr().out
    assert "AFN201" in out and "left untouched" in out
    assert path.read_text(encoding="utf-8") == text
    assert not (tmp_path / ".bad.afn.lock").exists()


def test_a_directory_and_bad_options_are_usage_errors(tmp_path: Path,
                                                      capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["record", str(tmp_path)]) == 2
    assert "is a directory" in capsys.readouterr().err
    assert main(["record", str(tmp_path / "g.afn"), "--rules", "nosuch"]) == 2
    assert "unknown rule profile" in capsys.readouterr().err
    assert main(["record", str(tmp_path / "missing" / "g.afn")]) == 2
    assert "no such folder" in capsys.readouterr().err


RECORDED = sorted((Path(__file__).resolve().parents[2] / "docs" / "recorded").glob("*.afn"))


# Recorded with a dispute on purpose (issue 25): the other side's claim on the deciding deal.
DISPUTED = {"trinidad-results"}


@pytest.mark.parametrize("path", [p for p in RECORDED if p.stem not in DISPUTED],
                         ids=[p.stem for p in RECORDED if p.stem not in DISPUTED])
def test_the_games_recorded_under_tmux_check_clean(path: Path,
                                                   capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["check", str(path)]) == 0
    assert "1 game, 0 with errors" in capsys.readouterr().out


def test_the_disputed_results_game_checks_as_expected(
        capsys: pytest.CaptureFixture[str]) -> None:
    """A four-handed Trinidad game entered in results mode at 80x24; E-W disputed the
    deciding deal: the claim is kept and reported, [Result] follows the computed score."""
    path = next(p for p in RECORDED if p.stem == "trinidad-results")
    assert main(["check", str(path)]) == 3  # a dispute recorded, no error of the record
    out = capsys.readouterr().out
    assert "0 with errors, 1 with disputes" in out and "disputes the recorded results" in out
    # Jack is disputed; Game, claimed as E-W took it after the decision, is a note
    assert out.count("dispute AFN401") == 1 and "info AFN408" in out
    game = parse_file(path).games[0]
    assert game.tag("Result") == "NS" and all(deal.by_results for deal in game.deals)


def test_the_mixed_game_has_card_and_results_deals() -> None:
    path = next(p for p in RECORDED if p.stem == "two-handed-mixed")
    game = parse_file(path).games[0]
    assert [deal.by_results for deal in game.deals] == [False, True, True]


def test_four_games_were_recorded() -> None:
    assert [p.stem for p in RECORDED] == ["four-handed-trinidad", "trinidad-results",
                                          "two-handed-hoffmann", "two-handed-mixed"]
