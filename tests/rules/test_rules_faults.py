"""Issue 10 item 5: four scoring faults found by a differential scorer, pinned."""

from __future__ import annotations

from allfours_notation.checking.parsing import parse
from allfours_notation.referee import GameReplay, replay
from tests.rules.helpers import EXAMPLE_A, REVOKE_BY_S, game_text, items, rules_codes, run

# --- a card played twice (a recording slip) is never evidence -------------------------------

# Example A with N's JS-capturing trick replayed: S leads JS in trick 1 (S wins it),
# and in trick 4 N "plays" JS again (a slip) and wins that trick with it.
JACK_TWICE = """
deal 1 dealer N
  turn 4S
  S stands
  1. S:JS N:2D
  2. S:9H N:3H
  3. S:8H N:2H
  4. S:7C N:JS
  5. N:9C S:5D
  6. N:7D S:6D
"""


def test_a_card_twice_does_not_capture_a_second_time() -> None:
    result = run_unchecked(JACK_TWICE)
    jack = [(item, side) for item, side, _ in items(result) if item == "jack"]
    assert jack == [("jack", "S")]  # the trick that first took it keeps it


def test_a_card_twice_is_not_checked_for_following_suit() -> None:
    # N's second JS is on a club led while N (play-only) may hold clubs: no revoke named.
    result = run_unchecked(JACK_TWICE)
    assert "AFN306" not in rules_codes(result)


# Play-only: S revokes in trick 2 (a club on hearts led, S's hand unseen); the only heart
# S plays later is 5H, which was already played in trick 1 (a slip): not a proof.
SLIP_AS_PROOF = """
deal 1 dealer N
  turn 4S
  S stands
  1. S:5H N:2H
  2. S:3H N:8C
  3. S:KD N:7D
  4. N:5H S:2D
  5. S:9D N:TD
  6. N:4C S:3C
"""


def test_a_card_twice_does_not_prove_a_revoke_in_a_play_only_record() -> None:
    honest = SLIP_AS_PROOF.replace("4. N:5H S:2D", "4. N:6H S:2D")
    assert "AFN306" not in rules_codes(run_unchecked(SLIP_AS_PROOF))
    # the same record where N then plays a heart it really holds: the revoke is proven
    assert "AFN306" in rules_codes(run_unchecked(honest))


def run_unchecked(deals: str) -> GameReplay:
    """The record replayed even though the parser reports the card twice (AFN201)."""
    return replay(parse(game_text(deals)).games[0])


# --- game_lost gives what the adversary needs at the moment it is counted --------------------


def test_game_lost_never_passes_the_target() -> None:
    # N scores High and Low (the only trump 7S) and Game first; the penalty then gives
    # N exactly what it still needs.
    result = run(REVOKE_BY_S, tags={"RevokePenalty": "game_lost"})
    assert dict(result.scores)["N"] == 7
    before = sum(p for item, side, p in items(result) if side == "N" and item != "penalty")
    assert items(result)[-1] == ("penalty", "N", 7 - before)


def test_game_lost_from_a_starting_score() -> None:
    result = run(REVOKE_BY_S, tags={"RevokePenalty": "game_lost", "Score": "N 3"})
    assert dict(result.scores)["N"] == 7 and result.winner == "N"


# --- a declared wrong score is counted after the hand, whatever penalty_timing says ----------


def test_wrong_score_is_counted_last_even_before_high() -> None:
    result = run(EXAMPLE_A + "  penalty N wrongscore\n", tags={"PenaltyTiming": "before_high"})
    assert items(result)[-1] == ("penalty", "S", 1)
    assert items(result)[0][0] == "high"


def test_before_high_still_places_a_revoke_first_and_the_wrong_score_last() -> None:
    result = run(REVOKE_BY_S + "  penalty S wrongscore\n",
                 tags={"PenaltyTiming": "before_high"})
    kinds = items(result)
    assert kinds[0] == ("penalty", "N", 1) and kinds[-1] == ("penalty", "N", 1)
    assert [k for k, _, _ in kinds[1:-1]] and "penalty" not in [k for k, _, _ in kinds[1:-1]]


# --- three players: gifts to each adversary in table order from the elder --------------------

GIFT_BY_E = """
deal 1 dealer E
  turn 4S
  S begs
  E gives
  abandoned
"""


def test_three_player_gifts_are_counted_from_the_elder() -> None:
    result = run(GIFT_BY_E, players=3, tags={"GiftRecipients": "each_opponent"})
    assert [(item, side) for item, side, _ in items(result)] == [("gift", "S"), ("gift", "N")]


def test_the_elders_gift_decides_a_race_at_target_minus_one() -> None:
    result = run(GIFT_BY_E, players=3,
                 tags={"GiftRecipients": "each_opponent", "Score": "N 6 S 6"})
    assert result.winner == "S"
