"""``python -m bench.identical``: prove a change left every output as it was.

A speed-up must not change a byte of what the tool prints.  This runs the commands
whose output users and golden files depend on (``check``, ``check --json``,
``score``, ``score --json``, ``export``, ``fmt``) over

* every sample, every ``.afn`` file under ``tests/``,
* a few hundred files made by mutating the samples (a line deleted, duplicated or
  moved; a word deleted, duplicated or swapped with its neighbour; a fixed seed),
* the benchmark corpora under 10 MB found in ``bench/out/`` (``--corpora``),

once with this checkout's code and once with the code of a git revision (``--against``,
default ``main``, checked out into a temporary worktree), and compares exit code,
standard output and standard error of every run.  Each side runs in one process of its
own, importing its own ``allfours_notation``; outputs are compared by their SHA-256,
so that a large corpus's report is not held twice in memory.

Usage, from the repository root::

    python -m bench.identical                     # against main
    python -m bench.identical --against HEAD~3    # against any revision
    python -m bench.identical --corpora           # the bench corpora too (minutes)
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import random
import subprocess
import sys
import tempfile
from collections.abc import Sequence
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

COMMANDS: tuple[tuple[str, ...], ...] = (
    ("check",), ("check", "--json"), ("score",), ("score", "--json"), ("export",), ("fmt",),
)
# The big corpora: the commands that matter most, not fmt/export (minutes each).
CORPUS_COMMANDS: tuple[tuple[str, ...], ...] = (("check",), ("check", "--json"),
                                                ("score", "--json"))

# Runs inside the process of one side: every (command, file), each output hashed.
_RUNNER = r"""
import contextlib, hashlib, io, json, sys
import allfours_notation
from allfours_notation.cli import main
jobs = json.load(sys.stdin)
results = {"": allfours_notation.__file__}
def stream():
    # A text stream with a byte buffer under it, as a real stdout has: commands that
    # write bytes (export, the schema) go through .buffer, the rest through the text.
    return io.TextIOWrapper(io.BytesIO(), encoding="utf-8", errors="surrogateescape",
                            newline="\n", write_through=True)
for key, argv in jobs:
    out, err = stream(), stream()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        try:
            code = main(argv)
        except SystemExit as stop:
            code = stop.code
    out.flush(); err.flush()
    errors = err.buffer.getvalue()
    results[key] = [code, hashlib.sha256(out.buffer.getvalue()).hexdigest(),
                    hashlib.sha256(errors).hexdigest(), b"AFN901" in errors]
json.dump(results, sys.stdout)
"""


def mutations(samples: Sequence[Path], count: int, seed: int) -> list[tuple[str, str]]:
    """``count`` mutated copies of the samples: (name, text), the same for a given seed."""
    rng = random.Random(seed)
    made: list[tuple[str, str]] = []
    texts = [path.read_text(encoding="utf-8") for path in samples]
    for number in range(count):
        text = texts[number % len(texts)]
        for _ in range(rng.randint(1, 3)):
            text = _mutate(text, rng)
        made.append((f"mutant-{number:04d}.afn", text))
    return made


def _mutate(text: str, rng: random.Random) -> str:
    if rng.random() < 0.5:
        lines = text.split("\n")
        if len(lines) < 2:
            return text
        at = rng.randrange(len(lines))
        how = rng.choice(("delete", "duplicate", "move"))
        if how == "delete":
            del lines[at]
        elif how == "duplicate":
            lines.insert(at, lines[at])
        else:
            lines.insert(rng.randrange(len(lines)), lines.pop(at))
        return "\n".join(lines)
    words = text.split(" ")
    if len(words) < 2:
        return text
    at = rng.randrange(len(words) - 1)
    how = rng.choice(("delete", "duplicate", "swap"))
    if how == "delete":
        del words[at]
    elif how == "duplicate":
        words.insert(at, words[at])
    else:
        words[at], words[at + 1] = words[at + 1], words[at]
    return " ".join(words)


def inputs(work: Path, mutants: int, seed: int, corpora: bool) -> list[tuple[Path, bool]]:
    """Every input file, and whether it is a large corpus (fewer commands)."""
    samples = sorted((ROOT / "samples").glob("*.afn"))
    files = [(path, False) for path in samples]
    files += [(path, False) for path in sorted((ROOT / "tests").rglob("*.afn"))]
    for name, text in mutations(samples, mutants, seed):
        path = work / name
        path.write_text(text, encoding="utf-8")
        files.append((path, False))
    if corpora:
        files += [(path, True) for path in sorted((ROOT / "bench" / "out").glob("afn-*.afn"))
                  if path.stat().st_size < 10_000_000]
    return files


def jobs_for(files: Sequence[tuple[Path, bool]]) -> list[tuple[str, list[str]]]:
    jobs = []
    for path, large in files:
        for command in CORPUS_COMMANDS if large else COMMANDS:
            argv = [*command, str(path)]
            jobs.append((" ".join([*command, _shown(path)]), argv))
    return jobs


def _shown(path: Path) -> str:
    try:
        return str(path.relative_to(ROOT))
    except ValueError:
        return path.name


def run_side(code_root: Path, jobs: list[tuple[str, list[str]]]) -> dict[str, list[object]]:
    """Run every job with the ``allfours_notation`` found at ``code_root`` (run from
    there, since ``python -c`` puts the working directory first on the path)."""
    env = {**os.environ, "PYTHONPATH": str(code_root), "NO_COLOR": "1", "COLUMNS": "100"}
    done = subprocess.run([sys.executable, "-c", _RUNNER], input=json.dumps(jobs),
                          capture_output=True, text=True, env=env, cwd=code_root, check=False)
    if done.returncode != 0:
        raise SystemExit(f"the run with the code at {code_root} failed:\n{done.stderr}")
    results: dict[str, list[object]] = json.loads(done.stdout)
    imported = Path(str(results.pop(""))).resolve()
    if not imported.is_relative_to(code_root.resolve()):
        raise SystemExit(f"the run meant for {code_root} imported {imported}")
    return results


def differences(ours: dict[str, list[object]], theirs: dict[str, list[object]]) -> list[str]:
    found = []
    for key in theirs:
        mine, base = ours.get(key), theirs[key]
        if mine == base:
            continue
        assert mine is not None
        parts = [name for name, a, b in zip(("exit code", "stdout", "stderr"), mine[:3],
                                            base[:3], strict=True) if a != b]
        found.append(f"{key}: {', '.join(parts)} differ")
    return found


def internal_faults(results: dict[str, list[object]]) -> list[str]:
    """The runs that met an internal fault (AFN901): equal outputs there prove nothing,
    since both sides may fail the same way (as ``export`` once did under a captured
    stdout), so they count against the verdict."""
    return sorted(key for key, result in results.items() if len(result) > 3 and result[3])


def _digest(results: dict[str, list[object]]) -> str:
    return hashlib.sha256(json.dumps(results, sort_keys=True).encode()).hexdigest()[:16]


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="python -m bench.identical",
        description="Run check, score, export and fmt over the samples, the tests' files, "
        "mutated samples (and optionally the bench corpora) with this checkout's code and "
        "with a git revision's code, and report every output that differs.")
    parser.add_argument("--against", default="main",
                        help="the git revision to compare with (default: main)")
    parser.add_argument("--mutants", type=int, default=400,
                        help="how many mutated samples (default 400)")
    parser.add_argument("--seed", type=int, default=2026, help="mutation seed (default 2026)")
    parser.add_argument("--corpora", action="store_true",
                        help="also the corpora in bench/out/ under 10 MB (check, check "
                        "--json, score --json)")
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    with tempfile.TemporaryDirectory(prefix="afn-identical-") as scratch:
        work = Path(scratch)
        base = work / "base"
        subprocess.run(["git", "-C", str(ROOT), "worktree", "add", "--detach", "-q",
                        str(base), args.against], check=True)
        try:
            files = inputs(work, args.mutants, args.seed, args.corpora)
            jobs = jobs_for(files)
            print(f"… {len(jobs):,} runs on {len(files):,} files, each side", file=sys.stderr)
            theirs = run_side(base, jobs)
            ours = run_side(ROOT, jobs)
        finally:
            subprocess.run(["git", "-C", str(ROOT), "worktree", "remove", "--force",
                            str(base)], check=False)
    found = differences(ours, theirs)
    found += [f"{key}: an internal fault (AFN901) on {side}"
              for side, results in (("this checkout", ours), (args.against, theirs))
              for key in internal_faults(results)]
    for line in found[:50]:
        print(line)
    if len(found) > 50:
        print(f"… and {len(found) - 50} more")
    verdict = "identical" if not found else f"{len(found)} outputs differ"
    print(f"{len(jobs):,} runs against {args.against}: {verdict} "
          f"(digest {_digest(ours)} vs {_digest(theirs)})")
    return 0 if not found else 1


if __name__ == "__main__":
    sys.exit(main())
