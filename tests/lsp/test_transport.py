"""The server process, spoken to byte by byte: what no well-behaved client sends."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import IO, Any

ROOT = Path(__file__).resolve().parents[2]


def send(stream: IO[bytes], body: bytes) -> None:
    stream.write(b"Content-Length: %d\r\n\r\n" % len(body) + body)
    stream.flush()


def message(method: str, params: object, ident: int | None = None) -> bytes:
    data: dict[str, Any] = {"jsonrpc": "2.0", "method": method, "params": params}
    if ident is not None:
        data["id"] = ident
    return json.dumps(data).encode()


def receive(stream: IO[bytes]) -> dict[str, Any]:
    length = 0
    while (line := stream.readline()) not in (b"\r\n", b""):
        name, _, value = line.decode("ascii").partition(":")
        if name.lower() == "content-length":
            length = int(value)
    answer: dict[str, Any] = json.loads(stream.read(length))
    return answer


def answer_to(stream: IO[bytes], ident: int) -> dict[str, Any]:
    while True:
        got = receive(stream)
        if got.get("id") == ident:
            return got


def test_bad_frames_invalid_utf8_messages_nested_deep_and_a_huge_one_leave_it_answering(
        tmp_path: Path) -> None:
    """One server process (it was three tests, each starting one).  The reproducer of
    issue 23's finding 8 (Content-Length: abc, then -5, then a header block without it):
    each logged on stderr and as window/logMessage, the requests around them answered.
    A message whose bytes are not UTF-8 is dropped; a file on disk with bad bytes is
    read as ``check`` reads it; the server answers the next request either way.  Then
    issue 41, finding 3: requests nested 5,000 and 100,000 deep (arrays, then objects)
    get an InvalidRequest error, a 10 MB request its answer, and the server answers the
    next request and exits cleanly when asked."""
    on_disk = tmp_path / "bad.afn"
    on_disk.write_bytes((ROOT / "samples" / "club-night.afn").read_bytes()
                        .replace(b"Arima club night", b"Arima \xff\xfe night", 1))
    with open(tmp_path / "stderr.txt", "wb") as stderr:  # a file: a pipe could fill up
        server = subprocess.Popen(
            [sys.executable, "-m", "allfours_notation", "lsp"],
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=stderr,
        )
    assert server.stdin is not None and server.stdout is not None
    try:
        utf8 = {"general": {"positionEncodings": ["utf-8"]}}
        send(server.stdin, message("initialize", {"capabilities": utf8}, 1))
        # bad frames around a request (issue 23, finding 8)
        body = json.dumps({"jsonrpc": "2.0", "method": "afn/ignored"}).encode()
        server.stdin.write(b"Content-Length: abc\r\n\r\n" + body)
        server.stdin.write(b"Content-Length: -5\r\n\r\n" + body)
        position = {"textDocument": {"uri": "file:///nowhere/x.afn"},
                    "position": {"line": -1, "character": 0}}
        send(server.stdin, message("textDocument/hover", position, 2))
        server.stdin.write(b"X-Nothing: 1\r\n\r\n" + body)
        server.stdin.flush()
        logged: list[str] = []
        answered: dict[object, dict[str, Any]] = {}
        while 2 not in answered:
            got = receive(server.stdout)
            if got.get("method") == "window/logMessage":
                logged.append(str(got["params"]["message"]))
            elif "id" in got:
                answered[got["id"]] = got
        assert answered[1]["result"]["capabilities"]["positionEncoding"] == "utf-8"
        assert answered[2]["error"]["code"] == -32602
        assert any("Content-Length 'abc'" in text for text in logged), logged
        send(server.stdin, message("initialized", {}))
        # invalid UTF-8; columns in UTF-8 bytes: "{é♠} " before the slip is 9 bytes but
        # 5 characters
        slip = (ROOT / "samples" / "club-night.afn").read_text(encoding="utf-8").replace(
            "  3. S:4S N:3D", "  3. {é♠} S:5S N:3D", 1)
        document = {"uri": "file:///nowhere/slip.afn", "languageId": "afn", "version": 1,
                    "text": slip}
        send(server.stdin, message("textDocument/didOpen", {"textDocument": document}))
        while (got := receive(server.stdout)).get("method") != "textDocument/publishDiagnostics":
            if got.get("method") == "window/logMessage":
                logged.append(str(got["params"]["message"]))
        # the header block without a length is logged by now (read before the didOpen)
        assert any("without Content-Length" in text for text in logged), logged
        first = got["params"]["diagnostics"][0]["range"]
        assert first["start"] == {"line": 20, "character": len("  3. {é♠} ".encode())}
        assert first["end"]["character"] - first["start"]["character"] == len("S:5S")
        raw = on_disk.read_bytes().replace(b"\\", b"\\\\").replace(b'"', b'\\"')
        send(server.stdin, b'{"jsonrpc":"2.0","method":"textDocument/didOpen","params":'
             b'{"textDocument":{"uri":"file:///nowhere/raw.afn","languageId":"afn",'
             b'"version":1,"text":"' + raw.replace(b"\n", b"\\n") + b'"}}}')
        send(server.stdin, b"\xff\xfe not even JSON")
        hover = {"textDocument": {"uri": on_disk.as_uri()},
                 "position": {"line": 18, "character": 8}}
        send(server.stdin, message("textDocument/hover", hover, 3))
        result = answer_to(server.stdout, 3)["result"]
        assert "held by S" in result["contents"]["value"]
        # nested far too deep, then a huge message
        for ident, depth, (opening, closing) in [(4, 5_000, ("[", "]")),
                                                 (5, 100_000, ('{"a":', "}"))]:
            params = opening * depth + "0" + closing * depth
            send(server.stdin, f'{{"jsonrpc":"2.0","id":{ident},"method":"afn/deep",'
                               f'"params":{params}}}'.encode())
            assert answer_to(server.stdout, ident)["error"]["code"] == -32600
        send(server.stdin, message("afn/huge", {"text": "x" * 10_000_000}, 6))
        assert answer_to(server.stdout, 6)["error"]["code"] == -32601  # read, unknown
        send(server.stdin, message("shutdown", None, 7))
        assert "error" not in answer_to(server.stdout, 7)
        send(server.stdin, message("exit", None))
        assert server.wait(timeout=20) == 0
        assert b"Content-Length 'abc'" in (tmp_path / "stderr.txt").read_bytes()
    finally:
        if server.poll() is None:
            server.kill()
            server.wait()
