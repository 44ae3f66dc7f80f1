"""Shared fixtures of the archive tests: the CLI in-process, a folder of games."""

from __future__ import annotations

import functools
import random
import shutil
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import pytest

from allfours_notation.cli import main

ROOT = Path(__file__).resolve().parents[2]
SAMPLES = ROOT / "samples"
# The single-game records of samples/, in the order a walk of the folder gives them: what
# the archive tests read (samples/event/ holds the worked events' folders of games, which
# tests/events/ covers).
RECORDS = sorted(f"samples/{path.name}" for path in SAMPLES.glob("*.afn"))
GOLDEN = ROOT / "tests" / "golden" / "archive"
# Games in the archive's generated file: with test_parallel_check's small runs of games,
# enough for several runs per worker (each game checked under the wrong rules costs ~40 ms).
GENERATED_GAMES = 12


@dataclass(frozen=True)
class Run:
    code: int
    out: str
    err: str


Cli = Callable[[list[str]], Run]


@pytest.fixture
def cli(capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> Cli:
    """``cli(args)`` runs ``allfours ARGS`` from the repository root, colour off."""
    monkeypatch.chdir(ROOT)
    monkeypatch.setenv("NO_COLOR", "1")
    monkeypatch.setenv("TERM", "dumb")
    monkeypatch.setenv("COLUMNS", "100")
    monkeypatch.delenv("FORCE_COLOR", raising=False)

    def run(args: list[str]) -> Run:
        capsys.readouterr()
        code = main(args)
        captured = capsys.readouterr()
        return Run(code, captured.out, captured.err)

    return run


@functools.cache
def generated_text(games: int, seed: int) -> str:
    """Legal games from the package's generator, two- and four-handed in turn (made once
    per process: the text depends only on the arguments)."""
    from allfours_notation.generate import Knobs, generate_game, profile_options, write_afn

    rng = random.Random(seed)
    parts = ["% AFN 1\n"]
    for index in range(1, games + 1):
        players = 2 if index % 2 else 4
        profile = "hoffmann1909" if players == 2 else "trinidad14"
        game = generate_game(rng, profile_options(profile, players), Knobs(), profile=profile,
                             index=index)
        parts.append("\n" + write_afn(game, version_line=False))
    return "".join(parts)


@pytest.fixture
def archive(tmp_path: Path) -> Path:
    """A season folder: the samples (one with a broken game), a subfolder with a
    12-game generated file and a file with broken games, and a non-AFN file."""
    season = tmp_path / "season"
    (season / "club").mkdir(parents=True)
    for sample in sorted(SAMPLES.glob("*.afn")):
        shutil.copy(sample, season / sample.name)
    generated = generated_text(GENERATED_GAMES, 7)
    (season / "club" / "generated.afn").write_text(generated, encoding="utf-8")
    broken = generated_text(3, 11).replace("dealer", "dealr", 1).replace("turn", "trun", 2)
    (season / "club" / "broken.afn").write_text(broken, encoding="utf-8")
    (season / "notes.txt").write_text("not AFN", encoding="utf-8")
    return season
