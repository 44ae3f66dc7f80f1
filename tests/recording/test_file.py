"""The file being recorded: opened, resumed, refused, locked, and never lost to a kill."""

from __future__ import annotations

import os
import random
import signal
import subprocess
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from pathlib import Path

import pytest

from allfours_notation.archive import parallel
from allfours_notation.reading.parser import parse
from allfours_notation.recording.opening import NewGame, Refused, Resume, inspect
from allfours_notation.recording.script import lines_of_game, record_lines
from allfours_notation.recording.session import Session
from allfours_notation.recording.storage import FileLocked, RecordFile, lock_path
from allfours_notation.writing.formatter import format_game
from tests.recording.helpers import (
    TWO_TAGS,
    feed,
    file_problems,
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


def _killed_run(path: Path, lines: list[str], entries: int, rng: random.Random) -> bool:
    """Record in a child process that waits for a go-ahead after each entry; let it make
    ``entries`` entries, then SIGKILL it at a random instant of the next one (judging
    it, or writing it).  True when the child finished the game first."""
    acks_read, acks_write = os.pipe()
    go_read, go_write = os.pipe()
    pid = os.fork()
    if pid == 0:  # the child: record, tell the parent after each entry, wait to go on
        code = 3
        try:
            os.close(acks_read)
            os.close(go_write)

            def after_entry(_: int) -> None:
                os.write(acks_write, b".")
                os.read(go_read, 1)

            code = record_lines(path, lines, after_entry)
        finally:
            os._exit(code)
    os.close(acks_write)
    os.close(go_read)
    finished = False
    for _ in range(entries):
        if not os.read(acks_read, 1):
            finished = True
            break
        os.write(go_write, b".")
    if not finished:
        time.sleep(rng.uniform(0, 0.003))  # a random instant into the next entry or its write
        os.kill(pid, signal.SIGKILL)
    _, status = os.waitpid(pid, 0)
    os.close(acks_read)
    os.close(go_write)
    if finished and not (os.WIFEXITED(status) and os.WEXITSTATUS(status) == 0):
        raise AssertionError(f"the recorder that finished the game ended with {status}")
    return finished


@dataclass(frozen=True, slots=True)
class Campaign:
    """What :func:`_kill_campaign` found."""

    kills: int
    done: bool  # the game was recorded to its end
    wrong: str | None  # what was wrong with the file after a kill (None: nothing)


def _kill_campaign(path: str, lines: list[str], seed: int) -> Campaign:
    """Record ``lines`` into ``path`` in children killed at random points until the game
    is over, reading the file after every run.

    It runs in a process of its own, started by the forkserver ``check -j`` uses: a
    fresh process with no threads, so that it may fork its children (each one a copy
    with the parser built) where the test runner's process, which runs threads, may
    not (Python 3.12 warns: the child of a threaded process may deadlock)."""
    rng = random.Random(seed)
    kills = 0
    for run in range(1000):
        finished_first = _killed_run(Path(path), lines, 1, rng)
        problems = file_problems(Path(path))  # parses; nothing worse than unfinished
        written = parse(Path(path).read_text(encoding="utf-8")).games
        if problems or len(written) != 1 or written[0].broken:
            return Campaign(kills, False, f"after run {run + 1}: {problems}")
        kills += not finished_first
        if written[0].tag("Result") != "*":  # the game is over: all recorded
            return Campaign(kills, True, None)
    return Campaign(kills, False, None)


@pytest.mark.skipif(not (hasattr(os, "fork") and parallel.can_start_workers()),
                    reason="needs fork and a forkserver")
def test_killed_at_random_points_the_file_always_parses_and_resumes_to_the_same_game(
        tmp_path: Path) -> None:
    game = generated("hoffmann1909", 2, seed=3, hands=0.5, beg=0.7)
    lines = lines_of_game(game)
    path = tmp_path / "killed.afn"
    start_file(path, game.tags)
    with ProcessPoolExecutor(1, mp_context=parallel.context(__name__)) as campaigner:
        campaign = campaigner.submit(_kill_campaign, str(path), lines, 8).result()
    assert campaign.wrong is None
    assert campaign.done, "the game was never finished"
    # A run makes one entry and is killed during the next, so it moves the game on by at
    # most two entries: at least half the entries' worth of runs, every one but the last
    # killed (how many more depends on where the kills land, which is the machine's speed).
    assert campaign.kills >= len(lines) // 2 - 1, (campaign.kills, len(lines))
    recorded = parse(path.read_text(encoding="utf-8")).games[0]
    uninterrupted = Session(game.tags)
    feed(uninterrupted, lines)
    assert same_records(recorded, uninterrupted.game())
    assert same_records(recorded, game)


def test_the_record_keeps_its_permissions(tmp_path: Path) -> None:
    path = tmp_path / "mode.afn"
    start_file(path)
    os.chmod(path, 0o640)
    with RecordFile(path) as record:
        Session(TWO_TAGS, record=record).save()
    assert path.stat().st_mode & 0o777 == 0o640
    assert not list(tmp_path.glob(".mode.afn.*.tmp"))  # no temporary file left behind
