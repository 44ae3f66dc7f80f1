"""``allfours event ratings``: openskill over the event's games, in the order played.

Marked ``minimum`` (tests/conftest.py): it runs again against the lowest openskill that
pyproject.toml allows."""

from __future__ import annotations

import subprocess
import sys
from dataclasses import replace
from pathlib import Path

import pytest

from allfours_notation.events.assemble import Assembled, assemble
from allfours_notation.events.games import FolderRead, read_folder
from allfours_notation.events.ratings import games_in_order, rate
from tests.events.test_assemble import event_of, games, write

ROOT = Path(__file__).resolve().parents[2]


def assembled(tmp_path: Path) -> Assembled:
    write(tmp_path, "t1.afn", games(1, 2, 1))
    write(tmp_path, "t2.afn", games(2, 2, 2))
    return assemble(event_of(), read_folder(tmp_path, ("trinidad14", {})))


def test_every_finished_game_is_rated_in_the_order_played(tmp_path: Path) -> None:
    found = assembled(tmp_path)
    order = [(g.game.file.rsplit("/", 1)[-1], g.game.index)
             for _, g in games_in_order(event_of(), found)]
    assert order == [("t1.afn", 1), ("t2.afn", 1), ("t1.afn", 2), ("t2.afn", 2)]
    rated = rate(event_of(), found)
    assert rated.games == 4 and len(rated.players) == 8 and len(rated.pairs) == 4
    for row in (*rated.players, *rated.pairs):
        assert row.games == 2 and row.ordinal == pytest.approx(row.mean - 3 * row.uncertainty)
        assert row.uncertainty < 25 / 3  # every game taught the model something
    ordinals = [row.ordinal for row in rated.players]
    assert ordinals == sorted(ordinals, reverse=True)
    winners = {row.name: row for row in rated.pairs if row.wins == 2}
    losers = {row.name: row for row in rated.pairs if row.wins == 0}
    assert winners and losers
    assert min(r.mean for r in winners.values()) > max(r.mean for r in losers.values())


def test_a_game_that_fails_the_referee_or_is_unfinished_is_not_rated(tmp_path: Path) -> None:
    found = assembled(tmp_path)
    match = found.matches[0]
    first = match.tables[0].games[0]
    broken = replace(first, winner_side=None, why_not="unfinished")
    tables = (replace(match.tables[0], games=(broken, *match.tables[0].games[1:])),
              *match.tables[1:])
    changed = replace(found, matches=(replace(match, tables=tables),))
    assert rate(event_of(), changed).games == 3
    assert rate(event_of(), assemble(event_of(), FolderRead((), ()))).players == ()


def test_only_the_ratings_import_openskill() -> None:
    code = ("import sys; from allfours_notation.cli import main; "
            "main(['event', 'standings', 'samples/event/club/EVENT.toml']); "
            "print('openskill' in sys.modules)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         cwd=ROOT, check=True).stdout
    assert out.strip().splitlines()[-1] == "False"
