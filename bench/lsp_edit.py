"""A keystroke in a big file: what the language server pays for it.

The issue's promise: in a 10,000-deal document, an edit in the last game costs
the time of one game, not of the file.  Each edit types one comment line in
the last game.  Three figures, each the median of several runs taken one after
the other (so under the same machine load):

* ``one_game``: parsing and checking the last game alone (the floor);
* ``incremental``: the server's analysis of the whole buffer after the edit
  (slice the text, reuse every unchanged game, parse and check the edited one);
* ``end_to_end``: a real ``allfours lsp`` process with no debounce, from sending
  ``didChange`` (an incremental change, as editors send) to receiving its
  ``publishDiagnostics``;

and, for scale, ``whole_file``: analysing the buffer with nothing cached.

    python -m bench.lsp_edit            # 10k deals (the bench corpus), 7 runs
    python -m bench.lsp_edit --deals 1000 --repeats 3
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import time
from dataclasses import dataclass
from typing import IO, Any

from .corpus import ensure_corpus
from .timing import Timing, time_repeated

SEED = 20261120


@dataclass(frozen=True)
class EditCost:
    deals: int
    games: int
    bytes: int
    one_game: Timing
    incremental: Timing
    whole_file: Timing
    end_to_end: Timing | None
    parsed_per_edit: int

    def as_dict(self) -> dict[str, object]:
        def ms(timing: Timing | None) -> float | None:
            return None if timing is None else round(timing.median * 1000, 2)

        return {
            "deals": self.deals,
            "games": self.games,
            "bytes": self.bytes,
            "repeats": len(self.one_game.runs),
            "median_ms": {
                "one_game": ms(self.one_game),
                "incremental": ms(self.incremental),
                "end_to_end": ms(self.end_to_end),
                "whole_file": ms(self.whole_file),
            },
            "games_parsed_per_edit": self.parsed_per_edit,
        }


def typed(text: str, count: int) -> list[tuple[int, str, str]]:
    """``count`` keystroke-sized edits in the last game: each types a comment line
    ``{k}`` just before its ``end``.  Each entry: the line typed on, what was
    typed, and the text after it."""
    line = text.count("\n", 0, text.rstrip().rfind("end"))
    at = text.rstrip().rfind("end")
    out = []
    for k in range(count):
        words = f"{{{k}}}\n"
        text = text[:at] + words + text[at:]
        out.append((line, words, text))
        at += len(words)
        line += 1
    return out


def measure(text: str, repeats: int, *, end_to_end: bool = True) -> EditCost:
    from allfours_notation.lsp.document import Analyzer, analyse_game
    from allfours_notation.reading.slicer import slice_games

    edits = typed(text, repeats)
    pieces = slice_games(edits[0][2]).games
    last = pieces[-1]
    body = edits[0][2][last.start : last.end]
    one_game, _ = time_repeated(lambda: analyse_game(body, last, len(pieces)), repeats)

    analyzer = Analyzer()
    analyzer.analyse(text)
    versions = iter(edits)
    parsed: list[int] = []

    def edit() -> None:
        parsed.append(analyzer.analyse(next(versions)[2]).parsed)

    incremental, _ = time_repeated(edit, repeats)
    whole, _ = time_repeated(lambda: Analyzer().analyse(text), max(1, repeats // 3))
    served = _end_to_end(text, edits) if end_to_end else None
    return EditCost(
        deals=sum(p.deals for p in pieces), games=len(pieces), bytes=len(text.encode()),
        one_game=one_game, incremental=incremental, whole_file=whole, end_to_end=served,
        parsed_per_edit=max(parsed),
    )


# --- a real server ----------------------------------------------------------------------------


def _send(stream: IO[bytes], data: dict[str, Any]) -> None:
    body = json.dumps(data).encode()
    stream.write(b"Content-Length: %d\r\n\r\n" % len(body) + body)
    stream.flush()


def _receive(stream: IO[bytes]) -> dict[str, Any]:
    length = 0
    while (line := stream.readline()) not in (b"\r\n", b""):
        name, _, value = line.decode("ascii").partition(":")
        if name.lower() == "content-length":
            length = int(value)
    if not length:
        raise EOFError("the server closed its output")
    answer: dict[str, Any] = json.loads(stream.read(length))
    return answer


def _diagnostics_of(stream: IO[bytes], version: int) -> None:
    while True:
        got = _receive(stream)
        params = got.get("params") or {}
        if got.get("method") == "textDocument/publishDiagnostics" and \
                params.get("version") == version:
            return


def _end_to_end(text: str, edits: list[tuple[int, str, str]]) -> Timing:
    """Open ``text`` in a real server, then type each edit (an incremental change,
    as editors send them) and wait for its diagnostics."""
    server = subprocess.Popen(
        [sys.executable, "-m", "allfours_notation", "lsp", "--debounce", "0"],
        stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
    )
    assert server.stdin is not None and server.stdout is not None
    uri = "file:///bench/lsp-edit.afn"
    try:
        _send(server.stdin, {"jsonrpc": "2.0", "id": 1, "method": "initialize",
                             "params": {"capabilities": {}}})
        _receive(server.stdout)
        _send(server.stdin, {"jsonrpc": "2.0", "method": "initialized", "params": {}})
        _send(server.stdin, {"jsonrpc": "2.0", "method": "textDocument/didOpen", "params": {
            "textDocument": {"uri": uri, "languageId": "afn", "version": 1, "text": text}}})
        _diagnostics_of(server.stdout, 1)
        runs = []
        for version, (line, words, _) in enumerate(edits, start=2):
            at = {"line": line, "character": 0}
            change = {"range": {"start": at, "end": at}, "text": words}
            start = time.perf_counter()
            _send(server.stdin, {"jsonrpc": "2.0", "method": "textDocument/didChange",
                                 "params": {"textDocument": {"uri": uri, "version": version},
                                            "contentChanges": [change]}})
            _diagnostics_of(server.stdout, version)
            runs.append(time.perf_counter() - start)
        _send(server.stdin, {"jsonrpc": "2.0", "id": 2, "method": "shutdown"})
        _send(server.stdin, {"jsonrpc": "2.0", "method": "exit"})
        server.wait(timeout=30)
        return Timing(tuple(runs))
    finally:
        if server.poll() is None:
            server.kill()
            server.wait()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.lsp_edit", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--deals", type=int, default=10_000, help="corpus size (default 10000)")
    parser.add_argument("--repeats", type=int, default=7, help="runs per figure (default 7)")
    parser.add_argument("--no-server", action="store_true", help="skip the end-to-end figure")
    args = parser.parse_args(argv)
    corpus = ensure_corpus(f"{args.deals}", args.deals, SEED)
    text = corpus.path.read_text(encoding="utf-8")
    cost = measure(text, args.repeats, end_to_end=not args.no_server)
    print(json.dumps(cost.as_dict(), indent=2))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
