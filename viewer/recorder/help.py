"""The recorder's help (F1, or ? on an empty line): its keys and what can be typed."""

from __future__ import annotations

from typing import ClassVar

from rich.table import Table
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Static

from allfours_notation.reading.records import Call, Claim, ClaimItem, Hand, Penalty, Play, TurnUp
from allfours_notation.recording.entries import RESULT_KEYS, DealStart, Entry, Item

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

# What the other side says when a deal is over, in either mode.
CONFIRMING = (
    ("y", "when a deal is over: the other side agrees with the points shown"),
    ("c", "when a deal is over: the other side claims otherwise. A claim is the whole deal "
     "(it replaces every item): the scorer's items are shown, change one with its key and "
     "a side (h s), take one out with its key and - (h -); Enter records the claim"),
)

# The name of each item in the help, by what it is (a key the session adds is shown by
# its item's own word).
ITEM_NAMES = {ClaimItem.HIGH: "High", ClaimItem.LOW: "Low", ClaimItem.JACK: "Jack",
              ClaimItem.HANG_JACK: "Hang Jack", ClaimItem.GAME: "Game",
              ClaimItem.PENALTY: "a penalty point"}
# Items whose side the rules fix: what follows their key instead of a side.
FIXED_SIDE = {ClaimItem.KICK: ("k 2", "a kick to the dealer's side; then its points when "
                               "the rules have several (Trinidad: 1, 2 or 3)"),
              ClaimItem.GIFT: ("t", "the gift: a point to the elder's side (with three "
                               "players, then the seat it went to)")}


def _item_row(key: str, item: ClaimItem) -> tuple[str, str]:
    if item in FIXED_SIDE:
        typed, meaning = FIXED_SIDE[item]
        return typed.replace(typed[0], key, 1), meaning
    return f"{key} n", f"{ITEM_NAMES.get(item, item.value)}, then the side: a seat (n e s w)"


def results_typing() -> tuple[tuple[str, str], ...]:
    """What results mode takes: one key per item, then the side (from the session's
    own keys, so a key it adds is listed too)."""
    rows = [_item_row(key, item) for key, item in RESULT_KEYS.items()]
    return (
        ("n e s w", "who deals (Enter takes the proposed dealer)"),
        *rows,
        ("Enter", "the deal's results are all in: the other side is asked"),
        ("Backspace", "takes back the last item (or the key typed before its side)"),
        ("redeal misdeal", "how a deal ended without points (also 'S concedes', "
         "'abandoned'), typed on the line"),
        ("Ctrl+T", "back to entering deals by their cards"),
    )


def results_mode_keys() -> str:
    """``h High, l Low, …``: the item keys of results mode, for a hint on one line."""
    return " ".join(RESULT_KEYS)


# The entry line's hint when it is empty, by what the recorder waits for.
CARDS_HINT = "type an entry: js 10h, s b g r, 4s … (? help, Ctrl+Q quits)"
CONFIRM_HINT = "y: the other side agrees · c: they claim otherwise (? help)"
STALE_HINT = "r and Enter reload the file · q and Enter quit"
CLAIM_HINT = "an item key and a side (l s), - takes it out (l -); Enter records the claim"


def results_hint() -> str:
    return f"keys: {results_mode_keys()} then the side; Enter ends the deal (? help)"



def entry_format(entry: Entry) -> str:
    """How an entry of its kind is typed: the correction prompt shows it."""
    if isinstance(entry, DealStart):
        return "the dealer (n e s w)"
    if isinstance(entry, Hand):
        return f"the hand ({entry.seat.letter} js 9h …)"
    if isinstance(entry, TurnUp):
        return "the turn-up (4s)"
    if isinstance(entry, Call):
        return "the call (s b g r)"
    if isinstance(entry, Play):
        return "the card (js, 10h, W:js)"
    if isinstance(entry, Item):
        return "the item and its side (h n, k 2, t)"
    if isinstance(entry, Penalty):
        return "penalty S revoke"
    if isinstance(entry, Claim):
        return "the whole claim (claim S high N jack)"
    return "the entry as it should be"



def keys_table(bindings: list[Binding]) -> Table:
    """The recorder's keys, from its own bindings."""
    table = Table(show_header=True, header_style="bold", box=None, padding=(0, 2))
    table.add_column("Key", style="bold cyan", no_wrap=True)
    table.add_column("Does")
    for binding in bindings:
        keys = binding.key_display or "+".join(part.capitalize() for part in binding.key.split("+"))
        table.add_row(keys, binding.tooltip or binding.description)
    return table


def typing_table(*, results: bool = False) -> Table:
    """What can be typed in the mode in use (cards or results), then the other side's
    word at the end of a deal."""
    table = Table(show_header=True, header_style="bold", box=None, padding=(0, 2))
    table.add_column("Type", style="bold cyan", no_wrap=True)
    table.add_column("Records")
    for typed, meaning in (*(results_typing() if results else TYPING), *CONFIRMING):
        table.add_row(typed, meaning)
    return table


class RecorderHelp(ModalScreen[None]):
    """The keys and the entries; Esc, F1 or q closes it."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape,f1,q,question_mark", "dismiss", "Close help"),
    ]

    def __init__(self, bindings: list[Binding], *, results: bool = False) -> None:
        super().__init__()
        self.bindings = bindings
        self.results = results  # the deals are entered by their results

    def compose(self) -> ComposeResult:
        with VerticalScroll(id="rec-help-box"):
            mode = "deals by their results" if self.results else "deals by their cards"
            yield Static(f"AFN recorder: what to type ({mode}; Ctrl+T switches)",
                         id="rec-help-title")
            yield Static(typing_table(results=self.results))
            yield Static("Keys", id="rec-help-keys-title")
            yield Static(keys_table(self.bindings))
            yield Static("Every entry is checked by the referee and on disk before the next. "
                         "Esc, F1 or q closes this help.", id="rec-help-foot")

    def action_dismiss(self) -> None:  # type: ignore[override]
        self.dismiss(None)
