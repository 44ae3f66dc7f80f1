"""``allfours check``: parse each file and report every diagnostic."""

from __future__ import annotations

import argparse
import json
from collections.abc import Iterator

from rich.markup import escape

from ..diagnostics import Diagnostic, LineIndex, Severity, sort_key
from ..guard import guarded
from ..parser import FileReader, read_games
from ..records import Game
from ..rules.replay import check_game
from .inputs import InputError, console, fail, read_input

NAME = "check"
HELP = "check AFN files and report every problem"
DESCRIPTION = """\
Read each FILE (or standard input for '-'), parse every game, replay it under
its rules and report each problem with its position, a stable code and the
offending line: syntax and structure (AFN1xx, AFN2xx), rules of play (AFN3xx),
claims and totals that disagree with the computed score (AFN4xx) and unknown
rules or options (AFN5xx).  A broken game never hides the others.  Ends with a
summary line: 'N games, M with errors'.  --rules and --set replay every game
under other rules than the file names.

exit status: 0 no errors (warnings allowed), 1 errors found, 2 unreadable input.
"""

_STYLE = {Severity.ERROR: "bold red", Severity.WARNING: "yellow", Severity.INFO: "cyan"}


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("files", nargs="+", metavar="FILE", help="AFN files; '-' reads stdin")
    parser.add_argument("--json", action="store_true", help="print diagnostics as JSON")
    parser.add_argument("--quiet", "-q", action="store_true", help="print only the summary")
    parser.add_argument("--warnings-as-errors", action="store_true", help="exit 1 on warnings too")
    parser.add_argument("--no-rules", action="store_true",
                        help="parse only: skip the rules replay and the dispute report")
    from .rules import add_rules_arguments

    add_rules_arguments(parser)


def run(args: argparse.Namespace) -> int:
    from .rules import rules_overrides

    chosen = rules_overrides(args)
    if isinstance(chosen, str):
        return fail(chosen)
    out = console()
    games = broken = errors = warnings = 0
    unreadable = False
    records: list[dict[str, object]] = []
    for name in args.files:
        try:
            source = read_input(name)
        except InputError as error:
            fail(str(error))
            unreadable = True
            continue
        reader = read_games(source.data, filename=source.name)
        del source  # the decoded text is all that is kept of the file
        lines = LineIndex(reader.text)  # built once per file: printing stays linear
        rules = None if args.no_rules else chosen
        for diagnostics, with_errors in file_diagnostics(reader, rules):
            games += with_errors is not None
            broken += bool(with_errors)
            errors += sum(1 for d in diagnostics if d.severity is Severity.ERROR)
            warnings += sum(1 for d in diagnostics if d.severity is Severity.WARNING)
            if args.json:
                records.extend(diagnostic_json(d) for d in diagnostics)
            elif not args.quiet:
                for diagnostic in diagnostics:
                    print_diagnostic(out, diagnostic, lines)
    if args.json:
        out.print_json(
            json.dumps({"diagnostics": records, "games": games, "games_with_errors": broken})
        )
    else:
        out.print(summary_line(games, broken, errors, warnings))
    if unreadable:
        return 2
    if errors or (args.warnings_as_errors and warnings):
        return 1
    return 0


def file_diagnostics(
    reader: FileReader, rules: tuple[str | None, dict[str, str]] | None
) -> Iterator[tuple[list[Diagnostic], bool | None]]:
    """The diagnostics of a file in the order they are reported, a game at a time.

    First what concerns the whole file (with ``None``), then each game's (with
    whether it has errors): the parser's and, unless ``rules`` is None, the rules
    and dispute diagnostics, sorted.  Only one game's records are alive at a time,
    so memory does not grow with the number of games.
    """
    yield [*reader.diagnostics, *reader.closing_diagnostics()], None
    for game in reader.games():
        mine = list(game.diagnostics)
        if rules is not None and not game.broken:
            mine.extend(rules_diagnostics(game, rules))
            mine.sort(key=sort_key)
        yield mine, game.has_errors if rules is None else any(d.is_error for d in mine)


def rules_diagnostics(game: Game, rules: tuple[str | None, dict[str, str]]) -> list[Diagnostic]:
    """The rules, options and dispute diagnostics of one game; an internal fault
    becomes one AFN901 at the game instead of a traceback."""
    from ..rules.profiles import resolve_options

    def work() -> list[Diagnostic]:
        profile, overrides = rules
        options, problems = resolve_options(game, profile=profile, overrides=overrides)
        return [*problems, *check_game(game, options)]

    where = game.span
    return guarded(work, lambda problem: [problem], doing="checking this game's rules",
                   file=game.source, line=where.line if where else None,
                   column=where.column if where else None, game=game.index)


def summary_line(games: int, broken: int, errors: int, warnings: int) -> str:
    plural = "game" if games == 1 else "games"
    text = f"{games} {plural}, {broken} with errors"
    extras = []
    if errors:
        extras.append(f"{errors} error{'s' if errors != 1 else ''}")
    if warnings:
        extras.append(f"{warnings} warning{'s' if warnings != 1 else ''}")
    return text + (f" ({', '.join(extras)})" if extras else "")


def print_diagnostic(out: object, diagnostic: Diagnostic, text: str | LineIndex) -> None:
    from rich.console import Console

    assert isinstance(out, Console)
    lines = diagnostic.render(text).split("\n")
    style = _STYLE[diagnostic.severity]
    out.print(f"[{style}]{escape(lines[0])}[/]")
    for line in lines[1:]:
        out.print(escape(line))


def diagnostic_json(diagnostic: Diagnostic) -> dict[str, object]:
    return {
        "code": diagnostic.code,
        "severity": diagnostic.severity.value,
        "message": diagnostic.message,
        "file": diagnostic.file,
        "line": diagnostic.line,
        "column": diagnostic.column,
        "game": diagnostic.game,
        "deal": diagnostic.deal,
        "trick": diagnostic.trick,
        "hint": diagnostic.hint,
    }
