"""Ctrl+R while recording: the game recorded so far replayed in the view mode, and back.

The view's widgets are made only when the recording is first replayed (the recorder
starts without them); the replay must look and act as the viewer does on the same file.
"""

from __future__ import annotations

import asyncio
from pathlib import Path

from textual.widgets import Footer
from textual.widgets._footer import FooterKey

from allfours_notation.viewer.app import ViewerApp
from allfours_notation.viewer.widgets.lists import StepList
from tests.recording.app_helpers import recorder, type_line
from tests.recording.helpers import start_file
from tests.waiting import until

ENTRIES = ["n", "s js 9h 8h 7c 6d 5d", "n 9c 8c 7d 3h 2h 2d", "4s", "s", "js"]


def test_ctrl_r_replays_the_recording_at_its_last_step_and_comes_back(tmp_path: Path) -> None:
    path = tmp_path / "review.afn"
    start_file(path)

    async def scenario() -> None:
        async with recorder(path) as (screen, pilot):
            app = pilot.app
            assert isinstance(app, ViewerApp)
            for line in ENTRIES:
                await type_line(pilot, line)
            for visit in range(2):  # the second time the view is there already
                await pilot.press("ctrl+r")
                await until(pilot, lambda: app.screen is not screen and app.entry is not None
                            and app.library is not None and app.library.complete,
                            "the recording to be replayed")
                assert app.entry is not None
                assert app.step == len(app.entry.steps) - 1  # at the last card played
                assert app.query_one("#games").border_title == "1 Games and deals"
                assert isinstance(app.focused, StepList)
                assert len(app.screen.query(StepList)) == 1
                await until(pilot, lambda: app.screen.query_one(Footer).query(FooterKey),
                            "the view's keys")
                labels = {key.description for key in app.screen.query_one(Footer).query(FooterKey)}
                assert {"Kibitz", "Record"} <= labels, (visit, labels)
                await pilot.press("ctrl+r")
                await until(pilot, lambda: app.screen is screen, "the recorder to return")
                assert screen.session is not None and len(screen.session.entries) == 6

    asyncio.run(scenario())
