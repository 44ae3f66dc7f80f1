"""A game's identity: a digest of its records, so that layout does not matter.

Two games are the same game when their records are equal (the parser's notion
of equality: tags, deals, comments; not positions, not the file they came
from, not how the text was laid out).  The digest is stable across runs and
machines, so a database can keep it and refuse a game it already holds.  A game
that could not be parsed has no records to compare: its text, with runs of
white space made one, stands in for them.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Iterable
from dataclasses import fields, is_dataclass
from enum import Enum
from operator import attrgetter
from typing import Any

from ..cards import Card, Rank, Seat, Suit
from ..reading.records import (
    Call,
    CallKind,
    Claim,
    ClaimItem,
    Deal,
    Game,
    Tag,
    Total,
    Trick,
    TurnUp,
)

_Writer = Callable[[Any, list[str]], None]
# Fields added to the records after games were first digested (a deal's clock time and
# count for Game, issue 38): left out while empty, so that every game written without
# them keeps its digest, and a database or event exported before still knows it.
_ADDED_LATER = frozenset({"count", "time"})
_WRITERS: dict[type, _Writer] = {}
# Each enum's members' texts by name, filled as _WRITERS finds the enum.
_ENUM_TEXTS: dict[type, dict[str, str]] = {}
# A record of two fields or more with none added later: its name and the reader of its
# fields, for the walk to write it without a call of its own; filled as _WRITERS finds it.
_RECORDS: dict[type, tuple[str, Callable[[Any], tuple[Any, ...]]]] = {}


def game_digest(game: Game, text: str = "") -> str:
    """Hex SHA-256 of the game's records; ``text`` (its source) is used only when
    the game is broken."""
    if game.broken:
        return "text:" + hashlib.sha256(" ".join(text.split()).encode("utf-8")).hexdigest()
    parts: list[str] = []
    _write(game, parts)
    return hashlib.sha256("\x1f".join(parts).encode("utf-8")).hexdigest()


def _write(value: Any, parts: list[str]) -> None:
    kind = type(value)
    writer = _WRITERS.get(kind)
    if writer is None:
        writer = _WRITERS[kind] = _writer_for(kind)
    writer(value, parts)


def _write_items(values: Iterable[Any], parts: list[str]) -> None:
    """Each value written in turn, a string, a number, None, a tuple, a member of an
    enum or a plain record without a call of a writer of its own: most of a game's
    values are those, and the walk is an event build's hundred thousand calls a thousand
    games (issue 38)."""
    append = parts.append
    for value in values:
        kind = type(value)
        if kind is str or kind is int or kind is bool:
            append(repr(value))
        elif value is None:
            append("None")
        elif kind is tuple:
            if value:
                append(f"({len(value)}")
                _write_items(value, parts)
            else:  # a record's comments, mostly
                append("(0")
        else:
            texts = _ENUM_TEXTS.get(kind)
            if texts is not None:
                # ``_name_`` rather than ``name``: the enum's descriptor costs ten times a slot
                append(texts[value._name_])
                continue
            record = _RECORDS.get(kind)
            if record is not None:
                label, read = record
                append(label)
                _write_items(read(value), parts)
                continue
            writer = _WRITERS.get(kind)
            if writer is None:
                writer = _WRITERS[kind] = _writer_for(kind)
            writer(value, parts)


def _writer_for(kind: type) -> _Writer:
    """How a value of this type is written into the digest; found once per type."""
    if kind in (str, int, bool, type(None)):
        return lambda value, parts: parts.append(repr(value))
    if kind is Card:
        return lambda value, parts: parts.append(_CARD_TEXTS[value])
    if kind in _RECORD_WRITERS:
        return _RECORD_WRITERS[kind]
    if issubclass(kind, Enum):
        texts = _ENUM_TEXTS[kind] = _enum_texts(kind)
        return lambda value, parts: parts.append(texts[value._name_])
    if kind in (tuple, list):
        def sequence(value: Any, parts: list[str]) -> None:
            parts.append(f"({len(value)}")
            _write_items(value, parts)
        return sequence
    if is_dataclass(kind):
        names = _compared(kind)
        if len(names) > 1 and _ADDED_LATER.isdisjoint(names):  # plain: no call of its own
            _RECORDS[kind] = (kind.__name__, attrgetter(*names))
        return _record_writer(kind)
    raise TypeError(f"no identity for {kind.__name__}")


def _compared(kind: type) -> tuple[str, ...]:
    return tuple(field.name for field in fields(kind) if field.compare)


def _record_writer(kind: type) -> _Writer:
    """A record: its name, then its fields compared, in order; a field added later is
    left out where it is None."""
    names = _compared(kind)
    label = kind.__name__
    if not names:
        return lambda value, parts: parts.append(label)
    read = attrgetter(*names)
    # last first, so that taking one out leaves the places of the others
    later = sorted((position for position, name in enumerate(names) if name in _ADDED_LATER),
                   reverse=True)
    if later:
        def with_later(value: Any, parts: list[str]) -> None:
            parts.append(label)
            items = list(read(value))
            for position in later:
                if items[position] is None:
                    del items[position]
            _write_items(items, parts)
        return with_later
    if len(names) == 1:
        def one(value: Any, parts: list[str]) -> None:
            parts.append(label)
            _write_items((read(value),), parts)
        return one

    def record(value: Any, parts: list[str]) -> None:
        parts.append(label)
        _write_items(read(value), parts)
    return record


def _write_trick(trick: Trick, parts: list[str]) -> None:
    """Tricks and plays are nine tenths of a game's records: written in one step, a
    play's text made here rather than in a function of its own (a call a play was a
    tenth of the digest, issue 38), with the generic walk only for comments."""
    append = parts.append
    append(f"Trick{trick.number}")
    if trick.leading or trick.trailing:
        _write(trick.leading, parts)
        _write(trick.trailing, parts)
    for play in trick.plays:
        seat = play.seat
        text = _PLAY_TEXTS[None if seat is None else seat._value_][play.card]
        glyph = play.glyph
        append(text if glyph is None else text + glyph._value_)
        if play.leading or play.trailing:
            _write(play.leading, parts)
            _write(play.trailing, parts)


# Each card's text, made once: a card is one object (``Card(suit, rank)`` hands back the
# same one), so the table is every card there can be, looked up by identity.
_CARD_TEXTS: dict[Card, str] = {Card(suit, rank): str(Card(suit, rank))
                                for suit in Suit for rank in Rank}
# A play's text without its glyph, by its seat's letter (None: no seat) and its card:
# looked up rather than put together, no string made for most plays.
_PLAY_TEXTS: dict[str | None, dict[Card, str]] = {
    letter: {card: ("-" if letter is None else letter) + text
             for card, text in _CARD_TEXTS.items()}
    for letter in (None, *(seat._value_ for seat in Seat))}


def _enum_texts(kind: type[Enum]) -> dict[str, str]:
    return {member._name_: f"{kind.__name__}.{member._name_}"
            for member in kind.__members__.values()}


_SEAT_TEXTS = _enum_texts(Seat)
_ITEM_TEXTS = _enum_texts(ClaimItem)
_CALL_TEXTS = _enum_texts(CallKind)


def _write_claim(claim: Claim, parts: list[str]) -> None:
    """A claim and its awards, as the generic walk writes them (a test holds the two
    together), in one step: a deal's claim and total are a third of the records the walk
    would find (issue 38)."""
    append = parts.append
    append("Claim")
    _write_comments(claim.leading, claim.trailing, parts)
    awards = claim.awards
    append(f"({len(awards)}")
    seats, items = _SEAT_TEXTS, _ITEM_TEXTS
    for award in awards:
        points = award.points
        append("Award")
        append(seats[award.seat._name_])
        append(items[award.item._name_])
        append("None" if points is None else repr(points))


def _write_total(total: Total, parts: list[str]) -> None:
    """A running total and its scores, as the generic walk writes them, in one step."""
    append = parts.append
    append("Total")
    _write_comments(total.leading, total.trailing, parts)
    scores = total.scores
    append(f"({len(scores)}")
    seats = _SEAT_TEXTS
    for score in scores:
        append("Score")
        append(seats[score.seat._name_])
        append(repr(score.points))


def _write_deal(deal: Deal, parts: list[str]) -> None:
    """A deal, as the generic walk writes it (its count and time left out while None),
    in one step: its tricks, claim and total straight to their writers."""
    append = parts.append
    append("Deal")
    _write_comments(deal.leading, deal.trailing, parts)
    append(repr(deal.number))
    append(_SEAT_TEXTS[deal.dealer._name_])
    _write_items((deal.opening,), parts)
    tricks = deal.tricks
    append(f"({len(tricks)}")
    for trick in tricks:
        _write_trick(trick, parts)
    claim, total = deal.claim, deal.total
    _write_items((deal.penalties,), parts)
    if claim is None:
        append("None")
    else:
        _write_claim(claim, parts)
    if total is None:
        append("None")
    else:
        _write_total(total, parts)
    _write_items((deal.ending, deal.results), parts)
    if deal.count is not None:
        _write_items((deal.count,), parts)
    if deal.time is not None:
        append(repr(deal.time))


def _write_turn_up(turn_up: TurnUp, parts: list[str]) -> None:
    """A turn-up, as the generic walk writes it, in one step (as a call)."""
    parts.append("TurnUp")
    _write_comments(turn_up.leading, turn_up.trailing, parts)
    parts.append(_CARD_TEXTS[turn_up.card])


def _write_call(call: Call, parts: list[str]) -> None:
    """A call, as the generic walk writes it, in one step: a deal's opening is mostly
    turn-ups and calls."""
    parts.append("Call")
    _write_comments(call.leading, call.trailing, parts)
    parts += (_SEAT_TEXTS[call.seat._name_], _CALL_TEXTS[call.kind._name_])


def _write_tag(tag: Tag, parts: list[str]) -> None:
    """A tag, as the generic walk writes it, in one step: a game's nine tags are a
    fifth of the records the walk would find."""
    parts.append("Tag")
    _write_comments(tag.leading, tag.trailing, parts)
    parts += (repr(tag.name), repr(tag.value))


def _write_comments(leading: tuple[Any, ...], trailing: tuple[Any, ...],
                    parts: list[str]) -> None:
    if leading or trailing:
        _write_items((leading, trailing), parts)
    else:
        parts += ("(0", "(0")


_RECORD_WRITERS: dict[type, _Writer] = {Trick: _write_trick, Claim: _write_claim,
                                        Total: _write_total, Tag: _write_tag,
                                        Deal: _write_deal, TurnUp: _write_turn_up,
                                        Call: _write_call}
