"""The referee's shortcuts give what the long way gives.

Hands are sorted by a table of numbers, pips and sides come from lookup tables, the
enums' letters are plain attributes, and the replay's results are built by their
slots: each of these must be indistinguishable from what it replaced.
"""

from __future__ import annotations

import inspect
import pickle
from dataclasses import MISSING, FrozenInstanceError, fields, replace
from pathlib import Path
from typing import Any

import pytest

from allfours_notation.cards import FULL_PACK, Rank, Seat, Suit
from allfours_notation.checking.parsing import parse
from allfours_notation.reading.table import SEATS_FOR_PLAYERS, side_of, side_table
from allfours_notation.referee import replay
from allfours_notation.referee.play import CARD_PIPS, HAND_ORDER, hand_key, hand_order
from allfours_notation.referee.scoring import Point
from allfours_notation.referee.state import (
    DealResult,
    GameReplay,
    build_deal_result,
    build_game_replay,
    built_by_slots,
    copied_by_slots,
)

SAMPLES = Path(__file__).resolve().parents[2] / "samples"


def _points() -> list[Point]:
    points: list[Point] = []
    for name in ("club-night.afn", "four-handed-trinidad.afn", "disputed-claim.afn"):
        for game in parse((SAMPLES / name).read_bytes(), filename=name).games:
            for deal in replay(game, record_states=False).deals:
                points.extend(deal.points)
    return points


def test_reasons_are_the_texts_people_read() -> None:
    reasons = [point.reason for point in _points()]
    assert all(isinstance(reason, str) and reason for reason in reasons)
    assert any(" was dealt " in reason for reason in reasons)
    assert any("pips toward Game (" in reason for reason in reasons)
    assert any(reason.endswith(" scores Game") for reason in reasons) or \
        any("won the most pips" in reason for reason in reasons)


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


def test_deal_facts_filled_as_a_draft_are_the_dataclass() -> None:
    from allfours_notation.referee.scoring import DealFacts, deal_facts

    values = [f"value {n}" for n in range(len(fields(DealFacts)))]
    facts = deal_facts(*values)
    assert type(facts) is DealFacts and facts == DealFacts(*values)  # type: ignore[arg-type]
    with pytest.raises(FrozenInstanceError):
        facts.pips = None  # type: ignore[misc]
    with pytest.raises(ValueError):
        deal_facts(*values[:-1])


@pytest.mark.parametrize("kind", [DealResult, GameReplay])
def test_a_record_built_by_its_slots_is_the_record_the_class_makes(kind: type[Any]) -> None:
    """``built_by_slots`` takes the class's parameters and defaults (by keyword) and
    makes what the class makes."""
    build = built_by_slots(kind)
    wanted = [(p.name, p.default) for p in inspect.signature(kind).parameters.values()]
    assert [(p.name, p.default) for p in inspect.signature(build).parameters.values()] == wanted
    required = {f.name: f.name for f in fields(kind) if f.default is MISSING}
    record = build(**required)
    assert type(record) is kind and record == kind(**required)
    every = {f.name: index for index, f in enumerate(fields(kind))}
    assert build(**every) == kind(**every) != record
    assert pickle.loads(pickle.dumps(record)) == record == replace(record)
    with pytest.raises(FrozenInstanceError):
        setattr(record, fields(kind)[0].name, None)
    with pytest.raises(TypeError):
        build(**required, unknown=1)


def test_a_record_copied_by_its_slots_is_what_replace_makes() -> None:
    """``copied_by_slots`` (a draft filled in, then made the record) gives the record
    ``dataclasses.replace`` gives: the class itself, frozen, the other fields kept."""
    every: dict[str, Any] = {f.name: index for index, f in enumerate(fields(DealResult))}
    old = build_deal_result(**every)
    copy = copied_by_slots(DealResult, ("points", "ending"))
    new = copy(old, points=(), ending="abandoned")
    assert type(new) is DealResult and new == replace(old, points=(), ending="abandoned")
    assert new != old and new.number == old.number and new.time == old.time
    with pytest.raises(FrozenInstanceError):
        new.ending = None  # type: ignore[misc]
    with pytest.raises(TypeError):
        copied_by_slots(DealResult, ("no_such_field",))


def test_the_referee_builds_its_records_by_their_slots() -> None:
    assert build_deal_result.__name__ == "build_DealResult"
    assert build_game_replay.__name__ == "build_GameReplay"
