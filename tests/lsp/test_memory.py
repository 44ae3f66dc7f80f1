"""A closed document leaves nothing behind (issue 41, finding 6: about 13 KB stayed for
every didOpen and didClose, 43 -> 162 MB after 9,000 cycles).

Two things kept it: pygls filed the future of every notification it handled and never
took it out, and a document closed while its analysis was on its way stayed in a
reference cycle (buffer -> cancelled refresh task -> its exception's traceback -> the
refresh's frame -> buffer), which the server's frozen heap hid from the collector.
These tests drive the server's real protocol in memory; ``test_memory_slow.py``
measures the process itself over 10,000 cycles.
"""

from __future__ import annotations

import asyncio
import gc
import json
import sys
import threading
import weakref
from pathlib import Path
from typing import Any

from allfours_notation.lsp.document import Analyzer
from allfours_notation.lsp.framing import handle_body
from allfours_notation.lsp.server import AfnServer, build_server
from fuzz.framing import MemoryWriter
from tests.waiting import holds

SAMPLE = (Path(__file__).resolve().parents[2] / "samples" / "worked-example-a.afn").read_text(
    encoding="utf-8")


def _message(method: str, params: object, ident: int | None = None) -> bytes:
    data: dict[str, Any] = {"jsonrpc": "2.0", "method": method, "params": params}
    if ident is not None:
        data["id"] = ident
    return json.dumps(data).encode()


class Session:
    """The server with its real protocol, fed message by message on a running loop."""

    def __init__(self) -> None:
        self.server: AfnServer = build_server(debounce=0)
        self.writer = MemoryWriter()
        self.server.protocol.set_writer(self.writer)
        self.send(_message("initialize", {"capabilities": {}}, 1))
        self.send(_message("initialized", {}))

    def send(self, body: bytes) -> None:
        reports: list[str] = []
        handle_body(body, self.server.protocol, reports.append)
        assert not reports, reports

    def open(self, uri: str, text: str = SAMPLE) -> None:
        self.send(_message("textDocument/didOpen", {"textDocument": {
            "uri": uri, "languageId": "afn", "version": 1, "text": text}}))

    def close(self, uri: str) -> None:
        self.send(_message("textDocument/didClose", {"textDocument": {"uri": uri}}))

    async def idle(self) -> None:
        """Until every task the messages started has finished (the analyses too)."""
        me = asyncio.current_task()
        while others := [task for task in asyncio.all_tasks() if task is not me]:
            await asyncio.wait(others)
        self.writer.data.clear()

    def stop(self) -> None:
        self.server.worker.shutdown(wait=True, cancel_futures=True)


def test_a_document_closed_while_it_is_analysed_is_freed_without_the_collector() -> None:
    """Closed while its refresh waits for the worker: the buffer (and its analyzer, with
    every game's records) goes as soon as the refresh ends, by reference counting alone;
    before the fix it stayed in a cycle that only a full collection could find."""

    async def run() -> weakref.ref[Analyzer]:
        session = Session()
        release = threading.Event()
        session.server.worker.submit(release.wait)  # the worker busy: the refresh waits
        session.open("file:///nowhere/closing.afn")
        await holds(lambda: _waiting_for_the_worker(session.server, "file:///nowhere/closing.afn"),
                    "the refresh waiting for the busy worker")
        buffer = session.server.buffers["file:///nowhere/closing.afn"]
        analyzer = weakref.ref(buffer.analyzer)
        del buffer
        session.close("file:///nowhere/closing.afn")
        release.set()
        await session.idle()
        session.stop()
        return analyzer

    gc.disable()
    try:
        analyzer = asyncio.run(run())
        assert analyzer() is None
    finally:
        gc.enable()


def _waiting_for_the_worker(server: AfnServer, uri: str) -> bool:
    """Whether the buffer's refresh has started and now waits for the worker."""
    buffer = server.buffers.get(uri)
    task = buffer.pending if buffer is not None else None
    if task is None or task.done():
        return False
    frame = task.get_coro().cr_frame  # type: ignore[union-attr]
    return frame is not None and "buffer" in frame.f_locals


def test_open_and_close_two_hundred_times_and_memory_returns_to_its_level() -> None:
    """200 cycles of open, analyse, close over three names: the blocks of memory Python
    holds (after an ordinary collection, which cannot see frozen garbage) are about as
    many as before (153 more after 200 cycles); without the fix about 49 more stayed
    for every cycle (9,775 after 200)."""

    async def cycles(session: Session, count: int) -> None:
        for number in range(count):
            uri = f"file:///nowhere/cycle-{number % 3}.afn"
            session.open(uri)
            await session.idle()
            session.close(uri)
            await session.idle()

    async def run() -> tuple[int, int, int]:
        session = Session()
        await cycles(session, 30)  # every cache that fills once is full
        gc.collect()
        before = sys.getallocatedblocks()
        await cycles(session, 200)
        gc.collect()
        after = sys.getallocatedblocks()
        left = len(session.server.protocol._request_futures)
        session.stop()
        return before, after, left

    try:
        before, after, futures_left = asyncio.run(run())
    finally:
        gc.freeze()  # the suite's state: what collection made stays frozen (conftest)
    assert after - before < 2_000, f"{after - before:,} blocks more after 200 cycles"
    assert futures_left == 0
