"""Fuzzing the language server's framing: random streams of good and bad frames.

A stream is built from pieces: well-formed requests (each must get a response with
its id), requests whose params the protocol's types refuse (a negative position, one
past 2³¹: each must get an error response), messages nested 300 to 30,000 levels
deep (a request among them gets an error response), and malformed frames of every kind the
reading loop must survive (``Content-Length: abc``, ``-5``, a header block without
it, a body that is not JSON, bytes that are no frame).  The stream goes through
:func:`allfours_notation.lsp.framing.run_framed` with the server's real protocol,
in memory; the check is that nothing raises and every request is answered.
"""

from __future__ import annotations

import asyncio
import io
import json
import random
import threading
from dataclasses import dataclass
from typing import Any

__all__ = ["Answered", "deep", "frame", "random_stream", "run_stream"]


class MemoryReader:
    def __init__(self, data: bytes) -> None:
        self.stream = io.BytesIO(data)

    async def readline(self) -> bytes:
        return self.stream.readline()

    async def readexactly(self, n: int) -> bytes:
        return self.stream.read(n)


class MemoryWriter:
    def __init__(self) -> None:
        self.data = bytearray()

    def write(self, data: bytes) -> None:
        self.data += data

    def close(self) -> None:
        pass


def frame(body: bytes) -> bytes:
    return b"Content-Length: %d\r\n\r\n" % len(body) + body


def request(ident: int, method: str, params: object = None) -> bytes:
    data: dict[str, Any] = {"jsonrpc": "2.0", "id": ident, "method": method}
    if params is not None:
        data["params"] = params
    return frame(json.dumps(data).encode())


def hover(ident: int, line: int, character: int) -> bytes:
    return request(ident, "textDocument/hover",
                   {"textDocument": {"uri": "file:///nowhere/x.afn"},
                    "position": {"line": line, "character": character}})


def deep(ident: int | None, depth: int, bracket: str = "[") -> bytes:
    """A message whose params nest ``depth`` levels (arrays or objects), its id last."""
    opening, closing = ('{"a": ', "}") if bracket == "{" else ("[", "]")
    params = opening * depth + "0" + closing * depth
    tail = f', "id": {ident}}}' if ident is not None else "}"
    return frame(f'{{"jsonrpc": "2.0", "method": "afn/deep", "params": {params}{tail}'.encode())


def _bad_pieces(rng: random.Random) -> bytes:
    body = json.dumps({"jsonrpc": "2.0", "method": "afn/ignored"}).encode()
    choice = rng.randrange(7)
    if choice == 0:
        return b"Content-Length: abc\r\n\r\n" + body
    if choice == 1:
        return b"Content-Length: -5\r\n\r\n" + body
    if choice == 2:
        return b"Content-Type: application/vscode-jsonrpc\r\n\r\n" + body
    if choice == 3:
        return frame(bytes(rng.randrange(256) for _ in range(rng.randrange(1, 30))))
    if choice == 4:
        return frame(b"[1, 2, 3]")
    if choice == 5:
        return b"Content-Length: 99999999999999999999\r\n\r\n" + body
    return bytes(rng.choice(b"abc {}\"\r\n:") for _ in range(rng.randrange(1, 40)))


@dataclass(frozen=True, slots=True)
class Answered:
    """The outcome of one stream: the ids asked, the ids answered, what was reported."""

    asked: frozenset[int]
    errors_expected: frozenset[int]
    answers: dict[int, dict[str, Any]]
    reports: tuple[str, ...]

    @property
    def unanswered(self) -> frozenset[int]:
        return self.asked - set(self.answers)

    @property
    def wrong(self) -> list[int]:
        """Requests that should have been refused with InvalidParams and were not."""
        return [ident for ident in self.errors_expected
                if self.answers.get(ident, {}).get("error", {}).get("code") != -32602]


def random_stream(rng: random.Random, pieces: int = 12) -> tuple[bytes, set[int], set[int]]:
    data = bytearray()
    asked: set[int] = set()
    refused: set[int] = set()
    for ident in range(1, pieces + 1):
        kind = rng.randrange(5)
        if kind == 4:  # nested far too deep: refused, with an error if it is a request
            data += deep(ident if rng.randrange(2) else None, rng.choice([300, 5_000, 30_000]),
                         rng.choice("[{"))
            if data.endswith(b'"id": %d}' % ident):
                asked.add(ident)
        elif kind == 0:
            data += request(ident, "afn/unknownMethod")  # answered: method not found
            asked.add(ident)
        elif kind == 1:
            line = rng.choice([-1, -(2**31), 2**31, 2**40])
            data += hover(ident, line, rng.choice([0, -3, 2**32]))
            asked.add(ident)
            refused.add(ident)
        else:
            data += _bad_pieces(rng)
    return bytes(data), asked, refused


def run_stream(data: bytes) -> tuple[dict[int, dict[str, Any]], list[str]]:
    """Feed ``data`` to the reading loop with the server's protocol; the responses by
    id and the reports."""
    from allfours_notation.lsp.framing import run_framed
    from allfours_notation.lsp.server import build_server

    server = build_server()
    writer = MemoryWriter()
    server.protocol.set_writer(writer)
    reports: list[str] = []
    try:
        asyncio.run(run_framed(threading.Event(), MemoryReader(data), server.protocol,
                               reports.append))
    finally:
        server.worker.shutdown(wait=False, cancel_futures=True)
    return _responses(bytes(writer.data)), reports


def _responses(data: bytes) -> dict[int, dict[str, Any]]:
    found: dict[int, dict[str, Any]] = {}
    stream = io.BytesIO(data)
    while True:
        length = None
        while (line := stream.readline()) not in (b"\r\n", b""):
            name, _, value = line.partition(b":")
            if name.lower() == b"content-length":
                length = int(value)
        if length is None:
            return found
        message = json.loads(stream.read(length))
        if "id" in message and "method" not in message:
            found[message["id"]] = message


def run_one(rng: random.Random) -> Answered:
    data, asked, refused = random_stream(rng)
    answers, reports = run_stream(data)
    return Answered(frozenset(asked), frozenset(refused), answers, tuple(reports))
