"""Hypothesis strategies for structurally valid AFN records.

"Valid" means: records the parser can produce.  Values are random (cards need
not make a legal deal; structure diagnostics do not take part in equality), but
comments sit only where the parser can put them: any comments may lead a node;
trailing ones are single-line brace comments, the last of which may instead be
multi-line or a ``;`` comment (a ``;`` comment ends its line, so nothing can
trail after it).  Tricks carry no comments of their own (the parser gives them
to the cards), and claims are grouped by seat as the parser keeps them.
"""

from __future__ import annotations

import functools
from typing import Any

from hypothesis import strategies as st

from allfours_notation.cards import FULL_PACK, Card, Seat
from allfours_notation.reading.assembler import ROSTER, sorted_tags
from allfours_notation.reading.parser import ParseResult
from allfours_notation.reading.records import (
    Abandoned,
    Award,
    Call,
    CallKind,
    Claim,
    ClaimItem,
    Comment,
    CommentStyle,
    Concede,
    Count,
    Deal,
    Ending,
    Game,
    Glyph,
    Hand,
    OpeningEvent,
    Penalty,
    PenaltyKind,
    Play,
    Redeal,
    RedealReason,
    Score,
    Tag,
    Total,
    Trick,
    TurnUp,
)
from allfours_notation.reading.table import SEATS_FOR_PLAYERS

# Text people write in comments and tags: any character UTF-8 can carry, pieces
# that mean something elsewhere in AFN, but no carriage return (the parser drops a
# ';' comment's final CR, as it belongs to a CRLF line end).
_LINE_TEXT = st.text(st.characters(codec="utf-8", exclude_characters="\n\r"), max_size=20)
_SPICY = st.sampled_from(["end", "deal 2 dealer N", '[Event "x"]', "% AFN 2", ";", "{", '"', "\\"])
_LINE_TEXT_SPICY = st.one_of(_LINE_TEXT, _SPICY, st.tuples(_LINE_TEXT, _SPICY).map("".join))

seats = st.sampled_from(list(Seat))
cards: st.SearchStrategy[Card] = st.sampled_from(FULL_PACK)


def _no_brace_end(text: str) -> str:
    return text.replace("}", ")")


single_line_brace = _LINE_TEXT_SPICY.map(lambda t: Comment(_no_brace_end(t), CommentStyle.BRACE))
multi_line_brace = st.lists(_LINE_TEXT_SPICY, min_size=2, max_size=3).map(
    lambda parts: Comment(_no_brace_end("\n".join(parts)), CommentStyle.BRACE)
)
line_comment = _LINE_TEXT_SPICY.map(lambda t: Comment(t, CommentStyle.LINE))
any_comment = st.one_of(single_line_brace, multi_line_brace, line_comment)


@st.composite
def trailing_comments(draw: st.DrawFn) -> tuple[Comment, ...]:
    """Comments after a node on its line: brace comments, perhaps ending in one
    that ends the line (multi-line brace or ``;``)."""
    if not draw(st.booleans()):
        return ()
    first = draw(st.lists(single_line_brace, max_size=2))
    last = draw(st.one_of(st.none(), multi_line_brace, line_comment))
    return (*first, *([last] if last is not None else []))


def leading_comments() -> st.SearchStrategy[tuple[Comment, ...]]:
    return st.one_of(st.just(()), st.lists(any_comment, min_size=1, max_size=3).map(tuple))


def commented(**fields: Any) -> dict[str, Any]:
    """Fields of a node plus strategies for its comments."""
    return {"leading": leading_comments(), "trailing": trailing_comments(), **fields}


tag_names = st.one_of(
    st.sampled_from(ROSTER),
    st.from_regex(r"[A-Za-z][A-Za-z0-9_]{0,10}", fullmatch=True),
)
tags = st.builds(Tag, **commented(name=tag_names, value=_LINE_TEXT_SPICY))

hands = st.builds(
    Hand,
    **commented(
        seat=seats, cards=st.lists(st.one_of(st.none(), cards), min_size=1, max_size=6).map(tuple)
    ),
)
turnups = st.builds(TurnUp, **commented(card=cards))
calls = st.builds(Call, **commented(seat=seats, kind=st.sampled_from(list(CallKind))))
opening_events: st.SearchStrategy[OpeningEvent] = st.one_of(hands, turnups, calls)

plays = st.builds(
    Play,
    **commented(
        card=cards,
        seat=st.one_of(st.none(), seats),
        glyph=st.one_of(st.none(), st.sampled_from(list(Glyph))),
    ),
)
penalties = st.builds(Penalty, **commented(offender=seats, kind=st.sampled_from(list(PenaltyKind))))
endings: st.SearchStrategy[Ending] = st.one_of(
    st.builds(Redeal, **commented(reason=st.sampled_from(list(RedealReason)))),
    st.builds(Abandoned, **commented()),
    st.builds(Concede, **commented(seat=seats)),
)


@st.composite
def claims(draw: st.DrawFn) -> Claim:
    """Awards grouped by seat, seats in first-appearance order (as the parser keeps them)."""
    claimants = draw(st.lists(seats, unique=True, max_size=4))
    awards: list[Award] = []
    for seat in claimants:
        items = draw(st.lists(st.sampled_from(list(ClaimItem)), min_size=1, max_size=4))
        for item in items:
            points = draw(st.one_of(st.none(), st.integers(0, 99)))
            awards.append(Award(seat, item, points))
    return draw(st.builds(Claim, **commented(awards=st.just(tuple(awards)))))


counts = st.builds(
    Count,
    **commented(
        scores=st.lists(st.builds(Score, seats, st.integers(0, 80)), min_size=1,
                        max_size=4).map(tuple)
    ),
)
totals = st.builds(
    Total,
    **commented(
        scores=st.lists(st.builds(Score, seats, st.integers(-20, 200)), min_size=1, max_size=4).map(
            tuple
        )
    ),
)


@st.composite
def tricks(draw: st.DrawFn, players: int) -> tuple[Trick, ...]:
    """Up to one card more than there are players: a numbered trick keeps the
    writer's grouping, so even a trick with a card too many reads back whole."""
    count = draw(st.integers(0, 6))
    return tuple(
        Trick(number=number, plays=tuple(draw(st.lists(plays, min_size=1, max_size=players + 1))))
        for number in range(1, count + 1)
    )


# Made once per number of players, not at every draw of a game: a strategy made anew is
# validated anew, with every strategy it is built of (in the identity and format property
# tests, a sixth of their CPU time went to that).  The values drawn are the same.
@functools.cache
def deals(players: int) -> st.SearchStrategy[Deal]:
    return st.builds(
        Deal,
        **commented(
            number=st.integers(1, 60),
            dealer=seats,
            opening=st.lists(opening_events, max_size=6).map(tuple),
            tricks=tricks(players),
            penalties=st.lists(penalties, max_size=2).map(tuple),
            claim=st.one_of(st.none(), claims()),
            total=st.one_of(st.none(), totals),
            ending=st.one_of(st.none(), endings),
            count=st.one_of(st.none(), counts),
        ),
        # a clock time in canonical form (the formatter writes "08:05" for "8:05")
        time=st.one_of(st.none(), st.builds(
            lambda h, m, sec: f"{h:02d}:{m:02d}" + ("" if sec is None else f":{sec:02d}"),
            st.integers(0, 23), st.integers(0, 59), st.one_of(st.none(), st.integers(0, 59)))),
    )


def _roster_sorted(found: list[Tag]) -> tuple[Tag, ...]:
    return sorted_tags(found)


@functools.cache
def _seat_tag(name: str) -> st.SearchStrategy[Tag]:
    """A seat's tag (``North``, ...) naming a player, made once (see :func:`deals`)."""
    return st.builds(Tag, **commented(name=st.just(name), value=_LINE_TEXT_SPICY))


@st.composite
def games(draw: st.DrawFn) -> Game:
    """A game of two, three or four players, named by their seat tags."""
    players = draw(st.sampled_from(sorted(SEATS_FOR_PLAYERS)))
    player_tags = [draw(_seat_tag(seat.tag_name)) for seat in SEATS_FOR_PLAYERS[players]]
    other_tags = draw(st.lists(tags, max_size=4))
    order = draw(st.permutations(player_tags + other_tags))
    return Game(
        tags=_roster_sorted(order),
        deals=tuple(draw(st.lists(deals(players), max_size=3))),
        ended=draw(st.booleans()),
        trailing=tuple(draw(st.lists(any_comment, max_size=2))),
    )


results = st.builds(
    ParseResult,
    games=st.lists(games(), max_size=3).map(tuple),
    diagnostics=st.just(()),
    version=st.just(1),
    trailing=st.lists(any_comment, max_size=2).map(tuple),
)
