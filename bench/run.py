"""The benchmark run: corpora, throughput, peers, latency, memory, targets.

Everything is measured in one run so that ratios (to the floor, to the peers,
to ``python -c pass``) compare numbers taken under the same machine load.
"""

from __future__ import annotations

import contextlib
import io
import json
import os
import platform
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from . import floor, peers, stages, waits
from .corpus import DEFAULT_SEED, OUT_DIR, Corpus, ensure_corpus
from .timing import (
    Timing,
    load_average,
    peak_memory,
    python_command,
    run_process,
    time_process,
    time_repeated,
)

REPO_ROOT = Path(__file__).resolve().parent.parent
MB = 1_000_000


@dataclass(frozen=True)
class Config:
    quick: bool = False
    repeats: int = 5
    # Runs of each command started as a new process (latency, the viewer probe); None:
    # ``repeats``.  The test suite's smoke run starts each once.
    process_repeats: int | None = None
    seed: int = DEFAULT_SEED
    sizes: tuple[tuple[str, int], ...] = (("1k", 1_000), ("10k", 10_000), ("100k", 100_000))
    throughput_sizes: tuple[str, ...] = ("1k", "10k")
    peer_size: str = "10k"
    memory_sizes: tuple[str, ...] = ("1k", "10k", "100k")
    out_dir: Path = OUT_DIR
    # Where people wait (issue 27, bench.waits): start-up, printing, the public door,
    # the editor, the recorder; ``shape_bytes``: the size of the printing shapes.
    waits: bool = True
    shape_bytes: int = 200_000

    @property
    def process_runs(self) -> int:
        return self.repeats if self.process_repeats is None else self.process_repeats

    @staticmethod
    def quick_config() -> Config:
        return Config(quick=True, repeats=3, process_repeats=5, sizes=(("1k", 1_000),),
                      throughput_sizes=("1k",), peer_size="1k", memory_sizes=("1k",),
                      shape_bytes=100_000)


@dataclass(frozen=True)
class Throughput:
    name: str
    corpus: str
    bytes: int
    units: int
    unit: str
    timing: Timing
    note: str = ""

    @property
    def mb_per_s(self) -> float:
        return self.bytes / MB / self.timing.median

    @property
    def units_per_s(self) -> float:
        return self.units / self.timing.median


@dataclass(frozen=True)
class Latency:
    name: str
    timing: Timing
    baseline: float  # median seconds of `python -c pass` in the same run

    @property
    def ratio(self) -> float:
        return self.timing.median / self.baseline


@dataclass(frozen=True)
class Memory:
    name: str
    corpus: str
    bytes: int
    peak_rss_mb: float
    wall: float
    returncode: int


@dataclass(frozen=True)
class Target:
    name: str
    goal: str
    value: str
    met: bool | None  # None: could not be measured in this run


@dataclass
class Report:
    config: Config
    machine: dict[str, object]
    corpora: list[Corpus] = field(default_factory=list)
    throughput: list[Throughput] = field(default_factory=list)
    latency: list[Latency] = field(default_factory=list)
    memory: list[Memory] = field(default_factory=list)
    skipped: list[str] = field(default_factory=list)
    targets: list[Target] = field(default_factory=list)
    seconds: float = 0.0
    baseline: float = 0.0  # median seconds of `python -c pass`
    viewer_indexed_s: float | None = None
    # where ``check -j 1`` spends its time on the peers' corpus (bench.stages)
    stages: stages.StageReport | None = None
    waits: list[waits.Wait] = field(default_factory=list)

    def find(self, name: str, corpus: str) -> Throughput | None:
        for row in self.throughput:
            if row.name == name and row.corpus == corpus:
                return row
        return None


# --- what is measured -------------------------------------------------------------------------

PARSE = "parse"
CHECK = "check -j 1 (parse + replay + score)"
CHECK_J2 = "check -j 2 (two worker processes)"
STREAM = "stream (iter_games)"
HEADERS = "headers-only scan"
FLOOR = "floor: regex tokenizer"
FORMAT = "format round trip (parse, format, re-parse, compare)"
CHESS = "python-chess read_game (PGN)"
CHESS_HEADERS = "python-chess read_headers (PGN)"
ENDPLAY = "endplay pbn.load (PBN)"


def _parse(path: Path) -> int:
    from allfours_notation import parse

    return sum(len(game.deals) for game in parse(path.read_bytes(), filename=path.name).games)


def _stream(path: Path) -> int:
    from allfours_notation import iter_games

    return sum(len(game.deals) for game in iter_games(path))


def _headers(path: Path) -> int:
    from allfours_notation import scan_headers

    return sum(header.deals for header in scan_headers(path.read_bytes().decode("utf-8")))


def _floor(path: Path) -> int:
    return sum(floor.tokenize(path.read_bytes()).values())


def _check(path: Path, jobs: int = 1) -> int:
    """Exactly what ``allfours check --quiet -j JOBS FILE`` does, in this process
    (``-j 1``, one core, is what the per-core target is about)."""
    from allfours_notation.cli import main

    with contextlib.redirect_stdout(io.StringIO()):
        code = main(["check", "--quiet", "-j", str(jobs), str(path)])
    return code


def check_includes_rules() -> bool:
    """Whether ``allfours check`` replays and scores yet (the rules package exists)."""
    import importlib.util

    return importlib.util.find_spec("allfours_notation.referee") is not None


def _format_round_trip() -> Callable[[Path], int] | None:
    """What ``allfours fmt`` does: parse, format, parse the result and compare."""
    import importlib.util

    if importlib.util.find_spec("allfours_notation.writing.formatter") is None:
        return None

    def round_trip(path: Path) -> int:
        from allfours_notation import parse
        from allfours_notation.writing.formatter import format_checked

        result = parse(path.read_bytes(), filename=path.name)
        checked = format_checked(result)
        if not checked.safe:
            raise RuntimeError(f"the formatter refuses {path.name}: {checked.refusals[0]}")
        return sum(len(game.deals) for game in result.games)

    return round_trip


# --- the run --------------------------------------------------------------------------------


def machine_facts() -> dict[str, object]:
    cpu = "unknown"
    with contextlib.suppress(OSError), open("/proc/cpuinfo", encoding="utf-8") as handle:
        for line in handle:
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    return {
        "nproc": os.cpu_count(),
        "cpu": cpu,
        "python": platform.python_version(),
        "implementation": platform.python_implementation(),
        "system": f"{platform.system()} {platform.release()}",
        "load_before": load_average(),
    }


def run(config: Config, log: Callable[[str], None] = lambda _: None) -> Report:
    started = time.perf_counter()
    report = Report(config, machine_facts())
    corpora = {}
    for label, deals in config.sizes:
        log(f"corpus {label}: {deals} deals")
        corpora[label] = ensure_corpus(label, deals, config.seed, config.out_dir)
        report.corpora.append(corpora[label])
    if not check_includes_rules():
        report.skipped.append("check replays and scores nothing yet: the rules package is absent")

    for label in config.throughput_sizes:
        corpus = corpora[label]
        _measure_afn(report, corpus, log)
    _measure_peers(report, corpora[config.peer_size], log)
    _measure_stages(report, corpora[config.peer_size], log)
    _measure_latency(report, corpora[config.sizes[0][0]], log)
    if config.waits:
        _measure_waits(report, corpora[config.sizes[0][0]], corpora[config.peer_size], log)
    for label in config.memory_sizes:
        _measure_memory(report, corpora[label], log)
    _measure_viewer(report, corpora[config.memory_sizes[-1]], log)
    report.machine["load_after"] = load_average()
    report.targets = evaluate_targets(report, corpora[config.peer_size].label) + report.targets
    report.seconds = time.perf_counter() - started
    return report


def _measure(report: Report, name: str, corpus_label: str, size: int, units: int, unit: str,
             work: Callable[[], int], log: Callable[[str], None], *, note: str = "",
             verify: bool = True, cpu: bool = True) -> None:
    """Time ``work`` (which returns how many units it read: checked against ``units``);
    ``cpu=False`` for work done in other processes, whose CPU time this one cannot see."""
    log(f"{name} on {corpus_label}")
    timing, result = time_repeated(work, report.config.repeats)
    if not cpu:
        timing = Timing(timing.runs)
    if verify and result != units:
        raise RuntimeError(f"{name}: read {result} {unit}, expected {units}")
    report.throughput.append(Throughput(name, corpus_label, size, units, unit, timing, note))


def _measure_afn(report: Report, corpus: Corpus, log: Callable[[str], None]) -> None:
    path, size, deals, label = corpus.path, corpus.bytes, corpus.deals, corpus.label
    _measure(report, FLOOR, label, size, deals, "deals", lambda: _floor(path), log, verify=False)
    _measure(report, HEADERS, label, size, deals, "deals", lambda: _headers(path), log)
    _measure(report, PARSE, label, size, deals, "deals", lambda: _parse(path), log)
    if label == report.config.throughput_sizes[0]:  # once is enough: it reads what parse reads
        _measure(report, STREAM, label, size, deals, "deals", lambda: _stream(path), log)
    note = "" if check_includes_rules() else "parse only: no replay yet"
    _measure(report, CHECK, label, size, deals, "deals", lambda: _check(path), log, note=note,
             verify=False)
    if label == report.config.peer_size:  # forked workers: wall time only (they use 2 cores)
        _measure(report, CHECK_J2, label, size, deals, "deals", lambda: _check(path, 2), log,
                 note=note, verify=False, cpu=False)
    round_trip = _format_round_trip()
    if round_trip is None:
        if not any(s.startswith(FORMAT) for s in report.skipped):
            report.skipped.append(f"{FORMAT}: no formatter in this tree yet")
    else:
        _measure(report, FORMAT, label, size, deals, "deals", lambda: round_trip(path), log)


def _measure_peers(report: Report, corpus: Corpus, log: Callable[[str], None]) -> None:
    out = report.config.out_dir
    seed = report.config.seed
    if peers.available("chess"):
        pgn = out / f"peer-{corpus.label}-s{seed}-chess{peers.chess_version()}.pgn"
        games = _cached_peer(pgn, lambda: peers.write_pgn(pgn, corpus.bytes, seed))
        size = pgn.stat().st_size
        note = f"python-chess {peers.chess_version()}"
        _measure(report, CHESS, corpus.label, size, games, "games",
                 lambda: peers.read_pgn_games(pgn), log, note=note)
        _measure(report, CHESS_HEADERS, corpus.label, size, games, "games",
                 lambda: peers.read_pgn_headers(pgn), log, note=note)
    else:
        report.skipped.append("python-chess is not installed (pip install .[bench])")
    if peers.available("endplay"):
        pbn = out / f"peer-{corpus.label}-s{seed}-endplay{peers.endplay_version()}.pbn"
        boards = _cached_peer(pbn, lambda: peers.write_pbn(pbn, corpus.bytes, seed))
        size = pbn.stat().st_size
        _measure(report, ENDPLAY, corpus.label, size, boards, "boards",
                 lambda: peers.read_pbn_boards(pbn), log, note=f"endplay {peers.endplay_version()}")
    else:
        report.skipped.append("endplay is not installed (pip install .[bench])")


def _measure_stages(report: Report, corpus: Corpus, log: Callable[[str], None]) -> None:
    """Each stage of ``check -j 1`` on the corpus the peers are compared on."""
    log(f"stages of check on {corpus.label}")
    report.stages = stages.measure(corpus.path, report.config.repeats, label=corpus.label)


def ratios(report: Report, corpus: str) -> dict[str, float]:
    """``check -j 1`` against the floor and the peers, all measured in this run."""
    check = report.find(CHECK, corpus)
    if check is None:
        return {}
    found = {}
    for key, name in (("floor", FLOOR), ("endplay", ENDPLAY), ("python_chess", CHESS)):
        other = report.find(name, corpus)
        if other is not None:
            found[key] = check.mb_per_s / other.mb_per_s
    return found


def _cached_peer(path: Path, write: Callable[[], int]) -> int:
    count_file = path.with_suffix(path.suffix + ".count")
    if path.exists() and count_file.exists():
        return int(count_file.read_text(encoding="utf-8"))
    count = write()
    count_file.write_text(str(count), encoding="utf-8")
    return count


def _measure_latency(report: Report, corpus: Corpus, log: Callable[[str], None]) -> None:
    """Cold start on a one-game file: the first game of ``corpus``.  The package is
    byte-compiled first, as ``pip install`` compiles it: a checkout run with
    ``PYTHONDONTWRITEBYTECODE`` would otherwise compile every module at every start."""
    import compileall

    compileall.compile_dir(REPO_ROOT / "allfours_notation", quiet=2)
    repeats = report.config.process_runs
    text = corpus.path.read_text(encoding="utf-8")
    one = report.config.out_dir / "one-game.afn"
    one.write_text(text[: text.index("\nend\n") + len("\nend\n")], encoding="utf-8")
    log("latency: python -c pass")
    run_process(python_command("-c", "pass"))  # warm the file cache, not the interpreter
    baseline = time_process(python_command("-c", "pass"), repeats)
    report.latency.append(Latency("python -c pass", baseline, baseline.median))
    report.baseline = baseline.median
    for command in ("check", "score"):
        argv = python_command("-m", "allfours_notation", command, str(one))
        probe = run_process(argv, cwd=REPO_ROOT)
        if probe.returncode == 2 and command != "check":
            report.skipped.append(f"allfours {command}: no such subcommand in this tree yet")
            continue
        log(f"latency: allfours {command}")
        timing = time_process(argv, repeats, cwd=REPO_ROOT)
        report.latency.append(Latency(f"allfours {command} (one game, cold)", timing,
                                      baseline.median))


# Deals in the language server's document: about 1 MB, the size its targets are set for.
EDITOR_DEALS = 3_500


def _measure_waits(report: Report, small: Corpus, large: Corpus,
                   log: Callable[[str], None]) -> None:
    """Where people wait (:mod:`bench.waits`), each figure beside its reference; medians of
    at least five runs (``process_runs``)."""
    config = report.config
    repeats = max(5, config.process_runs)
    log("waits: cold start beside python -c pass")
    report.waits += waits.cold_start(config.out_dir / "one-game.afn", repeats)
    log("waits: printing beside --quiet")
    report.waits += waits.printing(config.out_dir, config.shape_bytes, repeats)
    log("waits: the public door beside the command")
    report.waits += waits.public_door(large.path, large.bytes, max(5, config.repeats), _check)
    check = report.find(CHECK, large.label)
    fmt = report.find(FORMAT, large.label)
    if check is not None and fmt is not None:
        report.waits.append(waits.fmt_beside_check(fmt.mb_per_s, check.mb_per_s,
                                                   config.repeats))
    # The editor's targets are set for a 1 MB document: 3,500 deals of the same generator.
    # A quick run keeps to its own small corpus.
    editor_corpus = (large if config.quick else
                     ensure_corpus("3.5k", EDITOR_DEALS, config.seed, config.out_dir))
    log(f"waits: the language server on {editor_corpus.label} deals "
        f"({editor_corpus.bytes / 1e6:.1f} MB)")
    try:
        report.waits += waits.editor(editor_corpus.path.read_text(encoding="utf-8"),
                                     editor_corpus.label, repeats)
    except (OSError, RuntimeError, ValueError) as error:
        report.skipped.append(f"language server edit latency: {error}")
    log("waits: the recorder's resume of a 500-deal file")
    report.waits += waits.recorder(repeats)
    for wait in report.waits:
        report.targets.append(Target(wait.name, wait.goal, _measured(wait), wait.met))


def _measured(wait: waits.Wait) -> str:
    ratio = f" ({wait.ratio:.2f}× {wait.reference_name})" if wait.ratio is not None else ""
    return waits.markdown([wait])[-1].split(" | ")[1] + ratio


def _measure_memory(report: Report, corpus: Corpus, log: Callable[[str], None]) -> None:
    log(f"memory: allfours check on {corpus.label}")
    argv = python_command("-m", "allfours_notation", "check", "--quiet", str(corpus.path))
    result = peak_memory(argv, cwd=REPO_ROOT)
    report.memory.append(Memory("allfours check --quiet", corpus.label, corpus.bytes,
                                result.peak_rss_mb, result.wall, result.returncode))


def _measure_viewer(report: Report, corpus: Corpus, log: Callable[[str], None]) -> None:
    import importlib.util

    if importlib.util.find_spec("allfours_notation.viewer.app") is None:
        report.skipped.append("viewer: no viewer in this tree yet")
        return
    log(f"viewer: open {corpus.label}, time to the first deal shown")
    first_app: list[float] = []
    first_process: list[float] = []
    peak = 0.0
    for _ in range(report.config.process_runs):
        argv = python_command("-m", "bench.viewer_probe", str(corpus.path), repr(time.time()))
        result = run_process(argv, cwd=REPO_ROOT, capture=True)
        if not result.stdout.strip():  # the probe died: say how, rather than fail the run
            last = (result.stderr.strip().splitlines() or ["no output"])[-1]
            report.skipped.append(f"viewer: the probe failed (exit {result.returncode}): {last}")
            return
        facts = json.loads(result.stdout.strip().splitlines()[-1])
        if facts["first_deal_from_app_start_s"] is None:
            report.skipped.append("viewer: no deal was shown")
            return
        first_app.append(facts["first_deal_from_app_start_s"])
        first_process.append(facts["first_deal_from_process_start_s"])
        peak = max(peak, facts["peak_rss_mb"])
        report.viewer_indexed_s = facts["indexed_from_app_start_s"]
    name = f"viewer: first deal shown, {corpus.label} file"
    report.latency.append(Latency(f"{name} (from app start)", Timing(tuple(first_app)),
                                  report.baseline))
    report.latency.append(Latency(f"{name} (from process start)", Timing(tuple(first_process)),
                                  report.baseline))
    report.memory.append(Memory("viewer, file open and indexed", corpus.label, corpus.bytes,
                                peak, max(first_process), 0))


# --- targets ----------------------------------------------------------------------------------


def evaluate_targets(report: Report, corpus: str) -> list[Target]:
    targets: list[Target] = []
    check = report.find(CHECK, corpus)
    chess = report.find(CHESS, corpus)
    endplay = report.find(ENDPLAY, corpus)
    headers = report.find(HEADERS, corpus)
    if check is not None:
        targets.append(Target("parse + replay + score", "≥ 1.5 MB/s",
                              f"{check.mb_per_s:.2f} MB/s", check.mb_per_s >= 1.5))
        if endplay is not None:
            ratio = check.mb_per_s / endplay.mb_per_s
            targets.append(Target("… vs endplay pbn.load", "≥ 1×", f"{ratio:.2f}×", ratio >= 1))
        if chess is not None:
            ratio = check.mb_per_s / chess.mb_per_s
            targets.append(Target("… vs python-chess read_game", "≥ 3×", f"{ratio:.2f}×",
                                  ratio >= 3))
    if headers is not None:
        targets.append(Target("headers-only scan", "≥ 50 MB/s", f"{headers.mb_per_s:.1f} MB/s",
                              headers.mb_per_s >= 50))
    for latency in report.latency:
        if latency.name.startswith("allfours check"):
            targets.append(Target("allfours check, one game, cold", "≤ 0.35 s",
                                  f"{latency.timing.median:.3f} s", latency.timing.median <= 0.35))
    checks = [m for m in report.memory if m.name.startswith("allfours check")]
    largest = max(checks, key=lambda m: m.bytes, default=None)
    if largest is not None:
        targets.append(Target(f"streaming check peak RSS ({largest.corpus})", "≤ 150 MB",
                              f"{largest.peak_rss_mb:.0f} MB", largest.peak_rss_mb <= 150))
    return targets
