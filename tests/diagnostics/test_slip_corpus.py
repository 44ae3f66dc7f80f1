"""The slip corpus targets (issue 9), on a sample that runs in a few seconds.

The full corpus (2,000 games) is ``python -m bench.slips``; its figures are in the
README.  Here a fixed sample of the same generator must meet the same targets:
the first printed diagnostic on the slipped statement in at least 95% of the
records, a median of one root per slip and a 95th percentile of at most two.
"""

from __future__ import annotations

import random

from bench.slips import SlipKind, figures, make_slip, outcome, percentile, slipped_games

SAMPLE = 70


def test_the_sample_meets_the_targets() -> None:
    outcomes = [outcome(slipped) for slipped in slipped_games(seed=2026, n_games=SAMPLE)]
    overall = next(row for row in figures(outcomes) if row.kind == "all")
    assert overall.records == SAMPLE
    assert overall.on_target >= 0.95, overall
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
