"""Completion at any cursor, while the line is being typed.

A half-typed line (``  3. ``, ``  claim S ``, ``  tu``) makes the game unreadable to
the parser, so completion never asks the document's analysis what the cursor is in.
It reads the game's text itself instead: the lines *before* the cursor's line, plus
as much of the cursor's line as still parses (whole plays, whole words), are parsed
and fed to the referee's :class:`~allfours_notation.referee.deal.Table`, which says
what it expects next and which cards are legal; the words of the cursor's line
before the word being typed say which part of a statement comes next.

Contexts (each tested by typing the line character by character, in
``tests/lsp/test_completion.py``):

- a header line: the tags not written yet, then the first deal's line;
- a new line in a deal: what the referee expects next first (the legal cards with
  the trick's number, the elder hand's call, the turn-up, the claim and total the
  referee computes), then every statement keyword and the seats;
- after a trick's number or a play (``3. ``, ``3. S:``, ``3. S:9H ``): the legal cards
  of the player to move (every card not yet seen when the hands are not written);
- after a seat (``S ``): the calls, the one the referee expects first, and while the
  hands are written, the cards not yet dealt to anyone;
- ``claim S ``: the items that seat scores by the referee's count first, then the
  others and the seats; ``claim `` also offers the whole computed claim;
- ``total ``, ``total N ``, ``total N 2 ``: the seats and each side's running total;
- ``count ``, ``count N ``: the seats and each side's pips toward Game by the cards;
- ``turn ``: the cards that may be turned up; ``penalty``, ``redeal`` and the deal
  line (``deal 2 dealer ``: the dealer due; then ``at`` and the time now) their words.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence

from lsprotocol import types

from ..cards import CARD_PATTERN, Card, Rank, Seat, Suit, parse_card
from ..checking.parsing import parse_game_body
from ..frozen import frozen
from ..reading import words as afn_words
from ..reading.records import ClaimItem, Game
from ..referee.deal import Expect, Phase
from ..referee.state import DealResult, GameReplay, TableState
from .document import DocumentAnalysis, PlacedGame, game_origin

KEYWORDS = ("turn", "claim", "total", "penalty", "redeal", "abandoned", "end", "deal",
            "pack", "count")
CALLS = (*afn_words.CALLS, afn_words.DISCARDS)
PENALTIES = afn_words.PENALTY_KINDS
TAGS = ("Event", "Site", "Date", "Rules", "North", "East", "South", "West", "Result")
ITEMS = tuple(item.value for item in ClaimItem if item is not ClaimItem.PENALTY)
ALL_SEATS = ("N", "E", "S", "W")

_TYPED = re.compile(r"[^\s{};]*$")
_TRICK = re.compile(r"^[0-9]+\.$")
_PLAY = re.compile(rf"^(?:{afn_words.SEAT_PATTERN}:)?{CARD_PATTERN}(?:{afn_words.GLYPH_PATTERN})?$")
_DEAL_LINE = re.compile(r"(?m)^[ \t]*deal\b")
_TAG_NAME = re.compile(r"(?m)^[ \t]*\[([A-Za-z][A-Za-z0-9_]*)")
_PACK: tuple[Card, ...] = tuple(
    card for suit in Suit for rank in Rank
    if (card := parse_card(rank.letter + suit.letter)) is not None
)


@frozen
class Moment:
    """The referee's table where the cursor's word starts: what it expects next, the
    legal cards (None when the mover's hand is not known), the table, the cards
    played so far in the deal, the next trick's number, the game read so far and
    the replay of the last deal when it could be computed."""

    expect: Expect
    legal: frozenset[Card] | None
    state: TableState | None
    played: frozenset[Card]
    next_trick: int
    numbered: bool
    game: Game
    result: DealResult | None
    next_dealer: Seat | None = None  # who deals next, once the deal has its total


def completion(analysis: DocumentAnalysis, line: int,
               column: int) -> list[types.CompletionItem]:
    """The items at (``line``, ``column``), in the document's own units, best first
    (each item's ``sort_text`` keeps that order in the editor's list)."""
    items = _items(analysis, line, column)
    for place, item in enumerate(items):
        item.sort_text = f"{place:04d}"
    return items


def _items(analysis: DocumentAnalysis, line: int, column: int) -> list[types.CompletionItem]:
    text = analysis.lines.line_text(line)[:column]
    typed = _TYPED.search(text)
    start = column - len(typed.group()) if typed else column
    before = text[:start].split()
    where = _range(analysis, line, start, column)
    placed = analysis.game_at(analysis.lines.offset(line, column))
    if placed is None:
        return header_items("", before, where)
    line_start = analysis.lines.offset(line, 0) - placed.piece.start
    body = placed.analysis.body
    earlier = body[:max(line_start, 0)]
    if before and before[0].lower() == "deal":
        return deal_line_items(_moment(placed, earlier, []), before, where)
    if not _DEAL_LINE.search(earlier):
        return header_items(earlier, before, where)
    moment = _moment(placed, earlier, before)
    if not before:
        return new_line_items(moment, where, _seats(moment))
    head = before[0].lower()
    if _TRICK.match(head) or _PLAY.match(head):
        return card_items(moment, where)
    if head == "claim":
        return claim_items(moment, before[1:], where)
    if head == "total":
        return total_items(moment, before[1:], where)
    if head == "count":
        return count_items(moment, before[1:], where)
    if head == "turn" and len(before) == 1:
        return turn_items(moment, where)
    if head == "penalty":
        words = _seats(moment) if len(before) == 1 else PENALTIES if len(before) == 2 else ()
        return _words(words, types.CompletionItemKind.EnumMember, where)
    if head == "redeal" and len(before) == 1:
        return _words(afn_words.REDEAL_REASONS, types.CompletionItemKind.EnumMember, where)
    if head.upper() in ALL_SEATS:
        return seat_items(moment, head.upper(), before[1:], where)
    return []


# --- the referee at the cursor --------------------------------------------------------------


def _moment(placed: PlacedGame, earlier: str, words: Sequence[str]) -> Moment | None:
    """The table after ``earlier`` (the game's lines before the cursor's) and as many
    of ``words`` (the cursor's line before the word being typed) as still read:
    ``3. S:9H`` reads, ``3.`` alone does not, and is left for the caller."""
    for keep in range(len(words), -1, -1):
        line = ("  " + " ".join(words[:keep])) if keep else ""
        found = _table_at(placed, earlier + line)
        if found is not None:
            return found
    return None


def _table_at(placed: PlacedGame, body: str) -> Moment | None:
    game = parse_game_body(body, game_origin(body, placed.piece),
                           index=placed.index, filename=None)
    if game.broken:
        return None
    from ..referee.deal import DealOver, Table
    from ..referee.replay import deal_events, replay

    options, _ = placed.analysis.rules.options(game)
    table = Table(game, options, keep_steps=False)
    for position, deal in enumerate(game.deals):
        last = position == len(game.deals) - 1
        for event in deal_events(deal):
            if not (last and isinstance(event, DealOver)):
                table.feed(event)
    current = game.deals[-1] if game.deals else None
    tricks = current.tricks if current else ()
    state = table.state
    open_trick = bool(state and state.trick and len(state.trick) < len(state.seats))
    expect = table.expects()  # the referee's answer: who plays, the legal cards (a lead too)
    legal = expect.legal
    result = None
    if current is not None and expect.kind in (Phase.CLAIM, Phase.DEAL_END):
        replayed = replay(game, options)
        if isinstance(replayed, GameReplay) and replayed.deals:
            result = replayed.deals[-1]
    played = frozenset(p.card for p in current.plays()) if current else frozenset()
    next_dealer = None
    if current is not None and current.total is not None:
        table.apply(DealOver())  # the deal is written to its total: who deals next?
        due = table.expects()
        next_dealer = due.seat if due.kind is Phase.DEAL else None
    return Moment(
        expect, legal, state, played,
        (tricks[-1].number if tricks else 0) + (0 if open_trick else 1),
        all(t.numbered for t in tricks) if tricks else True,
        game, result, next_dealer,
    )


def _seats(moment: Moment | None) -> tuple[str, ...]:
    if moment is None:
        return ALL_SEATS
    return tuple(seat.letter for seat in moment.game.seats) or ALL_SEATS


# --- the contexts ---------------------------------------------------------------------------


def header_items(earlier: str, before: list[str],
                 where: types.Range) -> list[types.CompletionItem]:
    """A line of a game's header: the tags not written yet, then the first deal."""
    if before:
        return []
    written = {name.lower() for name in _TAG_NAME.findall(earlier)}
    items = [
        types.CompletionItem(
            label=f'[{tag} ""]', kind=types.CompletionItemKind.Property,
            filter_text=f"[{tag}", sort_text=f"0{place:02d}",
            text_edit=types.TextEdit(range=where, new_text=f'[{tag} ""]'),
        )
        for place, tag in enumerate(tag for tag in TAGS if tag.lower() not in written)
    ]
    items += _words(["deal 1 dealer N", "end"], types.CompletionItemKind.Keyword, where)
    return items


def deal_line_items(moment: Moment | None, before: list[str],
                    where: types.Range) -> list[types.CompletionItem]:
    """``deal N dealer S``: the number due, ``dealer``, the dealer due first."""
    due = moment.expect if moment is not None else None
    if len(before) == 1:
        number = 1
        if moment is not None and moment.game.deals:
            number = moment.game.deals[-1].number + 1
        return _words([str(number)], types.CompletionItemKind.Value, where)
    if len(before) == 2:
        return _words(["dealer"], types.CompletionItemKind.Keyword, where)
    if len(before) == 3:
        first = [due.seat.letter] if due is not None and due.seat is not None and \
            due.kind is Phase.DEAL else []
        if moment is not None and moment.next_dealer is not None:
            first = [moment.next_dealer.letter]
        return _words(_first(first, _seats(moment)), types.CompletionItemKind.Variable, where)
    if len(before) == 4:
        return _words(["at"], types.CompletionItemKind.Keyword, where)
    if len(before) == 5 and before[4].lower() == "at":
        items = _words([clock_now()], types.CompletionItemKind.Value, where)
        items[0].detail = "the time now: when the deal began"
        return items
    return []


def clock_now() -> str:
    """The time of day now, ``20:41``: what a deal's ``at`` is completed with (a test
    puts its own clock here)."""
    from datetime import datetime

    return datetime.now().strftime("%H:%M")


def new_line_items(moment: Moment | None, where: types.Range,
                   seats: tuple[str, ...]) -> list[types.CompletionItem]:
    """A new statement: what the referee expects next, then every keyword and seat."""
    items = expected_items(moment, where) if moment is not None else []
    offered = {item.label for item in items}
    items += _words([k for k in KEYWORDS if k not in offered], types.CompletionItemKind.Keyword,
                    where)
    return items + _words(seats, types.CompletionItemKind.Variable, where)


def expected_items(moment: Moment, where: types.Range) -> list[types.CompletionItem]:
    kind, seat = moment.expect.kind, moment.expect.seat
    letter = seat.letter if seat else ""
    words: list[str] = []
    if kind is Phase.TURN_UP:
        words = ["turn"]
    elif kind is Phase.CALL:
        words = [f"{letter} stands", f"{letter} begs"]
    elif kind is Phase.ANSWER:
        words = [f"{letter} gives", f"{letter} runs"]
    elif kind is Phase.PLAY:
        return card_items(moment, where, with_number=True)
    elif kind in (Phase.CLAIM, Phase.DEAL_END) and moment.next_dealer is None:
        words = [*_computed(moment), "claim", "total", "penalty"]
    elif kind in (Phase.CLAIM, Phase.DEAL_END, Phase.DEAL,
                  Phase.GAME_OVER):
        deals = moment.game.deals
        number = deals[-1].number + 1 if deals else 1
        dealer = moment.next_dealer or seat
        words = [f"deal {number} dealer {dealer.letter if dealer else 'N'}", "end"]
    items = _words(words, types.CompletionItemKind.Snippet, where)
    for place, item in enumerate(items):
        item.sort_text = f"0{place:02d}"  # before the plain keywords
        item.detail = "expected next"
    return items


def _computed(moment: Moment) -> list[str]:
    """The claim and the total the referee computes for the deal, when it can and
    the deal has not got them yet."""
    deal = moment.game.deals[-1] if moment.game.deals else None
    if deal is None or moment.result is None:
        return []
    from .features import computed_claim, computed_total

    found = []
    if deal.claim is None:
        found.append(computed_claim(deal, moment.result, moment.game.seats))
    if deal.total is None:
        found.append(computed_total(deal, moment.result, moment.game.seats))
    return found


def card_items(moment: Moment | None, where: types.Range, *,
               with_number: bool = False) -> list[types.CompletionItem]:
    """The cards the player to move may play: the legal ones when the hands are
    known, else every card not yet seen played, turned or in another hand.
    ``with_number`` starts a new trick's line with its number."""
    if moment is None or moment.expect.kind is not Phase.PLAY or moment.state is None:
        return []
    mover = moment.expect.seat
    detail = f"legal for {mover.letter}" if mover else "legal"
    cards = sorted(moment.legal or (), key=_card_order)
    if moment.legal is None:
        cards = sorted(_unseen(moment.state, mover, moment.played), key=_card_order)
        detail = "not yet seen played"
    prefix = ""
    state = moment.state
    if with_number and moment.numbered and not (state.trick and
                                                len(state.trick) < len(state.seats)):
        prefix = f"{moment.next_trick}. "
    items = []
    for place, card in enumerate(cards):
        label = f"{mover.letter}:{card}" if mover else str(card)
        items.append(types.CompletionItem(
            label=label, kind=types.CompletionItemKind.Value, detail=detail,
            sort_text=f"{place:03d}", filter_text=prefix + label,
            text_edit=types.TextEdit(range=where, new_text=prefix + label),
        ))
    return items


def seat_items(moment: Moment | None, seat: str, after: list[str],
               where: types.Range) -> list[types.CompletionItem]:
    """After a seat: its call (the expected one first); while hands are written, the
    cards nobody holds yet."""
    if after:
        if moment is not None and moment.expect.kind is Phase.TURN_UP:
            return _card_words(moment, where, "not dealt to anyone yet")
        return []
    expected: list[str] = []
    if moment is not None and moment.expect.seat is not None and \
            moment.expect.seat.letter == seat:
        if moment.expect.kind is Phase.CALL:
            expected = ["stands", "begs"]
        elif moment.expect.kind is Phase.ANSWER:
            expected = ["gives", "runs"]
    items = _words(_first(expected, CALLS), types.CompletionItemKind.Keyword, where)
    for item in items[:len(expected)]:
        item.detail = "expected next"
    if moment is not None and moment.expect.kind is Phase.TURN_UP:
        items += _card_words(moment, where, "not dealt to anyone yet")
    return items


def claim_items(moment: Moment | None, after: list[str],
                where: types.Range) -> list[types.CompletionItem]:
    """The claim's seats and items; the items the last seat written scores by the
    referee's count first, and after ``claim`` alone the whole computed claim."""
    seats = _seats(moment)
    result = moment.result if moment is not None else None
    claimant = next((w.upper() for w in reversed(after) if w.upper() in seats), None)
    scored: dict[str, list[str]] = {}
    for point in result.points if result is not None else ():
        owner = point.seat.letter if point.seat is not None else point.side
        if point.points:
            scored.setdefault(owner, []).append(point.item.value)
    items: list[types.CompletionItem] = []
    if not after and moment is not None:
        whole = _computed(moment)
        if whole and whole[0].startswith("claim "):
            rest = whole[0].removeprefix("claim ")
            items += _words([rest], types.CompletionItemKind.Snippet, where)
            items[-1].detail = "the referee's count"
    if claimant is None:
        first = [s for s in seats if s in scored]
        return items + _words(_first(first, seats), types.CompletionItemKind.Variable, where)
    written = {w.lower() for w in after}
    mine = [i for i in scored.get(claimant, []) if i not in written]
    others = [s for s in seats if s != claimant and s in scored]
    ordered = _first([*mine, *others], [*ITEMS, *seats])
    items += _words([w for w in ordered if w not in written or w.upper() in seats],
                    types.CompletionItemKind.EnumMember, where)
    for item in items:
        if item.label in mine:
            item.detail = f"{claimant} scores it (the referee's count)"
    return items


def total_items(moment: Moment | None, after: list[str],
                where: types.Range) -> list[types.CompletionItem]:
    """``total N 2 S 2``: a seat, then that side's running total by the referee."""
    seats = _seats(moment)
    if len(after) % 2 == 0:
        named = {w.upper() for w in after[::2]}
        return _words([s for s in seats if s not in named], types.CompletionItemKind.Variable,
                      where)
    result = moment.result if moment is not None else None
    if result is None or moment is None:
        return []
    from ..reading.table import side_of

    if after[-1].upper() not in ALL_SEATS:
        return []
    side = side_of(Seat.from_letter(after[-1]), moment.game.seats)
    values = [str(v) for s, v in result.scores_after if s == side]
    items = _words(values, types.CompletionItemKind.Value, where)
    for item in items:
        item.detail = "the running total after this deal"
    return items


def count_items(moment: Moment | None, after: list[str],
                where: types.Range) -> list[types.CompletionItem]:
    """``count N 31 S 18``: a seat, then that side's pips toward Game by the cards (a deal
    recorded by its results has no cards to count: the scorer writes it)."""
    if len(after) % 2 == 0:
        named = {w.upper() for w in after[::2]}
        return _words([s for s in _seats(moment) if s not in named],
                      types.CompletionItemKind.Variable, where)
    result = moment.result if moment is not None else None
    if result is None or moment is None or after[-1].upper() not in ALL_SEATS:
        return []
    from ..reading.table import side_of

    side = side_of(Seat.from_letter(after[-1]), moment.game.seats)
    items = _words([str(v) for s, v in result.pips if s == side],
                   types.CompletionItemKind.Value, where)
    for item in items:
        item.detail = "the pips toward Game this side won in the tricks"
    return items


def turn_items(moment: Moment | None, where: types.Range) -> list[types.CompletionItem]:
    """The cards that may be turned up: none in a hand, played or turned already."""
    if moment is None or moment.state is None:
        return []
    return _card_words(moment, where, "may be turned up")


# --- helpers --------------------------------------------------------------------------------


def _card_words(moment: Moment, where: types.Range, detail: str) -> list[types.CompletionItem]:
    state = moment.state
    if state is None:
        cards = [c for c in _PACK if c not in moment.played]
    else:
        cards = _unseen(state, None, moment.played)
    items = _words([str(c) for c in sorted(cards, key=_card_order)],
                   types.CompletionItemKind.Value, where)
    for place, item in enumerate(items):
        item.detail, item.sort_text = detail, f"{place:03d}"
    return items


def _unseen(table: TableState, mover: Seat | None, played: frozenset[Card]) -> list[Card]:
    """Every card of the pack not played, not turned up and not known to be held by
    another seat than ``mover``."""
    elsewhere = {c for seat, held in table.hands if seat is not mover for c in held}
    return [c for c in _PACK
            if c not in elsewhere and c not in table.turnups and c not in played]


def _card_order(card: Card) -> tuple[str, int]:
    return (card.suit.letter, -int(card.rank))


def _first(first: Iterable[str], rest: Iterable[str]) -> list[str]:
    """``first`` then the rest of ``rest``, each word once."""
    ordered = list(dict.fromkeys(first))
    return ordered + [w for w in rest if w not in ordered]


def _words(words: Iterable[str], kind: types.CompletionItemKind,
           where: types.Range) -> list[types.CompletionItem]:
    return [types.CompletionItem(label=word, kind=kind,
                                 text_edit=types.TextEdit(range=where, new_text=word))
            for word in words]


def _range(analysis: DocumentAnalysis, line: int, start: int, end: int) -> types.Range:
    from .features import client_range

    return client_range(analysis.lines, line, start, line, end)
