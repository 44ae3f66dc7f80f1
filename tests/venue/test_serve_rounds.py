"""``allfours serve EVENT.toml`` serving several rounds at once (``--round`` repeated, or
``--all-rounds``): every table of each round with a token of its own, the director's
state naming each table's round and match, the links and QR codes per round, and the
match sheets of every round served (issue 39)."""

from __future__ import annotations

import asyncio
import functools
import re
import signal
import subprocess
import sys
import urllib.request
from pathlib import Path
from typing import Any

import pytest
from aiohttp.test_utils import TestClient, TestServer

from allfours_notation.cli import main
from allfours_notation.venue.app import Venue, make_app
from allfours_notation.venue.event import (
    EventRefused,
    event_report,
    event_tables,
    rounds_to_serve,
    write_missing,
)
from allfours_notation.venue.table import open_table

from .test_serve_event import EVENT, event_in
from .test_serve_http import send

ROOT = Path(__file__).resolve().parents[2]
TWO_ROUNDS = EVENT + '\n[[round]]\nname = "2"\nmatch = [{ home = "Couva", away = ' \
    '"Arima", tables = 2 }]\n'


def test_the_rounds_to_serve(tmp_path: Path) -> None:
    event = event_in(tmp_path, TWO_ROUNDS)
    assert [r.name for r in rounds_to_serve(event, ["2", "1", "2"])] == ["2", "1"]
    assert [r.name for r in rounds_to_serve(event, [], every=True)] == ["1", "2"]
    with pytest.raises(EventRefused, match="--all-rounds serves every round"):
        rounds_to_serve(event, ["1"], every=True)
    with pytest.raises(EventRefused, match="no round '3'"):
        rounds_to_serve(event, ["1", "3"])


def test_two_rounds_served_at_once(tmp_path: Path) -> None:
    event = event_in(tmp_path, TWO_ROUNDS)
    folder = tmp_path / "games"
    scheduled = [t for name in ("1", "2") for t in event_tables(event, folder, name)]
    write_missing(scheduled)
    tables = [open_table(t.path, t.name) for t in scheduled]
    venue = Venue.of(tables, {t.name: (t.round, t.match) for t in scheduled})
    venue.report = functools.partial(event_report, event, folder, ("1", "2"))
    assert len({*venue.tables, venue.director}) == 5  # a token per table, every round

    async def main_test() -> None:
        async with TestClient(TestServer(make_app(venue))) as client:
            await a_table_of_each_round(client, venue)

    try:
        asyncio.run(main_test())
    finally:
        for table in tables:
            table.release()
    assert "high" in scheduled[2].path.read_text()  # round 2's table 1 scored
    assert "high" not in scheduled[0].path.read_text()


async def a_table_of_each_round(client: TestClient[Any, Any], venue: Venue) -> None:
    director = f"/d/{venue.director}/"
    tokens = {table.name: token for token, table in venue.tables.items()}
    round_two = tokens["round 2 Couva v Arima table 1"]
    for number, line in enumerate(["n", "h e", "l n"], start=1):
        assert (await send(client, round_two, number, line))[1]["outcome"]["accepted"]
    state = await (await client.get(director + "state")).json()
    assert [(t["round"], t["match"]) for t in state["tables"]] == [
        ("1", "Arima v Couva"), ("1", "Arima v Couva"),
        ("2", "Couva v Arima"), ("2", "Couva v Arima")]
    assert [t["scores"] for t in state["tables"]][2] == [["NS", 1], ["EW", 1]]
    # the links: every round on a page of its own, or one round's alone
    whole = await (await client.get(director + "links")).text()
    assert whole.count('<section class="round">') == 2
    assert "<h2>Round 1</h2>" in whole and "<h2>Round 2</h2>" in whole
    one = await (await client.get(director + "links?round=2")).text()
    assert "<h2>Round 2</h2>" in one and "Round 1" not in one
    assert round_two in one and tokens["round 1 Arima v Couva table 1"] not in one
    assert (await client.get(director + "links?round=9")).status == 404
    assert (await client.get(f"/d/{round_two}/links?round=2")).status == 403
    report = await (await client.get(director + "report")).json()
    assert [r["round"] for r in report["rounds"]] == ["1", "2"]
    assert "Round 2: Couva v Arima" in report["rounds"][1]["sheets"]


def test_both_rounds_and_all_rounds_are_not_given_together(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    event_in(tmp_path, TWO_ROUNDS)
    assert main(["serve", str(tmp_path / "EVENT.toml"), "--round", "1",
                 "--all-rounds"]) == 2
    assert "--all-rounds serves every round" in capsys.readouterr().err
    assert not list(tmp_path.rglob("*.afn"))  # nothing written


def test_all_rounds_from_the_command_line(tmp_path: Path) -> None:
    event_in(tmp_path, TWO_ROUNDS)
    process = subprocess.Popen([sys.executable, "-m", "allfours_notation", "serve",
                                str(tmp_path / "EVENT.toml"), "--all-rounds", "--port", "0"],
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                               cwd=ROOT)
    try:
        assert process.stdout is not None
        lines: list[str] = []
        while not lines or not lines[-1].startswith("Ctrl+C"):
            line = process.stdout.readline()
            assert line, process.stderr.read() if process.stderr else ""
            lines.append(line)
        printed = "".join(lines)
        assert printed.count("new game file: ") == 4
        assert len(re.findall(r"^table round [12] .* table [12]: http", printed, re.M)) == 4
        links = re.findall(r"^round (\d)'s links and QR codes: (\S+)$", printed, re.M)
        assert [name for name, _ in links] == ["1", "2"]
        with urllib.request.urlopen(links[1][1], timeout=30) as response:
            page = response.read().decode()
        assert "<h2>Round 2</h2>" in page and "Round 1" not in page
    finally:
        if process.poll() is None:
            process.send_signal(signal.SIGINT)
            process.wait(timeout=20)
    written = (tmp_path / "serve-links.html").read_text()
    assert "<h2>Round 1</h2>" in written and "<h2>Round 2</h2>" in written
