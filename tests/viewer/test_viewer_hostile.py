"""The viewer shows a hostile record's text, never obeys it (issue 23, finding 2)."""

from __future__ import annotations

import asyncio
from pathlib import Path

from allfours_notation.viewer.app import ViewerApp
from tests.hostile.test_hostile_outputs import HOSTILE, hostile_game
from tests.viewer.viewer_helpers import SIZE, wait_loaded


def test_names_events_and_comments_are_shown_escaped(tmp_path: Path) -> None:
    path = tmp_path / "hostile.afn"
    value = HOSTILE["title"] + HOSTILE["c1"] + HOSTILE["markup"] + HOSTILE["bidi"]
    path.write_text(hostile_game(value), encoding="utf-8")

    async def scenario() -> None:
        app = ViewerApp(str(path))
        async with app.run_test(size=SIZE) as pilot:
            await wait_loaded(pilot)
            await pilot.press("right", "right")
            await pilot.pause()
            shown = app.export_screenshot()
        for raw in ("\x1b", "\x07", "\u009b", "\u009d", "\u202e"):
            assert raw not in shown, repr(raw)
        assert "\\x1b]0;pwned\\x07" in shown
        assert "[bold" in shown  # the markup as typed, not a style

    asyncio.run(scenario())

