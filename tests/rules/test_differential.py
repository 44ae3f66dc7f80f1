"""Issue 10 item 6: the referee against a second, simple scorer (a fast sample).

The full run (more than 5,000 games) is ``python -m bench.differential``.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import pytest

from allfours_notation.generate import Knobs, generate_games, profile_options
from allfours_notation.referee import Options, replay
from allfours_notation.referee.profiles import OPTION_NAMES, FollowRule, YesNo
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


def wrong_offences(options: Options, option: str, wrong: str) -> list[str]:
    """The disagreements about offences when the simple scorer is told ``option=wrong``."""
    told = option_texts(options)
    told[option] = wrong
    games = generate_games(11, 12, options=options, knobs=Knobs(offences=0.2, bad_calls=1.0))
    return [problem for game in games
            for problem in compare(game, told, replay(game, record_states=False))
            if problem.startswith("offences")]


@pytest.mark.parametrize(("change", "option", "wrong"), [
    ({"follow_rule": FollowRule.MUST_FOLLOW}, "follow_rule", "follow_or_trump"),
    ({"stand_requires_trump": YesNo.YES}, "stand_requires_trump", "no"),
    ({"give_requires_trump": YesNo.YES}, "give_requires_trump", "no"),
    ({"follow_rule": FollowRule.NO_UNDERTRUMP, "players": 4}, "undertrump_exception",
     "void_in_led_suit"),
])
def test_the_comparison_sees_a_wrong_reading_of_an_offence(
        change: dict[str, Any], option: str, wrong: str) -> None:
    options = replace(profile_options("hoffmann1909", change.get("players", 2)), **change)
    assert wrong_offences(options, option, wrong)
    assert not wrong_offences(options, option, options.describe(option))
