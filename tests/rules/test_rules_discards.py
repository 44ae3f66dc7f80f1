"""Discards after a run (``hand_after_run=discard_to_six`` and ``keep_if_one_run``):
``S discards 3C 4C 5C`` parsed, formatted, exported, checked and shown as a step."""

from __future__ import annotations

import json

import pytest
from jsonschema import Draft202012Validator

from allfours_notation.cards import Card, Seat, parse_card
from allfours_notation.checking.parsing import parse
from allfours_notation.reading.records import Discard
from allfours_notation.referee import replay
from allfours_notation.writing.export import result_to_json
from allfours_notation.writing.formatter import format_game
from allfours_notation.writing.schema import schema
from tests.rules.helpers import find, game_of, game_text, items, run

DISCARD = {"HandAfterRun": "discard_to_six"}

# N deals, S begs, N runs: diamonds are trumps; each puts out three cards
RUN_AND_DISCARD = """
deal 1 dealer N
  S 9C 8C 7D 3H 2H 2D
  N JS 9H 8H 7C 6D 5D
  turn 4S
  S begs
  N runs
  S 3C 4C 5C
  N AH KH QH
  turn 8D
  S discards 3C 4C 5C
  N discards 9H 8H 7C
  1. S:2D N:5D
  2. N:AH S:2H
  3. N:KH S:3H
  4. N:QH S:7D
  5. S:9C N:JS
  6. S:8C N:6D
"""


def card(text: str) -> Card:
    found = parse_card(text)
    assert found is not None
    return found


def codes_of(deal: str, tags: dict[str, str] | None = None) -> list[str]:
    return [d.code for d in run(deal, tags=DISCARD if tags is None else tags).diagnostics]


# --- the notation ------------------------------------------------------------------------


def test_a_discard_is_read_with_its_seat_and_cards() -> None:
    game = game_of(RUN_AND_DISCARD, tags=DISCARD)
    discards = [e for e in game.deals[0].opening if isinstance(e, Discard)]
    assert [(d.seat, d.cards) for d in discards] == [
        (Seat.SOUTH, (card("3C"), card("4C"), card("5C"))),
        (Seat.NORTH, (card("9H"), card("8H"), card("7C")))]


def test_lax_input_and_unseen_cards_and_a_comment_inside() -> None:
    deal = RUN_AND_DISCARD.replace("S discards 3C 4C 5C", "s DISCARDS 3c { low } ?? 5♣")
    game = game_of(deal, tags=DISCARD)
    [first, _] = [e for e in game.deals[0].opening if isinstance(e, Discard)]
    assert first.cards == (card("3C"), None, card("5C"))
    text = format_game(game)
    assert "  S discards 3C ?? 5C\n" in text
    assert parse(text).games[0] == game  # the canonical form reads back the same records


def test_the_canonical_form() -> None:
    text = format_game(game_of(RUN_AND_DISCARD, tags=DISCARD))
    assert "  turn 8D\n  S discards 3C 4C 5C\n  N discards 9H 8H 7C\n  1. S:2D N:5D\n" in text
    assert format_game(parse(text).games[0]) == text


def test_the_export_names_the_discard_and_follows_the_schema() -> None:
    result = parse(game_text(RUN_AND_DISCARD, tags=DISCARD))
    exported = json.loads(json.dumps(result_to_json(result)))
    opening = exported["games"][0]["deals"][0]["opening"]
    assert {"type": "discard", "seat": "S", "cards": ["3C", "4C", "5C"]}.items() <= \
        opening[-2].items()
    assert not list(Draft202012Validator(schema()).iter_errors(exported))


# --- the referee -------------------------------------------------------------------------


def test_a_clean_deal_with_discards() -> None:
    result = run(RUN_AND_DISCARD, tags=DISCARD)
    assert [d.code for d in result.diagnostics] == []
    # six tricks, and only the cards kept are in play: 2D, kept by S, is Low
    assert ("low", "S", 1) in items(result)


def test_a_discarded_trump_is_not_in_play() -> None:
    # S puts out 2D instead of 3C: the lowest trump in play is now N's 5D
    deal = RUN_AND_DISCARD.replace("S discards 3C 4C 5C", "S discards 2D 4C 5C").replace(
        "1. S:2D N:5D", "1. S:3C N:5D").replace("4. N:QH S:7D", "4. N:QH S:7D")
    result = run(deal, tags=DISCARD)
    assert not [d for d in result.diagnostics if d.is_error]
    assert ("low", "N", 1) in items(result)


@pytest.mark.parametrize(("written", "message"), [
    ("S discards 3C 4C 9H", "S discards 9H, but 9H was dealt to N"),
    ("S discards 3C 4C 4S", "S discards 4S, but 4S is the turn-up"),
    ("S discards 3C 4C", "S discards 2 cards, but after 1 run each player holds 9 and puts "
     "out 3 (back to six)"),
    ("S discards 3C 4C 5C 9C", "S discards 4 cards"),
])
def test_a_discard_that_cannot_be(written: str, message: str) -> None:
    result = run(RUN_AND_DISCARD.replace("S discards 3C 4C 5C", written), tags=DISCARD)
    problems = find(result, "AFN317")
    assert problems and problems[0].message.startswith(message)
    assert problems[0].line is not None


def test_a_discarded_card_played_later() -> None:
    deal = RUN_AND_DISCARD.replace("6. S:8C N:6D", "6. S:3C N:6D")
    [problem] = find(run(deal, tags=DISCARD), "AFN301")
    assert problem.message == "S plays 3C, but S discarded 3C after the run"
    assert problem.trick == 6


def test_missing_discards_when_the_hands_are_known() -> None:
    deal = RUN_AND_DISCARD.replace("  N discards 9H 8H 7C\n", "")
    result = run(deal, tags=DISCARD)
    [problem] = find(result, "AFN317")
    assert problem.severity.value == "warning"
    assert "N's hand after the run is known (9 cards) but its discards are not written" in \
        problem.message
    assert not [d for d in result.diagnostics if d.is_error]  # the play shows the six kept


def test_no_discards_and_no_hands_is_silent() -> None:
    def written_cards(line: str) -> bool:
        words = line.split()
        return "discards" in words or (len(words) > 1 and words[0] != "turn"
                                       and parse_card(words[1]) is not None)

    deal = "\n".join(line for line in RUN_AND_DISCARD.splitlines() if not written_cards(line))
    assert codes_of(deal) == []


@pytest.mark.parametrize(("rule", "expected"), [
    ("keep_all", ["AFN317", "AFN317"]),  # every card is kept: no discards, nine tricks due
    ("keep_if_one_run", ["AFN317", "AFN317"]),  # one run: every card kept
    ("discard_to_six", []),
])
def test_discards_the_rules_do_not_call_for(rule: str, expected: list[str]) -> None:
    codes = codes_of(RUN_AND_DISCARD, {"HandAfterRun": rule})
    assert [c for c in codes if c == "AFN317"] == expected


TWO_RUNS = """
deal 1 dealer N
  S 9C 8C 7D 3H 2H 2D
  N JS 9H 8H 7C 6D 5D
  turn 4S
  S begs
  N runs
  S 3C 4C 5C
  N AH KH QH
  turn 8S
  S 6C TC KC
  N AC 6H 7H
  turn 8D
  S discards 3C 4C 5C 6C TC KC
  N discards 9H 8H 7C AC 6H 7H
  1. S:2D N:5D
  2. N:AH S:2H
  3. N:KH S:3H
  4. N:QH S:7D
  5. S:9C N:JS
  6. S:8C N:6D
"""


def test_keep_if_one_run_discards_after_two_runs() -> None:
    assert codes_of(TWO_RUNS, {"HandAfterRun": "keep_if_one_run"}) == []
    assert codes_of(TWO_RUNS, {"HandAfterRun": "discard_to_six"}) == []


def test_a_revoke_is_judged_on_the_hand_kept() -> None:
    # S plays 9C on AH led while keeping 3H and 2H: the hand kept is known at once
    deal = RUN_AND_DISCARD.replace(
        "2. N:AH S:2H\n  3. N:KH S:3H\n  4. N:QH S:7D\n  5. S:9C N:JS",
        "2. N:AH S:9C\n  3. N:KH S:3H\n  4. N:QH S:7D\n  5. S:2H N:JS")
    [revoke] = find(run(deal, tags=DISCARD), "AFN306")
    assert revoke.trick == 2 and "held 3H (hand as dealt)" in revoke.message


# --- the viewer's steps ------------------------------------------------------------------


def test_each_discard_is_a_step_with_the_hand_after_it() -> None:
    replayed = replay(game_of(RUN_AND_DISCARD, tags=DISCARD))
    step = next(s for s in replayed.steps if s.text == "S discards 3C 4C 5C")
    hands = dict(step.state.hands)
    assert sorted(map(str, hands[Seat.SOUTH])) == sorted(["9C", "8C", "7D", "3H", "2H", "2D"])


# four players, W deals, N begs, W runs twice: every turn-up is a heart and the pack is
# exhausted (a bunch); every hand is written, 12 cards each
BUNCH = """
deal 1 dealer W
  N 8S TS JC 6H 5C 3H
  E JD QC 2D 3C AS 2H
  S 5D QH 8C TD 6D 2S
  W AD 7C 4C JH KS 2C
  turn 5H
  N begs
  W runs
  N 9C 9S 9D
  E 7S QD 6C
  S JS 7D 3D
  W 3S 4S 4D
  turn KH
  N 5S QS AH
  E 6S 8H KD
  S TC KC 8D
  W AC 4H 7H
  turn 9H
  redeal exhausted
"""


@pytest.mark.parametrize("rule", ["discard_to_six", "keep_if_one_run"])
def test_a_bunch_asks_for_no_discards(rule: str) -> None:
    # the cards are dealt again: nobody plays, so nobody discards (before: AFN317
    # "discards are not written" for each of the four seats)
    assert not run(BUNCH, players=4, tags={"HandAfterRun": rule}).diagnostics
    # without 'redeal exhausted' the exhausted pack is the finding, not the discards
    stopped = run(BUNCH.replace("  redeal exhausted\n", ""), players=4,
                  tags={"HandAfterRun": rule})
    assert find(stopped, "AFN311") and not find(stopped, "AFN317")
