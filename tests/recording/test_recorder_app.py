"""Pilot tests of the recorder: whole games typed in, refusals, questions, undo, corrections."""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Coroutine
from pathlib import Path
from typing import Any

from textual import events
from textual.screen import Screen

from allfours_notation.checking.parsing import parse
from allfours_notation.reading.records import Game
from allfours_notation.recording.entries import Phase
from allfours_notation.viewer.recorder.help import RecorderHelp
from allfours_notation.viewer.recorder.screen import RecorderScreen
from allfours_notation.viewer.recorder.widgets import EntryList
from tests.recording.app_helpers import (
    keys,
    recorder,
    rows_made_again,
    send_keys,
    shown,
    status,
    type_line,
)
from tests.recording.helpers import file_problems, start_file
from tests.waiting import until

Scenario = Callable[[], Coroutine[Any, Any, None]]
HANDS = ["n", "s js 9h 8h 7c 6d 5d", "n 9c 8c 7d 3h 2h 2d", "4s", "s"]


def run(scenario: Scenario) -> None:
    asyncio.run(scenario())


def on_top(screen: RecorderScreen) -> Screen[Any]:
    """The app's screen on top, typed as any screen, so that an ``isinstance`` check of
    it narrows nothing for the checks after it."""
    return screen.app.screen


def recorded(path: Path) -> Game:
    games = parse(path.read_text(encoding="utf-8")).games
    assert len(games) == 1 and not games[0].broken
    return games[0]


async def play_by_position(app: RecorderScreen, pilot: Any, line: str) -> None:
    """A card typed as its position among the legal cards offered, when there are any."""
    assert app.session is not None
    offered = [str(c).lower() for c in app.session.expect().offered]
    if app.session.expect().phase is Phase.PLAY and line in offered:
        await type_line(pilot, str(offered.index(line) + 1))
    else:
        await type_line(pilot, line)


def test_the_start_form_writes_the_header_then_a_deal_is_typed_in(tmp_path: Path) -> None:
    path = tmp_path / "new.afn"

    async def scenario() -> None:
        async with recorder(path) as (app, pilot):
            # the form typed ahead in one go (date and rules as proposed): each Enter
            # moves on in the order the keys came, nothing joins the field before it
            for key in [*keys("Club night"), "enter", *keys("Arima"), "enter", "enter",
                        "enter", *keys("Ann"), "enter", *keys("Ben"), "enter", "enter",
                        *keys("N 9"), "enter"]:  # a starting score at the target: refused
                app.app.post_message(events.Key(key, " " if key == "space" else
                                                "\r" if key == "enter" else key))

            def problem() -> str:
                return shown(app.app.screen, "#form-problem")

            await until(pilot, lambda: "has already reached" in problem(),
                        "the form to refuse the starting score")
            assert app.session is None
            assert "N 9 has already reached the target 7" in problem()
            await pilot.press("backspace", "backspace", "backspace")
            await type_line(pilot, "N 5 S 6")  # the game is taken up at 5–6
            assert app.session is not None
            text = path.read_text(encoding="utf-8")
            assert '[Event "Club night"]' in text and '[South "Ben"]' in text
            assert '[Score "N 5 S 6"]' in text
            assert "Score N 5  S 6" in shown(app, "#rec-points-body")
            assert "who deals the first deal" in shown(app, "#rec-expect")
            for line in HANDS:
                await type_line(pilot, line)
            assert "S to play to trick 1" in shown(app, "#rec-expect")
            assert "1:J♠" in shown(app, "#rec-offered")
            await pilot.press("enter")  # a stray Enter: no card is chosen, none recorded
            assert status(app).startswith("which card?")
            assert len(app.session.entries) == 5  # dealer, two hands, turn-up, stands
            await pilot.press("right", "right", "enter")  # the second legal card offered: 9H
            assert status(app) == "S plays 9H"
        assert "1. S:9H" in path.read_text(encoding="utf-8")
        assert file_problems(path) == []

    run(scenario)


def test_refusals_change_nothing_then_a_revoke_asks_first_and_is_recorded_and_penalised(
        tmp_path: Path) -> None:
    """After the hands and the turn-up: refusals are one line and change nothing (it was
    a test of its own, starting the recorder for it); then, from the same point, the
    play with a revoke."""
    path = tmp_path / "revoke.afn"
    start_file(path)

    async def scenario() -> None:
        async with recorder(path) as (app, pilot):
            for line in HANDS:
                await type_line(pilot, line)
            before = path.read_text(encoding="utf-8")
            await type_line(pilot, "2d")
            assert status(app) == "refused: S plays 2D, but 2D was dealt to N"
            await type_line(pilot, "n:9c")
            assert status(app).startswith("refused: N leads trick 1, but S should lead")
            await type_line(pilot, "qh")  # a long reason: wrapped in full, not cut off
            reason = "refused: S plays QH, a card S does not hold: its hand of 6 is already " \
                     "accounted for"
            assert status(app) == reason
            await pilot.pause()  # the layout follows the new text
            box = app.query_one("#rec-status")
            assert box.size.height == 2 and box.size.width < len(reason)
            assert path.read_text(encoding="utf-8") == before
            for line in ["7c", "8c", "3h"]:
                await type_line(pilot, line)
            await type_line(pilot, "5d")
            assert status(app).startswith("revoke: S plays 5D on hearts led")
            assert status(app).endswith("Record it? (y/n)")
            taken = app.lines_taken
            await send_keys(app, ["n"], until=lambda: app.lines_taken > taken)  # one key
            assert status(app) == "not recorded"
            await type_line(pilot, "5d")
            taken = app.lines_taken
            await send_keys(app, ["y"], until=lambda: app.lines_taken > taken)
            assert status(app).startswith("S plays 5D — revoke")
            assert app.session is not None
            state = app.session.judgement().table
            assert state is not None
            left = sum(len(state.hand(seat)) for seat in state.seats)
            session = app.session
            await send_keys(app, ["1", "enter"] * left,  # the first legal card, each time
                            until=lambda: session.expect().phase is not Phase.PLAY)
            assert "Penalty" in shown(app, "#rec-points-body")

    run(scenario)
    assert "S:5D" in path.read_text(encoding="utf-8")


def test_the_points_so_far_show_then_an_earlier_entry_is_corrected_from_the_list(
        tmp_path: Path) -> None:
    """Two cards into the first trick, the deal's points show as if it ended now (it was a
    test of its own, starting the recorder for it); two cards on, entry 7 is corrected."""
    path = tmp_path / "correct.afn"
    start_file(path)

    async def scenario() -> None:
        async with recorder(path) as (app, pilot):
            for line in [*HANDS, "js", "2d"]:
                await type_line(pilot, line)
            points = shown(app, "#rec-points-body")
            assert "Deal 1 so far, if it ended now" in points
            assert "High     S  +1" in points and "Score N 0  S 0" in points
            for line in ["9h", "3h"]:
                await type_line(pilot, line)
            await pilot.press("ctrl+e")
            assert isinstance(app.app.focused, EntryList)
            await pilot.press("up", "up", "enter")  # N:2D, the 7th entry
            assert "Correcting entry 7" in shown(app, "#rec-expect")
            await type_line(pilot, "3h")
            assert status(app) == "entry 7 corrected; 1 later entry is now invalid"
            rows = app.query_one(EntryList).rows
            assert "✗" in rows[8].plain and "3H is played twice" in rows[8].plain
            assert rows_made_again(app)

    run(scenario)


def test_help_then_undo_and_redo_keys_then_a_concession_ends_the_game(tmp_path: Path) -> None:
    """One recorder (it was three tests, each starting it for its part): help opens on
    ? and F1; undo and redo step through the entries; a concession ends the game."""
    path = tmp_path / "undo.afn"
    start_file(path)

    async def scenario() -> None:
        async with recorder(path) as (app, pilot):
            await pilot.press("question_mark")
            assert isinstance(on_top(app), RecorderHelp)
            await pilot.press("escape", "f1")
            assert isinstance(on_top(app), RecorderHelp)
            await pilot.press("escape")
            assert not isinstance(on_top(app), RecorderHelp)
            # undo and redo
            for line in ["n", "4s", "s"]:
                await type_line(pilot, line)
            assert app.session is not None
            await pilot.press("ctrl+z", "ctrl+z", "ctrl+z")
            assert app.session.entries == ()
            await pilot.press("ctrl+z")
            assert status(app) == "nothing to undo"
            await pilot.press("ctrl+y", "ctrl+y")
            assert len(app.session.entries) == 2
            assert "S stands (s) or begs (b)" in shown(app, "#rec-expect")
            assert "turn 4S" in path.read_text(encoding="utf-8")
            # a concession ends the game
            for line in ["s", "js", "2d", "n concedes"]:
                await type_line(pilot, line)
            assert "the game is over (S wins)" in shown(app, "#rec-expect")

    run(scenario)
    text = path.read_text(encoding="utf-8")
    assert "turn 4S" in text
    assert '[Result "S"]' in text and "N concedes" in text and text.endswith("end\n")
