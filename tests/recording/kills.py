"""Killing the recorder at random points (tests/recording/test_file.py and its slow
form): the file must always parse and resume to the game that was being recorded."""

from __future__ import annotations

import os
import random
import signal
import time
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from pathlib import Path

from allfours_notation.archive import parallel
from allfours_notation.checking.parsing import parse
from allfours_notation.reading.records import Game
from allfours_notation.recording.script import lines_of_game, record_lines
from allfours_notation.recording.session import Session
from tests.recording.helpers import feed, file_problems, same_records, start_file

CAN_FORK = hasattr(os, "fork") and parallel.can_start_workers()


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


def kill_campaign(path: str, lines: list[str], seed: int) -> Campaign:
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


def check_killed_at_random_points(path: Path, game: Game) -> None:
    """Record ``game`` into ``path`` in children killed at random points (see
    :func:`kill_campaign`); the file must end holding ``game``, as recorded unkilled."""
    lines = lines_of_game(game)
    start_file(path, game.tags)
    with ProcessPoolExecutor(1, mp_context=parallel.context(__name__)) as campaigner:
        campaign = campaigner.submit(kill_campaign, str(path), lines, 8).result()
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
