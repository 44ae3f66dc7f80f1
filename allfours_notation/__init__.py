"""AFN, All Fours Notation: read, check, score, format and replay recorded games.

The public API, in the order data flows::

    parse(text)            → ParseResult (games + diagnostics)
    parse_file(path)       → ParseResult
    iter_games(path)       → games one at a time, reading in chunks
    scan_headers(text)     → header tags of every game, without parsing play
    parse_indexed(text, h) → the one game a header points at
    check(game)            → CheckedGame: every diagnostic ``allfours check`` reports
                             (slips named, linked to root causes), the replay, options
    check_text(text)       → CheckedText: the same for every game of a text
    replay(game)           → every step of every deal, with the table after it
    check_game(game)       → rules and dispute diagnostics
    format_game(game)      → canonical AFN text
    result_to_json(result) → the records as JSON-ready data

Checking, replaying and formatting are imported on first use, so that reading a file does not pay
for the rules engine or the formatter.

This package never imports Textual; the viewer lives in the ``viewer`` package.
"""

from typing import TYPE_CHECKING, Any

from .cards import Card, Rank, Seat, Suit, card, cards, parse_card
from .diagnostics import Diagnostic, Severity
from .reading.headers import GameHeader, parse_indexed, scan_headers, scan_headers_file
from .reading.parser import ParseResult, parse, parse_file
from .reading.records import (
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
from .reading.stream import iter_games

if TYPE_CHECKING:
    from .checking import CheckedGame, CheckedText, check, check_text
    from .checking.causes import Group, roots_first
    from .referee.replay import check_game, replay
    from .writing.export import result_to_json
    from .writing.formatter import format_game, format_result

__version__ = "0.1.0"

_LAZY = {
    "check": "allfours_notation.checking",
    "check_text": "allfours_notation.checking",
    "CheckedGame": "allfours_notation.checking",
    "CheckedText": "allfours_notation.checking",
    "Group": "allfours_notation.checking.causes",
    "roots_first": "allfours_notation.checking.causes",
    "replay": "allfours_notation.referee.replay",
    "check_game": "allfours_notation.referee.replay",
    "format_game": "allfours_notation.writing.formatter",
    "format_result": "allfours_notation.writing.formatter",
    "result_to_json": "allfours_notation.writing.export",
}


def __getattr__(name: str) -> Any:
    """Import the heavier parts of the API on first use."""
    if name in _LAZY:
        import importlib

        return getattr(importlib.import_module(_LAZY[name]), name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


__all__ = [
    "Award",
    "Call",
    "CallKind",
    "Card",
    "CheckedGame",
    "CheckedText",
    "Claim",
    "ClaimItem",
    "Comment",
    "Deal",
    "Diagnostic",
    "Game",
    "GameHeader",
    "Group",
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
    "check",
    "check_game",
    "check_text",
    "format_game",
    "format_result",
    "iter_games",
    "parse",
    "parse_card",
    "parse_file",
    "parse_indexed",
    "replay",
    "result_to_json",
    "roots_first",
    "scan_headers",
    "scan_headers_file",
]
