"""AFN, All Fours Notation: read, check, score, format and replay recorded games.

The public API, in the order data flows::

    parse(text)            → ParseResult (games + diagnostics)
    parse_file(path)       → ParseResult
    iter_games(path)       → games one at a time, reading in chunks
    scan_headers(text)     → header tags of every game, without parsing play
    parse_indexed(text, h) → the one game a header points at

This package never imports Textual; the viewer lives in the ``viewer`` package.
"""

from .cards import Card, Rank, Seat, Suit, card, cards, parse_card
from .diagnostics import Diagnostic, Severity
from .headers import GameHeader, parse_indexed, scan_headers, scan_headers_file
from .parser import ParseResult, iter_games, parse, parse_file
from .records import (
    Award,
    Call,
    CallKind,
    Claim,
    ClaimItem,
    Comment,
    Deal,
    Game,
    Hand,
    Penalty,
    Play,
    Tag,
    Total,
    Trick,
    TurnUp,
)

__version__ = "0.1.0"

__all__ = [
    "Award",
    "Call",
    "CallKind",
    "Card",
    "Claim",
    "ClaimItem",
    "Comment",
    "Deal",
    "Diagnostic",
    "Game",
    "GameHeader",
    "Hand",
    "ParseResult",
    "Penalty",
    "Play",
    "Rank",
    "Seat",
    "Severity",
    "Suit",
    "Tag",
    "Total",
    "Trick",
    "TurnUp",
    "__version__",
    "card",
    "cards",
    "iter_games",
    "parse",
    "parse_card",
    "parse_file",
    "parse_indexed",
    "scan_headers",
    "scan_headers_file",
]
