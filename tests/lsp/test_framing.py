"""The language server survives bad framing (issue 23, finding 8): a malformed frame is
reported and skipped, the next frame is read, and every request gets an answer.  The
issue's reproducer sent to the real server over stdio is in ``test_transport.py``, in
its one server process."""

from __future__ import annotations

import json
import random

import pytest

from allfours_notation.lsp.framing import MAX_JSON_DEPTH, nests_deeper_than
from fuzz.framing import deep, frame, hover, request, run_one, run_stream

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


@pytest.mark.parametrize("depth", [5_000, 100_000])
@pytest.mark.parametrize("bracket", ["[", "{"])
def test_a_message_nested_too_deep_is_refused_and_the_next_request_answered(
        depth: int, bracket: str) -> None:
    """Issue 41, finding 3: one message nested 5,000 deep ended the server (a
    RecursionError while decoding).  A request gets an error (its id found after
    the nesting), a notification is reported, and the next request is answered."""
    answers, reports = run_stream(deep(4, depth, bracket) + deep(None, depth, bracket)
                                  + request(5, "afn/unknownMethod"))
    assert answers[4]["error"]["code"] == -32600
    assert f"more than {MAX_JSON_DEPTH} levels deep" in answers[4]["error"]["message"]
    assert answers[5]["error"]["code"] == -32601
    assert all("levels deep" in text for text in reports[:2])


def test_nesting_is_measured_outside_strings_and_up_to_the_limit() -> None:
    assert not nests_deeper_than(b'{"text": "[[[[{{{{"}', 1)
    assert nests_deeper_than(b'{"a": "\\\\", "b": [[1]]}', 2)
    assert not nests_deeper_than(b'{"a": "\\\\", "b": [[1]]}', 3)
    strings = b'"]]]\\"[[[[[" '
    assert not nests_deeper_than(b'[' * 150 + strings + b']' * 150, 150)
    assert nests_deeper_than(b'[' * 150 + strings + b']' * 150, 149)
    answers, _ = run_stream(deep(6, MAX_JSON_DEPTH - 1) + request(7, "afn/unknownMethod"))
    assert answers[6]["error"]["code"] == -32601  # at the limit: read, and unknown


def test_a_huge_message_is_read_and_the_next_request_answered() -> None:
    """20 MB in one request (a string, and 100,000 small objects) costs a moment, not
    the session."""
    text = "x" * 20_000_000
    wide = [{"line": n} for n in range(100_000)]
    answers, _ = run_stream(request(8, "afn/unknownMethod", {"text": text})
                            + request(9, "afn/unknownMethod", wide)
                            + request(10, "afn/unknownMethod"))
    assert [answers[n]["error"]["code"] for n in (8, 9, 10)] == [-32601] * 3


def test_a_message_over_the_size_limit_is_passed_over_by_its_length(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Issue 41: a message larger than the server reads is skipped a chunk at a time
    (memory stays bounded), said once, and the request after it is answered."""
    from allfours_notation.lsp import framing

    monkeypatch.setattr(framing, "MAX_MESSAGE_BYTES", 1_000)
    monkeypatch.setattr(framing, "_SKIP_CHUNK", 300)
    big = json.dumps({"jsonrpc": "2.0", "id": 4, "method": "afn/unknownMethod",
                      "params": {"text": "x" * 5_000}}).encode()
    answers, reports = run_stream(frame(big) + request(7, "afn/unknownMethod"))
    assert 4 not in answers and answers[7]["error"]["code"] == -32601
    assert reports[0] == f"skipped a message of {len(big):,} bytes: the largest read is 1,000 bytes"


def test_a_message_cut_short_inside_its_skipped_body_ends_the_stream_quietly(
        monkeypatch: pytest.MonkeyPatch) -> None:
    from allfours_notation.lsp import framing

    monkeypatch.setattr(framing, "MAX_MESSAGE_BYTES", 10)
    answers, reports = run_stream(b"Content-Length: 5000\r\n\r\n" + b"x" * 100)
    assert answers == {} and reports == []
