"""The tutorial's recorder steps, followed literally (issue 37): the keys are read from
docs/tutorial.md's tables, so the page and this test cannot drift apart.  A value in
`code` is typed then Enter; a key in **bold** is pressed alone.  The file they leave is
the one the page shows, and it checks clean, as the page says."""

from __future__ import annotations

import asyncio
import re
from pathlib import Path

from allfours_notation.cli import main
from allfours_notation.viewer.recorder import RecorderScreen
from tests.recording.app_helpers import keys, recorder, send_keys, type_line
from tests.waiting import until

TUTORIAL = Path(__file__).resolve().parents[2] / "docs" / "tutorial.md"
_CODE = re.compile(r"`([^`]+)`")
_KEY = re.compile(r"^\*\*([^*]+)\*\*")

Step = tuple[str, str]  # ("type", text) then Enter, or ("key", name) alone


def section() -> str:
    text = TUTORIAL.read_text(encoding="utf-8")
    return text[text.index("## 1. Record a game"):text.index("## 2. ")]


def table_steps(header: str, column: int) -> list[Step]:
    """The steps of every table whose header row is ``header``: from each row's
    ``column``, its keys in bold, or its values in code (a row may hold several)."""
    steps: list[Step] = []
    rows: list[str] | None = None
    for line in section().splitlines():
        if line.startswith(header):
            rows = []
            continue
        if rows is None or line.startswith("|---"):
            continue
        if not line.startswith("|"):
            rows = None
            continue
        cell = line.split("|")[column + 1].strip()
        key = _KEY.match(cell)
        if key:
            steps.append(("key", key.group(1)))
        else:
            steps.extend(("type", value) for value in _CODE.findall(cell.split("(")[0]))
    return steps


def shown_record() -> str:
    text = section()
    start = text.index("% AFN 1\n")
    return text[start:text.index("```", start)]


async def one_key(screen: RecorderScreen, key: str) -> None:
    """A key pressed alone (y, Enter), once the screen has dealt with it."""
    taken = screen.lines_taken
    await send_keys(screen, [key], until=lambda: screen.lines_taken > taken)


def test_the_tutorial_steps_are_read() -> None:
    form = table_steps("| field | you type |", 1)
    deal = table_steps("| you type | it records |", 0)
    assert ("type", "Kitchen table") in form and ("key", "Enter") in form
    assert deal[:2] == [("type", "n"), ("type", "S js 9h 8h 7c 6d 5d")]
    assert deal[-3:] == [("key", "y"), ("key", "Enter"), ("key", "Ctrl+Q")]


def test_following_the_tutorial_leaves_the_file_it_shows_and_it_checks_clean(
        tmp_path: Path) -> None:
    path = tmp_path / "first.afn"
    form = table_steps("| field | you type |", 1)
    deal = table_steps("| you type | it records |", 0)

    async def scenario() -> None:
        async with recorder(path, size=(80, 24)) as (screen, pilot):
            for kind, what in form:
                await pilot.press(*(keys(what) if kind == "type" else []), "enter")
            await until(pilot, lambda: screen.session is not None, "the game started")
            for kind, what in deal:
                if kind == "type":
                    await type_line(pilot, what)
                elif what == "Ctrl+Q":
                    await pilot.press("ctrl+q")
                    await until(pilot, lambda: screen.app.return_code is not None, "quit")
                else:
                    await one_key(screen, what.lower())

    asyncio.run(scenario())
    written = path.read_text(encoding="utf-8")
    date = re.compile(r'\[Date "[^"]*"\]')
    assert date.sub("", written) == date.sub("", shown_record())
    assert main(["check", str(path)]) == 0
