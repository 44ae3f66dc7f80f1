"""A deal's statements in table order, each at most once (AFN206): judged by the
structure checks (``referee/structure.py``) from the statements as reading kept them,
rule by rule, with the messages, positions and order reading used to give."""

from __future__ import annotations

import pytest

from allfours_notation import parse
from allfours_notation.reading import parser as reading
from allfours_notation.referee.structure import check_order

HEAD = "deal 1 dealer N\nturn 4S\nS stands\n"
ORDER_HINT = ("a deal is written in table order: hands, turn-up, stand or beg, tricks, "
              "penalties, claim, total")


def afn206(text: str) -> list[tuple[int | None, int | None, str, str | None]]:
    return [(d.line, d.column, d.message, d.hint) for d in parse(text).diagnostics
            if d.code == "AFN206"]


@pytest.mark.parametrize(("body", "expected"), [
    ("1. S:JS N:2D\nS 3C\n", [(5, 1, "the hand of S belongs to the opening, but comes after "
                                 "the play", ORDER_HINT)]),
    ("total N 1 S 0\n1. S:JS N:2D\n", [(5, 1, "play belongs to the play, but comes after "
                                           "the total", ORDER_HINT)]),
    ("total N 1 S 0\nclaim N high\n", [(5, 1, "'claim' belongs to the claim, but comes after "
                                           "the total", ORDER_HINT)]),
    ("abandoned\nn BEGS\n", [(5, 1, "'n BEGS' after the deal has ended", None)]),
    ("claim N high\nclaim S low\n", [(5, 1, "a deal has one claim; merge the two", None)]),
    ("scored N high\nscored S low\n",
     [(5, 1, "a deal has one line of results; merge the two", None)]),
    ("total N 1 S 0\ntotal N 1 S 0\n", [(5, 1, "a deal has one total", None)]),
    ("abandoned\nredeal misdeal\n", [(5, 1, "'redeal' after the deal has ended", None),
                                     (5, 1, "a deal can end only once", None)]),
    ("S concedes\nabandoned\n", [(5, 1, "'abandoned' after the deal has ended", None),
                                 (5, 1, "a deal can end only once", None)]),
    # one statement, two findings, in this order
    ("claim N high\ntotal N 1 S 0\nclaim S low\n",
     [(6, 1, "'claim' belongs to the claim, but comes after the total", ORDER_HINT),
      (6, 1, "a deal has one claim; merge the two", None)]),
    # a penalty may follow the play, and a claim the deal's end
    ("1. S:JS N:2D\npenalty S revoke\nabandoned\nclaim N high\ntotal N 1 S 0\n", []),
])
def test_each_rule_of_statement_order(body: str, expected: list[object]) -> None:
    assert afn206(f"{HEAD}{body}end\n") == expected


def test_the_findings_stand_where_reading_gave_them() -> None:
    """Among reading's findings about a claim's words (AFN213), by position, and before
    its trick numbers (AFN207) and the missing 'end' (AFN104); the other structure
    findings after them all."""
    text = (f"{HEAD}1. S:JS N:2D\nS 3C\nclaim high\n"
            "deal 2 dealer S\nclaim S high\ntotal N 1 S 0\n2. N:3D\ntotal N 1 S 0\n"
            "claim high\n")
    found = parse(text).games[0].diagnostics
    # the second claim's words are not read: no AFN213 for its 'high'
    assert [(d.code, d.line) for d in found][:8] == [
        ("AFN206", 5), ("AFN213", 6), ("AFN206", 10), ("AFN206", 11), ("AFN206", 12),
        ("AFN206", 12), ("AFN207", 10), ("AFN104", 10)]
    assert all(d.code not in ("AFN206", "AFN213", "AFN207", "AFN104")
               for d in found[8:])


def test_reading_judges_no_order_and_keeps_the_statements() -> None:
    text = f"{HEAD}abandoned\nabandoned\nclaim N high\nclaim S low\nend\n"
    assert not [d for d in reading.parse(text).diagnostics if d.code == "AFN206"]
    pieces = reading.read_games(text).slices
    game, _, _, statements = reading.read_game_body(text, pieces[0], index=1, filename=None)
    assert [(place, kind) for place, kind, _, _ in statements] == [
        (0, kind) for kind in [
        "TURN", "CALL", "ABANDONED", "ABANDONED", "CLAIM", "CLAIM"]]
    assert game.deals[0].claim is not None and len(game.deals[0].claim.awards) == 1
    assert [d.message for d in check_order(game, statements)] == [
        "'abandoned' after the deal has ended", "a deal can end only once",
        "a deal has one claim; merge the two"]


def test_a_record_built_in_code_has_no_statements_to_judge() -> None:
    game = parse(f"{HEAD}abandoned\nabandoned\nend\n").games[0]
    assert check_order(game, []) == []


def test_two_deals_of_one_number_are_judged_apart() -> None:
    text = "deal 1 dealer N\nclaim N high\ndeal 1 dealer N\nclaim S low\nend\n"
    assert afn206(text) == []
    assert afn206(text.replace("claim S low", "claim S low\nclaim N jack")) == [
        (5, 1, "a deal has one claim; merge the two", None)]
