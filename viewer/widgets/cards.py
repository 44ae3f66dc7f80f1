"""Cards as coloured text: ``J♠`` in a terminal that shows suit symbols, ``JS`` otherwise."""

from __future__ import annotations

from collections.abc import Iterable

from rich.text import Text

from allfours_notation import Card, Suit

FACE_DOWN = "▒▒"
FACE_DOWN_ASCII = "##"

SUIT_STYLE = {
    Suit.SPADES: "bold bright_white",
    Suit.CLUBS: "bold bright_white",
    Suit.HEARTS: "bold red",
    Suit.DIAMONDS: "bold red",
}


def card_text(card: Card, *, unicode: bool = True, legal: bool = False) -> Text:
    """One card; a legal card of the player to move is shown reversed and underlined."""
    style = SUIT_STYLE[card.suit]
    if legal:
        style += " reverse underline"
    return Text(card.pretty(unicode=unicode), style=style)


def suit_text(suit: Suit, *, unicode: bool = True) -> Text:
    return Text(suit.symbol if unicode else suit.letter, style=SUIT_STYLE[suit])


def cards_text(cards: Iterable[Card], *, unicode: bool = True,
               legal: frozenset[Card] = frozenset()) -> Text:
    return Text(" ").join(card_text(c, unicode=unicode, legal=c in legal) for c in cards)


def face_down(count: int, *, unicode: bool = True) -> Text:
    back = FACE_DOWN if unicode else FACE_DOWN_ASCII
    return Text(" ".join([back] * count), style="dim")
