"""The server process over 10,000 opens and closes (issue 41, finding 6): its resident
memory grows by at most 20 MB (it grew by about 13 KB a cycle, 43 -> 162 MB after
9,000).  Slow (about a minute): in ``SLOW_MODULES``; ``test_memory.py`` is the cheap
check of the same in the default suite."""

from __future__ import annotations

import queue
import subprocess
import sys
import threading
from pathlib import Path
from typing import IO, Any

from tests.lsp.test_transport import message, receive, send

ROOT = Path(__file__).resolve().parents[2]
CYCLES = 10_000
BATCH = 250


def _resident_mb(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text(encoding="ascii").splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    raise AssertionError("no VmRSS")


def _read_answers(stream: IO[bytes], answers: queue.Queue[dict[str, Any]]) -> None:
    """Reads everything the server writes (so that it never blocks on a full pipe),
    keeping the responses."""
    try:
        while True:
            got = receive(stream)
            if "id" in got and "method" not in got:
                answers.put(got)
    except ValueError:
        return  # the stream ended


def test_ten_thousand_opens_and_closes_grow_the_server_by_at_most_20_mb() -> None:
    text = (ROOT / "samples" / "club-night.afn").read_text(encoding="utf-8")
    server = subprocess.Popen([sys.executable, "-m", "allfours_notation", "lsp"],
                              stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                              stderr=subprocess.DEVNULL)
    assert server.stdin is not None and server.stdout is not None
    stdin = server.stdin
    ident = 1
    answers: queue.Queue[dict[str, Any]] = queue.Queue()
    threading.Thread(target=_read_answers, args=(server.stdout, answers), daemon=True).start()

    def answer_to(_: object, wanted: int) -> dict[str, Any]:
        while (got := answers.get(timeout=120)).get("id") != wanted:
            pass
        return got

    def settled() -> None:
        """A request answered after an analysis: every message before it is handled
        and every analysis it started is done (one worker, in order)."""
        nonlocal ident
        ident += 1
        where = {"textDocument": {"uri": "file:///nowhere/barrier.afn"}}
        send(stdin, message("textDocument/foldingRange", where, ident))
        assert "result" in answer_to(server.stdout, ident)

    def cycles(first: int, count: int) -> None:
        for number in range(first, first + count):
            uri = f"file:///nowhere/doc-{number}.afn" if number % 2 else "file:///nowhere/same.afn"
            opened = {"uri": uri, "languageId": "afn", "version": 1, "text": text}
            send(stdin, message("textDocument/didOpen", {"textDocument": opened}))
            send(stdin, message("textDocument/didClose", {"textDocument": {"uri": uri}}))
        settled()

    try:
        send(stdin, message("initialize", {"capabilities": {}}, 1))
        answer_to(server.stdout, 1)
        send(stdin, message("initialized", {}))
        cycles(0, 500)  # warmed up: every cache that fills once is full
        before = _resident_mb(server.pid)
        for first in range(500, 500 + CYCLES, BATCH):
            cycles(first, BATCH)
        after = _resident_mb(server.pid)
        assert after - before <= 20, f"{before:.1f} -> {after:.1f} MB after {CYCLES:,} cycles"
        send(stdin, message("shutdown", None, 0))
        answer_to(server.stdout, 0)
        send(stdin, message("exit", None))
        assert server.wait(timeout=30) == 0
    finally:
        if server.poll() is None:
            server.kill()
            server.wait()
