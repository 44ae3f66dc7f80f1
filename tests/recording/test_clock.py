"""The recorder writes the clock time on each deal it begins (``deal 2 dealer S at
19:34``), from the session's clock: the wall clock in ``allfours record``, a test's own
here; a session without one writes none (issue 38)."""

from __future__ import annotations

from dataclasses import replace
from itertools import count
from pathlib import Path

from allfours_notation.checking.parsing import parse
from allfours_notation.recording.resuming import entries_of_game
from allfours_notation.recording.script import lines_of_game
from allfours_notation.recording.session import Session
from allfours_notation.recording.storage import RecordFile
from allfours_notation.referee.profiles import PROFILES
from tests.recording.helpers import feed, file_problems, generated, same_records, start_file


def ticking() -> tuple[list[str], object]:
    """A clock that says 19:30, 19:31 … at each reading, and what it said."""
    said: list[str] = []
    minutes = count(19 * 60 + 30)

    def clock() -> str:
        now = next(minutes)
        said.append(f"{now // 60:02d}:{now % 60:02d}")
        return said[-1]
    return said, clock


def test_each_deal_begun_gets_the_clocks_time_and_the_file_says_so(tmp_path: Path) -> None:
    path = tmp_path / "game.afn"
    game = generated("hoffmann1909", 2, seed=3, hands=0.5, beg=0.6)
    said, clock = ticking()
    start_file(path, game.tags)
    with RecordFile(path) as record:
        session = Session(game.tags, record=record, clock=clock)  # type: ignore[arg-type]
        feed(session, lines_of_game(game))
    assert file_problems(path) == []
    written = parse(path.read_text(encoding="utf-8")).games[0]
    assert [deal.time for deal in written.deals] == said[:len(game.deals)]
    assert len(said) == len(game.deals) > 1  # read once a deal, when it began
    assert f"deal 1 dealer {game.deals[0].dealer.letter} at 19:30\n" in path.read_text()
    untimed = replace(written, deals=tuple(replace(d, time=None) for d in written.deals))
    assert same_records(untimed, game)


def test_a_session_without_a_clock_writes_no_time() -> None:
    game = generated("hoffmann1909", 2, seed=3, hands=0.5, beg=0.6)
    session = Session(game.tags)
    feed(session, lines_of_game(game))
    assert all(deal.time is None for deal in session.game().deals)


def test_a_resumed_game_keeps_its_times_and_stamps_the_deals_begun_after(
        tmp_path: Path) -> None:
    game = generated("hoffmann1909", 2, seed=3, hands=0.5, beg=0.6)
    timed = replace(game, deals=tuple(replace(d, time=f"18:{n:02d}")
                                      for n, d in enumerate(game.deals)))
    entries = entries_of_game(timed, PROFILES["hoffmann1909"].options)
    said, clock = ticking()
    session = Session(timed.tags, entries=entries, clock=clock)  # type: ignore[arg-type]
    assert [d.time for d in session.game().deals] == [d.time for d in timed.deals]
    assert said == []  # nothing begun: the clock is not read
