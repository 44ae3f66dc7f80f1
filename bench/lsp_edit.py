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
    python -m bench.lsp_edit --deals 3500 --typing --repeats 5   # 1 MB, typed key by key

``--typing`` is issue 27's measure: a scripted client types into a real server,
character by character, at the top, middle and bottom of a 1 MB document with
findings (a comment whose '{' swallows text until its '}', an 'end' that splits
a game and is deleted again, a header's value retyped), every fifth keystroke
sent as a full sync; after each it asks for a hover and a completion at the
cursor.  Reported: the first analysis (didOpen to its diagnostics), and the
median and 95th percentile of keystroke-to-diagnostics, hover and completion, in
wall time and (for diagnostics, from /proc, in clock ticks) the server's CPU time.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import statistics
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path
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


# --- typing, character by character, into a real server (issue 27) ---------------------------

_ANSWER_TIMEOUT = 120.0


def with_findings(text: str, every: int = 10) -> str:
    """``text`` with every ``every``-th game's first total off by one (a disputed total
    and what follows from it): a document with something to publish."""
    games = text.split("\nend\n")
    for at in range(0, len(games), every):
        games[at] = re.sub(r"total N (\d+)", lambda m: f"total N {int(m.group(1)) + 1}",
                           games[at], count=1)
    return "\nend\n".join(games)


@dataclass(frozen=True)
class Keystroke:
    """One character typed (``typed``, or a deletion of ``deleted`` characters) at
    offset ``at`` of the text before it; ``what`` names the scenario."""

    what: str
    at: int
    typed: str = ""
    deleted: int = 0


def scenarios(text: str) -> list[Keystroke]:
    """Keystrokes at the top, middle and bottom of ``text``: a comment typed in a
    deal one character at a time (its '{' swallows text up to the next '}' until its
    own '}' arrives), an 'end' typed between two deals (splitting a game) and deleted
    again (merging it back), and a header's value retyped."""
    keys: list[Keystroke] = []

    def typing(what: str, at: int, words: str) -> None:
        keys.extend(Keystroke(what, at + k, typed=char) for k, char in enumerate(words))

    def deleting(what: str, at: int, count: int) -> None:
        keys.extend(Keystroke(what, at + count - k - 1, deleted=1) for k in range(count))

    for where, fraction in (("top", 0.0), ("middle", 0.5), ("bottom", 0.97)):
        play = text.index("\n  1. ", int(len(text) * fraction)) + 1
        typing(f"comment/{where}", play, "{ checked } ")
        shift = len("{ checked } ")
        deal = text.index("\ndeal 2 ", int(len(text) * fraction)) + 1 + shift
        typing(f"split/{where}", deal, "end\n")
        deleting(f"merge/{where}", deal, len("end\n"))
        rules = text.index('[Rules "', int(len(text) * fraction)) + len('[Rules "') + shift
        value = text[rules : text.index('"', rules)]
        deleting(f"header/{where}", rules, len(value))
        typing(f"header/{where}", rules, value)
        text = text[:play] + "{ checked } " + text[play:]
    return keys


class _Client:
    """A scripted language client on a real ``allfours lsp`` process (no debounce)."""

    def __init__(self) -> None:
        self.server = subprocess.Popen(
            [sys.executable, "-m", "allfours_notation", "lsp", "--debounce", "0"],
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
        assert self.server.stdin is not None and self.server.stdout is not None
        self.input, self.output = self.server.stdin, self.server.stdout
        self.uri = "file:///bench/typing.afn"
        self.next_id = 1
        self.published: dict[int, list[dict[str, Any]]] = {}

    def request(self, method: str, params: dict[str, Any]) -> Any:
        self.next_id += 1
        asked = self.next_id
        _send(self.input, {"jsonrpc": "2.0", "id": asked, "method": method, "params": params})
        while True:
            got = self._receive()
            if got.get("id") == asked and "method" not in got:
                return got.get("result")

    def notify(self, method: str, params: dict[str, Any]) -> None:
        _send(self.input, {"jsonrpc": "2.0", "method": method, "params": params})

    def _receive(self) -> dict[str, Any]:
        got = _receive(self.output)
        if got.get("method") == "textDocument/publishDiagnostics":
            params = got["params"]
            if params.get("version") is not None:
                self.published[params["version"]] = params["diagnostics"]
        return got

    def diagnostics_of(self, version: int) -> list[dict[str, Any]]:
        while version not in self.published:
            self._receive()
        return self.published[version]

    def cpu(self) -> float:
        """The server's CPU seconds so far (user + system; Linux's /proc, else 0)."""
        try:
            fields = Path(f"/proc/{self.server.pid}/stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            return 0.0
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")

    def close(self) -> None:
        try:
            self.request("shutdown", {})
            self.notify("exit", {})
            self.server.wait(timeout=30)
        finally:
            if self.server.poll() is None:
                self.server.kill()
                self.server.wait()


def _position(text: str, offset: int) -> dict[str, int]:
    line = text.count("\n", 0, offset)
    return {"line": line, "character": offset - (text.rfind("\n", 0, offset) + 1)}


def typed_into_server(text: str, keys: list[Keystroke], *, full_sync_every: int = 5,
                      verify: bool = False) -> dict[str, Any]:
    """Open ``text``, then send each keystroke and wait for its diagnostics; after
    each, ask for a hover and a completion at the cursor.  Every ``full_sync_every``-th
    keystroke is sent as the whole text (a full sync), the others as incremental
    changes.  Returns each figure's runs, in seconds; with ``verify`` also whether
    every publication equalled what a fresh analysis of the same text publishes."""
    client = _Client()
    runs: dict[str, list[float]] = {"open": [], "open_server_cpu": [], "diagnostics": [],
                                    "diagnostics_server_cpu": [], "hover": [],
                                    "completion": []}
    per_scenario: dict[str, list[float]] = {}
    mismatches = 0
    try:
        client.request("initialize", {"capabilities": {}})
        client.notify("initialized", {})
        start = time.perf_counter()
        client.notify("textDocument/didOpen", {"textDocument": {
            "uri": client.uri, "languageId": "afn", "version": 1, "text": text}})
        cpu = client.cpu()
        client.diagnostics_of(1)
        runs["open"].append(time.perf_counter() - start)
        runs["open_server_cpu"].append(client.cpu() - cpu)
        document = {"uri": client.uri}
        for version, key in enumerate(keys, start=2):
            before = text
            text = text[: key.at] + key.typed + text[key.at + key.deleted :]
            if full_sync_every and version % full_sync_every == 0:
                change: dict[str, Any] = {"text": text}
            else:
                where = {"start": _position(before, key.at),
                         "end": _position(before, key.at + key.deleted)}
                change = {"range": where, "text": key.typed}
            start, cpu = time.perf_counter(), client.cpu()
            client.notify("textDocument/didChange", {
                "textDocument": {**document, "version": version}, "contentChanges": [change]})
            published = client.diagnostics_of(version)
            spent = time.perf_counter() - start
            runs["diagnostics"].append(spent)
            runs["diagnostics_server_cpu"].append(client.cpu() - cpu)
            per_scenario.setdefault(key.what.split("/")[0], []).append(spent)
            cursor = {"textDocument": document,
                      "position": _position(text, key.at + len(key.typed))}
            for method, name in (("textDocument/hover", "hover"),
                                 ("textDocument/completion", "completion")):
                start = time.perf_counter()
                client.request(method, cursor)
                runs[name].append(time.perf_counter() - start)
            if verify and published != _fresh_publication(text, client.uri):
                mismatches += 1
    finally:
        client.close()
    return {"runs": runs, "per_scenario": per_scenario, "mismatches": mismatches,
            "final_text": text}


def _fresh_publication(text: str, uri: str) -> list[dict[str, Any]]:
    """What the server publishes for ``text`` analysed afresh, as JSON."""
    from lsprotocol import converters

    from allfours_notation.lsp import features
    from allfours_notation.lsp.document import Analyzer
    from allfours_notation.lsp.server import MAX_PUBLISHED

    found = features.published(Analyzer().analyse(text), uri)
    if len(found) > MAX_PUBLISHED:
        return []  # pragma: no cover - the bench's documents have fewer
    unstructured: list[dict[str, Any]] = converters.get_converter().unstructure(found)
    again: list[dict[str, Any]] = json.loads(json.dumps(unstructured))
    return again


def _p95(values: list[float]) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(0.95 * (len(ordered) - 1)))]


def typing_report(text: str, rounds: int) -> dict[str, Any]:
    """:func:`typed_into_server`, ``rounds`` times (a new server each), as medians and
    95th percentiles in milliseconds, beside the load average."""
    keys = scenarios(text)
    runs: dict[str, list[float]] = {}
    scenario_runs: dict[str, list[float]] = {}
    load = [os.getloadavg()[0]]
    for _ in range(rounds):
        one = typed_into_server(text, keys)
        for name, values in one["runs"].items():
            runs.setdefault(name, []).extend(values)
        for name, values in one["per_scenario"].items():
            scenario_runs.setdefault(name, []).extend(values)
        load.append(os.getloadavg()[0])

    def summary(values: list[float]) -> dict[str, float]:
        return {"median_ms": round(statistics.median(values) * 1000, 1),
                "p95_ms": round(_p95(values) * 1000, 1), "n": len(values)}

    return {
        "bytes": len(text.encode()),
        "keystrokes_per_round": len(keys),
        "rounds": rounds,
        "load_average_1min": load,
        **{name: summary(values) for name, values in runs.items()},
        "diagnostics_by_scenario": {name: summary(values)
                                    for name, values in scenario_runs.items()},
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.lsp_edit", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--deals", type=int, default=10_000, help="corpus size (default 10000)")
    parser.add_argument("--repeats", type=int, default=7, help="runs per figure (default 7)")
    parser.add_argument("--no-server", action="store_true", help="skip the end-to-end figure")
    parser.add_argument("--typing", action="store_true",
                        help="type character by character into a real server at the top, "
                        "middle and bottom of a document with findings (issue 27's figures)")
    args = parser.parse_args(argv)
    corpus = ensure_corpus(f"{args.deals}", args.deals, SEED)
    text = corpus.path.read_text(encoding="utf-8")
    if args.typing:
        print(json.dumps(typing_report(with_findings(text), args.repeats), indent=2))
        return 0
    cost = measure(text, args.repeats, end_to_end=not args.no_server)
    print(json.dumps(cost.as_dict(), indent=2))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
