"""Issue 10 item 3: the options tables play, a test for each value."""

from __future__ import annotations

from dataclasses import replace

import pytest

from allfours_notation.generate import generate_games
from allfours_notation.reading.records import RedealReason
from allfours_notation.referee import PROFILES, replay
from allfours_notation.referee.profiles import (
    OPTION_NAMES,
    VALUE_SOURCES,
    GameTie,
    HandAfterRun,
    JackOnRun,
    option_choices,
    parse_option_value,
)
from tests.rules.helpers import EXAMPLE_A, REVOKE_BY_S, TIE, find, items, run

# --- target: any whole number from 1 to 99 ---------------------------------------------------


@pytest.mark.parametrize("target", [1, 3, 5, 15, 21, 99])
def test_any_target_from_1_to_99(target: int) -> None:
    assert parse_option_value("target", str(target)) == target
    result = run(EXAMPLE_A, tags={"Target": str(target)})
    assert not find(result, "AFN503")
    assert result.options.target == target
    # Example A scores S four points: a target up to four is reached in this deal
    assert (result.winner == "S") is (target <= 4)


@pytest.mark.parametrize("text", ["0", "100", "-3", "seven"])
def test_a_target_outside_1_to_99_is_afn503(text: str) -> None:
    problems = find(run(EXAMPLE_A, tags={"Target": text}), "AFN503")
    assert len(problems) == 1
    assert "any whole number from 1 to 99" in problems[0].message


# --- the turn-up: jack_on_run=final_only, turnup_points=none ---------------------------------

JACK_THEN_RUN = """
deal 1 dealer N
  turn JS
  S begs
  N runs
  turn 4H
  abandoned
"""
JACK_STANDS = """
deal 1 dealer N
  turn JS
  S stands
  abandoned
"""
RUN_TURNS_JACK = """
deal 1 dealer N
  turn 4S
  S begs
  N runs
  turn JH
  abandoned
"""
RUN_TURNS_JACK_OF_THE_SUIT = """
deal 1 dealer N
  turn 4S
  S begs
  N runs
  turn JS
  turn 5H
  abandoned
"""


@pytest.mark.parametrize(
    ("deal", "any_turned", "final_only"),
    [
        (JACK_THEN_RUN, [("kick", "N", 1)], []),
        (JACK_STANDS, [("kick", "N", 1)], [("kick", "N", 1)]),
        (RUN_TURNS_JACK, [("kick", "N", 1)], [("kick", "N", 1)]),
        (RUN_TURNS_JACK_OF_THE_SUIT, [("kick", "N", 1)], []),
    ],
)
def test_jack_on_run_final_only_scores_only_the_turn_up_that_makes_trumps(
        deal: str, any_turned: list[tuple[str, str, int]],
        final_only: list[tuple[str, str, int]]) -> None:
    assert items(run(deal)) == any_turned
    assert items(run(deal, tags={"JackOnRun": "final_only"})) == final_only


def test_final_only_scores_the_first_jack_when_play_follows_with_no_call() -> None:
    no_call = EXAMPLE_A.replace("turn 4S\n  S stands\n", "turn JC\n")
    assert items(run(no_call, tags={"JackOnRun": "final_only"}))[0] == ("kick", "N", 1)


def test_final_only_waits_for_the_stand_before_counting_the_kick() -> None:
    # N at 6: the kick decides the game, but only once S stands (not at the turn-up)
    result = run(JACK_STANDS, tags={"JackOnRun": "final_only", "Score": "N 6"})
    assert result.winner == "N"


@pytest.mark.parametrize(("profile", "players", "elder"),
                         [("hoffmann1909", 2, "S"), ("trinidad14", 4, "W")])
def test_turnup_points_none_scores_no_turn_up(profile: str, players: int, elder: str) -> None:
    deal = JACK_STANDS.replace("S stands", f"{elder} stands")
    kicked = run(deal, players=players, rules=profile)
    assert items(kicked)[0][0] == "kick" and not find(kicked, "AFN308")
    assert items(run(deal, players=players, rules=profile,
                     tags={"TurnupPoints": "none"})) == []


# --- Game: game_when_no_counters, game_tie=eldest_of_tied ------------------------------------

NO_COUNTERS = """
deal 1 dealer N
  S 2H 3H 4H 5H 6H 7H
  N 2C 3C 4C 5C 6C 7C
  turn 8D
  S stands
  1. S:2H N:2C
  2. S:3H N:3C
  3. S:4H N:4C
  4. S:5H N:5C
  5. S:6H N:6C
  6. S:7H N:7C
"""


@pytest.mark.parametrize(
    ("tags", "game"),
    [
        ({}, [("game", "S", 1)]),
        ({"GameWhenNoCounters": "as_game_tie", "GameTie": "nobody"}, []),
        ({"GameWhenNoCounters": "nobody"}, []),
        ({"GameWhenNoCounters": "elder", "GameTie": "nobody"}, [("game", "S", 1)]),
    ],
)
def test_game_when_no_counting_card_is_won(tags: dict[str, str],
                                           game: list[tuple[str, str, int]]) -> None:
    assert [i for i in items(run(NO_COUNTERS, tags=tags)) if i[0] == "game"] == game


def test_game_when_no_counters_leaves_a_tie_to_game_tie() -> None:
    tie = run(TIE, tags={"GameWhenNoCounters": "nobody"})
    assert ("game", "S", 1) in items(tie)


# Three players, dealer S, elder N.  Pips: N 0, E 10 (TH), S 10 (TD).
THREE_WAY = """
deal 1 dealer S
  N 2H 3H 4H 7H 8H 9H
  E TH 2S 3S 4S 5S 2D
  S TD 6S 7S 8S 9S 3D
  turn 9C
  N stands
  1. N:2H E:TH S:6S
  2. E:2D S:TD N:3H
  3. S:7S N:4H E:2S
  4. S:8S N:7H E:3S
  5. S:9S N:8H E:4S
  6. S:3D N:9H E:5S
"""


def test_three_players_default_to_eldest_of_tied() -> None:
    result = run(THREE_WAY, players=3)
    assert result.options.game_tie is GameTie.ELDEST_OF_TIED
    game = [i for i in items(result) if i[0] == "game"]
    assert game == [("game", "E", 1)]  # not N, who took no pips
    assert not find(result, "AFN306")


def test_an_explicit_game_tie_elder_keeps_hoffmanns_literal_reading() -> None:
    result = run(THREE_WAY, players=3, tags={"GameTie": "elder"})
    assert [i for i in items(result) if i[0] == "game"] == [("game", "N", 1)]


def test_eldest_of_tied_is_the_elder_when_the_elder_is_tied() -> None:
    result = run(TIE, tags={"GameTie": "eldest_of_tied"})
    assert ("game", "S", 1) in items(result)


def test_two_and_four_players_keep_the_profiles_game_tie() -> None:
    assert run(EXAMPLE_A).options.game_tie is GameTie.ELDER
    four = "deal 1 dealer N\n  turn 4S\n  E stands\n  abandoned\n"
    assert run(four, players=4, rules="trinidad14").options.game_tie is GameTie.NOBODY


# --- penalties: revoke_penalty=none, foster_cap, wrong_score_penalty=0 ------------------------


def test_revoke_penalty_none_reports_the_revoke_and_scores_nothing() -> None:
    result = run(REVOKE_BY_S, tags={"RevokePenalty": "none"})
    assert find(result, "AFN306")
    assert "penalty" not in [i for i, _, _ in items(result)]


# Hearts trumps, the Jack of hearts not in play; S (High with 9H) revokes in trick 4.
S_REVOKES_NO_JACK = """
deal 1 dealer N
  S JS 9H 8H 7C 6D 5D
  N 9C 8C 7D 3H 2H 2D
  turn 4H
  S stands
  1. S:9H N:2H
  2. S:8H N:3H
  3. S:6D N:7D
  4. N:2D S:7C
  5. N:9C S:JS
  6. N:8C S:5D
"""


@pytest.mark.parametrize(("cap", "winner"), [("always", None), ("jack_in_play", "S")])
def test_foster_cap(cap: str, winner: str | None) -> None:
    result = run(S_REVOKES_NO_JACK, rules="foster", tags={"FosterCap": cap, "Score": "S 6"})
    assert find(result, "AFN306")
    assert result.winner == winner
    assert dict(result.scores)["S"] == (6 if winner is None else 7)


@pytest.mark.parametrize(("value", "penalty"), [("1", [("penalty", "S", 1)]),
                                                ("4", [("penalty", "S", 4)]), ("0", [])])
def test_wrong_score_penalty(value: str, penalty: list[tuple[str, str, int]]) -> None:
    result = run(EXAMPLE_A + "  penalty N wrongscore\n", tags={"WrongScorePenalty": value})
    assert [i for i in items(result) if i[0] == "penalty"] == penalty


# --- hand_after_run=keep_if_one_run -----------------------------------------------------------


@pytest.mark.parametrize("players", [2, 3, 4])
def test_keep_if_one_run_keeps_after_one_run_and_discards_after_two(players: int) -> None:
    options = replace(PROFILES["hoffmann1909"].options,
                      hand_after_run=HandAfterRun.KEEP_IF_ONE_RUN)
    seen: set[tuple[int, int]] = set()
    for game in generate_games(10, 40, players=players, options=options):
        result = replay(game)
        assert not [d for d in result.diagnostics if d.is_error], game.index
        for deal in game.deals:
            if deal.ending is not None and getattr(deal.ending, "reason", None) is \
                    RedealReason.EXHAUSTED:
                continue
            runs = sum(1 for e in deal.opening if type(e).__name__ == "TurnUp") - 1
            if deal.tricks and len(deal.tricks) in (6, 9):
                seen.add((min(runs, 2), len(deal.tricks)))
    assert (0, 6) in seen and (1, 9) in seen
    assert all(tricks == (9 if runs == 1 else 6) for runs, tricks in seen)


# --- every new value is listed with its source ------------------------------------------------


def test_every_new_value_is_an_allowed_value_with_a_source() -> None:
    for (option, value), source in VALUE_SOURCES.items():
        assert option in OPTION_NAMES and source
        if value != "any":
            assert value in option_choices(option), (option, value)
    assert JackOnRun.FINAL_ONLY.value == "final_only"
