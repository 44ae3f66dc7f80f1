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


def test_invalid_utf8_then_messages_nested_deep_and_a_huge_one_leave_the_server_answering(
        tmp_path: Path) -> None:
    """One server process (it was two tests, each starting one): a message whose bytes
    are not UTF-8 is dropped; a file on disk with bad bytes is read as ``check`` reads
    it; the server answers the next request either way.  Then issue 41, finding 3, over
    stdio: requests nested 5,000 and 100,000 deep (arrays, then objects) get an
    InvalidRequest error, a 10 MB request its answer, and the server answers the next
    request and exits cleanly when asked."""
    on_disk = tmp_path / "bad.afn"
    on_disk.write_bytes((ROOT / "samples" / "club-night.afn").read_bytes()
                        .replace(b"Arima club night", b"Arima \xff\xfe night", 1))
    server = subprocess.Popen(
        [sys.executable, "-m", "allfours_notation", "lsp"],
        stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
    )
    assert server.stdin is not None and server.stdout is not None
    try:
        utf8 = {"general": {"positionEncodings": ["utf-8"]}}
        send(server.stdin, message("initialize", {"capabilities": utf8}, 1))
        assert answer_to(server.stdout, 1)["result"]["capabilities"]["positionEncoding"] == "utf-8"
        send(server.stdin, message("initialized", {}))
        # columns in UTF-8 bytes: "{é♠} " before the slip is 9 bytes but 5 characters
        slip = (ROOT / "samples" / "club-night.afn").read_text(encoding="utf-8").replace(
            "  3. S:4S N:3D", "  3. {é♠} S:5S N:3D", 1)
        document = {"uri": "file:///nowhere/slip.afn", "languageId": "afn", "version": 1,
                    "text": slip}
        send(server.stdin, message("textDocument/didOpen", {"textDocument": document}))
        while (got := receive(server.stdout)).get("method") != "textDocument/publishDiagnostics":
            pass
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
        send(server.stdin, message("textDocument/hover", hover, 2))
        result = answer_to(server.stdout, 2)["result"]
        assert "held by S" in result["contents"]["value"]
        # nested far too deep, then a huge message
        for ident, depth, (opening, closing) in [(3, 5_000, ("[", "]")),
                                                 (4, 100_000, ('{"a":', "}"))]:
            params = opening * depth + "0" + closing * depth
            send(server.stdin, f'{{"jsonrpc":"2.0","id":{ident},"method":"afn/deep",'
                               f'"params":{params}}}'.encode())
            assert answer_to(server.stdout, ident)["error"]["code"] == -32600
        send(server.stdin, message("afn/huge", {"text": "x" * 10_000_000}, 5))
        assert answer_to(server.stdout, 5)["error"]["code"] == -32601  # read, unknown
        send(server.stdin, message("shutdown", None, 6))
        assert "error" not in answer_to(server.stdout, 6)
        send(server.stdin, message("exit", None))
        assert server.wait(timeout=20) == 0
    finally:
        if server.poll() is None:
            server.kill()
            server.wait()
