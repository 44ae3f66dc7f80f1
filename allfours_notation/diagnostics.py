"""Diagnostics are data: a stable code, a severity, a message and a position.

Every problem the tool finds — a syntax error, a card played twice, a revoke, a
claim that disagrees with the computed score — becomes one :class:`Diagnostic`.
Nothing raises on user input; callers decide what to do with the list.

Codes are stable and grouped by the layer that raises them:

* ``AFN1xx`` reading the file: encoding, version line, syntax;
* ``AFN2xx`` structure: cards, hands and tricks that cannot be (parser);
* ``AFN3xx`` rules: legality of play, begging and running (replayer);
* ``AFN4xx`` scoring and disputes: claims against the computed score;
* ``AFN5xx`` rule profiles and options.
"""

from __future__ import annotations

from bisect import bisect_left
from collections.abc import Iterable, Sequence
from dataclasses import fields
from enum import Enum
from operator import attrgetter

from .frozen import frozen
from .visible import has_hostile, visible


class Severity(Enum):
    """How a finding counts.  ``ERROR``: the record is wrong (it cannot be, or it
    contradicts itself); ``DISPUTE``: the record is right about a disagreement at the
    table (a claim the cards or the rules do not give, and what follows from it), so
    it is reported but is no error of the record; ``WARNING``: probably wrong;
    ``INFO``: a note (a game still in progress, items claimed after the decision)."""

    ERROR = "error"
    DISPUTE = "dispute"
    WARNING = "warning"
    INFO = "info"

    @property
    def rank(self) -> int:
        # Sorting diagnostics asks this of every one: ``_value_`` is the member's plain
        # attribute, where ``value`` goes through the enum's descriptor (several times dearer).
        return _RANKS[self._value_]


# A dispute sorts with the errors: where both stand at one place, the order is the code's.
_RANKS = {"error": 0, "dispute": 0, "warning": 1, "info": 2}


@frozen(init=False)
class Diagnostic:
    """One finding, with everything needed to show it next to the source.

    ``line`` and ``column`` are 1-based; ``end_column`` (exclusive) lets the caret
    snippet underline a whole token.  ``game`` is the 1-based index of the game in
    its file; ``deal`` is the deal number as written; ``trick`` is 1-based.
    """

    code: str
    severity: Severity
    message: str
    file: str | None = None
    line: int | None = None
    column: int | None = None
    end_column: int | None = None
    game: int | None = None
    deal: int | None = None
    trick: int | None = None
    hint: str | None = None
    # Set by :func:`allfours_notation.checking.causes.link_causes`: a number unique in one run
    # (``id``), and the ``id`` of the root this finding follows from (``cause``; None
    # for a root).  Tools show roots and fold their consequences under them.
    id: int | None = None
    cause: int | None = None
    # The text that should stand in this finding's range (``line``, ``column`` to
    # ``end_column``; "" deletes it), when the fix is that certain: editors offer it as a
    # quick fix.  The hint says the same in words.
    fix: str | None = None

    def __init__(self, code: str, severity: Severity, message: str, file: str | None = None,
                 line: int | None = None, column: int | None = None,
                 end_column: int | None = None, game: int | None = None,
                 deal: int | None = None, trick: int | None = None, hint: str | None = None,
                 id: int | None = None, cause: int | None = None,
                 fix: str | None = None) -> None:
        # The fields' slots set directly: a frozen dataclass's own __init__ goes through
        # object.__setattr__ for each of the fourteen, about twice the cost, and every
        # finding of every game is made here two or three times (issue 16).  Worth 6.5%
        # of check's instructions on 100 kB of tiny games with a warning each, 10.7% on
        # 100 kB of end words, 0.1% on the corpus (issue 22, cachegrind, whole check -j 1
        # --quiet against the dataclass's own __init__).  A test holds this signature to
        # the field list.
        _set_code(self, code)
        _set_severity(self, severity)
        _set_message(self, message)
        _set_file(self, file)
        _set_line(self, line)
        _set_column(self, column)
        _set_end_column(self, end_column)
        _set_game(self, game)
        _set_deal(self, deal)
        _set_trick(self, trick)
        _set_hint(self, hint)
        _set_id(self, id)
        _set_cause(self, cause)
        _set_fix(self, fix)

    @property
    def is_root(self) -> bool:
        return self.cause is None

    @property
    def is_error(self) -> bool:
        return self.severity is Severity.ERROR

    @property
    def is_dispute(self) -> bool:
        """A disagreement the record keeps faithfully, not an error of the record."""
        return self.severity is Severity.DISPUTE

    def located(self, **changes: object) -> Diagnostic:
        """A copy with position fields filled in (``file=``, ``game=`` …).

        Not :func:`dataclasses.replace`, which costs about twice as much: every
        diagnostic is copied two or three times (numbered, linked to its cause,
        numbered on in its file by a worker's parent), and a file of thousands of tiny
        games is mostly that (issue 16)."""
        values = list(_FIELD_VALUES(self))
        for name, value in changes.items():
            position = _FIELD_INDEX.get(name)
            if position is None:
                raise TypeError(f"a diagnostic has no field {name!r}")
            values[position] = value
        return Diagnostic(*values)

    def linked(self, id: int | None, cause: int | None) -> Diagnostic:
        """A copy with ``id`` and ``cause`` set: :meth:`located` for the one change
        every diagnostic goes through, at about half its cost (fields in order;
        a test holds this to the field list)."""
        return Diagnostic(self.code, self.severity, self.message, self.file, self.line,
                          self.column, self.end_column, self.game, self.deal, self.trick,
                          self.hint, id, cause, self.fix)

    def where(self) -> str:
        """``games.afn:12:5`` or the best that is known."""
        return self._where(self.file or "<input>")

    def _where(self, file: str) -> str:
        if self.line is None:
            return file
        if self.column is None:
            return f"{file}:{self.line}"
        return f"{file}:{self.line}:{self.column}"

    def context(self) -> str:
        """``game 2, deal 4, trick 3`` — the game coordinates, for people."""
        bits = []
        if self.game is not None:
            bits.append(f"game {self.game}")
        if self.deal is not None:
            bits.append(f"deal {self.deal}")
        if self.trick is not None:
            bits.append(f"trick {self.trick}")
        return ", ".join(bits)

    def headline(self) -> str:
        """One line: ``file:3:7: error AFN201 [game 1, deal 2]: message``."""
        return self._headline(self.file or "<input>", self.code, self.message)

    def _headline(self, file: str, code: str, message: str) -> str:
        """The headline with these three as given: :meth:`render` gives them made
        visible (the rest of a headline is numbers and fixed words)."""
        ctx = self.context()
        ctx_text = f" [{ctx}]" if ctx else ""
        # ``_value_``: the enum's descriptor behind ``value`` costs more than the rest of
        # a headline's parts (issue 27)
        return f"{self._where(file)}: {self.severity._value_} {code}{ctx_text}: {message}"

    def render(self, source: str | Sequence[str] | LineIndex | None = None) -> str:
        """The headline, then the offending line with a caret under the column.

        ``source`` is the file's text, or better its :class:`LineIndex` when many
        diagnostics of one file are rendered."""
        # visible() part by part is visible() of the whole: it escapes character by
        # character, and the parts that may hold any character recur (_visible_once)
        lines = [self._headline(_visible_once(self.file or "<input>"),
                                _visible_once(self.code), _visible_once(self.message))]
        snippet = caret_snippet(source, self.line, self.column, self.end_column)
        if snippet:
            lines.append(snippet)
        if self.hint:
            lines.append(f"  hint: {_visible_once(self.hint)}")
        return "\n".join(lines)


_SHOWN: dict[str, str] = {}  # visible() of texts rendered lately (see _visible_once)
_SHOWN_MOST, _SHOWN_LONGEST = 1024, 500


def _visible_once(text: str) -> str:
    """:func:`visible` of ``text``, remembered: a file's name, a code, most messages and
    hints recur from one diagnostic to the next, and a dictionary finds one again (by
    the hash the string keeps) for a fraction of a scan of its characters.  At most
    :data:`_SHOWN_MOST` texts of at most :data:`_SHOWN_LONGEST` characters are kept."""
    shown = _SHOWN.get(text)
    if shown is None:
        shown = visible(text)
        if len(text) <= _SHOWN_LONGEST:
            if len(_SHOWN) >= _SHOWN_MOST:
                _SHOWN.clear()
            _SHOWN[text] = shown
    return shown


_FIELD_NAMES = tuple(f.name for f in fields(Diagnostic))
_FIELD_INDEX = {name: position for position, name in enumerate(_FIELD_NAMES)}
(_set_code, _set_severity, _set_message, _set_file, _set_line, _set_column, _set_end_column,
 _set_game, _set_deal, _set_trick, _set_hint, _set_id, _set_cause, _set_fix) = (
    Diagnostic.__dict__[name].__set__ for name in _FIELD_NAMES)
_FIELD_VALUES = attrgetter(*_FIELD_NAMES)


class LineIndex:
    """Where each line of a text starts, found once per text and in linear time.

    Printing a diagnostic needs the one line it points at.  Splitting the whole
    text into lines for every diagnostic made printing quadratic (a file with
    thousands of diagnostics took minutes); this index counts the line breaks of
    each block of the text once, in C, the first time a line is asked for, and
    then finds any line by looking inside one block.  Lines end at ``\n`` only,
    the same rule the parser's line numbers follow.  Memory is one integer per
    block, not one string per line.
    """

    __slots__ = ("_before", "_last", "_printable", "_text")

    BLOCK = 4096

    def __init__(self, text: str) -> None:
        self._text = text
        self._before: list[int] | None = None  # line breaks before each block's start
        self._last: tuple[int, int, int] | None = None  # (line, start, end) asked last
        self._printable: tuple[int, bool] | None = None  # (line, answer) asked last

    @property
    def text(self) -> str:
        return self._text

    def _counts(self) -> list[int]:
        if self._before is None:
            text, block, total = self._text, self.BLOCK, 0
            before = []
            for start in range(0, len(text) + 1, block):
                before.append(total)
                total += text.count("\n", start, start + block)
            self._before = before
        return self._before

    def line_start(self, line: int) -> int | None:
        """Offset where 1-based ``line`` starts, or None past the end of the text."""
        if line < 1:
            return None
        if line == 1:
            return 0
        wanted = line - 1  # the line starts after this many line breaks
        counts = self._counts()
        block = bisect_left(counts, wanted) - 1  # the last block with fewer breaks before it
        if block < 0:
            return None
        position, steps = block * self.BLOCK - 1, wanted - counts[block]
        last = self._last
        if last is not None and 0 < line - last[0] < steps:
            # on from the line asked last: diagnostics are printed in file order, so each
            # line break is passed once (from the block's start, a file of short lines
            # would pass a hundred for every diagnostic)
            position, steps = last[2], line - last[0] - 1
        for _ in range(steps):
            position = self._text.find("\n", position + 1)
            if position < 0:
                return None
        return position + 1

    def line_span(self, line: int) -> tuple[int, int] | None:
        """(start, end) offsets of ``line`` without its line break (a CR before it is
        kept), or None when the text has no such line.  The last line asked for is
        remembered: the diagnostics of one line are usually printed together."""
        if self._last is not None and self._last[0] == line:
            return self._last[1], self._last[2]
        start = self.line_start(line)
        text = self._text
        if start is None or start >= len(text):
            return None
        end = text.find("\n", start)
        end = len(text) if end < 0 else end
        self._last = (line, start, end)
        return start, end

    def printable(self, line: int) -> bool:
        """Whether ``line`` (without its line break, and a CR before it) holds printable
        characters only: then no window of it has a tab to replace or a control
        character to show.  Known once per line, not scanned again for each window: a
        long line may have a diagnostic every few characters."""
        if self._printable is not None and self._printable[0] == line:
            return self._printable[1]
        span = self.line_span(line)
        answer = span is not None and self._text[span[0] : span[1]].removesuffix(
            "\r").isprintable()
        self._printable = (line, answer)
        return answer

    def window(
        self, line: int, column: int | None, width: int = 200
    ) -> tuple[str, int | None] | None:
        """The text of ``line`` without its line break, or when it is longer than
        ``width`` a 160-character window around ``column``; with the window's
        offset in the line (None when the whole line is given).  Never copies more
        than the window."""
        span = self.line_span(line)
        if span is None:
            return None
        start, end = span
        if end > start and self._text[end - 1] == "\r":
            end -= 1
        if end - start <= width:
            return self._text[start:end], None
        shift = max(0, (column or 1) - 80)
        # past the line's end the slice is empty: only its end needs keeping in the line
        return self._text[start + shift : min(end, start + shift + 160)], shift


_last_index: list[LineIndex] = []  # the index of the text rendered last (one entry)


def _index_of(text: str) -> LineIndex:
    """The :class:`LineIndex` of ``text``, kept for the next call on the same text, so
    callers that pass the text itself for each diagnostic stay linear too."""
    if _last_index and _last_index[0].text is text:
        return _last_index[0]
    index = LineIndex(text)
    _last_index[:] = [index]
    return index


def caret_snippet(
    source: str | Sequence[str] | LineIndex | None,
    line: int | None,
    column: int | None,
    end_column: int | None = None,
) -> str:
    """``  12 | S:JS N:2X`` and a line of carets under the bad token.

    Pass a :class:`LineIndex` when printing many diagnostics of one text: a plain
    string is indexed again on every call."""
    if source is None or line is None or line < 1:
        return ""
    if isinstance(source, str):
        source = _index_of(source)
    if isinstance(source, LineIndex):
        found = source.window(line, column)
        if found is None:
            return ""
        text, shift = found
        # a window of a long line: the whole line asked once for all its diagnostics
        printable = text.isprintable() if shift is None else source.printable(line)
    else:
        if line > len(source):
            return ""
        text, shift, printable = source[line - 1], None, False
        if len(text) > 200:  # keep snippets readable for minified or binary input
            shift = max(0, (column or 1) - 80)
            text = text[shift : shift + 160]
    if shift is not None:
        column = (column or 1) - shift
        if end_column is not None:
            end_column -= shift
    gutter = f"{line:>5} | "
    if not printable:  # tabs as spaces, control characters shown, caret kept under
        text = text.replace("\t", " ")
        if has_hostile(text.removesuffix("\r")):
            text, column, end_column = _visible_columns(text, column, end_column)
    if column is None:
        return gutter + text
    width = min(max(1, (end_column or column + 1) - column), max(1, len(text) - column + 2))
    return f"{gutter}{text}\n{' ' * (len(gutter) + column - 1)}{'^' * width}"


def _visible_columns(text: str, column: int | None,
                     end_column: int | None) -> tuple[str, int | None, int | None]:
    """``text`` with its control characters made visible, and the columns moved to
    where the same characters are now."""
    if column is None:
        return visible(text), None, None
    start = max(0, column - 1)
    end = max(start, (end_column or column + 1) - 1)
    before, token, after = visible(text[:start]), visible(text[start:end]), visible(text[end:])
    new_column = len(before) + 1
    return before + token + after, new_column, new_column + len(token) if end_column else None


def count_errors(diagnostics: Iterable[Diagnostic]) -> int:
    return sum(1 for d in diagnostics if d.is_error)


def sort_key(diagnostic: Diagnostic) -> tuple[int, int, int, str]:
    """Order by position, then by code: the order a reader meets them in the file."""
    return (
        diagnostic.line if diagnostic.line is not None else 1 << 30,
        diagnostic.column if diagnostic.column is not None else 0,
        _RANKS[diagnostic.severity._value_],  # Severity.rank, without the property's call
        diagnostic.code,
    )
