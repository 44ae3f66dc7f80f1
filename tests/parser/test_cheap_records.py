"""Cheap records: spans that keep offsets, plays and tricks filled in slot by slot.

They must stay what they were: immutable values, equal to the records the
dataclass constructors make, and every line and column the same as counting
the text from its start.
"""

from __future__ import annotations

import copy
import dataclasses
import pickle
from pathlib import Path

import pytest

from allfours_notation import card, parse
from allfours_notation.cards import Seat
from allfours_notation.reading import records as records_module
from allfours_notation.reading.records import (
    Glyph,
    Node,
    Play,
    Span,
    TextLines,
    Trick,
    make_play,
    make_trick,
    with_seat,
)

SAMPLES = sorted((Path(__file__).resolve().parents[2] / "samples").glob("*.afn"))


def counted(text: str, offset: int) -> tuple[int, int]:
    """Line and column of ``offset`` the slow way: counting line feeds from the start."""
    line = text.count("\n", 0, offset) + 1
    return line, offset - text.rfind("\n", 0, offset)


def spans_of(value: object) -> list[Span]:
    """Every span in a record tree."""
    found: list[Span] = []
    if isinstance(value, tuple):
        for item in value:
            found.extend(spans_of(item))
    elif dataclasses.is_dataclass(value) and not isinstance(value, type):
        for f in dataclasses.fields(value):
            item = getattr(value, f.name)
            if isinstance(item, Span):
                found.append(item)
            else:
                found.extend(spans_of(item))
    return found


@pytest.mark.parametrize("path", SAMPLES, ids=lambda path: path.name)
def test_every_span_of_a_sample_is_where_counting_lines_puts_it(path: Path) -> None:
    text = path.read_text(encoding="utf-8")
    result = parse(text)
    checked = 0
    for game in result.games:
        if game.broken:
            continue
        for span in spans_of((game.tags, game.deals)):
            assert (span.line, span.column) == counted(text, span.start), span
            assert (span.end_line, span.end_column) == counted(text, span.end), span
            checked += 1
    assert checked > 0


def test_positions_in_a_game_that_starts_mid_line_and_after_crlf() -> None:
    text = "% AFN 1\r\nend end deal 1 dealer N\r\n  S:JS N:2D\r\n  N:3H S:4H { x }\r\nend\r\n"
    result = parse(text)
    game = result.games[-1]
    for span in spans_of(game.deals):
        assert (span.line, span.column) == counted(text, span.start)
        assert (span.end_line, span.end_column) == counted(text, span.end)
    first = next(game.deals[0].plays())
    assert first.span is not None and (first.span.line, first.span.column) == (3, 3)


def test_text_lines_counts_from_where_the_game_starts() -> None:
    body = "ab\ncd\n\nefg"
    lines = TextLines(body, offset=10, line=5, column=7)
    assert lines.at(10) == (5, 7)
    assert lines.at(12) == (5, 9)  # the line feed itself ends line 5
    assert lines.at(13) == (6, 1)
    assert lines.at(16) == (7, 1)
    assert lines.at(20) == (8, 4)


def test_text_lines_counted_near_the_start_or_looked_up_in_its_index_agree() -> None:
    """A position near the game's start is counted, one further in is looked up in
    the index of line starts, which is kept once made: every offset, asked first or
    after the index exists, is where counting the whole text puts it."""
    body = "".join(f"line {n}\n" + "x" * (n % 7) + ("\n" if n % 3 else "") for n in range(120))
    assert len(body) > 2 * records_module._COUNTED_NEAR_START
    for offset in range(len(body) + 1):
        fresh = TextLines(body, offset=100, line=3, column=5)
        indexed = TextLines(body, offset=100, line=3, column=5)
        indexed.at(100 + len(body))  # far from the start: makes the index
        line, column = counted(body, offset)
        expected = (line + 2, column + (4 if line == 1 else 0))
        assert fresh.at(100 + offset) == indexed.at(100 + offset) == expected, offset


def test_a_lazy_span_equals_hashes_and_prints_as_the_span_of_every_number() -> None:
    lines = TextLines("x\nyz", offset=0)
    lazy = Span.at(lines, 2, 4)
    eager = Span(2, 1, 2, 3, 2, 4)
    assert lazy == eager and hash(lazy) == hash(eager)
    assert repr(lazy) == repr(eager) == (
        "Span(line=2, column=1, end_line=2, end_column=3, start=2, end=4)")
    assert lazy != Span(2, 1, 2, 3, 2, 5)
    assert pickle.loads(pickle.dumps(Span.at(lines, 2, 4))) == eager
    assert copy.deepcopy(Span.at(lines, 0, 1)) == Span(1, 1, 1, 2, 0, 1)


@pytest.mark.parametrize("name", ["line", "column", "start", "end", "_where"])
def test_a_span_cannot_be_changed(name: str) -> None:
    span = Span.at(TextLines("abc"), 0, 1)
    with pytest.raises(dataclasses.FrozenInstanceError):
        setattr(span, name, 3)
    with pytest.raises(dataclasses.FrozenInstanceError):
        delattr(span, name)
    assert (span.start, span.end, span.line, span.column) == (0, 1, 1, 1)


def test_made_plays_and_tricks_are_the_records_the_constructors_make() -> None:
    span = Span(1, 1, 1, 5, 0, 4)
    made = make_play(card("JS"), Seat.SOUTH, Glyph.GOOD, span)
    built = Play(card=card("JS"), seat=Seat.SOUTH, glyph=Glyph.GOOD, span=span)
    assert made == built and hash(made) == hash(built) and repr(made) == repr(built)
    assert (made.leading, made.trailing, made.span) == ((), (), span)
    assert isinstance(made, Node)
    trick = make_trick(2, (made,), False, None)
    assert trick == Trick(number=2, plays=(built,), numbered=False)
    assert (trick.numbered, trick.leading, trick.trailing, trick.span) == (False, (), (), None)
    assert dataclasses.replace(made, glyph=None) == Play(card=card("JS"), seat=Seat.SOUTH)


def test_a_play_given_its_seat_is_the_play_replace_makes() -> None:
    """with_seat copies every field, comments and span included, and only the seat
    changes (``fmt`` fills seats with it)."""
    game = parse("deal 1 dealer N\n  {lead} 1. JS! {x} ; after\nend\n").games[0]
    play = game.deals[0].tricks[0].plays[0]
    assert play.seat is None and (play.leading or play.trailing)
    seated = with_seat(play, Seat.EAST)
    assert seated == dataclasses.replace(play, seat=Seat.EAST)
    assert hash(seated) == hash(dataclasses.replace(play, seat=Seat.EAST))
    assert [getattr(seated, f.name) for f in dataclasses.fields(Play) if f.name != "seat"] == \
        [getattr(play, f.name) for f in dataclasses.fields(Play) if f.name != "seat"]
    with pytest.raises(dataclasses.FrozenInstanceError):
        seated.seat = None  # type: ignore[misc]


def test_parsed_plays_and_tricks_cannot_be_changed() -> None:
    game = parse("deal 1 dealer N\n  S:JS N:2D\nend\n").games[0]
    trick = game.deals[0].tricks[0]
    play = trick.plays[0]
    for record, name, value in ((play, "card", card("2D")), (play, "seat", None),
                                (play, "span", None), (trick, "plays", ()),
                                (trick, "number", 3)):
        with pytest.raises(dataclasses.FrozenInstanceError):
            setattr(record, name, value)
    assert play.card == card("JS") and trick.number == 1


def records_of(value: object) -> list[object]:
    """Every record and span in a record tree, the tree's own included."""
    found: list[object] = []
    if isinstance(value, tuple):
        for item in value:
            found.extend(records_of(item))
    elif isinstance(value, Span):
        found.append(value)
    elif dataclasses.is_dataclass(value) and not isinstance(value, type):
        found.append(value)
        for f in dataclasses.fields(value):
            found.extend(records_of(getattr(value, f.name)))
    return found


@pytest.mark.parametrize("path", SAMPLES[:4], ids=lambda path: path.name)
def test_no_draft_leaves_the_parser(path: Path) -> None:
    """Records and spans are filled in as drafts (``draft_of``) and made their own class
    before anyone sees them: every one read from a sample is of its record's class (not
    a draft), equal to itself rebuilt by its constructor, and refuses assignment."""
    result = parse(path.read_text(encoding="utf-8"))
    made = records_of(tuple(result.games))
    assert len(made) > 100
    for record in made:
        kind = type(record)
        assert not kind.__name__.startswith("_Draft"), kind
        if isinstance(record, Node):
            rebuilt = kind(**{f.name: getattr(record, f.name) for f in dataclasses.fields(record)})
            assert rebuilt == record and hash(rebuilt) == hash(record)
            with pytest.raises(dataclasses.FrozenInstanceError):
                record.span = None  # type: ignore[misc]
        if isinstance(record, Span):
            with pytest.raises(dataclasses.FrozenInstanceError):
                record.start = 0


def test_a_draft_is_the_record_once_made() -> None:
    """``draft_of`` makes a class of the record's slots that can be filled in; once its
    ``__class__`` is set back the record is the frozen record its constructor makes."""
    from allfours_notation.frozen import draft_of

    draft = draft_of(Trick)
    assert issubclass(draft, Trick) and draft.__dict__["__slots__"] == ()
    record = object.__new__(draft)
    for name, value in (("number", 1), ("plays", ()), ("numbered", False), ("span", None),
                        ("leading", ()), ("trailing", ())):
        setattr(record, name, value)
    record.__class__ = Trick
    assert type(record) is Trick and record == Trick(number=1, plays=(), numbered=False)
    with pytest.raises(dataclasses.FrozenInstanceError):
        record.number = 2  # type: ignore[misc]


def test_the_assembler_splits_tags_as_the_slicer_reads_them() -> None:
    """A header block is split into tags with the slicer's expression (a value's plain
    characters taken as runs): the same names and values, escapes and all."""
    from allfours_notation.reading import slicer, statements

    assert statements._TAG_RE.pattern == slicer._TAG.pattern
    game = parse('[Event "a \\\\ b \\" c"] [Site "x"]\ndeal 1 dealer N\nend\n').games[0]
    assert [(tag.name, tag.value) for tag in game.tags] == [("Event", 'a \\ b " c'),
                                                             ("Site", "x")]
