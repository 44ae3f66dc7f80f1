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

Every name is imported on first use, so that reading a file does not pay for the rules
engine or the formatter, and ``import allfours_notation`` costs next to nothing.

This package never imports Textual; the viewer lives in the ``viewer`` package.
"""

import sys
import types
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from .cards import Card, Rank, Seat, Suit, card, cards, parse_card
    from .checking import CheckedGame, CheckedText, check, check_text
    from .checking.causes import Group, roots_first
    from .checking.parsing import iter_games, parse, parse_file, parse_indexed
    from .diagnostics import Diagnostic, Severity
    from .reading.headers import GameHeader, scan_headers, scan_headers_file
    from .reading.parser import ParseResult
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
    from .referee.replay import check_game, replay
    from .writing.export import result_to_json
    from .writing.formatter import format_game, format_result

__version__ = "0.1.0"

# Every public name and the module it lives in: imported on first use, so that
# ``import allfours_notation`` (and ``allfours --version``, which starts with it) reads
# no more than this file (issue 27).
_HOMES = {
    "allfours_notation.cards": ("Card", "Rank", "Seat", "Suit", "card", "cards", "parse_card"),
    "allfours_notation.diagnostics": ("Diagnostic", "Severity"),
    "allfours_notation.reading.headers": ("GameHeader", "scan_headers", "scan_headers_file"),
    "allfours_notation.reading.parser": ("ParseResult",),
    "allfours_notation.reading.records": ("Award", "Call", "CallKind", "Claim", "ClaimItem",
                                          "Comment", "Deal", "Game", "Hand", "Penalty", "Play",
                                          "Tag", "Total", "Trick", "TurnUp"),
    "allfours_notation.checking": ("check", "check_text", "CheckedGame", "CheckedText"),
    # reading, then the structure checks (AFN2xx), which are the referee's
    "allfours_notation.checking.parsing": ("iter_games", "parse", "parse_file",
                                           "parse_indexed"),
    "allfours_notation.checking.causes": ("Group", "roots_first"),
    "allfours_notation.referee.replay": ("replay", "check_game"),
    "allfours_notation.writing.formatter": ("format_game", "format_result"),
    "allfours_notation.writing.export": ("result_to_json",),
}
_LAZY = {name: module for module, names in _HOMES.items() for name in names}


class _Package(types.ModuleType):
    """This package, which keeps the function ``cards`` under its name: the first import of
    the submodule ``allfours_notation.cards`` (by whoever reads cards first) binds the
    submodule there, and that is refused; the submodule stays in ``sys.modules``."""

    def __setattr__(self, name: str, value: Any) -> None:
        if name == "cards" and isinstance(value, types.ModuleType):
            return
        super().__setattr__(name, value)


sys.modules[__name__].__class__ = _Package


def __getattr__(name: str) -> Any:
    """Import a part of the API on first use (and keep it: the next use is a plain
    attribute)."""
    if name in _LAZY:
        import importlib

        value = getattr(importlib.import_module(_LAZY[name]), name)
        globals()[name] = value
        return value
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
