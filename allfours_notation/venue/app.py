"""The venue's web server (aiohttp): the table pages, their entries, the director's links.

Every table has its own unguessable token, in its link's path (``/t/TOKEN/``), and
the director a separate one (``/d/TOKEN/``); tokens are never put in cookies, so a
page of another site cannot write through a phone's browser.  A request without a
right token is refused (403) before anything is read or written.  The body of a
request is limited (``client_max_size``) and each token's requests are rate
limited (a token bucket).  Pages and assets are served from the package: nothing
from the internet.

An entry is judged in a worker thread of the venue's own pool (``ENTRY_THREADS``), one
at a time per table (a lock each, taken in the order the requests came): most of its
time is the disk's (the journal and the game file fsynced), and judged on the event
loop every table would wait for every other's fsyncs (bench/serve.py: 200 tables, p99
16 s on the loop).  The pool is the venue's, not asyncio's default (a few threads on
a small machine, shared with the director's reports): as many fsyncs overlap as
tables enter at once, up to ``ENTRY_THREADS``.
"""

from __future__ import annotations

import asyncio
import functools
import json
import secrets
import time
from collections.abc import Awaitable, Callable, Mapping
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from importlib import resources
from typing import Any, TypeVar

from aiohttp import web

from .links import links_page
from .table import Answer, Table

__all__ = ["ENTRY_THREADS", "MAX_BODY", "Venue", "make_app"]

T = TypeVar("T")

MAX_BODY = 4096  # bytes: an entry is one short line
RATE = 10.0  # requests a second per token, on average
BURST = 40  # requests a token may make at once
ASSETS = {"table.js": "text/javascript", "table.css": "text/css", "cards.js": "text/javascript",
          "director.js": "text/javascript", "director.css": "text/css"}
# the threads judging entries and rulings: each mostly waits on an fsync, so more than
# the cores; bounded, so a burst of entries queues rather than makes a thread each
ENTRY_THREADS = 32
STALE = 600.0  # seconds without an entry after which a table is shown as not reporting
HEADERS = {
    "Cache-Control": "no-store",
    "Referrer-Policy": "no-referrer",  # the token is in the path: never sent elsewhere
    "X-Content-Type-Options": "nosniff",
    "Content-Security-Policy": "default-src 'self'; img-src 'self' data:; "
                               "frame-ancestors 'none'; base-uri 'none'; form-action 'none'",
}

# the printable page keeps its style and its QR codes inline: no script at all
LINKS_CSP = "default-src 'none'; style-src 'unsafe-inline'; frame-ancestors 'none'"

Handler = Callable[[web.Request], Awaitable[web.StreamResponse]]


@dataclass
class Bucket:
    """A token bucket: ``BURST`` requests at once, ``RATE`` a second after."""

    tokens: float = BURST
    at: float = field(default_factory=time.monotonic)

    def take(self) -> bool:
        now = time.monotonic()
        self.tokens = min(BURST, self.tokens + (now - self.at) * RATE)
        self.at = now
        if self.tokens < 1:
            return False
        self.tokens -= 1
        return True


@dataclass
class Venue:
    """The tables served, by token, and the director's token."""

    tables: dict[str, Table]
    director: str
    base_url: str = ""
    stale: float = STALE
    # an event's rounds served: their match sheets and the standings, from the event layer
    report: Callable[[], dict[str, Any]] | None = None
    # an event's table: its round and match (``HOME v AWAY``), by the table's name
    places: dict[str, tuple[str, str]] = field(default_factory=dict)
    buckets: dict[str, Bucket] = field(default_factory=dict)
    # one entry at a time per table, in the order the requests came; tables in parallel
    locks: dict[str, asyncio.Lock] = field(default_factory=dict)

    def lock(self, table: Table) -> asyncio.Lock:
        return self.locks.setdefault(table.name, asyncio.Lock())

    @classmethod
    def of(cls, tables: list[Table],
           places: dict[str, tuple[str, str]] | None = None) -> Venue:
        """The venue of ``tables``, each with a token of its own (made again in the
        unlikely case of one already given: every table of every round, and the
        director, has a different one)."""
        tokens: set[str] = set()
        while len(tokens) < len(tables) + 1:
            tokens.add(secrets.token_urlsafe(24))
        director, *own = tokens
        return cls(dict(zip(own, tables, strict=True)), director, places=places or {})

    def table(self, token: str) -> Table | None:
        """The table whose token is ``token`` (compared in constant time), or None."""
        found = None
        for known, table in self.tables.items():
            if secrets.compare_digest(known.encode(), token.encode()):
                found = table
        return found

    def by_name(self, name: str) -> Table | None:
        return next((t for t in self.tables.values() if t.name == name), None)

    def links(self, round_name: str | None = None) -> list[tuple[str, str]]:
        """(table name, its link) for every table (of round ``round_name`` only, when
        given), in the order given."""
        return [(table.name, f"{self.base_url}/t/{token}/")
                for token, table in self.tables.items()
                if round_name is None or self.place(table)[0] == round_name]

    def place(self, table: Table) -> tuple[str, str]:
        """The table's round and match, or two empty names (a game file served alone)."""
        return self.places.get(table.name, ("", ""))

    def headings(self) -> dict[str, str]:
        """The printable page's heading of each table of an event: its round."""
        return {name: f"Round {where[0]}" for name, where in self.places.items()}


def _asset(name: str) -> str:
    return resources.files(__package__).joinpath("assets", name).read_text(encoding="utf-8")


def _json(data: Mapping[str, Any], status: int = 200) -> web.Response:
    return web.Response(text=json.dumps(data), status=status,
                        content_type="application/json")


def _director_view(table: Table, venue: Venue) -> dict[str, Any]:
    """A table as the director sees it: its state, when it last had an entry (and
    whether that is too long ago), the disputes waiting for a ruling, and its round
    and match when it is an event's."""
    idle = max(0.0, time.time() - table.last_at)
    where = venue.place(table)
    return {**table.state(), "last_entry": table.last_at, "idle_seconds": round(idle),
            "stale": idle > venue.stale, "disputes": table.disputes(),
            "ruled_deal": table.session.ruled_deal(), "round": where[0], "match": where[1]}


def make_app(venue: Venue) -> web.Application:
    """The aiohttp application serving ``venue``."""
    pool = ThreadPoolExecutor(ENTRY_THREADS, thread_name_prefix="entry")

    async def in_pool(work: Callable[..., T], *args: Any) -> T:
        return await asyncio.get_running_loop().run_in_executor(
            pool, functools.partial(work, *args))

    async def shut_pool(app: web.Application) -> None:
        pool.shutdown(wait=True)

    @web.middleware
    async def guard(request: web.Request, handler: Handler) -> web.StreamResponse:
        token = request.match_info.get("token")
        if token is not None:
            known = secrets.compare_digest(token.encode(), venue.director.encode()) \
                if request.path.startswith("/d/") else venue.table(token) is not None
            if not known:
                response: web.StreamResponse = _json({"error": "forbidden"}, 403)
            elif not venue.buckets.setdefault(token, Bucket()).take():
                response = _json({"error": "too many requests: wait a moment"}, 429)
            else:
                response = await handler(request)
        else:
            response = await handler(request)
        for name, value in HEADERS.items():
            response.headers.setdefault(name, value)
        return response

    async def page(request: web.Request) -> web.Response:
        return web.Response(text=_asset("table.html"), content_type="text/html")

    async def state(request: web.Request) -> web.Response:
        table = venue.table(request.match_info["token"])
        assert table is not None  # the guard let it through
        async with venue.lock(table):
            return _json(table.state())

    async def entry(request: web.Request) -> web.Response:
        table = venue.table(request.match_info["token"])
        assert table is not None
        try:
            body = await request.json()
        except ValueError:
            return _json({"error": "the body is not JSON"}, 400)
        if not isinstance(body, dict) or not isinstance(body.get("phone"), str) or \
                not isinstance(body.get("number"), int) or \
                not isinstance(body.get("line"), str):
            return _json({"error": "send {phone, number, line}"}, 400)
        async with venue.lock(table):
            # in a thread: the file's fsyncs wait on the disk, not on the other tables
            answer: Answer = await in_pool(table.enter, body["phone"], body["number"],
                                           body["line"])
        return _json(answer.body, answer.status)

    async def asset(request: web.Request) -> web.Response:
        name = request.match_info["name"]
        if name not in ASSETS:
            raise web.HTTPNotFound()
        return web.Response(text=_asset(name), content_type=ASSETS[name])

    async def director_page(request: web.Request) -> web.Response:
        return web.Response(text=_asset("director.html"), content_type="text/html")

    async def director_links(request: web.Request) -> web.Response:
        # ?round=R: one round's tables (each round's page to print on its own)
        round_name = request.query.get("round")
        if round_name is not None and not venue.links(round_name):
            return _json({"error": "no such round served"}, 404)
        return web.Response(text=links_page(venue.links(round_name), venue.headings()),
                            content_type="text/html",
                            headers={"Content-Security-Policy": LINKS_CSP})

    async def director_state(request: web.Request) -> web.Response:
        states = []
        for table in venue.tables.values():
            async with venue.lock(table):
                # the disputes are the referee's: check() over the game, in a thread
                states.append(await asyncio.to_thread(_director_view, table, venue))
        return _json({"tables": states, "stale_minutes": venue.stale / 60})

    async def director_report(request: web.Request) -> web.Response:
        if venue.report is None:
            return _json({"event": False})
        # the event layer reads every game file of the folder: in a thread
        return _json({"event": True, **await asyncio.to_thread(venue.report)})

    async def ruling(request: web.Request) -> web.Response:
        try:
            body = await request.json()
        except ValueError:
            return _json({"error": "the body is not JSON"}, 400)
        if not isinstance(body, dict) or not isinstance(body.get("table"), str) or \
                not isinstance(body.get("line"), str) or \
                not isinstance(body.get("deal"), int | None) or \
                isinstance(body.get("deal"), bool):
            return _json({"error": "send {table, line, deal}"}, 400)
        table = venue.by_name(body["table"])
        if table is None:
            return _json({"error": "no such table"}, 404)
        async with venue.lock(table):
            answer = await in_pool(table.rule, body["line"], body.get("deal"))
            if answer.status == 200:
                answer.body["table"] = _director_view(table, venue)
        return _json(answer.body, answer.status)

    app = web.Application(middlewares=[guard], client_max_size=MAX_BODY)
    app.on_cleanup.append(shut_pool)
    app.router.add_get("/t/{token}/", page)
    app.router.add_get("/t/{token}/state", state)
    app.router.add_post("/t/{token}/entry", entry)
    app.router.add_get("/d/{token}/", director_page)
    app.router.add_get("/d/{token}/links", director_links)
    app.router.add_get("/d/{token}/state", director_state)
    app.router.add_post("/d/{token}/ruling", ruling)
    app.router.add_get("/d/{token}/report", director_report)
    app.router.add_get("/assets/{name}", asset)
    return app
