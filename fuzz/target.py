"""What one fuzzed input must satisfy, shared by the atheris campaign and the test suite.

For any bytes: parsing, checking every game, and formatting never raise and
never report an internal error (AFN901); the work takes at most one second
per 10 KB; and when the formatter calls its output safe, that output reads
back whole (no broken game, no reading error) and formats to itself (no
formatter disagreement).

The safe output is not put through :func:`format_checked` a second time: that
function has already proved the output means what the input meant (same
records, diagnostics and scores), so once the output formats to itself a second
proof would compare a text with itself.  Skipping it halves the work per input,
which is most of what a fuzzing campaign can do in its minutes.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from enum import Enum

from allfours_notation.checking.parsing import parse
from allfours_notation.guard import INTERNAL_ERROR
from allfours_notation.referee.replay import check_game
from allfours_notation.writing.formatter import format_checked, format_result

SLOW_SECONDS_PER_10KB = 1.0


class Outcome(Enum):
    OK = "ok"
    CRASH = "crash"  # an exception escaped, or an internal-error diagnostic
    SLOW = "slow"
    DISAGREEMENT = "disagreement"  # the formatter's safe output is not stable


@dataclass(frozen=True, slots=True)
class Verdict:
    outcome: Outcome
    seconds: float
    detail: str = ""


def run_input(data: bytes) -> Verdict:
    """Run every public step on ``data`` and judge it."""
    started = time.process_time()
    try:
        detail = _exercise(data)
    except Exception as error:  # the point of fuzzing: nothing may escape
        return Verdict(Outcome.CRASH, time.process_time() - started, repr(error))
    seconds = time.process_time() - started
    if detail.startswith("crash:"):
        return Verdict(Outcome.CRASH, seconds, detail)
    if detail:
        return Verdict(Outcome.DISAGREEMENT, seconds, detail)
    if seconds > SLOW_SECONDS_PER_10KB * max(1.0, len(data) / 10_000):
        return Verdict(Outcome.SLOW, seconds, f"{len(data)} bytes in {seconds:.2f} s")
    return Verdict(Outcome.OK, seconds)


def _exercise(data: bytes) -> str:
    result = parse(data, filename="fuzz.afn")
    found = list(result.diagnostics)
    for game in result.games:
        if not game.broken:
            found.extend(check_game(game))
    internal = [d for d in found if d.code == INTERNAL_ERROR]
    if internal:
        return f"crash: {internal[0].message}"
    formatted = format_checked(result)
    if not formatted.safe:
        return ""
    after = parse(formatted.text, filename="fuzz.afn")
    unread = [game.index for game in after.games if game.broken]
    if unread:
        return f"the formatted text does not read back: game {unread[0]} is broken"
    errors = [d for d in after.diagnostics if d.is_error and d.code.startswith("AFN1")]
    if errors:
        return f"the formatted text does not read back: {errors[0].headline()}"
    if format_result(after) != formatted.text:
        return "formatting is not idempotent"
    return ""
