"""Two optional parts of a deal that AFN 1 gained under its versioning rule (issue 38): the
clock time at the end of its header (``deal 3 dealer N at 20:41``) and the count for Game
(``count N 31 S 18``), read for the game's assembler (:class:`.assembler._GameAssembler`
is one of these).  NOTATION.md §4 and §4.9 say what they mean.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from .bounds import LONG_STATEMENT, GameBounds, count_words
from .records import Count, Span
from .statements import NumberTooLong, _scores

if TYPE_CHECKING:
    from .lalr import Token

_CLOCK_RE = re.compile(r"([0-9]{1,2}):([0-9]{2})(?::([0-9]{2}))?")


def clock_time(word: str) -> str | None:
    """A deal's clock time as written (``20:41``, ``8:05``, ``20:41:07``) in canonical
    form (``20:41``, ``08:05``, ``20:41:07``), or None for a word that is not a time of
    day on a 24-hour clock (``25:00``, ``8.41``, ``8pm``)."""
    match = _CLOCK_RE.fullmatch(word)
    if match is None:
        return None
    hours, minutes, seconds = match.groups()
    if int(hours) > 23 or int(minutes) > 59 or (seconds is not None and int(seconds) > 59):
        return None
    return f"{int(hours):02d}:{minutes}" + (f":{seconds}" if seconds is not None else "")


class DealExtras(GameBounds):
    """The assembler's reading of a deal's clock time and count for Game."""

    def clock(self, word: str, header: Token) -> str | None:
        """The header's clock time (``at 20:41``) in canonical form; a word that is not a
        time of day is AFN112 at the word (and the deal has no time)."""
        time = clock_time(word)
        if time is None:
            start = header.start_pos + len(header.value) - len(word) + self.offset_base
            self.diag("AFN112", f"'{word}' is not a clock time",
                      Span.at(self.lines, start, start + len(word)),
                      hint="write the time the deal began on a 24-hour clock: 'at 20:41' "
                      "(or 'at 20:41:07')")
        return time

    def game_count(self, parts: list[Token], span: Span) -> Count:
        """``count N 31 S 18``: its seats and pips, held to the limits a total is held to
        (words in the statement, digits of a number, items in the game)."""
        token = parts[0]
        if len(token.value) > LONG_STATEMENT or len(parts) > 1:
            count_words(parts, "count")
        try:
            count = Count(scores=_scores(parts), span=span)
        except NumberTooLong as error:
            error.after = token.start_pos
            raise
        self.count_items(len(count.scores), token)
        return count
