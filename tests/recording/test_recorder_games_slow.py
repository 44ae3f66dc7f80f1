"""The eight games of :mod:`tests.recording.test_recorder_games` that the default suite
does not type through the screen (about 5 s of CPU: the slow set).  The default suite
types four that between them cover every profile, every number of players and every
feature, and records all twelve profile-and-table pairs entry by entry without the
screen (``test_session.py``)."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.recording.test_recorder_games import TYPED_IN_THE_SLOW_SET, case_id, type_the_game

pytestmark = pytest.mark.xdist_group("recorder-games")


@pytest.mark.parametrize(("profile", "players", "seed", "known", "variant"),
                         TYPED_IN_THE_SLOW_SET, ids=[case_id(*c) for c in TYPED_IN_THE_SLOW_SET])
def test_the_other_games_typed_into_the_record_mode(tmp_path: Path, profile: str, players: int,
                                                    seed: int, known: bool,
                                                    variant: bool) -> None:
    type_the_game(tmp_path, profile, players, seed, known, variant)
