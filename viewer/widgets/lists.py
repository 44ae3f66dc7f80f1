"""Long lists drawn a line at a time (Textual's line API): games, steps, diagnostics.

Only the visible lines are rendered, so a list of 25,000 games costs nothing to grow or
scroll.  Each list has a *current* line (the game, step or diagnostic on show) and, when it
has focus, a *cursor* the person moves with ↑/↓ and picks with Enter or a click.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import ClassVar

from rich.text import Text
from textual.binding import Binding, BindingType
from textual.events import Click
from textual.geometry import Region, Size
from textual.scroll_view import ScrollView
from textual.strip import Strip

from allfours_notation import Diagnostic, GameHeader, Severity
from allfours_notation.checking.causes import follow_text, roots_first
from allfours_notation.visible import visible

from ..messages import DiagnosticChosen, DiagnosticHighlighted, GameChosen, StepChosen
from ..model import GameEntry, Mark

# One mark per meaning (see :class:`viewer.model.Mark`), and its ASCII stand-in.
MARK_TEXT: dict[Mark, tuple[str, str, str]] = {
    Mark.UNREADABLE: ("✗", "x", "bold red"),
    Mark.PROBLEMS: ("!", "!", "bold yellow"),
    Mark.CLEAN: (" ", " ", ""),
    Mark.UNCHECKED: ("·", ".", "dim"),
}
MARK_LEGEND = "✗ cannot be read  ! disputes or rules problems"


class LineList(ScrollView, can_focus=True, inherit_bindings=False):
    """A scrolling list of one-line rows with a current row and a cursor."""

    COMPONENT_CLASSES: ClassVar[set[str]] = {"line-list--current", "line-list--cursor"}
    # A row too long is cut between words (the steps: never in the middle of a card),
    # else where it must (a name, a message: as much of it as fits).
    CUT_BETWEEN_WORDS: ClassVar[bool] = False

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.current: int | None = None
        self.cursor = 0

    # --- for subclasses ---------------------------------------------------------------------

    @property
    def line_count(self) -> int:
        raise NotImplementedError

    def line_text(self, row: int) -> Text:
        raise NotImplementedError

    def choose(self, row: int) -> None:
        """The person picked ``row`` (Enter or click)."""

    # --- drawing ----------------------------------------------------------------------------

    def reset(self) -> None:
        """The rows changed: resize the scroll area and redraw."""
        self.virtual_size = Size(0, self.line_count)
        self.cursor = max(0, min(self.cursor, self.line_count - 1))
        self.refresh()

    def show_current(self, row: int | None) -> None:
        """Make ``row`` the current one and scroll it into view."""
        self.current = row
        if row is not None:
            self.cursor = row
            self.scroll_to_row(row, center=True)
            # Rows just added take effect at the next layout: scroll again after it.
            self.call_after_refresh(self.scroll_to_row, row, True)
        self.refresh()

    def scroll_to_row(self, row: int, center: bool = False) -> None:
        """Bring ``row`` into view; ``center`` keeps rows before and after it in sight."""
        self.scroll_to_region(Region(0, row, 1, 1), animate=False, force=True, center=center)

    def render_line(self, y: int) -> Strip:
        scroll_x, scroll_y = self.scroll_offset
        row = scroll_y + y
        width = self.size.width
        base = self.rich_style
        if row >= self.line_count:
            return Strip.blank(width, base)
        text = fitted(self.line_text(row), self.scrollable_content_region.width or width,
                      between_words=self.CUT_BETWEEN_WORDS)
        text.truncate(width, pad=True)
        if row == self.current:
            text.stylize(self.get_component_rich_style("line-list--current"))
        if self.has_focus and row == self.cursor:
            text.stylize(self.get_component_rich_style("line-list--cursor"))
        strip = Strip(list(text.render(self.app.console)), text.cell_len)
        return strip.crop_extend(scroll_x, scroll_x + width, base).apply_style(base)

    # --- input ------------------------------------------------------------------------------

    def on_click(self, event: Click) -> None:
        inside = event.get_content_offset(self)  # None on the border or the scrollbar
        if inside is None:
            return
        row = self.scroll_offset.y + inside.y
        if 0 <= row < self.line_count:
            self.cursor = row
            self.choose(row)

    def on_focus(self) -> None:
        self.refresh()

    def on_blur(self) -> None:
        self.refresh()


def fitted(line: Text, width: int, *, between_words: bool = True) -> Text:
    """``line`` in the ``width`` cells left of the scroll bar: whole, or cut with '…'
    in sight; ``between_words``: at the last space that leaves room for it (a card is
    never cut in two: 'W wins trick 1 with…', not '… with A')."""
    text = line.copy()
    text.no_wrap = True
    text.end = ""
    if text.cell_len <= width:
        return text
    plain = text.plain
    space = plain.rfind(" ", 0, width) if between_words else -1
    cut = space if space > len(plain) - len(plain.lstrip()) else max(width - 1, 0)
    text.truncate(cut)
    text.rstrip()
    text.append("…")
    return text


class PickList(LineList):
    """A :class:`LineList` whose cursor moves with the arrow keys while it has focus."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("down", "cursor(1)", "Down", show=False),
        Binding("up", "cursor(-1)", "Up", show=False),
        Binding("pagedown", "cursor(10)", "Page down", show=False),
        Binding("pageup", "cursor(-10)", "Page up", show=False),
        Binding("enter", "choose", "Choose", show=False),
    ]

    def action_cursor(self, delta: int) -> None:
        if not self.line_count:
            return
        self.cursor = max(0, min(self.line_count - 1, self.cursor + delta))
        self.scroll_to_row(self.cursor)
        self.refresh()

    def action_choose(self) -> None:
        if 0 <= self.cursor < self.line_count:
            self.choose(self.cursor)


class GameList(PickList):
    """Every game of the file; the current game's deals are listed under it."""

    def __init__(self, *, id: str | None = None, unicode: bool = True) -> None:
        super().__init__(id=id)
        self.headers: list[GameHeader] = []
        self.game: int | None = None
        self.entry: GameEntry | None = None
        self.marks: dict[int, Mark] = {}
        self.unicode = unicode
        self.deals_known: int | None = None  # while kibitzing: deals listed (the rest unseen)

    @property
    def deal_rows(self) -> int:
        if self.entry is None:
            return 0
        count = len(self.entry.replay.deals)
        return count if self.deals_known is None else min(count, self.deals_known)

    @property
    def line_count(self) -> int:
        return len(self.headers) + self.deal_rows

    def add(self, headers: tuple[GameHeader, ...]) -> None:
        self.headers.extend(headers)
        self.reset()

    def clear(self) -> None:
        """Forget the games of the previous file."""
        self.headers, self.game, self.entry, self.marks = [], None, None, {}
        self.current = None
        self.reset()

    def set_marks(self, marks: dict[int, Mark]) -> None:
        """Marks from the background check (game position → mark); redraw only what shows."""
        self.marks.update(marks)
        self.refresh()

    def locate(self, row: int) -> tuple[int, int | None]:
        """(game, deal or None) shown on ``row``."""
        if self.game is None or row <= self.game:
            return row, None
        if row <= self.game + self.deal_rows:
            return self.game, row - self.game - 1
        return row - self.deal_rows, None

    def row_of(self, game: int, deal: int | None) -> int:
        if deal is None:
            return game if self.game is None or game <= self.game else game + self.deal_rows
        return game + 1 + deal

    def set_current(self, game: int, entry: GameEntry, deal: int | None, *,
                    kibitz: bool = False) -> None:
        """Show ``game`` (and its deals under it) as current.  While kibitzing, deals after
        the current one are not listed and the current one shows no score yet: both come
        from plays still to come.

        Asked at every step: within a deal nothing listed changes, and the list is then
        only scrolled to the current row, not redrawn row by row at each key."""
        deals_known = None if not kibitz else (deal or 0) + 1
        row = self.row_of(game, deal) if self.game == game else None
        if (self.entry is entry and self.marks.get(game) is entry.mark
                and self.deals_known == deals_known and row is not None
                and self.current == row == self.cursor):
            self.scroll_to_row(row, center=True)
            return
        self.game, self.entry = game, entry
        self.marks[game] = entry.mark
        self.deals_known = deals_known
        self.reset()
        self.show_current(self.row_of(game, deal))

    def line_text(self, row: int) -> Text:
        game, deal = self.locate(row)
        if deal is not None and self.entry is not None:
            result = self.entry.replay.deals[deal]
            scores = " ".join(f"{side} {points}" for side, points in result.scores_after)
            if self.deals_known is not None and deal + 1 >= self.deals_known:
                scores = "(in play)"
            return Text.assemble("    ", (f"deal {result.number}", "bold"), f"  {scores}")
        header = self.headers[game]
        symbol, ascii_symbol, style = MARK_TEXT[self.marks.get(game, Mark.UNCHECKED)]
        mark = Text(f"{symbol if self.unicode else ascii_symbol} ", style=style)
        title = visible(header.tag("Event") or "(no event)")
        players = " v ".join(visible(name) for seat in ("North", "East", "South", "West")
                             if (name := header.tag(seat)))
        line = Text.assemble(mark, (f"{header.index:>4} ", "dim"), (title, "bold"))
        if players:
            line.append(f" · {players}")
        if self.deals_known is None or game != self.game:  # a kibitzer's game has no end yet
            line.append(f" · {header.deals} deal{'s' if header.deals != 1 else ''}", style="dim")
        return line

    def choose(self, row: int) -> None:
        game, deal = self.locate(row)
        self.post_message(GameChosen(game, deal))


class StepList(LineList):
    CUT_BETWEEN_WORDS = True
    """The steps of the current game, deal by deal, with the current step highlighted.

    It has no arrow bindings of its own: with focus here, the arrows step the replay.
    """

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.entry: GameEntry | None = None
        self.kibitz = False
        self.shown: Callable[[int], str] | None = None

    @property
    def line_count(self) -> int:
        if self.entry is None:
            return 0
        if self.kibitz:  # a kibitzer sees the steps so far, never the plays to come
            return min(len(self.entry.steps), (self.current or 0) + 1)
        return len(self.entry.steps)

    def set_entry(self, entry: GameEntry) -> None:
        self.entry = entry
        self.current = None
        self.reset()

    def set_kibitz(self, kibitz: bool, shown: Callable[[int], str] | None = None) -> None:
        """Kibitzing: only the steps so far, each row's text given by ``shown`` (no card
        the watched seat cannot see)."""
        self.kibitz = kibitz
        self.shown = shown if kibitz else None

    def show_current(self, row: int | None) -> None:
        if self.kibitz:
            self.current = row
            self.reset()  # the list grows and shrinks with the current step
        super().show_current(row)

    def line_text(self, row: int) -> Text:
        assert self.entry is not None
        step = self.entry.steps[row]
        where = f"{step.deal}.{step.trick}" if step.trick is not None else f"{step.deal}"
        text = self.shown(row) if self.shown is not None else step.text
        line = Text.assemble((f"{where:>6} ", "dim"), text)
        if self.current is not None and row > self.current:
            line.stylize("dim")  # still to come
        if step.diagnostics:
            worst = min(d.severity.rank for d in step.diagnostics)
            line.append(" ✗" if worst == 0 else " ⚠", style="bold red" if worst == 0 else "yellow")
        return line

    def choose(self, row: int) -> None:
        self.post_message(StepChosen(row))


_SEVERITY_STYLE = {Severity.ERROR: "bold red", Severity.DISPUTE: "magenta",
                   Severity.WARNING: "yellow", Severity.INFO: "cyan"}


class DiagnosticList(PickList):
    """The diagnostics of the current game; choosing one jumps to its step."""

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.diagnostics: tuple[Diagnostic, ...] = ()
        self.follows: dict[int, str] = {}
        self.titled: str | None = None  # the border title set by the app, as set

    @property
    def line_count(self) -> int:
        return len(self.diagnostics)

    def set_diagnostics(self, diagnostics: tuple[Diagnostic, ...]) -> None:
        self.diagnostics = diagnostics
        # what each root's line says follows from it, as ``allfours check`` folds them
        self.follows = {group.root.id: follow_text(group) for group in roots_first(diagnostics)
                        if group.consequences and group.root.id is not None}
        self.current = None
        self.cursor = 0
        self.reset()

    def line_text(self, row: int) -> Text:
        diagnostic = self.diagnostics[row]
        where = diagnostic.context().replace("game ", "g").replace("deal ", "d")
        where = where.replace("trick ", "t").replace(", ", ".")
        line = diagnostic.line
        follows = self.follows.get(diagnostic.id) if diagnostic.id is not None else None
        return Text.assemble(
            ("  ↳ " if diagnostic.cause is not None else "", "dim"),
            (f"{diagnostic.code} ", _SEVERITY_STYLE[diagnostic.severity]),
            (f"l{line} " if line is not None else "", "dim"),
            (f"[{where}] " if where else "", "dim"),
            diagnostic.message,
            (f" — {follows}" if follows else "", "dim"),
        )

    def choose(self, row: int) -> None:
        self.current = row
        self.refresh()
        self.post_message(DiagnosticChosen(self.diagnostics[row]))

    def action_cursor(self, delta: int) -> None:
        """Move the cursor and show the diagnostic under it in full (Enter jumps to it)."""
        super().action_cursor(delta)
        if 0 <= self.cursor < self.line_count:
            self.post_message(DiagnosticHighlighted(self.diagnostics[self.cursor]))
