"""The documented limits (:mod:`..limits`) as reading a game holds it to them.

Past a limit a game is not read: one AFN120 at the number or the word past the limit, and
the game comes back broken with its tags only.  The limits judged before a game is parsed
(tags, deals, cards: counted in its text) are the assembler's ``over_limit``; these are
judged while its statements are read (a number's digits, a statement's words, the game's
items): :class:`PastLimit` (or :class:`.statements.NumberTooLong`) is raised, and the
assembler turns it into the diagnostic with :class:`GameBounds`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..diagnostics import Diagnostic, Severity
from ..limits import (
    LIMIT_CODE,
    MAX_ITEMS_PER_GAME,
    MAX_NUMBER_DIGITS,
    MAX_WORDS_PER_STATEMENT,
)
from .records import Span, TextLines
from .statements import _WORDS, NumberTooLong

if TYPE_CHECKING:
    from .lalr import Token
    from .slicer import GameSlice


class PastLimit(Exception):
    """A statement, or the game, past a limit on words or items found while reading: the
    game is not read (AFN120 at ``offset`` in its text, ``width`` characters long)."""

    def __init__(self, problem: str, offset: int, width: int) -> None:
        super().__init__(problem)
        self.problem, self.offset, self.width = problem, offset, width


# A statement shorter than this cannot hold too many words (each is a character and a space).
LONG_STATEMENT = 2 * MAX_WORDS_PER_STATEMENT


def count_words(parts: list[Token], what: str) -> None:
    """:class:`PastLimit` for a claim, a line of results, a count or a total of more words than
    :data:`~..limits.MAX_WORDS_PER_STATEMENT`, at its first word past the limit:
    found before any of its words is read into a record."""
    seen = 0
    for token in parts:
        for word in _WORDS.finditer(token.value):
            seen += 1
            if seen > MAX_WORDS_PER_STATEMENT:
                raise PastLimit(f"this {what} has more than {MAX_WORDS_PER_STATEMENT} "
                                 "words", token.start_pos + word.start(),
                                 word.end() - word.start())


class GameBounds:
    """The limits' side of a game's assembler: what it reads them from and reports them
    with (set by :class:`.assembler._GameAssembler`)."""

    body: str
    piece: GameSlice
    lines: TextLines
    offset_base: int
    line_base: int
    col_base: int
    items: int
    diagnostics: list[Diagnostic]
    current_deal: int | None

    def diag(self, code: str, message: str, span: Span | None, *,
             severity: Severity = Severity.ERROR, hint: str | None = None,
             trick: int | None = None) -> None:
        raise NotImplementedError  # the assembler's

    def report_long_number(self, error: NumberTooLong) -> None:
        """AFN120 for a number of too many digits, underlined where it is written (the
        game is then not read, like a game past any other limit)."""
        start = max(self.body.find(error.word, error.after or 0), 0)
        digits = len(error.word)
        self.report_past(f"this number has {digits:,} digits, more than {MAX_NUMBER_DIGITS}",
                         start, digits,
                         hint="a deal or trick number, points or a total is a few digits at most")

    def report_past(self, problem: str, offset: int, width: int, *,
                    hint: str = "split the record into smaller games; no real game comes "
                    "near this") -> None:
        """AFN120 for a game found past a limit while it was read, at ``offset`` in its
        text: what was read of it is dropped (its findings too), and it is not read."""
        self.diagnostics.clear()
        self.current_deal = None
        self.diag(
            LIMIT_CODE,
            f"{problem}; the game is not read (see 'Limits' in NOTATION.md)",
            Span.at(self.lines, offset + self.offset_base, offset + width + self.offset_base),
            hint=hint,
        )

    def count_items(self, count: int, token: Token) -> None:
        """Add a statement's ``count`` awards or scores to the game's; :class:`PastLimit`
        past :data:`~..limits.MAX_ITEMS_PER_GAME` (at the statement)."""
        self.items += count
        if self.items > MAX_ITEMS_PER_GAME:
            raise PastLimit(f"this game has more than {MAX_ITEMS_PER_GAME:,} items in its "
                             "claims, results, counts and totals", token.start_pos,
                             len(token.value))
