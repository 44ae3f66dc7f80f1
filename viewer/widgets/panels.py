"""The side panels: header tags, score and points, notes at the current step."""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable

from rich.console import Group, RenderableType
from rich.table import Table
from rich.text import Text
from textual.app import ComposeResult
from textual.containers import HorizontalScroll, VerticalScroll
from textual.widgets import Static

from allfours_notation import Diagnostic, GameHeader
from allfours_notation.diagnostics import caret_snippet
from allfours_notation.reading.records import Glyph
from allfours_notation.referee.replay import GameReplay, Step
from allfours_notation.visible import visible
from allfours_notation.writing.sheet import pretty_cards

from ..model import Note
from .steady import SteadyStatic

GLYPH_MEANING = {
    Glyph.GOOD: "good play",
    Glyph.POOR: "poor play",
    Glyph.BRILLIANT: "brilliant play",
    Glyph.BLUNDER: "blunder",
    Glyph.INTERESTING: "interesting play",
    Glyph.DUBIOUS: "dubious play",
}


def reflow(comment: str) -> str:
    """A comment as prose for the panel to wrap at its own width: the line breaks and
    indentation of the source go, paragraphs (blank lines) stay."""
    paragraphs = re.split(r"\n\s*\n", comment.strip())
    return "\n".join(" ".join(paragraph.split()) for paragraph in paragraphs)


class TagsPanel(Static):
    """The game's header tags, as written."""

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.shown: tuple[GameHeader, bool] | None = None  # what the panel shows now

    def show_tags(self, header: GameHeader, *, kibitz: bool = False) -> None:
        """Every tag as written; a kibitzer is not told the ``Result`` (it gives away the end).

        Asked at every step; the tags change only with the game or the kibitzing, so
        the same tags are not drawn again at each key."""
        if self.shown is not None and self.shown[0] is header and self.shown[1] == kibitz:
            return
        self.shown = (header, kibitz)
        grid = Table.grid(padding=(0, 1))
        grid.add_column(style="dim", no_wrap=True)
        grid.add_column()
        for name, value in header.tags:
            if kibitz and name == "Result":
                grid.add_row(name, Text("hidden while kibitzing", style="dim italic"))
            else:  # Text, not a markup string: "[bold]Ann" is shown as typed
                grid.add_row(Text(visible(name)), Text(visible(value)))
        self.update(grid if header.tags else Text("(no tags)", style="dim"))


def score_text(scores: Iterable[tuple[str, int]], target: int) -> Text:
    """``Score NS 3  EW 5   target 14``: one look for the running score in both modes
    (a replay step here, the game being recorded in the recorder)."""
    line = Text.assemble(("Score ", "dim"))
    line.append("  ".join(f"{side} {points}" for side, points in scores) or "—", style="bold")
    line.append(f"   target {target}", style="dim")
    return line


def score_line(replay: GameReplay, step: Step) -> Text:
    """The running score of the game after ``step``."""
    return score_text(step.state.scores, replay.options.target)


def score_renderable(replay: GameReplay, step: Step, *,
                     shown: Callable[[str], str] | None = None) -> RenderableType:
    """The score, then the deal's points: those counted, then (italic, "provisional")
    what would score if the deal ended now and, "decided", what is certain but counted
    only when the deal ends.  ``shown`` rewrites a reason for a kibitzer."""
    state = step.state
    say = shown if shown is not None else (lambda text: text)
    lines: list[RenderableType] = [score_line(replay, step)]
    if state.winner is not None:
        lines.append(Text(f"Game won by {state.winner}", style="bold green"))
    lines.append(Text(f"Points in deal {state.deal}", style="dim"))
    counted = set(state.deal_points)
    later = [item for item in state.items if item.side and item.points and
             not any(p.item is item.item and p.side == item.side and p.reason == item.reason
                     for p in counted)]
    if not state.deal_points and not later:
        lines.append(Text("  none yet", style="dim italic"))
    for point in state.deal_points:
        item = point.item.value
        lines.append(Text.assemble(
            (f"  {point.side:<2} ", "bold"), (f"{item} {point.points}", "cyan"),
            f"  {say(pretty_cards(point.reason))}"))
    for status in later:
        reason = pretty_cards(status.reason)
        if say(reason) != reason:
            continue  # drawn from a hand the kibitzer does not see: not shown until counted
        word = "decided, counted at the end" if status.decided else \
            "provisional, if the deal ended now"
        lines.append(Text.assemble(
            (f"  {status.side:<2} ", "bold italic"),
            (f"{status.item.value} ({status.points})", "italic magenta"),
            (f"  {word}: {reason}", "italic")))
    return Group(*lines)


class ScorePanel(SteadyStatic):
    """Running score and target; the deal's points, each with its reason, as they come."""

    def show_step(self, replay: GameReplay, step: Step, *,
                  shown: Callable[[str], str] | None = None) -> None:
        self.show(score_renderable(replay, step, shown=shown))

    def clear(self) -> None:
        self.update("")


HIDDEN_COMMENT = "(a comment here names a card this seat has not seen: hidden while kibitzing)"


def note_lines(step: Step, notes: list[Note],
               shown: Callable[[str], str] | None = None) -> list[tuple[str, str]]:
    """The lines of the notes panel at ``step``, each with its style: what happened, the
    glyphs and comments written there, its problems; ``shown`` rewrites each for a
    kibitzer."""
    say = shown if shown is not None else (lambda text: text)
    lines = [(say(step.text), "bold")]
    for note in notes:
        if note.glyph is not None:
            lines.append((f"{note.glyph.value}  {GLYPH_MEANING[note.glyph]}", "magenta"))
        for comment in note.comments:
            text = visible(reflow(comment.text), lines=True)
            # a comment naming a card the watched seat has not seen tells of play to come
            # ("South's JC falls to West's AC"): a kibitzer is not shown it, masked or not
            lines.append((text if say(text) == text else HIDDEN_COMMENT, "italic"))
    for diagnostic in step.diagnostics:
        style = _severity_style(diagnostic)
        lines.append((say(f"{diagnostic.code}: {diagnostic.message}"), style))
    return lines


class NotesPanel(SteadyStatic):
    """What happened at this step, the comments and glyphs written there, and its problems."""

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.lines: list[Text] = []

    def show_step(self, step: Step, notes: list[Note], *,
                  shown: Callable[[str], str] | None = None) -> None:
        """``shown`` rewrites each line for a kibitzer (no card the seat cannot see)."""
        lines = [Text(t, style=style) for t, style in note_lines(step, notes, shown)]
        self.lines = lines
        self.show(Text("\n").join(lines))

    def show_text(self, text: str) -> None:
        self.lines = [Text(text, style="italic")]
        self.update(self.lines[0])


class NowBar(SteadyStatic):
    """Where we are and the score, in two lines under the table: what a small terminal
    always shows while the panels that hold the same facts at length are one key away."""

    def show_step(self, replay: GameReplay, step: Step, *, of: int | None) -> None:
        where = f"{step.deal}.{step.trick}" if step.trick is not None else f"deal {step.deal}"
        count = f"Step {step.index + 1}" + (f"/{of}" if of is not None else "")
        first = Text.assemble((f"{count} · {where}  ", "dim"), (step.text, "bold"))
        winner = step.state.winner
        second = score_line(replay, step)
        if winner is not None:
            second.append(f"   won by {winner}", style="bold green")
        self.show(Text("\n").join([first, second]))

    def clear(self) -> None:
        self.update("")


class DiagnosticDetail(VerticalScroll):
    """The chosen (or first) diagnostic in full: its headline wraps, while the source line
    and its caret scroll sideways together so that the caret stays under the card."""

    def compose(self) -> ComposeResult:
        yield Static("", id="detail-message")
        with HorizontalScroll(id="detail-source"):
            yield Static("", id="detail-snippet")

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.shown: tuple[Diagnostic | None, str | None] | None = None  # shown now

    def show(self, diagnostic: Diagnostic | None, source: str | None) -> None:
        """Show ``diagnostic`` (of the file ``source``) in full, from its start.  Asked at
        every step: the same diagnostic again is not drawn again at each key, only
        scrolled back to its start as before."""
        if self.shown is not None and self.shown[0] is diagnostic and self.shown[1] is source:
            if diagnostic is not None:
                self.scroll_to_start()
            return
        self.shown = (diagnostic, source)
        message = self.query_one("#detail-message", Static)
        snippet = self.query_one("#detail-snippet", Static)
        if diagnostic is None:
            message.update(Text("No diagnostics.", style="dim italic"))
            snippet.update("")
            return
        style = _severity_style(diagnostic)
        # The file is the one on show: its name would only push the message down.
        headline = Text.assemble((f"{diagnostic.severity.value} {diagnostic.code}", style))
        if diagnostic.line is not None:
            column = f":{diagnostic.column}" if diagnostic.column is not None else ""
            headline.append(f" line {diagnostic.line}{column}", style="dim")
        context = diagnostic.context()
        if context:
            headline.append(f" [{context}]", style="dim")
        body = [headline, Text(visible(diagnostic.message))]
        if diagnostic.hint:
            body.append(Text(f"hint: {visible(diagnostic.hint)}", style="italic"))
        message.update(Text("\n").join(body))
        caret = caret_snippet(source, diagnostic.line, diagnostic.column, diagnostic.end_column)
        snippet.update(Text(caret, no_wrap=True, overflow="ignore", style="cyan"))
        self.scroll_to_start()

    def scroll_to_start(self) -> None:
        self.scroll_home(animate=False)
        self.query_one("#detail-source", HorizontalScroll).scroll_home(animate=False)


def _severity_style(diagnostic: Diagnostic) -> str:
    """An error red, a dispute (no error of the record) magenta, the rest yellow."""
    if diagnostic.is_error:
        return "bold red"
    return "magenta" if diagnostic.is_dispute else "yellow"
