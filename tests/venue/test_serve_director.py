"""The director's page of ``allfours serve``: every table's state, the tables not
reporting, the disputes waiting for a ruling, and the ruling entered there, judged by
the recording core and written ``director scored …``; only the director's token."""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

from aiohttp.test_utils import TestClient

from allfours_notation.checking import check_text
from allfours_notation.venue.app import Venue

from .serving import game_file, other_than, token_of, with_client
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
        for wrong in (token, other_than(venue.director)):
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


def test_a_ruling_on_a_deal_the_table_has_left_is_written_into_it(tmp_path: Path) -> None:
    path = game_file(tmp_path)
    later = ["h w", "l s", "", "y", "h s"]  # deal 2 agreed, deal 3 being entered

    async def test(client: TestClient[Any, Any], venue: Venue) -> None:
        token = token_of(venue)
        for number, line in enumerate([*DISPUTED, *later], start=1):
            assert (await send(client, token, number, line))[1]["outcome"]["accepted"]
        status, body = await rule(client, venue.director, "E high low", deal=1)
        assert status == 200 and body["outcome"]["accepted"], body
        assert body["deal"] == 1
        message = body["outcome"]["message"]
        assert "(deal 1, which the table has left)" in message
        assert "the score is now NS 2 EW 3 (was NS 3 EW 2)" in message  # S's High in
        assert body["table"]["disputes"] == [] and body["table"]["deal"] == 3
        # the table's phone sees the corrected score at its next poll, and goes on
        phone = await (await client.get(f"/t/{token}/state")).json()
        assert phone["scores"] == [["NS", 2], ["EW", 3]]
        assert phone["last"]["message"] == message
        _, answer = await send(client, token, len(DISPUTED) + len(later) + 1, "l e")
        assert answer["outcome"]["accepted"]
        assert answer["state"]["scores"] == [["NS", 2], ["EW", 4]]

    with_client(path, test)
    text = path.read_text()
    deal_1, deal_2 = text.split("deal 2 dealer")[0], text.split("deal 2 dealer")[1]
    assert "director scored E high low" in deal_1
    assert "scored W high S low" in deal_2 and "total N 1 E 3" in deal_2


def test_a_late_ruling_refused_by_the_core_writes_nothing(tmp_path: Path) -> None:
    path = game_file(tmp_path)

    async def test(client: TestClient[Any, Any], venue: Venue) -> None:
        token = token_of(venue)
        for number, line in enumerate([*DISPUTED, "h w"], start=1):
            await send(client, token, number, line)
        written = path.read_bytes()
        for deal, said in ((9, "there is no deal 9"),
                           (1, "'nonsense' is not a claim item")):
            status, body = await rule(client, venue.director, "E nonsense", deal=deal)
            assert status == 200 and not body["outcome"]["accepted"]
            assert said in body["outcome"]["message"]
        assert (await rule(client, venue.director, "E high low", deal=True))[0] == 400
        assert path.read_bytes() == written
        state = (await director_state(client, venue))["tables"][0]
        assert [d["deal"] for d in state["disputes"]] == [1]  # still waiting

    with_client(path, test)


def test_a_ruling_leaves_no_phone_entry_pending_in_the_journal(tmp_path: Path) -> None:
    path = game_file(tmp_path)

    async def test(client: TestClient[Any, Any], venue: Venue) -> None:
        token = token_of(venue)
        for number, line in enumerate(DISPUTED, start=1):
            await send(client, token, number, line)
        refused = len(DISPUTED) + 1
        assert not (await send(client, token, refused, "h nobody"))[1]["outcome"]["accepted"]
        assert (await rule(client, venue.director, "E high low"))[1]["outcome"]["accepted"]

    with_client(path, test)
    journal = json.loads((tmp_path / ".table-1.afn.serve.json").read_text())
    assert journal["pending"] is None  # a restart counts what the phones were told


def test_a_late_ruling_that_reopens_a_finished_game_reaches_the_phones(tmp_path: Path) -> None:
    path = game_file(tmp_path)
    won = ["n", *["x n", "h n", "l n", "", "y"] * 3]  # NS 15 in deal 3: the game over

    async def test(client: TestClient[Any, Any], venue: Venue) -> None:
        token = token_of(venue)
        for number, line in enumerate(won, start=1):
            await send(client, token, number, line)
        phone = await (await client.get(f"/t/{token}/state")).json()
        assert phone["phase"] == "over"
        status, body = await rule(client, venue.director, "N high low", deal=2)
        assert status == 200 and body["outcome"]["accepted"], body
        assert "the game is no longer won (NS had won it, deal 3, at Hang Jack): play goes " \
            "on; deal 4: E deals" in body["outcome"]["message"]
        phone = await (await client.get(f"/t/{token}/state")).json()
        assert phone["phase"] == "results" and phone["deal"] == 4
        assert phone["scores"] == [["NS", 12], ["EW", 0]]
        _, answer = await send(client, token, len(won) + 1, "h n")  # the table plays on
        assert answer["outcome"]["accepted"]

    with_client(path, test)
    assert '[Result "*"]' in path.read_text()
