"""The recorder's own panels: the entries made so far, the points, the cards offered."""

from __future__ import annotations

from collections.abc import Callable

from rich.console import Group, RenderableType
from rich.text import Text
from textual import events
from textual.message import Message
from textual.widgets import Input, Static

from allfours_notation import Card
from allfours_notation.reading.records import Play
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
    """The scorer picked an earlier entry to correct."""

    def __init__(self, index: int) -> None:
        super().__init__()
        self.index = index


class EntryList(PickList):
    """Every entry of the game, numbered, the last one current; invalid ones flagged."""

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.rows: list[Text] = []

    @property
    def line_count(self) -> int:
        return len(self.rows)

    def line_text(self, row: int) -> Text:
        return self.rows[row]

    def choose(self, row: int) -> None:
        self.post_message(EntryChosen(row))

    def show_session(self, session: Session) -> None:
        deal = 0
        cards = 0  # cards played in the deal so far: the trick each card belongs to
        players = max(len(session.seats), 1)
        rows = []
        for index, entry in enumerate(session.entries):
            line = visible(describe(entry))
            if line.endswith(" deals"):
                deal += 1
                cards = 0
                line = f"deal {deal}: {line}"
            elif isinstance(entry, Play):
                cards += 1
                line = f"{(cards - 1) // players + 1}. {line}"
            row = Text(f"{index + 1:>4} ", style="dim")
            flag = session.flags.get(index)
            row.append(line, style="bold red" if flag else "")
            if flag:
                row.append(f"  ✗ {flag}", style="red")
            rows.append(row)
        self.rows = rows
        self.reset()
        self.show_current(len(rows) - 1 if rows else None)


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
    for dispute in session.disputes() if _has_claims(session) else []:
        lines.append(Text(f"dispute: {visible(dispute.message)}", style="bold yellow"))
    return Group(*lines)


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


class PointsPanel(Static):
    def show_session(self, session: Session) -> None:
        width = self.content_size.width
        self.update(points_renderable(session, reasons=width == 0 or width >= REASONS_FROM))


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
