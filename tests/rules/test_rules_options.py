"""docs/rules.md sections 6 and 7: every option value, the profiles, and how a record names them."""

from __future__ import annotations

from dataclasses import fields, replace

import pytest

from allfours_notation.checking.parsing import parse
from allfours_notation.referee import PROFILES, Options, replay, resolve_options
from allfours_notation.referee.profiles import (
    DEFAULT_PROFILE,
    OPTION_NAMES,
    DealPattern,
    Direction,
    camel_case,
    option_choices,
    parse_option_value,
)
from tests.rules.helpers import (
    EXAMPLE_A,
    REVOKE_BY_S,
    S_TO_EIGHT,
    game_of,
    game_text,
    items,
    rules_codes,
    run,
)

ALL_VALUES = [(name, value) for name in OPTION_NAMES for value in option_choices(name)]
TABLE_OF_SECTION_5 = {
    "target": ("7", "10", "11", "14"),
    "players": ("2", "3", "4"),
    "direction": ("clockwise", "anticlockwise"),
    "game_tie": ("elder", "nobody", "eldest_of_tied"),
    "game_when_no_counters": ("as_game_tie", "elder", "nobody"),
    "game_value": ("1", "2"),
    "low_owner": ("original_holder", "trick_winner"),
    "jack_on_run": ("any_turned_jack", "only_if_trump", "never", "final_only"),
    "gift_at_target_minus_one": ("allowed", "forbidden"),
    "gift_recipients": ("beggar_only", "each_opponent"),
    "begs_per_deal": ("1", "unlimited"),
    "hand_after_run": ("keep_all", "discard_to_six", "keep_if_one_run"),
    "pack_exhausted": ("redeal_same_dealer", "redeal_next_dealer"),
    "keep_turnup_points_on_redeal": ("yes", "no"),
    "deal_pattern": ("3+3", "1"),
    "follow_rule": ("follow_or_trump", "follow_or_trump_no_undertrump", "must_follow"),
    "undertrump_exception": ("only_trumps", "void_in_led_suit"),
    "stand_requires_trump": ("no", "yes"),
    "give_requires_trump": ("no", "yes"),
    "turnup_points": ("jack1", "trinidad", "tobago", "none"),
    "hang_jack": ("off", "3"),
    "revoke_penalty": ("opponent_plus_1", "foster_graded", "opponent_plus_14", "game_lost",
                       "none"),
    "foster_cap": ("always", "jack_in_play"),
    "penalty_timing": ("after_game", "before_high"),
    "wrong_score_penalty": ("1", "4", "0"),
}


def test_every_option_of_section_5_with_its_values_default_first() -> None:
    for name, values in TABLE_OF_SECTION_5.items():
        assert option_choices(name) == values
        assert Options().describe(name) == values[0]


@pytest.mark.parametrize(("name", "value"), ALL_VALUES)
def test_each_value_is_set_by_its_tag(name: str, value: str) -> None:
    game = game_of("deal 1 dealer N\n  turn 4S\n  abandoned", tags={camel_case(name): value},
                   players=4 if name == "players" and value == "4" else 2)
    options, problems = resolve_options(game)
    if name == "players" and value != "2" and value != "4":
        assert [p.code for p in problems] == ["AFN504"]  # 3 players named, 2 sit
        return
    assert problems == []
    assert options.describe(name) == value


@pytest.mark.parametrize(("name", "value"), ALL_VALUES)
def test_each_value_is_set_from_the_command_line(name: str, value: str) -> None:
    game = game_of("deal 1 dealer N\n  turn 4S\n  abandoned")
    options, problems = resolve_options(game, overrides={name: value})
    assert options.describe(name) == value or name == "players"
    assert [p.code for p in problems] in ([], ["AFN504"])


def test_profiles_pin_every_option_with_a_source() -> None:
    assert DEFAULT_PROFILE == "hoffmann1909"
    assert set(PROFILES) == {"hoffmann1909", "english10", "foster", "trinidad14"}
    for profile in PROFILES.values():
        assert set(profile.sources) == {f.name for f in fields(Options)}
        assert all(profile.sources.values())


def test_profile_contents() -> None:
    base = PROFILES["hoffmann1909"].options
    assert base == Options()
    assert PROFILES["english10"].options.changes_from(base) == {
        "target": "10", "wrong_score_penalty": "4"}
    assert PROFILES["foster"].options.changes_from(base) == {
        "gift_at_target_minus_one": "forbidden", "gift_recipients": "each_opponent",
        "revoke_penalty": "foster_graded"}
    trinidad = PROFILES["trinidad14"].options
    assert (trinidad.target, trinidad.players, trinidad.direction) == (14, 4,
                                                                       Direction.ANTICLOCKWISE)
    assert trinidad.changes_from(base).keys() >= {"game_tie", "follow_rule", "turnup_points",
                                                 "hang_jack"}


def test_rules_tag_picks_the_profile_and_tags_override() -> None:
    game = game_of("deal 1 dealer N\n  turn 4S\n  abandoned", rules="english10",
                   tags={"Target": "11", "GameTie": "nobody"})
    options, problems = resolve_options(game)
    assert problems == []
    assert (options.target, options.wrong_score_penalty, options.game_tie.value) == (11, 4,
                                                                                    "nobody")
    cli, _ = resolve_options(game, profile="foster", overrides={"target": "14"})
    assert cli.target == 14 and cli.game_tie.value == "nobody"  # the tag still applies
    assert cli.revoke_penalty.value == "foster_graded"


def test_unknown_profile_option_and_value_list_the_valid_ones() -> None:
    text = game_text("deal 1 dealer N\n  turn 4S\n  abandoned", rules="hoyle",
                     tags={"Target": "100"})
    game = parse(text).games[0]
    options, problems = resolve_options(game)
    assert [p.code for p in problems] == ["AFN501", "AFN503"]
    assert "hoffmann1909, english10, foster, trinidad14" in problems[0].message
    assert "7, 10, 11, 14" in problems[1].message
    assert problems[1].line == text.splitlines().index('[Target "100"]') + 1
    assert options == Options()
    _, unknown = resolve_options(game, overrides={"colour": "red"})
    assert "AFN502" in [p.code for p in unknown]
    assert "game_tie" in next(p for p in unknown if p.code == "AFN502").message


def test_option_values_are_read_laxly() -> None:
    assert parse_option_value("deal_pattern", "3+3") is DealPattern.THREE_THREE
    assert parse_option_value("game_tie", "Nobody") is not None
    assert parse_option_value("low_owner", "trick-winner") is not None
    assert parse_option_value("target", "100") is None


# --- behaviour of the values not covered by the rule tests ------------------------------------


@pytest.mark.parametrize(("target", "winner"), [("7", "S"), ("10", None), ("11", None),
                                                 ("14", None)])
def test_target_values(target: str, winner: str | None) -> None:
    assert run(S_TO_EIGHT, tags={"Target": target}).winner == winner


@pytest.mark.parametrize(("direction", "elder"), [("clockwise", "E"), ("anticlockwise", "W")])
def test_direction_values(direction: str, elder: str) -> None:
    result = run("deal 1 dealer N\n  turn 4S\n  abandoned", players=4,
                 tags={"Direction": direction})
    assert result.steps[0].state.elder.letter == elder


@pytest.mark.parametrize("pattern", ["3+3", "1"])
def test_deal_pattern_does_not_change_the_replay(pattern: str) -> None:
    """The record does not say how the pack was dealt; both patterns replay the same."""
    result = run(EXAMPLE_A, tags={"DealPattern": pattern})
    assert rules_codes(result) == [] and dict(result.scores) == {"N": 0, "S": 4}


@pytest.mark.parametrize(("value", "expected"), [("off", ("jack", "S", 1)),
                                                 ("3", ("jack", "S", 1))])
def test_hang_jack_values_own_jack(value: str, expected: tuple[str, str, int]) -> None:
    """Winning one's own Jack is a plain Jack either way."""
    assert expected in items(run(EXAMPLE_A, tags={"HangJack": value}))


@pytest.mark.parametrize(("value", "first"), [("after_game", "high"), ("before_high", "penalty")])
def test_penalty_timing_values(value: str, first: str) -> None:
    assert items(run(REVOKE_BY_S, tags={"PenaltyTiming": value}))[0][0] == first


@pytest.mark.parametrize("value", ["redeal_same_dealer", "opponent_plus_1_and_pass"])
def test_misdeal_values(value: str) -> None:
    result = run("deal 1 dealer N\n  redeal misdeal", tags={"Misdeal": value})
    assert items(result) == ([] if value == "redeal_same_dealer" else [("penalty", "S", 1)])


def test_explicit_options_replace_the_records() -> None:
    game = game_of(EXAMPLE_A)
    assert dict(replay(game, replace(Options(), game_value=2)).scores) == {"N": 0, "S": 5}
