"""The identity digest follows record equality: layout never matters, content always does."""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings

from allfours_notation.archive.identity import game_digest
from allfours_notation.checking.parsing import parse
from allfours_notation.reading.records import Game
from allfours_notation.writing.formatter import canonical_records, format_game

from ..format.strategies import games


@settings(deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(games())
def test_the_same_records_laid_out_anew_have_the_same_digest(game: Game) -> None:
    (reread,) = parse(format_game(game)).games
    assert reread == canonical_records(game)
    assert game_digest(reread) == game_digest(canonical_records(game))


@settings(deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(games(), games())
def test_different_records_have_different_digests(first: Game, second: Game) -> None:
    assert (game_digest(first) == game_digest(second)) == (first == second)


def test_a_game_without_a_clock_time_or_a_count_keeps_the_digest_it_always_had() -> None:
    """The records gained a deal's time and count for Game (issue 38); a game that has
    neither keeps its digest from before (databases and results files hold it), and a
    game that has one is another game."""
    from dataclasses import replace
    from pathlib import Path

    text = (Path(__file__).resolve().parents[2] / "samples" / "club-night.afn").read_text(
        encoding="utf-8")
    game = parse(text).games[0]
    assert game_digest(game) == \
        "986d5ff182906e38f054f5d0ecd2d3a922d6ba58e9bf04d4f0180166b46296a5"  # as before
    timed = replace(game, deals=(replace(game.deals[0], time="20:41"), *game.deals[1:]))
    assert game_digest(timed) != game_digest(game)
