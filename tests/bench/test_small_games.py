"""bench.small_games times the games ``check`` would referee, of the shapes it names."""

from __future__ import annotations

from bench.small_games import check_rules, refereed
from fuzz.shapes import tiny_games, varied_small_games


def test_the_varied_games_are_small_games_of_every_kind_and_all_refereed() -> None:
    text = varied_small_games(4_000, seed=7)
    assert text == varied_small_games(4_000, seed=7)  # the same games every run
    games = refereed(text, 10_000)
    assert len(games) == text.count("\nend\n")
    turned = sum(1 for game in games if game.deals[0].turnups)
    stood = sum(1 for game in games if game.deals[0].calls)
    assert 0 < stood < turned < len(games)
    assert len({(game.deals[0].number, game.deals[0].dealer) for game in games}) > 20
    check_rules(games)


def test_the_tiny_games_are_taken_up_to_the_limit() -> None:
    games = refereed(tiny_games(2_000), 25)
    assert len(games) == 25
    assert all(len(game.deals) == 1 and not game.tags for game in games)
