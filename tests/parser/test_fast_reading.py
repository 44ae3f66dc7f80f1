"""The shortcuts that make reading fast give what the slow way gives.

* The loop over the shipped table reduces through plain functions
  (:func:`.lalr.reduction`): the same values as Lark's own tree builder with
  :class:`.lark_parser._Callbacks`.
* Texts that recur (deal headers, calls, claims, totals) are read once: a game read
  with the memos full equals the game read with them empty, diagnostics included.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, cast

import pytest
from hypothesis import given
from hypothesis import strategies as st
from lark import Lark

from allfours_notation import parse
from allfours_notation.cards import Seat, card
from allfours_notation.reading import assembler, game_parser, lark_parser, statements
from allfours_notation.reading.lark_parser import grammar_text
from allfours_notation.reading.parser import read_games
from allfours_notation.reading.records import Span

ROOT = Path(__file__).resolve().parents[2]
SAMPLES = sorted((ROOT / "samples").glob("*.afn"))

# Statements cut by comments, every continuation token, and syntax errors.
CUT = """[Event "x"]
deal 1 dealer N
  S JS { a } 9H ; b
  8H 7C 6D 5D
  N 2D 3D 4D 5C 6C 7H
  turn { c } 4S
  S discards { d } 9H
  pack AS { e } 7D
  1. S:JS { f } N:2D
  claim S high { g } low N
  game
  total N 0 { h } S 4
  penalty S revoke
end
deal 1 dealer N turn turn end
"""


def _plain_lark() -> Lark:
    """A Lark built as the parser builds its own, with Lark's tree builder left in."""
    return Lark(grammar_text(), parser="lalr", lexer="contextual",
                transformer=cast(Any, lark_parser._Callbacks()),
                lexer_callbacks={"BRACE_COMMENT": lambda t: t, "LINE_COMMENT": lambda t: t},
                cache=True, propagate_positions=False, maybe_placeholders=False)


def _shape(value: Any) -> Any:
    """A parse result as plain data: each token's type, text and offsets, lists as lists."""
    if isinstance(value, str):  # a token, the table loop's or Lark's
        token: Any = value
        return (token.type, token.value, token.start_pos, token.end_pos)
    assert type(value) is list, type(value)
    return [_shape(item) for item in value]


def _games(text: str) -> list[str]:
    reader = read_games(text)
    return [reader.text[piece.start:piece.end] for piece in reader.slices]


@pytest.mark.parametrize("text", [*(path.read_text(encoding="utf-8") for path in SAMPLES), CUT],
                         ids=[*(path.name for path in SAMPLES), "cut-by-comments"])
def test_the_table_loop_and_lark_s_own_loop_give_what_lark_s_tree_builder_gives(text: str) -> None:
    """And the loop over the shipped table gives what ``Lark.parse`` gives."""
    direct, collector = game_parser.game_parser()
    fast = lark_parser.lark_for(collector)
    plain = _plain_lark()
    for body in _games(text):
        outcomes = []
        for parse_text in (direct, fast.parse, plain.parse):
            try:
                outcomes.append(_shape(parse_text(body)))
            except Exception as error:  # the same error, or the test fails
                outcomes.append((type(error).__name__, str(error),
                                 getattr(error, "pos_in_stream", None)))
        assert outcomes[0] == outcomes[1] == outcomes[2]


def test_the_direct_entry_is_not_lark_parse() -> None:
    """The table's loop is in use (so the comparison above compares two paths)."""
    direct, _ = game_parser.game_parser()
    assert direct != lark_parser.lark_for(game_parser.game_parser()[1]).parse
    assert direct.__qualname__ == "direct_parse.<locals>.parse"


def _memos() -> list[dict[str, Any]]:
    return [statements._DEAL_HEADERS, statements._CALLS, statements._CLAIMS,
            statements._TOTALS]


RECURRING = """[Event "x"] [Site "y"] [Date "2024.01.01"] [Rules "english7"] [North "a"]
[South "b"] [Result "N"]
deal 1 dealer N
  turn 4S
  S stands
  claim S high game N low
  total N 1 S 2
deal 2 dealer S
  turn 4S
  N concedes
  claim high N 3 game
  total N 1 S 2
deal 3 dealer N
  turn 4S
  S stands
  claim high N 3 game
  claim S high game N low
  total N 1 S 2
end
"""


def test_recurring_texts_read_from_the_memos_equal_a_first_reading() -> None:
    for memo in _memos():
        memo.clear()
    first = parse(RECURRING)
    assert statements._CLAIMS and statements._TOTALS and statements._CALLS
    again = parse(RECURRING)
    assert again.games == first.games
    assert again.diagnostics == first.diagnostics
    # The claim with problems is read afresh each time: both its diagnostics, each time.
    codes = [d.code for d in again.diagnostics]
    assert codes.count("AFN213") == 4
    assert "claim high N 3 game" not in statements._CLAIMS


def test_a_memo_past_its_limit_starts_again(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(statements, "_MEMO_LIMIT", 3)
    statements._TOTALS.clear()
    text = "deal 1 dealer N\n" + "".join(f"deal {n} dealer N total N {n} S 0\n"
                                           for n in range(2, 9)) + "end\n"
    result = parse(text)
    assert 0 < len(statements._TOTALS) <= 3
    totals = [deal.total.scores[0].points for deal in result.games[0].deals if deal.total]
    assert totals == list(range(2, 9))


def test_made_games_are_the_games_the_constructor_makes() -> None:
    """``make_game`` fills the slots the constructor fills, to the same values; the
    result is as immutable as any game."""
    import dataclasses

    from allfours_notation.reading.records import Game, Span, make_game

    result = parse(RECURRING, filename="r.afn")
    parsed = result.games[0]
    span = Span(1, 1, 0, 0, 0, 10)
    made = make_game(parsed.tags, parsed.deals, False, (), 4, "r.afn", result.diagnostics, span)
    built = Game(tags=parsed.tags, deals=parsed.deals, ended=False, index=4, source="r.afn",
                 diagnostics=result.diagnostics, span=span)
    assert made == built
    for field in dataclasses.fields(Game):
        assert getattr(made, field.name) == getattr(built, field.name), field.name
    with pytest.raises(dataclasses.FrozenInstanceError):
        made.ended = True  # type: ignore[misc]
    assert parsed == Game(tags=parsed.tags, deals=parsed.deals, ended=True)


def test_comments_attached_slot_by_slot_are_what_replace_gives() -> None:
    """``with_comments`` copies every field and sets the comments, like
    ``dataclasses.replace``; the original is left as it was."""
    import dataclasses

    from allfours_notation.reading.records import Comment, with_comments

    game = parse(CUT).games[0]
    note = (Comment("n"),)
    records = [*game.tags, *game.deals[0].opening, *game.deals[0].tricks,
               *game.deals[0].tricks[0].plays, game.deals[0].claim, game.deals[0].total]
    for record in records:
        assert record is not None
        copied = with_comments(record, note, ())
        assert copied == dataclasses.replace(record, leading=note, trailing=())
        assert copied.span == record.span and copied.leading == note
        assert type(copied) is type(record) and copied is not record
    assert any(record is not None and record.leading for record in records)  # comments attached


def test_statements_and_deals_made_slot_by_slot_are_the_constructors_records() -> None:
    import dataclasses

    from allfours_notation.cards import Seat, card
    from allfours_notation.reading.records import (
        Award,
        Call,
        CallKind,
        Claim,
        ClaimItem,
        Deal,
        Hand,
        Score,
        Span,
        Total,
        TurnUp,
        make_call,
        make_claim,
        make_deal,
        make_hand,
        make_total,
        make_turnup,
    )

    span = Span(2, 3, 2, 9, 10, 16)
    pairs = [
        (make_hand(Seat.SOUTH, (card("JS"), None), span),
         Hand(seat=Seat.SOUTH, cards=(card("JS"), None), span=span)),
        (make_turnup(card("4S"), span), TurnUp(card=card("4S"), span=span)),
        (make_call(Seat.NORTH, CallKind.BEGS, span),
         Call(seat=Seat.NORTH, kind=CallKind.BEGS, span=span)),
        (make_claim((Award(Seat.SOUTH, ClaimItem.HIGH),), span),
         Claim(awards=(Award(Seat.SOUTH, ClaimItem.HIGH),), span=span)),
        (make_total((Score(Seat.NORTH, 3),), None), Total(scores=(Score(Seat.NORTH, 3),))),
    ]
    hand = pairs[0][1]
    pairs.append((make_deal(2, Seat.EAST, (cast(Hand, hand),), (), (), None, None, None, (),
                            (), span),
                  Deal(number=2, dealer=Seat.EAST, opening=(cast(Hand, hand),), span=span)))
    for made, built in pairs:
        assert type(made) is type(built) and made == built
        for field in dataclasses.fields(built):
            assert getattr(made, field.name) == getattr(built, field.name), field.name
        with pytest.raises(dataclasses.FrozenInstanceError):
            made.span = None  # type: ignore[misc]


def _plays_the_regex_way(text: str, base: int) -> tuple[list[Any], list[Any]]:
    """A run of plays split by one regular-expression match per play (how the parser
    read them before it split words): each play's facts and each trick number's."""
    plays: list[Any] = []
    numbers: list[Any] = []
    for match in statements._PLAY_RE.finditer(text):
        number_text, seat_text, card_text, glyph_text = match.groups()
        if number_text is not None:
            numbers.append((len(plays), int(number_text),
                            (base, match.start(1), match.end(1) + 1)))
        start = match.start(2) if seat_text is not None else match.start(3)
        plays.append((card(card_text),
                      statements._SEATS[seat_text] if seat_text else None,
                      statements._GLYPHS.get(glyph_text), base + start, base + match.end()))
    return plays, numbers


_play_texts = st.tuples(
    st.sampled_from(["", "", "1.", "12.", "3. ", "4.\n  ", "7.\t"]),
    st.sampled_from(["", "S:", "n:", "E:", "w:"]),
    st.sampled_from(["JS", "10h", "T♠", "q♦", "2C", "AD", "9♧"]),
    st.sampled_from(["", "", "!", "??", "!?", "?!", "!!", "?"]),
).map("".join)


@given(st.lists(st.tuples(_play_texts, st.sampled_from([" ", "  ", "\n  ", "\t", "\r\n "])),
                min_size=1, max_size=14))
def test_plays_split_by_words_are_the_plays_one_match_each_gives(
        written: list[tuple[str, str]]) -> None:
    text = "".join(play + gap for play, gap in written).rstrip()
    piece = read_games("deal 1 dealer N end").slices[0]
    made = assembler._GameAssembler(text, piece, index=1, filename=None)
    raw = assembler._RawDeal(1, Seat.NORTH, Span(1, 1, 1, 1, 0, 0))
    made.add_plays(raw, text, 40)
    plays, numbers = _plays_the_regex_way(text, 40)
    assert [(play.card, play.seat, play.glyph, cast(Span, play.span).start,
             cast(Span, play.span).end) for play in raw.plays] == plays
    assert raw.numbers == numbers
    assert made.nodes == raw.plays
