"""The card table: every seat with its hand, the trick in the middle, turn-up and trumps.

It draws one :class:`TableState` exactly as the replayer computed it; the only choices made
here are about looks: where each seat sits, which hands are face down while kibitzing.
"""

from __future__ import annotations

from rich.align import Align
from rich.console import Group, RenderableType
from rich.table import Table
from rich.text import Text
from textual.widgets import Static

from allfours_notation import Game, Seat
from allfours_notation.rules.replay import TableState
from allfours_notation.table import side_of

from .cards import card_text, cards_text, face_down, suit_text


def player_name(game: Game, seat: Seat) -> str:
    return game.tag(seat.tag_name) or seat.name.capitalize()


def seat_panel(state: TableState, game: Game, seat: Seat, *, kibitz: Seat | None,
               unicode: bool) -> Text:
    """Name, side and role on one line; the cards still held on the next."""
    to_move = state.to_move == seat
    title = Text("▶ " if to_move else "  ", style="bold green")
    title.append(f"{seat.name.capitalize()} · {player_name(game, seat)}", style="bold")
    if len(state.seats) == 4:
        title.append(f" [{side_of(seat, state.seats)}]", style="cyan")
    roles = [role for role, who in (("dealer", state.dealer), ("elder", state.elder))
             if who == seat]
    if roles:
        title.append(" " + " ".join(roles), style="dim italic")
    held = state.hand(seat)
    unknown = dict(state.unknown).get(seat, 0)
    hidden = kibitz is not None and seat != kibitz
    if hidden:
        hand = face_down(len(held) + unknown, unicode=unicode)
    else:
        hand = cards_text(held, unicode=unicode, legal=state.legal if to_move else frozenset())
        if unknown:
            hand.append((" " if held else "") + f"{face_down(unknown, unicode=unicode)}")
    if not hand.plain:
        hand = Text("(no cards)", style="dim")
    return Text.assemble(title, "\n  ", hand)


def trick_panel(state: TableState, *, unicode: bool) -> Text:
    """The cards on the table, each beside its player's side of the grid."""
    played = dict(state.trick)
    header = Text(f"Trick {state.trick_number}" if state.trick_number else "", style="bold")
    if state.leader is not None and state.trick:
        header.append(f" · {state.leader.letter} led", style="dim")
    elif state.last_trick_winner is not None and not state.trick:
        header.append(f" · last won by {state.last_trick_winner.letter}", style="dim")

    def at(seat: Seat) -> Text:
        if seat in played:
            return Text.assemble(f"{seat.letter}:", card_text(played[seat], unicode=unicode))
        return Text("    " if seat in state.seats else "")

    middle = Text.assemble(at(Seat.WEST), "      ", at(Seat.EAST))
    return Text("\n").join([header, Text(""), at(Seat.NORTH), middle, at(Seat.SOUTH)])


def info_lines(state: TableState, game: Game, *, unicode: bool) -> Text:
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
        legal = sorted(state.legal, key=lambda c: (c.suit.value, -c.rank))
        move = Text.assemble(("To move ", "dim"),
                             (f"{state.to_move.letter} ({player_name(game, state.to_move)})",
                              "bold green"))
        if legal:
            move.append("   legal ", style="dim")
            move.append_text(cards_text(legal, unicode=unicode))
        lines.append(move)
    return Text("\n").join(lines)


def table_renderable(state: TableState, game: Game, *, kibitz: Seat | None,
                     unicode: bool) -> RenderableType:
    """North above, West and East either side of the trick, South below; facts under it."""

    def seat(which: Seat) -> Text:
        if which not in state.seats:
            return Text("")
        return seat_panel(state, game, which, kibitz=kibitz, unicode=unicode)

    middle = Table.grid(expand=True)
    middle.add_column(ratio=1)
    middle.add_column(ratio=1, justify="center")
    middle.add_column(ratio=1, justify="right")
    middle.add_row(seat(Seat.WEST), trick_panel(state, unicode=unicode), seat(Seat.EAST))
    return Group(
        Align.center(seat(Seat.NORTH)),
        middle,
        Align.center(seat(Seat.SOUTH)),
        Text(""),
        info_lines(state, game, unicode=unicode),
    )


class TableView(Static):
    """The table at the current step (or a sentence saying why there is none)."""

    def show_state(self, state: TableState, game: Game, *, kibitz: Seat | None,
                   unicode: bool) -> None:
        self.update(table_renderable(state, game, kibitz=kibitz, unicode=unicode))

    def show_message(self, message: str) -> None:
        self.update(Text(message, style="italic"))
