"""Suits, ranks, cards and seats: the vocabulary every other module speaks.

Cards are small frozen value objects.  Text is accepted laxly (``js``, ``10h``,
``J♠``) and always written canonically (``JS``, ``TH``).  Pips toward *Game*
follow Hoffmann: ten 10, ace 4, king 3, queen 2, jack 1.
"""

from __future__ import annotations

import re
from enum import Enum, IntEnum
from functools import cache

from .frozen import frozen


class Suit(Enum):
    """The four suits, valued by their canonical AFN letter."""

    SPADES = "S"
    HEARTS = "H"
    DIAMONDS = "D"
    CLUBS = "C"

    # Members are singletons that compare by identity, so the identity hash (in C)
    # is a valid hash.  Enum's own is Python code (the hash of the name), and a
    # suit is hashed inside every card's hash: for every card the structure checks
    # and the replayer put in a set or a dict.
    __hash__ = object.__hash__

    # The canonical letter, a plain attribute of each member: a property would go
    # through Enum's ``value`` descriptor on every read (the referee and the scorer
    # read letters for every deal).
    letter: str

    def __init__(self, letter: str) -> None:
        self.letter = letter

    @property
    def symbol(self) -> str:
        return _SUIT_SYMBOLS[self]

    @property
    def is_red(self) -> bool:
        return self in (Suit.HEARTS, Suit.DIAMONDS)

    @property
    def noun(self) -> str:
        return self.name.lower()


_SUIT_SYMBOLS = {
    Suit.SPADES: "♠",
    Suit.HEARTS: "♥",
    Suit.DIAMONDS: "♦",
    Suit.CLUBS: "♣",
}
_SUIT_FROM_TEXT: dict[str, Suit] = {}
for _suit in Suit:
    _SUIT_FROM_TEXT[_suit.value] = _suit
    _SUIT_FROM_TEXT[_suit.value.lower()] = _suit
    _SUIT_FROM_TEXT[_SUIT_SYMBOLS[_suit]] = _suit
# The outline glyphs people also type.
_SUIT_FROM_TEXT.update({"♤": Suit.SPADES, "♡": Suit.HEARTS, "♢": Suit.DIAMONDS, "♧": Suit.CLUBS})


class Rank(IntEnum):
    """Ranks ordered as in play: ace high, two low."""

    TWO = 2
    THREE = 3
    FOUR = 4
    FIVE = 5
    SIX = 6
    SEVEN = 7
    EIGHT = 8
    NINE = 9
    TEN = 10
    JACK = 11
    QUEEN = 12
    KING = 13
    ACE = 14

    letter: str  # a plain attribute of each member (set below), as for Suit


    @property
    def pips(self) -> int:
        """Points this rank counts toward *Game* (Hoffmann's scale)."""
        return _PIPS.get(self, 0)

    @property
    def noun(self) -> str:
        return self.name.lower() if self > Rank.TEN else str(int(self))


_RANK_LETTERS = {
    Rank.TWO: "2",
    Rank.THREE: "3",
    Rank.FOUR: "4",
    Rank.FIVE: "5",
    Rank.SIX: "6",
    Rank.SEVEN: "7",
    Rank.EIGHT: "8",
    Rank.NINE: "9",
    Rank.TEN: "T",
    Rank.JACK: "J",
    Rank.QUEEN: "Q",
    Rank.KING: "K",
    Rank.ACE: "A",
}
_RANK_FROM_TEXT: dict[str, Rank] = {}
for _rank, _letter in _RANK_LETTERS.items():
    _rank.letter = _letter
    _RANK_FROM_TEXT[_letter] = _rank
    _RANK_FROM_TEXT[_letter.lower()] = _rank
_RANK_FROM_TEXT["10"] = Rank.TEN

_PIPS = {Rank.TEN: 10, Rank.ACE: 4, Rank.KING: 3, Rank.QUEEN: 2, Rank.JACK: 1}


@frozen(order=True)
class Card:
    """One card.  Ordered by suit letter then rank only so that sets print stably.

    There are only 52 cards, so each is made once and kept: ``Card(suit, rank)``
    hands back the same object every time.  Two equal cards are then one object,
    so equality is identity and the hash is the identity hash, both in C.  The
    referee and the structure checks put every card played in sets and dicts;
    the dataclass's own ``__eq__``/``__hash__`` (Python code building a tuple per
    call) were a tenth of ``allfours check``.
    """

    suit: Suit
    rank: Rank

    def __new__(cls, suit: Suit, rank: Rank) -> Card:
        made = _MADE.get((suit, rank))
        if made is None:
            made = _MADE[(suit, rank)] = object.__new__(cls)
        return made

    __eq__ = object.__eq__
    __hash__ = object.__hash__

    def __reduce__(self) -> tuple[type[Card], tuple[Suit, Rank]]:
        """Copies and pickles go through ``Card(...)``, so they stay the one card."""
        return (Card, (self.suit, self.rank))

    def __str__(self) -> str:
        return self.rank.letter + self.suit.letter

    @property
    def pips(self) -> int:
        return _PIPS.get(self.rank, 0)  # Rank.pips, one call fewer: counted for every card

    @property
    def is_jack(self) -> bool:
        return self.rank is Rank.JACK

    def pretty(self, *, unicode: bool = True) -> str:
        """``J♠`` (or ``JS`` when the terminal cannot show suit symbols)."""
        rank = "10" if self.rank is Rank.TEN else self.rank.letter
        return rank + (self.suit.symbol if unicode else self.suit.letter)

    def describe(self) -> str:
        """``jack of spades``, for explanations in diagnostics."""
        return f"{self.rank.noun} of {self.suit.noun}"


# Every card made so far, by suit and rank (see Card.__new__).
_MADE: dict[tuple[Suit, Rank], Card] = {}

# One card token as AFN accepts it; the grammar uses the same shape.
CARD_PATTERN = r"(?:10|[AKQJTakqjt2-9])[SHDCshdc♠♥♦♣♤♡♢♧]"
_CARD_RE = re.compile(rf"^{CARD_PATTERN}$")


@cache
def parse_card(text: str) -> Card | None:
    """Read one card token (``JS``, ``js``, ``10h``, ``J♠``); ``None`` if it is not a card."""
    if not _CARD_RE.match(text):
        return None
    return Card(_SUIT_FROM_TEXT[text[-1]], _RANK_FROM_TEXT[text[:-1]])


def card(text: str) -> Card:
    """Like :func:`parse_card` but raises ``ValueError``: for code and tests, not user input."""
    parsed = parse_card(text)
    if parsed is None:
        raise ValueError(f"not a card: {text!r}")
    return parsed


def cards(text: str) -> tuple[Card, ...]:
    """``cards("JS 9H 8H")`` → three cards; for code and tests."""
    return tuple(card(token) for token in text.split())


FULL_PACK: tuple[Card, ...] = tuple(Card(suit, rank) for suit in Suit for rank in Rank)
# A hand is dealt six cards, and each run of the cards deals three more to every seat:
# the one place these sizes are written (the structure checks, the referee and the
# generator read them here).
DEALT = 6
RUN_BATCH = 3


class Seat(Enum):
    """Compass seats.  Two players sit North and South; three sit North, East and
    South; four sit all round, North–South against East–West."""

    NORTH = "N"
    EAST = "E"
    SOUTH = "S"
    WEST = "W"

    # As for Suit: seats key the replayer's dicts for every card played.
    __hash__ = object.__hash__

    letter: str  # as for Suit: a plain attribute, read for every deal

    def __init__(self, letter: str) -> None:
        self.letter = letter

    @property
    def tag_name(self) -> str:
        """The header tag that names this seat's player: ``North`` …"""
        return _TAG_NAMES[self]

    @staticmethod
    def from_letter(text: str) -> Seat:
        return _SEAT_FROM_LETTER[text.upper()]


_SEAT_FROM_LETTER = {seat.value: seat for seat in Seat}
_TAG_NAMES = {seat: seat.name.capitalize() for seat in Seat}

# Clockwise order round the table, starting from North.
CLOCKWISE: tuple[Seat, ...] = (Seat.NORTH, Seat.EAST, Seat.SOUTH, Seat.WEST)
# The player tags (``North`` …), for checks that ask "is any seat named?" once per game.
SEAT_TAG_NAMES: frozenset[str] = frozenset(seat.tag_name for seat in CLOCKWISE)
