"""One statement's text → its values: the coarse tokens of the grammar split into words.

The grammar reads a whole hand, run of plays, claim or total as one token (see
``grammar/allfours.lark``); the assembler (:mod:`.assembler`) sends each token here to be
split: a deal header into its number and dealer, a call into its seat and kind, a play
into its card, seat and glyph, a claim into its awards, a total into its scores.  The
texts that recur are read once and remembered.
"""

from __future__ import annotations

import re
from typing import TypeVar

from ..cards import Card, Seat, card, parse_card
from ..limits import MAX_NUMBER_DIGITS
from .lalr import Token
from .records import Award, CallKind, ClaimItem, Glyph, Score
from .words import CARD_PATTERN, GLYPH_PATTERN, SEAT_PATTERN

_V = TypeVar("_V")

# --- the words of a token ----------------------------------------------------------------------

_CARD = CARD_PATTERN
_PLAY_RE = re.compile(
    rf"(?:([0-9]+)\.\s*)?(?:({SEAT_PATTERN}):)?({_CARD})({GLYPH_PATTERN})?")
# A tag: its name and its value as written.  A value's plain characters are taken as
# runs between escapes, not as one choice per character (as the slicer's ``_TAG``: the
# engine takes a run in one step).
_TAG_RE = re.compile(r'\[[ \t]*([A-Za-z][A-Za-z0-9_]*)[ \t]+"([^"\\\n]*(?:\\.[^"\\\n]*)*)"[ \t]*\]')
_DEAL_WORD_RE = re.compile(r"(?<![A-Za-z0-9_])(?i:deal)(?![A-Za-z0-9_])")
_ANY_CARD_RE = re.compile(rf"(?<![A-Za-z0-9_]){_CARD}")


def _count_cards(text: str, enough: int) -> int:
    """How many cards ``text`` writes, counting no further than ``enough``."""
    count = 0
    for _ in _ANY_CARD_RE.finditer(text):
        count += 1
        if count >= enough:
            break
    return count
_DEAL_RE = re.compile(r"\S+\s+([0-9]+)\s+\S+\s+(\S)(?:\s+\S+\s+(\S+))?")
_WORDS = re.compile(r"\S+")
_UNESCAPE = re.compile(r"\\(.)")
_GLYPHS = {glyph.value: glyph for glyph in Glyph}
_SEATS = {case(seat.value): seat for seat in Seat for case in (str.upper, str.lower)}


_CLAIM_ITEMS = {item.value: item for item in ClaimItem}


def unescape_tag_value(raw: str) -> str:
    return _UNESCAPE.sub(r"\1", raw) if "\\" in raw else raw


# What the parser reads from a statement's text that recurs, worked out once per
# distinct text: "deal 3 dealer N", "S stands", "turn QS", "claim S high game N low",
# "total N 3 S 5".  Each map is emptied when it grows past this many texts, so a file
# of unique texts costs no more memory than a small one.
# Worth 10.8%, 4.7% and 1.9% of ``check`` on the bench's corpus (2,000 deals),
# tiny games and varied small games (issue 22: ``check -j 1 --quiet``, CPU time,
# median of 7 runs alternated with plain code in one process).
_MEMO_LIMIT = 4096
_DEAL_HEADERS: dict[str, tuple[int, Seat, str | None]] = {}
_CALLS: dict[str, tuple[Seat, CallKind | None]] = {}  # kind None: "S concedes"
_CLAIMS: dict[str, tuple[Award, ...]] = {}  # only claims read without a diagnostic
_TOTALS: dict[str, tuple[Score, ...]] = {}


class NumberTooLong(ValueError):
    """A number written with more digits than :data:`~..limits.MAX_NUMBER_DIGITS`: the
    game is not read (AFN120 at the number).  ``word`` is the number as written and
    ``after`` the offset in the game's text from which it is looked for (the start of its
    statement, or of the number itself), once known."""

    def __init__(self, word: str, after: int | None = None) -> None:
        super().__init__(word)
        self.word = word
        self.after = after


def read_number(word: str, after: int | None = None) -> int:
    """The value of ``word``, ASCII digits; :class:`NumberTooLong` past the limit."""
    if len(word) > MAX_NUMBER_DIGITS:
        raise NumberTooLong(word, after)
    return int(word)


def _remember(memo: dict[str, _V], text: str, value: _V) -> _V:
    if len(memo) >= _MEMO_LIMIT:
        memo.clear()
    memo[text] = value
    return value


def _deal_header(text: str) -> tuple[int, Seat, str | None]:
    """``deal 3 dealer N`` → (3, N, None); ``deal 3 dealer N at 20:41`` → (3, N, "20:41"),
    the word after ``at`` as written (:func:`.deal_extras.clock_time` reads it)."""
    found = _DEAL_HEADERS.get(text)
    if found is None:
        match = _DEAL_RE.match(text)
        assert match is not None  # the DEAL terminal guarantees the shape
        found = _remember(_DEAL_HEADERS, text,
                          (read_number(match.group(1)), Seat.from_letter(match.group(2)),
                           match.group(3)))
    return found



def _call(text: str) -> tuple[Seat, CallKind | None]:
    """``S stands`` → (S, STANDS); ``S concedes`` → (S, None)."""
    found = _CALLS.get(text)
    if found is None:
        seat_text, verb = text.split()
        verb = verb.lower()
        kind = None if verb == "concedes" else CallKind(verb)
        found = _remember(_CALLS, text, (Seat.from_letter(seat_text), kind))
    return found


_PlayText = tuple[Card, Seat | None, Glyph | None]
_PLAY_WORDS: dict[str, _PlayText] = {}  # "S:JS" → its card, seat and glyph


def _play_word(word: str) -> tuple[_PlayText, int]:
    """A word of a run of plays that is not a lone trick number: the play it writes,
    and the length of the trick number written against it ("12." in "12.S:JS"), or 0
    (a play alone, then remembered in ``_PLAY_WORDS``)."""
    match = _PLAY_RE.fullmatch(word)
    assert match is not None  # the PLAYS terminal guarantees the shape
    number_text, seat_text, card_text, glyph_text = match.groups()
    play = (card(card_text), _SEATS[seat_text] if seat_text else None,
            _GLYPHS[glyph_text] if glyph_text else None)
    if number_text is None:
        return _remember(_PLAY_WORDS, word, play), 0
    return play, match.start(2 if seat_text else 3)


def _cards_of(parts: list[Token], skip: int) -> tuple[Card | None, ...]:
    """The cards of a hand, a discard or a pack written in ``parts`` (its first token
    starts with ``skip`` characters of seat or word); ``??`` is no card: None."""
    if len(parts) == 1:
        return tuple([parse_card(text) for text in parts[0].value[skip:].split()])
    found: list[Card | None] = []
    for number, part in enumerate(parts):
        found.extend(parse_card(text) for text in part.value[skip if number == 0 else 0:].split())
    return tuple(found)


def _scores(parts: list[Token]) -> tuple[Score, ...]:
    """``total N 0 S 4`` → its scores, read once per distinct text."""
    text = parts[0].value
    if len(parts) == 1:
        found = _TOTALS.get(text)
        if found is not None:
            return found
    words = [word for part in parts for word in part.value.split()][1:]
    scores = tuple(Score(_SEATS[words[i]], read_number(words[i + 1]))
                   for i in range(0, len(words), 2))
    if len(parts) == 1:
        _remember(_TOTALS, text, scores)
    return scores
