"""The order of the pack: ``pack`` and the 52 cards top first, from which the hands, the
turn-up and each run's cards follow by ``deal_pattern`` (3+3 or one at a time)."""

from __future__ import annotations

import json

import pytest
from jsonschema import Draft202012Validator

from allfours_notation.cards import FULL_PACK, Card, Seat, parse_card
from allfours_notation.checking.parsing import parse
from allfours_notation.reading.records import Pack
from allfours_notation.referee import replay
from allfours_notation.writing.export import result_to_json
from allfours_notation.writing.formatter import format_game
from allfours_notation.writing.schema import schema
from tests.rules.helpers import EXAMPLE_A, find, game_of, game_text, run


def cards(text: str) -> list[Card]:
    found = [parse_card(word) for word in text.split()]
    return [c for c in found if c is not None]


# Example A's deal as a pack: N deals, S (elder) gets cards 1-3 and 7-9, N 4-6 and 10-12,
# the 13th is turned up
S_HAND, N_HAND = cards("JS 9H 8H 7C 6D 5D"), cards("9C 8C 7D 3H 2H 2D")
TOP = [*S_HAND[:3], *N_HAND[:3], *S_HAND[3:], *N_HAND[3:], *cards("4S")]
PACK = [*TOP, *(c for c in FULL_PACK if c not in TOP)]
PACK_TEXT = " ".join(map(str, PACK))
PLAY = EXAMPLE_A[EXAMPLE_A.index("  1. "):]  # Example A's tricks, as written there
EXAMPLE_A_PACK = f"deal 1 dealer N\n  pack {PACK_TEXT}\n  turn 4S\n  S stands\n" + PLAY


def held(deal: str, **tags: str) -> dict[Seat, list[Card]]:
    replayed = replay(game_of(deal, tags=tags))
    return {seat: sorted(c, key=str) for seat, c in replayed.deals[0].held}


def test_the_pack_is_read_top_first() -> None:
    game = game_of(EXAMPLE_A_PACK)
    [pack] = [e for e in game.deals[0].opening if isinstance(e, Pack)]
    assert list(pack.cards) == PACK


def test_the_hands_follow_from_the_pack_and_the_deal_checks_clean() -> None:
    result = run(EXAMPLE_A_PACK + "  claim S high low jack game\n")
    assert [d.code for d in result.diagnostics] == []
    assert {seat: sorted(c, key=str) for seat, c in result.deals[0].held} == {
        Seat.SOUTH: sorted(S_HAND, key=str), Seat.NORTH: sorted(N_HAND, key=str)}


@pytest.mark.parametrize(("pattern", "south"), [
    ("3+3", [0, 1, 2, 6, 7, 8]),  # three at a time, S first
    ("1", [0, 2, 4, 6, 8, 10]),  # one at a time
])
def test_deal_pattern_takes_effect(pattern: str, south: list[int]) -> None:
    deal = f"deal 1 dealer N\n  pack {PACK_TEXT}\n  turn 4S\n  abandoned\n"
    hands = held(deal, DealPattern=pattern)
    assert hands[Seat.SOUTH] == sorted((PACK[i] for i in south), key=str)
    assert len(hands[Seat.NORTH]) == 6 and not set(hands[Seat.NORTH]) & set(hands[Seat.SOUTH])


def test_under_the_other_pattern_the_play_does_not_fit() -> None:
    result = run(EXAMPLE_A_PACK, tags={"DealPattern": "1"})
    assert find(result, "AFN301") or find(result, "AFN221") or find(result, "AFN225")


def test_a_run_deals_from_the_pack() -> None:
    # S begs, N runs: three more each (S 14-16, N 17-19), the 20th is turned up
    run_cards = PACK[13:19]
    deal = (f"deal 1 dealer N\n  pack {PACK_TEXT}\n  turn 4S\n  S begs\n  N runs\n"
            f"  turn {PACK[19]}\n  abandoned\n")
    hands = held(deal)
    assert set(run_cards[:3]) <= set(hands[Seat.SOUTH])
    assert set(run_cards[3:]) <= set(hands[Seat.NORTH])
    assert len(hands[Seat.SOUTH]) == 9


def test_a_written_hand_that_the_pack_contradicts() -> None:
    deal = EXAMPLE_A_PACK.replace("  turn 4S", "  S JS 9H 8H 7C 6D 2D\n  turn 4S")
    [problem] = find(run(deal), "AFN318")
    assert problem.message == "S's hand has 2D, but in the pack written 2D goes to N as dealt"


def test_a_turn_up_that_the_pack_contradicts() -> None:
    deal = f"deal 1 dealer N\n  pack {PACK_TEXT}\n  turn 5S\n  abandoned\n"
    [problem] = find(run(deal), "AFN318")
    assert problem.message == ("5S is turned up, but the pack written turns up 4S here "
                               "(card 13 of 52)")


@pytest.mark.parametrize(("pack", "message"), [
    (" ".join(map(str, PACK[:51])), "the pack has 51 cards: write all 52"),
    (" ".join(map(str, [*PACK[:51], PACK[0]])), "the pack has JS twice"),
])
def test_a_pack_that_cannot_be(pack: str, message: str) -> None:
    deal = f"deal 1 dealer N\n  pack {pack}\n  turn 4S\n  abandoned\n"
    [problem] = find(run(deal), "AFN318")
    assert problem.message.startswith(message)


def test_the_pack_comes_first() -> None:
    deal = f"deal 1 dealer N\n  turn 4S\n  pack {PACK_TEXT}\n  abandoned\n"
    [problem] = find(run(deal), "AFN318")
    assert "after the turn-up" in problem.message


def test_unseen_cards_in_the_pack() -> None:
    unseen = " ".join("??" if i in (0, 3) else str(c) for i, c in enumerate(PACK))
    deal = f"deal 1 dealer N\n  pack {unseen}\n  turn 4S\n  S stands\n" + PLAY
    result = run(deal)
    assert not [d for d in result.diagnostics if d.is_error]
    assert sorted(dict(result.deals[0].held)[Seat.SOUTH], key=str) == sorted(S_HAND, key=str)


def test_the_canonical_form_and_the_export() -> None:
    game = game_of(EXAMPLE_A_PACK.replace("pack ", "PACK { shuffled twice } ", 1))
    text = format_game(game)
    rows = [PACK[i:i + 13] for i in range(0, 52, 13)]
    expected = "  pack " + "\n       ".join(" ".join(map(str, row)) for row in rows) + "\n"
    assert expected in text
    assert parse(text).games[0] == game
    exported = result_to_json(parse(game_text(EXAMPLE_A_PACK)))
    opening = exported["games"][0]["deals"][0]["opening"]
    assert opening[0]["type"] == "pack" and len(opening[0]["cards"]) == 52
    assert not list(Draft202012Validator(schema()).iter_errors(json.loads(json.dumps(exported))))


@pytest.mark.parametrize("players", [2, 3, 4])
@pytest.mark.parametrize("pattern", ["3+3", "1"])
def test_generated_games_written_as_packs_check_clean_and_format_back(players: int,
                                                                     pattern: str) -> None:
    from dataclasses import replace

    from allfours_notation.generate import Knobs, generate_games, profile_options
    from allfours_notation.referee import check_game
    from allfours_notation.referee.profiles import DealPattern, HandAfterRun

    options = replace(profile_options("hoffmann1909", players),
                      deal_pattern=DealPattern(pattern),
                      hand_after_run=HandAfterRun.DISCARD_TO_SIX)
    knobs = Knobs(pack=1.0, discards=1.0, beg=0.6, gift=0.3)
    for game in generate_games(players * 7, 2, options=options, knobs=knobs):
        assert any(isinstance(e, Pack) for d in game.deals for e in d.opening)
        text = format_game(game)
        again = parse(text).games[0]
        assert format_game(again) == text
        assert [d.headline() for d in check_game(again)] == []
