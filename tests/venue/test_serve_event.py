"""``allfours serve EVENT.toml``: the tables of a round of an event, each game file made
with its header when missing (the event's rules, the round, table and teams, the pairs'
players by seat), served as any game file; their games check clean, and the event layer
places them."""

from __future__ import annotations

import functools
from pathlib import Path
from typing import Any

import pytest
from aiohttp.test_utils import TestClient

from allfours_notation.checking import check_text
from allfours_notation.cli import main
from allfours_notation.events.assemble import assemble
from allfours_notation.events.eventfile import Event, read_event_file
from allfours_notation.events.games import read_folder
from allfours_notation.reading.parser import read_games
from allfours_notation.venue.app import Venue
from allfours_notation.venue.event import EventRefused, event_report, event_tables, write_missing

from .serving import with_client
from .test_serve_http import send

EVENT = """format = 1

[event]
name = "Arima v Couva"
venue = "Arima"
dates = ["2026-12-07"]
rules = "trinidad14"

[match]
rule = "games"
games = 2

[[team]]
name = "Arima"
division = "Club"
players = ["Ann", "Ben", "Cy", "Dee"]

[[team]]
name = "Couva"
division = "Club"
players = ["Eli", "Fay", "Gus", "Hal"]

[[round]]
name = "1"

[[round.match]]
home = "Arima"
away = "Couva"
tables = 2
seating = [{ table = 2, home = ["Dee", "Cy"], away = ["Hal", "Gus"] }]
"""


def event_in(folder: Path, text: str = EVENT) -> Event:
    path = folder / "EVENT.toml"
    path.write_text(text, encoding="utf-8")
    loaded = read_event_file(path)
    assert loaded.event is not None and not loaded.has_errors, loaded.diagnostics
    return loaded.event


def tags_of(path: Path) -> dict[str, str]:
    game = next(read_games(path.read_text(encoding="utf-8")).games())
    return {tag.name: tag.value for tag in game.tags}


def test_each_tables_game_file_is_made_with_its_place_and_pairs(tmp_path: Path) -> None:
    event = event_in(tmp_path)
    tables = event_tables(event, tmp_path / "games", "1")
    assert [t.name for t in tables] == ["round 1 Arima v Couva table 1",
                                        "round 1 Arima v Couva table 2"]
    assert write_missing(tables) == [t.path for t in tables]
    first, second = (tags_of(t.path) for t in tables)
    assert tables[0].path.name == "round1-arima-couva-t1.afn"
    assert {k: first[k] for k in ("Event", "Site", "Rules", "Round", "Table", "HomeTeam",
                                  "AwayTeam", "North", "East", "South", "West")} == {
        "Event": "Arima v Couva", "Site": "Arima", "Rules": "trinidad14", "Round": "1",
        "Table": "1", "HomeTeam": "Arima", "AwayTeam": "Couva",
        "North": "Ann", "East": "Eli", "South": "Ben", "West": "Fay"}  # two by two
    assert (second["Table"], second["North"], second["South"], second["East"],
            second["West"]) == ("2", "Dee", "Cy", "Hal", "Gus")  # the round's seating
    for table in tables:
        found = check_text(table.path.read_text()).all_diagnostics()
        assert not [d for d in found if d.is_error], found
    # the event layer places each file at its match and table, its pairs fitting
    assembled = assemble(event, read_folder(tmp_path / "games", event.given_rules))
    assert not [d for d in assembled.diagnostics if d.is_error], assembled.diagnostics


def test_a_tables_file_is_served_and_an_existing_one_kept(tmp_path: Path) -> None:
    event = event_in(tmp_path)
    tables = event_tables(event, tmp_path, "1")
    tables[0].path.write_text("% AFN 1\n[Rules \"trinidad14\"]\n[North \"By hand\"]\n"
                              "[East \"E\"]\n[South \"S\"]\n[West \"W\"]\n[Result \"*\"]\n"
                              "end\n")
    assert write_missing(tables) == [tables[1].path]  # the director's own file is kept
    assert tags_of(tables[0].path)["North"] == "By hand"

    async def test(client: TestClient[Any, Any], venue: Venue) -> None:
        token = next(iter(venue.tables))
        for number, line in enumerate(["n", "h e", "l n"], start=1):
            assert (await send(client, token, number, line))[1]["outcome"]["accepted"]

    with_client(tables[1].path, test)
    found = check_text(tables[1].path.read_text()).all_diagnostics()
    assert not [d for d in found if d.is_error]
    assert tags_of(tables[1].path)["Table"] == "2" and "high" in tables[1].path.read_text()


def test_a_round_that_cannot_be_served_is_refused(tmp_path: Path,
                                                  capsys: pytest.CaptureFixture[str]) -> None:
    two_rounds = EVENT + '\n[[round]]\nname = "2"\nmatch = [{ home = "Couva", away = ' \
        '"Arima", tables = 3 }]\n'
    event = event_in(tmp_path, two_rounds)
    with pytest.raises(EventRefused, match=r"name the ones to serve: --round 1\|2 "
                       r"\(repeated for several\), or --all-rounds"):
        event_tables(event, tmp_path, None)
    with pytest.raises(EventRefused, match="no round '9'"):
        event_tables(event, tmp_path, "9")
    with pytest.raises(EventRefused, match="Couva has no pair for it"):
        event_tables(event, tmp_path, "2")  # four players: two pairs, not three
    assert main(["serve", str(tmp_path / "EVENT.toml"), "--round", "2"]) == 2
    assert "Couva has no pair" in capsys.readouterr().err
    assert not list(tmp_path.glob("*.afn"))  # nothing written


def test_the_director_sees_the_rounds_sheets_and_the_standings(tmp_path: Path) -> None:
    event = event_in(tmp_path)
    tables = event_tables(event, tmp_path / "games", "1")
    write_missing(tables)

    async def test(client: TestClient[Any, Any], venue: Venue) -> None:
        none = await (await client.get(f"/d/{venue.director}/report")).json()
        assert none == {"event": False}  # game files served without an event
        venue.report = functools.partial(event_report, event, tmp_path / "games", ("1",))
        assert (await client.get(f"/d/{next(iter(venue.tables))}/report")).status == 403
        body = await (await client.get(f"/d/{venue.director}/report")).json()
        assert body["event"] and [r["round"] for r in body["rounds"]] == ["1"]
        sheets = body["rounds"][0]["sheets"]
        assert "Round 1: Arima v Couva" in sheets
        assert "Ann & Ben v Eli & Fay" in sheets  # table 1's pairs, from its file
        assert "[round1-arima-couva-t1.afn:1]" in sheets  # named in the folder
        assert str(tmp_path) not in sheets
        assert "Division Club" in body["standings"] and "Couva" in body["standings"]

    with_client(tables[0].path, test)


def test_the_event_options_are_for_an_event(tmp_path: Path,
                                            capsys: pytest.CaptureFixture[str]) -> None:
    game = tmp_path / "table.afn"
    game.write_text("% AFN 1\n")
    assert main(["serve", str(game), "--round", "1"]) == 2
    assert "--round, --all-rounds and --games-folder are for an EVENT.toml" in \
        capsys.readouterr().err
    event_in(tmp_path)
    assert main(["serve", str(tmp_path / "EVENT.toml"), str(game)]) == 2
    assert "one EVENT.toml, or AFN files, not both" in capsys.readouterr().err
    assert main(["serve", str(game), "--stale", "0"]) == 2
    assert "--stale" in capsys.readouterr().err
    assert game.read_text() == "% AFN 1\n"
