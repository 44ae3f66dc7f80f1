"""Small one-question dialogs: go to a deal or trick, open another file."""

from __future__ import annotations

from typing import ClassVar

from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import Input, Static

from ..model import parse_goto


class AskScreen(ModalScreen[str | None]):
    """Ask for one line of text; Enter answers it, Esc cancels (answer ``None``)."""

    BINDINGS: ClassVar[list[BindingType]] = [Binding("escape", "cancel", "Cancel")]

    def __init__(self, title: str, hint: str, *, value: str = "", input_id: str = "ask") -> None:
        super().__init__()
        self.title_text = title
        self.hint = hint
        self.value = value
        self.input_id = input_id

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog"):
            yield Static(self.title_text, classes="dialog-title")
            yield Input(value=self.value, placeholder=self.hint, id=self.input_id)
            yield Static(self.hint, classes="dialog-hint", id=f"{self.input_id}-hint")

    def on_input_submitted(self, event: Input.Submitted) -> None:
        answer = self.check(event.value.strip())
        if answer is not None:
            self.dismiss(answer)

    def check(self, answer: str) -> str | None:
        """The answer, or ``None`` after saying in the hint line what is wrong with it."""
        return answer or None

    def action_cancel(self) -> None:
        self.dismiss(None)


class GoToScreen(AskScreen):
    HINT = "deal, or deal.trick:  3   3.2   deal 3 trick 2"

    def __init__(self) -> None:
        super().__init__("Go to a deal or trick", self.HINT, input_id="goto")

    def check(self, answer: str) -> str | None:
        if parse_goto(answer) is None:
            self.query_one(f"#{self.input_id}-hint", Static).update(
                f"'{answer}' is not a deal or trick; {self.HINT}")
            return None
        return answer


class OpenScreen(AskScreen):
    def __init__(self, current: str) -> None:
        super().__init__("Open an AFN file", "path to a .afn file", value=current,
                         input_id="open")
