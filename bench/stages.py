"""Where ``allfours check`` spends its time: one figure per stage, on one corpus.

    python -m bench.stages [FILE] [--repeats 5]

The stages, in the order ``check`` meets them:

* slice      — decoding and cutting the file into games (``read_games``);
* lex        — the expressions of the contextual lexer (one per parser state),
               timed match by match inside the parse (it cannot run alone: the
               parser's state picks the expression), less the cost of the clock;
* parse      — the rest of the loop over the shipped LALR table
               (``reading.game_parser``): making tokens, shifts and reductions;
* records    — turning the parse into records (plays, statements, deals, tags);
* structure  — the checks that need no rules (``check_structure``);
* referee    — the incremental referee over every event, no table snapshots;
* scoring    — the scorer's share of the referee (turn-up, gift, High, Low,
               Jack, Game, penalties and the race to the target);
* disputes   — claims, totals and the result against the computed score;
* output     — the rest of ``allfours check --quiet -j 1``: rule options, linking
               diagnostics to their causes, the summary line.

Each stage is timed on its own over the same games, ``--repeats`` times; the
figure is the median.  Wall seconds by default; ``--cpu`` times CPU seconds of this
process instead (``time.process_time``), the figure to quote on a machine others
are using.  ``output`` is what is left of the median of the whole
``check`` after the other stages, so the stages add up to ``check``.
"""

from __future__ import annotations

import argparse
import contextlib
import gc
import io
import statistics
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

STAGES = ("slice", "lex", "parse", "records", "structure", "referee", "scoring", "disputes",
          "output")
# What the scorer's share is made of: the names the deal table's phases call them by.
SCORING_FUNCTIONS = ("turnup_points", "gift_points", "play_points", "penalty_points",
                     "count_in_order")


@dataclass(frozen=True)
class Stage:
    name: str
    seconds: float  # median over the runs
    runs: tuple[float, ...]

    def share(self, total: float) -> float:
        return self.seconds / total if total else 0.0


@dataclass(frozen=True)
class StageReport:
    corpus: str
    bytes: int
    games: int
    check_seconds: float  # median of the whole ``allfours check --quiet`` in this process
    stages: tuple[Stage, ...]
    clock: str = "wall"  # or "CPU" (--cpu)


# The clock every stage is read with: wall seconds, or CPU seconds with --cpu.
_now: Callable[[], float] = time.perf_counter


def _clock(work: Callable[[], object]) -> float:
    """Seconds of ``work`` (see ``_now``), with the cycle collector paused as ``check``
    pauses it for each game (so that the stages add up to ``check``)."""
    gc.collect()
    gc.disable()
    try:
        start = _now()
        work()
        return _now() - start
    finally:
        gc.enable()


@contextlib.contextmanager
def _scoring_clock(spent: list[float]) -> Iterator[None]:
    """Time the scorer from inside the referee: its functions, wrapped while measuring."""
    from allfours_notation.referee.deal import base, closing, opening, tricks

    phases = (base, opening, tricks, closing)
    originals = [(module, name, getattr(module, name)) for module in phases
                 for name in SCORING_FUNCTIONS if hasattr(module, name)]

    def timed(function: Callable[..., Any]) -> Callable[..., Any]:
        def wrapper(*args: Any, **kwargs: Any) -> Any:
            start = _now()
            try:
                return function(*args, **kwargs)
            finally:
                spent[0] += _now() - start
        return wrapper

    for module, name, function in originals:
        setattr(module, name, timed(function))
    try:
        yield
    finally:
        for module, name, function in originals:
            setattr(module, name, function)


def _timed(match: Callable[..., Any], spent: list[float]) -> Callable[..., Any]:
    """``match`` (a lexer expression's), with the time taken by each call added to
    ``spent`` (a token, or a run of blanks)."""
    clock = _now

    def timed(text: str, position: int) -> Any:
        start = clock()
        try:
            return match(text, position)
        finally:
            spent[0] += clock() - start
            spent[1] += 1
    return timed


def _calibrate(count: int = 200_000) -> float:
    """Seconds the token clock adds to each token (a lexer that does nothing)."""
    spent = [0.0, 0.0]
    nothing = _timed(lambda text, position: None, spent)
    for _ in range(count):
        nothing("", 0)
    return spent[0] / count


_CLOCK_COST = 0.0


@contextlib.contextmanager
def _lexer_clock(table: Any, spent: list[float]) -> Iterator[None]:
    """Time the lexer while it feeds the parser: each parser state's expression,
    match by match (the loop reads them from the table's list each token, so a
    parse run meanwhile uses the timed ones)."""
    own = [table.match_of(state) for state in range(len(table.matches))]
    table.matches[:] = [_timed(match, spent) for match in own]
    try:
        yield
    finally:
        table.matches[:] = own


def measure(path: Path, repeats: int = 5, label: str | None = None) -> StageReport:
    """Every stage of ``check`` on the file at ``path``, each the median of ``repeats``."""
    from allfours_notation.checking.parsing import parse_game_slice
    from allfours_notation.cli import main as cli
    from allfours_notation.reading.game_parser import game_parser, table
    from allfours_notation.reading.parser import read_games
    from allfours_notation.referee import find_disputes, resolve_options
    from allfours_notation.referee.replay import replay_plain
    from allfours_notation.referee.structure import check_structure

    global _CLOCK_COST
    _CLOCK_COST = statistics.median(_calibrate() for _ in range(3))
    data = path.read_bytes()
    reader = read_games(data, filename=path.name)
    bodies = [reader.text[piece.start:piece.end] for piece in reader.slices]
    games = [parse_game_slice(reader.text, piece, index=index, filename=path.name)
             for index, piece in enumerate(reader.slices, start=1)]
    readable = [game for game in games if not game.broken]
    options = [resolve_options(game)[0] for game in readable]
    parse_text, collector = game_parser()  # the parse ``check`` runs for each game

    lexed = [0.0, 0.0]  # seconds inside the lexer, tokens

    def lex() -> None:
        with _lexer_clock(table(), lexed):
            parse_all()

    def parse_all(parse_text: Callable[[str], Any] = parse_text) -> None:
        for body in bodies:
            collector.comments = []
            collector.opened = None
            with contextlib.suppress(Exception):  # a broken game: its error is timed too
                parse_text(body)

    def build() -> None:
        for index, piece in enumerate(reader.slices, start=1):
            parse_game_slice(reader.text, piece, index=index, filename=path.name)

    def structure() -> None:
        for game in readable:
            check_structure(game, filename=path.name)

    scoring = [0.0]

    def referee() -> None:
        with _scoring_clock(scoring):
            for game, chosen in zip(readable, options, strict=True):
                replay_plain(game, chosen, record_states=False)

    replays = [replay_plain(game, chosen, record_states=False)
               for game, chosen in zip(readable, options, strict=True)]

    def disputes() -> None:
        for result in replays:
            find_disputes(result)

    def check() -> None:
        with contextlib.redirect_stdout(io.StringIO()):
            cli(["check", "--quiet", "-j", "1", str(path)])

    runs: dict[str, list[float]] = {name: [] for name in (*STAGES, "check")}
    for _ in range(repeats):
        sliced = _clock(lambda: read_games(data, filename=path.name))
        lexed[0] = lexed[1] = 0.0
        _clock(lex)
        lexing = max(0.0, lexed[0] - lexed[1] * _CLOCK_COST)
        parsed = _clock(parse_all)
        built = _clock(build)
        checked_structure = _clock(structure)
        scoring[0] = 0.0
        refereed = _clock(referee)
        scored = scoring[0]
        disputed = _clock(disputes)
        whole = _clock(check)
        runs["slice"].append(sliced)
        runs["lex"].append(lexing)
        runs["parse"].append(max(0.0, parsed - lexing))
        runs["records"].append(max(0.0, built - parsed - checked_structure))
        runs["structure"].append(checked_structure)
        runs["referee"].append(max(0.0, refereed - scored))
        runs["scoring"].append(scored)
        runs["disputes"].append(disputed)
        runs["check"].append(whole)
    medians = {name: statistics.median(values) for name, values in runs.items() if values}
    output_runs = tuple(max(0.0, whole - sum(medians[s] for s in STAGES[:-1]))
                        for whole in runs["check"])
    stages = [Stage(name, medians[name], tuple(runs[name])) for name in STAGES[:-1]]
    stages.append(Stage("output", statistics.median(output_runs), output_runs))
    return StageReport(label or path.name, len(data), len(games), medians["check"],
                       tuple(stages), "CPU" if _now is time.process_time else "wall")


def markdown(report: StageReport) -> list[str]:
    total = report.check_seconds
    lines = [f"Where `allfours check -j 1` spends its time on {report.corpus} "
             f"({report.bytes / 1e6:.2f} MB, {report.games:,} games; whole check "
             f"{total:.3f} s = {report.bytes / 1e6 / total:.2f} MB/s; medians"
             f"{'' if report.clock == 'wall' else ' of CPU seconds'}):", "",
             f"| stage | {'' if report.clock == 'wall' else 'CPU '}seconds | share of check "
             "| MB/s alone |", "|---|---:|---:|---:|"]
    for stage in report.stages:
        alone = f"{report.bytes / 1e6 / stage.seconds:.1f}" if stage.seconds else "—"
        lines.append(f"| {stage.name} | {stage.seconds:.3f} | {stage.share(total):.1%} | "
                     f"{alone} |")
    return lines


def as_json(report: StageReport) -> dict[str, object]:
    return {
        "corpus": report.corpus,
        "bytes": report.bytes,
        "games": report.games,
        "check_median_s": report.check_seconds,
        "clock": report.clock,
        "stages": [{"name": s.name, "median_s": s.seconds, "runs_s": list(s.runs),
                    "share": s.share(report.check_seconds)} for s in report.stages],
    }


def main() -> None:
    parser = argparse.ArgumentParser(prog="python -m bench.stages",
                                     description="Time each stage of 'allfours check'.")
    parser.add_argument("file", type=Path, nargs="?", default=None,
                        help="an AFN file (default: the benchmark's 10k-deal corpus)")
    parser.add_argument("--repeats", type=int, default=5, help="timed runs per stage")
    parser.add_argument("--cpu", action="store_true",
                        help="time CPU seconds of this process rather than wall seconds "
                        "(the figure to quote while other work runs on the machine)")
    args = parser.parse_args()
    if args.cpu:
        global _now
        _now = time.process_time
    path = args.file
    if path is None:
        from .corpus import DEFAULT_SEED, OUT_DIR, ensure_corpus

        path = ensure_corpus("10k", 10_000, DEFAULT_SEED, OUT_DIR).path
    print("\n".join(markdown(measure(path, max(1, args.repeats)))))


if __name__ == "__main__":
    main()
