"""Issue 10 item 6: the referee against a second, simple scorer (a fast sample).

The full run (more than 5,000 games) is ``python -m bench.differential``.
"""

from __future__ import annotations

from dataclasses import replace

from allfours_notation.generate import generate_games, profile_options
from allfours_notation.rules import replay
from allfours_notation.rules.profiles import OPTION_NAMES
from tests.rules.differential import compare, option_texts, run_differential, variants


def test_the_referee_and_the_simple_scorer_agree_on_a_sample() -> None:
    result = run_differential(1, seed=3, every=5)
    assert result.games >= 90 and result.deals > result.games
    assert result.disagreements == ()


def test_every_profile_player_count_and_option_value_is_a_variant() -> None:
    labels = [label for label, _ in variants(profile_options)]
    assert len(labels) == len(set(labels)) > 400
    for name in OPTION_NAMES:
        if name != "players":
            assert any(f" {name}=" in label for label in labels), name
    for profile in ("hoffmann1909", "english10", "foster", "trinidad14"):
        for players in (2, 3, 4):
            assert f"{profile}/{players}" in labels


def test_the_comparison_sees_a_wrong_rule() -> None:
    # the simple scorer told the wrong Low rule disagrees with the referee somewhere
    options = profile_options("hoffmann1909", 2)
    wrong = option_texts(replace(options))
    wrong["low_owner"] = "trick_winner"
    found = [problem for game in generate_games(7, 15, options=options)
             for problem in compare(game, wrong, replay(game, record_states=False))]
    assert found and any("low" in problem for problem in found)
