"""The ``?`` overlay: every key of the viewer, from the app's own bindings.

It fits an 80×24 terminal: the keys are laid out in two columns, keys that move one way
and back (→ and ←) share a row, and the keys that belong to the lists and dialogs
(Tab, Enter, Esc) are listed after the app's bindings.
"""

from __future__ import annotations

from typing import ClassVar

from rich.table import Table
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import Static

KEY_NAMES = {"home": "Home", "end": "End", "escape": "Esc"}

# Keys that are not bindings of the app: the lists' and dialogs' own keys.
OTHER_KEYS = (
    ("Tab / ⇧Tab", "Move between the lists (games, steps, diagnostics)"),
    ("↑ ↓ Enter", "In a list: move, then choose (a click works too)"),
    ("Esc", "Close a dialog or this help"),
    ("Ctrl+P", "Command palette: go to, open a file, kibitz"),
)


def key_label(keys: str) -> str:
    return " ".join(KEY_NAMES.get(key, key) for key in keys.split(","))


def key_rows(bindings: list[Binding]) -> list[tuple[str, str]]:
    """(keys, what they do) per row; a group's keys share one row ("→ ←", "1–6")."""
    rows: list[tuple[str, str]] = []
    index = 0
    while index < len(bindings):
        binding = bindings[index]
        group = [binding]
        while (binding.group is not None and index + len(group) < len(bindings)
               and bindings[index + len(group)].group == binding.group):
            group.append(bindings[index + len(group)])
        keys = [b.key_display or key_label(b.key) for b in group]
        if len(group) > 2:  # the panel keys: "1–6", each panel named in the text
            names = ", ".join(f"{b.key} {b.description.lower()}" for b in group)
            rows.append((f"{keys[0]}–{keys[-1]}", f"{group[0].group.description}: {names}"
                         if group[0].group else names))
        else:
            does = group[0].tooltip or group[0].description
            if len(group) == 2:  # "Next trick / back"
                does += f" / {group[1].description.lower()}"
            rows.append((" ".join(keys), does))
        index += len(group)
    return [*rows, *OTHER_KEYS]


def keys_table(rows: list[tuple[str, str]]) -> Table:
    table = Table(show_header=False, box=None, padding=(0, 1), expand=True)
    table.add_column("Key", style="bold cyan", no_wrap=True)
    table.add_column("Does", ratio=1)
    for keys, does in rows:
        table.add_row(keys, does)
    return table


def help_grid(bindings: list[Binding]) -> Table:
    """Every key in two side-by-side tables."""
    rows = key_rows(bindings)
    half = (len(rows) + 1) // 2
    grid = Table.grid(expand=True, padding=(0, 2))
    grid.add_column(ratio=1)
    grid.add_column(ratio=1)
    grid.add_row(keys_table(rows[:half]), keys_table(rows[half:]))
    return grid


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
            yield Static(help_grid(self.bindings), id="help-keys")
            yield Static("Marks in the game list: ✗ cannot be read, ! read with disputes "
                         "or rules problems.  Esc, ? or q closes this help.", id="help-foot")

    def action_dismiss(self) -> None:  # type: ignore[override]
        self.dismiss(None)
