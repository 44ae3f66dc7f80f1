"""Property tests: generated records → format → parse gives the records back, and
formatting is a fixed point."""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings

from allfours_notation.formatter import canonical_records, format_game, format_result
from allfours_notation.parser import ParseResult, parse
from allfours_notation.records import Game

from .strategies import games, results

SETTINGS = settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def _reparse(text: str) -> ParseResult:
    result = parse(text)
    assert not [d for d in result.diagnostics if d.code.startswith("AFN1") and d.is_error], text
    return result


@SETTINGS
@given(games())
def test_a_formatted_game_parses_back_to_the_same_records(game: Game) -> None:
    text = format_game(game)
    reread = _reparse(text)
    assert len(reread.games) == 1, text
    assert reread.games[0] == canonical_records(game), text


@SETTINGS
@given(games())
def test_formatting_a_game_is_a_fixed_point(game: Game) -> None:
    text = format_game(game)
    assert format_result(parse(text)) == "% AFN 1\n" + text


@SETTINGS
@given(results)
def test_a_formatted_file_keeps_every_game_and_the_comments_after_them(
    result: ParseResult,
) -> None:
    text = format_result(result)
    reread = _reparse(text)
    assert reread.games == tuple(canonical_records(game) for game in result.games), text
    assert reread.trailing == result.trailing
    assert format_result(reread) == text
