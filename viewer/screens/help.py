"""The ``?`` overlay: every key of the viewer, from the app's own bindings."""

from __future__ import annotations

from typing import ClassVar

from rich.table import Table
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import Static

KEY_NAMES = {"home": "Home", "end": "End", "escape": "Esc"}


def key_label(keys: str) -> str:
    return " ".join(KEY_NAMES.get(key, key) for key in keys.split(","))


def keys_table(bindings: list[Binding]) -> Table:
    table = Table(show_header=True, header_style="bold", box=None, padding=(0, 2))
    table.add_column("Key", style="bold cyan", no_wrap=True)
    table.add_column("Does")
    for binding in bindings:
        table.add_row(binding.key_display or key_label(binding.key),
                      binding.tooltip or binding.description)
    return table


class HelpScreen(ModalScreen[None]):
    """Lists the bindings it is given; any of Esc, ? or q closes it."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape,question_mark,q", "dismiss", "Close help"),
    ]

    def __init__(self, bindings: list[Binding]) -> None:
        super().__init__()
        self.bindings = bindings

    def compose(self) -> ComposeResult:
        with Vertical(id="help-box"):
            yield Static("AFN replay viewer: keys", id="help-title")
            yield Static(keys_table(self.bindings), id="help-keys")
            yield Static("Ctrl+P opens the command palette (go to, open a file).  "
                         "Esc, ? or q closes this help.", id="help-foot")

    def action_dismiss(self) -> None:  # type: ignore[override]
        self.dismiss(None)
