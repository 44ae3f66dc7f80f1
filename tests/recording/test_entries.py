"""What the scorer types, read into entries: short where the table says what comes next."""

from __future__ import annotations

import pytest

from allfours_notation import Seat, card
from allfours_notation.reading.records import (
    Abandoned,
    Call,
    CallKind,
    Claim,
    ClaimItem,
    CommentStyle,
    Concede,
    Glyph,
    Hand,
    Penalty,
    PenaltyKind,
    Play,
    Redeal,
    RedealReason,
    TurnUp,
)
from allfours_notation.recording.entries import (
    Annotation,
    DealStart,
    Expectation,
    Phase,
    read_entry,
)

SEATS = (Seat.NORTH, Seat.SOUTH)
PLAY = Expectation(Phase.PLAY, Seat.SOUTH, "S to play", offered=(card("JS"), card("9H")),
                   seats=SEATS)


@pytest.mark.parametrize("typed", ["js", "JS", "j♠", "J♤", " js "])
def test_a_card_is_two_keystrokes_in_any_spelling(typed: str) -> None:
    assert read_entry(typed, PLAY) == Play(card=card("JS"), seat=Seat.SOUTH)


@pytest.mark.parametrize("typed", ["10h", "th", "TH", "10♥"])
def test_a_ten_is_10_or_t(typed: str) -> None:
    assert read_entry(typed, PLAY) == Play(card=card("TH"), seat=Seat.SOUTH)


def test_a_digit_picks_a_legal_card_by_position() -> None:
    assert read_entry("2", PLAY) == Play(card=card("9H"), seat=Seat.SOUTH)
    assert read_entry("3", PLAY) == "choose 1 to 2 among the cards offered"
    unknown = Expectation(Phase.PLAY, Seat.SOUTH, "", seats=SEATS)
    assert "not known" in str(read_entry("1", unknown))


def test_another_seat_and_a_glyph_can_be_written_with_the_card() -> None:
    assert read_entry("n:2d!?", PLAY) == Play(card=card("2D"), seat=Seat.NORTH,
                                              glyph=Glyph.INTERESTING)


def test_short_calls_mean_what_the_table_waits_for() -> None:
    call = Expectation(Phase.CALL, Seat.SOUTH, "", seats=SEATS)
    answer = Expectation(Phase.ANSWER, Seat.NORTH, "", seats=SEATS)
    assert read_entry("s", call) == Call(seat=Seat.SOUTH, kind=CallKind.STANDS)
    assert read_entry("b", call) == Call(seat=Seat.SOUTH, kind=CallKind.BEGS)
    assert read_entry("g", answer) == Call(seat=Seat.NORTH, kind=CallKind.GIVES)
    assert read_entry("r", answer) == Call(seat=Seat.NORTH, kind=CallKind.RUNS)
    assert read_entry("n stands", call) == Call(seat=Seat.NORTH, kind=CallKind.STANDS)


def test_the_opening_takes_hands_and_the_turn_up() -> None:
    turn = Expectation(Phase.TURN, Seat.NORTH, "", seats=SEATS)
    assert read_entry("4s", turn) == TurnUp(card=card("4S"))
    assert read_entry("S: js ?? 8h ?? ?? ??", turn) == Hand(
        seat=Seat.SOUTH, cards=(card("JS"), None, card("8H"), None, None, None))
    assert "a hand is dealt 6" in str(read_entry("S: js ?? 8h", turn))  # partial: refused
    assert "not a card" in str(read_entry("s js xx", turn))


def test_the_dealer_is_a_seat_or_enter_for_the_proposed_one() -> None:
    dealer = Expectation(Phase.DEALER, None, "", default=Seat.SOUTH, seats=SEATS)
    assert read_entry("", dealer) == DealStart(dealer=Seat.SOUTH)
    assert read_entry("n", dealer) == DealStart(dealer=Seat.NORTH)
    assert "who deals" in str(read_entry("e", dealer))  # East is not at a two-handed table


def test_endings_penalties_and_claims() -> None:
    assert read_entry("abandoned", PLAY) == Abandoned()
    assert read_entry("n concedes", PLAY) == Concede(seat=Seat.NORTH)
    assert read_entry("redeal misdeal", PLAY) == Redeal(reason=RedealReason.MISDEAL)
    assert read_entry("penalty s revoke", PLAY) == Penalty(offender=Seat.SOUTH,
                                                            kind=PenaltyKind.REVOKE)
    claim = read_entry("claim s high low n game 2", PLAY)
    assert isinstance(claim, Claim)
    assert [(a.seat.letter, a.item, a.points) for a in claim.awards] == [
        ("S", ClaimItem.HIGH, None), ("S", ClaimItem.LOW, None), ("N", ClaimItem.GAME, 2)]
    assert "not a claim item" in str(read_entry("claim s lots", PLAY))


def test_comments_and_glyphs_are_annotations() -> None:
    braced = read_entry("{ a fine lead }", PLAY)
    assert isinstance(braced, Annotation) and braced.comment is not None
    assert braced.comment.text == " a fine lead " and braced.comment.style is CommentStyle.BRACE
    line = read_entry("; chalk it up", PLAY)
    assert isinstance(line, Annotation) and line.comment is not None
    assert line.comment.style is CommentStyle.LINE
    assert read_entry("!!", PLAY) == Annotation(glyph=Glyph.BRILLIANT)


def test_nonsense_is_answered_in_one_line() -> None:
    answer = read_entry("xyz", PLAY)
    assert isinstance(answer, str) and "\n" not in answer and "not a card" in answer
