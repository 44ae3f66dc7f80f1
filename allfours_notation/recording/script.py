"""A game as the lines a scorer would type, and a driver that records from such lines.

:func:`lines_of_game` turns a recorded game into keyboard entries (``n``, ``4s``,
``b``, ``js``…), one line per entry: the tests feed them to the recorder's screen
and to this module's driver, and the benchmark counts their keystrokes.

``python -m allfours_notation.recording.script FILE < lines`` records into FILE
from standard input without a screen (resuming FILE as ``allfours record``
does, skipping the lines already recorded): the kill-and-resume test runs it.
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Iterator
from pathlib import Path

from ..reading.records import (
    Abandoned,
    Call,
    CallKind,
    ClaimItem,
    Comment,
    CommentStyle,
    Concede,
    Deal,
    Game,
    Hand,
    Play,
    Redeal,
    TurnUp,
)
from ..referee.profiles import GiftRecipients, Options
from ..referee.replay import GameReplay
from ..referee.results import kick_values
from .entries import RESULT_KEYS
from .opening import NewGame, Refused, Resume, inspect
from .storage import FileLocked, RecordFile

__all__ = ["card_text", "lines_of_game", "main", "record_lines", "results_keys",
           "results_lines_of_game"]

_ITEM_KEYS = {item: key for key, item in RESULT_KEYS.items()}

_SHORT = {CallKind.STANDS: "s", CallKind.BEGS: "b", CallKind.GIVES: "g", CallKind.RUNS: "r"}


def card_text(card: object) -> str:
    """A card as typed: two keystrokes, lowercase (``js``, ``th``)."""
    return str(card).lower()


def lines_of_game(game: Game) -> list[str]:
    """The lines that record ``game``'s deals (not its tags), one per entry or comment;
    after each deal that ends with points to confirm, ``y``: the other side agrees."""
    return [line for deal in game.deals for line in (*_lines_of_deal(deal),
                                                     *(("y",) if deal.ending is None else ()))]


def results_keys(line: str, options: Options, players: int) -> list[str]:
    """The keys a scorer presses in the recorder for one line of
    :func:`results_lines_of_game`: an item key and the side (none for a kick worth one
    value, nor for a gift to the elder alone), Enter for an empty line, ``y`` alone; any
    other line (a redeal) typed out and ended with Enter."""
    words = line.split()
    if not words:
        return ["enter"]
    if words == ["y"]:
        return ["y"]
    if words[0] in _ITEM_KEYS.values() and len(words) <= 3:
        if words[0] == "k":
            return ["k"] if len(kick_values(options)) == 1 else ["k", words[1]]
        if words[0] == "t" and not (players == 3 and options.gift_recipients is
                                    GiftRecipients.EACH_OPPONENT):
            return ["t"]
        return [words[0], words[1]]
    return [*("space" if c == " " else c for c in line), "enter"]


def results_lines_of_game(game: Game, replayed: GameReplay) -> list[str]:
    """The lines that record ``game`` in results mode: each deal's computed items typed
    as results (``h n``, ``k 3``, ``t``), Enter, and ``y`` for the other side.  The
    first deal's dealer is typed; later deals begin by themselves with the dealer the
    rules give, so a redeal is the only other line."""
    lines: list[str] = []
    for position, deal in enumerate(game.deals):
        if position == 0:
            lines.append(deal.dealer.letter.lower())
        points = replayed.deals[position].points if position < len(replayed.deals) else ()
        for point in points:
            if point.item is ClaimItem.PENALTY and isinstance(deal.ending, Redeal):
                continue  # the misdeal's point: the redeal scores it
            key = _ITEM_KEYS[point.item]
            seat = (point.seat.letter if point.seat is not None else point.side[0]).lower()
            if point.item is ClaimItem.KICK:
                lines.append(f"k {point.points}")
            elif point.item is ClaimItem.GIFT:
                lines.append(f"t {seat}")
            elif point.item is ClaimItem.PENALTY:
                lines.append(f"p {seat} {point.points}")
            else:
                lines.append(f"{key} {seat}")
        ending = deal.ending
        if isinstance(ending, Redeal):
            lines.append(f"redeal {ending.reason.value}")
        elif isinstance(ending, Abandoned):
            lines.append("abandoned")
        elif isinstance(ending, Concede):
            lines.append(f"{ending.seat.letter.lower()} concedes")
        else:
            lines.extend(("", "y"))
    return lines


def _comments(comments: tuple[Comment, ...]) -> Iterator[str]:
    for comment in comments:
        yield "{" + comment.text.strip() + "}" if comment.style is CommentStyle.BRACE else \
            ";" + comment.text.strip()


def _lines_of_deal(deal: Deal) -> Iterator[str]:
    yield deal.dealer.letter.lower()
    yield from _comments(deal.trailing)
    for event in deal.opening:
        if isinstance(event, Hand):
            yield event.seat.letter.lower() + " " + " ".join(
                card_text(c) if c is not None else "??" for c in event.cards)
        elif isinstance(event, TurnUp):
            yield card_text(event.card)
        elif isinstance(event, Call):
            yield _SHORT[event.kind]
        yield from _comments(event.trailing)
    for play in deal.plays():
        yield _play_line(play)
        yield from _comments(play.trailing)
    for penalty in deal.penalties:
        yield f"penalty {penalty.offender.letter.lower()} {penalty.kind.value}"
    ending = deal.ending
    if isinstance(ending, Redeal):
        yield f"redeal {ending.reason.value}"
    elif isinstance(ending, Abandoned):
        yield "abandoned"
    elif isinstance(ending, Concede):
        yield f"{ending.seat.letter.lower()} concedes"


def _play_line(play: Play) -> str:
    glyph = play.glyph.value if play.glyph is not None else ""
    return card_text(play.card) + glyph


def main(argv: list[str] | None = None) -> int:
    """Record into FILE from the lines on standard input."""
    args = sys.argv[1:] if argv is None else argv
    if len(args) != 1:
        print("usage: python -m allfours_notation.recording.script FILE < lines", file=sys.stderr)
        return 2
    return record_lines(Path(args[0]), sys.stdin.read().splitlines())


def record_lines(path: Path, lines: list[str],
                 after_entry: Callable[[int], None] | None = None) -> int:
    """Resume the unfinished game of ``path`` and record ``lines`` into it, skipping
    those already recorded; a revoke or undertrump is confirmed.  ``after_entry`` is
    called with the number of entries after each one is on disk."""
    record = RecordFile(path)
    try:
        record.acquire()
    except FileLocked as error:
        print(error, file=sys.stderr)
        return 2
    try:
        opened = inspect(path, record)
        if isinstance(opened, Refused):
            print(opened.message, file=sys.stderr)
            return 2
        if isinstance(opened, NewGame):
            print(f"{path}: no unfinished game to record into", file=sys.stderr)
            return 2
        return _feed(opened, lines, after_entry)
    finally:
        record.release()


def _feed(opened: Resume, lines: list[str],
          after_entry: Callable[[int], None] | None) -> int:
    session = opened.session
    done = len(session.entries)
    entries = 0
    for line in lines:
        if line.startswith(("{", ";")) or (not line.strip() and not session.in_results()):
            if entries > done:
                session.type(line)
            continue
        entries += 1
        if entries <= done:
            continue
        outcome = session.type(line)
        if outcome.confirm:
            outcome = session.confirm()
        if not outcome.accepted:
            print(f"line {line!r}: {outcome.message}", file=sys.stderr)
            return 1
        if after_entry is not None:
            after_entry(len(session.entries))
    return 0


if __name__ == "__main__":
    sys.exit(main())
