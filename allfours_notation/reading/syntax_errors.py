"""Lark errors → messages that speak AFN, pointing at the word that is wrong.

Lark reports where its lexer stopped.  With coarse terminals that is often the
start of a statement (``turn 4X`` fails at ``turn``), so this module reads the
statement word by word, finds the first word that cannot be right, and says
what was expected there.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import TYPE_CHECKING, Protocol

from ..frozen import frozen
from .words import (
    CALLS,
    CARD_PATTERN,
    CLAIM_ITEMS,
    GLYPH_PATTERN,
    PENALTY_KINDS,
    RANKS,
    REDEAL_REASONS,
    SEAT_PATTERN,
    SUIT_SYMBOLS,
    SUITS,
    UNKNOWN_CARD,
)

if TYPE_CHECKING:  # Lark is imported only once a game does not parse (issue 27)
    from lark.exceptions import UnexpectedInput

    from .lalr import Token

CARD_HINT = (f"a card is a rank ({' '.join(RANKS)}, or 10) then a suit ({' '.join(SUITS)} or "
             f"{' '.join(SUIT_SYMBOLS)})")

_CARD = re.compile(f"^{CARD_PATTERN}(?:{GLYPH_PATTERN})?$")
_SEAT = re.compile(f"^{SEAT_PATTERN}$")
_PLAY = re.compile(r"^(?:[0-9]+\.)?(?:([NESWnesw]):)?(.*)$")
# Words of a statement, skipping comments: group 1 is a word.
_WORD = re.compile(r"\{[^}]*\}?|;[^\n]*|([^\s{};]+)")
# Statements a bad word can stop in the middle, once their first token has been read:
# a claim or total (one token, or more when comments cut it) and "turn { c }" (whose
# card is a token of its own).  The value says whether the token starts the statement.
_CONTINUED_STATEMENTS = {
    "CLAIM": True,
    "TOTAL": True,
    "TURN_WORD": True,
    "CLAIM_MORE": False,
    "TOTAL_MORE": False,
}
# Words that start the statement after a total (a number left out runs into them).
_NEXT_STATEMENT_WORDS = frozenset({"deal", "end", "claim", "total", "penalty", "redeal",
                                   "abandoned", "turn"})
# Possessive like the slicer's: blanks and comments are never given back.
_ONLY_COMMENTS = re.compile(r"(?:\s++|\{[^}]*+\}|;[^\n]*+)*+")
# a deal number of more digits than a record may hold is no deal number (issue 41)
_DEAL_BEFORE = re.compile(r"(?<![A-Za-z0-9_])[Dd][Ee][Aa][Ll]\s+([0-9]{1,9})(?![0-9])")

_EXPECTED_NAMES = {
    "TAGS": 'a tag [Name "value"]',
    "DEAL": "'deal <number> dealer <seat>'",
    "HAND": "a hand (a seat, then cards)",
    "TURN": "'turn <card>'",
    "CALL": f"'<seat> {'|'.join(CALLS)}'",
    "DISCARD": "'<seat> discards <cards>'",
    "PACK": "'pack' and the 52 cards, top first",
    "PLAYS": "a card played",
    "CLAIM": "'claim'",
    "TOTAL": "'total'",
    "COUNT": "'count'",
    "PENALTY": "'penalty <seat> <kind>'",
    "REDEAL": f"'redeal {'|'.join(REDEAL_REASONS)}'",
    "ABANDONED": "'abandoned'",
    "END": "'end'",
}


@frozen
class Explanation:
    """What to tell the writer: a code, a message, a hint, and the exact word (as an
    offset and length in the game's text)."""

    code: str
    message: str
    hint: str | None
    offset: int
    length: int


class _At(Protocol):
    """Builds an :class:`Explanation` pointing at word ``index`` of the statement."""

    def __call__(
        self, index: int, code: str, message: str, hint: str | None = None
    ) -> Explanation: ...


def _words(body: str, position: int, limit: int = 40) -> list[tuple[int, str]]:
    """The next ``limit`` words from ``position`` (its own word first), comments skipped.

    Enough words to reach the bad one when a long claim or total is read again
    from its start."""
    words: list[tuple[int, str]] = []
    for match in _WORD.finditer(body, position):
        if match.group(1) is not None:
            words.append((match.start(), match.group(1)))
        elif match.start() == position:  # the error is at a comment: keep it as the word
            words.append((match.start(), match.group()))
        if len(words) >= limit:
            break
    return words


def _statement_before(
    error: UnexpectedInput, body: str, position: int, opened: Token | None
) -> int | None:
    """Where a claim, total or turn starts, when the lexer stopped inside one.

    A bad word in the middle of a claim or total ends the token just before it:
    the last token read is then that statement (or its continuation after a
    comment, and then ``opened``, the last claim or total the lexer read, is where
    it started), with nothing but blanks and comments between it and the error.
    """
    history = getattr(error, "token_history", None)
    if not history:
        return None
    last = history[-1]
    starts_statement = _CONTINUED_STATEMENTS.get(getattr(last, "type", ""))
    if starts_statement is None or last.end_pos is None:
        return None
    between = _ONLY_COMMENTS.match(body, last.end_pos)
    if between is None or between.end() < position:
        return None
    if starts_statement:
        return int(last.start_pos)
    return int(opened.start_pos) if opened is not None and opened.start_pos is not None else None


def deal_number_before(body: str, position: int) -> int | None:
    number = None
    for match in _DEAL_BEFORE.finditer(body, 0, position):
        number = int(match.group(1))
    return number


def explain(
    error: UnexpectedInput,
    body: str,
    position: int,
    opened: Token | None = None,
    *,
    restarted: bool = False,
) -> Explanation:
    """Explain a syntax error at ``position`` of ``body`` (one game's text).

    ``opened`` is the last claim or total token the lexer read, if any: where a
    claim or total cut by comments starts.  When the bad word is inside such a
    statement, the statement is read again from its start, once (``restarted``):
    a second restart could only find the same statement and would never end.
    """
    words = _words(body, position)
    if not words or words[0][0] != position:
        words.insert(0, (position, body[position : position + 1]))

    def at(index: int, code: str, message: str, hint: str | None = None) -> Explanation:
        offset, word = words[min(index, len(words) - 1)]
        return Explanation(code, message, hint, offset, max(1, len(word)))

    first = words[0][1]
    lower = first.lower()
    if "\ufffd" in first:
        return at(
            0, "AFN102", "this text holds bytes that are not UTF-8", "re-save the file as UTF-8"
        )
    if first.startswith("{"):
        return at(0, "AFN103", "this comment is never closed", "close it with '}'")
    if first.startswith("["):
        return at(0, "AFN101", 'cannot read this tag; a tag is written [Name "value"] on one line')
    if deal_number_before(body, position) is None and lower not in ("deal", "end"):
        return at(
            0,
            "AFN101",
            f"{first!r} comes before any 'deal' line",
            "every hand, turn-up and trick belongs to a deal: 'deal 1 dealer N'",
        )
    if first.startswith((",", ";,")) or first.endswith(","):
        return at(0, "AFN101", "a comma here: AFN separates cards, plays and words with spaces",
                  "leave the comma out: '1. S:2C N:3C'")
    keyword = _KEYWORD_CHECKS.get(lower)
    if keyword is not None:
        return keyword(words, at)
    glued = re.match(r"[a-z]+", lower)
    if glued and glued.group() in _KEYWORD_CHECKS and glued.group() != lower:
        return at(0, "AFN101", f"{first!r} is not a word of AFN",
                  f"write '{glued.group()}' and what follows it with a space between")
    inside = None if restarted else _statement_before(error, body, position, opened)
    if inside is not None and inside < position:  # a claim, total or turn begun before
        return explain(error, body, inside, opened, restarted=True)
    from lark.exceptions import UnexpectedToken  # imported already: Lark raised the error

    if isinstance(error, UnexpectedToken) and error.token.type == "$END":
        return at(0, "AFN101", "the game stops in the middle of a statement")
    if re.match(r"^[0-9]+\.$", first):
        if len(words) < 2:
            return at(0, "AFN101", f"trick number {first} is not followed by a card")
        return at(1, "AFN101", f"{words[1][1]!r} is not a card", CARD_HINT)
    if _SEAT.match(first):
        return _after_seat(words, at)
    play = _PLAY.match(first)
    if play and play.group(2) and not _CARD.match(play.group(2)):
        card_text = play.group(2)
        if re.match(r"^(?:10|[0-9AKQJTakqjt])", card_text) or play.group(1):
            return at(0, "AFN101", f"{card_text!r} is not a card", CARD_HINT)
    return at(0, "AFN101", f"unexpected {first!r}{_expected(error)}")


def _check_turn(words: list[tuple[int, str]], at: _At) -> Explanation:
    if len(words) < 2:
        return at(0, "AFN101", "'turn' must be followed by the card turned up", CARD_HINT)
    return at(1, "AFN101", f"expected the card turned up, found {words[1][1]!r}", CARD_HINT)


def _check_deal(words: list[tuple[int, str]], at: _At) -> Explanation:
    hint = "a deal starts 'deal <number> dealer <seat>', e.g. 'deal 1 dealer N'"
    expected = [
        (r"^[0-9]+$", "the deal number"),
        (r"^(?i:dealer)$", "the word 'dealer'"),
        (r"^[NESWnesw]$", "the dealer's seat (N, E, S or W)"),
    ]
    for index, (pattern, what) in enumerate(expected, start=1):
        if index >= len(words) or not re.match(pattern, words[index][1]):
            found = repr(words[index][1]) if index < len(words) else "nothing"
            return at(index, "AFN101", f"expected {what} here, found {found}", hint)
    return at(0, "AFN101", "cannot read this deal header", hint)


def _check_claim(words: list[tuple[int, str]], at: _At) -> Explanation:
    hint = (
        "a claim is 'claim' then a seat and what it took: "
        + " ".join(CLAIM_ITEMS)
        + " (a number after an item gives its points), e.g. 'claim S high low N game'"
    )
    for index, (_, word) in enumerate(words[1:], start=1):
        if not (_SEAT.match(word) or word.lower() in CLAIM_ITEMS or word.isdigit()):
            return at(index, "AFN101", f"{word!r} is not part of a claim", hint)
    return at(0, "AFN101", "a claim needs at least one seat and item", hint)


def _check_total(words: list[tuple[int, str]], at: _At) -> Explanation:
    hint = "a total is seat and score pairs: total N 3 S 5"
    index = 1
    while index < len(words):
        if not _SEAT.match(words[index][1]):
            return at(index, "AFN101", f"expected a seat here, found {words[index][1]!r}", hint)
        following = words[index + 1][1] if index + 1 < len(words) else ""
        if not re.match(r"^-?[0-9]+$", following):
            if not following or _SEAT.match(following) or following[0] in "[{;%" \
                    or following.lower() in _NEXT_STATEMENT_WORDS:
                # the number is missing (the next word starts another statement): point at
                # the seat left without it, not at the next line
                seat = words[index][1].upper()
                return at(index, "AFN101", f"{seat} has no score in this total",
                          f"write {seat}'s running score after it, e.g. 'total N 3 S 5'")
            return at(index + 1, "AFN101", "expected the seat's score (a whole number) here", hint)
        index += 2
    return at(0, "AFN101", "cannot read this total", hint)


def _check_count(words: list[tuple[int, str]], at: _At) -> Explanation:
    """``count N 31 S 18`` read as a total is read (seat and number pairs)."""
    found = _check_total(words, at)
    message = found.message.replace("score in this total", "pips in this count") \
        .replace("this total", "this count").replace("seat's score", "side's pips")
    return Explanation(found.code, message, "a count for Game is seat and pips pairs: "
                       "count N 31 S 18", found.offset, found.length)


def _check_at(words: list[tuple[int, str]], at: _At) -> Explanation:
    return at(0, "AFN101", "'at' and the clock time the deal began end its header, with "
              "nothing between them", "write 'deal 3 dealer N at 20:41', and any comment after "
              "the time")


def _check_penalty(words: list[tuple[int, str]], at: _At) -> Explanation:
    hint = "write 'penalty <offender's seat> " + "|".join(PENALTY_KINDS) + "'"
    if len(words) < 2 or not _SEAT.match(words[1][1]):
        return at(1, "AFN101", "expected the offender's seat after 'penalty'", hint)
    found = repr(words[2][1]) if len(words) > 2 else "nothing"
    return at(2, "AFN101", f"expected the kind of penalty, found {found}", hint)


def _check_redeal(words: list[tuple[int, str]], at: _At) -> Explanation:
    found = repr(words[1][1]) if len(words) > 1 else "nothing"
    return at(
        1,
        "AFN101",
        f"expected why the cards were dealt again, found {found}",
        "write 'redeal exhausted' (the pack ran out while running) or 'redeal misdeal'",
    )


def _after_seat(words: list[tuple[int, str]], at: _At) -> Explanation:
    seat = words[0][1].upper()
    if len(words) < 2:
        return at(0, "AFN101", f"{seat} must be followed by a call or the cards of a hand")
    second = words[1][1]
    if re.match(r"^(?:10|[0-9AKQJTakqjt?])", second):
        for index, (_, word) in enumerate(words[1:], start=1):
            if word != UNKNOWN_CARD and not _CARD.match(word):
                return at(index, "AFN101", f"{word!r} is not a card", CARD_HINT)
        return at(1, "AFN101", f"cannot read the hand of {seat}", CARD_HINT)
    return at(
        1,
        "AFN101",
        f"{second!r} is not a call",
        f"a seat is followed by {', '.join(CALLS)}, or by the cards of a hand ('{seat} JS 9H …');"
        " a card played is written with a colon: '" + seat + ":JS'",
    )


_KEYWORD_CHECKS = {
    "turn": _check_turn,
    "deal": _check_deal,
    "claim": _check_claim,
    "total": _check_total,
    "count": _check_count,
    "at": _check_at,
    "penalty": _check_penalty,
    "redeal": _check_redeal,
}


def _expected(error: UnexpectedInput) -> str:
    expected: Iterable[str] = (
        getattr(error, "allowed", None) or getattr(error, "expected", None) or ()
    )
    names = sorted(
        {_EXPECTED_NAMES.get(name, name) for name in expected if not name.startswith("__")}
    )
    if not names:
        return ""
    if len(names) > 6:
        names = [*names[:6], "…"]
    return "; expected " + ", ".join(names)
