"""The codes of the recording slips (:mod:`.slips`) and of the findings that send the
search looking for one: apart from the search, so that checking a game with no such
finding (nearly every game) never imports it (a one-game ``check`` paid 12 ms for it:
issue 27)."""

from __future__ import annotations

from enum import Enum


class SlipKind(Enum):
    """The slips the search can name, with the code of the root it reports."""

    MISSING = "AFN221"
    EXTRA = "AFN222"
    TWICE = "AFN223"
    SWAPPED = "AFN224"
    SEAT = "AFN225"
    CHANGED = "AFN226"  # a card written for another of its suit (9H for 8H)


# Findings that say "the text of this deal is not a possible deal": the only ones
# that send the search looking for a slip.
RECORDING_CODES = frozenset({
    "AFN201", "AFN202", "AFN203", "AFN204", "AFN205", "AFN208",
    "AFN301", "AFN302", "AFN303", "AFN305",
})
OFFENCES = frozenset({"AFN306", "AFN307"})
# Findings of a deal that a slip can cause; the rest (numbering, dealer
# rotation, a game already decided) stay roots of their own.
NOT_FROM_A_DEAL_SLIP = frozenset({"AFN207", "AFN210", "AFN211", "AFN312", "AFN313"})

# Without one of these a game has no deal worth searching and no total to hint on.
SEARCHED_CODES = RECORDING_CODES | OFFENCES | {"AFN402"}
