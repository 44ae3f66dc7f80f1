"""Text from a record, shown as text: never as a terminal's commands or as markup.

A record is data from anyone.  A tag value, a comment, a player's name, a file
name or a source line may hold ESC (``\\x1b[2J`` clears a screen, ``\\x1b]0;…``
sets a window title, OSC 52 writes the clipboard), other C0 or C1 control
characters (a lone CR overwrites a line already printed), bidirectional
overrides (U+202E shows text backwards) or lone surrogates.  :func:`visible`
writes each of them as an escape a reader can see (``\\x1b``, ``\\u009b``,
``\\u202e``), and leaves every other character, and text without any of them,
exactly as it was.  :func:`for_markup` also escapes Rich/Textual markup, so that
``[bold]Ann`` shows the characters typed.

Every command's text output, the viewer and the recorder show input through these
two; data formats (JSON, SQLite, CSV, AFN written to a file or a pipe) keep the
text as written.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import TextIO

__all__ = ["HOSTILE", "CsvRows", "TerminalSafe", "for_markup", "for_stdout", "has_hostile",
           "spreadsheet_cell", "visible"]

# C0 except TAB and LF (CR is allowed only before LF, see below), DEL, C1, the
# bidirectional controls, the line and paragraph separators, lone surrogates.
_CLASS = ("\x00-\x08\x0b-\x1f\x7f-\x9f\u061c\u200e\u200f\u2028-\u202e\u2066-\u2069"
          "\ud800-\udfff")
HOSTILE = re.compile(f"[{_CLASS}]")
_ONE_LINE = re.compile(f"[{_CLASS}\n\t]")
_LINES = re.compile(f"\r(?!\n)|[{_CLASS.replace(chr(0x0b) + '-', chr(0x0e) + '-')}\x0b\x0c]")


def _shown(match: re.Match[str]) -> str:
    code = ord(match.group())
    if code == 0x09:
        return "\\t"
    if code == 0x0A:
        return "\\n"
    if code < 0x20:
        return f"\\x{code:02x}"
    return f"\\u{code:04x}"


def visible(text: str, *, lines: bool = False) -> str:
    """``text`` with every control character written as a visible escape.

    One line (the default): TAB and LF are escaped too, so a value cannot start a
    new line of output.  ``lines=True`` (a block of source text): TAB, LF and the
    CR of a CRLF stay as they are."""
    if text.isprintable():  # every character escaped here is unprintable: a C-speed test
        return text
    pattern = _LINES if lines else _ONE_LINE
    if pattern.search(text) is None:
        return text
    return pattern.sub(_shown, text)


def has_hostile(text: str) -> bool:
    """Whether ``text`` holds a character :func:`visible` would escape (TAB, LF and
    CR before LF apart)."""
    return not text.isprintable() and _LINES.search(text) is not None


def for_markup(text: str, *, lines: bool = False) -> str:
    """:func:`visible`, then Rich markup escaped: safe inside a markup string."""
    from rich.markup import escape

    return escape(visible(text, lines=lines))


# A spreadsheet evaluates a cell that begins with one of these (OWASP, "CSV injection").
FORMULA_START = ("=", "+", "-", "@", "\t", "\r")


def spreadsheet_cell(value: object) -> object:
    """A CSV cell that no spreadsheet evaluates: text beginning with ``= + - @``, TAB or
    CR gets a leading ``'``; numbers (and other text) stay as they are."""
    if isinstance(value, str) and value.startswith(FORMULA_START):
        return "'" + value
    return value


def for_stdout(text: str) -> str:
    """Data (JSON, CSV, Markdown, HTML, AFN) bound for standard output: as it is when
    piped or redirected, with control characters made visible when it is a terminal."""
    import sys

    return visible(text, lines=True) if sys.stdout.isatty() else text


class TerminalSafe:
    """A text stream that writes to ``stream`` with control characters made visible
    (for a CSV writer whose output is a terminal)."""

    def __init__(self, stream: TextIO) -> None:
        self.stream = stream

    def write(self, text: str) -> int:
        return self.stream.write(visible(text, lines=True))

    def flush(self) -> None:
        self.stream.flush()


class CsvRows:
    """``csv.writer`` with LF line ends whose rows stay rows: Python's writer quotes a
    cell that holds the line terminator's characters only, so with LF a lone CR in a
    cell would end the record for a reader; a row with one is written fully quoted."""

    def __init__(self, stream: TextIO | TerminalSafe) -> None:
        import csv

        self.plain = csv.writer(stream, lineterminator="\n")
        self.quoted = csv.writer(stream, lineterminator="\n", quoting=csv.QUOTE_ALL)

    def writerow(self, row: Iterable[object]) -> None:
        cells = list(row)
        has_cr = any(isinstance(cell, str) and "\r" in cell for cell in cells)
        (self.quoted if has_cr else self.plain).writerow(cells)

    def writerows(self, rows: Iterable[Iterable[object]]) -> None:
        for row in rows:
            self.writerow(row)
