"""Syntax errors: precise position, a message in AFN's terms, and the other games survive."""

from __future__ import annotations

import pytest

from allfours_notation import parse

HEADER = '% AFN 1\n[Event "e"]\n'


def first_error(body: str) -> tuple[str, int | None, int | None, str]:
    result = parse(HEADER + body, filename="x.afn")
    error = next(d for d in result.diagnostics if d.is_error)
    return error.code, error.line, error.column, error.message


@pytest.mark.parametrize(
    ("body", "line", "column", "words"),
    [
        ("deal 1 dealer N\nturn 4X\nend", 4, 6, "'4X'"),
        ("deal 1 dealer N\nturn\nend", 5, 1, "card turned up"),
        ("deal 1 dealer N\nS stand\nend", 4, 3, "'stand' is not a call"),
        ("deal 1 dealer N\nS JS 9H 1X\nend", 4, 9, "'1X' is not a card"),
        ("deal 1 dealer N\nturn 4S S stands 1. S:JS N:2X\nend", 4, 26, "'2X' is not a card"),
        ("deal 1 dealer N\nclaim S high lo\nend", 4, 14, "'lo' is not part of a claim"),
        ("deal 1 dealer N\ntotal N x\nend", 4, 9, "score"),
        ("deal 1 dealer N\npenalty S revok\nend", 4, 11, "'revok'"),
        ("deal 1 dealer N\nredeal whatever\nend", 4, 8, "'whatever'"),
        ("deal one dealer N\nend", 3, 6, "deal number"),
        ("deal 1 dealer N\nN stands 1. ZZ\nend", 4, 13, "'ZZ' is not a card"),
        ("S JS\nend", 3, 1, "before any 'deal'"),
        # statements cut by comments: the word is blamed where it stands
        ("deal 1 dealer N\nclaim S high { c }\nlow lo\nend", 5, 5, "'lo' is not part of a claim"),
        ("deal 1 dealer N\nclaim S high {a} low {b} N lo\nend", 4, 28, "'lo' is not part"),
        ("deal 1 dealer N\ntotal N 0 { c } S 4 {d} E x\nend", 4, 27, "score"),
        ("deal 1 dealer N\ntotal N 0 S 1 E 2 {c} W 3 N x\nend", 4, 29, "score"),
        ("deal 1 dealer N\nturn { c } 4X\nend", 4, 12, "'4X'"),
        ("deal 1 dealer N\nturn { c }\nend", 5, 1, "card turned up"),
        ("deal 1 dealer N\nS JS 9H { c } 8H 1X\nend", 4, 18, "'1X' is not a card"),
        # the additions of issue 38: a clock time cut from 'at', a count without its pips
        ("deal 1 dealer N at { c } 20:41\nend", 3, 17, "'at' and the clock time"),
        ("deal 1 dealer N\nscored S high\ncount S x\nend", 5, 9, "the side's pips"),
        ("deal 1 dealer N\nscored S high\ncount S\nend", 5, 7, "S has no pips in this count"),
    ],
)
def test_error_points_at_the_wrong_word(body: str, line: int, column: int, words: str) -> None:
    code, got_line, got_column, message = first_error(body)
    assert code == "AFN101"
    assert (got_line, got_column) == (line, column), message
    assert words in message


def test_unclosed_comment_is_its_own_code() -> None:
    code, line, column, _ = first_error("deal 1 dealer N\nturn 4S {never closed\nend")
    assert (code, line, column) == ("AFN103", 4, 9)


def test_a_broken_game_never_hides_the_others() -> None:
    good = '[Event "good"] deal 1 dealer N turn 4S end\n'
    bad = '[Event "bad"] deal 1 dealer N turn 4X end\n'
    result = parse("% AFN 1\n" + good + bad + good)
    assert [g.broken for g in result.games] == [False, True, False]
    assert [g.tag("Event") for g in result.games] == ["good", "bad", "good"]
    assert [d.game for d in result.diagnostics if d.is_error] == [2]


def test_missing_end_costs_one_warning_not_the_next_game() -> None:
    text = '% AFN 1\n[Event "a"] deal 1 dealer N turn 4S\n[Event "b"] deal 1 dealer N turn 5S end'
    result = parse(text)
    assert [g.tag("Event") for g in result.games] == ["a", "b"]
    assert [(d.code, d.game) for d in result.diagnostics if d.code == "AFN104"] == [("AFN104", 1)]


def test_caret_snippet_underlines_the_word() -> None:
    result = parse(HEADER + "deal 1 dealer N\nturn 4X\nend", filename="x.afn")
    error = next(d for d in result.diagnostics if d.is_error)
    rendered = error.render(result.text)
    assert rendered.splitlines()[:3] == [
        "x.afn:4:6: error AFN101 [game 1, deal 1]: expected the card turned up, found '4X'",
        "    4 | turn 4X",
        "             ^^",
    ]


def test_a_bad_claim_word_is_blamed_on_its_own_claim_not_an_earlier_one() -> None:
    body = (
        "deal 1 dealer N\nturn 4S S stands\nclaim S high\ntotal N 0 S 1\n"
        "deal 2 dealer S\nturn 5S N stands\nclaim N high lo game\nend"
    )
    code, line, column, message = first_error(body)
    assert (code, line, column) == ("AFN101", 9, 14)
    assert "'lo'" in message


def test_words_inside_comments_are_never_quoted() -> None:
    code, line, column, message = first_error("deal 1 dealer N\nS { elder } stand\nend")
    assert code == "AFN101"
    assert (line, column) == (4, 13)
    assert "'stand' is not a call" in message


def test_a_turn_glued_to_a_seat_label_is_explained_not_a_recursion() -> None:
    """'turN:2C' once made the explainer re-explain the same place forever."""
    from allfours_notation.checking.parsing import parse as parse_text

    result = parse_text('% AFN 1\n[Event "x"]\n\ndeal 1 dealer N\n  turN:2C JS\nend\n')
    assert [d.code for d in result.diagnostics] == ["AFN101"]
    assert "'turN:2C'" in result.diagnostics[0].message
