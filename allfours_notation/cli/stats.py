"""``allfours stats``: standings and statistics over a set of games, with plots."""

from __future__ import annotations

import argparse
import json
import sys

from rich.console import Console
from rich.measure import Measurement
from rich.table import Table
from rich.text import Text

from ..archive.accuracy import AccuracyRow
from ..archive.stats import COLUMNS, ProfileStats, Row, StatsBuilder, Summary
from ..visible import CsvRows, TerminalSafe, for_markup, for_stdout, spreadsheet_cell, visible
from .archive_inputs import walk
from .inputs import console, fail
from .progress import progress_bar

NAME = "stats"
HELP = "standings and statistics over a set of games; --plot draws charts"
DESCRIPTION = """\
Replay every game of each FILE (a folder stands for every .afn file under it,
recursively, in sorted order; '-' reads stdin) and print, per rule profile:

  standings per player and, in four-handed games, per partnership: games, wins,
  points for and against, deals, average points per deal;
  items: how often each took High, Low, Jack and Game, Jacks hanged (Hang Jack
  scored), kicks and their points, gifts received, penalty points;
  calls: begs and how many won the deal (the beggar's side made the most
  points), how the player answered a beg as dealer (gave or ran), turned Jacks
  as dealer, revokes declared against the player;
  accuracy (once 'allfours analyse' has been run on the games): per player the
  deals analysed and the points lost per deal, all hands seen (double dummy).

Points are the referee's, not the claims written in the record.  A game that
cannot be parsed is counted as unreadable.

--json and --csv write every figure (CSV in long form: one row per profile,
table, name and measure).  --plot FILE.png or FILE.svg draws three charts:
the score of one game deal by deal (--plot-game, in date order), the items
each player took, and the wins over the season; it needs matplotlib, the
optional extra: pip install 'allfours-notation[plots]'.

exit status: 0 done, 1 some game could not be read, 2 unreadable input or
plotting unavailable.
"""


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("files", nargs="+", metavar="FILE",
                        help="AFN files or folders of them; '-' reads stdin")
    form = parser.add_mutually_exclusive_group()
    form.add_argument("--json", action="store_true", help="every figure as JSON")
    form.add_argument("--csv", action="store_true", help="every figure as long-form CSV")
    parser.add_argument("--plot", metavar="FILE", help="draw the charts into FILE (.png or .svg)")
    parser.add_argument("--plot-game", type=int, default=1, metavar="N",
                        help="the game (N-th in date order) whose score progression is drawn")


def run(args: argparse.Namespace) -> int:
    if args.plot and not args.plot.lower().endswith((".png", ".svg")):
        return fail(f"--plot {args.plot!r}: name a .png or .svg file")
    summary, (unreadable, faulty), accuracy = gather(args.files)
    if unreadable is None:  # no input could be read: each said why, and that is all
        return 2
    if args.json:
        data = summary.as_json()
        if accuracy:
            data["accuracy"] = [row.as_json() for row in accuracy]
        sys.stdout.write(for_stdout(json.dumps(data, indent=2, ensure_ascii=False) + "\n"))
    elif args.csv:
        write_csv(summary)
        write_accuracy_csv(accuracy)
    else:
        print_tables(summary)
        print_accuracy(accuracy)
    if args.plot:
        from ..archive.plots import PlotsUnavailable, save_plots

        try:
            save_plots(summary, args.plot, game=args.plot_game)
        except PlotsUnavailable as error:
            return fail(str(error))
        except OSError as error:
            return fail(f"{args.plot}: cannot write: {error.strerror or error}")
    if unreadable:
        return 2
    return 1 if summary.unreadable or faulty else 0


def gather(names: list[str]) -> tuple[Summary, tuple[bool | None, bool],
                                      tuple[AccuracyRow, ...]]:
    """The summary of every game of ``names``; whether some input could not be read (None:
    none could), and whether a file met an internal error (its line already printed);
    the accuracy rows."""
    from ..archive.accuracy import Accuracy
    from ..archive.analysis import analyse

    files = walk(names)
    builder = StatsBuilder()
    accuracy = Accuracy()
    analysed = accuracy.available  # 'allfours analyse' has been run on this machine
    with progress_bar(files.names, "replaying") as advance:
        for scanned in files.scans():
            with files.each(scanned):
                for header in scanned.headers:
                    game = scanned.game(header)
                    found = analyse(game)
                    builder.add(found, f"{scanned.name}:{header.index}")
                    if analysed and found.replay is not None:
                        accuracy.add(game, found.replay)
                    advance(header.end - header.start)
    accuracy.close()
    unreadable = None if files.unreadable and not files.read else files.unreadable
    return builder.summary(), (unreadable, files.faulty), accuracy.rows()


def print_accuracy(rows: tuple[AccuracyRow, ...]) -> None:
    """Points lost per deal, from the cached analyses (none: nothing printed)."""
    if not rows:
        return
    table = Table(title="accuracy, players: points lost per deal, all hands seen (double "
                  "dummy; from 'allfours analyse')", title_justify="left", show_edge=False,
                  pad_edge=False)
    for heading in ("name", "deals analysed", "points lost", "cards flagged", "lost per deal"):
        table.add_column(heading, justify="left" if heading == "name" else "right")
    for row in rows:
        table.add_row(Text(visible(row.name)), str(row.deals), str(row.points_lost),
                      str(row.flagged), f"{row.lost_per_deal:.2f}")
    _print_whole(console(), table)


def write_accuracy_csv(rows: tuple[AccuracyRow, ...]) -> None:
    writer = CsvRows(TerminalSafe(sys.stdout) if sys.stdout.isatty() else sys.stdout)
    for row in rows:
        for key, value in row.as_json().items():
            if key != "name":
                writer.writerow(("", "accuracy", spreadsheet_cell(row.name), key, value))


# --- output -----------------------------------------------------------------------------------

_TABLES: tuple[tuple[str, tuple[str, ...]], ...] = (
    ("standings", ("games", "wins", "points_for", "points_against", "deals",
                   "points_per_deal")),
    ("items", ("high", "low", "jack", "game", "hang_jack", "kicks", "kick_points", "gifts",
               "penalty_points")),
    ("calls", ("begs", "begs_won", "gave", "ran", "turned_jacks", "revokes")),
)
_HEADINGS = dict(COLUMNS)


def print_tables(summary: Summary) -> None:
    out = console()
    for profile in summary.profiles:
        out.print(f"[bold]{for_markup(profile.rules)}[/]: {profile.games} game"
                  f"{'s' if profile.games != 1 else ''}, {profile.deals} deals, "
                  f"{profile.points} points, {profile.points_per_deal:.2f} points per deal")
        for title, keys in _TABLES:
            _print_whole(out, _table(f"{title}, players", keys, profile.players))
            if profile.sides:
                _print_whole(out, _table(f"{title}, partnerships", keys, profile.sides))
    if summary.unreadable:
        out.print(f"[red]{summary.unreadable} game(s) could not be read (see 'allfours check')[/]")
    if not summary.profiles and not summary.unreadable:
        out.print("no games")


def _print_whole(out: Console, table: Table) -> None:
    """A table at its natural width, even wider than the terminal: a name cut over
    three lines is harder to read than a line that runs on."""
    width = Measurement.get(out, out.options.update_width(10_000), table).maximum
    wide = Console(file=out.file, width=max(width, out.width), highlight=False, emoji=False,
                   no_color=out.no_color, force_terminal=out.is_terminal)
    out.print(f"[bold]{table.title}[/]")
    table.title = None
    wide.print(table)


def _table(title: str, keys: tuple[str, ...], rows: tuple[Row, ...]) -> Table:
    table = Table(title=title, title_justify="left", show_edge=False, pad_edge=False)
    table.add_column("name")
    for key in keys:
        table.add_column(_HEADINGS[key], justify="right")
    for row in rows:
        table.add_row(Text(visible(row.name)), *(_number(row.get(key)) for key in keys))
    return table


def _number(value: int | float) -> str:
    return f"{value:.2f}" if isinstance(value, float) else str(value)


def write_csv(summary: Summary) -> None:
    writer = CsvRows(TerminalSafe(sys.stdout) if sys.stdout.isatty() else sys.stdout)
    writer.writerow(("rules", "table", "name", "measure", "value"))
    for profile in summary.profiles:
        for group, rows in (("players", profile.players), ("partnerships", profile.sides)):
            for row in rows:
                writer.writerows((spreadsheet_cell(profile.rules), group,
                                  spreadsheet_cell(row.name), key, _number(value))
                                 for key, value in row.values)
        writer.writerows(_profile_rows(profile))
    if summary.unreadable:
        writer.writerow(("", "archive", "", "unreadable_games", summary.unreadable))


def _profile_rows(profile: ProfileStats) -> list[tuple[str, str, str, str, str]]:
    rules = str(spreadsheet_cell(profile.rules))
    return [(rules, "profile", "", key, value) for key, value in (
        ("games", str(profile.games)), ("deals", str(profile.deals)),
        ("points", str(profile.points)), ("points_per_deal", f"{profile.points_per_deal:.2f}"))]
