"""The referee's shortcuts give what the long way gives.

Reasons are written when first read, hands are sorted by a table of numbers, pips
and sides come from lookup tables, and the enums' letters are plain attributes:
each of these must be indistinguishable from what it replaced.
"""

from __future__ import annotations

import copy
import pickle
from dataclasses import FrozenInstanceError, replace
from pathlib import Path

import pytest

from allfours_notation.cards import FULL_PACK, Rank, Seat, Suit
from allfours_notation.checking.parsing import parse
from allfours_notation.reading.table import SEATS_FOR_PLAYERS, side_of, side_table
from allfours_notation.referee import replay
from allfours_notation.referee.play import CARD_PIPS, HAND_ORDER, hand_key, hand_order
from allfours_notation.referee.scoring import Point

SAMPLES = Path(__file__).resolve().parents[2] / "samples"


def _points() -> list[Point]:
    points: list[Point] = []
    for name in ("club-night.afn", "four-handed-trinidad.afn", "disputed-claim.afn"):
        for game in parse((SAMPLES / name).read_bytes(), filename=name).games:
            for deal in replay(game, record_states=False).deals:
                points.extend(deal.points)
    return points


def test_a_point_whose_reason_is_written_late_is_an_ordinary_point() -> None:
    points = _points()
    assert len(points) > 20
    for point in points:
        eager = Point(point.side, point.seat, point.item, point.points, point.reason)
        assert point == eager and hash(point) == hash(eager) and repr(point) == repr(eager)
        assert pickle.loads(pickle.dumps(point)) == eager
        assert copy.deepcopy(point) == eager
        assert replace(point, points=point.points + 1).reason == point.reason
        with pytest.raises(FrozenInstanceError):
            point.reason = "changed"  # type: ignore[misc]


def test_reasons_are_the_texts_people_read() -> None:
    reasons = [point.reason for point in _points()]
    assert all(isinstance(reason, str) and reason for reason in reasons)
    assert any(" was dealt " in reason for reason in reasons)
    assert any("pips toward Game (" in reason for reason in reasons)
    assert any(reason.endswith(" scores Game") for reason in reasons) or \
        any("won the most pips" in reason for reason in reasons)


def test_a_late_reason_is_written_once() -> None:
    point = _points()[0]
    assert point.reason is point.reason


def test_lookup_tables_agree_with_the_functions_they_replace() -> None:
    for card in FULL_PACK:
        assert CARD_PIPS[card] == card.pips == card.rank.pips
        assert hand_order(card) == HAND_ORDER[card]
    by_key = sorted(FULL_PACK, key=hand_key)
    assert sorted(reversed(FULL_PACK), key=hand_order) == by_key
    for seats in SEATS_FOR_PLAYERS.values():
        for seat in Seat:
            assert side_table(seats)[seat] == side_of(seat, seats)


def test_letters_are_the_canonical_ones() -> None:
    assert [seat.letter for seat in Seat] == ["N", "E", "S", "W"]
    assert [suit.letter for suit in Suit] == ["S", "H", "D", "C"]
    assert "".join(rank.letter for rank in Rank) == "23456789TJQKA"
    assert pickle.loads(pickle.dumps(Rank.TEN)).letter == "T"


def test_deal_facts_filled_slot_by_slot_are_the_dataclass() -> None:
    from dataclasses import fields

    from allfours_notation.referee.scoring import DealFacts, deal_facts

    values = [f"value {n}" for n in range(len(fields(DealFacts)))]
    assert deal_facts(*values) == DealFacts(*values)  # type: ignore[arg-type]
