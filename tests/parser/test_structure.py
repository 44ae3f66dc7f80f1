"""Structural diagnostics: what no deal can contain, each with its code and place."""

from __future__ import annotations

import pytest

from allfours_notation import parse
from allfours_notation.diagnostics import Severity
from tests.conftest import codes

TWO = (
    '[Event "e"] [Site "s"] [Date "d"] [Rules "hoffmann1909"] [North "A"] [South "B"] '
    '[Result "*"]\n'
)


def diagnostics_of(body: str, header: str = TWO) -> list[tuple[str, int | None, int | None]]:
    result = parse("% AFN 1\n" + header + body)
    return [(d.code, d.line, d.column) for d in result.diagnostics]


@pytest.mark.parametrize(
    ("body", "expected"),
    [
        # a card dealt twice
        ("deal 1 dealer N\nS JS 9H\nN 9H 2D\nturn 4S\nend", ("AFN201", 5, 1)),
        # the turn-up is also in a hand
        ("deal 1 dealer N\nS JS 4S\nturn 4S\nend", ("AFN202", 4, 1)),
        # the turn-up is played
        ("deal 1 dealer N\nturn 4S S stands\n1. S:4S N:2S\nend", ("AFN202", 5, 4)),
        # a card played twice
        ("deal 1 dealer N\nturn 4S S stands\n1. S:JS N:2S 2. N:JS S:3S\nend", ("AFN201", 5, 17)),
        # seven cards dealt
        ("deal 1 dealer N\nS JS 9H 8H 7C 6D 5D 4D\nturn 4S\nend", ("AFN203", 4, 1)),
        # a trick of three with two players
        ("deal 1 dealer N\nturn 4S S stands\n1. S:JS N:2D S:3D\nend", ("AFN204", 5, 4)),
        # a seat not at the table
        ("deal 1 dealer E\nturn 4S\nend", ("AFN205", 3, 1)),
        # out of order: a hand after the play
        ("deal 1 dealer N\nturn 4S S stands\n1. S:JS N:2D\nS 3C\nend", ("AFN206", 6, 1)),
        # a hand after the turn-up without a run
        ("deal 1 dealer N\nturn 4S\nS JS\nend", ("AFN206", 5, 1)),
        # trick numbers out of sequence
        ("deal 1 dealer N\nturn 4S S stands\n2. S:JS N:2D\nend", ("AFN207", 5, 1)),
        # the same seat's run cards twice in one run
        (
            "deal 1 dealer N\nturn 4S S begs N runs S 2C 3C 4C S 5C 6C 7C turn 8S\nend",
            ("AFN208", 4, 34),
        ),
        # deals not numbered in sequence
        (
            "deal 1 dealer N turn 4S end".replace("end", "deal 3 dealer S turn 5S end"),
            ("AFN210", 3, 25),
        ),
        # a total naming a seat twice
        ("deal 1 dealer N\nturn 4S\ntotal N 1 N 2\nend", ("AFN212", 5, 1)),
        # a claim item before any seat
        ("deal 1 dealer N\nturn 4S\nclaim high\nend", ("AFN213", 5, 7)),
        # no end
        ("deal 1 dealer N\nturn 4S\n", ("AFN104", 4, 1)),
    ],
)
def test_each_structural_problem_has_its_code_and_position(
    body: str, expected: tuple[str, int, int]
) -> None:
    found = diagnostics_of(body)
    assert expected in found
    assert found.count(expected) == 1, "one problem, one diagnostic"


def test_missing_roster_tags_is_a_warning() -> None:
    result = parse('% AFN 1\n[Event "x"]\ndeal 1 dealer N turn 4S end')
    (diagnostic,) = [d for d in result.diagnostics if d.code == "AFN108"]
    assert diagnostic.severity is Severity.WARNING
    assert "Site" in diagnostic.message and "players" in diagnostic.message


def test_three_players_sit_north_east_south() -> None:
    header = TWO.replace('[South "B"]', '[East "B"] [West "C"]')
    assert ("AFN211", 2, 1) in diagnostics_of("deal 1 dealer N turn 4S end", header)


def test_duplicate_tag_is_reported() -> None:
    assert "AFN109" in codes(parse(TWO + '[Event "again"] deal 1 dealer N turn 4S end').diagnostics)


def test_version_line_rules() -> None:
    assert "AFN105" in codes(parse(TWO + "end").diagnostics)
    assert "AFN106" in codes(parse("% AFN 2\n" + TWO + "end").diagnostics)
    misplaced = parse(TWO + "% AFN 1\nend")
    assert "AFN110" in codes(misplaced.diagnostics)


def test_a_clean_game_has_no_diagnostics() -> None:
    assert diagnostics_of("deal 1 dealer N\nS JS\nN 2D\nturn 4S S stands\n1. S:JS N:2D\nend") == []


def _messages(body: str) -> list[str]:
    return [d.message for d in parse("% AFN 1\n" + TWO + body).diagnostics]


def test_messages_read_right() -> None:
    """A card written twice in one hand says so (not "to South, and to South"); one card
    is "1 card"."""
    twice = _messages("deal 1 dealer N\nS JS 9H JS\nturn 4S\nend")
    assert "JS is written twice in South's hand" in twice
    other = _messages("deal 1 dealer N\nS JS 9H\nN JS 2D\nturn 4S\nend")
    assert "JS is dealt twice: to North, and to South" in other
    short = _messages("deal 1 dealer N\nturn 4S\nS stands\n1. S:JS N:2S\n2. S:9H\n"
                      "3. N:3H S:2H\nend")
    assert "trick 2 has 1 card; with 2 players a trick has 2" in short
