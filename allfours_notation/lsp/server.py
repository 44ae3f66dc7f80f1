"""The language server itself: pygls over stdio, one analysis worker.

Every change bumps the buffer's *generation*.  Diagnostics are computed after
the changes pause for ``debounce`` seconds, on a single worker thread (so that
the event loop keeps answering and the per-game cache is never shared between
threads).  The worker asks "is this still the newest text?" between games and
gives up as soon as it is not, and a result that arrives after a newer change
is thrown away: a client typing faster than a game parses costs the last
version only.

Requests (hover, completion, formatting …) analyse the current text first,
which is cheap when only one game changed, so they never answer from a stale
buffer.
"""

from __future__ import annotations

import asyncio
import logging
import sys
from collections.abc import Callable, Generator, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from functools import partial
from pathlib import Path
from typing import Any, BinaryIO, TypeVar
from urllib.parse import unquote

from lsprotocol import types
from pygls.lsp.server import LanguageServer
from pygls.protocol.language_server import LanguageServerProtocol, lsp_method
from pygls.uris import to_fs_path as uri_to_path

from .. import __version__
from ..reading.source import decode
from . import features, tokens
from .completion import completion as completion_at
from .document import Analyzer, DocumentAnalysis, LineIndex, Stale
from .heap import HeapKeeper
from .settings import NO_CHOICE, RuleChoice, rule_choice

DEBOUNCE_SECONDS = 0.15
# A document with more findings than this shows the first ones and a note:
# a client drowning in a hundred thousand squiggles helps nobody.
MAX_PUBLISHED = 2000

_T = TypeVar("_T")
log = logging.getLogger(__name__)


@dataclass(slots=True)
class Buffer:
    """What the server keeps per open document: its text (with a line index kept
    up to date edit by edit), the analyzer and its latest analysis."""

    text: str = ""
    lines: LineIndex | None = None
    analyzer: Analyzer = field(default_factory=Analyzer)
    generation: int = 0
    analysed_text: str | None = None  # the raw text ``analysis`` was made from
    analysis: DocumentAnalysis | None = None
    pending: asyncio.Task[None] | None = None


class AfnProtocol(LanguageServerProtocol):
    """pygls's protocol with a faster way of applying an edit to a big buffer,
    and without its leak of one future per notification.

    pygls rebuilds the whole text line by line in Python for every edit (a
    second per keystroke in a 50 MB file).  Here the edit is spliced into the
    text at offsets found with the buffer's line index, and pygls is handed the
    result as a whole-document change, which it simply stores.

    pygls 2.1 files the future of every handler it runs under the message's id
    (a made-up one for a notification and for each step of its own built-in
    handlers) and takes it out only when it answers a request: every didOpen,
    didChange and didClose left three or four futures behind, with what they
    held, for the whole session (about 5 KB per open and close, issue 41).
    """

    def _execute_handler(self, msg_id: Any, handler: Any, callback: Any,
                         args: tuple[Any, ...] | None = None,
                         kwargs: dict[str, Any] | None = None) -> None:
        super()._execute_handler(msg_id, handler, callback, args, kwargs)
        future = self._request_futures.get(msg_id)
        if future is not None:
            future.add_done_callback(partial(self._forget, msg_id))

    def _forget(self, msg_id: Any, future: Any) -> None:
        """A handler is done: its future leaves the table (unless the id, reused by a
        careless client, already names a newer one)."""
        if self._request_futures.get(msg_id) is future:
            del self._request_futures[msg_id]

    @lsp_method(types.TEXT_DOCUMENT_DID_CHANGE)
    def lsp_text_document__did_change(
        self, params: types.DidChangeTextDocumentParams
    ) -> Generator[Any, Any, Any]:
        server = self._server
        assert isinstance(server, AfnServer)
        text = server.apply_changes(params.text_document.uri, params.content_changes)
        whole = replace_changes(params, text)
        yield from super().lsp_text_document__did_change(whole)


def replace_changes(params: types.DidChangeTextDocumentParams,
                    text: str) -> types.DidChangeTextDocumentParams:
    return types.DidChangeTextDocumentParams(
        text_document=params.text_document,
        content_changes=[types.TextDocumentContentChangeWholeDocument(text=text)],
    )


class AfnServer(LanguageServer):
    """``allfours lsp``: diagnostics, formatting, hover, completion, symbols,
    folding and quick fixes for AFN buffers."""

    def __init__(self, *, debounce: float = DEBOUNCE_SECONDS) -> None:
        super().__init__("allfours", __version__, protocol_cls=AfnProtocol)
        self.debounce = debounce
        self.buffers: dict[str, Buffer] = {}
        self.worker = ThreadPoolExecutor(max_workers=1, thread_name_prefix="afn-analysis")
        self.rules: RuleChoice = NO_CHOICE  # the settings' rules (see .settings)
        self.root: Path | None = None  # the workspace folder, for a relative rulesFile
        self.heap = HeapKeeper()  # the analyses kept out of the cycle collector's walks

    # -- analysis --

    @property
    def encoding(self) -> str:
        """How the client counts columns: ``utf-16`` (the default), ``utf-8`` or ``utf-32``."""
        chosen = self.workspace.position_encoding or types.PositionEncodingKind.Utf16
        return chosen.value if isinstance(chosen, types.PositionEncodingKind) else str(chosen)

    def buffer(self, uri: str) -> Buffer:
        found = self.buffers.get(uri)
        if found is None:
            found = self.buffers[uri] = Buffer(analyzer=Analyzer(self.rules))
        return found

    def configure(self, settings: object) -> None:
        """New settings: the rules they choose apply to every open buffer at once."""
        chosen = rule_choice(settings, self.root)
        for problem in chosen.problems:
            self.window_show_message(types.ShowMessageParams(types.MessageType.Warning,
                                                             problem))
        if chosen == self.rules:
            return
        self.rules = chosen
        for uri, buffer in self.buffers.items():
            buffer.analyzer, buffer.analysis, buffer.analysed_text = Analyzer(chosen), None, None
            self.changed(uri, delay=0)

    def opened(self, uri: str, text: str) -> None:
        buffer = self.buffer(uri)
        buffer.text, buffer.lines = text, LineIndex.of(text, encoding=self.encoding)

    def closed(self, uri: str) -> None:
        """The client closed ``uri``: its buffer goes, and the refresh it was waiting
        for is cancelled and let go.

        Let go, not only cancelled: a cancelled task keeps the exception that ended
        it, whose traceback holds the refresh's frame and so the buffer.  Were the
        buffer still to hold the task, that cycle would keep the document's analysis
        alive (and frozen, see :mod:`.heap`) until the next idle sweep: 11 KB for each
        open and close of a small file (issue 41)."""
        buffer = self.buffers.pop(uri, None)
        if buffer is None:
            return
        buffer.generation += 1
        pending, buffer.pending = buffer.pending, None
        if pending is not None:
            pending.cancel()

    def apply_changes(self, uri: str,
                      changes: Sequence[types.TextDocumentContentChangeEvent]) -> str:
        """Splice ``changes`` into the buffer's text, in order; the new text."""
        buffer = self.buffer(uri)
        if buffer.lines is None:
            buffer.text, _ = self.text_of(uri)
            buffer.lines = LineIndex.of(buffer.text, encoding=self.encoding)
        text, lines = buffer.text, buffer.lines
        for change in changes:
            if isinstance(change, types.TextDocumentContentChangePartial):
                where = change.range
                start = lines.offset(*lines.from_client(where.start.line, where.start.character))
                end = lines.offset(*lines.from_client(where.end.line, where.end.character))
                text = text[:start] + change.text + text[max(start, end):]
                lines = lines.extended(text, start, encoding=self.encoding,
                                       same_from=start + len(change.text))
            else:
                text = change.text
                lines = lines.replaced(text, encoding=self.encoding)
        buffer.text, buffer.lines = text, lines
        return text

    def text_of(self, uri: str) -> tuple[str, int | None]:
        """The buffer's text and version; for a document the client has not opened,
        the file on disk read as ``check`` reads it (bad bytes become U+FFFD), or
        nothing when there is no such file."""
        document = self.workspace.text_documents.get(unquote(uri))
        if document is not None:
            return document.source, document.version
        try:
            data = Path(uri_to_path(uri) or "").read_bytes()
        except (OSError, ValueError):
            return "", None
        return decode(data)[0], None

    def changed(self, uri: str, *, delay: float) -> None:
        """A new text for ``uri``: make diagnostics for it after ``delay`` seconds
        unless another change comes first."""
        buffer = self.buffer(uri)
        buffer.generation += 1
        self.heap.postpone()
        if buffer.pending is not None and not buffer.pending.done():
            buffer.pending.cancel()
        buffer.pending = asyncio.get_running_loop().create_task(
            self.refresh(uri, buffer.generation, delay)
        )

    async def refresh(self, uri: str, generation: int, delay: float) -> None:
        buffer = self.buffer(uri)
        if delay:
            await asyncio.sleep(delay)
        if buffer.generation != generation:
            return
        text, version = self.text_of(uri)
        try:
            analysis = await self.run(
                buffer.analyzer.analyse, text, lambda: buffer.generation != generation,
                encoding=self.encoding,
            )
        except Stale:
            return
        except Exception as error:  # never let one buffer take the server down
            log.exception("analysis failed")
            self.window_log_message(
                types.LogMessageParams(types.MessageType.Error, f"analysis failed: {error!r}")
            )
            return
        if buffer.generation != generation:
            return
        buffer.analysed_text, buffer.analysis = text, analysis
        self.publish(uri, analysis, version)
        self.heap.settle()

    def publish(self, uri: str, analysis: DocumentAnalysis, version: int | None) -> None:
        found = features.published(analysis, uri)
        shown = found[:MAX_PUBLISHED]
        if len(found) > MAX_PUBLISHED:
            shown.append(
                types.Diagnostic(
                    range=types.Range(types.Position(0, 0), types.Position(0, 0)),
                    message=f"{len(found) - MAX_PUBLISHED} more problems are not shown; "
                    "run 'allfours check' for all of them",
                    severity=types.DiagnosticSeverity.Information,
                    source=features.SOURCE,
                )
            )
        self.text_document_publish_diagnostics(
            types.PublishDiagnosticsParams(uri=uri, diagnostics=shown, version=version)
        )

    async def run(self, function: Callable[..., _T], *args: object, **kwargs: object) -> _T:
        """Run ``function`` on the analysis worker."""
        loop = asyncio.get_running_loop()
        return await loop.run_in_executor(self.worker, lambda: function(*args, **kwargs))

    async def current(self, uri: str) -> DocumentAnalysis:
        """The analysis of the text the client has now (made now if need be)."""
        buffer = self.buffer(uri)
        text, _ = self.text_of(uri)
        if buffer.analysis is not None and buffer.analysed_text == text:
            return buffer.analysis
        analysis = await self.run(buffer.analyzer.analyse, text, encoding=self.encoding)
        if self.text_of(uri)[0] == text:
            buffer.analysed_text, buffer.analysis = text, analysis
            self.heap.settle()
        return analysis

    def formatted(self, result: features.Formatted) -> list[types.TextEdit] | None:
        """The edits, or (when the safety rule refuses) none and a message saying why."""
        if result.refusals:
            self.window_show_message(
                types.ShowMessageParams(
                    types.MessageType.Warning,
                    "not formatted: " + "; ".join(result.refusals[:3]),
                )
            )
        return list(result.edits) or None

    async def answer(self, uri: str, question: Callable[[DocumentAnalysis], _T]) -> _T:
        """``question`` asked of the current analysis, on the worker."""
        analysis = await self.current(uri)
        return await self.run(question, analysis)


def build_server(*, debounce: float = DEBOUNCE_SECONDS) -> AfnServer:
    """The server with every feature registered."""
    server = AfnServer(debounce=debounce)

    @server.feature(types.INITIALIZE)
    def initialize(ls: AfnServer, params: types.InitializeParams) -> None:
        folders = params.workspace_folders or []
        root = folders[0].uri if folders else params.root_uri
        if root:
            ls.root = Path(uri_to_path(root) or ".")
        ls.rules = rule_choice(params.initialization_options, ls.root)

    @server.feature(types.INITIALIZED)
    def initialized(ls: AfnServer, params: types.InitializedParams) -> None:
        for problem in ls.rules.problems:  # the client listens only from now on
            ls.window_show_message(types.ShowMessageParams(types.MessageType.Warning, problem))

    @server.feature(types.WORKSPACE_DID_CHANGE_CONFIGURATION)
    async def did_change_configuration(ls: AfnServer,
                                       params: types.DidChangeConfigurationParams) -> None:
        ls.configure(params.settings)

    @server.feature(types.TEXT_DOCUMENT_DID_OPEN)
    async def did_open(ls: AfnServer, params: types.DidOpenTextDocumentParams) -> None:
        ls.opened(params.text_document.uri, params.text_document.text)
        ls.changed(params.text_document.uri, delay=0)

    @server.feature(types.TEXT_DOCUMENT_DID_CHANGE)
    async def did_change(ls: AfnServer, params: types.DidChangeTextDocumentParams) -> None:
        ls.changed(params.text_document.uri, delay=ls.debounce)

    @server.feature(types.TEXT_DOCUMENT_DID_SAVE)
    async def did_save(ls: AfnServer, params: types.DidSaveTextDocumentParams) -> None:
        ls.changed(params.text_document.uri, delay=0)

    @server.feature(types.TEXT_DOCUMENT_DID_CLOSE)
    async def did_close(ls: AfnServer, params: types.DidCloseTextDocumentParams) -> None:
        ls.closed(params.text_document.uri)
        ls.text_document_publish_diagnostics(
            types.PublishDiagnosticsParams(uri=params.text_document.uri, diagnostics=[])
        )

    @server.feature(types.TEXT_DOCUMENT_FORMATTING)
    async def formatting(ls: AfnServer,
                         params: types.DocumentFormattingParams) -> list[types.TextEdit] | None:
        result = await ls.answer(params.text_document.uri, features.format_document)
        return ls.formatted(result)

    @server.feature(types.TEXT_DOCUMENT_RANGE_FORMATTING)
    async def range_formatting(
        ls: AfnServer, params: types.DocumentRangeFormattingParams
    ) -> list[types.TextEdit] | None:
        first, last = params.range.start.line, params.range.end.line
        result = await ls.answer(
            params.text_document.uri, lambda a: features.format_games(a, first, last)
        )
        return ls.formatted(result)

    @server.feature(types.TEXT_DOCUMENT_HOVER)
    async def hover(ls: AfnServer, params: types.HoverParams) -> types.Hover | None:
        return await ls.answer(
            params.text_document.uri,
            lambda a: features.hover(a, *a.lines.from_client(params.position.line,
                                                             params.position.character)),
        )

    @server.feature(
        types.TEXT_DOCUMENT_COMPLETION,
        types.CompletionOptions(trigger_characters=[":", " "]),
    )
    async def completion(ls: AfnServer,
                         params: types.CompletionParams) -> types.CompletionList:
        items = await ls.answer(
            params.text_document.uri,
            lambda a: completion_at(a, *a.lines.from_client(params.position.line,
                                                            params.position.character)),
        )
        return types.CompletionList(is_incomplete=False, items=items)

    @server.feature(types.TEXT_DOCUMENT_SEMANTIC_TOKENS_FULL, tokens.LEGEND)
    async def semantic_tokens(ls: AfnServer,
                              params: types.SemanticTokensParams) -> types.SemanticTokens:
        return await ls.answer(params.text_document.uri, tokens.semantic_tokens)

    @server.feature(types.TEXT_DOCUMENT_SEMANTIC_TOKENS_RANGE, tokens.LEGEND)
    async def semantic_tokens_range(
        ls: AfnServer, params: types.SemanticTokensRangeParams
    ) -> types.SemanticTokens:
        return await ls.answer(params.text_document.uri,
                               lambda a: tokens.semantic_tokens(a, params.range))

    @server.feature(types.TEXT_DOCUMENT_DOCUMENT_SYMBOL)
    async def symbols(ls: AfnServer,
                      params: types.DocumentSymbolParams) -> list[types.DocumentSymbol]:
        return await ls.answer(params.text_document.uri, features.symbols)

    @server.feature(types.TEXT_DOCUMENT_FOLDING_RANGE)
    async def folding(ls: AfnServer,
                      params: types.FoldingRangeParams) -> list[types.FoldingRange]:
        return await ls.answer(params.text_document.uri, features.folding)

    @server.feature(
        types.TEXT_DOCUMENT_CODE_ACTION,
        types.CodeActionOptions(code_action_kinds=[types.CodeActionKind.QuickFix]),
    )
    async def code_action(ls: AfnServer,
                          params: types.CodeActionParams) -> list[types.CodeAction]:
        uri = params.text_document.uri
        first, last = params.range.start.line, params.range.end.line
        return await ls.answer(uri, lambda a: features.code_actions(a, uri, first, last))

    return server


def start_io_framed(server: AfnServer, stdin: BinaryIO | None = None,
                    stdout: BinaryIO | None = None) -> None:
    """pygls's ``start_io``, reading with :func:`.framing.run_framed`: a malformed
    frame is reported (stderr and window/logMessage) and skipped, not fatal."""
    from threading import Event

    from pygls.io_ import StdinAsyncReader, StdoutWriter

    from .framing import run_framed

    def report(message: str) -> None:
        text = f"allfours lsp: {message}"
        sys.stderr.write(text + "\n")
        sys.stderr.flush()
        try:
            server.window_log_message(types.LogMessageParams(type=types.MessageType.Error,
                                                             message=text))
        except Exception:
            log.exception("cannot send window/logMessage")

    server._stop_event = stop = Event()
    reader = StdinAsyncReader(stdin or sys.stdin.buffer, server.thread_pool)
    server.protocol.set_writer(StdoutWriter(stdout or sys.stdout.buffer))
    try:
        asyncio.run(run_framed(stop, reader, server.protocol, report))
    except BrokenPipeError:
        log.error("the connection to the client is lost; shutting down")
    except (KeyboardInterrupt, SystemExit):
        pass
    finally:
        server.shutdown()  # type: ignore[no-untyped-call]


def serve(*, debounce: float = DEBOUNCE_SECONDS) -> None:
    """Run the server on standard input and output until the client says exit."""
    server = build_server(debounce=debounce)
    try:
        start_io_framed(server)
    finally:
        server.worker.shutdown(wait=False, cancel_futures=True)
