"""``allfours serve``'s HTTP interface, driven by aiohttp's test client: tokens, entry
ids applied once and in order, the body limit, hostile record text, a whole deal in
results mode with the other side's confirmation, and a refused entry's reason."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from aiohttp.test_utils import TestClient

from allfours_notation.venue.app import BURST, MAX_BODY, Venue

from .serving import HEADER, game_file, other_than, token_of, with_client

PHONE = "phone-aaaaaaaa"


async def send(client: TestClient[Any, Any], token: str, number: int, line: str,
               phone: str = PHONE) -> tuple[int, dict[str, Any]]:
    response = await client.post(f"/t/{token}/entry",
                                 json={"phone": phone, "number": number, "line": line})
    return response.status, await response.json()


def test_a_wrong_token_is_refused_and_writes_nothing(tmp_path: Path) -> None:
    path = game_file(tmp_path)
    before = path.read_bytes()

    async def test(client: TestClient[Any, Any], venue: Venue) -> None:
        wrong = other_than(token_of(venue))
        for method, url in (("GET", f"/t/{wrong}/"), ("GET", f"/t/{wrong}/state"),
                            ("POST", f"/t/{wrong}/entry"), ("GET", f"/d/{wrong}/"),
                            ("GET", f"/d/{token_of(venue)}/"),  # a table's is not the director's
                            ("GET", f"/t/{venue.director}/state")):
            response = await client.request(method, url, json={
                "phone": PHONE, "number": 1, "line": "n"})
            assert response.status == 403, url
        assert "Set-Cookie" not in response.headers
        good = await client.get(f"/t/{token_of(venue)}/state")
        assert good.status == 200 and (await good.json())["phase"] == "dealer"

    with_client(path, test)
    assert path.read_bytes() == before


def test_a_replayed_entry_is_applied_once(tmp_path: Path) -> None:
    path = game_file(tmp_path)

    async def test(client: TestClient[Any, Any], venue: Venue) -> None:
        token = token_of(venue)
        assert (await send(client, token, 1, "n"))[0] == 200
        status, body = await send(client, token, 2, "h n")
        assert status == 200 and body["outcome"]["accepted"] and not body["replayed"]
        status, again = await send(client, token, 2, "h n")
        assert status == 200 and again["replayed"] and "outcome" not in again
        assert again["state"]["scores"] == [["NS", 1], ["EW", 0]]

    with_client(path, test)
    assert path.read_text().count("high") == 1


def test_an_entry_out_of_order_is_refused_with_the_id_expected(tmp_path: Path) -> None:
    path = game_file(tmp_path)

    async def test(client: TestClient[Any, Any], venue: Venue) -> None:
        token = token_of(venue)
        assert (await send(client, token, 1, "n"))[0] == 200
        status, body = await send(client, token, 3, "h n")
        assert status == 409 and body["expected"] == 2
        # another phone at the same table counts its own entries
        status, other = await send(client, token, 1, "l e", phone="phone-bbbbbbbb")
        assert status == 200 and other["outcome"]["accepted"]

    with_client(path, test)
    text = path.read_text()
    assert "high" not in text and "E low" in text


def test_an_oversized_body_is_refused(tmp_path: Path) -> None:
    path = game_file(tmp_path)
    before = path.read_bytes()

    async def test(client: TestClient[Any, Any], venue: Venue) -> None:
        token = token_of(venue)
        huge = {"phone": PHONE, "number": 1, "line": "n" + " " * MAX_BODY}
        response = await client.post(f"/t/{token}/entry", json=huge)
        assert response.status == 413
        status, body = await send(client, token, 1, "h n " * 60)  # a line too long
        assert status == 400 and "one line" in body["error"]
        status, body = await send(client, token, 1, "n\nh n")
        assert status == 400

    with_client(path, test)
    assert path.read_bytes() == before


def test_requests_past_the_rate_are_refused(tmp_path: Path) -> None:
    path = game_file(tmp_path)

    async def test(client: TestClient[Any, Any], venue: Venue) -> None:
        token = token_of(venue)
        statuses = [(await client.get(f"/t/{token}/state")).status
                    for _ in range(BURST + 5)]
        assert statuses.count(429) >= 4 and statuses[0] == 200

    with_client(path, test)


def test_hostile_record_text_is_escaped(tmp_path: Path) -> None:
    hostile = "<img src=x onerror=alert(1)>&amp;"
    path = game_file(tmp_path, header=HEADER.replace('"Ann"', f'"{hostile}"')
                     .replace('"Club night"', '"</script><script>alert(2)</script>"'))

    async def test(client: TestClient[Any, Any], venue: Venue) -> None:
        token = token_of(venue)
        page = await (await client.get(f"/t/{token}/")).text()
        assert "<img" not in page and "alert" not in page  # the page holds no record text
        script = await (await client.get("/assets/table.js")).text()
        director = await (await client.get("/assets/director.js")).text()
        assert "innerHTML" not in director and "textContent" in director
        assert "innerHTML" not in script and "textContent" in script
        state = await (await client.get(f"/t/{token}/state")).json()
        assert state["players"]["North"] == hostile  # data, shown with textContent
        links = await (await client.get(f"/d/{venue.director}/links")).text()
        assert "<svg" in links and "<script" not in links
        response = await client.get(f"/t/{token}/state")
        assert "default-src 'self'" in response.headers["Content-Security-Policy"]
        status, body = await send(client, token, 1, "<b>n</b>")
        assert status == 200 and not body["outcome"]["accepted"]

    with_client(path, test)


def test_a_whole_deal_in_results_mode_and_its_confirmation(tmp_path: Path) -> None:
    path = game_file(tmp_path)

    async def test(client: TestClient[Any, Any], venue: Venue) -> None:
        token = token_of(venue)
        phases = []
        for number, line in enumerate(["n", "k 2", "h w", "l w", "j n", "g n", "", "y"],
                                      start=1):
            status, body = await send(client, token, number, line)
            assert status == 200 and body["outcome"]["accepted"], body
            phases.append(body["state"]["phase"])
        assert phases == ["results"] * 6 + ["confirm", "results"]
        state = body["state"]
        assert state["scores"] == [["NS", 4], ["EW", 2]] and state["deal"] == 2
        assert state["dealer"] == "W"  # the rules rotate the deal
        # the next deal: the other side claims instead
        for number, line in enumerate(["h e", "l n", "", "claim E high low"], start=9):
            status, body = await send(client, token, number, line)
            assert body["outcome"]["accepted"], body

    with_client(path, test)
    text = path.read_text()
    assert "scored N kick 2 jack game W high low" in text
    assert "claim E high low { computed: E high N low }" in text


def test_a_refused_entry_shows_its_reason_and_writes_nothing(tmp_path: Path) -> None:
    path = game_file(tmp_path)

    async def test(client: TestClient[Any, Any], venue: Venue) -> None:
        token = token_of(venue)
        await send(client, token, 1, "n")
        await send(client, token, 2, "h n")
        written = path.read_bytes()
        status, body = await send(client, token, 3, "h e")
        assert status == 200 and not body["outcome"]["accepted"]
        assert body["outcome"]["message"].startswith("refused: High is written 2 times")
        assert body["outcome"]["code"] == "AFN404"
        assert path.read_bytes() == written
        state = await (await client.get(f"/t/{token}/state")).json()
        assert state["last"]["message"] == body["outcome"]["message"]  # every phone sees it
        status, body = await send(client, token, 4, "undo")
        assert body["outcome"]["accepted"] and body["state"]["scores"] == [["NS", 0],
                                                                            ["EW", 0]]

    with_client(path, test)


def test_a_game_file_changed_on_disk_is_not_overwritten(tmp_path: Path) -> None:
    path = game_file(tmp_path)

    async def test(client: TestClient[Any, Any], venue: Venue) -> None:
        token = token_of(venue)
        await send(client, token, 1, "n")
        path.write_text(path.read_text() + "{ someone's edit }\n")
        status, body = await send(client, token, 2, "h n")
        assert status == 503 and "cannot be written" in body["error"]
        assert body["state"]["sent"] == {PHONE: 1}  # the entry is still to be sent

    with_client(path, test)
    assert "someone's edit" in path.read_text() and "high" not in path.read_text()


def test_the_director_sees_every_table(tmp_path: Path) -> None:
    path = game_file(tmp_path)

    async def test(client: TestClient[Any, Any], venue: Venue) -> None:
        await send(client, token_of(venue), 1, "n")
        state = await (await client.get(f"/d/{venue.director}/state")).json()
        assert [t["table"] for t in state["tables"]] == ["table-1"]
        assert state["tables"][0]["phase"] == "results"
        links = await (await client.get(f"/d/{venue.director}/links")).text()
        assert f"/t/{token_of(venue)}/" in links

    with_client(path, test)
