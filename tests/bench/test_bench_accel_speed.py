"""``python -m bench.accel_speed`` on a handful of deals: both solvers' figures, and the
values compared deal by deal (skipped where the optional accelerator is not installed)."""

from __future__ import annotations

import pytest

from allfours_notation.checking.analysis.accelerated import AcceleratedSolver, accelerator
from bench.accel_speed import SIZES, bench_size

pytestmark = pytest.mark.skipif(
    accelerator() is None,
    reason="the optional compiled accelerator is not installed (pip install ./accel)")


class _Wrong(AcceleratedSolver):
    """An accelerated solver one point off everywhere: the bench must say so."""

    def value(self, deadline: float | None = None) -> int:
        return super().value(deadline) + 1


def test_both_solvers_are_timed_on_the_same_deals_and_their_values_compared() -> None:
    report = bench_size(SIZES["4x6"], 3, seed=1, budget=5.0, reference=True)
    assert report["deals"] == 3 and report["values_differ"] == []
    for side in ("accelerated", "python"):
        assert report[side]["solved"] == "3/3" and report[side]["nodes"] > 0


def test_a_solver_that_disagrees_is_reported_and_the_reference_can_be_left_out() -> None:
    report = bench_size(SIZES["2x6"], 2, seed=1, budget=5.0, reference=True, fast=_Wrong)
    assert len(report["values_differ"]) == 2
    alone = bench_size(SIZES["2x6"], 2, seed=1, budget=5.0, reference=False)
    assert alone["python"] is None and alone["accelerated"]["solved"] == "2/2"
