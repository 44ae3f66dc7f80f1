"""The recorder under a club's house rules (``--rules-file``) and from a starting score."""

from __future__ import annotations

from pathlib import Path

import pytest

from allfours_notation.checking.parsing import parse
from allfours_notation.cli import main
from allfours_notation.generate import Knobs, generate_games
from allfours_notation.recording.entries import Phase
from allfours_notation.recording.opening import NewGame, Refused, Resume, inspect, new_tags
from allfours_notation.recording.script import lines_of_game
from allfours_notation.recording.session import Session
from allfours_notation.recording.storage import RecordFile
from allfours_notation.referee.house import load_house_rules
from allfours_notation.referee.profiles import Profile
from tests.recording.helpers import feed

CLUB = """\
name = "arima"
description = "Arima club: Hoffmann's rules, to 3"
base = "hoffmann1909"

[options]
target = 3

[sources]
target = "club committee, 2026"
"""
PLAYERS = {"North": "Ann", "South": "Ben"}


def club() -> Profile:
    profile = load_house_rules(CLUB, "club.toml").profile
    assert profile is not None
    return profile


def test_a_game_recorded_under_house_rules_ends_at_the_club_s_target_and_checks_clean(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    house = club()
    game = next(generate_games(seed=4, n_games=1, options=house.options,
                               knobs=Knobs(comments=0.0, glyphs=0.0, hands=1.0)))
    path, rules = tmp_path / "club.afn", tmp_path / "club.toml"
    rules.write_text(CLUB, encoding="utf-8")
    with RecordFile(path) as record:
        session = Session(new_tags(rules="club:arima", players=PLAYERS, date="2026.11.30"),
                          record=record, house=house)
        assert session.options.target == 3
        feed(session, lines_of_game(game))
        assert session.over
        total = game.deals[-1].total
        assert total is not None
        assert dict(session.scores()) == {score.seat.letter: score.points for score in total.scores}
    text = path.read_text(encoding="utf-8")
    assert '[Rules "club:arima"]' in text and '[Result "*"]' not in text
    assert main(["check", str(path), "--rules-file", str(rules)]) == 0
    assert "1 game, 0 with errors" in capsys.readouterr().out
    # without the club's file the record cannot be judged: it is refused, untouched
    assert isinstance(inspect(path), Refused)
    assert isinstance(inspect(path, house=house), NewGame)


def test_an_unfinished_club_game_resumes_under_the_club_s_rules(tmp_path: Path) -> None:
    house = club()
    path = tmp_path / "club.afn"
    with RecordFile(path) as record:
        session = Session(new_tags(rules="club:arima", players=PLAYERS), record=record,
                          house=house)
        feed(session, ["n", "4s", "s", "js"])
    with RecordFile(path) as record:
        opened = inspect(path, record, house=house)
        assert isinstance(opened, Resume)
        assert opened.session.options.target == 3
        assert len(opened.session.entries) == 4


def test_record_refuses_a_bad_rules_file_before_any_screen(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    rules = tmp_path / "club.toml"
    rules.write_text('name = "x"\n[options]\ntarget = "many"\n', encoding="utf-8")
    assert main(["record", str(tmp_path / "g.afn"), "--rules-file", str(rules)]) == 2
    assert "AFN506" in capsys.readouterr().err
    assert not (tmp_path / "g.afn").exists()


def test_a_game_taken_up_part_way_starts_from_its_score_and_ends_at_the_target(
        tmp_path: Path) -> None:
    path = tmp_path / "part-way.afn"
    tags = new_tags(players=PLAYERS, date="2026.11.30", score="N 6 S 5")
    with RecordFile(path) as record:
        session = Session(tags, record=record)
        assert dict(session.scores()) == {"N": 6, "S": 5}
        # N holds the jack of trumps and high; N's Jack alone is the seventh point
        feed(session, ["s", "n js 9h 8h 7c 6d 5d", "s 9c 8c 7d 3h 2h 2d", "4s", "s", "js"])
        while not session.over:
            expecting = session.expect()
            if expecting.phase is Phase.CONFIRM:  # the deal that ends the game: agreed
                assert "[Result \"*\"]" in session.text()  # not before the other side agrees
                feed(session, ["y"])
                continue
            feed(session, [str(expecting.offered[0]).lower()])
        assert session.winner() == "N"
    text = path.read_text(encoding="utf-8")
    assert '[Score "N 6 S 5"]' in text and '[Result "N"]' in text
    game = parse(text).games[0]
    assert len(game.deals) == 1 and game.deals[0].total is not None
    assert game.deals[0].total is not None
    assert {s.seat.letter: s.points for s in game.deals[0].total.scores}["N"] >= 7


def test_a_new_game_after_a_finished_one_does_not_inherit_its_starting_score(
        tmp_path: Path) -> None:
    path = tmp_path / "two.afn"
    tags = new_tags(players=PLAYERS, date="2026.11.30", score="N 6 S 6")
    with RecordFile(path) as record:
        feed(Session(tags, record=record), ["n", "4s", "s", "js", "2d", "s concedes"])
    opened = inspect(path)
    assert isinstance(opened, NewGame)
    assert "Score" not in {tag.name for tag in opened.proposed}
