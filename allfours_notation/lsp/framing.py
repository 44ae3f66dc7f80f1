"""The server's reading loop: LSP base-protocol frames, surviving bad ones.

pygls 2's loop (``pygls.io_.run_async``) expects every header block to carry a
well-formed ``Content-Length``.  After one that does not (``Content-Length: abc``,
``-5``, or a block without it) it never finds a frame again: the body that follows
is read as a header line glued to the next real header, and so on for ever — the
server is alive and silent.  A request whose params do not fit the protocol's
types (a negative position, one past 2³¹) fails while it is structured, before
pygls knows its id, and gets no answer at all.

:func:`run_framed` replaces that loop (:meth:`AfnServer.start_io` runs it over
pygls's own stdin reader and protocol): a malformed frame is reported on stderr
and to the editor (``window/logMessage``), and the loop resynchronises at the
next ``Content-Length`` header, even one glued to the end of a body; a request
that cannot be structured gets an error response (InvalidParams, or ParseError
for a body that is not JSON) naming what was wrong.  Everything here is
transport: no knowledge of AFN.
"""

from __future__ import annotations

import json
import logging
import re
import threading
from collections.abc import Awaitable, Callable
from typing import Any, Protocol

from lsprotocol import types
from pygls.protocol import JsonRPCProtocol

__all__ = ["MAX_JSON_DEPTH", "MAX_MESSAGE_BYTES", "FrameReader", "nests_deeper_than", "run_framed"]

log = logging.getLogger(__name__)

# The largest message read: a document at the server's size limit (4 MiB of text), in
# JSON, fits even with every character escaped (12 bytes for a surrogate pair's two
# escapes: 48 MiB).  A larger message is passed over by its length, a chunk at a time,
# so that memory stays bounded (issue 41); a length beyond any real message (past
# ``_SKIP_BYTES``) is taken as garbage, and the stream is searched for the next header.
MAX_MESSAGE_BYTES = 64 << 20
_SKIP_BYTES = 1 << 32
_SKIP_CHUNK = 1 << 20
_HEADER = re.compile(rb"content-length[ \t]*:", re.IGNORECASE)
_DIGITS = re.compile(rb"[0-9]{1,10}")
# How deep a message's arrays and objects may nest: the protocol's own messages nest
# about ten levels, settings a few more; Python's decoder fails a few thousand down.
MAX_JSON_DEPTH = 200
# A string (with its escapes) or one bracket: what the depth is counted from.
_TOKEN = re.compile(rb'"[^"\\]*(?:\\.[^"\\]*)*"|[\[\]{}]', re.DOTALL)
_ID_SEARCH_TOKENS = 1_000_000
_MEMBER_VALUE = re.compile(rb'[ \t\r\n]*:[ \t\r\n]*(-?[0-9]{1,20}|"[^"\\]{0,200}")')
# JSON-RPC error codes (the protocol's numbers, lsprotocol.types.ErrorCodes)
PARSE_ERROR = -32700
INVALID_REQUEST = -32600
INVALID_PARAMS = -32602
METHOD_NOT_FOUND = -32601


class FrameReader(Protocol):
    """What the loop reads from: pygls's ``StdinAsyncReader`` or any asyncio stream."""

    def readline(self) -> Awaitable[bytes]: ...

    def readexactly(self, n: int) -> Awaitable[bytes]: ...


Report = Callable[[str], None]


async def run_framed(stop_event: threading.Event, reader: FrameReader,
                     protocol: JsonRPCProtocol, report: Report) -> None:
    """Read frames until end of input (or ``stop_event``), hand each message to
    ``protocol``; ``report`` says what was wrong with a frame that is skipped."""
    skipping = False  # reporting one run of garbage once, not line by line
    pending: bytes | None = None  # a header line found glued to the end of garbage
    while not stop_event.is_set():
        length: int | None = None
        oversize: int | None = None  # a real message too large to read: passed over
        problem: str | None = None
        seen_header = False
        while True:
            line = pending if pending is not None else await reader.readline()
            pending = None
            if not line:
                return
            if line.strip() == b"":
                if seen_header:
                    break
                continue  # blank lines between frames: nothing to say
            found = _HEADER.search(line)
            if found is not None and found.start() > 0:  # glued to the end of a body
                if not skipping:
                    report(f"skipped {found.start()} bytes before a Content-Length header "
                           f"({_shown(line[:found.start()])})")
                pending = line[found.start():]
                length, problem, seen_header = None, None, False
                continue
            if found is not None:
                seen_header = True
                value = line[found.end():].strip()
                if _DIGITS.fullmatch(value) and int(value) <= MAX_MESSAGE_BYTES:
                    length, problem = int(value), None
                elif _DIGITS.fullmatch(value) and int(value) <= _SKIP_BYTES:
                    oversize, problem = int(value), None
                else:
                    problem = (f"a message with Content-Length {_shown(value)} (a length is "
                               f"a number of bytes, 0 to {MAX_MESSAGE_BYTES})")
                continue
            if _looks_like_header(line):
                seen_header = True  # another header (Content-Type): ignored, per the spec
                continue
            if not skipping:
                report(f"skipped {len(line)} bytes that are not part of a message frame "
                       f"({_shown(line)}); waiting for the next Content-Length header")
                skipping = True
            length, problem, seen_header = None, None, False
        if oversize is not None and problem is None:
            if not await _pass_over(reader, oversize):
                return  # the input ended inside the body
            report(f"skipped a message of {oversize:,} bytes: the largest read is "
                   f"{MAX_MESSAGE_BYTES:,} bytes")
            skipping = False
            continue
        if problem is None and length is None:
            problem = "a header block without Content-Length"
        if problem is not None:
            report(f"skipped {problem}; waiting for the next Content-Length header")
            skipping = True
            continue
        assert length is not None
        body = await reader.readexactly(length)
        if len(body) < length:
            return  # the input ended inside the body
        skipping = False
        try:
            handle_body(body, protocol, report)
        except Exception as error:  # one message never ends the session
            log.exception("unable to read a message")
            report(f"a message could not be read: {type(error).__name__}")


async def _pass_over(reader: FrameReader, count: int) -> bool:
    """Read ``count`` bytes and keep none of them (a message too large to read); False
    when the input ends first."""
    while count > 0:
        chunk = await reader.readexactly(min(count, _SKIP_CHUNK))
        if not chunk:
            return False
        count -= len(chunk)
    return True


def nests_deeper_than(body: bytes, limit: int) -> bool:
    """Whether the message's arrays and objects nest more than ``limit`` levels
    (brackets inside strings do not count); the scan stops as soon as they do.

    Python's decoder recurses once per level and dies of a RecursionError a few
    thousand levels down (issue 41: the server exited on one message nested 5,000
    deep), so the depth is measured before decoding.  A message with few brackets
    (every real one: a document's text is one string) is answered from two counts."""
    if body.count(b"[") + body.count(b"{") <= limit:
        return False
    depth = 0
    for token in _TOKEN.finditer(body):
        bracket = token[0]
        if bracket in (b"[", b"{"):
            depth += 1
            if depth > limit:
                return True
        elif bracket in (b"]", b"}"):
            depth -= 1
    return False


def _top_level_id(body: bytes) -> int | str | None:
    """The ``id`` member of the message's outer object, found without decoding what
    nests (only the first million strings and brackets are looked at)."""
    depth = 0
    for count, token in enumerate(_TOKEN.finditer(body)):
        if count > _ID_SEARCH_TOKENS:
            return None
        text = token[0]
        if text in (b"[", b"{"):
            depth += 1
        elif text in (b"]", b"}"):
            depth -= 1
        elif depth == 1 and text == b'"id"':
            value = _MEMBER_VALUE.match(body, token.end())
            if value is not None:
                found = json.loads(value[1])
                return found if isinstance(found, (int, str)) else None
    return None


def _refuse_deep(body: bytes, protocol: JsonRPCProtocol, report: Report) -> None:
    what = (f"a message nested more than {MAX_JSON_DEPTH} levels deep (the server reads "
            f"at most {MAX_JSON_DEPTH})")
    ident = _top_level_id(body)
    if ident is None:
        report(f"skipped {what}")
        return
    report(f"answered request {ident!r} with an error: {what}")
    protocol._send_response(ident, error=types.ResponseError(
        code=INVALID_REQUEST, message=f"refused {what}"))


def _looks_like_header(line: bytes) -> bool:
    name, colon, _ = line.partition(b":")
    return bool(colon) and re.fullmatch(rb"[A-Za-z][A-Za-z0-9-]{0,63}", name) is not None


def _shown(data: bytes, limit: int = 40) -> str:
    text = repr(data[:limit])[1:]
    return text + (" …" if len(data) > limit else "")


def handle_body(body: bytes, protocol: JsonRPCProtocol, report: Report) -> None:
    """One message: structured and handled, or answered with an error if it is a
    request that cannot be (never silently dropped)."""
    if nests_deeper_than(body, MAX_JSON_DEPTH):
        _refuse_deep(body, protocol, report)
        return
    try:
        message = json.loads(body, object_hook=protocol.structure_message)
    except Exception as error:
        _refuse(body, error, protocol, report)
        return
    try:
        protocol.handle_message(message)
    except Exception as error:
        log.exception("unable to handle a message")
        report(f"a message could not be handled: {type(error).__name__}: {error}")


def _why(error: BaseException) -> str:
    """What did not fit, in the words of the protocol's types (``$.params.position.line``)."""
    try:
        from cattrs import transform_error

        found = transform_error(error)
    except Exception:
        found = []
    text = "; ".join(found) if found else f"{type(error).__name__}: {error}"
    return text.replace("\n", " ")[:300]


def _refuse(body: bytes, error: Exception, protocol: JsonRPCProtocol, report: Report) -> None:
    try:
        raw: Any = json.loads(body)
    except (ValueError, RecursionError):
        report(f"skipped a message that is not JSON ({_shown(body)})")
        return
    if not isinstance(raw, dict):
        report(f"skipped a message that is not a JSON object ({_shown(body)})")
        return
    method = raw.get("method")
    detail = _why(error.__cause__ or error)
    if "id" in raw and isinstance(raw.get("id"), (int, str)) and isinstance(method, str):
        fm = protocol.fm
        if method in fm.features or method in fm.builtin_features:
            code, text = INVALID_PARAMS, f"invalid params for {method}: {detail}"
        else:
            code, text = METHOD_NOT_FOUND, f"no such method: {method}"
        report(f"answered request {raw['id']!r} ({method}) with an error: {text}")
        protocol._send_response(raw["id"], error=types.ResponseError(code=code, message=text))
        return
    report(f"skipped a message that does not fit the protocol ({method or 'no method'}): "
           f"{detail}")
