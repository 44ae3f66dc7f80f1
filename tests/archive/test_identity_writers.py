"""The digest's writers of one record type write what the generic walk writes: they are
a shortcut (issue 38), and a field added to the record without them fails here."""

from __future__ import annotations

from allfours_notation.archive import identity
from allfours_notation.cards import Card, Rank, Seat, Suit
from allfours_notation.reading.records import (
    Award,
    Call,
    CallKind,
    Claim,
    ClaimItem,
    Comment,
    Count,
    Deal,
    Play,
    Score,
    Tag,
    Total,
    Trick,
    TurnUp,
)

_NOTE = (Comment(text="fast"),)


def _both(record: object) -> tuple[list[str], list[str]]:
    fast: list[str] = []
    identity._RECORD_WRITERS[type(record)](record, fast)
    generic: list[str] = []
    identity._record_writer(type(record))(record, generic)
    return fast, generic


def test_a_claim_is_written_as_the_generic_walk_writes_it() -> None:
    awards = (Award(seat=Seat.NORTH, item=ClaimItem.HIGH),
              Award(seat=Seat.WEST, item=ClaimItem.GAME, points=3))
    for claim in (Claim(awards=awards), Claim(awards=()),
                  Claim(leading=_NOTE, awards=awards), Claim(trailing=_NOTE, awards=awards)):
        fast, generic = _both(claim)
        assert fast == generic
        assert "Award" in fast or not claim.awards


def test_a_total_is_written_as_the_generic_walk_writes_it() -> None:
    scores = (Score(seat=Seat.NORTH, points=2), Score(seat=Seat.EAST, points=11))
    for total in (Total(scores=scores), Total(scores=()), Total(leading=_NOTE, scores=scores)):
        fast, generic = _both(total)
        assert fast == generic
        assert fast[0] == "Total"


def test_a_tag_is_written_as_the_generic_walk_writes_it() -> None:
    for tag in (Tag(name="Event", value="Cup 'final'"), Tag(name="Site", value=""),
                Tag(leading=_NOTE, name="Round", value="2")):
        fast, generic = _both(tag)
        assert fast == generic
        assert repr(tag.value) in fast


def test_a_deal_is_written_as_the_generic_walk_writes_it() -> None:
    scores = (Score(seat=Seat.NORTH, points=2),)
    trick = Trick(number=1, plays=(Play(card=Card(Suit.SPADES, Rank.JACK), seat=Seat.EAST),))
    plain = Deal(number=3, dealer=Seat.WEST, tricks=(trick,),
                 claim=Claim(awards=(Award(seat=Seat.EAST, item=ClaimItem.JACK),)),
                 total=Total(scores=scores))
    for deal in (plain, Deal(number=1, dealer=Seat.NORTH),
                 Deal(number=2, dealer=Seat.SOUTH, leading=_NOTE, time="20:41",
                      count=Count(scores=scores), total=Total(scores=scores))):
        fast, generic = _both(deal)
        assert fast == generic
        assert fast[:1] == ["Deal"] and (deal.time is None) == ("'20:41'" not in fast)


def test_a_turn_up_and_a_call_are_written_as_the_generic_walk_writes_them() -> None:
    for record in (TurnUp(card=Card(Suit.HEARTS, Rank.TEN)),
                   TurnUp(trailing=_NOTE, card=Card(Suit.CLUBS, Rank.TWO)),
                   Call(seat=Seat.SOUTH, kind=CallKind.BEGS),
                   Call(leading=_NOTE, seat=Seat.EAST, kind=CallKind.RUNS)):
        fast, generic = _both(record)
        assert fast == generic
        assert fast[0] == type(record).__name__
