"""Where people wait (issue 27), each figure beside its reference measured in the same run.

* **cold start**: ``allfours --version`` and ``allfours check ONE_GAME``, each a fresh
  process, against ``python -c pass``: CPU seconds (user + system, from the kernel's
  account of the child), the three interleaved round by round so that all share the
  same load;
* **printing**: plain ``check`` against ``check --quiet`` on the shapes of
  ``fuzz/shapes.py`` whose games are tiny and each has a warning (tiny games, end
  words), CPU seconds in this process (start-up apart), output to the null device,
  interleaved;
* **the public door**: :func:`allfours_notation.checking.check_file`, the function
  ``allfours check`` prints from, in this process, against the command itself
  (``check --quiet -j 1``, which counts through :func:`~allfours_notation.checking.
  tally_file`; both check every game through :func:`~allfours_notation.checking.
  check_games`);
* **the editor**: :mod:`bench.lsp_edit` on the largest corpus measured (one comment
  line typed in its last game): the server's analysis after the edit and a real
  ``allfours lsp`` from ``didChange`` to ``publishDiagnostics``, against checking that
  one game alone;
* **the recorder**: :func:`bench.recorder.resume_time`, a 500-deal file whose last game
  is unfinished opened and resumed to its first prompt (the session; and the app on
  screen under Textual's Pilot).

``fmt`` beside ``check`` is read off the throughput table (the same run).
"""

from __future__ import annotations

import os
import statistics
import subprocess
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import partial
from pathlib import Path

from .timing import Timing, python_command, time_repeated

REPO_ROOT = Path(__file__).resolve().parent.parent


@dataclass(frozen=True)
class Wait:
    """One figure and its reference, both medians of runs taken in this run."""

    name: str
    unit: str  # "CPU s", "s", "ms", "MB/s"
    value: float
    reference_name: str
    reference: float | None
    goal: str
    met: bool | None
    runs: int
    # When the figure and its reference were taken in pairs (one right after the other),
    # the median of the pairs' ratios: steadier than the ratio of the two medians, since
    # each pair shares the machine's speed of its moment.
    paired_ratio: float | None = None

    @property
    def ratio(self) -> float | None:
        if self.paired_ratio is not None:
            return self.paired_ratio
        if self.reference is None or self.reference == 0:
            return None
        return self.value / self.reference


def child_cpu(argv: Sequence[str], *, cwd: Path = REPO_ROOT) -> float:
    """User + system CPU seconds of one run of ``argv`` (its output thrown away)."""
    env = dict(os.environ)
    env.pop("FORCE_COLOR", None)  # piped output, as a script or a hook sees it
    process = subprocess.Popen(list(argv), cwd=cwd, env=env, stdin=subprocess.DEVNULL,
                               stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    _, _, usage = os.wait4(process.pid, 0)
    return usage.ru_utime + usage.ru_stime


def interleaved(commands: Sequence[Sequence[str]], repeats: int) -> list[float]:
    """The median CPU seconds of each command, run one after the other, round by round."""
    for argv in commands:  # once each first: the file cache, the parser's table
        child_cpu(argv)
    runs: list[list[float]] = [[] for _ in commands]
    for _ in range(repeats):
        for index, argv in enumerate(commands):
            runs[index].append(child_cpu(argv))
    return [statistics.median(found) for found in runs]


def allfours(*words: str) -> list[str]:
    return python_command("-m", "allfours_notation", *words)


def cold_start(one_game: Path, repeats: int) -> list[Wait]:
    passed, version, check = interleaved(
        [python_command("-c", "pass"), allfours("--version"), allfours("check", str(one_game))],
        repeats)
    return [
        Wait("allfours --version", "CPU s", version, "python -c pass", passed, "≤ 3×",
             version <= 3 * passed, repeats),
        Wait("allfours check ONE_GAME", "CPU s", check, "python -c pass", passed,
             "≤ 0.12 s or ≤ 6×", check <= 0.12 or check <= 6 * passed, repeats),
    ]


def in_process_cpu(argv: Sequence[str]) -> float:
    """CPU seconds of ``allfours ARGV`` run in this process, its output written to the null
    device (a file, not a terminal, as a script or a hook sees it)."""
    import contextlib
    import gc

    from allfours_notation.cli import main

    gc.collect()
    with open(os.devnull, "w", encoding="utf-8") as sink, contextlib.redirect_stdout(sink):
        started = time.process_time()
        main(list(argv))
        return time.process_time() - started


def printing(out_dir: Path, size: int, repeats: int) -> list[Wait]:
    """Plain ``check`` beside ``check --quiet`` in this process (start-up apart: what the
    issue compares is the cost per MB of printing against that of finding), in pairs, one
    right after the other; the ratio is the median of the pairs'."""
    from fuzz.shapes import end_words, tiny_games

    found = []
    for name, shape in (("tiny games", tiny_games), ("end words", end_words)):
        path = out_dir / f"shape-{name.replace(' ', '-')}-{size}.afn"
        if not path.exists():
            path.write_text(shape(size), encoding="utf-8")
        plain: list[float] = []
        quiet: list[float] = []
        for _ in range(repeats):
            plain.append(in_process_cpu(["check", "-j", "1", str(path)]))
            quiet.append(in_process_cpu(["check", "-j", "1", "--quiet", str(path)]))
        plain_s, quiet_s = statistics.median(plain), statistics.median(quiet)
        ratio = statistics.median(p / q for p, q in zip(plain, quiet, strict=True))
        found.append(Wait(f"check, {name} ({size // 1000} kB, a warning a game)", "CPU s",
                          plain_s, "check --quiet", quiet_s, "≤ 2×", ratio <= 2, repeats,
                          ratio))
    return found


def _public_check_file(path: Path) -> int:
    """:func:`allfours_notation.checking.check_file` over a file, every game consumed."""
    from allfours_notation.checking import OWN_RULES, check_file
    from allfours_notation.reading.parser import read_games

    reader = read_games(path.read_bytes(), filename=path.name)
    return sum(len(diagnostics) for diagnostics, _ in check_file(reader, OWN_RULES))


def _public_tally_file(path: Path) -> int:
    """:func:`allfours_notation.checking.tally_file` over a file: what ``check --quiet``
    calls, here without the command line around it."""
    from allfours_notation.checking import OWN_RULES, tally_file
    from allfours_notation.reading.parser import read_games

    reader = read_games(path.read_bytes(), filename=path.name)
    return sum(counts[0] for counts in tally_file(reader, OWN_RULES))


def public_door(path: Path, size: int, repeats: int,
                command: Callable[[Path], int]) -> list[Wait]:
    """The public functions beside the command, run by run in turn (one load for all).

    A first round warms all three up and is not counted.  Each public function's ratio to
    the command is the median of the rounds' ratios: a round runs the three one after the
    other, so the two sides of a ratio share the machine's speed of that moment (on a
    shared machine one run of a few seconds can take half as long again as the next)."""
    work: dict[str, Callable[[Path], int]] = {
        "tally": _public_tally_file, "check": _public_check_file, "command": command}
    runs: dict[str, list[float]] = {name: [] for name in work}
    names = list(work)
    for name in names:
        work[name](path)
    for round_number in range(repeats):
        # Each round starts with the next of the three, so that whatever the place in
        # a round costs (the heap the run before left) is not charged to one alone.
        turn = round_number % len(names)
        for name in names[turn:] + names[:turn]:
            runs[name].append(_cpu(time_repeated(partial(work[name], path), 1)[0]))
    speed = {name: size / 1e6 / statistics.median(found) for name, found in runs.items()}
    paired = {name: statistics.median(command_s / own_s for own_s, command_s
                                      in zip(runs[name], runs["command"], strict=True))
              for name in ("tally", "check")}
    command_name = "allfours check --quiet -j 1"
    return [
        Wait("checking.tally_file (the public door check --quiet calls)", "MB/s",
             speed["tally"], command_name, speed["command"], "≥ 0.95×",
             paired["tally"] >= 0.95, repeats, paired["tally"]),
        Wait("checking.check_file (the public door check prints from; every diagnostic "
             "handed out)", "MB/s", speed["check"], command_name, speed["command"], "",
             None, repeats, paired["check"]),
    ]


def _cpu(timing: Timing) -> float:
    return timing.cpu_median if timing.cpu_median is not None else timing.median


def editor(text: str, label: str, repeats: int) -> list[Wait]:
    from .lsp_edit import measure

    cost = measure(text, repeats)
    one = cost.one_game.median * 1000
    size = f"{label}, {cost.bytes / 1e6:.1f} MB"
    found = [Wait(f"language server: analysis after a keystroke ({size})", "ms",
                  cost.incremental.median * 1000, "checking that one game", one, "≤ 100 ms",
                  cost.incremental.median <= 0.1, repeats)]
    if cost.end_to_end is not None:
        found.append(Wait(f"language server: didChange to diagnostics ({size})", "ms",
                          cost.end_to_end.median * 1000, "checking that one game", one,
                          "≤ 100 ms", cost.end_to_end.median <= 0.1, repeats))
    found.append(Wait(f"language server: first analysis ({size})", "s",
                      cost.whole_file.median, "checking that one game", one / 1000, "≤ 3 s",
                      cost.whole_file.median <= 3, len(cost.whole_file.runs)))
    return found + typing(text, size, repeats)


def typing(text: str, size: str, rounds: int) -> list[Wait]:
    """The issue's own figures: a real server typed into character by character at the
    top, middle and bottom of a document with findings, each as a 95th percentile."""
    from .lsp_edit import typing_report, with_findings

    typed = typing_report(with_findings(text), rounds)
    found = []
    for name, what, goal in (("diagnostics", "keystroke to diagnostics", 100),
                             ("completion", "completion", 50), ("hover", "hover", 50)):
        p95 = float(typed[name]["p95_ms"])
        found.append(Wait(f"language server: {what}, typed, p95 ({size})", "ms", p95,
                          "its median", float(typed[name]["median_ms"]), f"≤ {goal} ms",
                          p95 <= goal, int(typed[name]["n"])))
    return found


def recorder(repeats: int) -> list[Wait]:
    from .recorder import resume_time

    found = resume_time(500, repeats)
    return [Wait(f"recorder: resume a {found['deals']}-deal file to the first prompt (session)",
                 "s", found["median_s"], "", None, "≤ 1 s", found["median_s"] <= 1, repeats),
            Wait(f"recorder: the same, the app on screen ({found['deals']} deals)", "s",
                 found["app_median_s"], "", None, "≤ 1 s", found["app_median_s"] <= 1, repeats)]


def fmt_beside_check(fmt_mb: float, check_mb: float, repeats: int) -> Wait:
    return Wait("fmt round trip", "MB/s", fmt_mb, "check -j 1", check_mb,
                "≥ 1 MB/s or ≥ 0.7×", fmt_mb >= 1 or fmt_mb >= 0.7 * check_mb, repeats)


def markdown(waits: Sequence[Wait]) -> list[str]:
    """The table of figures, each with its reference and the ratio."""
    lines = ["| where people wait | measured | reference (same run) | ratio | target | met |",
             "|---|---:|---:|---:|---|---|"]
    for wait in waits:
        reference = (f"{_shown(wait.reference, wait.unit)} ({wait.reference_name})"
                     if wait.reference is not None else "")
        ratio = f"{wait.ratio:.2f}×" if wait.ratio is not None else ""
        met = {True: "yes", False: "**no**", None: "n/a"}[wait.met]
        lines.append(f"| {wait.name} | {_shown(wait.value, wait.unit)} | {reference} | {ratio} "
                     f"| {wait.goal} | {met} |")
    return lines


def _shown(value: float, unit: str) -> str:
    if unit == "ms":
        return f"{value:.1f} ms"
    if unit == "MB/s":
        return f"{value:.2f} MB/s"
    return f"{value:.3f} {unit}"


def as_json(waits: Sequence[Wait]) -> list[dict[str, object]]:
    return [{"name": w.name, "unit": w.unit, "value": w.value, "reference": w.reference_name,
             "reference_value": w.reference, "ratio": w.ratio, "goal": w.goal, "met": w.met,
             "runs": w.runs} for w in waits]
