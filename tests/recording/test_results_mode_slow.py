"""The eight games of :mod:`tests.recording.test_results_mode` that the default suite
does not type key by key through the screen (about 2 s of CPU: the slow set).  The
default suite types four, every profile and every number of players among them, and
enters all twelve line by line without the screen."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.recording.test_results_mode import TYPED_IN_THE_SLOW_SET, type_the_results


@pytest.mark.parametrize(("profile", "players"), TYPED_IN_THE_SLOW_SET)
def test_the_other_games_typed_key_by_key_in_the_app(tmp_path: Path, profile: str,
                                                     players: int) -> None:
    type_the_results(tmp_path, profile, players)
