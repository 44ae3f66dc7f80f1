"""The recorder and a file edited behind it, or names made to drive a terminal (issue 23,
findings 2 and 4): it stops taking entries, says so, offers reload or quit."""

from __future__ import annotations

import asyncio
from pathlib import Path

from allfours_notation.recording.opening import new_tags
from tests.recording.app_helpers import recorder, shown, status, type_line
from tests.recording.helpers import start_file

HANDS = ["n", "s js 9h 8h 7c 6d 5d", "n 9c 8c 7d 3h 2h 2d", "4s", "s"]


def test_an_edit_behind_the_recorder_stops_it_until_reload(tmp_path: Path) -> None:
    path = tmp_path / "game.afn"
    start_file(path)

    async def scenario() -> None:
        async with recorder(path) as (app, pilot):
            await type_line(pilot, "n")
            assert app.session is not None and len(app.session.entries) == 1
            with open(path, "a", encoding="utf-8") as handle:  # another program adds a line
                handle.write("{ added by someone else }\n")
            edited = path.read_text(encoding="utf-8")
            await type_line(pilot, "s js 9h 8h 7c 6d 5d")
            assert "changed on disk" in status(app) and "type r" in status(app)
            assert path.read_text(encoding="utf-8") == edited  # their line kept
            await type_line(pilot, "n 9c 8c 7d 3h 2h 2d")  # refused while stale
            assert "changed on disk" in status(app)
            assert path.read_text(encoding="utf-8") == edited
            await type_line(pilot, "r")  # reload: the file as it is now, judged again
            assert status(app).startswith("reloaded")
            assert app.stale is None and len(app.session.entries) == 1
            await type_line(pilot, "s js 9h 8h 7c 6d 5d")
            assert status(app) != "" and app.stale is None
            text = path.read_text(encoding="utf-8")
            assert "added by someone else" in text and "S JS 9H" in text.upper()

    asyncio.run(scenario())


def test_q_quits_a_stale_recorder(tmp_path: Path) -> None:
    path = tmp_path / "game.afn"
    start_file(path)

    async def scenario() -> None:
        async with recorder(path) as (app, pilot):
            path.write_text(path.read_text(encoding="utf-8") + "\n", encoding="utf-8")
            await type_line(pilot, "n")
            assert app.stale is not None
            await type_line(pilot, "q")
            await pilot.pause()
            assert app.app.return_code == 0

    asyncio.run(scenario())


def test_hostile_names_are_shown_as_typed(tmp_path: Path) -> None:
    path = tmp_path / "game.afn"
    tags = new_tags(event="\x1b]0;pwned\x07", site="x", date="2026.12.02",
                    players={"North": "[bold]Ann\x1b[2J", "South": "\u009bBen"})
    start_file(path, tags)

    async def scenario() -> None:
        async with recorder(path) as (app, pilot):
            for line in HANDS:
                await type_line(pilot, line)
            table = shown(app, "#rec-expect") + str(app.query_one("#rec-table").render())
            assert "\x1b" not in table and "\u009b" not in table
            await pilot.pause()
            screen_text = app.app.export_screenshot()
            assert "[bold]Ann\\x1b[2J" in screen_text.replace("&#160;", " ")
            assert "\x1b" not in screen_text and "\u009b" not in screen_text

    asyncio.run(scenario())


def test_what_fuzzing_the_entry_line_found_is_refused_not_raised(tmp_path: Path) -> None:
    """'⒍' is a digit to str.isdigit() but not to int(); a string of 5,000 digits is too
    long for int(); a comment after a ';' comment would not read back.  Each raised
    before; each is now a refusal with the file untouched."""
    from allfours_notation.recording.session import Session
    from allfours_notation.recording.storage import RecordFile
    from tests.recording.helpers import TWO_TAGS, feed

    path = tmp_path / "game.afn"
    with RecordFile(path) as record:
        session = Session(TWO_TAGS, record=record)
        feed(session, HANDS)
        before = path.read_text(encoding="utf-8")
        for line in ("⒍", "9" * 5000, "claim s high ⒍"):
            assert not session.type(line).accepted
        assert session.type(";a note").accepted
        refused = session.type("{and another}")
        assert not refused.accepted and "';' comment" in refused.message
        assert "a note" in path.read_text(encoding="utf-8")
        assert path.read_text(encoding="utf-8") != before  # the first note is on disk
