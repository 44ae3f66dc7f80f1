"""Issue 10 item 4: house rules in a TOML file."""

from __future__ import annotations

from pathlib import Path

import pytest

from allfours_notation.cli import main
from allfours_notation.referee.house import load_house_rules
from allfours_notation.referee.profiles import HangJack, resolve_options
from tests.rules.helpers import EXAMPLE_A, find, game_of, run

CLUB = '''\
name = "arima"
description = "Arima club: Trinidad rules to 21, no Hang Jack"
base = "trinidad14"

[options]
target = 21
hang_jack = "off"

[sources]
target = "club committee, 2025"
hang_jack = "club rule 4"
'''


def test_a_club_profile_is_its_base_with_the_changes_and_their_sources() -> None:
    house = load_house_rules(CLUB, "club.toml")
    assert house.diagnostics == ()
    assert house.profile is not None
    options = house.profile.options
    assert (options.target, options.hang_jack, options.players) == (21, HangJack.OFF, 4)
    assert house.profile.sources["target"] == "club committee, 2025"
    assert house.profile.sources["direction"].startswith("[TT]")  # from the base


def test_a_record_names_the_club_profile_and_the_file_supplies_it() -> None:
    profile = load_house_rules(CLUB.replace('base = "trinidad14"\n', ""), "club.toml").profile
    assert profile is not None
    named = game_of(EXAMPLE_A, rules="club:arima")
    options, problems = resolve_options(named, house=profile)
    assert problems == [] and options.target == 21
    untagged, _ = resolve_options(game_of(EXAMPLE_A, rules=""), house=profile)
    assert untagged.target == 21
    published, _ = resolve_options(game_of(EXAMPLE_A, rules="english10"), house=profile)
    assert published.target == 10  # a game naming a published profile keeps it
    _, missing = resolve_options(named)
    assert [p.code for p in missing] == ["AFN501"] and "--rules-file" in missing[0].message


@pytest.mark.parametrize(
    ("text", "line", "column", "words"),
    [
        ('name = "a"\ndescription = "b"\n[options]\ntarget = \n', 4, 10, "not valid TOML"),
        ('name = "a"\ndescription = "b"\n[options]\n  colour = "red"\n', 4, 3,
         "unknown option 'colour'"),
        ('name = "a"\ndescription = "b"\n[options]\ntarget = 100\n', 4, 1,
         "any whole number from 1 to 99"),
        ('name = "a"\ndescription = "b"\nbase = "hoyle"\n', 3, 1, "not a profile"),
        ('description = "b"\n', 1, 1, "needs name"),
        ('name = "a"\ndescription = "b"\nrules = 3\n', 3, 1, "unknown key 'rules'"),
        # a number past Python's 4,300 digits was AFN901 (issue 41)
        ('name = "a"\ndescription = "b"\n[options]\ntarget = ' + "7" * 5_000 + "\n", 4, 10,
         "a number of 5,000 digits"),
        ('name = "a"\n[options]\ntarget = 1_' + "0" * 5_000 + "\n", 3, 10,
         "a number of 5,001 digits"),
    ],
)
def test_a_bad_file_gets_positioned_errors(text: str, line: int, column: int,
                                           words: str) -> None:
    house = load_house_rules(text, "club.toml")
    assert house.profile is None
    first = house.diagnostics[0]
    assert (first.code, first.file, first.line, first.column) == ("AFN506", "club.toml", line,
                                                                  column)
    assert words in first.message


def test_a_change_without_a_source_is_a_warning_only() -> None:
    house = load_house_rules('name = "a"\ndescription = "b"\n[options]\ntarget = 5\n', "c.toml")
    assert house.profile is not None and house.profile.options.target == 5
    assert [(d.code, d.severity.value, d.line) for d in house.diagnostics] == \
        [("AFN506", "warning", 4)]


def write(tmp_path: Path, name: str, text: str) -> str:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return str(path)


def test_cli_rules_file_check_score_and_rules(tmp_path: Path,
                                              capsys: pytest.CaptureFixture[str]) -> None:
    club = write(tmp_path, "club.toml", CLUB.replace('base = "trinidad14"\n', "")
                 .replace("target = 21", "target = 3"))
    from tests.rules.helpers import game_text

    game = write(tmp_path, "game.afn", game_text(EXAMPLE_A, rules="club:arima", result="S"))
    assert main(["check", game]) == 1  # without the file: AFN501
    assert main(["check", game, "--rules-file", club]) == 0
    capsys.readouterr()
    assert main(["score", game, "--rules-file", club]) == 0
    assert "target 3" in capsys.readouterr().out
    assert main(["rules", "--file", club]) == 0
    out = capsys.readouterr().out
    assert "arima" in out and "club committee, 2025" in out and "target = 3" in out


def test_cli_a_bad_rules_file_is_a_usage_error_with_the_caret(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    club = write(tmp_path, "club.toml", 'name = "a"\ndescription = "b"\n[options]\ntarget = x\n')
    game = write(tmp_path, "game.afn", "")
    assert main(["check", game, "--rules-file", club]) == 2
    err = capsys.readouterr().err
    assert "club.toml:4:" in err and "AFN506" in err and "^" in err
    assert main(["rules", "--file", str(tmp_path / "none.toml")]) == 2


def test_scoring_under_a_club_target() -> None:
    result = run(EXAMPLE_A, tags={"Target": "3"})
    assert result.winner == "S" and not find(result, "AFN503")
