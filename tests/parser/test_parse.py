"""Parsing AFN into records: what each construct becomes."""

from __future__ import annotations

from allfours_notation import Seat, card, cards, parse
from allfours_notation.reading.records import (
    Abandoned,
    Award,
    Call,
    CallKind,
    ClaimItem,
    Concede,
    Glyph,
    Hand,
    PenaltyKind,
    Redeal,
    RedealReason,
    Score,
    Span,
    TurnUp,
)
from tests.conftest import codes

HEADER = """% AFN 1
[Event "Arima club night"]
[Site "Arima"]
[Date "2026.11.20"]
[Rules "hoffmann1909"]
[North "Ann Baptiste"]
[South "Ben Charles"]
[Result "S"]
"""

EXAMPLE_A = (
    HEADER
    + """
deal 1 dealer N
  S JS 9H 8H 7C 6D 5D
  N 9C 8C 7D 3H 2H 2D
  turn 4S
  S stands
  1. S:JS N:2D  2. S:9H N:3H  3. S:8H N:2H
  4. S:7C N:8C  5. N:9C S:5D  6. N:7D S:6D
  claim S high low jack game   total N 0 S 4
end
"""
)


def test_worked_example_a_parses_into_typed_records() -> None:
    result = parse(EXAMPLE_A)
    assert result.ok, [d.render() for d in result.diagnostics]
    assert result.version == 1
    (game,) = result.games
    assert game.tag("Event") == "Arima club night"
    assert game.seats == (Seat.NORTH, Seat.SOUTH)
    (deal,) = game.deals
    assert (deal.number, deal.dealer) == (1, Seat.NORTH)
    assert deal.dealt_hands == (
        Hand(seat=Seat.SOUTH, cards=cards("JS 9H 8H 7C 6D 5D")),
        Hand(seat=Seat.NORTH, cards=cards("9C 8C 7D 3H 2H 2D")),
    )
    assert deal.turnups == (TurnUp(card=card("4S")),)
    assert deal.calls == (Call(seat=Seat.SOUTH, kind=CallKind.STANDS),)
    assert [t.number for t in deal.tricks] == [1, 2, 3, 4, 5, 6]
    assert [(p.seat, str(p.card)) for p in deal.tricks[4].plays] == [
        (Seat.NORTH, "9C"),
        (Seat.SOUTH, "5D"),
    ]
    assert deal.claim is not None
    assert deal.claim.awards == tuple(
        Award(Seat.SOUTH, item)
        for item in (ClaimItem.HIGH, ClaimItem.LOW, ClaimItem.JACK, ClaimItem.GAME)
    )
    assert deal.total is not None
    assert deal.total.scores == (Score(Seat.NORTH, 0), Score(Seat.SOUTH, 4))


def test_lax_input_reads_the_same_as_canonical() -> None:
    lax = (
        HEADER
        + """
DEAL 1 Dealer n
  s js 9h 8h 7c 6d 5d
  n 9♣ 8♣ 7♦ 3♥ 2♥ 2♦
  TURN 4♠
  s Stands
  s:js n:2d s:9h n:3h s:8h n:2h
  s:7c n:8c n:9c s:5d n:7d s:6d
  CLAIM s HIGH low jack game total n 0 s 4
END
"""
    )
    assert parse(lax).games == parse(EXAMPLE_A).games


def test_ten_may_be_written_10_or_t() -> None:
    assert card("10H") == card("TH") == card("th") == card("10♥")


def test_plays_without_numbers_or_seats_group_by_player_count() -> None:
    text = HEADER + "deal 1 dealer N turn 4S S stands JS 2D 9H 3H 8H end"
    (game,) = parse(text).games
    tricks = game.deals[0].tricks
    assert [len(t.plays) for t in tricks] == [2, 2, 1]
    assert all(play.seat is None for t in tricks for play in t.plays)
    assert not tricks[0].numbered
    assert "AFN204" in codes(game.diagnostics)  # the last trick is short


def test_runs_keep_their_cards_and_turn_ups_in_order() -> None:
    text = (
        HEADER
        + """
deal 1 dealer S
  N AH KH QH JH TH 9H
  S 2C 3C 4C 5C 6C 7C
  turn 8C N begs S runs
  N 2D 3D 4D S 5D 6D 7D
  turn 9C
  N 8D 9D TD S JD QD KD
  turn AS
end"""
    )
    (game,) = parse(text).games
    deal = game.deals[0]
    assert [str(t.card) for t in deal.turnups] == ["8C", "9C", "AS"]
    assert [type(e).__name__ for e in deal.opening] == [
        "Hand",
        "Hand",
        "TurnUp",
        "Call",
        "Call",
        "Hand",
        "Hand",
        "TurnUp",
        "Hand",
        "Hand",
        "TurnUp",
    ]
    assert not game.has_errors, [d.render() for d in game.diagnostics]


def test_unseen_cards_and_glyphs() -> None:
    text = HEADER + "deal 1 dealer N S JS ?? ?? N ?? turn 4S S stands 1. S:JS!! N:2D?! end"
    (game,) = parse(text).games
    deal = game.deals[0]
    assert deal.dealt_hands[0].cards == (card("JS"), None, None)
    assert [p.glyph for p in deal.tricks[0].plays] == [Glyph.BRILLIANT, Glyph.DUBIOUS]


def test_endings_penalties_and_claim_points() -> None:
    text = (
        HEADER
        + """
deal 1 dealer N turn JS S begs N runs turn 4S S stands
  1. S:AH N:2H penalty N revoke claim N kick 1 S penalty total N 1 S 1
deal 2 dealer S turn 2C N begs S runs turn 3C redeal exhausted claim S kick
deal 3 dealer S turn 5D N stands abandoned
deal 4 dealer N turn 6D S concedes
end"""
    )
    (game,) = parse(text).games
    one, two, three, four = game.deals
    assert one.penalties[0].offender is Seat.NORTH
    assert one.penalties[0].kind is PenaltyKind.REVOKE
    assert one.claim is not None
    assert one.claim.awards[0] == Award(Seat.NORTH, ClaimItem.KICK, 1)
    assert one.claim.awards[1] == Award(Seat.SOUTH, ClaimItem.PENALTY)
    assert two.ending == Redeal(reason=RedealReason.EXHAUSTED)
    assert isinstance(three.ending, Abandoned)
    assert four.ending == Concede(seat=Seat.SOUTH)


def test_tag_values_unescape() -> None:
    text = '[Event "The \\"Big\\" one \\\\ 2026"] deal 1 dealer N turn 4S end'
    (game,) = parse(text).games
    assert game.tag("Event") == 'The "Big" one \\ 2026'


def test_tags_are_kept_in_roster_order_then_as_written() -> None:
    text = '[Zeta "z"] [Result "N"] [Alpha "a"] [Event "e"] deal 1 dealer N turn 4S end'
    (game,) = parse(text).games
    assert [t.name for t in game.tags] == ["Event", "Result", "Zeta", "Alpha"]


def test_several_games_with_explicit_boundaries() -> None:
    text = EXAMPLE_A + EXAMPLE_A.replace("% AFN 1\n", "").replace("Arima club", "Second")
    result = parse(text)
    assert [g.tag("Event") for g in result.games] == ["Arima club night", "Second night"]
    assert [g.index for g in result.games] == [1, 2]


def test_line_breaks_carry_no_meaning() -> None:
    one_line = " ".join(EXAMPLE_A.split("\n")[9:])  # the deal on one line
    assert parse(HEADER + one_line).games == parse(EXAMPLE_A).games


def test_crlf_and_bom_are_accepted() -> None:
    data = ("\ufeff" + EXAMPLE_A).replace("\n", "\r\n").encode("utf-8")
    result = parse(data)
    assert result.ok
    assert result.games == parse(EXAMPLE_A).games


def test_every_node_span_covers_exactly_its_own_text() -> None:
    """Spans are worked out by arithmetic inside coarse tokens (a header block, a run
    of plays): each must still point at its own words, on its own line and column."""
    text = (
        "% AFN 1\n"
        '[Event "e"]  [Site "s"]\n'
        '   [North "A"] { between } [South "B"]\n'
        "deal 1 dealer N\n"
        "  turn 4S S stands\n"
        "  1. S:JS N:2D! 2.\n"
        "  S:9H\n"
        "  N:3H\n"
        "end\n"
    )
    result = parse(text)
    (game,) = result.games
    lines = text.split("\n")

    def located(span: Span | None) -> str:
        assert span is not None and span.line == span.end_line
        by_offset = text[span.start : span.end]
        assert lines[span.line - 1][span.column - 1 : span.end_column - 1] == by_offset
        return by_offset

    assert [located(tag.span) for tag in game.tags] == [
        '[Event "e"]', '[Site "s"]', '[North "A"]', '[South "B"]',
    ]
    plays = list(game.deals[0].plays())
    assert [located(play.span) for play in plays] == ["S:JS", "N:2D!", "S:9H", "N:3H"]
