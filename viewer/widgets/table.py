"""The card table: every seat with its hand, the trick in the middle, turn-up and trumps.

It draws one :class:`TableState` exactly as the replayer computed it; the only choices made
here are about looks: where each seat sits, which hands are face down while kibitzing.
"""

from __future__ import annotations

from rich.align import Align
from rich.console import Group, RenderableType
from rich.table import Table
from rich.text import Text

from allfours_notation import Game, Seat
from allfours_notation.reading.table import side_of
from allfours_notation.referee.replay import TableState
from allfours_notation.referee.scoring import ITEM_LABELS
from allfours_notation.visible import visible

from ..model import GameEntry
from .cards import card_text, cards_text, face_down, suit_text
from .steady import SteadyStatic

MAX_SHOWN_ERRORS = 4  # of a game that cannot be replayed, in the table's place
TRICK_WIDTH = 20  # the middle of the table, where the trick lies
COMPACT_TRICK_WIDTH = 16  # … in a compact table
SIDE_WIDTH = 28  # a title longer than this is cut in two at East and West
COMPACT_BELOW = 64  # a table narrower than this many columns is drawn compact


def player_name(game: Game, seat: Seat) -> str:
    return visible(game.tag(seat.tag_name) or seat.name.capitalize())


def seat_panel(state: TableState, game: Game, seat: Seat, *, kibitz: Seat | None,
               unicode: bool, compact: bool = False) -> RenderableType:
    """A marker for the player to move, then name, side and role (two lines at the narrow
    East and West places) over the cards still held, face down when kibitzing another
    seat.  The marker has its own column so that a long hand wraps under the cards."""
    to_move = state.to_move == seat
    title = Text(f"{seat.name.capitalize()} · {player_name(game, seat)}", style="bold")
    extra = Text()
    if len(state.seats) == 4:
        extra.append(f"[{side_of(seat, state.seats)}] ", style="cyan")
    for role, who in (("dealer", state.dealer), ("elder", state.elder)):
        if who == seat:
            extra.append(f"{role} ", style="dim italic")
    extra.rstrip()
    narrow = seat in (Seat.EAST, Seat.WEST) and (
        compact or title.cell_len + extra.cell_len > SIDE_WIDTH)
    lines = [Text.assemble(title, "\n" if narrow else " ", extra) if extra else title]
    held = state.hand(seat)
    unknown = dict(state.unknown).get(seat, 0)
    if kibitz is not None and seat != kibitz:
        hand = face_down(len(held) + unknown, unicode=unicode)
    else:
        hand = cards_text(held, unicode=unicode, legal=state.legal if to_move else frozenset())
        if unknown:
            hand.append(" " if held else "")
            hand.append_text(face_down(unknown, unicode=unicode))
    lines.append(hand if hand.plain else Text("(no cards)", style="dim"))
    grid = Table.grid()
    grid.add_column(width=2, style="bold green")
    grid.add_column(max_width=SIDE_WIDTH + 12 if seat in (Seat.EAST, Seat.WEST) else None)
    grid.add_row("▶" if to_move else "", Text("\n").join(lines))
    if seat is Seat.EAST:
        return Align.right(grid)
    return grid


def trick_panel(state: TableState, *, unicode: bool, trick_over: bool = False) -> Text:
    """The cards on the table, each beside its player's side of the grid; once the trick
    is over, who won it."""
    played = dict(state.trick)
    header = Text(f"Trick {state.trick_number}" if state.trick_number else "", style="bold")
    if state.trick:  # leader first; after the trick, state.leader is the next leader
        header.append(f" · {state.trick[0][0].letter} led", style="dim")
        if trick_over and state.last_trick_winner is not None:
            header.append(f"\nwon by {state.last_trick_winner.letter}", style="bold yellow")
    elif state.last_trick_winner is not None and not state.trick:
        header.append(f" · last won by {state.last_trick_winner.letter}", style="dim")

    def at(seat: Seat) -> Text:
        if seat in played:
            return Text.assemble(f"{seat.letter}:", card_text(played[seat], unicode=unicode))
        return Text("    " if seat in state.seats else "")

    middle = Text.assemble(at(Seat.WEST), "      ", at(Seat.EAST))
    return Text("\n").join([header, Text(""), at(Seat.NORTH), middle, at(Seat.SOUTH)])


def info_lines(state: TableState, game: Game, *, unicode: bool,
               kibitz: Seat | None = None) -> Text:
    """Turn-up, trumps, tricks and pips; who is to move and, unless that would show a
    hand the kibitzer cannot see, their legal cards."""
    line = Text("Turn-up ", style="dim")
    if state.turnups:
        line.append_text(Text(" ").join(card_text(c, unicode=unicode) for c in state.turnups))
    else:
        line.append("—")
    line.append("   Trumps ", style="dim")
    line.append_text(suit_text(state.trump, unicode=unicode) if state.trump else Text("—"))
    line.append(f"   Deal {state.deal}", style="dim")
    won = "  ".join(f"{side} {count}" for side, count in state.won)
    pips = "  ".join(f"{side} {count}" for side, count in state.pips)
    tally = Text.assemble(("Tricks won ", "dim"), won or "—", ("   Pips toward Game ", "dim"),
                          pips or "—")
    lines = [line, tally]
    if state.to_move is not None:
        legal = [c for c in state.hand(state.to_move) if c in state.legal]
        move = Text.assemble(("To move ", "dim"),
                             (f"{state.to_move.letter} ({player_name(game, state.to_move)})",
                              "bold green"))
        if legal and kibitz in (None, state.to_move):
            move.append("   legal ", style="dim")
            move.append_text(cards_text(legal, unicode=unicode))
        lines.append(move)
    return Text("\n").join(lines)


def recorded_by_results(game: Game, number: int) -> bool:
    """Whether deal ``number`` of ``game`` is recorded by its results (``scored …``)."""
    return any(deal.number == number and deal.by_results for deal in game.deals)


def results_renderable(state: TableState, game: Game, *, unicode: bool,
                       pending: tuple[tuple[str, str, int], ...] = (),
                       title: str = "recorded by its results") -> RenderableType:
    """A results-only deal: no table, the items each side took so far and the score.

    ``pending`` (side, item label, points) are items typed but not yet counted (the
    recorder's results mode shows them as they are typed)."""
    head = Text.assemble((f"Deal {state.deal}", "bold"), (f"  {title}", "dim"),
                         ("   dealer ", "dim"), state.dealer.letter)
    if state.turnups:
        head.append("   turn-up ", style="dim")
        head.append_text(Text(" ").join(card_text(c, unicode=unicode) for c in state.turnups))
    grid = Table.grid(padding=(0, 2))
    grid.add_column()
    grid.add_column()
    grid.add_column(justify="right")
    points = [(p.side, ITEM_LABELS[p.item], p.points) for p in state.deal_points]
    for side, label, value in (*points, *pending):
        grid.add_row(Text(side, style="bold"), label, f"+{value}")
    if not points and not pending:
        grid.add_row(Text("—", style="dim"), Text("no item yet", style="dim"), "")
    by_side: dict[str, int] = {}
    for side, _, value in (*points, *pending):
        by_side[side] = by_side.get(side, 0) + value
    deal_line = Text.assemble(("Deal points ", "dim"), "  ".join(
        f"{side} {by_side.get(side, 0)}" for side, _ in state.scores) or "—")
    score_line = Text.assemble(("Score ", "dim"), "  ".join(
        f"{side} {score}" for side, score in state.scores))
    return Group(head, Text(""), grid, Text(""), deal_line, score_line)


def table_renderable(state: TableState, game: Game, *, kibitz: Seat | None,
                     unicode: bool, trick_over: bool = False,
                     compact: bool = False) -> RenderableType:
    """North above, West and East either side of the trick, South below; facts under it.
    ``compact`` (a small terminal) narrows the middle and drops the blank line.  A deal
    recorded by its results has no cards to show: its items take the table's place."""
    if recorded_by_results(game, state.deal):
        return results_renderable(state, game, unicode=unicode)

    def seat(which: Seat) -> RenderableType:
        if which not in state.seats:
            return Text("")
        return seat_panel(state, game, which, kibitz=kibitz, unicode=unicode, compact=compact)

    middle = Table.grid(expand=True, padding=(0, 1))  # a long West label never meets the trick
    middle.add_column(ratio=1)
    middle.add_column(width=COMPACT_TRICK_WIDTH if compact else TRICK_WIDTH, justify="center")
    middle.add_column(ratio=1, justify="right")
    middle.add_row(seat(Seat.WEST), trick_panel(state, unicode=unicode, trick_over=trick_over),
                   seat(Seat.EAST))
    parts: list[RenderableType] = [
        Align.center(seat(Seat.NORTH)),
        middle,
        Align.center(seat(Seat.SOUTH)),
    ]
    if not compact:
        parts.append(Text(""))
    parts.append(info_lines(state, game, unicode=unicode, kibitz=kibitz))
    return Group(*parts)


class TableView(SteadyStatic):
    """The table at the current step (or a sentence saying why there is none)."""

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.shown: tuple[TableState, Game, Seat | None, bool, bool] | None = None
        self.compact = False

    def show_state(self, state: TableState, game: Game, *, kibitz: Seat | None,
                   unicode: bool, trick_over: bool = False) -> None:
        self.shown = (state, game, kibitz, unicode, trick_over)
        self.compact = 0 < self.content_size.width < COMPACT_BELOW
        self.show(table_renderable(state, game, kibitz=kibitz, unicode=unicode,
                                     trick_over=trick_over, compact=self.compact))

    def on_resize(self) -> None:
        """Redraw compact or full when the table's width crosses :data:`COMPACT_BELOW`."""
        compact = 0 < self.content_size.width < COMPACT_BELOW
        if self.shown is not None and compact != self.compact:
            state, game, kibitz, unicode, trick_over = self.shown
            self.show_state(state, game, kibitz=kibitz, unicode=unicode, trick_over=trick_over)

    def show_message(self, message: str) -> None:
        self.shown = None
        self.show(Text(message, style="italic"))

    def show_unplayable(self, entry: GameEntry, text: str) -> None:
        """A game with no step to show: say why, with its errors beside the source."""
        self.shown = None
        reason = "it could not be read" if entry.game.broken else "it has no deals"
        lines = [Text(f"Game {entry.header.index} cannot be replayed: {reason}.",
                      style="italic")]
        for diagnostic in entry.diagnostics[:MAX_SHOWN_ERRORS]:
            lines.append(Text(""))
            lines.append(Text(diagnostic.render(text),
                              style="red" if diagnostic.is_error else "yellow"))
        self.show(Group(*lines))
