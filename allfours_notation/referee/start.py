"""Starting scores: a record that begins part-way through a game.

A disputed deal is usually remembered as "we were 12–13 when it was played".  The
``[Score "N 12 S 13"]`` tag says so: the running score of each side before the
first deal of the record.  Its words are pairs of a side and a whole number, the
same shape as a deal's ``total`` line.  A side is a seat letter (with four
players either partner's letter stands for the side) or a side's name (``NS``,
``EW``).  A side left out starts at 0.

A starting score must be below the target: a game already won has nothing left
to play.  Anything wrong with the tag is AFN505 at the tag, and the game starts
from 0–0 as if the tag were absent (a half-read start would hide the problem).
"""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType

from ..cards import Seat
from ..diagnostics import Diagnostic
from ..limits import MAX_NUMBER_DIGITS
from ..reading.records import Game, Tag, diagnostic_at
from ..reading.table import side_of, sides
from .profiles import Options

SCORE_TAG = "Score"
_SIDE_NAMES = ("NS", "EW")


def score_tag(game: Game) -> Tag | None:
    """The first ``[Score]`` tag of ``game`` (a repeated tag is AFN109 already)."""
    for tag in game.tags:
        if tag.name == SCORE_TAG:
            return tag
    return None


def starting_scores(
    game: Game, seats: tuple[Seat, ...], options: Options
) -> tuple[Mapping[str, int], list[Diagnostic]]:
    """Each side's score before the first deal, and the problems of the tag.

    Without a ``[Score]`` tag every side starts at 0.
    """
    zero = dict.fromkeys(sides(seats), 0)
    tag = score_tag(game)
    if tag is None:
        return MappingProxyType(zero), []
    scores, problem = _read(tag.value, seats, options)
    if problem is not None:
        diagnostic = diagnostic_at(
            game, tag.span, "AFN505",
            f'[Score "{tag.value}"]: {problem}; the game starts from 0',
            hint='write each side and its score, e.g. [Score "N 12 S 13"]',
        )
        return MappingProxyType(zero), [diagnostic]
    return MappingProxyType({**zero, **scores}), []


def _read(text: str, seats: tuple[Seat, ...], options: Options) -> tuple[dict[str, int],
                                                                          str | None]:
    words = text.split()
    if not words:
        return {}, "no scores are given"
    if len(words) % 2:
        return {}, "each side needs a score (the words come in pairs)"
    found: dict[str, int] = {}
    for name, number in zip(words[::2], words[1::2], strict=True):
        side = _side_named(name, seats)
        if side is None:
            return {}, f"{name!r} is not a side at this table ({', '.join(sides(seats))})"
        if not (number.isascii() and number.isdigit()):  # '²' is a digit to isdigit()
            return {}, f"{number!r} is not a whole number"
        if len(number) > MAX_NUMBER_DIGITS:
            return {}, (f"{side} has a score of {len(number):,} digits; a score has at most "
                        f"{MAX_NUMBER_DIGITS}")
        value = int(number)
        if side in found:
            return {}, f"{side} is given twice"
        if value >= options.target:
            return {}, f"{side} {value} has already reached the target {options.target}"
        found[side] = value
    return found, None


def _side_named(name: str, seats: tuple[Seat, ...]) -> str | None:
    upper = name.upper()
    if len(seats) == 4 and upper in _SIDE_NAMES:
        return upper
    if len(upper) != 1 or upper not in "NESW":
        return None
    seat = Seat.from_letter(upper)
    return side_of(seat, seats) if seat in seats else None


def start_text(scores: Mapping[str, int]) -> str:
    """``N 12 S 13``: the starting score as the tag writes it."""
    return " ".join(f"{side} {value}" for side, value in scores.items())
