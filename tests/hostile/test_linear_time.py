"""Time per byte does not grow with size, for every shape that once made it grow.

Each shape (``fuzz.shapes``) is checked as ``allfours check`` checks a file —
slice, parse, replay, disputes — and every diagnostic is rendered with its caret
snippet, at a small and a large size.  The test compares CPU time per byte at
the two sizes, never an absolute time: a super-linear step (a backtracking
regular expression, a per-deal pass over the whole game, a snippet that splits
the whole file) makes the ratio grow with the size factor (10x or 100x), while
linear work keeps it near 1 (or below: fixed costs weigh more on small inputs).
Bigger sizes are measured by ``python -m bench.hostile``.
"""

from __future__ import annotations

import time

import pytest

from allfours_notation.checking import check_file as file_diagnostics
from allfours_notation.diagnostics import LineIndex
from allfours_notation.reading.parser import read_games
from fuzz.shapes import SHAPES

# Cheap per byte: measured at 10 KB and 500 KB (50x).  The others cost a game or a
# deal per few bytes: measured at 3 KB and 30 KB (10x), to keep the suite fast.
CHEAP = {
    "spaces-then-word", "blank-lines-then-brace", "semicolons", "open-brackets", "quotes",
    "braces", "digits", "deal-words", "many-tags", "duplicate-tags", "unnumbered-plays",
    "numbered-tricks", "comment-lines", "huge-deal-repeated", "long-line",
}
RATIO_LIMIT = 3.0


def check_and_print(text: str) -> int:
    """What ``allfours check`` does with ``text``; returns the number of diagnostics."""
    reader = read_games(text.encode("utf-8"))
    lines = LineIndex(reader.text)
    count = 0
    for diagnostics, _ in file_diagnostics(reader, (None, {})):
        for diagnostic in diagnostics:
            diagnostic.render(lines)
            count += 1
    return count


def seconds_per_byte(text: str, runs: int) -> float:
    best = float("inf")
    for _ in range(runs):
        started = time.process_time()
        check_and_print(text)
        best = min(best, time.process_time() - started)
    return max(best, 1e-4) / len(text)  # 0.1 ms floor: the clock's resolution


@pytest.mark.parametrize("name", sorted(SHAPES))
def test_time_per_byte_does_not_grow(name: str) -> None:
    small, large = (10_000, 500_000) if name in CHEAP else (3_000, 30_000)
    make = SHAPES[name]
    check_and_print(make(small))  # warm up: the grammar is built once per process
    before = seconds_per_byte(make(small), runs=3)
    after = seconds_per_byte(make(large), runs=2)
    assert after <= RATIO_LIMIT * before, (
        f"{name}: {after * 1e6:.2f} µs/B at {large:,} bytes, "
        f"{before * 1e6:.2f} µs/B at {small:,} bytes")


def test_the_shapes_have_their_size() -> None:
    for name, make in SHAPES.items():
        size = len(make(50_000))
        assert 35_000 <= size <= 52_000, (name, size)
