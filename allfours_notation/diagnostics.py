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

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, replace
from enum import Enum


class Severity(Enum):
    ERROR = "error"
    WARNING = "warning"
    INFO = "info"

    @property
    def rank(self) -> int:
        return {"error": 0, "warning": 1, "info": 2}[self.value]


@dataclass(frozen=True, slots=True)
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
    # Set by :func:`allfours_notation.causes.link_causes`: a number unique in one run
    # (``id``), and the ``id`` of the root this finding follows from (``cause``; None
    # for a root).  Tools show roots and fold their consequences under them.
    id: int | None = None
    cause: int | None = None

    @property
    def is_root(self) -> bool:
        return self.cause is None

    @property
    def is_error(self) -> bool:
        return self.severity is Severity.ERROR

    def located(self, **changes: object) -> Diagnostic:
        """A copy with position fields filled in (``file=``, ``game=`` …)."""
        return replace(self, **changes)  # type: ignore[arg-type]

    def where(self) -> str:
        """``games.afn:12:5`` or the best that is known."""
        parts = [self.file or "<input>"]
        if self.line is not None:
            parts.append(str(self.line))
            if self.column is not None:
                parts.append(str(self.column))
        return ":".join(parts)

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
        ctx = self.context()
        ctx_text = f" [{ctx}]" if ctx else ""
        return f"{self.where()}: {self.severity.value} {self.code}{ctx_text}: {self.message}"

    def render(self, source: str | Sequence[str] | None = None) -> str:
        """The headline, then the offending line with a caret under the column."""
        lines = [self.headline()]
        snippet = caret_snippet(source, self.line, self.column, self.end_column)
        if snippet:
            lines.append(snippet)
        if self.hint:
            lines.append(f"  hint: {self.hint}")
        return "\n".join(lines)


def caret_snippet(
    source: str | Sequence[str] | None,
    line: int | None,
    column: int | None,
    end_column: int | None = None,
) -> str:
    """``  12 | S:JS N:2X`` and a line of carets under the bad token."""
    if source is None or line is None or line < 1:
        return ""
    source_lines = source.splitlines() if isinstance(source, str) else source
    if line > len(source_lines):
        return ""
    text = source_lines[line - 1].replace("\t", " ")
    if len(text) > 200:  # keep snippets readable for minified or binary input
        start = max(0, (column or 1) - 80)
        text = text[start : start + 160]
        column = (column or 1) - start
        if end_column is not None:
            end_column -= start
    gutter = f"{line:>5} | "
    out = gutter + text
    if column is None:
        return out
    width = max(1, (end_column or column + 1) - column)
    width = min(width, max(1, len(text) - column + 2))
    return out + "\n" + " " * (len(gutter) + column - 1) + "^" * width


def count_errors(diagnostics: Iterable[Diagnostic]) -> int:
    return sum(1 for d in diagnostics if d.is_error)


def sort_key(diagnostic: Diagnostic) -> tuple[int, int, int, str]:
    """Order by position, then by code: the order a reader meets them in the file."""
    return (
        diagnostic.line if diagnostic.line is not None else 1 << 30,
        diagnostic.column if diagnostic.column is not None else 0,
        diagnostic.severity.rank,
        diagnostic.code,
    )
