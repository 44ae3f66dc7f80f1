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
