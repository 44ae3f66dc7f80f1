"""Results-only deals (``scored N kick W high low``, NOTATION.md §4.8): read, formatted,
exported, and checked by the referee as far as results alone allow."""

from __future__ import annotations

import json

import pytest
from jsonschema import Draft202012Validator

from allfours_notation.checking.parsing import parse
from allfours_notation.reading.records import Award, ClaimItem
from allfours_notation.referee import replay
from allfours_notation.writing.export import result_to_json
from allfours_notation.writing.formatter import format_game
from allfours_notation.writing.schema import schema
from tests.rules.helpers import EXAMPLE_A, codes, find, game_of, game_text, items, run

TRINIDAD = {"players": 4, "rules": "trinidad14"}


def test_a_results_line_is_read_as_the_deals_awards() -> None:
    game = game_of("deal 1 dealer N\n  turn 6D\n  scored N kick W high low { chalked } N jack "
                   "game\n  total N 4 W 2", players=4, rules="trinidad14")
    deal = game.deals[0]
    assert deal.by_results and not deal.tricks
    assert deal.results is not None
    assert deal.results.awards == (
        Award(deal.dealer, ClaimItem.KICK), Award(deal.dealer, ClaimItem.JACK),
        Award(deal.dealer, ClaimItem.GAME), Award(deal.results.awards[3].seat, ClaimItem.HIGH),
        Award(deal.results.awards[3].seat, ClaimItem.LOW))
    assert [c.text for c in deal.results.leading] == [" chalked "]


def test_a_results_deal_is_scored_from_its_items_in_counting_order() -> None:
    replayed = run("deal 1 dealer N\n  turn 6D\n  scored N kick W high low N jack game\n"
                   "  total N 4 W 2", **TRINIDAD)  # type: ignore[arg-type]
    assert codes(replayed) == []
    assert items(replayed) == [("kick", "NS", 2), ("high", "EW", 1), ("low", "EW", 1),
                               ("jack", "NS", 1), ("game", "NS", 1)]
    assert replayed.deals[0].by_results and replayed.deals[0].complete


def test_formatting_keeps_the_results_and_round_trips() -> None:
    text = game_text("deal 1 dealer N\n  scored n high LOW s jack game 1\n  total N 1 S 3")
    game = parse(text).games[0]
    formatted = format_game(game)
    assert "  scored N high low S jack game 1\n" in formatted
    again = parse("% AFN 1\n" + formatted).games[0]
    assert again == game


def test_the_export_carries_the_results_and_follows_the_schema() -> None:
    result = parse(game_text("deal 1 dealer N\n  scored S high low jack game"))
    exported = json.loads(json.dumps(result_to_json(result)))
    assert not list(Draft202012Validator(schema()).iter_errors(exported))
    deal = exported["games"][0]["deals"][0]
    assert [a["item"] for a in deal["results"]["awards"]] == ["high", "low", "jack", "game"]


def test_a_hang_jack_under_hoffmann1909_is_reported_and_not_scored() -> None:
    replayed = run("deal 1 dealer N\n  scored S high hangjack N low")
    assert [d.code for d in replayed.diagnostics if d.code != "AFN402"] == ["AFN405"]
    assert "Hang Jack" in find(replayed, "AFN405")[0].message
    assert items(replayed) == [("high", "S", 1), ("low", "N", 1)]


def test_hang_jack_counts_three_where_it_is_played() -> None:
    replayed = run("deal 1 dealer N\n  scored W hangjack", **TRINIDAD)  # type: ignore[arg-type]
    assert codes(replayed) == []
    assert items(replayed) == [("hangjack", "EW", 3)]


def test_a_kick_that_does_not_match_the_turn_up_is_reported() -> None:
    # a six kicks 2 in Trinidad: a kick of 3 is wrong
    replayed = run("deal 1 dealer N\n  turn 6D\n  scored N kick 3 W high",
                   **TRINIDAD)  # type: ignore[arg-type]
    assert codes(replayed) == ["AFN406"]
    assert "6D" in find(replayed, "AFN406")[0].message
    assert items(replayed) == [("kick", "NS", 2), ("high", "EW", 1)]  # the turn-up decides


def test_a_kick_for_a_turn_up_that_scores_nothing_is_reported() -> None:
    replayed = run("deal 1 dealer N\n  turn 9D\n  scored N kick", **TRINIDAD)  # type: ignore
    assert codes(replayed) == ["AFN406"]


def test_a_kick_to_the_wrong_side_and_an_unsized_trinidad_kick_are_reported() -> None:
    replayed = run("deal 1 dealer N\n  scored W kick 2 N kick", **TRINIDAD)  # type: ignore
    assert sorted(codes(replayed)) == ["AFN406", "AFN407"]
    assert items(replayed) == []


def test_a_kick_without_a_turn_up_takes_its_written_points() -> None:
    replayed = run("deal 1 dealer N\n  scored N kick 3 high", **TRINIDAD)  # type: ignore
    assert codes(replayed) == []
    assert items(replayed) == [("kick", "NS", 3), ("high", "NS", 1)]


def test_an_item_twice_in_one_deal_is_reported() -> None:
    replayed = run("deal 1 dealer N\n  scored N high S high")
    assert codes(replayed) == ["AFN404"]
    assert items(replayed) == [("high", "N", 1)]


def test_the_turned_jack_cannot_also_be_won_in_play() -> None:
    replayed = run("deal 1 dealer N\n  turn JD\n  scored N kick S jack")
    assert codes(replayed) == ["AFN404"]
    assert items(replayed) == [("kick", "N", 1)]


def test_a_gift_needs_a_beg_and_goes_to_the_elder() -> None:
    stood = run("deal 1 dealer N\n  turn 4S\n  S stands\n  scored S gift high")
    assert codes(stood) == ["AFN407"]
    assert items(stood) == [("high", "S", 1)]
    to_dealer = run("deal 1 dealer N\n  scored N gift")
    assert codes(to_dealer) == ["AFN407"]
    given = run("deal 1 dealer N\n  turn 4S\n  S begs\n  N gives\n  scored S gift high")
    assert codes(given) == []
    assert items(given) == [("gift", "S", 1), ("high", "S", 1)]  # the call counted it once
    unwritten = run("deal 1 dealer N\n  scored S gift N high")
    assert codes(unwritten) == []
    assert items(unwritten) == [("gift", "S", 1), ("high", "N", 1)]


def test_an_item_after_the_target_is_not_scored() -> None:
    replayed = run("deal 1 dealer N\n  scored S high low jack game\n  total N 0 S 4\n"
                   "deal 2 dealer S\n  scored S high low jack N game\n  total N 0 S 7")
    late = find(replayed, "AFN408")
    assert len(late) == 1 and "N Game" in late[0].message
    assert replayed.winner == "S"
    assert items(replayed, 1) == [("high", "S", 1), ("low", "S", 1), ("jack", "S", 1)]
    assert [p.item for p in replayed.deals[1].unscored] == [ClaimItem.GAME]
    assert "AFN402" not in codes(replayed)


def test_a_wrong_total_is_reported() -> None:
    replayed = run("deal 1 dealer N\n  scored S high low N game\n  total N 1 S 3")
    assert codes(replayed) == ["AFN402"]


def test_the_dealer_rotation_is_checked() -> None:
    replayed = run("deal 1 dealer N\n  scored S high\ndeal 2 dealer N\n  scored N high")
    assert codes(replayed) == ["AFN312"]


def test_a_claim_beside_the_results_is_the_other_sides_dispute() -> None:
    replayed = run("deal 1 dealer N\n  scored S high low N game\n  claim S high low game")
    disputes = find(replayed, "AFN401")
    assert len(disputes) == 1
    assert "disputes the recorded results" in disputes[0].message
    assert items(replayed) == [("high", "S", 1), ("low", "S", 1), ("game", "N", 1)]


def test_a_deal_by_cards_and_results_both_is_reported() -> None:
    replayed = run("deal 1 dealer N\n  turn 4S\n  S stands\n  1. S:JS N:2D\n  scored S high")
    assert "AFN409" in codes(replayed)


def test_a_game_may_mix_card_deals_and_results_deals() -> None:
    text = (EXAMPLE_A + "  total N 0 S 4\n"
            "deal 2 dealer S\n  scored N high low S jack game\n  total N 2 S 6\n")
    replayed = run(text)
    assert codes(replayed) == []
    assert [d.by_results for d in replayed.deals] == [False, True]
    assert dict(replayed.scores) == {"N": 2, "S": 6}


@pytest.mark.parametrize("rules", ["hoffmann1909", "english10", "foster", "trinidad14"])
def test_every_profile_reads_a_plain_results_deal(rules: str) -> None:
    players = 4 if rules == "trinidad14" else 2
    replayed = replay(game_of("deal 1 dealer N\n  scored S high low N jack game",
                              players=players, rules=rules))
    assert codes(replayed) == []
    assert sum(p.points for p in replayed.deals[0].points) == 4


def test_a_directors_ruling_stands_over_the_cards_and_is_recorded_as_such() -> None:
    text = game_text("deal 1 dealer N\n  turn 4S\n  S stands\n  1. S:JS N:2D\n"
                     "  director scored N high low\n  claim S high low\n  abandoned")
    game = parse(text).games[0]
    assert game.deals[0].results is not None and game.deals[0].results.director
    assert "  director scored N high low\n" in format_game(game)
    replayed = replay(game)
    assert "AFN410" in codes(replayed) and "AFN409" not in codes(replayed)
    assert items(replayed) == [("high", "N", 1), ("low", "N", 1)]
    assert len(find(replayed, "AFN401")) == 2  # the players' claim stays, disputed


def test_no_more_kicks_of_a_worth_than_the_pack_holds_cards_to_turn_up() -> None:
    # two players may turn up six cards in a deal (five runs), but the pack holds four Jacks
    five = run("deal 1 dealer N\n  scored N kick kick kick kick kick S high")
    assert codes(five) == ["AFN404"]
    assert "5 kicks of 1" in find(five, "AFN404")[0].message
    assert "4 jacks" in find(five, "AFN404")[0].message
    assert items(five) == [("kick", "N", 1)] * 4 + [("high", "S", 1)]
    four = run("deal 1 dealer N\n  scored N kick kick kick kick S high")
    assert codes(four) == []
