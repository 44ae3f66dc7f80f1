"""The language server survives bad framing (issue 23, finding 8): a malformed frame is
reported and skipped, the next frame is read, and every request gets an answer."""

from __future__ import annotations

import json
import random
import subprocess
import sys

import pytest

from fuzz.framing import frame, hover, request, run_one, run_stream

BODY = json.dumps({"jsonrpc": "2.0", "method": "afn/ignored"}).encode()


@pytest.mark.parametrize("bad", [
    b"Content-Length: abc\r\n\r\n" + BODY,
    b"Content-Length: -5\r\n\r\n" + BODY,
    b"Content-Type: application/vscode-jsonrpc\r\n\r\n" + BODY,  # a block without the length
    b"Content-Length: 99999999999999999999\r\n\r\n" + BODY,
    b"garbage, no frame at all",
])
def test_a_malformed_frame_is_reported_and_the_next_request_answered(bad: bytes) -> None:
    answers, reports = run_stream(bad + request(7, "afn/unknownMethod"))
    assert answers[7]["error"]["code"] == -32601  # method not found: answered
    assert reports and "skipped" in reports[0]


def test_a_body_that_is_not_json_is_reported_and_the_stream_goes_on() -> None:
    answers, reports = run_stream(frame(b"\xff\xfe{") + request(3, "afn/unknownMethod"))
    assert 3 in answers
    assert "not JSON" in reports[0]


@pytest.mark.parametrize(("line", "character"), [(-1, 0), (0, -5), (2**31, 0), (0, 2**32)])
def test_a_position_out_of_range_gets_an_error_response(line: int, character: int) -> None:
    answers, reports = run_stream(hover(5, line, character))
    error = answers[5]["error"]
    assert error["code"] == -32602
    assert "textDocument/hover" in error["message"] and "$.params.position" in error["message"]
    assert reports


def test_random_streams_of_good_and_bad_frames() -> None:
    """The short fuzz run of the suite (python -m fuzz.surfaces runs the long one)."""
    rng = random.Random(23)
    for _ in range(40):
        outcome = run_one(rng)
        assert not outcome.unanswered, outcome
        assert not outcome.wrong, outcome


def _receive(stream: object) -> dict[str, object]:
    import io

    assert isinstance(stream, io.BufferedReader)
    length = 0
    while (line := stream.readline()) not in (b"\r\n", b""):
        name, _, value = line.decode("ascii").partition(":")
        if name.lower() == "content-length":
            length = int(value)
    answer: dict[str, object] = json.loads(stream.read(length))
    return answer


def test_the_real_server_logs_the_bad_frame_and_answers_on() -> None:
    """Over stdio: the reproducer of the issue (Content-Length: abc, then -5, then a
    header block without it), each logged on stderr and as window/logMessage."""
    server = subprocess.Popen([sys.executable, "-m", "allfours_notation", "lsp"],
                              stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                              stderr=subprocess.PIPE)
    assert server.stdin is not None and server.stdout is not None
    try:
        server.stdin.write(request(1, "initialize", {"capabilities": {}}))
        server.stdin.write(b"Content-Length: abc\r\n\r\n" + BODY)
        server.stdin.write(b"Content-Length: -5\r\n\r\n" + BODY)
        server.stdin.write(hover(2, -1, 0))
        server.stdin.write(b"X-Nothing: 1\r\n\r\n" + BODY)
        server.stdin.write(request(3, "shutdown"))
        server.stdin.flush()
        logged: list[str] = []
        answered: dict[object, dict[str, object]] = {}
        while 3 not in answered:
            got = _receive(server.stdout)
            if got.get("method") == "window/logMessage":
                params = got["params"]
                assert isinstance(params, dict)
                logged.append(str(params["message"]))
            elif "id" in got:
                answered[got["id"]] = got
        assert "result" in answered[1]
        error = answered[2]["error"]
        assert isinstance(error, dict) and error["code"] == -32602
        assert any("Content-Length 'abc'" in text for text in logged), logged
        assert any("without Content-Length" in text for text in logged), logged
        server.stdin.write(request(4, "exit"))
        server.stdin.close()
        assert server.wait(timeout=20) == 0
        assert server.stderr is not None
        assert b"Content-Length 'abc'" in server.stderr.read()
    finally:
        if server.poll() is None:
            server.kill()
            server.wait()
