"""``allfours event``: an event's checks, match sheets, standings, prize list and
``results.json``, from its event file and its folder of games."""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from ..diagnostics import Diagnostic, LineIndex, Severity
from ..visible import for_stdout
from .inputs import fail

if TYPE_CHECKING:
    from ..events.replays import MadePage

NAME = "event"
HELP = "an event's sheets, standings and prize list from its event file and games"
DESCRIPTION = """\
Read an event file (EVENT.toml: the event, its rules and scoring, the match rule,
the teams and their players, optionally the schedule, byes, tie-breaks and prizes;
see docs/events.md) and the AFN games of GAMES (a folder, read recursively; by
default the folder 'games' beside the event file, else the event file's folder).
Each game is tagged with its place: [Round "1"], [Table "3"], [HomeTeam "..."],
[AwayTeam "..."]; its seats name the pairs' players.  Every game is refereed under
the event's rules; results are the referee's, never the claims.

  check      every game placed at a scheduled match and table, seats against the
             pairs, every deal through the referee, forfeits, two files for one
             table, and the tables that have not reported
  sheet      per match, per table the games with their scores, bullseyes, Hang
             Jacks, disputes and rulings; running totals, half time, where a race
             ended
  standings  per division and overall, ranked by the tie-break chain (shown),
             and the knock-out seeded from them when the event file asks for one
  prizes     each prize with its winner and the evidence, or why these records
             cannot decide it
  ratings    every player and partnership rated with openskill over the games in
             the order played (mean, uncertainty, ordinal = mean - 3 x uncertainty)
  results    the results.json exchange file (docs/events.md; -o FILE writes it
             whole or not at all)
  export     the event's tables (event, teams, players, matches, tables, each
             game's place and count, standings) into an SQLite database (--sqlite
             DB) or CSV files (--csv DIR); games join the archive's export on
             their digest
  site       a static, offline, printable results site in the folder -o DIR: the
             standings, every match's sheet, a page per team, the prizes, the
             ratings and each game's replay page (--no-replays leaves them out;
             --advice adds at each call what 'allfours advise' would have said,
             --advice-samples K deals an option, default 20: seconds a call)

exit status: 0 done (check: nothing wrong), 1 check found problems, 2 the event
file has mistakes or an input cannot be read.
"""

ACTIONS = ("check", "sheet", "standings", "prizes", "ratings", "results", "export", "site")


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("action", choices=ACTIONS, metavar="ACTION",
                        help=f"what to compute: {', '.join(ACTIONS)}")
    parser.add_argument("event", metavar="EVENT", help="the event file (EVENT.toml)")
    parser.add_argument("games", nargs="?", metavar="GAMES",
                        help="the folder of the event's AFN games")
    parser.add_argument("--json", action="store_true",
                        help="the same as JSON (the part of results.json it shows)")
    parser.add_argument("-o", "--output", metavar="PATH",
                        help="results: write results.json to the file PATH instead of standard "
                        "output; site: the folder to write the site into (required)")
    form = parser.add_mutually_exclusive_group()
    form.add_argument("--sqlite", metavar="DB", help="export: the SQLite database to write")
    form.add_argument("--csv", metavar="DIR", help="export: the folder of CSV files to write")
    parser.add_argument("--no-replays", action="store_true",
                        help="site: leave out each game's replay page")
    parser.add_argument("--advice", action="store_true",
                        help="site: each replay page shows what the advisor would have said "
                        "at each call")
    parser.add_argument("--advice-samples", type=int, default=20, metavar="K",
                        help="site, with --advice: sampled deals per option (default 20)")
    parser.add_argument("-j", "--jobs", type=int, default=1, metavar="N",
                        help="read the game files in N worker processes (default 1)")
    parser.add_argument("--no-cache", action="store_true",
                        help="read every game file afresh, neither using nor filling the "
                        "cache of games already read (kept by each file's digest)")


def games_folder(event_file: Path, given: str | None) -> Path:
    if given is not None:
        return Path(given)
    beside = event_file.parent / "games"
    return beside if beside.is_dir() else event_file.parent


def run(args: argparse.Namespace) -> int:
    from ..events.eventfile import read_event_file

    loaded = read_event_file(args.event)
    _print_diagnostics(loaded.diagnostics, {args.event: loaded.text}, to_stderr=True)
    if loaded.has_errors or loaded.event is None:
        return fail(f"{args.event}: the event file has mistakes; nothing computed")
    folder = games_folder(Path(args.event), args.games)
    if not folder.is_dir():
        return fail(f"{folder}: not a folder of games")
    if args.jobs < 1:
        return fail("--jobs must be at least 1")
    from ..events.cache import FactsCache
    from ..events.games import read_folder
    from ..events.report import build_report

    cache = None if args.no_cache else FactsCache()
    try:
        # the site's replay pages made from the facts' own replay (one referee run a game)
        paged = args.action == "site" and not args.no_replays
        read = read_folder(folder, loaded.event.given_rules, jobs=args.jobs, cache=cache,
                           pages=paged, advice_samples=args.advice_samples
                           if paged and args.advice else None,
                           kept=frozenset(path.name for path in Path(args.output).glob(
                               "game-*.html")) if paged and args.output else frozenset())
    finally:
        if cache is not None:
            cache.close()
    report = build_report(loaded.event, read)
    if args.action == "check":
        return _check(report, args.json)
    if args.action == "site":
        return _site(report, args, read.pages)
    if args.action == "export":
        return _export(report, args)
    return _show(report, args)


def _check(report: object, as_json: bool) -> int:
    from ..events.report import EventReport

    assert isinstance(report, EventReport)
    found = report.assembled.diagnostics
    if as_json:
        data = [{"code": d.code, "severity": d.severity.value, "message": d.message,
                 "file": d.file, "line": d.line, "column": d.column, "game": d.game,
                 "hint": d.hint} for d in found]
        _write(json.dumps(data, indent=2, ensure_ascii=False) + "\n")
    else:
        texts = {d.file: _text_of(d.file) for d in found if d.file}
        _print_diagnostics(found, texts, to_stderr=False)
        games = sum(len(t.games) for m in report.assembled.matches for t in m.tables) + len(
            report.assembled.unplaced)
        errors = sum(1 for d in found if d.severity is Severity.ERROR)
        warnings = sum(1 for d in found if d.severity is Severity.WARNING)
        _write(f"{games} game{'s' if games != 1 else ''} in "
               f"{len(report.assembled.matches)} match"
               f"{'es' if len(report.assembled.matches) != 1 else ''}: {errors} error"
               f"{'s' if errors != 1 else ''}, {warnings} warning"
               f"{'s' if warnings != 1 else ''}\n")
    return 1 if any(d.severity is not Severity.INFO for d in found) else 0


def _show(report: object, args: argparse.Namespace) -> int:
    from ..events import report as out

    assert isinstance(report, out.EventReport)
    if args.action == "results":
        text = json.dumps(out.results_json(report), indent=2, ensure_ascii=False) + "\n"
        if args.output:
            return _save(args.output, text)
        _write(text)
        return 0
    if args.json:
        data: object = {"sheet": out.sheet_json, "standings": out.standings_json,
                        "prizes": out.prizes_json, "ratings": out.ratings_json,
                        }[args.action](report)
        _write(json.dumps(data, indent=2, ensure_ascii=False) + "\n")
        return 0
    text = {"sheet": out.sheet_text, "standings": out.standings_text,
            "prizes": out.prizes_text, "ratings": out.ratings_text}[args.action](report)
    _write(text)
    return 0


def _site(report: object, args: argparse.Namespace, premade: Sequence[MadePage]) -> int:
    from ..events.report import EventReport
    from ..events.site import site_pages
    from ..safe_write import OutputFolder, OutputRefused

    assert isinstance(report, EventReport)
    if not args.output:
        return fail("site: name the folder to write it into with -o DIR")
    out = Path(args.output)
    if args.advice and args.advice_samples < 1:
        return fail(f"AFN706: --advice-samples: give at least 1 ({args.advice_samples} given)")
    pages = site_pages(report, replays=not args.no_replays,
                       existing=lambda name: (out / name).is_file(),
                       advice_samples=args.advice_samples if args.advice else None,
                       premade=premade)
    try:
        with OutputFolder(out, force=True) as folder:
            for name, text in sorted(pages.items()):
                if text is not None:
                    folder.write(name, text.encode("utf-8"))
        stale = [p for p in out.glob("game-*.html") if p.name not in pages]
        for path in stale:  # the replay pages of games changed or gone since the last build
            path.unlink()
    except (OSError, OutputRefused) as error:
        return fail(f"{args.output}: cannot write: {getattr(error, 'strerror', None) or error}")
    written = sum(1 for text in pages.values() if text is not None)
    sys.stderr.write(f"{written} files written to {args.output}"
                     + (f", {len(pages) - written} replay pages kept" if written < len(pages)
                        else "") + (f", {len(stale)} removed" if stale else "") + "\n")
    return 0


def _export(report: object, args: argparse.Namespace) -> int:
    from ..events.export import write_csv, write_sqlite
    from ..events.report import EventReport
    from ..safe_write import OutputRefused

    assert isinstance(report, EventReport)
    if not args.sqlite and not args.csv:
        return fail("export: name --sqlite DB or --csv DIR")
    target = args.sqlite or args.csv
    try:
        if args.sqlite:
            write_sqlite(report, args.sqlite)
        else:
            write_csv(report, args.csv)
    except (OSError, OutputRefused) as error:
        return fail(f"{target}: cannot write: {getattr(error, 'strerror', None) or error}")
    return 0


def _save(name: str, text: str) -> int:
    from ..safe_write import OutputRefused, stage

    try:
        with stage(name) as stream:
            stream.write(text.encode("utf-8"))
    except (OSError, OutputRefused) as error:
        return fail(f"{name}: cannot write: {getattr(error, 'strerror', None) or error}")
    return 0


def _text_of(name: str) -> str:
    try:
        return Path(name).read_text(encoding="utf-8", errors="replace")
    except OSError:
        return ""


def _print_diagnostics(found: tuple[Diagnostic, ...], texts: dict[str, str], *,
                       to_stderr: bool) -> None:
    indexes = {name: LineIndex(text) for name, text in texts.items()}
    for diagnostic in found:
        shown = diagnostic.render(indexes.get(diagnostic.file or "")) + "\n"
        if to_stderr:
            sys.stderr.write(shown)
        else:
            _write(shown)


def _write(text: str) -> None:
    sys.stdout.write(for_stdout(text))
