"""The side panels: header tags, score and points, notes at the current step."""

from __future__ import annotations

from rich.console import Group, RenderableType
from rich.table import Table
from rich.text import Text
from textual.widgets import Static

from allfours_notation import GameHeader
from allfours_notation.records import Glyph
from allfours_notation.rules.replay import GameReplay, Step

from ..model import Note

GLYPH_MEANING = {
    Glyph.GOOD: "good play",
    Glyph.POOR: "poor play",
    Glyph.BRILLIANT: "brilliant play",
    Glyph.BLUNDER: "blunder",
    Glyph.INTERESTING: "interesting play",
    Glyph.DUBIOUS: "dubious play",
}


class TagsPanel(Static):
    """The game's header tags, as written."""

    def show_tags(self, header: GameHeader) -> None:
        grid = Table.grid(padding=(0, 1))
        grid.add_column(style="dim", no_wrap=True)
        grid.add_column()
        for name, value in header.tags:
            grid.add_row(name, value)
        self.update(grid if header.tags else Text("(no tags)", style="dim"))


def score_renderable(replay: GameReplay, step: Step) -> RenderableType:
    state = step.state
    target = replay.options.target
    scores = Text.assemble(("Score ", "dim"))
    scores.append("  ".join(f"{side} {points}" for side, points in state.scores) or "—",
                  style="bold")
    scores.append(f"   target {target}", style="dim")
    lines: list[RenderableType] = [scores]
    if state.winner is not None:
        lines.append(Text(f"Game won by {state.winner}", style="bold green"))
    lines.append(Text(f"Points in deal {state.deal}", style="dim"))
    if not state.deal_points:
        lines.append(Text("  none yet", style="dim italic"))
    for point in state.deal_points:
        item = point.item.value
        lines.append(Text.assemble(
            (f"  {point.side:<2} ", "bold"), (f"{item} {point.points}", "cyan"),
            f"  {point.reason}"))
    return Group(*lines)


class ScorePanel(Static):
    """Running score and target; the deal's points, each with its reason, as they come."""

    def show_step(self, replay: GameReplay, step: Step) -> None:
        self.update(score_renderable(replay, step))

    def clear(self) -> None:
        self.update("")


class NotesPanel(Static):
    """What happened at this step, the comments and glyphs written there, and its problems."""

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.lines: list[Text] = []

    def show_step(self, step: Step, notes: list[Note]) -> None:
        lines = [Text(step.text, style="bold")]
        for note in notes:
            if note.glyph is not None:
                lines.append(Text(f"{note.glyph.value}  {GLYPH_MEANING[note.glyph]}",
                                  style="magenta"))
            for comment in note.comments:
                lines.append(Text(comment.text.strip(), style="italic"))
        for diagnostic in step.diagnostics:
            style = "bold red" if diagnostic.is_error else "yellow"
            lines.append(Text(f"{diagnostic.code}: {diagnostic.message}", style=style))
        self.lines = lines
        self.update(Text("\n").join(lines))

    def add_diagnostic(self, rendered: str) -> None:
        """Add a chosen diagnostic in full: headline, source line with a caret, hint."""
        self.lines = [*self.lines, Text(""), Text(rendered, style="yellow")]
        self.update(Text("\n").join(self.lines))

    def show_text(self, text: str) -> None:
        self.lines = [Text(text, style="italic")]
        self.update(self.lines[0])
