"""``allfours score``: a score sheet per game, deal by deal, as the referee computes it."""

from __future__ import annotations

import argparse
import json
import sys
from dataclasses import fields

from rich.console import Console
from rich.markup import escape

from ..checking import GivenRules, check
from ..checking.parsing import parse
from ..diagnostics import Diagnostic, LineIndex
from ..guard import INTERNAL_ERROR
from ..reading.records import Game
from ..referee.disputes import rules_name
from ..referee.replay import DealResult, GameReplay
from ..visible import for_stdout, visible
from ..writing.export import option_value
from ..writing.sheet import DealSheet, GameSheet, game_sheet, html_document, markdown, text_lines
from .check import DISPUTES_ONLY, diagnostic_json, print_diagnostic
from .inputs import InputError, console, expanded_or_fail, fail, read_afn
from .rules import add_rules_arguments, rules_overrides

NAME = "score"
HELP = "print the computed score sheet of each game"
DESCRIPTION = """\
Replay every game of each FILE under its rules and print a score sheet: deal by
deal the dealer, the turn-up, the beg, who took each item and why, and beside it
what the record claimed (✓ when it agrees, else what it claimed); for Game the
counting cards each side took and their pips ('N: 10♥ A♠ K♦ = 17 · S: Q♣ = 2');
the deal's points and the running totals beside the written total (✓ or the
difference); then the winner and the moment the game was decided ("deal 7, at
High").  A deal still being played (the record stops in it) counts only what
is decided; what would score if it ended now is shown as provisional ("(+1)",
"provisional" in JSON) and counts for nobody, so it never wins the game.
Sides are always listed in table order (N E S W; NS before EW).  The
root causes of any problem are shown under the deal ('allfours check' explains
them).

  --format text      for a terminal (the default)
  --format markdown  a Markdown page (tables per deal)
  --format html      one printable, self-contained HTML page (no scripts, no
                     outside files) that a club can post or print
  --json             the sheets as JSON data

exit status: 0 sheets printed, 1 some record has errors, 2 unreadable input or
bad options, 3 some record has disputes (a claim the cards or rules do not
give, recorded as made) and none has errors, as 'allfours check'.
"""

FORMATS = ("text", "markdown", "html")


def positive(text: str) -> int:
    """An argparse type: a whole number from 1 on."""
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a whole number") from None
    if value < 1:
        raise argparse.ArgumentTypeError(f"{value}: numbering starts at 1")
    return value


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("files", nargs="+", metavar="FILE",
                        help="AFN files or folders (every .afn file under them); '-' reads stdin")
    add_rules_arguments(parser)
    parser.add_argument("--format", choices=FORMATS, default="text",
                        help="text (default), markdown, or html: a printable page")
    parser.add_argument("--json", action="store_true", help="print the score sheets as JSON")
    parser.add_argument("--game", type=positive, metavar="N",
                        help="only game N of each file (1-based)")
    parser.add_argument("--deal", type=positive, metavar="N",
                        help="only deal N of each game (its totals still count every deal)")
    parser.add_argument("--ascii", action="store_true",
                        help="write suits as letters (JS) instead of symbols (J♠)")


def run(args: argparse.Namespace) -> int:
    chosen = rules_overrides(args)
    if isinstance(chosen, int):
        return chosen
    if args.json and args.format != "text":
        return fail("--json and --format are alternatives: give one")
    profile, overrides, house = chosen
    out = console()
    unicode = not args.ascii
    names, unreadable = expanded_or_fail(args.files)
    status = 2 if unreadable else 0
    disputed = False
    sheets: list[dict[str, object]] = []
    reading: list[dict[str, object]] = []  # the files' own diagnostics, for --json
    pages: list[GameSheet] = []
    next_id = 1
    for name in names:
        try:
            source = read_afn(name)
        except InputError as error:
            fail(str(error))
            status = 2
            continue
        result = parse(source.data, filename=source.name)
        lines = LineIndex(result.text)
        # What concerns the file itself (bytes that are not UTF-8, the version line) and
        # any internal fault: reported as 'check' reports them, on stderr unless text.
        report = out if args.format == "text" and not args.json else console(stderr=True)
        for problem in (d for d in result.diagnostics
                        if d.game is None or d.code == INTERNAL_ERROR):
            status = max(status, 1) if problem.is_error else status
            if args.json:
                reading.append(diagnostic_json(problem))
            else:
                print_diagnostic(report, problem, lines)
        for game in result.games:
            if args.game is not None and game.index != args.game:
                continue
            if game.broken:
                if not args.json:
                    out.print(f"[bold red]game {game.index}: cannot be scored (syntax error; "
                              "see 'allfours check')[/]")
                status = max(status, 1)
                continue
            scored = _scored(game, (profile, overrides, house), next_id)
            if isinstance(scored, Diagnostic):
                status = max(status, 1)
                if args.json:
                    reading.append(diagnostic_json(scored))
                else:
                    print_diagnostic(report, scored, lines)
                continue
            replayed, found = scored
            next_id += len(found)
            if any(d.is_error for d in found):
                status = max(status, 1)
            disputed |= any(d.is_dispute for d in found)
            if args.deal is not None and all(d.number != args.deal for d in replayed.deals):
                fail(f"{name}: game {game.index} has no deal {args.deal}")
                status = 2
                continue
            sheet = game_sheet(replayed, found, unicode=unicode, deal=args.deal)
            if args.json:
                sheets.append(sheet_json(replayed, name, found, deal=args.deal))
            elif args.format == "text":
                for style, line in text_lines(sheet, unicode=unicode):
                    line = visible(line)
                    out.print(f"[{style}]{escape(line)}[/]" if style else escape(line))
            elif args.format == "markdown":
                sys.stdout.write(for_stdout(markdown(sheet, unicode=unicode) + "\n"))
            else:
                pages.append(sheet)
    if args.json:
        print_json(out, {"games": sheets, "diagnostics": reading})
    elif args.format == "html":
        title = "Score sheet: " + ", ".join(args.files)
        sys.stdout.write(for_stdout(html_document(pages, title=title, unicode=unicode)))
    return DISPUTES_ONLY if status == 0 and disputed else status


def _scored(game: Game, rules: GivenRules, first_id: int
            ) -> tuple[GameReplay, list[Diagnostic]] | Diagnostic:
    """The game checked by the one door (:func:`..checking.check`): its replay and its
    explained diagnostics, or the internal-error diagnostic (AFN901) when the referee
    has a bug."""
    checked = check(game, rules, first_id=first_id, empty=True)
    if checked.replay is None:
        return next(d for d in checked.diagnostics if d.code == INTERNAL_ERROR)
    return checked.replay, list(checked.diagnostics)


# --- JSON -------------------------------------------------------------------------------------


def sheet_json(replayed: GameReplay, name: str, found: list[Diagnostic], *,
               deal: int | None = None) -> dict[str, object]:
    game = replayed.game
    sheet = game_sheet(replayed, found, unicode=False)
    checks = {d.number: d for d in sheet.deals}
    return {
        "file": name,
        "game": game.index,
        "event": game.tag("Event"),
        "rules": rules_name(replayed.options),
        "options": {f.name: option_value(getattr(replayed.options, f.name))
                    for f in fields(replayed.options)},
        "deals": [deal_json(d, checks[d.number], sheet.sides) for d in replayed.deals
                  if deal is None or d.number == deal],
        "scores": dict(replayed.scores),
        "winner": replayed.winner,
        "decided": replayed.decided,
        "diagnostics": [diagnostic_json(d) for d in found],
    }


def deal_json(deal: DealResult, checked: DealSheet, sides: tuple[str, ...]) -> dict[str, object]:
    gained = dict.fromkeys(sides, 0)
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
             "points": p.points, "reason": p.reason, "status": "decided"}
            for p in deal.points
        ],
        # a deal still being played: what would score if it ended now, counted nowhere
        "provisional": [
            {"item": p.item.value, "side": p.side, "seat": p.seat.letter if p.seat else None,
             "points": p.points, "reason": p.reason,
             "status": "decided" if p in deal.waiting else "provisional"}
            for p in deal.provisional
        ],
        "open": deal.open,
        "unscored": [{"item": p.item.value, "side": p.side, "points": p.points}
                     for p in deal.unscored],
        "claimed": [{"item": line.item.value, "side": line.side or None,
                     "verdict": line.claimed} for line in checked.items if line.claimed],
        "counting": {c.side: {"cards": [str(card) for card in c.cards], "pips": c.pips}
                     for c in checked.counting},
        "deal_points": gained,
        "scores_after": dict(deal.scores_after),
        "written_total": checked.written_total,
        "total_check": checked.total_check or None,
        "ending": deal.ending,
        "complete": deal.complete,
    }


def print_json(out: Console, data: object) -> None:
    """``Console.print_json`` of ``data`` (the same text and colours), with control
    characters in strings written as JSON escapes: the same data, inert on a terminal."""
    from rich.highlighter import JSONHighlighter

    text = JSONHighlighter()(visible(json.dumps(data, indent=2, ensure_ascii=False),
                                     lines=True))
    text.no_wrap = True
    text.overflow = None
    out.print(text, soft_wrap=True)
