"""Lines of a report, printed through Rich only where Rich would change them.

``allfours check`` prints three or four lines per diagnostic; on a file of many small
games each with one warning, Rich's ``Console.print`` (markup parsed, a ``Text`` and its
segments built, the terminal's size and the environment asked again, a flush) cost 20
to 55 times the finding of the diagnostics (issue 27).  When standard output is not a
terminal, what Rich writes for ``escape(text)`` (or the same inside a colour tag) is
``text`` itself unless ``text`` holds a character Rich transforms: a backslash (its
escaping), a tab (expanded), a control character it strips or a line break (emoji codes
such as ``:100:`` are off in every console of ours: ``file.afn:100:5:`` is a position, not
a picture).  :class:`Lines` writes every other line directly
and hands those few to Rich, so the output is the same, byte for byte; on a terminal
(colour, highlighting) or wherever Rich's choice is in doubt (``FORCE_COLOR``,
``TTY_COMPATIBLE``, IPython, another platform) every line goes to Rich.

Rich itself is imported only when a line needs it, so that a clean check piped into a
file never loads it.
"""

from __future__ import annotations

import builtins
import os
import sys
from collections.abc import Callable
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from rich.console import Console

# What Rich does not pass through unchanged: its escape character, tabs and the control
# characters it strips.
_RICH_CHANGES = ("\\", "\t", "\r", "\x07", "\x08", "\x0b", "\x0c")


def plain_is_exact() -> bool:
    """Whether Rich would write standard output as plain text (no terminal, no colour),
    decided without importing Rich; False wherever that is in doubt."""
    if os.name != "posix" or hasattr(builtins, "get_ipython"):
        return False
    if "FORCE_COLOR" in os.environ or "TTY_COMPATIBLE" in os.environ:
        return False
    if getattr(sys.stdin, "__module__", "").startswith("idlelib"):
        return False
    isatty = getattr(sys.stdout, "isatty", None)
    try:
        return isatty is not None and not isatty()
    except ValueError:
        return False



class Lines:
    """Print lines of text, some with a colour style, as Rich's console would.

    Lines written directly are gathered and written in batches (and before anything
    Rich or standard error writes: :meth:`flush`), so the order is kept."""

    BATCH = 256

    def __init__(self, make_console: Callable[[], Console], *, plain: bool | None = None) -> None:
        self._make_console = make_console
        self._console: Console | None = None
        self._plain = plain_is_exact() if plain is None else plain
        self._pending: list[str] = []

    @property
    def console(self) -> Console:
        """The Rich console (made on first use), after what is written so far."""
        self.flush()
        if self._console is None:
            self._console = self._make_console()
        return self._console

    @property
    def is_terminal(self) -> bool:
        return not self._plain and self.console.is_terminal

    def line(self, text: str, markup: Callable[..., object], *args: str) -> None:
        """Print ``text``; ``markup(*args)`` is what Rich is given for it (Rich markup or
        a renderable) where Rich is needed (made only then)."""
        if self._plain and "\n" not in text and self._unchanged(text):
            self._write(text)
        else:
            self.console.print(markup(*args))

    def written(self, text: str) -> bool:
        """Print the lines of ``text`` as they are and say so; False (nothing printed)
        where Rich would change one of them: the caller then prints them line by line
        through :meth:`line` (asked, rather than handed a callback: a callback made
        for every diagnostic cost more than the test)."""
        if self._plain and self._unchanged(text):
            self._write(text)
            return True
        return False

    def _write(self, text: str) -> None:
        pending = self._pending
        pending.append(text)
        if len(pending) >= self.BATCH:
            self.flush()

    def flush(self) -> None:
        """Write what was gathered, and flush it (before Rich or standard error write)."""
        if self._pending:
            self._pending.append("")  # the last line's break, without copying the batch again
            sys.stdout.write("\n".join(self._pending))
            self._pending.clear()
        if self._plain:
            sys.stdout.flush()

    def _unchanged(self, text: str) -> bool:
        """Whether Rich prints each line of ``text`` (escaped) exactly as it is."""
        # a few scans in C: a regular expression's character class is several times slower,
        # and a generator over _RICH_CHANGES costs more than the scans (issue 27)
        return ("\\" not in text and "\t" not in text and "\r" not in text
                and "\x07" not in text and "\x08" not in text and "\x0b" not in text
                and "\x0c" not in text)
