"""``allfours score``: a score sheet per game, deal by deal, as the referee computes it."""

from __future__ import annotations

import argparse
import json

from rich.console import Console
from rich.markup import escape

from ..diagnostics import Diagnostic
from ..parser import parse
from ..records import ClaimItem, Game
from ..rules.disputes import rules_name
from ..rules.replay import DealResult, GameReplay, replay
from ..rules.scoring import Point
from .check import diagnostic_json, print_diagnostic
from .inputs import InputError, console, fail, read_input
from .rules import add_rules_arguments, options_for, rules_overrides

NAME = "score"
HELP = "print the computed score sheet of each game"
DESCRIPTION = """\
Replay every game of each FILE under its rules and print a score sheet: deal by
deal the dealer, the turn-up, the beg, who took each item and why, the deal's
points and the running totals; then the winner and the moment the game was
decided ("deal 7, at High").  Disagreements with the claims and totals written
in the record are shown under the deal ('allfours check' lists them all).

exit status: 0 sheets printed, 1 some record has rules errors or disputes,
2 unreadable input or bad options.
"""

_ITEM_NAMES = {
    ClaimItem.KICK: "Kick",
    ClaimItem.GIFT: "Gift",
    ClaimItem.HIGH: "High",
    ClaimItem.LOW: "Low",
    ClaimItem.JACK: "Jack",
    ClaimItem.HANG_JACK: "HangJack",
    ClaimItem.GAME: "Game",
    ClaimItem.PENALTY: "Penalty",
}


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("files", nargs="+", metavar="FILE", help="AFN files; '-' reads stdin")
    add_rules_arguments(parser)
    parser.add_argument("--json", action="store_true", help="print the score sheets as JSON")


def run(args: argparse.Namespace) -> int:
    chosen = rules_overrides(args)
    if isinstance(chosen, str):
        return fail(chosen)
    profile, overrides = chosen
    out = console()
    status = 0
    sheets: list[dict[str, object]] = []
    for name in args.files:
        try:
            source = read_input(name)
        except InputError as error:
            fail(str(error))
            status = 2
            continue
        result = parse(source.data, filename=source.name)
        for game in result.games:
            if game.broken:
                if not args.json:
                    out.print(f"[bold red]game {game.index}: cannot be scored (syntax error; "
                              "see 'allfours check')[/]")
                status = max(status, 1)
                continue
            options, problems = options_for(game, profile, overrides)
            replayed = replay(game, options)
            found = [*problems, *replayed.diagnostics]
            if any(d.is_error for d in found):
                status = max(status, 1)
            if args.json:
                sheets.append(sheet_json(replayed, name, found))
            else:
                print_sheet(out, replayed, found, result.text)
    if args.json:
        out.print_json(json.dumps({"games": sheets}))
    return status


# --- text -------------------------------------------------------------------------------------


def game_title(game: Game) -> str:
    players = " v ".join(f"{seat.letter} {game.tag(seat.tag_name)}" for seat in game.seats
                         if game.tag(seat.tag_name))
    bits = [game.tag("Event") or "", game.tag("Site") or "", game.tag("Date") or "", players]
    return " — ".join(bit for bit in bits if bit)


def print_sheet(out: Console, replayed: GameReplay, found: list[Diagnostic], text: str) -> None:
    game = replayed.game
    out.print(f"[bold]Game {game.index}[/]: {escape(game_title(game))}")
    out.print(f"  rules: {escape(rules_name(replayed.options))}, target "
              f"{replayed.options.target}, {replayed.options.players} players")
    for problem in found:
        if problem.deal is None and problem.code.startswith("AFN5"):
            print_diagnostic(out, problem, text)
    for deal in replayed.deals:
        print_deal(out, deal, [d for d in found if d.deal == deal.number])
    totals = "  ".join(f"{side} {value}" for side, value in replayed.scores)
    if replayed.winner is not None:
        out.print(f"[bold green]Winner: {replayed.winner}[/] ({totals}), decided "
                  f"{escape(replayed.decided or '')}")
    else:
        out.print(f"[bold]No winner yet[/] ({totals})")
    for problem in found:
        if problem.deal is None and not problem.code.startswith("AFN5"):
            out.print(f"  [red]! {escape(problem.message)}[/]")
    out.print()


def deal_heading(deal: DealResult) -> str:
    turned = ", ".join(str(card) for card in deal.turnups) or "no turn-up"
    trump = f" ({deal.trump.noun} trumps)" if deal.trump is not None else ""
    calls = "; ".join(deal.calls)
    bits = [f"deal {deal.number}", f"dealer {deal.dealer.letter if deal.dealer else '?'}",
            f"turn {turned}{trump}"]
    if calls:
        bits.append(calls)
    if deal.ending:
        bits.append(deal.ending)
    return ", ".join(bits)


def point_line(point: Point) -> str:
    """One scored item as the score sheet prints it (the recorder shows the same line)."""
    sign = "+" if point.points >= 0 else ""
    return f"{_ITEM_NAMES[point.item]:<8} {point.side:<2} {sign}{point.points:<3} {point.reason}"


def print_deal(out: Console, deal: DealResult, problems: list[Diagnostic]) -> None:
    out.print(f"[bold cyan]{escape(deal_heading(deal))}[/]")
    for point in deal.points:
        out.print(f"    {escape(point_line(point))}")
    for point in deal.unscored:
        out.print(f"    [dim]{_ITEM_NAMES[point.item]:<8} {point.side:<2} (not scored: the game "
                  "was already decided)[/]")
    gained: dict[str, int] = {}
    for point in deal.points:
        gained[point.side] = gained.get(point.side, 0) + point.points
    made = "  ".join(f"{side} {value}" for side, value in gained.items()) or "nothing"
    totals = "  ".join(f"{side} {value}" for side, value in deal.scores_after)
    out.print(f"    deal points: {made}    totals: {totals}")
    for problem in problems:
        colour = "red" if problem.is_error else "yellow"
        out.print(f"    [{colour}]! {problem.code} {escape(problem.message)}[/]")


# --- JSON -------------------------------------------------------------------------------------


def sheet_json(replayed: GameReplay, name: str, found: list[Diagnostic]) -> dict[str, object]:
    game = replayed.game
    return {
        "file": name,
        "game": game.index,
        "event": game.tag("Event"),
        "rules": rules_name(replayed.options),
        "options": {option: replayed.options.describe(option)
                    for option in replayed.options.__dataclass_fields__},
        "deals": [deal_json(deal) for deal in replayed.deals],
        "scores": dict(replayed.scores),
        "winner": replayed.winner,
        "decided": replayed.decided,
        "diagnostics": [diagnostic_json(d) for d in found],
    }


def deal_json(deal: DealResult) -> dict[str, object]:
    gained: dict[str, int] = {}
    for point in deal.points:
        gained[point.side] = gained.get(point.side, 0) + point.points
    return {
        "number": deal.number,
        "dealer": deal.dealer.letter if deal.dealer else None,
        "elder": deal.elder.letter if deal.elder else None,
        "turnups": [str(card) for card in deal.turnups],
        "trump": deal.trump.letter if deal.trump else None,
        "calls": list(deal.calls),
        "points": [
            {"item": p.item.value, "side": p.side, "seat": p.seat.letter if p.seat else None,
             "points": p.points, "reason": p.reason}
            for p in deal.points
        ],
        "unscored": [{"item": p.item.value, "side": p.side, "points": p.points}
                     for p in deal.unscored],
        "deal_points": gained,
        "scores_after": dict(deal.scores_after),
        "ending": deal.ending,
        "complete": deal.complete,
    }
