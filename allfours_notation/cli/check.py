"""``allfours check``: parse each file and report every diagnostic."""

from __future__ import annotations

import argparse
import gc
import json
from collections.abc import Iterator
from dataclasses import fields
from operator import attrgetter
from typing import TYPE_CHECKING, cast

from rich.markup import escape

from ..causes import Group, explain, follow_text, link_causes, roots_first
from ..diagnostics import Diagnostic, LineIndex, Severity
from ..guard import internal_error
from ..parser import FileReader, check_read_game, read_game_body, read_games
from ..records import Game
from ..rules.profiles import Options, resolve_options
from ..rules.replay import replay
from ..rules.state import GameReplay
from ..slicer import Slices
from .inputs import InputError, console, expanded_or_fail, fail, read_input
from .progress import Advance, progress_bar

if TYPE_CHECKING:
    from rich.console import Console

    from ..archive.parallel import WorkerPool
    from ..rules.profiles import Profile

NAME = "check"
HELP = "check AFN files and report every problem"
DESCRIPTION = """\
Read each FILE (or standard input for '-'), parse every game, replay it under
its rules and report each problem with its position, a stable code and the
offending line: syntax and structure (AFN1xx, AFN2xx), rules of play (AFN3xx),
claims and totals that disagree with the computed score (AFN4xx) and unknown
rules or options (AFN5xx).  A broken game never hides the others.

One slip makes one error: each problem is linked to the root cause it follows
from (a card left out of a trick makes later leads "out of turn", the claim and
the totals wrong).  Roots are printed in file order, each followed by one line
'and N errors that follow from it'; --all prints those too.  Where a small fix
explains a deal (a card missing, an extra card, a card written twice, two plays
swapped, a wrong seat label: AFN221-AFN225, or a digit typo in a total), the
root says what to write.  Ends with a summary line: 'N games, M with errors'.
--rules and --set replay every game under other rules than the file names.
A FILE may be a folder: every .afn file under it is checked, in sorted order.

Games are checked by -j N worker processes (default: one per core); the output
is the same, byte for byte and in the same order, whatever N.  On a terminal a
progress bar on standard error shows how far a long run has got.

exit status: 0 no errors (warnings allowed), 1 errors found, 2 unreadable input.
"""

_STYLE = {Severity.ERROR: "bold red", Severity.WARNING: "yellow", Severity.INFO: "cyan"}


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("files", nargs="+", metavar="FILE",
                        help="AFN files or folders of them; '-' reads stdin")
    parser.add_argument("-j", "--jobs", type=_jobs, default=None, metavar="N",
                        help="check games in N processes (default: one per core; 1: no "
                        "worker processes)")
    parser.add_argument("--json", action="store_true", help="print diagnostics as JSON")
    parser.add_argument("--quiet", "-q", action="store_true", help="print only the summary")
    parser.add_argument("--all", action="store_true", dest="show_all",
                        help="print every problem, also those that follow from a root cause "
                        "(each under its root)")
    parser.add_argument("--warnings-as-errors", action="store_true", help="exit 1 on warnings too")
    parser.add_argument("--no-rules", action="store_true",
                        help="parse only: skip the rules replay and the dispute report")
    from .rules import add_rules_arguments

    add_rules_arguments(parser)


def run(args: argparse.Namespace) -> int:
    from .rules import rules_overrides

    chosen = rules_overrides(args)
    if isinstance(chosen, int):
        return chosen
    from ..archive.parallel import WorkerPool, cpu_count

    out = console()
    games = broken = errors = warnings = roots = 0
    next_id = 1
    names, unreadable = expanded_or_fail(args.files)
    records: list[dict[str, object]] = []
    with WorkerPool(args.jobs or cpu_count()) as pool, progress_bar(names, "checking") as advance:
        for name in names:
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
            if args.quiet and not args.json:  # the counts are all that is printed
                tallies = file_tallies(reader, rules, pool=pool, advance=advance)
            else:
                tallies = (_shown(out, lines, args, records, diagnostics, with_errors)
                           for diagnostics, with_errors in file_diagnostics(
                               reader, rules, first_id=next_id, pool=pool, advance=advance))
            for count, found_errors, found_warnings, found_roots, checked, failed in tallies:
                next_id += count
                games += checked
                broken += failed
                errors += found_errors
                warnings += found_warnings
                roots += found_roots
    if args.json:
        out.print_json(
            json.dumps({"diagnostics": records, "games": games, "games_with_errors": broken,
                        "root_causes": roots})
        )
    else:
        out.print(summary_line(games, broken, errors, warnings, roots))
    if unreadable:
        return 2
    if errors or (args.warnings_as_errors and warnings):
        return 1
    return 0


def _shown(out: Console, lines: LineIndex, args: argparse.Namespace,
           records: list[dict[str, object]], diagnostics: list[Diagnostic],
           with_errors: bool | None) -> Tally:
    """Print a game's diagnostics (or keep them for the JSON report); count them."""
    if args.json:
        records.extend(diagnostic_json(d) for d in diagnostics)
    elif not args.quiet:
        for group in roots_first(diagnostics):
            print_group(out, group, lines, show_all=args.show_all)
    return tally(diagnostics, with_errors)


# (profile, overrides) or (profile, overrides, house rules): what --rules, --set and
# --rules-file ask for; None: no rules replay
GivenRules = tuple[str | None, dict[str, str]] | tuple[str | None, dict[str, str],
                                                        "Profile | None"]
Rules = GivenRules | None
Checked = tuple[list[Diagnostic], bool | None]
# What the summary line needs of one or more games: how many diagnostics, errors,
# warnings and root causes, how many games and how many of them with errors.
Tally = tuple[int, int, int, int, int, int]
SMALL_FILE_GAMES = 32  # fewer games than this are checked in-process: starting workers costs more


def file_diagnostics(reader: FileReader, rules: Rules, *, first_id: int = 1,
                     pool: WorkerPool | None = None,
                     advance: Advance | None = None) -> Iterator[Checked]:
    """The diagnostics of a file in the order they are reported, a game at a time.

    First what concerns the whole file (with ``None``), then each game's (with
    whether it has errors): the parser's and, unless ``rules`` is None, the rules
    and dispute diagnostics, with the probable slips named; sorted, numbered from
    ``first_id`` on and linked to their root causes.  Only one run of games' records
    is alive at a time (at most :data:`CHUNK_CHARS` of text, or one longer game), so
    memory does not grow with the number of games.  With a
    ``pool`` the games are checked in its worker processes, each numbered from 1,
    and come back in order to be numbered on from ``first_id`` here.
    """
    head = _file_findings(reader, first_id)
    first_id += len(head)
    yield head, None
    if pool is None or not pool.parallel or len(reader.slices) < SMALL_FILE_GAMES:
        yield from _checked_games(reader, rules, first_id, advance)
        return
    packed = (result for results in pool.map(_check_chunk, _chunks(reader, rules), batch=1)
              for result in results)
    for values, with_errors, size in packed:
        if advance is not None:
            advance(size)
        yield _unpacked(values, first_id - 1), with_errors
        first_id += len(values)


def tally(diagnostics: list[Diagnostic], with_errors: bool | None) -> Tally:
    """The counts of one game's diagnostics (``with_errors`` None: the findings about
    the whole file, not a game)."""
    errors = warnings = roots = 0
    for diagnostic in diagnostics:
        if diagnostic.severity is Severity.ERROR:
            errors += 1
        elif diagnostic.severity is Severity.WARNING:
            warnings += 1
        roots += diagnostic.cause is None
    return (len(diagnostics), errors, warnings, roots, int(with_errors is not None),
            int(bool(with_errors)))


def file_tallies(reader: FileReader, rules: Rules, *, pool: WorkerPool | None = None,
                 advance: Advance | None = None) -> Iterator[Tally]:
    """:func:`file_diagnostics`, counted: what ``check --quiet`` prints.  Games are
    counted a run at a time (:func:`_tally_chunk`), in worker processes or here, and
    a worker sends back one tally for each run, not its diagnostics."""
    yield tally(_file_findings(reader, 1), None)
    runs = _chunks(reader, rules)
    tallied: Iterator[tuple[Tally, int]]
    if pool is None or not pool.parallel or len(reader.slices) < SMALL_FILE_GAMES:
        tallied = map(_tally_chunk, runs)
    else:
        tallied = pool.map(_tally_chunk, runs, batch=1)
    for counts, size in tallied:
        if advance is not None:
            advance(size)
        yield counts


def _file_findings(reader: FileReader, first_id: int) -> list[Diagnostic]:
    """What concerns the whole file (its bytes, its version line, no games), linked."""
    return list(link_causes([*reader.diagnostics, *reader.closing_diagnostics()],
                            first_id=first_id))


def _checked_games(reader: FileReader, rules: Rules, first_id: int,
                   advance: Advance | None) -> Iterator[Checked]:
    """Each game of ``reader`` parsed and checked in this process, its diagnostics
    numbered on from ``first_id``: run by run, as a worker would (:func:`_run_checked`)."""
    for work in _chunks(reader, rules):
        for mine, with_errors, size in _run_checked(work, first_id):
            if advance is not None:
                advance(size)
            first_id += len(mine)
            yield mine, with_errors


def game_diagnostics(game: Game, rules: Rules, *, first_id: int = 1) -> Checked:
    """One game's diagnostics, sorted, numbered from ``first_id`` and linked to their
    root causes, and whether any is an error: :func:`run_diagnostics` of one game."""
    return run_diagnostics([game], rules, first_id=first_id)[0]


def run_diagnostics(games: list[Game], rules: Rules, *,
                    first_id: int | None = 1) -> list[Checked]:
    """:func:`game_diagnostics` of each game of a run, numbered on from ``first_id``
    across the run (None: each game's from 1, as in a worker).

    Stage by stage over the run, rather than game by game: every game's rules are
    resolved, then every game replayed, then every game's findings explained, so
    that each stage's code stays hot in the processor's caches (a file of thousands
    of small games is mostly that, issue 16).  A game with neither tags nor deals (a
    stray ``end``) has nothing to referee under any rules (a test holds the referee
    to that), so it is not replayed: a file of ``end end end …`` is a quarter of a
    million such games per MB."""
    chosen = [_options(game, rules) if rules is not None and _refereed(game) else None
              for game in games]
    replays = [_replayed(game, options) for game, options in zip(games, chosen, strict=True)]
    checked: list[Checked] = []
    number = first_id or 1
    for game, options, replayed in zip(games, chosen, replays, strict=True):
        mine = _explained(game, options, replayed, number)
        if first_id is not None:
            number += len(mine)
        checked.append((mine, game.has_errors if rules is None else _any_error(mine)))
    return checked


def rules_diagnostics(game: Game, rules: GivenRules, parsed: list[Diagnostic], *,
                      first_id: int = 1) -> list[Diagnostic]:
    """The parser's diagnostics of one game with the rules, options and dispute
    diagnostics added and explained; an internal fault becomes one AFN901 at the
    game instead of a traceback, beside the parser's."""
    options = _options(game, rules)
    return _explained(game, options, _replayed(game, options), first_id, parsed)


# A stage's result for one game: the options and their problems, or a replay; None for
# a game that is not refereed; the exception where refereeing the game failed.
_Options = tuple[Options, list[Diagnostic]] | Exception | None
_Replayed = GameReplay | Exception | None


def _refereed(game: Game) -> bool:
    return not game.broken and bool(game.deals or game.tags)


def _options(game: Game, rules: GivenRules) -> _Options:
    """The rules ``game`` is replayed under (the first stage of refereeing a run).

    Each stage catches a fault in refereeing a game itself, written out rather than
    through :func:`.guarded`: two closures per game cost more than a tiny game's
    linking does."""
    try:
        return resolve_options(game, profile=rules[0], overrides=rules[1],
                               house=rules[2] if len(rules) > 2 else None)
    except Exception as error:  # becomes an AFN901 at the game (see _explained)
        return error


def _replayed(game: Game, options: _Options) -> _Replayed:
    if options is None or isinstance(options, Exception):
        return options
    try:
        return replay(game, options[0], record_states=False)
    except Exception as error:  # becomes an AFN901 at the game (see _explained)
        return error


def _explained(game: Game, options: _Options, replayed: _Replayed, first_id: int,
               parsed: list[Diagnostic] | None = None) -> list[Diagnostic]:
    """The game's findings with the referee's, explained and numbered from ``first_id``;
    where a stage failed, the parser's and one AFN901 at the game."""
    found = list(game.diagnostics) if parsed is None else parsed
    if replayed is None:
        return list(link_causes(found, first_id=first_id))
    if not isinstance(replayed, Exception):
        assert options is not None and not isinstance(options, Exception)
        try:
            return list(explain(replayed, [*found, *options[1], *replayed.diagnostics],
                                first_id=first_id))
        except Exception as error:
            replayed = error
    problem = internal_error(replayed, doing="checking this game's rules", file=game.source,
                             game=game.index, at=game.span)
    return list(link_causes([*found, problem], first_id=first_id))


def _any_error(diagnostics: list[Diagnostic]) -> bool:
    """``any(d.is_error …)``, without a generator and a property per finding."""
    return Severity.ERROR in [diagnostic.severity for diagnostic in diagnostics]


# A worker's unit of work: consecutive games whose text adds up to about this many
# characters (at most CHUNK_GAMES of them).  One game per unit made a file of
# thousands of tiny games cost more in pickling than in checking, and each unit
# costs the parent about a millisecond of handing over (issue 16): 64 KB units
# took a third of the parent's time on a file of tiny games, and a run of well-formed
# games is still only a few hundred games' records alive at once.
CHUNK_CHARS = 65_536
CHUNK_GAMES = 4_096

# (the text from the first game's start to the last one's end, where that text starts
# in the file, the index of the first game, its slices, the file name, the rules)
Chunk = tuple[str, int, int, Slices, str | None, Rules]


def _chunks(reader: FileReader, rules: Rules) -> Iterator[Chunk]:
    """The file's games in runs of about :data:`CHUNK_CHARS` characters, in order,
    each run's slices as columns (see :meth:`.Slices.windows`)."""
    text, file = reader.text, reader.file
    slices = reader.slices if isinstance(reader.slices, Slices) else Slices(reader.slices)
    for first, pieces in slices.windows(CHUNK_CHARS, CHUNK_GAMES):
        start, end = pieces.text_span
        yield text[start:end], start, first + 1, pieces, file, rules


# A diagnostic as it travels back from a worker: its fields in order, the severity as
# its text.  Tuples of plain values pickle in C; dataclasses and enums pickle through
# Python calls, which cost more than checking a tiny game.
Packed = tuple[list[tuple[object, ...]], bool | None, int]  # and the game's length
_FIELDS = tuple(f.name for f in fields(Diagnostic))
_VALUES = attrgetter(*_FIELDS)
_SEVERITY_AT, _ID_AT, _CAUSE_AT = (_FIELDS.index(name) for name in ("severity", "id", "cause"))
_SEVERITIES = {severity.value: severity for severity in Severity}


def _run_checked(work: Chunk, first_id: int | None = None) -> list[
        tuple[list[Diagnostic], bool | None, int]]:
    """A run of games cut out of their file, parsed and checked: each game's
    diagnostics (numbered on from ``first_id``, or each game's from 1 when it is
    None, as in a worker), whether it has errors, and its length.

    The whole run is read first, then its structure checked, then refereed, rather
    than game by game: the code of each stage stays hot in the processor's caches for
    a run, which makes a file of thousands of tiny games about a quarter cheaper
    (issue 16).
    A run is at most :data:`CHUNK_CHARS` of text (or one game), so its records stay
    small.  The cycle collector is paused for the run: nothing a game makes is left
    for it to find (see :func:`.cyclic_gc_paused`)."""
    body, base, first_index, run, file, rules = work
    pieces = list(run)
    collecting = gc.isenabled()
    gc.disable()
    try:
        read = [read_game_body(body[piece.start - base : piece.end - base], piece,
                               index=index, filename=file)
                for index, piece in enumerate(pieces, start=first_index)]
        games = list(map(check_read_game, read))
        del read
        return [(mine, with_errors, piece.end - piece.start)
                for (mine, with_errors), piece in zip(run_diagnostics(games, rules,
                                                                      first_id=first_id),
                                                      pieces, strict=True)]
    finally:
        if collecting:
            gc.enable()


def _check_chunk(work: Chunk) -> list[Packed]:
    """In a worker process: a run of games checked, their diagnostics packed."""
    return [(list(map(_packed, mine)), with_errors, size)
            for mine, with_errors, size in _run_checked(work)]


def _tally_chunk(work: Chunk) -> tuple[Tally, int]:
    """In a worker process: a run of games checked and only counted (``--quiet``): one
    tally for the run and its length, whatever the number of games in it."""
    checked = _run_checked(work)
    count, errors, warnings, roots, _, _ = tally(
        [diagnostic for mine, _, _ in checked for diagnostic in mine], None)
    failed = sum(1 for _, with_errors, _ in checked if with_errors)
    length = sum(size for _, _, size in checked)
    return (count, errors, warnings, roots, len(checked), failed), length


def _packed(diagnostic: Diagnostic) -> tuple[object, ...]:
    values = list(_VALUES(diagnostic))
    values[_SEVERITY_AT] = diagnostic.severity.value
    return tuple(values)


def _unpacked(packed: list[tuple[object, ...]], offset: int) -> list[Diagnostic]:
    """A worker's diagnostics of one game, numbered from ``offset + 1`` instead of 1
    (ids and causes alike: a cause always lies in the same game)."""
    found = []
    for values in packed:
        fields_ = list(values)
        fields_[_SEVERITY_AT] = _SEVERITIES[cast(str, fields_[_SEVERITY_AT])]
        if offset:
            for at in (_ID_AT, _CAUSE_AT):
                if fields_[at] is not None:
                    fields_[at] = cast(int, fields_[at]) + offset
        found.append(Diagnostic(*fields_))  # type: ignore[arg-type]
    return found


def _jobs(text: str) -> int:
    try:
        jobs = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a number of processes") from None
    if jobs < 1:
        raise argparse.ArgumentTypeError("the number of processes is at least 1")
    return jobs


def summary_line(games: int, broken: int, errors: int, warnings: int,
                 roots: int | None = None) -> str:
    """``2 games, 1 with errors (15 errors, 1 warning; 1 root cause)``: the root causes
    are counted only when some problems follow from others."""
    plural = "game" if games == 1 else "games"
    text = f"{games} {plural}, {broken} with errors"
    extras = []
    if errors:
        extras.append(f"{errors} error{'s' if errors != 1 else ''}")
    if warnings:
        extras.append(f"{warnings} warning{'s' if warnings != 1 else ''}")
    detail = ", ".join(extras)
    if roots is not None and roots < errors + warnings:
        detail += f"; {roots} root cause{'s' if roots != 1 else ''}"
    return text + (f" ({detail})" if extras else "")


def print_group(out: object, group: Group, text: str | LineIndex, *, show_all: bool) -> None:
    """A root, then its consequences (``--all``) or one line counting them."""
    from rich.console import Console

    assert isinstance(out, Console)
    print_diagnostic(out, group.root, text)
    if not group.consequences:
        return
    if not show_all:
        out.print(f"  [dim]{escape(follow_text(group))} (--all shows them)[/]")
        return
    for consequence in group.consequences:
        lines = consequence.render(text).split("\n")
        style = _STYLE[consequence.severity]
        out.print(f"  ↳ [{style}]{escape(lines[0])}[/] [dim](follows from the above)[/]")
        for line in lines[1:]:
            out.print("    " + escape(line))


def print_diagnostic(out: object, diagnostic: Diagnostic, text: str | LineIndex) -> None:
    from rich.console import Console

    assert isinstance(out, Console)
    lines = diagnostic.render(text).split("\n")
    style = _STYLE[diagnostic.severity]
    out.print(f"[{style}]{escape(lines[0])}[/]")
    for line in lines[1:]:
        out.print(snippet_text(line) if out.is_terminal else escape(line))


def snippet_text(line: str) -> object:
    """A caret snippet's source line coloured as AFN (other lines as they are)."""
    gutter, bar, source = line.partition(" | ")
    if not bar or not gutter.strip().isdigit():
        return escape(line)
    from rich.text import Text

    from ..highlight import highlighted

    return Text(gutter + bar) + highlighted(source)


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
        "id": diagnostic.id,
        "cause": diagnostic.cause,
    }
