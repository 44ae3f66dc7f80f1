"""The slip corpus targets (issue 9), on a sample that runs in a few seconds.

The full corpus (2,000 games) is ``python -m bench.slips``; its figures are in
docs/performance.md.  Here a fixed sample of the same generator must meet the same targets:
the first printed diagnostic on the slipped statement in at least 95% of the
records where check finds anything (a rank miswritten in a deal without hands can
leave a possible record: nothing to point at), a median of one root per slip and a
95th percentile of at most two.
"""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

from bench.slips import (
    SlipKind,
    figures,
    main,
    make_slip,
    outcome,
    percentile,
    slipped_games,
)

SAMPLE = 70


def test_the_sample_meets_the_targets() -> None:
    outcomes = [outcome(slipped) for slipped in slipped_games(seed=2026, n_games=SAMPLE)]
    overall = next(row for row in figures(outcomes) if row.kind == "all")
    assert overall.records == SAMPLE
    assert overall.on_target_found >= 0.95, overall
    assert overall.silent <= SAMPLE // 20, overall  # a slip that leaves a possible record is rare
    assert overall.median_roots == 1, overall
    assert overall.p95_roots <= 2, overall
    assert {o.kind for o in outcomes} == set(SlipKind)  # every kind is in the sample


def test_each_slip_changes_the_text_at_its_line() -> None:
    rng = random.Random(5)
    clean = next(iter(slipped_games(seed=1, n_games=1)))
    assert clean.lines and clean.text.startswith("% AFN 1")
    from allfours_notation.generate import Knobs, generate_game, profile_options, write_afn

    text = write_afn(generate_game(rng, profile_options("hoffmann1909"), Knobs()))
    for _ in range(20):
        slipped = make_slip(rng, text)
        assert slipped is not None and slipped.text != text
        before, after = text.splitlines(), slipped.text.splitlines()
        changed = {i + 1 for i, (a, b) in enumerate(zip(before, after, strict=False)) if a != b}
        assert min(changed) in slipped.lines


def test_percentile_is_nearest_rank() -> None:
    assert percentile([1] * 95 + [9] * 5, 0.95) == 1
    assert percentile([1] * 94 + [9] * 6, 0.95) == 9
    assert percentile([3], 0.5) == 3


def test_the_bench_command_prints_and_writes_the_figures(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "slips.json"
    assert main(["--games", "8", "--seed", "4", "--out", str(out)]) == 0
    printed = capsys.readouterr().out
    assert "| slip | records | first diagnostic on the slip |" in printed
    data = json.loads(out.read_text(encoding="utf-8"))
    assert data["games"] == 8 and data["kinds"][-1]["kind"] == "all"
    assert data["kinds"][-1]["records"] == 8
