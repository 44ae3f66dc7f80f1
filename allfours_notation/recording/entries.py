"""What a scorer types at the table, read into entries of the record.

An entry is one statement of AFN as it happens: a deal dealt, a hand, a turn-up, a
call, a card, a penalty, how a deal ended, the players' claim.  Typing is lax and
short because it happens while the cards fall: ``js``, ``10h``, ``th``, ``j♠``, a
digit for the n-th legal card offered, ``b`` for a beg when a beg is what comes
next.  What a short word means depends on what the table expects, so
:func:`read_entry` is given the :class:`Expectation` of the session.
"""

from __future__ import annotations

import re
from dataclasses import field
from enum import Enum

from ..cards import DEALT, Card, Seat, parse_card
from ..frozen import frozen
from ..reading.records import (
    Abandoned,
    Award,
    Call,
    CallKind,
    Claim,
    ClaimItem,
    Comment,
    CommentStyle,
    Concede,
    Discard,
    Glyph,
    Hand,
    Node,
    Pack,
    Penalty,
    PenaltyKind,
    Play,
    Redeal,
    RedealReason,
    TurnUp,
)

__all__ = [
    "RESULT_KEYS",
    "Agreed",
    "Annotation",
    "DealStart",
    "Entry",
    "Expectation",
    "GameTied",
    "Item",
    "Phase",
    "ResultsDone",
    "Ruling",
    "read_entry",
    "read_results_chunk",
]


@frozen(kw_only=True)
class DealStart:
    """``deal N dealer X``: a new deal, dealt by ``dealer``; comments go on its header."""

    dealer: Seat
    leading: tuple[Comment, ...] = ()
    trailing: tuple[Comment, ...] = ()
    time: str | None = None  # when the deal began ("20:41"): the session's clock stamps it


@frozen(kw_only=True)
class Item(Node):
    """One item of a deal recorded by its results (results mode): ``award``."""

    award: Award


@frozen(kw_only=True)
class GameTied(Node):
    """Results mode: the pips tied for Game (``g =``), written so that a tie and a Game
    forgotten differ in the file (:data:`..building.TIE_NOTE`).  ``award``: Game as the
    rules give a tie (the elder's, under Hoffmann), None when a tie scores nothing; the
    session asks the referee (``None`` as read: not asked yet)."""

    award: Award | None = None


@frozen(kw_only=True)
class ResultsDone(Node):
    """The scorer's Enter in results mode: the deal's results are all entered."""


@frozen(kw_only=True)
class Agreed(Node):
    """The other side confirms the deal's points as the recorder shows them."""


@frozen(kw_only=True)
class Ruling(Node):
    """The tournament director's ruling on a deal (``director scored …``)."""

    awards: tuple[Award, ...]


Entry = (DealStart | Hand | TurnUp | Call | Discard | Pack | Play | Penalty | Redeal
         | Abandoned | Concede | Claim | Item | GameTied | ResultsDone | Agreed | Ruling)


@frozen
class Annotation:
    """A comment or a glyph for the entry just made (not an entry of its own)."""

    comment: Comment | None = None
    glyph: Glyph | None = None


class Phase(Enum):
    """What the table waits for."""

    DEALER = "dealer"  # who deals the next deal
    TURN = "turn"  # the hands (optional), then the turn-up
    CALL = "call"  # the elder stands or begs (or the first card is led)
    ANSWER = "answer"  # the dealer gives or runs
    RUN_TURN = "run_turn"  # the run's cards (optional), then its turn-up
    EXHAUSTED = "exhausted"  # the pack ran out: 'redeal exhausted'
    PLAY = "play"  # a card
    RESULTS = "results"  # results mode: the items of the deal, Enter when all are in
    CONFIRM = "confirm"  # the deal is over: the other side agrees (y) or claims
    OVER = "over"  # the game is decided


@frozen
class Expectation:
    """What comes next, who acts, and the cards offered to choose from."""

    phase: Phase
    actor: Seat | None
    text: str  # one line for the screen: "S to play to trick 3"
    offered: tuple[Card, ...] = ()  # the legal cards, when the hand is known
    default: Seat | None = None  # the proposed dealer
    may_beg: bool = False  # in play phase after a run: the elder may beg again
    seats: tuple[Seat, ...] = field(default=())
    dealer: Seat | None = None  # results mode: the kick is the dealer's side's
    elder: Seat | None = None  # results mode: the gift is the elder's
    # the cards a hand typed now must have (as dealt, or a run's batch); None: no hand now
    hand_size: int | None = None
    # results mode: what the table's opening waits for, if the scorer records it (the
    # turn-up: TURN, a stand or beg: CALL, a gift or run: ANSWER, a run's turn-up:
    # RUN_TURN; None: nothing more, or the deal is past it); ``actor`` says who
    due: Phase | None = None


_GLYPHS = {glyph.value: glyph for glyph in Glyph}
_PENALTIES = {kind.value: kind for kind in PenaltyKind}
_CLAIM_ITEMS = {item.value: item for item in ClaimItem}
_CALL_WORDS = {
    "stand": CallKind.STANDS, "stands": CallKind.STANDS,
    "beg": CallKind.BEGS, "begs": CallKind.BEGS,
    "give": CallKind.GIVES, "gives": CallKind.GIVES, "take": CallKind.GIVES,
    "run": CallKind.RUNS, "runs": CallKind.RUNS,
}
_SHORT_CALLS = {
    Phase.CALL: {"s": CallKind.STANDS, "b": CallKind.BEGS},
    Phase.ANSWER: {"g": CallKind.GIVES, "r": CallKind.RUNS},
}
# Results mode: the key of each item (then the side, but for a kick or a gift, whose
# side the rules fix).  "x": Hang Jack ("hanged"); "t": the gift ("take one").
RESULT_KEYS: dict[str, ClaimItem] = {
    "k": ClaimItem.KICK, "t": ClaimItem.GIFT, "h": ClaimItem.HIGH, "l": ClaimItem.LOW,
    "j": ClaimItem.JACK, "x": ClaimItem.HANG_JACK, "g": ClaimItem.GAME, "p": ClaimItem.PENALTY,
}
_SEAT_CARD = re.compile(r"^([nesw])\s*[:\s]\s*(\S+)$", re.IGNORECASE)


def read_entry(text: str, expecting: Expectation) -> Entry | Annotation | str:
    """The entry ``text`` stands for at this point of the game, or why it is not one."""
    raw = text.strip()
    if raw.startswith("{") or raw.startswith(";"):
        return _comment(raw)
    if raw in _GLYPHS:
        return Annotation(glyph=_GLYPHS[raw])
    words = raw.lower().split()
    if not words:
        if expecting.phase is Phase.DEALER and expecting.default is not None:
            return DealStart(dealer=expecting.default)
        if expecting.phase is Phase.RESULTS:
            return ResultsDone()
        return "type an entry (? for help)"
    if expecting.phase is Phase.OVER:
        if words[0] == "director":
            return _ruling(words[1:], expecting)
        return "the game is over: quit with Ctrl+Q, or undo with Ctrl+Z"
    if words[0] == "director":
        return _ruling(words[1:], expecting)
    if expecting.phase is Phase.CONFIRM:
        if words in (["y"], ["yes"], ["ok"]):
            return Agreed()
        if words[0] != "claim":
            return "the other side: y agrees; or type what they claim ('claim W high game')"
    if expecting.phase is Phase.RESULTS:
        return _item(words, expecting)
    special = _ending_or_penalty(words, expecting)
    if special is not None:
        return special
    if expecting.phase is Phase.DEALER:
        return _dealer(words, expecting)
    call = _call(words, expecting)
    if call is not None:
        return call
    if expecting.phase in (Phase.TURN, Phase.RUN_TURN, Phase.EXHAUSTED) or \
            _looks_like_hand(words, expecting):
        return _opening(words, raw, expecting)
    return _play(raw, expecting)


def _comment(raw: str) -> Annotation | str:
    if raw.startswith("{"):
        body = raw[1:-1] if raw.endswith("}") else raw[1:]
        if "{" in body or "}" in body:
            return "a comment cannot hold braces"
        return Annotation(comment=Comment(f" {body.strip()} ", CommentStyle.BRACE))
    return Annotation(comment=Comment(" " + raw[1:].strip(), CommentStyle.LINE))


def _seat(word: str, expecting: Expectation) -> Seat | None:
    if len(word) != 1 or word.upper() not in "NESW":
        return None
    seat = Seat.from_letter(word.upper())
    return seat


def _ending_or_penalty(words: list[str], expecting: Expectation) -> Entry | str | None:
    head = words[0]
    if head in ("abandoned", "abandon"):
        return Abandoned()
    if head == "misdeal" or words[:2] == ["redeal", "misdeal"]:
        return Redeal(reason=RedealReason.MISDEAL)
    if head == "exhausted" or words[:2] == ["redeal", "exhausted"] or \
            (words == ["redeal"] and expecting.phase is Phase.EXHAUSTED):
        return Redeal(reason=RedealReason.EXHAUSTED)
    if head == "redeal":
        return "write 'redeal misdeal' or 'redeal exhausted'"
    if "concedes" in words or "concede" in words:
        seats = [s for s in (_seat(w, expecting) for w in words) if s is not None]
        seat = seats[0] if seats else expecting.actor
        if seat is None:
            return "who concedes? write 'S concedes'"
        return Concede(seat=seat)
    if head in ("penalty", "pen"):
        return _penalty(words[1:], expecting)
    if head == "claim":
        return _claim(words[1:], expecting)
    return None


def _penalty(words: list[str], expecting: Expectation) -> Penalty | str:
    if len(words) != 2:
        return "write 'penalty S revoke' (kinds: " + ", ".join(_PENALTIES) + ")"
    seat = _seat(words[0], expecting)
    kind = _PENALTIES.get(words[1])
    if seat is None or kind is None:
        return "write 'penalty S revoke' (kinds: " + ", ".join(_PENALTIES) + ")"
    return Penalty(offender=seat, kind=kind)


def _claim(words: list[str], expecting: Expectation) -> Claim | str:
    """``claim S high low N jack game``: what the players said they scored."""
    awards: list[Award] = []
    seat: Seat | None = None
    for word in words:
        as_seat = _seat(word, expecting)
        if as_seat is not None:
            seat = as_seat
            continue
        if seat is None:
            return "a claim starts with a seat: 'claim S high low N jack'"
        if _is_number(word) and awards and awards[-1].points is None and awards[-1].seat is seat:
            last = awards.pop()
            awards.append(Award(last.seat, last.item, int(word)))
            continue
        item = _CLAIM_ITEMS.get(word)
        if item is None:
            return f"{word!r} is not a claim item (" + ", ".join(_CLAIM_ITEMS) + ")"
        awards.append(Award(seat, item))
    if seat is None:
        return "a claim starts with a seat: 'claim S high low N jack'"
    return Claim(awards=tuple(awards))


def _ruling(words: list[str], expecting: Expectation) -> Ruling | str:
    """``director W high game``: the director's ruling, written as ``director scored``."""
    claim = _claim(words, expecting)
    if isinstance(claim, str):
        return "the director's ruling: 'director W high game' (" + claim + ")"
    return Ruling(awards=claim.awards)


# The words that make a whole line in results mode (an ending, a penalty declared, a
# claim): read as in card mode, never split into item keys.
_LINE_WORDS = frozenset({"abandoned", "abandon", "misdeal", "redeal", "exhausted", "penalty",
                         "pen", "claim", "concede", "concedes"})
RESULTS_HELP = ("results: h High, l Low, j Jack, x Hang Jack, g Game (g = a tie), k kick, "
                "t gift, p penalty, then the side (n e s w); s stands, b begs, t gives, "
                "r runs (after the turn-up, u 4s); Enter finishes the deal")


def _item(words: list[str], expecting: Expectation) -> Entry | str:
    """Results mode, one entry: the line is one chunk (:func:`read_results_chunk`)."""
    text = " ".join(words)
    used, read = read_results_chunk(text, expecting)
    if isinstance(read, str) or not text[used:].strip():
        return read
    return f"one entry at a time here: {text[:used].strip()!r}, then {text[used:].strip()!r}"


def read_results_chunk(text: str, expecting: Expectation) -> tuple[int, Entry | str]:
    """Results mode: the first entry ``text`` begins with, and how many of its characters
    it takes; or why the text there is not one (nothing taken).  A scorer types items
    one after another, spaces or not (``h n l s``, ``hnls``): the session takes them one
    by one, and what is not understood stays for editing with the reason.

    ``h n`` (High to N's side), ``k 2`` (a kick of 2), ``t`` (the gift, or the dealer
    gives when a beg waits for the answer), ``g =`` (Game tied), ``s`` ``b`` ``r`` (a
    stand, a beg, a run, once a turn-up is written), ``u 4s`` or ``turn 4s`` (a turn-up;
    after a run its card alone); an ending, a penalty declared or a claim takes the whole line."""
    lowered = text.lower()
    at = len(lowered) - len(lowered.lstrip())
    words = lowered.split()
    if not words:
        return len(text), "type an entry (? for help)"
    if words[0] == "director":
        return len(text), _ruling(words[1:], expecting)
    if words[0] in _LINE_WORDS or "concedes" in words or "concede" in words:
        special = _ending_or_penalty(words, expecting)
        return len(text), special if special is not None else RESULTS_HELP
    card = _results_turn_up(lowered, at, expecting)
    if card is not None:
        return card
    key = lowered[at]
    if words[0] in _CALL_WORDS:
        return at + len(words[0]), _results_call(words[0], expecting)
    if key in "sbr" or (key == "t" and expecting.due is Phase.ANSWER):
        return at + 1, _results_call(key, expecting)
    item = RESULT_KEYS.get(key)
    if item is None:
        return at, (f"{_word_at(lowered, at)!r}: a number goes after k (the kick's points) "
                    "or p (the penalty's points)" if key.isdigit() else
                    f"{_word_at(lowered, at)!r} is not understood here; " + RESULTS_HELP)
    end = at + 1
    look = _skip_spaces(lowered, end)
    following = lowered[look:look + 1]
    if item is ClaimItem.GAME and following == "=":
        return look + 1, GameTied()
    seat: Seat | None = None
    if following.isalpha():
        named = _seat(following, expecting)
        if named is not None and (not expecting.seats or named in expecting.seats):
            seat, end = named, look + 1
        elif item not in (ClaimItem.KICK, ClaimItem.GIFT):  # their side is the rules'
            return at, (f"{following!r} is not a seat at this table" if named is not None
                        else f"{item.value}: which side? type the seat (n e s w) after it")
    look = _skip_spaces(lowered, end)
    digits = look
    while digits < len(lowered) and lowered[digits].isdigit():
        digits += 1
    points: int | None = None
    if digits > look:
        if not _is_number(lowered[look:digits]):
            return at, f"{lowered[look:digits]!r}: the points are a number"
        points, end = int(lowered[look:digits]), digits
    if item is ClaimItem.KICK:
        seat = seat or expecting.dealer
    elif item is ClaimItem.GIFT:
        seat = seat or expecting.elder
    if seat is None:
        return at, f"{item.value}: which side? type the seat (n e s w) after the item"
    return end, Item(award=Award(seat, item, points))


def _skip_spaces(text: str, at: int) -> int:
    while at < len(text) and text[at].isspace():
        at += 1
    return at


def _word_at(text: str, at: int) -> str:
    """The word at ``at``, as a message quotes it (a long one cut: the text stays)."""
    word = text[at:].split()[0] if text[at:].split() else text[at:]
    return word if len(word) <= 20 else word[:20] + "…"


def _results_call(word: str, expecting: Expectation) -> Call | str:
    """A stand, a beg, the dealer's gift or run, in results mode: by its word or its key
    (``s`` ``b`` when the elder's word is due, ``t`` ``r`` when the dealer's is)."""
    due = expecting.due
    short = {"s": CallKind.STANDS, "b": CallKind.BEGS} if due is Phase.CALL else \
        {"t": CallKind.GIVES, "r": CallKind.RUNS} if due is Phase.ANSWER else {}
    kind = _CALL_WORDS.get(word) or short.get(word)
    if due is Phase.TURN:
        return ("a stand, a beg or a run follows the turn-up: type the card turned first "
                "('u 4s'), then s or b")
    if kind is None or expecting.actor is None or due not in (Phase.CALL, Phase.ANSWER):
        return f"{word!r}: no call is due now"
    return Call(seat=expecting.actor, kind=kind)


# A turn-up in results mode: ``u`` (or ``turn``) and the card, spaces or not (``u4s``,
# ``u jd``): ``u`` is no item key, so the screen leaves it to the entry line.
_TURN_UP = re.compile(r"(?:turn|u)\s*((?:10|[2-9akqjt])\s*[shdc♠♥♦♣♤♡♢♧])")
_TURN_WORD = re.compile(r"(?:turn|u)(?![a-z])")


def _results_turn_up(text: str, at: int, expecting: Expectation) -> tuple[int, Entry | str] | None:
    """``u 4s`` (or ``turn 4s``), or after a run the card alone (``6d``, ``j s``): a turn-up."""
    rest = text[at:]
    matched = _TURN_UP.match(rest)
    if matched is not None:
        card = parse_card(matched.group(1).replace(" ", ""))
        if card is None or expecting.due not in (Phase.TURN, Phase.RUN_TURN):
            return at + matched.end(), "no turn-up is due now" if card is not None else \
                "type the card turned: 'u 4s'"
        return at + matched.end(), TurnUp(card=card)
    if _TURN_WORD.match(rest) is not None:
        return len(text), "type the card turned after u: 'u 4s'"
    if expecting.due is not Phase.RUN_TURN:
        return None
    words = rest.split()
    for count in (2, 1):  # 'j s' as the screen sends a pending key and its seat, or '6d'
        card = parse_card("".join(words[:count])) if len(words) >= count else None
        if card is not None:
            last = words[count - 1]
            end = at + rest.index(last, len(words[0]) if count == 2 else 0) + len(last)
            return end, TurnUp(card=card)
    return None


def _dealer(words: list[str], expecting: Expectation) -> DealStart | str:
    word = words[-1] if words[0] in ("deal", "dealer") and len(words) > 1 else words[0]
    seat = _seat(word, expecting)
    if seat is None or (expecting.seats and seat not in expecting.seats):
        seats = " ".join(s.letter for s in expecting.seats)
        return f"who deals? type a seat ({seats}), or Enter for " + \
            (expecting.default.letter if expecting.default else "the proposed dealer")
    return DealStart(dealer=seat)


def _call(words: list[str], expecting: Expectation) -> Call | str | None:
    """A stand, beg, give or run, said by the seat whose word it is unless one is named."""
    seat = expecting.actor
    if len(words) == 2 and _seat(words[0], expecting) is not None:
        seat = _seat(words[0], expecting)
        words = words[1:]
    if len(words) != 1:
        return None
    kind = _CALL_WORDS.get(words[0]) or _SHORT_CALLS.get(expecting.phase, {}).get(words[0])
    if kind is None and expecting.may_beg and words[0] == "b":
        kind = CallKind.BEGS
    if kind is None:
        return None
    if seat is None:
        return "nobody is to call now"
    return Call(seat=seat, kind=kind)


def _cards(words: list[str]) -> tuple[Card | None, ...] | str:
    found: list[Card | None] = []
    for word in words:
        if word == "??":
            found.append(None)
            continue
        got = parse_card(word)
        if got is None:
            return f"{word!r} is not a card (type js, 10h, th or j♠)"
        found.append(got)
    return tuple(found)


def _opening(words: list[str], raw: str, expecting: Expectation) -> Entry | str:
    """A hand (``S js 9h 8h …``) or the turn-up (a card)."""
    first = words[0].rstrip(":")
    seat = _seat(first, expecting)
    if seat is not None and len(words) >= 2:
        held = _cards(words[1:])
        if isinstance(held, str):
            return held
        size = expecting.hand_size
        if size is not None and len(held) != size:
            return _hand_size_problem(seat, len(held), size)
        return Hand(seat=seat, cards=held)
    if expecting.phase is Phase.EXHAUSTED:
        return "the pack is exhausted: type 'redeal' (the same dealer deals again)"
    turned = parse_card(raw.replace(" ", ""))
    if turned is None:
        return f"{raw!r}: type the turned card (js, 10h, th, j♠) or a hand ('S js 9h 8h …')"
    return TurnUp(card=turned)


def _looks_like_hand(words: list[str], expecting: Expectation) -> bool:
    """A seat and two cards or more (``S js 9h …``) while a hand may still be entered
    (after the turn-up, before the first card): a hand, not a card (``W js`` is W's card)."""
    return expecting.hand_size is not None and len(words) >= 3 and \
        _seat(words[0].rstrip(":"), expecting) is not None and \
        not isinstance(_cards(words[1:]), str)


def _hand_size_problem(seat: Seat, typed: int, size: int) -> str:
    """Why a hand of ``typed`` cards is refused, and what to type instead."""
    what = f"a hand is dealt {DEALT}" if size == DEALT else f"a run gives each seat {size}"
    example = " ".join(["js", "9h", *["??"] * (size - 2)])
    more = "type them all, ?? for a card not known" if typed < size else \
        f"type {size}, ?? for a card not known"
    return (f"{seat.letter}'s hand has {typed} card{'s' if typed != 1 else ''}: {what}; "
            f"{more} ('{seat.letter} {example}')")


def _play(raw: str, expecting: Expectation) -> Play | str:
    """A card played: ``js``, ``10h``, ``j♠``, ``W:js``, the n-th card offered, a glyph after."""
    text = raw.strip()
    glyph = None
    for mark in sorted(_GLYPHS, key=len, reverse=True):
        if text.endswith(mark) and len(text) > len(mark):
            glyph = _GLYPHS[mark]
            text = text[: -len(mark)].rstrip()
            break
    seat = expecting.actor
    matched = _SEAT_CARD.match(text)
    if matched is not None:
        seat = Seat.from_letter(matched.group(1).upper())
        text = matched.group(2)
    if _is_number(text):
        position = int(text)
        if not expecting.offered:
            return "no cards are offered: the hand is not known; type the card (js, 10h, th)"
        if not 1 <= position <= len(expecting.offered):
            return f"choose 1 to {len(expecting.offered)} among the cards offered"
        chosen: Card | None = expecting.offered[position - 1]
    else:
        chosen = parse_card(text)
    if chosen is None:
        words = raw.lower().replace(":", " ").split()
        if len(words) >= 2 and _seat(words[0], expecting) is not None and \
                not isinstance(_cards(words[1:]), str):
            return ("a hand is entered before play begins, and play has begun: it cannot "
                    "be entered now (undo back to the turn-up with Ctrl+Z to enter it); "
                    "type the card played (js, 10h)")
        return f"{raw!r} is not a card (type js, 10h, th or j♠; ? for help)"
    if seat is None:
        return "nobody is to play now"
    return Play(card=chosen, seat=seat, glyph=glyph)


def _is_number(text: str) -> bool:
    """ASCII digits, few enough for int(): '⒍' is a digit to str.isdigit() but not to
    int(), and int() refuses a string of thousands of digits (both found by fuzzing the
    entry line)."""
    return text.isascii() and text.isdigit() and len(text) <= 9
