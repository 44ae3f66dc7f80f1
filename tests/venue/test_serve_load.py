"""The venue under many tables at once: the tables' entries judged side by side in the
venue's pool of threads, so that one table waiting on its disk holds up no other
(bench/serve.py measures the load itself)."""

from __future__ import annotations

import asyncio
import threading
from pathlib import Path
from typing import Any

import pytest
from aiohttp.test_utils import TestClient, TestServer

from allfours_notation.venue.app import Venue, make_app
from allfours_notation.venue.table import Answer, Table, open_table

from .serving import game_file

PHONE = "phone-aaaaaaaa"


def test_a_table_waiting_on_its_disk_holds_up_no_other(tmp_path: Path,
                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    slow, quick = (open_table(game_file(tmp_path, f"{name}.afn"), name)
                   for name in ("slow", "quick"))
    venue = Venue.of([slow, quick])
    tokens = {table.name: token for token, table in venue.tables.items()}
    other_answered = threading.Event()
    waited: list[bool] = []
    enter = Table.enter

    def held_enter(table: Table, phone: str, number: int, line: str) -> Answer:
        if table is slow:  # its fsync stuck until the other table's entry is answered
            waited.append(other_answered.wait(timeout=30))
        return enter(table, phone, number, line)

    async def main() -> None:
        async with TestClient(TestServer(make_app(venue))) as client:
            async def post(name: str) -> Any:
                response = await client.post(f"/t/{tokens[name]}/entry", json={
                    "phone": PHONE, "number": 1, "line": "n"})
                assert response.status == 200
                return await response.json()

            held = asyncio.create_task(post("slow"))
            assert (await post("quick"))["outcome"]["accepted"]
            other_answered.set()
            assert (await held)["outcome"]["accepted"]

    monkeypatch.setattr(Table, "enter", held_enter)
    try:
        asyncio.run(main())
    finally:
        slow.release()
        quick.release()
    assert waited == [True]

