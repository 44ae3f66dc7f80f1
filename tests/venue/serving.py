"""What the venue's tests share: a game file to serve, and the app under aiohttp's
test client (pytest-aiohttp is not used: each test runs its own event loop)."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

from aiohttp.test_utils import TestClient, TestServer

from allfours_notation.venue.app import Venue, make_app
from allfours_notation.venue.games import MatchOver
from allfours_notation.venue.table import open_table
from tests.waiting import looked_until

HEADER = """% AFN 1
[Event "Club night"]
[Site "Arima"]
[Date "2026.12.07"]
[Rules "trinidad14"]
[North "Ann"]
[East "Bob"]
[South "Cy"]
[West "Di"]
[Result "*"]
[Entry "results"]
"""


def game_file(folder: Path, name: str = "table-1.afn", header: str = HEADER) -> Path:
    path = folder / name
    path.write_text(header, encoding="utf-8")
    return path


# TestClient is generic from aiohttp 3.10 on: the alias is for the type checker only
Test = Callable[["TestClient[Any, Any]", Venue], Awaitable[None]]


def with_client(path: Path, test: Test, over: MatchOver | None = None) -> None:
    """Run ``test`` against the app serving the table of ``path`` (released after);
    ``over``: the event's match rule at the table, as ``allfours serve EVENT.toml``
    opens it."""
    table = open_table(path, path.stem, over=over)
    venue = Venue.of([table])

    async def main() -> None:
        async with TestClient(TestServer(make_app(venue))) as client:
            await test(client, venue)

    try:
        asyncio.run(main())
    finally:
        table.release()


def token_of(venue: Venue) -> str:
    return next(iter(venue.tables))


def other_than(token: str) -> str:
    """A token that differs from ``token`` in its first character only (one of 64 tokens
    begins with "x": an "x" put first would then be the right token)."""
    return ("y" if token.startswith("x") else "x") + token[1:]


def wait_until(condition: Callable[[], object], what: str, timeout: float = 30.0) -> None:
    """Poll ``condition`` until it holds (a condition, never a fixed sleep)."""
    looked_until(condition, bool, what, patience=timeout)
