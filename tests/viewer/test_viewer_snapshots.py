"""A few SVG snapshots of the whole screen (pytest-textual-snapshot 1.0.0, syrupy 7).

Update after a deliberate change with ``pytest --update-goldens`` and look
at the new pictures before committing them.  The screen holds no clock and no timing.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path

import pytest
from textual.pilot import Pilot

from allfours_notation.viewer import app as viewer_app
from allfours_notation.viewer.app import Start, ViewerApp
from tests.viewer.viewer_helpers import BROKEN, FOUR, SIZE, TWO, wait_marked

SnapCompare = Callable[..., bool]

# Eight tests of 0.6-1 s, collected near the end of the suite: as a group they are handed
# out with the groups, first (tests/xdist_groups.py), and the last tests of a run are short.
pytestmark = pytest.mark.xdist_group("viewer-snapshots")


@pytest.fixture(autouse=True)
def check_at_once(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every picture waits for the background check to mark every game (see
    :func:`ready`), and the check waits until no step has been shown for
    ``QUIET_BEFORE_CHECKING`` seconds, which would hold every test 0.4 s or more
    doing nothing: here it starts at once.  The marks and the picture are the same."""
    monkeypatch.setattr(viewer_app, "QUIET_BEFORE_CHECKING", 0.0)


def app_for(path: Path, start: Start | None = None) -> ViewerApp:
    # A relative name keeps the machine's paths out of the pictures.
    return ViewerApp(os.path.relpath(path), start, unicode=True)


async def ready(pilot: Pilot[int]) -> None:
    await wait_marked(pilot)
    await pilot.wait_for_scheduled_animations()


def test_two_players_in_the_middle_of_a_trick(snap_compare: SnapCompare) -> None:
    assert snap_compare(app_for(TWO), press=["right"] * 9, terminal_size=SIZE,
                        run_before=ready)


def test_four_players_kibitzing_south(snap_compare: SnapCompare) -> None:
    app = app_for(FOUR, Start(deal=1, trick=2, seat="S"))
    assert snap_compare(app, press=["right"], terminal_size=SIZE, run_before=ready)


def test_a_game_with_rules_errors(snap_compare: SnapCompare) -> None:
    app = app_for(BROKEN, Start(game=3))
    assert snap_compare(app, press=["down", "down"], terminal_size=SIZE, run_before=ready)


def test_80_by_24_four_players_mid_trick(snap_compare: SnapCompare) -> None:
    assert snap_compare(app_for(FOUR), press=["right"] * 9, terminal_size=(80, 24),
                        run_before=ready)


def test_80_by_24_diagnostics_beside_the_table(snap_compare: SnapCompare) -> None:
    app = app_for(BROKEN, Start(game=3))
    assert snap_compare(app, press=["6", "down", "enter"], terminal_size=(80, 24),
                        run_before=ready)


def test_80_by_24_help(snap_compare: SnapCompare) -> None:
    assert snap_compare(app_for(TWO), press=["question_mark"], terminal_size=(80, 24),
                        run_before=ready)


def test_100_by_30_kibitzing_with_the_game_list(snap_compare: SnapCompare) -> None:
    app = app_for(FOUR, Start(deal=1, trick=2, seat="S"))
    assert snap_compare(app, press=["right", "1"], terminal_size=(100, 30), run_before=ready)


def test_160_by_48_two_players(snap_compare: SnapCompare) -> None:
    assert snap_compare(app_for(TWO), press=["right"] * 5, terminal_size=(160, 48),
                        run_before=ready)
