"""The words of the notation, in one place: cards, seats, calls, claim items, penalty
kinds, keywords and glyphs, as AFN spells them.

The grammar (``grammar/allfours.lark``) is the law; these are its words for the code
that speaks them without the grammar: the syntax errors (what was expected), the
highlighting (the Pygments lexer) and the language server's completion.
``tests/parser/test_words.py`` reads the grammar's terminals and fails if a word here
and a word there differ, so a new call or claim item is added in both or the suite
says so.  On input every word is case-insensitive; these are the canonical spellings.
"""

from __future__ import annotations

from collections.abc import Iterable

from ..cards import CARD_PATTERN  # the card as a pattern: the base floor's, every floor reads it

# Cards: a rank (``10`` is also ``T``), then a suit letter or symbol (filled or outlined).
RANKS = ("A", "K", "Q", "J", "T", "9", "8", "7", "6", "5", "4", "3", "2")
SUITS = ("S", "H", "D", "C")
SUIT_SYMBOLS = ("♠", "♥", "♦", "♣")
SUIT_OUTLINES = ("♤", "♡", "♢", "♧")
UNKNOWN_CARD = "??"  # a card of a hand not seen
SEATS = ("N", "E", "S", "W")

# A deal's calls: the opening's four and "concedes" (which ends the deal); "discards"
# follows a seat as a call does, but starts a statement of cards.
CALLS = ("stands", "begs", "gives", "runs", "concedes")
DISCARDS = "discards"
CLAIM_ITEMS = ("kick", "gift", "high", "low", "jack", "hangjack", "game", "penalty")
PENALTY_KINDS = ("revoke", "undertrump", "misdeal", "wrongscore", "other")
REDEAL_REASONS = ("exhausted", "misdeal")
# The words that start a statement (or stand in one: "dealer", "at", "director").
KEYWORDS = ("deal", "dealer", "at", "turn", "pack", "scored", "director", "count", "claim",
            "total", "penalty", "redeal", "abandoned", "end")
# A deal's clock time after "at" ("deal 3 dealer N at 20:41"): hours and minutes, and
# seconds if wanted, on a 24-hour clock.
CLOCK_PATTERN = r"[0-9]{1,2}:[0-9]{2}(?::[0-9]{2})?"
# Annotation glyphs after a card played, the longest first (as a pattern must try them).
GLYPHS = ("!!", "??", "!?", "?!", "!", "?")


def either(words: Iterable[str]) -> str:
    """A case-insensitive pattern for any one of ``words``: ``(?i:stands|begs)``."""
    return "(?i:" + "|".join(words) + ")"


def _case_class(letters: Iterable[str]) -> str:
    upper = "".join(letters)
    return upper + upper.lower()


# Patterns of the grammar's terminals _SEAT and _GLYPH (and _CARD: CARD_PATTERN above).
SEAT_PATTERN = "[" + _case_class(SEATS) + "]"
GLYPH_PATTERN = "|".join(glyph.replace("?", r"\?") for glyph in GLYPHS)

__all__ = [
    "CALLS",
    "CARD_PATTERN",
    "CLAIM_ITEMS",
    "CLOCK_PATTERN",
    "DISCARDS",
    "GLYPHS",
    "GLYPH_PATTERN",
    "KEYWORDS",
    "PENALTY_KINDS",
    "RANKS",
    "REDEAL_REASONS",
    "SEATS",
    "SEAT_PATTERN",
    "SUITS",
    "SUIT_OUTLINES",
    "SUIT_SYMBOLS",
    "UNKNOWN_CARD",
    "either",
]
