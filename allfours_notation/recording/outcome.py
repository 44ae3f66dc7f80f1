"""What became of one line the scorer typed: accepted or refused, and the one line saying so."""

from __future__ import annotations

from ..diagnostics import Diagnostic
from ..frozen import frozen

__all__ = ["Outcome"]


@frozen
class Outcome:
    """What became of one keystroke line: one line for the status bar."""

    accepted: bool
    message: str
    confirm: bool = False  # a revoke or undertrump: enter it again with confirmed=True
    finding: Diagnostic | None = None  # the referee's reason (code, message) for a refusal
    # results mode: the text of the line not taken (not understood, or after an entry
    # refused), kept for the scorer to edit: the screen puts it back in the entry line
    rest: str = ""
