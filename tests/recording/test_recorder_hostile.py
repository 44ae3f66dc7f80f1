"""The recorder and a file edited behind it, or names made to drive a terminal (issue 23,
findings 2 and 4): it stops taking entries, says so, offers reload or quit."""

from __future__ import annotations

import asyncio
from pathlib import Path

from allfours_notation.recording.opening import new_tags
from tests.recording.app_helpers import recorder, shown, status, type_line
from tests.recording.helpers import start_file

HANDS = ["n", "s js 9h 8h 7c 6d 5d", "n 9c 8c 7d 3h 2h 2d", "4s", "s"]


def test_an_edit_behind_the_recorder_stops_it_until_reload_also_at_the_other_sides_word(
        tmp_path: Path) -> None:
    """An edit behind the recorder stops it until it reloads; after a second edit it is
    stale again; the deal played on, the other side's y (one key) meets a third edit the
    same way, and q quits the stale recorder (one recorder: it was three tests)."""
    from tests.recording.app_helpers import send_keys

    path = tmp_path / "game.afn"
    start_file(path)

    async def scenario() -> None:
        async with recorder(path) as (app, pilot):
            await type_line(pilot, "n")
            await type_line(pilot, "s js 9h 8h 7c 6d 5d")
            assert app.session is not None and len(app.session.entries) == 2
            with open(path, "a", encoding="utf-8") as handle:  # another program adds a line
                handle.write("{ added by someone else }\n")
            edited = path.read_text(encoding="utf-8")
            await type_line(pilot, "n 9c 8c 7d 3h 2h 2d")
            assert "changed on disk" in status(app) and "type r" in status(app)
            assert path.read_text(encoding="utf-8") == edited  # their line kept
            await type_line(pilot, "4s")  # refused while stale
            assert "changed on disk" in status(app)
            assert path.read_text(encoding="utf-8") == edited
            await type_line(pilot, "r")  # reload: the file as it is now, judged again
            assert status(app).startswith("reloaded")
            assert app.stale is None and len(app.session.entries) == 2
            await type_line(pilot, "n 9c 8c 7d 3h 2h 2d")
            assert status(app) != "" and app.stale is None
            text = path.read_text(encoding="utf-8")
            assert "added by someone else" in text and "N 9C 8C" in text.upper()
            # edited behind it again: stale again, until reloaded
            path.write_text(path.read_text(encoding="utf-8") + "\n", encoding="utf-8")
            await type_line(pilot, "4s")
            assert app.stale is not None
            await type_line(pilot, "r")
            assert status(app).startswith("reloaded") and app.stale is None
            # the deal played out: the other side's y meets another program's save
            for line in ["4s", "s", "js", "2d", "9h", "3h", "8h", "2h", "7c", "8c", "9c",
                         "5d", "7d", "6d"]:
                await type_line(pilot, line)
            assert "y agrees" in shown(app, "#rec-expect")
            edited = _edited_behind(path)
            taken = app.lines_taken
            await send_keys(app, ["y"], until=lambda: app.lines_taken > taken)
            assert app.app.is_running and app.stale is not None
            assert path.read_text(encoding="utf-8") == edited
            # q quits the stale recorder
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


def _edited_behind(path: Path) -> str:
    """Another program saves the file (a line added at its end): its text now."""
    with open(path, "a", encoding="utf-8") as handle:
        handle.write("{ added by someone else }\n")
    return path.read_text(encoding="utf-8")


def test_an_edit_behind_the_recorder_in_results_mode_stops_it_until_reload(
        tmp_path: Path) -> None:
    """Issue 37: an item given by keys in results mode met another program's save with
    a traceback (exit 1); it is now handled as a typed line is in cards mode."""
    from allfours_notation.reading.records import Tag
    from tests.recording.app_helpers import send_keys

    path = tmp_path / "results.afn"
    start_file(path, (*new_tags(players={"North": "Ann", "South": "Ben"},
                                date="2026.12.02"), Tag(name="Entry", value="results")))

    async def scenario() -> None:
        async with recorder(path) as (app, pilot):
            first = app.session
            assert first is not None
            await type_line(pilot, "n")  # the dealer, written with the first item
            assert len(first.entries) == 1
            assert "deal 1" not in path.read_text(encoding="utf-8")
            await send_keys(app, ["h", "s"], until=lambda: len(first.entries) == 2)
            edited = _edited_behind(path)
            taken = app.lines_taken
            await send_keys(app, ["l", "s"], until=lambda: app.lines_taken > taken)
            assert app.app.is_running and app.stale is not None
            assert "changed on disk" in status(app) and "type r" in status(app)
            assert "'l s' was not recorded" in " ".join(status(app).split())
            assert path.read_text(encoding="utf-8") == edited  # their line kept, ours not
            await type_line(pilot, "r")
            assert status(app).startswith("reloaded") and app.stale is None
            reloaded = app.session
            assert reloaded is not None and len(reloaded.entries) == 2
            await send_keys(app, ["l", "s"], until=lambda: len(reloaded.entries) == 3)
            text = path.read_text(encoding="utf-8")
            assert "added by someone else" in text and "S high low" in text

    asyncio.run(scenario())
