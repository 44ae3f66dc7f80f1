"""Driving the recorder app under Pilot: open a file, type lines as keystrokes."""

from __future__ import annotations

import asyncio
import io
import time
from collections.abc import AsyncIterator, Callable, Sequence
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

from rich.console import Console
from textual import events
from textual.pilot import Pilot
from textual.screen import Screen
from textual.widgets import Static

from allfours_notation.reading.records import Tag
from allfours_notation.recording.opening import NewGame, Resume, inspect
from allfours_notation.recording.session import Session
from allfours_notation.recording.storage import RecordFile
from allfours_notation.viewer.app import ViewerApp
from allfours_notation.viewer.recorder import RecorderScreen, StartForm
from allfours_notation.viewer.recorder.widgets import EntryList
from tests.waiting import LOOK_EVERY_SECONDS

# Characters Pilot needs by their key name.
_KEY_NAMES = {" ": "space", ":": "colon", "{": "left_curly_bracket",
              "}": "right_curly_bracket", ";": "semicolon", "!": "exclamation_mark",
              "?": "question_mark"}


def keys(line: str) -> list[str]:
    return [_KEY_NAMES.get(char, char) for char in line]


async def type_line(pilot: Pilot[int], line: str) -> None:
    """Type ``line`` and Enter; in the record mode, wait only until the line is dealt
    with (Pilot's ``press`` idles after every key, ten times the cost)."""
    app = pilot.app
    screen = app.recorder if isinstance(app, ViewerApp) else None
    if screen is None or screen.session is None or app.screen is not screen:
        await pilot.press(*keys(line), "enter")  # the start form, a question
        return
    taken = screen.lines_taken + 1
    await send_keys(screen, [*keys(line), "enter"], until=lambda: screen.lines_taken >= taken)


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


def rows_made_again(screen: RecorderScreen) -> bool:
    """Whether the entry list's rows (kept from one entry to the next where unchanged)
    are what a new list makes of the session, every row anew."""
    assert screen.session is not None
    listed = screen.query_one(EntryList)
    fresh = EntryList()
    fresh.show_session(screen.session)
    return listed.rows == fresh.rows


_CHARS = {"enter": "\r", "space": " ", "colon": ":", "question_mark": "?",
          "exclamation_mark": "!"}


async def send_keys(screen: RecorderScreen, keys: Sequence[str], *,
                    until: Callable[[], bool] | None = None, timeout: float = 120.0) -> None:
    """Queue every key at once, as a fast typist or a paste would, and wait until
    ``until()`` holds (default: the game is over) or ``timeout`` seconds pass: each
    Enter is taken in the order the keys came (see
    :class:`viewer.recorder.widgets.EntryLine`), so no wait is needed between them,
    and the test pays for the recording, not for Pilot's idle waits after each key."""
    app = screen.app
    for key in keys:
        app.post_message(events.Key(key, _CHARS.get(key, key if len(key) == 1 else None)))

    def over() -> bool:
        return screen.session is not None and screen.session.over

    done = until or over
    deadline = time.monotonic() + timeout
    while not (done() and not app._message_queue.qsize()):
        if time.monotonic() > deadline:
            raise AssertionError(f"the keys were not all taken in {timeout:.0f} s")
        await asyncio.sleep(LOOK_EVERY_SECONDS)
