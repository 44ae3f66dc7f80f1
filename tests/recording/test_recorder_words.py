"""What the recorder's screen says in the mode in use (issue 37): F1 and the entry
line's hint show the keys of that mode and the other side's y/c; a correction shows the
format of what it corrects; a claim starts from the scorer's items (a claim is the whole
deal) and one changed item makes one dispute; a deal is written with its first entry."""

from __future__ import annotations

import asyncio
import io
from pathlib import Path

from rich.console import Console
from textual.widgets import Static

from allfours_notation.cards import Seat
from allfours_notation.checking import check
from allfours_notation.checking.parsing import parse
from allfours_notation.reading.records import Tag
from allfours_notation.recording.entries import DealStart
from allfours_notation.recording.opening import new_tags
from allfours_notation.viewer.recorder import RecorderScreen
from allfours_notation.viewer.recorder.help import RecorderHelp
from tests.recording.app_helpers import recorder, send_keys, shown, status, type_line
from tests.recording.helpers import TWO_TAGS, file_problems, start_file
from tests.waiting import until

RESULTS_TAGS = (*new_tags(players={"North": "Ann", "South": "Ben"}, date="2026.12.02"),
                Tag(name="Entry", value="results"))
DEAL = ["n", "s js 9h 8h 7c 6d 5d", "n 9c 8c 7d 3h 2h 2d", "4s", "s", "js", "2d", "9h", "3h",
        "8h", "2h", "7c", "8c", "9c", "5d", "7d", "6d"]


def help_text(screen: RecorderScreen) -> str:
    """Everything the open help says, as plain text."""
    shown_help = screen.app.screen
    assert isinstance(shown_help, RecorderHelp)
    console = Console(width=200, record=True, file=io.StringIO(), color_system=None)
    for static in shown_help.query(Static):
        console.print(static.content)
    return console.export_text()


def hint(screen: RecorderScreen) -> str:
    return str(screen.entry_line.placeholder)


def test_a_claim_starts_from_the_scorers_items_and_one_change_is_one_dispute(
        tmp_path: Path) -> None:
    path = tmp_path / "results.afn"
    start_file(path, RESULTS_TAGS)

    async def scenario() -> None:
        async with recorder(path) as (screen, _pilot):
            session = screen.session
            assert session is not None
            await type_line(_pilot, "n")
            await send_keys(screen, ["h", "n", "l", "n", "j", "s", "g", "s", "enter"],
                            until=lambda: session.expect().phase.value == "confirm")
            taken = screen.lines_taken
            await send_keys(screen, ["c"], until=lambda: screen.claiming is not None)
            said = " ".join(status(screen).split())
            assert "the whole deal: N high low S jack game" in said, said
            await send_keys(screen, ["l", "s"], until=lambda: "scorer's" in status(screen))
            said = " ".join(status(screen).split())
            assert "N high S low jack game (the scorer's: N high low S jack game)" in said
            await send_keys(screen, ["enter"], until=lambda: screen.lines_taken > taken)

    asyncio.run(scenario())
    game = parse(path.read_text(encoding="utf-8")).games[0]
    disputes = [d for d in check(game).diagnostics if d.code == "AFN401"]
    assert len(disputes) == 1 and "Low" in disputes[0].message


def test_help_and_hint_in_results_mode_then_a_ruling_after_the_other_sides_y(
        tmp_path: Path) -> None:
    """One recorder in results mode (it was two tests typing the same deal): F1 and the
    hint show the keys of results mode and the other side's word; then, after the other
    side's y, a ruling is on that deal and begins no deal."""
    path = tmp_path / "results.afn"
    start_file(path, RESULTS_TAGS)

    async def scenario() -> None:
        async with recorder(path) as (screen, pilot):
            session = screen.session
            assert session is not None
            await type_line(pilot, "n")
            assert "js" not in hint(screen) and "h l j" in hint(screen)
            await pilot.press("f1")
            await until(pilot, lambda: isinstance(screen.app.screen, RecorderHelp), "help")
            text = help_text(screen)
            assert "by their results" in text and "Hang Jack" in text and "js 10h" not in text
            assert "the other side agrees" in text and "A claim is the whole deal" in text
            await pilot.press("escape")
            await until(pilot, lambda: screen.app.screen is screen, "help closed")
            await send_keys(screen, ["h", "n", "l", "n", "g", "s", "enter"],
                            until=lambda: session.expect().phase.value == "confirm")
            assert hint(screen).startswith("y: the other side agrees")
            # the other side's y, then a ruling on that deal
            await send_keys(screen, ["y"],
                            until=lambda: session.entries[-1] == DealStart(dealer=Seat.SOUTH))
            await type_line(pilot, "director n high s low game")
            assert session.entries[-1] == DealStart(dealer=Seat.SOUTH)  # deal 2: no item yet
            assert "deal 2" not in path.read_text(encoding="utf-8")
            assert "director scored N high S low game" in path.read_text(encoding="utf-8")
            assert file_problems(path) == []

    asyncio.run(scenario())


def test_help_in_cards_mode_a_correction_and_enter_after_the_other_sides_y(
        tmp_path: Path) -> None:
    """One recorder in cards mode through one deal (it was three tests typing parts of
    it): F1 shows the card keys and y and c; a correction shows the format of what it
    corrects; and the tutorial's ending: the deal played, y, Enter (the next dealer),
    Ctrl+Q: the file ends in the whole deal and checks clean; the next deal begins with
    its entry."""
    path = tmp_path / "cards.afn"
    start_file(path, TWO_TAGS)

    async def scenario() -> None:
        async with recorder(path) as (screen, pilot):
            session = screen.session
            assert session is not None
            await pilot.press("f1")
            await until(pilot, lambda: isinstance(screen.app.screen, RecorderHelp), "help")
            text = help_text(screen)
            assert "by their cards" in text and "js 10h" in text
            assert "the other side agrees" in text and "A claim is the whole deal" in text
            await pilot.press("escape")
            await until(pilot, lambda: screen.app.screen is screen, "help closed")
            # a correction shows the format of what it corrects
            for line in DEAL[:7]:
                await type_line(pilot, line)
            await pilot.press("ctrl+e", "up", "enter")  # a card
            await until(pilot, lambda: screen.correcting is not None, "correcting")
            assert "the card (js, 10h" in shown(screen, "#rec-expect")
            await pilot.press("escape")
            await pilot.press("ctrl+e", "up", "up", "up", "enter")  # the turn-up, entry 4
            await until(pilot, lambda: screen.correcting == 3, "correcting the turn-up")
            assert "the turn-up (4s)" in shown(screen, "#rec-expect")
            await pilot.press("escape")
            await until(pilot, lambda: screen.correcting is None, "the correction left")
            # the rest of the deal, y, Enter
            for line in DEAL[7:]:
                await type_line(pilot, line)
            taken = screen.lines_taken
            await send_keys(screen, ["y"], until=lambda: screen.lines_taken > taken)
            await type_line(pilot, "")
            assert session.entries[-1] == DealStart(dealer=Seat.SOUTH)  # held by the session
            assert "S deals" in shown(screen, "#rec-expect")
            assert "deal 2" not in path.read_text(encoding="utf-8")
            assert file_problems(path) == []
            await type_line(pilot, "5h")  # the turn-up begins deal 2, dealt by S
            assert "deal 2 dealer S" in path.read_text(encoding="utf-8")

    asyncio.run(scenario())
