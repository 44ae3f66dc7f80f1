"""``allfours event``: exit codes, the event file's mistakes with caret snippets, ``--json``,
``results -o``, and no control character of a record reaching the terminal."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from allfours_notation.cli import main
from tests.events.test_assemble import EVENT, games, with_tags, write

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")


def event_folder(tmp_path: Path, text: str | None = None) -> Path:
    event = tmp_path / "EVENT.toml"
    event.write_text(text or EVENT.format(rule="games", target=3, games=2), encoding="utf-8")
    write(tmp_path / "games", "t1.afn", games(1, 2, 1))
    write(tmp_path / "games", "t2.afn", games(2, 2, 2))
    return event


def run(args: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    code = main(args)
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def test_a_clean_event_checks_clean_and_shows_its_outputs(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    event = str(event_folder(tmp_path))
    assert run(["event", "check", event], capsys)[:2] == (
        0, "4 games in 1 match: 0 errors, 0 warnings\n")
    code, out, _ = run(["event", "standings", event], capsys)
    assert code == 0 and "ranked by: bullseyes_for" in out and "Division A" in out
    code, out, _ = run(["event", "sheet", event], capsys)
    assert code == 0 and "Round 1: Red v Blue" in out and "table 2" in out
    code, out, _ = run(["event", "prizes", event], capsys)
    assert code == 0 and "names no prizes" in out


def test_json_outputs_and_results_written_whole(tmp_path: Path,
                                               capsys: pytest.CaptureFixture[str]) -> None:
    event = str(event_folder(tmp_path))
    for action in ("check", "sheet", "standings", "prizes"):
        code, out, _ = run(["event", action, event, "--json"], capsys)
        assert code == 0 and isinstance(json.loads(out), (list, dict))
    target = tmp_path / "results.json"
    assert run(["event", "results", event, "-o", str(target)], capsys)[:2] == (0, "")
    data = json.loads(target.read_text(encoding="utf-8"))
    assert data["version"] == 1 and data["matches"][0]["home"] == "Red"
    code, out, _ = run(["event", "results", event], capsys)
    assert json.loads(out) == data


def test_a_mistaken_event_file_is_shown_with_a_caret_and_exits_2(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    text = EVENT.format(rule="sprint", target=3, games=2)
    event = str(event_folder(tmp_path, text))
    code, out, err = run(["event", "standings", event], capsys)
    assert code == 2 and out == ""
    assert f"{event}:9:1: error AFN605: unknown match rule 'sprint'" in err
    assert '9 | rule = "sprint"\n        ^^^^' in err and "hint: the rules are: race" in err
    assert "nothing computed" in err


def test_check_finds_problems_and_exits_1(tmp_path: Path,
                                          capsys: pytest.CaptureFixture[str]) -> None:
    event = event_folder(tmp_path)
    (tmp_path / "games" / "t2.afn").unlink()
    code, out, _ = run(["event", "check", str(event)], capsys)
    assert code == 1 and "AFN656" in out and "table 2 has not reported" in out
    assert out.endswith("2 games in 1 match: 0 errors, 1 warning\n")


def test_a_missing_folder_or_file_is_exit_2(tmp_path: Path,
                                             capsys: pytest.CaptureFixture[str]) -> None:
    event = str(event_folder(tmp_path))
    assert run(["event", "check", event, str(tmp_path / "nowhere")], capsys)[0] == 2
    code, _, err = run(["event", "check", str(tmp_path / "none.toml")], capsys)
    assert code == 2 and "AFN601" in err


def test_the_games_folder_may_be_named_and_read_by_workers(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    event = str(event_folder(tmp_path))
    one = run(["event", "sheet", event, str(tmp_path / "games")], capsys)
    two = run(["event", "sheet", event, str(tmp_path / "games"), "-j", "2"], capsys)
    assert one == two and one[0] == 0


def test_no_control_character_of_a_record_reaches_the_terminal(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    text = EVENT.format(rule="games", target=3, games=2).replace(
        'name = "Small night"', 'name = "Small\\u001b[2J night"')
    event = str(event_folder(tmp_path, text))
    for action in ("sheet", "standings", "prizes"):
        code, out, _ = run(["event", action, event], capsys)
        assert code == 0 and "\x1b" not in out and "Small\\x1b[2J night" in out


def test_a_knockout_final_is_played_out_of_the_standings(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from jsonschema import Draft202012Validator

    from allfours_notation.events.report import SCHEMA

    text = EVENT.format(rule="games", target=3, games=2).replace(
        "[[team]]", '[knockout]\nteams = 2\nrounds = ["Final"]\n\n[[team]]', 1)
    text += '\n[[round]]\nname = "Final"\nmatch = [{ home = "Blue", away = "Red", tables = 1 }]\n'
    event = event_folder(tmp_path, text)
    final = games(5, 2, 1, changes={"Round": "Final", "HomeTeam": "Blue", "AwayTeam": "Red"})
    final = [with_tags(g, North="Eli", South="Fay", East="Ann", West="Ben") for g in final]
    write(tmp_path / "games", "final.afn", final)
    code, out, _ = run(["event", "results", str(event)], capsys)
    data = json.loads(out)
    assert code == 0 and [m["round"] for m in data["matches"]] == ["1", "Final"]
    (league,) = data["standings"][0]["rows"][:1]
    assert league["played"] + data["standings"][0]["rows"][1]["played"] == 2  # round 1 only
    (final_round,) = data["knockout"]["rounds"]
    (tie,) = final_round["ties"]
    match = data["matches"][1]
    assert final_round["name"] == "Final" and tie["match"]["home"] == "Blue"
    assert tie["winner"]["team"] == match["winner"] == data["knockout"]["champion"]["team"]
    schema = json.loads(SCHEMA.read_text(encoding="utf-8"))
    assert [e.message for e in Draft202012Validator(schema).iter_errors(data)] == []
    code, out, _ = run(["event", "standings", str(event)], capsys)
    assert code == 0 and "  Final\n" in out and f"winner: {match['winner']}\n" in out
    assert f": {match['winner']} goes through" in out
