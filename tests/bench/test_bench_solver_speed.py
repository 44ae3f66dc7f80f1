"""``python -m bench.solver_speed`` on a handful of deals: both solvers' figures, and the
values compared deal by deal."""

from __future__ import annotations

from types import ModuleType

from allfours_notation.checking.analysis import solver
from bench.solver_speed import ALL_SIZES, bench_size


class _Wrong(solver.Solver):
    """A solver one point off everywhere: the bench must say the values differ."""

    def value(self, deadline: float | None = None) -> int:
        return super().value(deadline) + 1


def _as_module(solver_class: type[solver.Solver]) -> ModuleType:
    module = ModuleType("before")
    module.Solver = solver_class  # type: ignore[attr-defined]
    module.SolveTimeout = solver.SolveTimeout  # type: ignore[attr-defined]
    return module


def test_both_solvers_are_timed_on_the_same_deals_and_their_values_compared() -> None:
    report = bench_size(ALL_SIZES["3x6"], 3, seed=1, budget=5.0,
                        before=_as_module(solver.Solver))
    assert report["deals"] == 3 and report["values_differ"] == []
    for side in ("before", "after"):
        assert report[side]["solved"] == "3/3" and report[side]["nodes"] > 0
        assert set(report[side]) == {"median_ms", "p95_ms", "solved", "solved_share",
                                     "nodes", "cpu_s"}


def test_a_solver_that_disagrees_is_reported() -> None:
    report = bench_size(ALL_SIZES["2x6"], 2, seed=1, budget=5.0, before=_as_module(_Wrong))
    assert len(report["values_differ"]) == 2
