"""``python -m bench.advisor`` on a tiny budget: every figure it reports is there (its
speed is measured by running it, never asserted here)."""

from __future__ import annotations

from bench.advisor import POSITIONS, bench_position


def test_a_position_reports_its_cpu_time_and_each_option() -> None:
    row = bench_position(POSITIONS["2x6"], samples=2, dealer_samples=1, later=4, seed=1)
    assert row["advise_s"] >= 0 and row["pool_s"] >= 0
    assert set(row["options"]) == {"stands", "begs"}
    assert row["best"] in row["options"]
