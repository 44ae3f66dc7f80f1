"""``allfours score``, ``allfours rules`` and the rules part of ``allfours check``."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from allfours_notation.cli import main
from tests.rules.helpers import EXAMPLE_A, S_TO_EIGHT, game_text

GOLDEN = Path(__file__).parent / "golden"


def write(tmp_path: Path, deals: str, **kwargs: object) -> str:
    path = tmp_path / "game.afn"
    path.write_text(game_text(deals, **kwargs), encoding="utf-8")  # type: ignore[arg-type]
    return str(path)


def test_score_sheet_names_the_moment_the_game_was_decided(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["score", write(tmp_path, S_TO_EIGHT, result="S")]) == 0
    out = capsys.readouterr().out
    assert "Winner: S (N 0  S 7), decided deal 2, at Jack" in out
    assert "Game     S  —   not scored: the game was already decided" in out
    assert "deal 2, dealer S, turn 4♠ (spades trumps), N stands" in out


def test_score_rules_and_set_override_the_file(tmp_path: Path,
                                               capsys: pytest.CaptureFixture[str]) -> None:
    path = write(tmp_path, S_TO_EIGHT)
    assert main(["score", path, "--rules", "english10"]) == 0
    assert "No winner yet (N 0  S 8)" in capsys.readouterr().out
    # S now wins: [Result "*"] waits for the other side's word (a note, not an error)
    assert main(["score", path, "--set", "target=10", "--set", "GameValue=2"]) == 0
    out = capsys.readouterr().out
    assert "rules: hoffmann1909 with target=10, game_value=2" in out
    assert "Winner: S (N 0  S 10), decided deal 2, at Game" in out
    assert 'in progress: [Result "*"] says unfinished, but S won' in out
    path = write(tmp_path, S_TO_EIGHT, result="N")  # a wrong [Result]: still an error
    assert main(["score", path, "--set", "target=10", "--set", "GameValue=2"]) == 1
    assert '[Result "N"] names N, but S won' in capsys.readouterr().out


def test_score_json(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["score", "--json", write(tmp_path, EXAMPLE_A)]) == 0
    sheet = json.loads(capsys.readouterr().out)["games"][0]
    assert sheet["rules"] == "hoffmann1909"
    assert sheet["options"]["target"] == 7  # numbers as numbers, choices as words
    assert sheet["options"]["low_owner"] == "original_holder"
    deal = sheet["deals"][0]
    assert [p["item"] for p in deal["points"]] == ["high", "low", "jack", "game"]
    assert deal["scores_after"] == {"N": 0, "S": 4} and deal["turnups"] == ["4S"]
    assert sheet["winner"] is None


def test_bad_rules_arguments_are_usage_errors(tmp_path: Path,
                                              capsys: pytest.CaptureFixture[str]) -> None:
    path = write(tmp_path, EXAMPLE_A)
    assert main(["score", path, "--rules", "hoyle"]) == 2
    assert "the profiles are hoffmann1909, english10, foster, trinidad14" in \
        capsys.readouterr().err
    assert main(["check", path, "--set", "target=100"]) == 2
    assert "the values are 7, 10, 11, 14" in capsys.readouterr().err
    assert main(["check", path, "--set", "target"]) == 2
    assert "OPTION=VALUE" in capsys.readouterr().err


def test_check_reports_rules_and_disputes(tmp_path: Path,
                                          capsys: pytest.CaptureFixture[str]) -> None:
    path = write(tmp_path, EXAMPLE_A + "  claim S high low game\n  total N 0 S 3\n")
    assert main(["check", path]) == 3  # a dispute recorded: no error of the record
    out = capsys.readouterr().out
    assert "dispute AFN401 [game 1, deal 1]: deal 1: Jack not claimed, computed S" in out
    # the total is wrong because the claim is: one root, the total folded under it
    assert "AFN402" not in out and "and 1 dispute that follows from it" in out
    assert "1 game, 0 with errors, 1 with disputes (2 disputes; 1 root cause)" in out
    assert main(["check", "--all", path]) == 3
    assert "↳ " in (shown := capsys.readouterr().out) and "dispute AFN402" in shown
    assert main(["check", "--no-rules", path]) == 0
    capsys.readouterr()
    assert main(["check", "--json", path]) == 3
    found = json.loads(capsys.readouterr().out)["diagnostics"]
    assert [d["code"] for d in found] == ["AFN401", "AFN402"]
    assert found[0]["cause"] is None and found[1]["cause"] == found[0]["id"]


def test_check_with_rules_from_the_command_line(tmp_path: Path,
                                                capsys: pytest.CaptureFixture[str]) -> None:
    path = write(tmp_path, EXAMPLE_A + "  claim S high low jack game 2\n  total N 0 S 5\n")
    assert main(["check", path]) == 3
    capsys.readouterr()
    assert main(["check", path, "--set", "game_value=2"]) == 0


def test_check_unknown_profile_in_the_file(tmp_path: Path,
                                           capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["check", write(tmp_path, EXAMPLE_A, rules="hoyle")]) == 1
    assert "AFN501" in capsys.readouterr().out


def test_rules_lists_every_profile(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["rules"]) == 0
    out = capsys.readouterr().out
    for name in ("hoffmann1909", "english10", "foster", "trinidad14", "game_tie", "GameTie"):
        assert name in out


def test_rules_one_profile_with_sources(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["rules", "foster"]) == 0
    out = capsys.readouterr().out
    assert "gift_at_target_minus_one = forbidden" in out
    assert "[FOS] the dealer may not give the point that puts the elder hand out" in out
    assert main(["rules", "nope"]) == 2
    assert main(["rules", "--json", "trinidad14"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["profiles"][0]["options"]["direction"] == "anticlockwise"


def test_score_a_broken_game(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "broken.afn"
    path.write_text('[Event "x"]\ndeal 1 dealer Q\nend\n', encoding="utf-8")
    assert main(["score", str(path)]) == 1
    assert "cannot be scored" in capsys.readouterr().out


def test_rules_shows_the_settings_for_two_three_and_four_players(
        capsys: pytest.CaptureFixture[str]) -> None:
    # before: --set was refused and hoffmann1909 showed game_tie = elder only, although
    # with three players a Game tie goes to the first of the tied players
    assert main(["rules"]) == 0
    out = capsys.readouterr().out
    assert "with 3 players: game_tie = eldest_of_tied (hoffmann1909, english10, foster)" in out
    assert "with 2 players: nothing else" in out and "with 4 players: nothing else" in out
    for asked in (["--players", "3"], ["--set", "players=3"]):
        assert main(["rules", "hoffmann1909", *asked]) == 0
        out = capsys.readouterr().out
        assert "game_tie = eldest_of_tied" in out
        assert "with 3 players; the profile says elder" in out
    assert main(["rules", "--players", "3", "--set", "game_tie=nobody", "foster"]) == 0
    assert "game_tie = nobody" in capsys.readouterr().out  # a --set option is kept
    assert main(["rules", "--json", "hoffmann1909"]) == 0
    data = json.loads(capsys.readouterr().out)["profiles"][0]
    assert data["options"]["game_tie"] == "elder"
    assert {n: o["game_tie"] for n, o in data["by_players"].items()} == \
        {"2": "elder", "3": "eldest_of_tied", "4": "elder"}
    assert main(["rules", "--players", "3", "--set", "players=4"]) == 2
    assert main(["rules", "--set", "game_tie=bogus"]) == 2
    assert "not a value of game_tie" in capsys.readouterr().err
