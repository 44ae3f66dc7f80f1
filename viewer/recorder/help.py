"""The recorder's help (F1, or ? on an empty line): its keys and what can be typed."""

from __future__ import annotations

from typing import ClassVar

from rich.table import Table
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Static

TYPING = (
    ("n e s w", "who deals (Enter takes the proposed dealer)"),
    ("S js 9h 8h 7c 6d 5d", "a hand as dealt (any time before the first card), or a run's "
     "3 cards"),
    ("4s", "the turn-up (then each run's turn-up)"),
    ("s  b  g  r", "stands, begs, gives one, runs (when that call is due)"),
    ("js 10h th j♠", "a card; the seat to play is assumed ('W:js' names another)"),
    ("1 … 9, ←/→", "the n-th legal card offered; or ←/→ highlight one, then Enter plays it "
     "(Enter with nothing chosen records nothing)"),
    ("penalty S revoke", "a penalty declared at the table (misdeal, wrongscore, other…), "
     "written where it is typed"),
    ("S concedes", "a concession; 'abandoned' leaves the game; 'redeal misdeal'"),
    ("redeal", "when a run has used up the pack (the same dealer deals again)"),
    ("claim S high low N jack", "what the players claimed, when it differs (a dispute)"),
    ("{text}  ;text", "a comment on the entry just made"),
    ("!  !!  ??  !?  ?!", "a glyph on the card just played (or 'js!')"),
    ("y / n", "answer a question (a revoke or an undertrump is recorded once confirmed)"),
)


def keys_table(bindings: list[Binding]) -> Table:
    """The recorder's keys, from its own bindings."""
    table = Table(show_header=True, header_style="bold", box=None, padding=(0, 2))
    table.add_column("Key", style="bold cyan", no_wrap=True)
    table.add_column("Does")
    for binding in bindings:
        keys = binding.key_display or "+".join(part.capitalize() for part in binding.key.split("+"))
        table.add_row(keys, binding.tooltip or binding.description)
    return table


def typing_table() -> Table:
    table = Table(show_header=True, header_style="bold", box=None, padding=(0, 2))
    table.add_column("Type", style="bold cyan", no_wrap=True)
    table.add_column("Records")
    for typed, meaning in TYPING:
        table.add_row(typed, meaning)
    return table


class RecorderHelp(ModalScreen[None]):
    """The keys and the entries; Esc, F1 or q closes it."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape,f1,q,question_mark", "dismiss", "Close help"),
    ]

    def __init__(self, bindings: list[Binding]) -> None:
        super().__init__()
        self.bindings = bindings

    def compose(self) -> ComposeResult:
        with VerticalScroll(id="rec-help-box"):
            yield Static("AFN recorder: what to type", id="rec-help-title")
            yield Static(typing_table())
            yield Static("Keys", id="rec-help-keys-title")
            yield Static(keys_table(self.bindings))
            yield Static("Every entry is checked by the referee and on disk before the next. "
                         "Esc, F1 or q closes this help.", id="rec-help-foot")

    def action_dismiss(self) -> None:  # type: ignore[override]
        self.dismiss(None)
