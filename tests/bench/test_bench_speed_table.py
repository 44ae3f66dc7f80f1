"""``python -m bench.speed_table`` on a handful of deals: par and the full check timed for
each solver on the same deals, the values of par compared."""

from __future__ import annotations

from allfours_notation.cards import Card
from allfours_notation.checking.analysis import solver
from bench.speed_table import bench_size, summary


class _Wrong(solver.Solver):
    """A solver one point off everywhere (its best card's value too, so that the check
    still runs): the bench must say the values differ."""

    def value(self, deadline: float | None = None) -> int:
        return super().value(deadline) + 1

    def best(self, deadline: float | None = None) -> tuple[int, Card | None]:
        value, card = super().best(deadline)
        return value + 1, card


class _Counted(solver.Solver):
    """The pure-Python solver, counting how often the check made one."""

    made = 0

    def __init__(self, layout: solver.Layout, perspective: str | None = None) -> None:
        super().__init__(layout, perspective)
        type(self).made += 1


def test_par_and_the_full_check_are_timed_with_each_solver_on_the_same_deals() -> None:
    _Counted.made = 0
    report = bench_size("3x6", 2, seed=1, budget=5.0,
                        solvers={"a": solver.Solver, "b": _Counted})
    assert report["deals"] == 2 and report["values_differ"] == []
    for measure in ("par", "check"):
        assert set(report[measure]) == {"a", "b"}
        for cells in report[measure].values():
            assert cells["finished"] == "2/2" and cells["median_ms"] > 0
    # three players: one solver per seat in the check, plus one per par
    assert _Counted.made == 2 * (1 + 3)


def test_a_solver_that_disagrees_is_reported() -> None:
    report = bench_size("2x6", 2, seed=1, budget=5.0,
                        solvers={"right": solver.Solver, "wrong": _Wrong})
    assert len(report["values_differ"]) == 2


def test_a_run_not_finished_counts_as_the_budget() -> None:
    cells = summary([(0.001, True), (0.002, False), (0.003, True)], budget=5.0)
    assert cells == {"median_ms": 3.0, "p95_ms": 5000.0, "finished": "2/3"}
