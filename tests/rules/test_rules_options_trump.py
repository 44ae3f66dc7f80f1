"""Issue 10: the options about holding a trump and about following suit, a test per value:
``stand_requires_trump``, ``give_requires_trump``, ``follow_rule=must_follow`` and the two
readings of ``undertrump_exception``."""

from __future__ import annotations

from dataclasses import replace

import pytest

from allfours_notation.cards import Card, Seat, parse_card
from allfours_notation.referee import Options
from allfours_notation.referee.play import legal_cards
from allfours_notation.referee.profiles import (
    VALUE_SOURCES,
    FollowRule,
    UndertrumpException,
    option_choices,
)
from tests.rules.helpers import EXAMPLE_A, EXAMPLE_C, find, game_text, items, run


def without_hands(deal: str, *seats: str) -> str:
    """``deal`` with the hand lines of ``seats`` left out (a play-only record)."""
    def is_hand(line: str) -> bool:
        words = line.split()
        return len(words) > 2 and words[0] in seats and parse_card(words[1]) is not None

    return "\n".join(line for line in deal.splitlines() if not is_hand(line))


def cards(text: str) -> list[Card]:
    found = [parse_card(word) for word in text.split()]
    return [c for c in found if c is not None]


def card(text: str) -> Card:
    (found,) = cards(text)
    return found


def line_of(deal: str, words: str, tags: dict[str, str]) -> int:
    """The line of the record (as the helpers write it) that holds ``words``."""
    lines = game_text(deal, tags=tags).splitlines()
    return next(n for n, line in enumerate(lines, start=1) if words in line)


# --- stand_requires_trump: the elder without a trump must beg ------------------------------


@pytest.mark.parametrize(("value", "expected"), [("no", 0), ("yes", 1)])
def test_a_stand_without_a_trump(value: str, expected: int) -> None:
    # Example C: trumps are spades and S (elder) holds none, yet stands
    tags = {"StandRequiresTrump": value}
    result = run(EXAMPLE_C, tags=tags)
    problems = find(result, "AFN308")
    assert len(problems) == expected
    if expected:
        assert problems[0].line == line_of(EXAMPLE_C, "S stands", tags)
        assert "S stands without a trump" in problems[0].message
        assert "stand_requires_trump=yes" in problems[0].message
    assert items(result) == items(run(EXAMPLE_C))  # nothing else changes


def test_a_stand_with_a_trump_is_fine() -> None:
    assert not find(run(EXAMPLE_A, tags={"StandRequiresTrump": "yes"}), "AFN308")


def test_playing_without_a_call_is_standing() -> None:
    deal = EXAMPLE_C.replace("  S stands\n", "")
    problems = find(run(deal, tags={"StandRequiresTrump": "yes"}), "AFN308")
    assert len(problems) == 1 and "without a trump" in problems[0].message


def test_a_stand_without_a_trump_is_proven_by_the_play() -> None:
    deal = without_hands(EXAMPLE_C, "S", "N")
    tags = {"StandRequiresTrump": "yes"}
    problems = find(run(deal, tags=tags), "AFN308")
    assert len(problems) == 1
    assert "the play shows S held" in problems[0].message
    # positioned at the stand, though only the end of the play proved it
    assert problems[0].line == line_of(deal, "S stands", tags)


def test_an_unfinished_play_proves_nothing() -> None:
    deal = without_hands(EXAMPLE_C, "S", "N")
    deal = deal[: deal.index("  4.")] + "  abandoned\n"
    assert not find(run(deal, tags={"StandRequiresTrump": "yes"}), "AFN308")


# --- give_requires_trump: a dealer without a trump must run -------------------------------

GIFT_A = EXAMPLE_A.replace("  S stands\n", "  S begs\n  N gives\n")


@pytest.mark.parametrize(("value", "expected"), [("no", 0), ("yes", 1)])
def test_a_gift_without_a_trump(value: str, expected: int) -> None:
    # Example A with a beg: the dealer N holds no spade and gives
    tags = {"GiveRequiresTrump": value}
    result = run(GIFT_A, tags=tags)
    problems = find(result, "AFN309")
    assert len(problems) == expected
    if expected:
        assert "N gives without a trump" in problems[0].message
        assert problems[0].line == line_of(GIFT_A, "N gives", tags)
    # a gift the rules forbid scores nothing (issue 24), the deal is played on as recorded
    assert (("gift", "S", 1) in items(result)) is (value == "no")
    assert ("game", "S", 1) in items(result)


def test_a_gift_without_a_trump_is_proven_by_the_play() -> None:
    problems = find(run(without_hands(GIFT_A, "S", "N"), tags={"GiveRequiresTrump": "yes"}),
                    "AFN309")
    assert len(problems) == 1 and "the play shows N held" in problems[0].message


def test_a_stand_with_the_gift_rule_is_fine() -> None:
    assert not find(run(EXAMPLE_A, tags={"GiveRequiresTrump": "yes"}), "AFN309")


# --- follow_rule=must_follow: no trumping while holding the suit led -----------------------

# Example C's cards: N trumps the lead of KH with 7S while holding TH
TRUMPS_HOLDING_THE_SUIT = """
deal 1 dealer N
  S KH QH 9D 8C 4C 3D
  N 7S TH 5D 6C JD 2C
  turn AS
  S stands
  1. S:KH N:7S
  2. N:TH S:QH
  3. S:9D N:JD
  4. N:5D S:3D
  5. N:6C S:8C
  6. S:4C N:2C
"""


@pytest.mark.parametrize(("rule", "revokes"), [
    ("follow_or_trump", 0), ("follow_or_trump_no_undertrump", 0), ("must_follow", 1)])
def test_trumping_while_holding_the_suit_led(rule: str, revokes: int) -> None:
    result = run(TRUMPS_HOLDING_THE_SUIT, tags={"FollowRule": rule})
    problems = find(result, "AFN306")
    assert len(problems) == revokes
    assert [d.code for d in result.diagnostics] == ["AFN306"] * revokes  # nothing else
    if revokes:
        assert "trumping instead of following suit" in problems[0].message
        assert problems[0].hint and "docs/rules.md section 6.4" in problems[0].hint
        assert "held TH" in problems[0].message and problems[0].trick == 1
        assert ("penalty", "S", 1) in items(result)  # penalised like a revoke


def test_must_follow_is_proven_by_a_later_card_of_the_suit() -> None:
    deal = without_hands(TRUMPS_HOLDING_THE_SUIT, "N")
    problems = find(run(deal, tags={"FollowRule": "must_follow"}), "AFN306")
    assert len(problems) == 1
    assert "proved when N plays it in trick 2" in problems[0].message
    assert problems[0].trick == 1


def test_must_follow_legal_cards() -> None:
    options = replace(Options(), follow_rule=FollowRule.MUST_FOLLOW)
    trick = [(Seat.SOUTH, card("KH"))]
    spade_trumps = card("AS").suit
    assert legal_cards(cards("7S TH 5D"), trick, spade_trumps, options) == {card("TH")}
    # void in the suit led: anything, trump or not (no obligation to trump)
    assert legal_cards(cards("7S 5D"), trick, spade_trumps, options) == set(cards("7S 5D"))
    # the default allows the trump beside the suit
    assert legal_cards(cards("7S TH 5D"), trick, spade_trumps, Options()) == \
        set(cards("7S TH"))


# --- undertrump_exception: only_trumps · void_in_led_suit --------------------------------

# three players, spades trumps: E leads 5H, S trumps with KS, N plays the lower 2S
UNDERTRUMP = """
deal 1 dealer N
  E 5H 6H 7H 8H 9H TH
  S KS 3D 4D 5D 6D 7D
  N 2S 3C 4C 5C 6C {last}
  turn 4S
  E stands
  1. E:5H S:KS N:2S
  abandoned
"""
NO_UNDERTRUMP = {"FollowRule": "follow_or_trump_no_undertrump"}


@pytest.mark.parametrize(("last", "exception", "undertrumps"), [
    ("7C", "only_trumps", 1),  # N holds clubs: not down to trumps
    ("7C", "void_in_led_suit", 0),  # N is void in hearts: free to undertrump
    ("2H", "only_trumps", 1),
    ("2H", "void_in_led_suit", 1),  # N holds the suit led
])
def test_the_two_readings_of_the_undertrump_rule(last: str, exception: str,
                                                 undertrumps: int) -> None:
    result = run(UNDERTRUMP.format(last=last), players=3,
                 tags={**NO_UNDERTRUMP, "UndertrumpException": exception})
    problems = find(result, "AFN307")
    assert len(problems) == undertrumps
    if undertrumps and exception == "void_in_led_suit":
        assert "a card of the suit led" in problems[0].message
        assert problems[0].hint and "undertrump_exception=void_in_led_suit" in problems[0].hint


@pytest.mark.parametrize(("later", "exception", "undertrumps"), [
    ("3C", "only_trumps", 1),  # a club shows N was not down to trumps
    ("3C", "void_in_led_suit", 0),  # but not that N held a heart
    ("2H", "void_in_led_suit", 1),
])
def test_an_undertrump_proven_by_later_play(later: str, exception: str,
                                            undertrumps: int) -> None:
    deal = UNDERTRUMP.format(last="7C").replace("  N 2S 3C 4C 5C 6C 7C\n", "").replace(
        "  abandoned", f"  2. S:3D N:{later} E:6H\n  abandoned")
    result = run(deal, players=3, tags={**NO_UNDERTRUMP, "UndertrumpException": exception})
    problems = find(result, "AFN307")
    assert len(problems) == undertrumps
    if undertrumps:
        assert "proved when N plays it in trick 2" in problems[0].message


def test_undertrump_legal_cards_under_each_reading() -> None:
    spade = card("AS").suit
    trick = [(Seat.EAST, card("5H")), (Seat.SOUTH, card("KS"))]
    base = replace(Options(), follow_rule=FollowRule.NO_UNDERTRUMP)
    narrow = replace(base, undertrump_exception=UndertrumpException.VOID_IN_LED_SUIT)
    hand = cards("2S 3C")
    assert legal_cards(hand, trick, spade, base) == {card("3C")}
    assert legal_cards(hand, trick, spade, narrow) == set(hand)
    with_heart = cards("2S 3C 2H")
    assert legal_cards(with_heart, trick, spade, narrow) == {card("2H")}


# --- each new value has a source -----------------------------------------------------------


@pytest.mark.parametrize(("option", "value"), [
    ("stand_requires_trump", "yes"), ("give_requires_trump", "yes"),
    ("follow_rule", "must_follow"), ("undertrump_exception", "void_in_led_suit")])
def test_every_new_value_is_listed_with_its_source(option: str, value: str) -> None:
    assert value in option_choices(option)
    assert VALUE_SOURCES[(option, value)]


def test_the_defaults_come_first() -> None:
    assert option_choices("stand_requires_trump") == ("no", "yes")
    assert option_choices("undertrump_exception") == ("only_trumps", "void_in_led_suit")


def test_a_penalty_claimed_for_trumping_names_must_follow() -> None:
    # the table played must_follow but the record does not say so: the claim of S's
    # penalty point is right under follow_rule=must_follow
    result = run(TRUMPS_HOLDING_THE_SUIT + "  claim N high low S game S penalty\n")
    [dispute] = find(result, "AFN401")
    assert dispute.message == ("deal 1: Penalty claimed by S, computed nobody: no penalty is "
                               "due (the claim is right under follow_rule=must_follow)")
    assert [d.code for d in result.diagnostics] == ["AFN401"]
