"""The recorder's own panels: the entries made so far, the points, the cards offered."""

from __future__ import annotations

from collections.abc import Callable
from typing import ClassVar

from rich.console import Group, RenderableType
from rich.text import Text
from textual import events
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import VerticalScroll
from textual.message import Message
from textual.widgets import Input, Static

from allfours_notation import Card
from allfours_notation.reading.records import Penalty, Play
from allfours_notation.recording.entries import Entry
from allfours_notation.recording.session import Session, describe
from allfours_notation.visible import visible
from allfours_notation.writing.sheet import ItemLine, game_sheet

from ..widgets.cards import card_text
from ..widgets.lists import PickList
from ..widgets.panels import score_text


class EntryLine(Input):
    """The line the scorer types into.

    Enter is taken here, in the order the keys came, and the line empties at once: a
    key binding would run after keys typed ahead (a fast scorer, keys sent by a
    script), which then joined the entry before it ("3c3d") and left an empty Enter.
    """

    def __init__(self, *args: object, **kwargs: object) -> None:
        super().__init__(*args, **kwargs)  # type: ignore[arg-type]
        # The screen's one-key answers (results mode, a y/n question, the other side's
        # confirmation): given each key first, in the order the keys came; True when
        # the key was taken.
        self.key_hook: Callable[[events.Key], bool] | None = None
        # Where a line ended by Enter goes at once (else it is posted as Submitted).
        self.line_hook: Callable[[str], None] | None = None

    async def _on_key(self, event: events.Key) -> None:
        if self.key_hook is not None and self.key_hook(event):
            event.stop()
            event.prevent_default()
            return
        if event.key == "enter":
            event.stop()
            event.prevent_default()
            value, self.value = self.value, ""
            if self.line_hook is not None:
                self.line_hook(value)
            else:
                self.post_message(self.Submitted(self, value, None))
            return
        await super()._on_key(event)


class EntryChosen(Message):
    """The scorer picked an earlier entry: to correct it (``action`` "correct"), to
    insert a forgotten entry before it ("insert"), or to delete it ("delete")."""

    def __init__(self, index: int, action: str = "correct") -> None:
        super().__init__()
        self.index = index
        self.action = action


# What an entry's row shows besides the entry: its penalty's value, the flag of an entry
# a correction made invalid, the deal and the cards of the deal before it, the players.
_Shown = tuple[str | None, str | None, int, int, int]


class EntryList(PickList):
    """Every entry of the game, numbered, the last one current; invalid ones flagged.
    Enter corrects the entry under the cursor, i (or Insert) inserts one before it,
    d (or Delete) deletes it."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("i,insert", "pick('insert')", "Insert before", show=False),
        Binding("d,delete", "pick('delete')", "Delete", show=False),
    ]

    def on_resize(self) -> None:
        """The points above took another height: the current entry stays in sight."""
        if self.current is not None:
            self.call_after_refresh(self.scroll_to_row, self.current, True)

    def action_pick(self, action: str) -> None:
        if 0 <= self.cursor < self.line_count:
            self.post_message(EntryChosen(self.cursor, action))

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.rows: list[Text] = []
        # per row: its entry, what else it shows, the row, and the counts after it
        self._made: list[tuple[Entry, _Shown, Text, int, int]] = []

    @property
    def line_count(self) -> int:
        return len(self.rows)

    def line_text(self, row: int) -> Text:
        return self.rows[row]

    def choose(self, row: int) -> None:
        self.post_message(EntryChosen(row))

    def show_session(self, session: Session) -> None:
        """Every entry's row, drawn again after each entry.  A row is made again only
        when what it shows may have changed (its entry, its penalty's value, its flag,
        its place in the deal): the rows of the entries before stay as they were, so an
        entry late in a long game does not cost a row per entry made so far."""
        deal = 0
        cards = 0  # cards played in the deal so far: the trick each card belongs to
        players = max(len(session.seats), 1)
        rows = []
        made = []
        penalties = session.penalty_values() if any(
            isinstance(entry, Penalty) for entry in session.entries) else {}
        for index, entry in enumerate(session.entries):
            shown = (penalties.get(index), session.flags.get(index), deal, cards, players)
            old = self._made[index] if index < len(self._made) else None
            if old is None or old[0] is not entry or old[1] != shown:
                old = (entry, shown, *self._row(index, entry, shown))
            _, _, row, deal, cards = old
            rows.append(row)
            made.append(old)
        self.rows = rows
        self._made = made
        self.reset()
        self.show_current(len(rows) - 1 if rows else None)

    @staticmethod
    def _row(index: int, entry: Entry, shown: _Shown) -> tuple[Text, int, int]:
        """One entry's row, and the deal and the cards of the deal counted after it."""
        value, flag, deal, cards, players = shown
        line = visible(describe(entry))
        if value is not None:
            line += f" → {value}"
        if line.endswith(" deals"):
            deal += 1
            cards = 0
            line = f"deal {deal}: {line}"
        elif isinstance(entry, Play):
            cards += 1
            line = f"{(cards - 1) // players + 1}. {line}"
        row = Text(f"{index + 1:>4} ", style="dim")
        row.append(line, style="bold red" if flag else "")
        if flag:
            row.append(f"  ✗ {flag}", style="red")
        return row, deal, cards


def points_renderable(session: Session, *, reasons: bool = True) -> RenderableType:
    """The running score and target, then the points of the last deal with their reasons
    (the lines of ``allfours score``), and any dispute with the players' claim.  Without
    ``reasons`` (a narrow panel) each item is one line, so the whole deal shows."""
    judged = session.judgement()
    replayed = judged.replayed
    lines: list[RenderableType] = [score_text(session.scores(judged), session.options.target)]
    winner = session.winner(judged)
    if winner is not None:
        lines.append(Text(f"Game won by {visible(winner)}", style="bold green"))
    finished = judged.finished or not judged.game.deals
    shown = replayed if finished else judged.so_far
    deals = shown.deals
    if deals:
        last = deals[-1]
        heading = f"Deal {last.number}" + ("" if finished else " so far, if it ended now")
        lines.append(Text(heading, style="dim"))
        sheet = game_sheet(shown, (), deal=last.number)
        items = sheet.deals[0].items if sheet.deals else ()
        lines.extend(_item(item, reasons=reasons) for item in items)
        if not items:
            lines.append(Text("  no points", style="dim italic"))
        if finished and last.scores_after:
            lines.append(Text("  totals " + "  ".join(f"{s} {v}" for s, v in last.scores_after),
                              style="dim"))
    disputes = session.disputes() if _has_claims(session) else []
    if reasons:
        lines.extend(Text(f"dispute: {visible(d.message)}", style="bold yellow")
                     for d in disputes)
    elif disputes:  # narrow: what is disputed, on one line (the why: Ctrl+R, 'check')
        about = ", ".join(dict.fromkeys(disputed_item(d.message) for d in disputes))
        lines.append(Text(f"disputed: {visible(about)} (Ctrl+R: why)", style="bold yellow"))
    return Group(*lines)


def disputed_item(message: str) -> str:
    """The item a dispute is about (``Low`` of ``deal 2: Low claimed by N, computed S:
    …``), or its headline when it names none (a total)."""
    headline = dispute_headline(message)
    for marker in (" not claimed", " claimed by"):
        if marker in headline:
            return headline.split(marker, 1)[0]
    return headline


def dispute_headline(message: str) -> str:
    """What a dispute is about, without the why: ``Low claimed by N, computed S`` of
    ``deal 2: Low claimed by N, computed S: S was dealt 2D, …``.  A narrow panel shows
    this, so that the score and the deal stay in sight at 80x24; the reasons are in
    the review (Ctrl+R) and in 'allfours check'."""
    about = message.partition(": ")[2] if message.startswith("deal ") else message
    return (about or message).split(": ", 1)[0]


def _item(item: ItemLine, *, reasons: bool = True) -> Text:
    """One item as ``allfours score`` prints it: name, side, points, reason."""
    line = f"  {item.name:<8} {item.side or '—':<2} {item.points_text:<3}" + \
        (f" {item.reason}" if reasons else "")
    if not item.counted:  # provisional (or decided, waiting): counted when the deal ends
        return Text(line, style="italic magenta")
    return Text(line, style="magenta" if item.points is not None and item.points < 0
                else "cyan")


def _has_claims(session: Session) -> bool:
    from allfours_notation.reading.records import Claim

    return any(isinstance(entry, Claim) for entry in session.entries)


# A points panel narrower than this shows each item on one line, without its reason (the
# reasons are in the review, Ctrl+R, and in 'allfours score'): at 80x24 the whole deal shows.
REASONS_FROM = 44


class PointsPanel(VerticalScroll, can_focus=False):
    """The score and the deal's points: the whole deal where the side has room (one
    line per item when narrow).  When they do not fit (a short screen, a dispute), the
    border says so and PgUp/PgDn scroll them."""

    session: Session | None = None
    _drawn_for = 0  # the width the points were last drawn for

    def compose(self) -> ComposeResult:
        yield Static("", id="rec-points-body")

    def show_session(self, session: Session) -> None:
        self.session = session
        width = self.content_size.width
        if not width:  # not laid out yet: drawn again once it is (on_resize)
            return
        self._drawn_for = width
        self.query_one("#rec-points-body", Static).update(
            points_renderable(session, reasons=width >= REASONS_FROM))
        self.call_after_refresh(self.mark_overflow)

    def on_resize(self, event: events.Resize) -> None:
        """Drawn again for its width (a line per item when narrow) once laid out."""
        if self.session is not None and event.size.width != self._drawn_for:
            self.call_after_refresh(self.show_session, self.session)
        self.call_after_refresh(self.mark_overflow)

    def mark_overflow(self) -> None:
        """Say on the border that there is more, and where (the keys scroll it)."""
        if self.max_scroll_y <= 0:
            self.border_subtitle = ""
        elif self.scroll_y >= self.max_scroll_y:
            self.border_subtitle = "↑ more: PgUp"
        elif self.scroll_y > 0:
            self.border_subtitle = "↕ more: PgUp PgDn"
        else:
            self.border_subtitle = "↓ more: PgDn"

    def scroll_points(self, delta: int) -> None:
        self.scroll_relative(y=delta * max(1, self.content_size.height - 1), animate=False)
        self.call_after_refresh(self.mark_overflow)


def offered_text(offered: tuple[Card, ...], highlight: int | None, *, unicode: bool,
                 last: bool = False) -> Text:
    """``1 J♠  2 9♥ …``: the legal cards by position, the one chosen with ←/→ reversed;
    with ``last``, the one card the seat holds, which Enter alone plays."""
    line = Text("Legal ", style="dim")
    for position, card in enumerate(offered, start=1):
        shown = card_text(card, unicode=unicode)
        if position - 1 == highlight:
            shown.stylize("reverse")
        line.append(f"{position}:", style="dim")
        line.append_text(shown)
        line.append(" ")
    if last:
        line.append("  Enter plays it: the last card", style="bold green")
    else:
        line.append("  (digit or ←/→ then Enter)", style="dim")
    return line
