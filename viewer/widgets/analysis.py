"""The analysis panel (key 7): the deal solved with every hand seen, card by card."""

from __future__ import annotations

from rich.text import Text
from textual.widgets import Static

from allfours_notation.cards import Seat
from allfours_notation.checking.analysis import LABEL, DealAnalysis
from allfours_notation.reading.table import side_of


def value_text(analysis: DealAnalysis, mover: Seat, value: int, seats: tuple[Seat, ...]) -> str:
    """A value from the mover's side's view, as a reader takes it: ``EW +2`` or ``level``
    (two sides), ``E is sure of 1`` (three players)."""
    if not analysis.two_sides:
        return f"{mover.letter} is sure of {value}"
    own = side_of(mover, seats)
    other = next(side for side in analysis.sides if side != own)
    if value == 0:
        return "level"
    return f"{own} +{value}" if value > 0 else f"{other} +{-value}"


class AnalysisPanel(Static):
    """Par, the value at this card, the best card here and the flagged cards."""

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.lines: list[Text] = []

    def _show(self, lines: list[Text]) -> None:
        self.lines = lines
        self.update(Text("\n").join(lines))

    def show_waiting(self, deal: int) -> None:
        self._show([Text(f"Solving deal {deal} …", style="italic"),
                    Text(LABEL, style="dim")])

    def show_nothing(self, why: str) -> None:
        self._show([Text(why, style="dim italic")])

    def show(self, analysis: DealAnalysis, played: int, seats: tuple[Seat, ...]) -> None:
        """``analysis`` at the position after ``played`` cards of the deal."""
        lines = [Text(f"Deal {analysis.number}: {LABEL}", style="dim")]
        if not analysis.solved:
            lines.append(Text(analysis.note or "not analysed", style="yellow"))
            self._show(lines)
            return
        par = ", ".join(f"{side} {points}" for side, points in analysis.par)
        actual = ", ".join(f"{side} {points}" for side, points in analysis.actual)
        lines.append(Text.assemble(("Par ", "dim"), (par, "bold"), ("  actual ", "dim"),
                                   (actual, "bold")))
        cards = analysis.cards
        if played < len(cards):
            here = cards[played]
            best = here.better if here.loss > 0 and here.better is not None else here.card
            lines.append(Text.assemble(
                ("Value here ", "dim"),
                (value_text(analysis, here.seat, here.before, seats), "bold"),
                ("  best ", "dim"), (f"{here.seat.letter}:{best}", "bold green")))
        elif cards:
            last = cards[-1]
            lines.append(Text.assemble(("Made ", "dim"),
                                       (value_text(analysis, last.seat, last.after, seats),
                                        "bold")))
        flagged = [v for v in cards if v.loss > 0]
        if not flagged and analysis.checked:
            lines.append(Text("Every card kept its side's value", style="green"))
        for verdict in flagged:
            style = "bold magenta" if verdict.index == played - 1 else "magenta"
            marker = "▸ " if verdict.index == played - 1 else "  "
            lines.append(Text(f"{marker}{verdict.trick}. {verdict.seat.letter}:{verdict.card}"
                              f"{verdict.glyph or ''} {verdict.reason.split(' ', 1)[1]}",
                              style=style))
        if analysis.note:
            lines.append(Text(analysis.note, style="yellow"))
        self._show(lines)
