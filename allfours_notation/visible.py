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

__all__ = ["HOSTILE", "for_markup", "has_hostile", "spreadsheet_cell", "visible"]

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
    if code < 0x20 or code == 0x7F:
        return f"\\x{code:02x}"
    return f"\\u{code:04x}"


def visible(text: str, *, lines: bool = False) -> str:
    """``text`` with every control character written as a visible escape.

    One line (the default): TAB and LF are escaped too, so a value cannot start a
    new line of output.  ``lines=True`` (a block of source text): TAB, LF and the
    CR of a CRLF stay as they are."""
    pattern = _LINES if lines else _ONE_LINE
    if pattern.search(text) is None:
        return text
    return pattern.sub(_shown, text)


def has_hostile(text: str) -> bool:
    """Whether ``text`` holds a character :func:`visible` would escape (TAB, LF and
    CR before LF apart)."""
    return _LINES.search(text) is not None


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
