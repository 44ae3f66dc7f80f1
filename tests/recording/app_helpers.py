"""Driving the recorder app under Pilot: open a file, type lines as keystrokes."""

from __future__ import annotations

import io
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

from rich.console import Console
from textual.pilot import Pilot
from textual.screen import Screen
from textual.widgets import Static

from allfours_notation.recording.opening import NewGame, Resume, inspect
from allfours_notation.recording.session import Session
from allfours_notation.recording.storage import RecordFile
from allfours_notation.records import Tag
from allfours_notation.viewer.app import ViewerApp
from allfours_notation.viewer.recorder import RecorderScreen, StartForm

# Characters Pilot needs by their key name.
_KEY_NAMES = {" ": "space", ":": "colon", "{": "left_curly_bracket",
              "}": "right_curly_bracket", ";": "semicolon", "!": "exclamation_mark",
              "?": "question_mark"}


def keys(line: str) -> list[str]:
    return [_KEY_NAMES.get(char, char) for char in line]


async def type_line(pilot: Pilot[int], line: str) -> None:
    await pilot.press(*keys(line), "enter")


@asynccontextmanager
async def recorder(path: Path, *, players: int = 2, rules: str = "hoffmann1909",
                   size: tuple[int, int] = (80, 24)
                   ) -> AsyncIterator[tuple[RecorderScreen, Pilot[int]]]:
    """The app in record mode on ``path`` as ``allfours record`` opens it (lock held
    throughout); the recorder screen and the pilot."""
    with RecordFile(path) as record:
        opened = inspect(path, record)
        if isinstance(opened, Resume):
            screen = RecorderScreen(session=opened.session, unicode=True)
        else:
            assert isinstance(opened, NewGame)
            new = opened

            def new_session(tags: tuple[Tag, ...]) -> Session:
                return Session(tags, prefix=new.prefix, index=new.index, record=record)

            screen = RecorderScreen(form=StartForm(players=players, rules=rules, overrides={},
                                                   proposed=opened.proposed),
                                    new_session=new_session, unicode=True)
        app = ViewerApp(str(path), unicode=True, recorder=screen)
        async with app.run_test(size=size) as pilot:
            await pilot.pause()
            yield screen, pilot


def shown(app: Screen[Any], selector: str) -> str:
    """The plain text a :class:`Static` panel shows, rendered wide enough for one line."""
    widget = app.query_one(selector, Static)
    console = Console(width=200, record=True, file=io.StringIO(), color_system=None)
    console.print(widget.content)
    return console.export_text()


def status(app: RecorderScreen) -> str:
    return shown(app, "#rec-status").strip()
