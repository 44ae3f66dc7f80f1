"""The advice panel (key 8): nothing is advised until it is asked for; at a call the
advisor's options are shown (advised in a worker), elsewhere where the next call is; hidden
while kibitzing."""

from __future__ import annotations

import asyncio
import re
from pathlib import Path

import pytest

from allfours_notation.viewer import advice as viewer_advice
from allfours_notation.viewer.widgets.advice import AdvicePanel
from tests.viewer.viewer_helpers import loaded, shown
from tests.waiting import until

SAMPLE_TWO = Path(__file__).resolve().parents[2] / "samples" / "two-player-to-seven.afn"


def test_the_panel_advises_the_call_on_screen_when_asked(
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(viewer_advice, "VIEWER_SAMPLES", 2)
    monkeypatch.setattr(viewer_advice, "VIEWER_DEALER_SAMPLES", 1)
    monkeypatch.setattr(viewer_advice, "VIEWER_LATER", 4)
    monkeypatch.setattr(viewer_advice, "VIEWER_TIME_LIMIT", 0.3)

    async def scenario() -> None:
        async with loaded(SAMPLE_TWO) as (app, pilot):
            assert not app.advice_found and app.advising is None  # nothing on opening
            assert not app.query_one(AdvicePanel).display
            await pilot.press("8")
            assert app.query_one(AdvicePanel).display
            text = " ".join(shown(app, "#advice").split())
            assert "Step to a call" in text and "the next at step 4" in text
            assert not app.advice_found  # nothing advised away from a call
            while app.step < 3:
                await pilot.press("right")  # to South's stand (step 4 on screen)
            await until(pilot, lambda: bool(app.advice_found) and app.advising is None,
                        "the call to be advised")
            text = " ".join(shown(app, "#advice").split())
            assert "S stands; the advisor:" in text
            assert "stands: S wins" in text and "begs: S wins" in text and "(K=2)" in text
            assert "hidden hands unknown" in text
            await pilot.press("k")  # kibitzing: the advice would show the caller's hand
            text = " ".join(shown(app, "#advice").split())
            assert "Hidden while kibitzing" in text
            await pilot.press("8")  # the key toggles the panel off
            assert not app.query_one(AdvicePanel).display

    asyncio.run(scenario())


def test_the_recorder_never_shows_the_advice() -> None:
    """During a game (the recorder, the phones' pages) nothing reaches the advisor: the
    advice is the replay view's panel only."""
    root = Path(__file__).resolve().parents[2]
    folders = [root / "viewer" / "recorder", root / "allfours_notation" / "recording",
               root / "allfours_notation" / "venue"]
    for folder in folders:
        for path in folder.rglob("*.py"):
            text = path.read_text(encoding="utf-8")
            assert not re.search(r"\badvisor(_\w+)?\b|\badvice\b", text, re.I), path
