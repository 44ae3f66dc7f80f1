"""The advice panel (key 8): what the advisor would have said at a call of the deal."""

from __future__ import annotations

from rich.text import Text
from textual.widgets import Static


class AdvicePanel(Static):
    """The advisor's options at the call on screen, or why there is nothing to show."""

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.lines: list[str] = []

    def _show(self, text: Text, lines: list[str]) -> None:
        self.lines = lines
        self.update(text)

    def show_nothing(self, why: str) -> None:
        self._show(Text(why, style="dim italic"), [why])

    def show_waiting(self, what: str) -> None:
        self._show(Text(f"Advising {what} …", style="italic"), [what])

    def show(self, lines: list[str]) -> None:
        """The advice in lines: the call made, the position, each option, the caveat."""
        text = Text()
        for n, line in enumerate(lines):
            if n:
                text.append("\n")
            style = ("bold" if n == 0 else "dim" if n == len(lines) - 1 and len(lines) > 2
                     else "bold green" if "<- best" in line else "")
            # a narrow panel: the CLI's eight-space indent of the details as two
            text.append("  " + line.lstrip() if line.startswith("        ") else line,
                        style=style)
        self._show(text, lines)
