"""The long kill campaign (marked ``slow``: ``pytest -m slow``): the recorder killed at
random points through a whole three-deal game, 87 entries and about 130 kills (some
7 s of CPU); the whole-suite command runs the two-deal form in test_file.py."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.recording import kills
from tests.recording.helpers import generated


@pytest.mark.skipif(not kills.CAN_FORK, reason="needs fork and a forkserver")
def test_killed_at_random_points_through_a_whole_game(tmp_path: Path) -> None:
    game = generated("hoffmann1909", 2, seed=3, hands=0.5, beg=0.7)
    assert len(game.deals) == 3
    kills.check_killed_at_random_points(tmp_path / "killed.afn", game)
