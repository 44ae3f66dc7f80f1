"""The shortcuts that make reading a small game cheap (issue 16) give what the long way
gives.

* The parser's own loop over the shipped parse table (``lalr.direct_parse``)
  gives Lark's result, the comments the lexer collected and the error Lark raises, on
  generated texts and mutated samples; on well-formed text it never needs Lark's loop.
* ``check_structure`` of a game with no tags and no deals, and of a deal that is only
  a header, finds what the full walk over the deal finds.
* The seats the parser works out for grouping tricks are the game's seats.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from allfours_notation import parse
from allfours_notation.checking import parsing as parser_module
from allfours_notation.diagnostics import Diagnostic, Severity
from allfours_notation.reading import assembler, game_parser, lalr, lark_parser
from allfours_notation.reading.parser import read_games
from allfours_notation.reading.records import Deal, Game, diagnostic_at
from allfours_notation.reading.table import seats_of_game
from allfours_notation.referee import structure

from .test_fast_lexer import FRAGMENTS

ROOT = Path(__file__).resolve().parents[2]
SAMPLE_TEXTS = [path.read_text(encoding="utf-8")
                for path in sorted((ROOT / "samples").glob("*.afn"))]


def _facts(token: Any) -> tuple[Any, ...]:
    return (token.type, token.value, token.start_pos, token.end_pos, token.line, token.column)


def _shape(value: Any) -> Any:
    if isinstance(value, str):  # a token, the table loop's or Lark's
        return _facts(value)
    return [_shape(item) for item in value]


def _outcome(parse_text: Any, collector: Any, body: str) -> tuple[Any, ...]:
    """What parsing ``body`` gives: the result or the error, and what the lexer's
    callbacks were left holding."""
    collector.comments = []
    collector.opened = None
    try:
        result: Any = _shape(parse_text(body))
    except Exception as error:
        result = (type(error).__name__, str(error), getattr(error, "pos_in_stream", None),
                  getattr(error, "line", None), getattr(error, "column", None),
                  sorted(getattr(error, "expected", None) or ()),
                  type(getattr(error, "interactive_parser", None)).__name__)
    opened = collector.opened
    return (result, [_facts(token) for token in collector.comments],
            _facts(opened) if opened is not None else None)


def _same_as_lark(text: str) -> None:
    direct, collector = game_parser.game_parser()
    lark_object = lark_parser.lark_for(collector)
    reader = read_games(text)
    for body in [reader.text[piece.start:piece.end] for piece in reader.slices] + [text]:
        assert _outcome(direct, collector, body) == _outcome(lark_object.parse, collector, body)


WITH_COMMENTS = """% AFN 1
{ before the game }
[Event "x"] ; after the tag
[North "A"] [South "B"]
deal 1 dealer N { c }
  S JS 9H ; the hand
  turn 4S { trumps } S stands
  1. S:JS {lead} N:2D!
{ end of game }
end
; after everything
"""


@pytest.mark.parametrize("text", [*SAMPLE_TEXTS, WITH_COMMENTS, "deal 1 dealer N\nend  \n"])
def test_the_direct_loop_gives_lark_s_result_on_every_sample(text: str) -> None:
    _same_as_lark(text)


generated = st.lists(
    st.tuples(st.sampled_from(FRAGMENTS), st.sampled_from(["", " ", "\n", "  ", "\t"])),
    max_size=40,
).map(lambda pairs: "".join(word + gap for word, gap in pairs))


@given(generated)
def test_the_direct_loop_gives_lark_s_result_and_errors_on_generated_texts(text: str) -> None:
    _same_as_lark(text)


@given(st.sampled_from(SAMPLE_TEXTS), st.lists(st.tuples(
    st.integers(0, 10_000), st.integers(0, 12), st.sampled_from(["", *FRAGMENTS])), max_size=6))
def test_the_direct_loop_gives_lark_s_result_and_errors_on_mutated_samples(
        text: str, edits: list[tuple[int, int, str]]) -> None:
    for at, cut, insert in edits:
        at %= len(text) + 1
        text = text[:at] + insert + text[at + cut:]
    _same_as_lark(text)


def test_well_formed_text_never_needs_lark_s_loop_and_an_error_does() -> None:
    collector = game_parser.game_parser()[1]
    calls: list[int] = []

    def counted(text: str) -> Any:
        calls.append(1)
        return lark_parser.lark_parse(collector, text)

    direct = lalr.direct_parse(game_parser.table(), collector, counted)
    for text in SAMPLE_TEXTS:
        reader = read_games(text)
        for piece in reader.slices:
            body = reader.text[piece.start:piece.end]
            if not parse(body).games[0].broken:
                direct(body)
    assert calls == []
    with pytest.raises(Exception) as raised:
        direct("deal 1 dealer N turn turn end")
    assert calls == [1] and type(raised.value).__name__ == "UnexpectedToken"


# --- structure ----------------------------------------------------------------------------------

HEADER_ONLY = [
    "deal 1 dealer N\nend\n",
    "deal 7 dealer e\nend\n",
    "[North \"a\"] [South \"b\"]\ndeal 1 dealer E\nend\n",  # a dealer not at the table
    "[North \"a\"] [East \"b\"] [South \"c\"]\ndeal 1 dealer W\nredeal misdeal\n"
    "deal 2 dealer N\nabandoned\nend\n",
    "deal 1 dealer N\ndeal 3 dealer S\nN concedes\nend\n",
    "[Event \"x\"]\ndeal 2 dealer N\nend\n",  # a tag that starts a game mid-way
    "end\n",
    "  END { a comment }\n",
]


def _walked(deal: Deal, seats: tuple[Any, ...], report: Any) -> None:
    """What ``_check_deal`` did for every deal before header-only deals had a way of
    their own: the walk over every seat named, then the cards, tricks and total."""
    seat_set = set(seats)
    if not structure._seats_named(deal) <= seat_set:
        for seat, span, what in structure._seat_positions(deal):
            if seat not in seat_set:
                report("AFN205", f"{what} names {seat.tag_name}, who is not at this table "
                       f"({', '.join(s.letter for s in seats)})", span, deal=deal)
    structure._check_cards(deal, report)
    structure._check_tricks(deal, len(seats), report)
    structure._check_total(deal, report)


def _full_walk(game: Game) -> list[Diagnostic]:
    report = structure._Reporter(game, game.source)
    seats = seats_of_game(game)
    for deal in game.deals:
        _walked(deal, seats, report)
    return report.result()


@pytest.mark.parametrize("text", HEADER_ONLY)
def test_header_only_deals_and_bare_games_find_what_the_full_walk_finds(text: str) -> None:
    for game in parse(text, filename="t.afn").games:
        report = structure._Reporter(game, game.source)
        seats = seats_of_game(game)
        for deal in game.deals:
            structure._check_deal(deal, seats, frozenset(seats), report)
        assert report.result() == _full_walk(game)
        assert structure.check_structure(game, filename="t.afn") == \
            structure.check_structure(game, filename="t.afn", seats=seats)
    misplaced = parse(HEADER_ONLY[2]).games[0]
    assert [d.code for d in _full_walk(misplaced)] == ["AFN205"]  # the walk does find


@pytest.mark.parametrize("text", HEADER_ONLY)
def test_the_missing_tags_warning_is_the_one_the_reporter_makes(text: str) -> None:
    for game in parse(text, filename="t.afn").games:
        if game.tags:
            continue
        expected = diagnostic_at(game, game.span, "AFN108", structure._NO_TAGS,
                                 severity=Severity.WARNING, hint=structure._MISSING_TAGS_HINT)
        assert structure.missing_tags(game) == expected
        assert [d for d in game.diagnostics if d.code == "AFN108"] == [expected]


@pytest.mark.parametrize("text", [*SAMPLE_TEXTS, *HEADER_ONLY])
def test_the_seats_the_parser_groups_tricks_by_are_the_game_s_seats(text: str) -> None:
    reader = read_games(text)
    for index, piece in enumerate(reader.slices, start=1):
        body = reader.text[piece.start:piece.end]
        game = parser_module.parse_game_slice(reader.text, piece, index=index, filename=None)
        if game.broken:
            continue
        reading = assembler._GameAssembler(body, piece, index=index, filename=None)
        raw = [assembler._RawDeal(deal.number, deal.dealer, deal.span)  # type: ignore[arg-type]
               for deal in game.deals]
        for made, deal in zip(raw, game.deals, strict=True):
            made.opening.extend(deal.opening)
            made.plays.extend(deal.plays())
        assert reading.seats_for(game.tags, raw) == seats_of_game(game)
