"""The record mode's layout (issue 25): at 80×24 the score panel shows the whole deal's
points, or says that it scrolls and scrolls with PgUp/PgDn; from 120 columns the side
panels take the width the table does not need."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest
from textual.pilot import Pilot

from allfours_notation.viewer.recorder import RecorderScreen
from allfours_notation.viewer.recorder.widgets import EntryList, PointsPanel
from allfours_notation.writing.sheet import game_sheet
from tests.recording.app_helpers import recorder, send_keys, shown
from tests.waiting import until

RECORDED = Path(__file__).parents[2] / "docs" / "recorded" / "four-handed-trinidad.afn"


def four_handed_under_way(path: Path) -> None:
    """The recorded Trinidad game, stopped in deal 4 after its first trick."""
    text = RECORDED.read_text(encoding="utf-8").replace('[Result "EW"]', '[Result "*"]')
    start = text.index("deal 4 ")
    path.write_text(text[: text.index("\n  2. ", start)] + "\nend\n", encoding="utf-8")


async def disputed_deal_4(screen: RecorderScreen, pilot: Pilot[int]) -> PointsPanel:
    """The rest of deal 4 by the first legal card, then the other side disputes four
    items; the points panel once it shows the dispute."""
    panel = screen.query_one(PointsPanel)
    await until(pilot, lambda: panel.session is not None and panel.size.height > 1,
                "the points drawn")
    session = screen.session
    assert session is not None
    await send_keys(screen, ["1", "enter"] * 20,
                    until=lambda: session.expect().phase.value == "confirm")
    taken = screen.lines_taken
    await send_keys(screen, ["c", *"hnlnjngn", "enter"],  # their claim, by keys
                    until=lambda: screen.lines_taken > taken)
    await until(pilot, lambda: "disputed" in shown(screen, "#rec-points-body"),
                "the dispute shown")
    return panel


def test_at_80x24_the_score_panel_shows_every_item_then_a_dispute_without_paging(
        tmp_path: Path) -> None:
    """One recorder at 80x24 (it was two tests from the same file): the score panel shows
    every item of the deal under way; then, issue 37: after a dispute the score panel
    needed PgDn at 80x24; a narrow panel now names what is disputed on one line (the why:
    Ctrl+R, 'allfours check')."""
    path = tmp_path / "deal4.afn"
    four_handed_under_way(path)

    async def scenario() -> None:
        async with recorder(path, size=(80, 24)) as (screen, pilot):
            panel = screen.query_one(PointsPanel)
            await until(pilot, lambda: panel.session is not None and panel.size.height > 1,
                        "the points drawn")
            session = screen.session
            assert session is not None
            so_far = session.judgement().so_far
            items = game_sheet(so_far, (), deal=so_far.deals[-1].number).deals[0].items
            assert len(items) >= 4
            text = shown(screen, "#rec-points-body")
            assert all(item.name in text for item in items), text
            assert panel.max_scroll_y == 0 and panel.border_subtitle == ""
            # a line per item at this width: every one in sight, none cut
            assert panel.size.height >= len(text.rstrip().splitlines())
            # the dispute
            panel = await disputed_deal_4(screen, pilot)
            await pilot.pause()
            text = shown(screen, "#rec-points-body")
            assert "disputed: High, Low, Jack, Game" in " ".join(text.split())
            assert text.startswith("Score NS 5  EW 9")
            assert panel.max_scroll_y == 0 and panel.border_subtitle == ""
            assert screen.query_one("#rec-expect").size.height >= 1
            assert "Next:" in shown(screen, "#rec-expect")

    asyncio.run(scenario())


def test_a_score_panel_with_more_than_fits_says_so_and_scrolls_with_the_keys(
        tmp_path: Path) -> None:
    path = tmp_path / "deal4.afn"
    four_handed_under_way(path)

    async def scenario() -> None:
        async with recorder(path, size=(80, 18)) as (screen, pilot):  # shorter than 24
            panel = await disputed_deal_4(screen, pilot)
            await until(pilot, lambda: panel.max_scroll_y > 0, "more than fits")
            assert panel.border_subtitle == "↓ more: PgDn"
            for _ in range(panel.max_scroll_y):  # a page at a time, to the end
                if panel.scroll_y >= panel.max_scroll_y:
                    break
                await pilot.press("pagedown")
                await pilot.pause()
            await until(pilot, lambda: panel.scroll_y == panel.max_scroll_y, "scrolled down")
            await until(pilot, lambda: panel.border_subtitle == "↑ more: PgUp", "said so")
            assert "disputed" in shown(screen, "#rec-points-body")
            for _ in range(panel.max_scroll_y):  # and back
                if panel.scroll_y <= 0:
                    break
                await pilot.press("pageup")
                await pilot.pause()
            await until(pilot, lambda: panel.scroll_y == 0, "scrolled back")
            assert panel.border_subtitle == "↓ more: PgDn"

    asyncio.run(scenario())


@pytest.mark.parametrize("size", [(120, 40), (160, 50)])
def test_from_120_columns_the_side_panels_take_the_width(
        tmp_path: Path, size: tuple[int, int]) -> None:
    path = tmp_path / "deal4.afn"
    four_handed_under_way(path)
    width = size[0]

    async def scenario() -> None:
        async with recorder(path, size=size) as (screen, pilot):
            side = screen.query_one("#rec-side")
            table = screen.query_one("#rec-table")
            panel = screen.query_one(PointsPanel)
            await until(pilot, lambda: panel.session is not None and side.size.width > 0,
                        "laid out")
            assert side.size.width >= width * 2 // 5, side.size  # not 34 any more
            assert table.size.width <= width * 3 // 5 + 1, table.size
            assert "won" in shown(screen, "#rec-points-body")  # the reasons in full
            assert screen.query_one(EntryList).size.height >= 10

    asyncio.run(scenario())
