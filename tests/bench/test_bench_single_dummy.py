"""``python -m bench.single_dummy`` on a couple of deals: the decisions it times are real
choices, and every figure it reports is there."""

from __future__ import annotations

from bench.analyse import SIZES, deals_of
from bench.single_dummy import bench_size, decisions_of


def test_two_decisions_a_deal_each_with_a_choice_the_second_from_the_third_trick() -> None:
    for deal in deals_of(SIZES["2x6"], 3, 1):
        first, second = decisions_of(deal)
        assert first < second and second >= 4


def test_the_report_has_every_figure() -> None:
    report = bench_size(SIZES["2x6"], 2, samples=4, seed=1)
    assert report["decisions"] == 4 and report["samples"] == 4
    assert 0 < report["median_s"] <= report["p90_s"] <= report["max_s"]
    assert report["within_target"].endswith("of 4") and report["target_s"] == 0.5
    assert report["sampling_median_s"] > 0 and 1 <= report["distinct_worlds_median"] <= 4
