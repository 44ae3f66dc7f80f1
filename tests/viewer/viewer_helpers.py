"""Shared helpers for the viewer's tests: fixture files, a loaded app, what widgets show."""

from __future__ import annotations

import io
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path

from rich.console import Console
from textual.pilot import Pilot
from textual.widgets import Static

from allfours_notation.viewer.app import Start, ViewerApp
from allfours_notation.viewer.widgets.lists import LineList
from tests.waiting import until

FIXTURES = Path(__file__).parent / "fixtures"
TWO = FIXTURES / "two.afn"
FOUR = FIXTURES / "four.afn"
BROKEN = FIXTURES / "broken.afn"
SIZE = (160, 48)


async def wait_loaded(pilot: Pilot[int]) -> None:
    """Wait until the loading worker has indexed the whole file and a game is shown."""
    app = pilot.app
    assert isinstance(app, ViewerApp)
    await until(pilot, lambda: app.library is not None and app.library.complete
                and app.entry is not None, "the file to load")


async def wait_marked(pilot: Pilot[int]) -> None:
    """Wait until the background check has marked every game and the status line says so
    (a snapshot taken earlier would depend on how fast the machine is)."""
    app = pilot.app
    assert isinstance(app, ViewerApp)
    await wait_loaded(pilot)

    def marked() -> bool:
        library = app.library
        return library is not None and len(library.marks) == len(library) and app.all_marked

    await until(pilot, marked, "every game to be marked")


@asynccontextmanager
async def loaded(path: Path, start: Start | None = None, *, unicode: bool = True,
                 autoplay_seconds: float = 1.0) -> AsyncIterator[tuple[ViewerApp, Pilot[int]]]:
    app = ViewerApp(str(path), start, unicode=unicode, autoplay_seconds=autoplay_seconds)
    async with app.run_test(size=SIZE) as pilot:
        await wait_loaded(pilot)
        yield app, pilot


def shown(app: ViewerApp, selector: str) -> str:
    """The plain text a :class:`Static` panel shows, rendered at its width."""
    widget = app.screen.query_one(selector, Static)
    console = Console(width=max(20, widget.content_size.width), record=True,
                      file=io.StringIO(), color_system=None)
    console.print(widget.content)
    return console.export_text()


def rows(app: ViewerApp, selector: str) -> list[str]:
    widget = app.query_one(selector, LineList)
    return [widget.line_text(row).plain for row in range(widget.line_count)]
