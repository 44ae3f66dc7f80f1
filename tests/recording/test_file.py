"""The file being recorded: opened, resumed, refused, locked, and never lost to a kill."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from allfours_notation.checking.parsing import parse
from allfours_notation.recording.opening import NewGame, Refused, Resume, inspect
from allfours_notation.recording.script import lines_of_game
from allfours_notation.recording.session import Session
from allfours_notation.recording.storage import FileLocked, RecordFile, lock_path
from allfours_notation.writing.formatter import format_game
from tests.recording import kills
from tests.recording.helpers import (
    TWO_TAGS,
    feed,
    generated,
    same_records,
    start_file,
)

HANDS = ["n", "s js 9h 8h 7c 6d 5d", "n 9c 8c 7d 3h 2h 2d", "4s", "s"]


def test_a_missing_file_is_a_new_game(tmp_path: Path) -> None:
    opened = inspect(tmp_path / "new.afn")
    assert isinstance(opened, NewGame) and opened.index == 1 and opened.prefix == ""


def test_resume_stops_exactly_where_the_record_stopped(tmp_path: Path) -> None:
    path = tmp_path / "half.afn"
    start_file(path)
    with RecordFile(path) as record:
        session = Session(TWO_TAGS, record=record)
        feed(session, [*HANDS, "js", "2d", "9h"])
        before = session.expect()
        entries = session.entries
    with RecordFile(path) as record:
        opened = inspect(path, record)
        assert isinstance(opened, Resume)
        resumed = opened.session
        assert resumed.entries == entries
        after = resumed.expect()
        assert (after.phase, after.actor, after.text, after.offered) == \
            (before.phase, before.actor, before.text, before.offered)
        assert after.text == "N to play to trick 2"


def test_a_file_of_finished_games_gets_a_new_game_after_them(tmp_path: Path) -> None:
    path = tmp_path / "done.afn"
    game = generated("hoffmann1909", 2, seed=1)
    text = "% AFN 1\n" + format_game(game)
    path.write_text(text, encoding="utf-8")
    opened = inspect(path)
    assert isinstance(opened, NewGame)
    assert opened.index == 2 and opened.prefix == text
    proposed = {tag.name: tag.value for tag in opened.proposed}
    assert proposed["Result"] == "*" and proposed["North"] == game.tag("North")
    with RecordFile(path) as record:
        session = Session(opened.proposed, prefix=opened.prefix, index=2, record=record)
        feed(session, ["n", "4s"])
    games = parse(path.read_text(encoding="utf-8")).games
    assert len(games) == 2 and same_records(games[0], game)
    assert path.read_text(encoding="utf-8").startswith(text.rstrip("\n"))


def test_a_finished_game_is_resumed_as_it_ended_when_asked(tmp_path: Path) -> None:
    """``allfours serve`` restarted shows the game the table finished (the recorder's
    new game after it is left to the table's asking); the session writes the same text
    again, and opening writes nothing."""
    path = tmp_path / "done.afn"
    text = "% AFN 1\n" + format_game(generated("hoffmann1909", 2, seed=1))
    path.write_text(text, encoding="utf-8")
    with RecordFile(path) as record:
        opened = inspect(path, record, resume_finished=True)
        assert isinstance(opened, Resume)
        session = opened.session
        assert session.over and session.index == 1 and session.prefix == ""
        assert session.text() == text
    assert path.read_text(encoding="utf-8") == text
    assert isinstance(inspect(path), NewGame)  # the recorder's: a new game proposed


def test_a_finished_game_its_entries_do_not_end_gets_a_new_game(tmp_path: Path) -> None:
    """A result written by hand on a game no side has won yet: not resumed as over (its
    deals would go on under a result), a new game proposed as without asking."""
    path = tmp_path / "hand.afn"
    path.write_text("% AFN 1\n[Rules \"trinidad14\"]\n[North \"A\"]\n[East \"B\"]\n"
                    "[South \"C\"]\n[West \"D\"]\n[Result \"NS\"]\n\n"
                    "deal 1 dealer N\n  scored N high\n  total N 1 E 0\nend\n",
                    encoding="utf-8")
    opened = inspect(path, resume_finished=True)
    assert isinstance(opened, NewGame) and opened.index == 2


def test_opening_a_file_holds_one_game_at_a_time(tmp_path: Path,
                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    """Memory stays bounded on a 100 MB record: the games before the last are checked
    one by one and let go, never all held (counted when the last game is checked)."""
    import gc

    from allfours_notation.checking import CheckedGame, Rules, check
    from allfours_notation.reading.records import Game

    game = generated("hoffmann1909", 2, seed=1)
    path = tmp_path / "many.afn"
    path.write_text("% AFN 1\n" + format_game(game) * 30, encoding="utf-8")
    alive: list[int] = []

    def counting(one: Game, rules: Rules = (None, {})) -> CheckedGame:
        if one.index == 30:
            alive.append(sum(isinstance(o, Game) and o.source == str(path)
                             for o in gc.get_objects()))
        return check(one, rules)

    monkeypatch.setattr("allfours_notation.recording.opening.check", counting)
    assert isinstance(inspect(path), NewGame)
    assert alive and alive[0] <= 3  # this game and the one before it, not 30


def test_a_refused_file_keeps_a_hundred_errors_and_counts_all(tmp_path: Path) -> None:
    path = tmp_path / "bad.afn"
    path.write_text("% AFN 1\n" + "deal 1 dealer N\n  turn 4S ]]]\nend\n" * 150,
                    encoding="utf-8")
    opened = inspect(path)
    assert isinstance(opened, Refused)
    assert len(opened.diagnostics) == 100 and "(150 errors)" in opened.message


@pytest.mark.parametrize("text", [
    "% AFN 1\n[Event \"x\"]\ndeal 1 dealer N\n  turn 4S\n  1. S:JS N:JS\nend\n",
    "% AFN 1\n[Event \"x\"]\ndeal 1 dealer N\n  turn 4S ]]] nonsense\nend\n",
    "this is a shopping list\n",
])
def test_a_file_that_is_not_valid_afn_is_refused_and_untouched(tmp_path: Path,
                                                               text: str) -> None:
    path = tmp_path / "bad.afn"
    path.write_text(text, encoding="utf-8")
    stamp = path.stat().st_mtime_ns
    opened = inspect(path)
    assert isinstance(opened, Refused)
    assert opened.diagnostics and "left untouched" in opened.message
    assert path.read_text(encoding="utf-8") == text and path.stat().st_mtime_ns == stamp


def test_a_second_recorder_on_the_same_file_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "locked.afn"
    with RecordFile(path):
        with pytest.raises(FileLocked, match="another recorder is writing this file"):
            RecordFile(path).acquire()
        result = subprocess.run(
            [sys.executable, "-m", "allfours_notation", "record", str(path)],
            capture_output=True, text=True, timeout=60, check=False)
        assert result.returncode == 2
        assert "another recorder is writing this file" in result.stderr
    assert not lock_path(path).exists()
    with RecordFile(path) as again:  # free once the first let go
        assert again.locked


def test_the_script_driver_records_from_standard_input(tmp_path: Path) -> None:
    path = tmp_path / "scripted.afn"
    game = generated("foster", 2, seed=9)
    start_file(path, game.tags)
    result = subprocess.run(
        [sys.executable, "-m", "allfours_notation.recording.script", str(path)],
        input="\n".join(lines_of_game(game)) + "\n", capture_output=True, text=True,
        timeout=120, check=False)
    assert result.returncode == 0, result.stderr
    written = parse(path.read_text(encoding="utf-8")).games
    assert same_records(written[0], game)


@pytest.mark.skipif(not kills.CAN_FORK, reason="needs fork and a forkserver")
def test_killed_at_random_points_the_file_always_parses_and_resumes_to_the_same_game(
        tmp_path: Path) -> None:
    """Two deals (33 entries, about 50 kills); tests/recording/test_file_slow.py kills
    the three-deal game of the same seed at every entry of 87."""
    game = generated("hoffmann1909", 2, seed=3, target=4, hands=0.5, beg=0.7)
    assert len(game.deals) == 2
    kills.check_killed_at_random_points(tmp_path / "killed.afn", game)


def test_the_record_keeps_its_permissions(tmp_path: Path) -> None:
    path = tmp_path / "mode.afn"
    start_file(path)
    os.chmod(path, 0o640)
    with RecordFile(path) as record:
        Session(TWO_TAGS, record=record).save()
    assert path.stat().st_mode & 0o777 == 0o640
    assert not list(tmp_path.glob(".mode.afn.*.tmp"))  # no temporary file left behind
