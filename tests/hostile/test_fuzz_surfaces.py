"""The short fuzz run of the new surfaces in the suite (``python -m fuzz.surfaces
--minutes N`` is the long one): writers on a failing disk, the recorder's entry line."""

from __future__ import annotations

import random
from pathlib import Path

from fuzz.recorder_line import fuzz_session
from fuzz.writers import fault_round, planted_round


def test_writes_on_a_failing_disk_keep_their_promises(tmp_path: Path) -> None:
    rng = random.Random(2323)
    problems = [problem for _ in range(40) if (problem := fault_round(rng, tmp_path))]
    assert problems == []


def test_planted_leftovers_are_never_acted_on(tmp_path: Path) -> None:
    """Issue 41: a journal the toolkit did not write, of every kind, beside a file."""
    rng = random.Random(41)
    problems = [problem for _ in range(40) if (problem := planted_round(rng, tmp_path))]
    assert problems == []


def test_random_lines_typed_into_the_recorder(tmp_path: Path) -> None:
    rng = random.Random(23)
    for _ in range(2):
        typed, problems = fuzz_session(rng, tmp_path, lines=40)
        assert typed == 40 and problems == []
