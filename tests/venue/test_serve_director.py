"""The director's page of ``allfours serve``: every table's state, the tables not
reporting, the disputes waiting for a ruling, and the ruling entered there, judged by
the recording core and written ``director scored …``; only the director's token."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

from aiohttp.test_utils import TestClient

from allfours_notation.checking import check_text
from allfours_notation.venue.app import Venue

from .serving import game_file, token_of, with_client
from .test_serve_http import send

DISPUTED = ["n", "h e", "l n", "", "claim E high low"]  # the other side claims Low


async def director_state(client: TestClient[Any, Any], venue: Venue) -> dict[str, Any]:
    response = await client.get(f"/d/{venue.director}/state")
    assert response.status == 200
    body: dict[str, Any] = await response.json()
    return body


async def rule(client: TestClient[Any, Any], token: str, line: str, table: str = "table-1",
               deal: int | None = 1) -> tuple[int, dict[str, Any]]:
    response = await client.post(f"/d/{token}/ruling",
                                 json={"table": table, "line": line, "deal": deal})
    return response.status, await response.json()


def test_the_director_sees_each_tables_state_and_a_dispute(tmp_path: Path) -> None:
    path = game_file(tmp_path)

    async def test(client: TestClient[Any, Any], venue: Venue) -> None:
        token = token_of(venue)
        first = (await director_state(client, venue))["tables"][0]
        assert first["disputes"] == [] and not first["stale"] and first["phase"] == "dealer"
        for number, line in enumerate(DISPUTED, start=1):
            assert (await send(client, token, number, line))[1]["outcome"]["accepted"]
        table = (await director_state(client, venue))["tables"][0]
        assert table["deal"] == 2 and table["dealer"] == "W"
        assert table["scores"] == [["NS", 1], ["EW", 1]]
        assert table["next"].startswith("deal 2 by results, W deals")
        assert [(d["deal"], d["code"]) for d in table["disputes"]] == [(1, "AFN401")]
        assert "Low claimed by EW" in table["disputes"][0]["message"]
        page = await (await client.get(f"/d/{venue.director}/")).text()
        assert 'src="/assets/director.js"' in page

    with_client(path, test)


def test_a_ruling_is_judged_and_written(tmp_path: Path) -> None:
    path = game_file(tmp_path)

    async def test(client: TestClient[Any, Any], venue: Venue) -> None:
        token = token_of(venue)
        for number, line in enumerate(DISPUTED, start=1):
            await send(client, token, number, line)
        status, body = await rule(client, venue.director, "E high nonsense")
        assert status == 200 and not body["outcome"]["accepted"]  # the core's reason
        assert "director W high game" in body["outcome"]["message"]
        assert "director scored" not in path.read_text()
        status, body = await rule(client, venue.director, "E high low")
        assert status == 200 and body["outcome"]["accepted"], body
        assert body["table"]["disputes"] == []
        assert body["table"]["scores"] == [["NS", 0], ["EW", 2]]

    with_client(path, test)
    text = path.read_text()
    assert "{ recorded: E high N low }\n  director scored E high low" in text
    found = check_text(text).all_diagnostics()
    assert not [d for d in found if d.is_error or d.is_dispute]  # the ruling settles it


def test_only_the_directors_token_rules(tmp_path: Path) -> None:
    path = game_file(tmp_path)

    async def test(client: TestClient[Any, Any], venue: Venue) -> None:
        token = token_of(venue)
        for number, line in enumerate(DISPUTED, start=1):
            await send(client, token, number, line)
        written = path.read_bytes()
        for wrong in (token, "x" + venue.director[1:]):
            status, _ = await rule(client, wrong, "E high low")
            assert status == 403
            assert (await client.get(f"/d/{wrong}/state")).status == 403
        assert (await client.post(f"/t/{token}/ruling",
                                  json={"table": "table-1", "line": "E high low"})).status \
            in (403, 404, 405)
        assert path.read_bytes() == written
        assert (await rule(client, venue.director, "E high low", "table-9"))[0] == 404
        assert path.read_bytes() == written

    with_client(path, test)


def test_a_table_without_entries_for_the_stale_minutes_is_shown(tmp_path: Path) -> None:
    path = game_file(tmp_path)
    an_hour_ago = path.stat().st_mtime - 3600
    os.utime(path, (an_hour_ago, an_hour_ago))  # the file last written an hour ago

    async def test(client: TestClient[Any, Any], venue: Venue) -> None:
        venue.stale = 20 * 60
        table = (await director_state(client, venue))["tables"][0]
        assert table["stale"] and table["idle_seconds"] >= 3600
        assert (await director_state(client, venue))["stale_minutes"] == 20
        await send(client, token_of(venue), 1, "n")  # an entry: reporting again
        table = (await director_state(client, venue))["tables"][0]
        assert not table["stale"] and table["idle_seconds"] < 60

    with_client(path, test)


def test_a_ruling_meant_for_a_deal_the_table_has_left_is_refused(tmp_path: Path) -> None:
    path = game_file(tmp_path)

    async def test(client: TestClient[Any, Any], venue: Venue) -> None:
        token = token_of(venue)
        for number, line in enumerate([*DISPUTED, "h w"], start=1):  # deal 2 begun
            await send(client, token, number, line)
        written = path.read_bytes()
        status, body = await rule(client, venue.director, "E high low", deal=1)
        assert status == 409 and body["ruled_deal"] == 2
        assert "would be written on deal 2, not deal 1" in body["error"]
        assert path.read_bytes() == written
        state = (await director_state(client, venue))["tables"][0]
        assert [d["deal"] for d in state["disputes"]] == [1]  # still waiting
        await send(client, token, 7, "undo")  # the table back at deal 1's end
        status, body = await rule(client, venue.director, "E high low", deal=1)
        assert status == 200 and body["outcome"]["accepted"], body
        assert body["table"]["disputes"] == []

    with_client(path, test)
    assert "director scored E high low" in path.read_text().split("deal 2")[0]
