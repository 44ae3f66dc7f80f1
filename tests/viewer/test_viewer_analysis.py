"""The analysis panel (key 7): nothing is solved until it is asked for; then the deal is
solved in a worker and the panel follows the cards."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest
from textual.pilot import Pilot

from allfours_notation.checking.analysis import DealAnalysis
from allfours_notation.viewer import model
from allfours_notation.viewer.app import ViewerApp
from allfours_notation.viewer.widgets.analysis import AnalysisPanel
from tests.viewer.viewer_helpers import loaded, shown
from tests.waiting import until

SAMPLE_TWO = Path(__file__).resolve().parents[2] / "samples" / "two-player-to-seven.afn"


async def solved(app: ViewerApp, pilot: Pilot[int]) -> DealAnalysis:
    await until(pilot, lambda: bool(app.analyses) and app.analysing is None,
                "the deal to be solved")
    found = next(iter(app.analyses.values()))
    assert isinstance(found, DealAnalysis)
    return found


def test_the_panel_solves_the_deal_when_asked_and_follows_the_cards() -> None:
    async def scenario() -> None:
        async with loaded(SAMPLE_TWO) as (app, pilot):
            assert not app.analyses and app.analysing is None  # nothing computed on opening
            assert not app.query_one(AnalysisPanel).display
            await pilot.press("pagedown")  # deal 2: South's 9C loses Game
            await pilot.press("7")
            assert app.query_one(AnalysisPanel).display
            analysis = await solved(app, pilot)
            assert analysis.number == 2
            text = " ".join(shown(app, "#analysis").split())
            assert "all hands seen (double dummy)" in text
            assert "Par N 1, S 2 actual N 2, S 1" in text
            assert "4. S:9C? lost Game (N 1 v S 17 with S:TC)" in text
            assert "Value here S +1 best N:7D" in text  # before the first card
            assert app.entry is not None
            first = app.entry.replay.deals[1].first_step
            while model.cards_played_before(app.entry.steps, first, app.step) < 8:
                await pilot.press("right")  # through trick 4 to South's 9C
            text = " ".join(shown(app, "#analysis").split())
            assert "▸ 4. S:9C?" in text
            await pilot.press("7")  # the key toggles the panel off
            assert not app.query_one(AnalysisPanel).display

    asyncio.run(scenario())


def test_a_cache_that_is_not_used_is_told_in_a_notification_once(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Issue 41: the cache's path is a symbolic link: the deal is solved all the same,
    and why the cache is not used shows once, as a notification, not on the terminal."""
    folder = tmp_path / "cache"
    folder.mkdir(mode=0o700)
    (folder / "analysis.sqlite").symlink_to(tmp_path / "elsewhere.sqlite")
    monkeypatch.setenv("ALLFOURS_CACHE_DIR", str(folder))

    async def scenario() -> None:
        async with loaded(SAMPLE_TWO) as (app, pilot):
            await pilot.press("7")
            assert (await solved(app, pilot)).number == 1
            await pilot.press("pagedown")  # the next deal: the cache is asked again
            await until(pilot, lambda: len(app.analyses) == 2, "the second deal")
            told = [n.message for n in app._notifications if "analysis cache" in n.message]
            assert len(told) == 1 and "symbolic link" in told[0]
            assert not (tmp_path / "elsewhere.sqlite").exists()

    asyncio.run(scenario())
