"""The last line of defence: an internal fault becomes a diagnostic, never a traceback.

Every public entry point (parse, check, score, fmt, export, view, and the
commands built later on the same API) runs its per-game work through
:func:`guarded`.  If the code has a bug that some input reaches, the user gets
an internal-error diagnostic (:data:`INTERNAL_ERROR`) at the game's position,
saying "this is a bug: please report it", and the next game is still read.
The command line exits 1 on it like on any error.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Protocol, TypeVar

from .diagnostics import Diagnostic, Severity

INTERNAL_ERROR = "AFN901"
BUG_TEXT = ("this is a bug: please report it, with the record and what "
            "'allfours --version --verbose' prints")

T = TypeVar("T")


class Place(Protocol):
    """Where a game stands (a record's span): read only when a fault is reported."""

    @property
    def line(self) -> int: ...

    @property
    def column(self) -> int: ...


def internal_error(
    error: BaseException,
    *,
    doing: str,
    file: str | None = None,
    line: int | None = None,
    column: int | None = None,
    game: int | None = None,
    deal: int | None = None,
    at: Place | None = None,
) -> Diagnostic:
    """The diagnostic for an unexpected ``error`` while ``doing`` something (a few
    words: "parsing this game"): at ``line`` and ``column``, or at ``at``'s (a span,
    read only now that a fault is reported), at 1:1 when no better place is known."""
    if at is not None:
        line, column = at.line, at.column
    what = f"{type(error).__name__}: {error}"
    if len(what) > 200:
        what = what[:199] + "…"
    return Diagnostic(
        INTERNAL_ERROR,
        Severity.ERROR,
        f"internal error while {doing} ({what}); {BUG_TEXT}",
        file=file,
        line=line if line is not None else 1,
        column=column if column is not None else 1,
        game=game,
        deal=deal,
        hint="the rest of the file was still read; attach this file to the report",
    )


def guarded(work: Callable[[], T], fallback: Callable[[Diagnostic], T], *, doing: str,
            file: str | None = None, line: int | None = None, column: int | None = None,
            game: int | None = None, at: Place | None = None) -> T:
    """``work()``, or when it raises, ``fallback`` of the internal-error diagnostic.

    The fault is placed at ``line`` and ``column``, or at ``at``'s: a span whose line
    and column are worked out only if a fault is reported (most never are, and a file
    of thousands of tiny games would pay for it per game).
    ``KeyboardInterrupt`` and ``SystemExit`` are not faults and pass through."""
    try:
        return work()
    except Exception as error:  # this is the one place that must catch everything
        return fallback(internal_error(error, doing=doing, file=file, line=line,
                                       column=column, game=game, at=at))
