"""``python -m bench.analyse`` on a handful of deals: every figure it reports is there."""

from __future__ import annotations

from bench.analyse import SIZES, SWITCHES, bench_size


def test_six_card_sizes_report_par_check_and_every_pruning() -> None:
    report = bench_size(SIZES["2x6"], 3, seed=1, limit=5.0, prunings=2)
    assert report["deals"] == 3
    assert set(report["par"]) == set(report["check"]) == {"median_ms", "p95_ms", "max_ms",
                                                          "mean_ms"}
    assert set(report["prunings"]) == {"all on", *(f"{s} off" for s in SWITCHES)}
    # the prunings change the work, never the answer: every one solved
    assert all(row["unsolved"] == 0 and row["nodes"] > 0 for row in report["prunings"].values())
    assert report["prunings"]["equivalence off"]["nodes"] >= report["prunings"]["all on"]["nodes"]


def test_nine_card_sizes_report_the_share_solved_in_time() -> None:
    report = bench_size(SIZES["3x9"], 2, seed=1, limit=5.0, prunings=0)
    assert report["deals"] == 2 and 0.0 <= report["solved_share"] <= 1.0
