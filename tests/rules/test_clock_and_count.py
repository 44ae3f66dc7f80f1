"""A deal's clock time (``deal 3 dealer N at 20:41``) and its count for Game (``count N 31
S 18``), the two additions to AFN 1 of issue 38: read, formatted, exported, checked by the
referee and carried to the replay's deal results."""

from __future__ import annotations

import json

import pytest
from jsonschema import Draft202012Validator

from allfours_notation.checking.parsing import parse
from allfours_notation.writing.export import result_to_json
from allfours_notation.writing.formatter import format_checked, format_game
from allfours_notation.writing.schema import schema
from tests.rules.helpers import EXAMPLE_A, codes, find, game_of, game_text, run

TRINIDAD = {"players": 4, "rules": "trinidad14"}
RESULTS = ("deal 1 dealer N at 20:41\n  turn 6D\n  scored N kick W high low N jack game\n"
           "  count N 31 E 18\n  total N 4 W 2\n")


def test_the_clock_time_and_the_count_are_read_into_the_deal() -> None:
    deal = game_of(RESULTS, **TRINIDAD).deals[0]
    assert deal.time == "20:41"
    assert deal.count is not None
    assert [(s.seat.letter, s.points) for s in deal.count.scores] == [("N", 31), ("E", 18)]


@pytest.mark.parametrize(("written", "canonical"), [
    ("20:41", "20:41"), ("8:05", "08:05"), ("00:00", "00:00"), ("23:59:59", "23:59:59"),
])
def test_a_clock_time_is_written_in_canonical_form(written: str, canonical: str) -> None:
    game = game_of(f"deal 1 dealer N AT {written}\n  scored S high", players=2)
    assert game.deals[0].time == canonical
    assert f"deal 1 dealer N at {canonical}\n" in format_game(game)


def test_the_time_and_the_count_round_trip_through_the_formatter() -> None:
    text = game_text("deal 1 dealer N at 8:05\n  scored N kick W high low N jack game\n"
                     "  COUNT n 31 { chalked } e 18\n  total N 4 W 2\n\n"
                     "deal 2 dealer W\n  scored N high\n", **TRINIDAD)  # type: ignore[arg-type]
    result = parse(text)
    checked = format_checked(result)
    assert checked.safe, [str(r) for r in checked.refusals]
    assert "deal 1 dealer N at 08:05\n" in checked.text
    assert "  { chalked }\n  count N 31 E 18\n" in checked.text
    assert "deal 2 dealer W\n" in checked.text  # no time written: none given
    again = parse(checked.text).games[0]
    assert again == result.games[0]
    assert format_checked(parse(checked.text)).text == checked.text  # byte-stable


@pytest.mark.parametrize("word", ["25:00", "20:60", "8.41", "8pm", "20:41:75", "2041"])
def test_a_malformed_clock_time_is_AFN112_at_the_word_and_fmt_will_not_drop_it(
        word: str) -> None:
    text = game_text(f"deal 1 dealer N at {word}\n  scored S high")
    result = parse(text)
    (problem,) = [d for d in result.diagnostics if d.code == "AFN112"]
    line = text.splitlines()[problem.line - 1]  # type: ignore[operator]
    assert line[problem.column - 1:problem.end_column - 1] == word  # type: ignore[operator]
    assert result.games[0].deals[0].time is None and not result.games[0].broken
    assert not format_checked(result).safe


def test_the_count_is_one_statement_after_the_results() -> None:
    twice = parse(game_text("deal 1 dealer N\n  scored S high\n  count S 3\n  count S 4"))
    assert [d.code for d in twice.diagnostics if d.is_error] == ["AFN206"]
    early = parse(game_text("deal 1 dealer N\n  count S 3\n  scored S high"))
    assert [d.code for d in early.diagnostics if d.is_error] == ["AFN206"]
    nobody = parse(game_text("deal 1 dealer N\n  scored S high game\n  count E 30"))
    assert "AFN205" in [d.code for d in nobody.diagnostics]


def test_the_replay_carries_the_time_and_the_results_deals_count() -> None:
    replayed = run(RESULTS + "\ndeal 2 dealer W\n  scored W high\n", **TRINIDAD)  # type: ignore[arg-type]
    assert codes(replayed) == []
    first, second = replayed.deals
    assert (first.time, dict(first.pips)) == ("20:41", {"NS": 31, "EW": 18})
    assert (second.time, second.pips) == (None, ())  # results without a count: no pips


def test_a_count_that_contradicts_the_game_item_is_AFN411_at_the_count() -> None:
    replayed = run("deal 1 dealer N\n  scored N high game\n  count N 12 S 40")
    (problem,) = find(replayed, "AFN411")
    assert "gives Game to S, but the results give it to N" in problem.message
    assert (problem.line, problem.column) == (12, 3)  # the count line
    # no Game written, yet the count gives it to one side
    assert find(run("deal 1 dealer N\n  scored N high\n  count N 12 S 40"), "AFN411")
    # equal pips under Trinidad rules: nobody scores Game, and the results agree
    assert not find(run("deal 1 dealer N\n  scored N high\n  count N 20 E 20",
                        **TRINIDAD), "AFN411")  # type: ignore[arg-type]


@pytest.mark.parametrize(("count", "says"), [
    ("N 50 S 40", "adds up to 90 pips"),
    ("N -3 S 40", "below nothing"),
])
def test_an_impossible_count_is_AFN411(count: str, says: str) -> None:
    (problem,) = find(run(f"deal 1 dealer N\n  scored S high game\n  count {count}"), "AFN411")
    assert says in problem.message


def test_a_side_counted_twice_is_AFN411() -> None:
    replayed = run("deal 1 dealer N\n  scored N high game\n  count N 30 S 10 E 5",
                   **TRINIDAD)  # type: ignore[arg-type]
    assert "gives NS twice" in find(replayed, "AFN411")[0].message


def test_a_played_deals_count_is_held_to_its_cards() -> None:
    assert not find(run(EXAMPLE_A + "  count S 1 N 0\n"), "AFN411")
    (problem,) = find(run(EXAMPLE_A + "  count S 1 N 5\n"), "AFN411")
    assert "is not what the cards give (N 0, S 1)" in problem.message


def test_the_export_carries_both_and_follows_the_schema() -> None:
    exported = json.loads(json.dumps(result_to_json(parse(game_text(RESULTS, **TRINIDAD)))))  # type: ignore[arg-type]
    validator = Draft202012Validator(schema())
    assert not list(validator.iter_errors(exported))
    deal = exported["games"][0]["deals"][0]
    assert deal["time"] == "20:41"
    assert deal["count"]["scores"] == [{"seat": "N", "points": 31}, {"seat": "E", "points": 18}]
    deal["time"] = "25:00"  # the schema holds the time to a time of day
    assert list(validator.iter_errors(exported))




def test_the_score_sheet_says_when_a_deal_began() -> None:
    from allfours_notation.writing.sheet import deal_heading

    first = run(RESULTS, **TRINIDAD).deals[0]  # type: ignore[arg-type]
    assert deal_heading(first, unicode=False).startswith("deal 1, dealer N, at 20:41, turn 6D")
