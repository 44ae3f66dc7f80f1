"""Smoke test of ``python -m bench.serve``: a tiny night with a SIGKILL in it reports
its figures and finds nothing lost or doubled (the shape, never the speed)."""

from __future__ import annotations

import pytest

from bench.serve import main


def test_a_tiny_night_with_a_kill(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["--tables", "3", "--every", "1.5", "--seconds", "4", "--kill-at", "1.5"]) == 0
    out = capsys.readouterr().out
    assert "tables 3, a deal every 1.5 s for 4 s, SIGKILL at 1.5 s" in out
    assert "deals lost 0, doubled 0" in out and "entries acknowledged" in out


def test_a_night_of_short_games_begins_the_next_game_and_loses_nothing(
        capsys: pytest.CaptureFixture[str]) -> None:
    # games to 4: NS have 4 at the second deal's Jack, and the table begins the next game
    assert main(["--tables", "2", "--every", "0.4", "--seconds", "3", "--target", "4"]) == 0
    out = capsys.readouterr().out
    played = int(out.split("games to 4 (")[1].split(" played")[0])
    assert played > 2 and "deals lost 0, doubled 0" in out
    assert "server memory (RSS): start" in out
