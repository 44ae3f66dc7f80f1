"""``allfours check``: parse each file and report every diagnostic."""

from __future__ import annotations

import argparse
import json

from ..checking import GivenRules as GivenRules  # re-exported: older callers' import path
from ..checking import Rules, Tally, check, check_file, tally_file
from ..checking import rules_diagnostics as rules_diagnostics
from ..checking import tally as tally
from ..checking.causes import Group, follow_text, roots_first
from ..diagnostics import Diagnostic, LineIndex, Severity
from ..reading.parser import read_games
from ..reading.records import Game
from .inputs import InputError, console, expanded_or_fail, fail, read_afn
from .output import Lines
from .progress import progress_bar

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
swapped, a wrong seat label, a card written for another of its suit:
AFN221-AFN226, or a digit typo in a total), the root says what to write.  Ends
with a summary line: 'N games, M with errors' (and ', K with disputes' when
some game records a dispute).
--rules and --set replay every game under other rules than the file names.
A FILE may be a folder: every .afn file under it is checked, in sorted order.

Games are checked by -j N worker processes (default: one per core); the output
is the same, byte for byte and in the same order, whatever N.  On a terminal a
progress bar on standard error shows how far a long run has got.

Disputes are counted apart from errors: a claim the cards or the rules do not
give, recorded as the players made it ('dispute AFN401'), and the totals and
[Result] that follow from it, are what happened at the table, not errors of the
record.  A game still being played ([Result "*"]) reports its open last deal as
notes ('info ... in progress: ...'), not errors.

exit status: 0 no errors and no disputes (warnings and notes allowed), 1 errors
found (with --warnings-as-errors: or warnings), 2 an input unreadable or not text
AFN (binary, empty): one line for it, and the summary says how many, 3 disputes
but no errors.
"""

_STYLE = {Severity.ERROR: "bold red", Severity.DISPUTE: "magenta", Severity.WARNING: "yellow",
          Severity.INFO: "cyan"}


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

    out = Lines(console)
    games = broken = disputed = errors = disputes = warnings = roots = not_read = 0
    next_id = 1
    names, unreadable = expanded_or_fail(args.files)
    records: list[dict[str, object]] = []
    with WorkerPool(args.jobs or cpu_count()) as pool, progress_bar(names, "checking") as advance:
        for name in names:
            try:
                source = read_afn(name)
            except InputError as error:
                out.flush()
                fail(str(error))
                unreadable = True
                not_read += 1
                continue
            reader = read_games(source.data, filename=source.name)
            del source  # the decoded text is all that is kept of the file
            lines = LineIndex(reader.text)  # built once per file: printing stays linear
            rules = None if args.no_rules else chosen
            if args.quiet and not args.json:  # the counts are all that is printed
                tallies = tally_file(reader, rules, pool=pool, advance=advance)
            else:
                tallies = (_shown(out, lines, args, records, diagnostics, with_errors)
                           for diagnostics, with_errors in check_file(
                               reader, rules, first_id=next_id, pool=pool, advance=advance))
            for (count, found_errors, found_warnings, found_roots, checked, failed,
                 found_disputes, with_disputes) in tallies:
                next_id += count
                games += checked
                broken += failed
                disputed += with_disputes
                errors += found_errors
                disputes += found_disputes
                warnings += found_warnings
                roots += found_roots
    if args.json:
        out.console.print_json(
            json.dumps({"diagnostics": records, "games": games, "games_with_errors": broken,
                        "games_with_disputes": disputed, "errors": errors,
                        "disputes": disputes, "warnings": warnings, "root_causes": roots,
                        "files_not_read": not_read})
        )
    elif not_read < len(names):  # no summary of nothing: each unreadable file had its line
        summary = summary_line(games, broken, errors, warnings, roots, disputes=disputes,
                               disputed=disputed) + _not_read(not_read)
        out.line(summary, _as_is, summary)
    out.flush()
    return exit_status(unreadable=unreadable, errors=errors, disputes=disputes,
                       warnings=warnings if args.warnings_as_errors else 0)


# The exit statuses of 'check' (docs/commands.md): a script tells a clean file from one
# whose record is wrong, and both from one that records a dispute at the table.
CLEAN, WITH_ERRORS, UNREADABLE, DISPUTES_ONLY = 0, 1, 2, 3


def exit_status(*, unreadable: bool, errors: int, disputes: int, warnings: int = 0) -> int:
    """2 unreadable input, 1 errors in a record (``warnings``: those counted as errors),
    3 disputes and no errors, 0 clean."""
    if unreadable:
        return UNREADABLE
    if errors or warnings:
        return WITH_ERRORS
    return DISPUTES_ONLY if disputes else CLEAN


def _shown(out: Lines, lines: LineIndex, args: argparse.Namespace,
           records: list[dict[str, object]], diagnostics: list[Diagnostic],
           with_errors: bool | None) -> Tally:
    """Print a game's diagnostics (or keep them for the JSON report); count them."""
    counts = tally(diagnostics, with_errors)
    if args.json:
        records.extend(diagnostic_json(d) for d in diagnostics)
    elif not args.quiet:
        if counts[3] == counts[0] and _numbered(diagnostics):
            # every finding a root (nearly every game): nothing to fold, no groups to make
            for diagnostic in diagnostics:
                print_diagnostic(out, diagnostic, lines)
        else:
            for group in roots_first(diagnostics):
                print_group(out, group, lines, show_all=args.show_all)
    return counts


def _numbered(diagnostics: list[Diagnostic]) -> bool:
    """Whether every finding has its id (:func:`roots_first` links them otherwise)."""
    return None not in [diagnostic.id for diagnostic in diagnostics]


# The one door (:mod:`..checking`) is what is printed here; these names stay for the
# callers that imported them from this module.
Checked = tuple[list[Diagnostic], bool | None]
file_diagnostics = check_file
file_tallies = tally_file


def game_diagnostics(game: Game, rules: Rules, *, first_id: int = 1) -> Checked:
    """One game's diagnostics, sorted, numbered from ``first_id`` and linked to their
    root causes, and whether any is an error (:func:`..checking.check`)."""
    checked = check(game, rules, first_id=first_id)
    return list(checked.diagnostics), checked.has_errors


def _jobs(text: str) -> int:
    try:
        jobs = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a number of processes") from None
    if jobs < 1:
        raise argparse.ArgumentTypeError("the number of processes is at least 1")
    return jobs


def _not_read(count: int) -> str:
    """What the summary adds when some files could not be read (each said why on
    standard error): counts of the files read only are not the whole story."""
    return f"; {count} file{'s' if count != 1 else ''} not read" if count else ""


def summary_line(games: int, broken: int, errors: int, warnings: int,
                 roots: int | None = None, *, disputes: int = 0, disputed: int = 0) -> str:
    """``2 games, 1 with errors, 1 with disputes (15 errors, 2 disputes, 1 warning; 1 root
    cause)``: games with disputes and the root causes are counted only when there are
    some (disputes are no errors of the record: counted apart)."""
    plural = "game" if games == 1 else "games"
    text = f"{games} {plural}, {broken} with errors"
    if disputed:
        text += f", {disputed} with disputes"
    extras = []
    if errors:
        extras.append(f"{errors} error{'s' if errors != 1 else ''}")
    if disputes:
        extras.append(f"{disputes} dispute{'s' if disputes != 1 else ''}")
    if warnings:
        extras.append(f"{warnings} warning{'s' if warnings != 1 else ''}")
    detail = ", ".join(extras)
    if roots is not None and roots < errors + disputes + warnings:
        detail += f"; {roots} root cause{'s' if roots != 1 else ''}"
    return text + (f" ({detail})" if extras else "")


def _escape(text: str) -> str:
    from rich.markup import escape

    return escape(text)


def _styled(style: str, text: str) -> str:
    return f"[{style}]{_escape(text)}[/]"


def _folded(text: str) -> str:
    return f"  [dim]{_escape(text)} (--all shows them)[/]"


def _consequence(style: str, text: str) -> str:
    return f"  ↳ [{style}]{_escape(text)}[/] [dim](follows from the above)[/]"


def _indented(text: str) -> str:
    return "    " + _escape(text)


def _as_is(text: str) -> str:
    return text


def _lines(out: object) -> Lines:
    """``out`` as :class:`Lines`: a Rich console given by a caller prints every line."""
    if isinstance(out, Lines):
        return out
    from rich.console import Console

    assert isinstance(out, Console)
    return Lines(lambda: out, plain=False)


def print_group(out: object, group: Group, text: str | LineIndex, *, show_all: bool) -> None:
    """A root, then its consequences (``--all``) or one line counting them.  ``out`` is
    :class:`Lines` or a Rich console."""
    shown = _lines(out)
    print_diagnostic(shown, group.root, text)
    if not group.consequences:
        return
    if not show_all:
        follow = follow_text(group)
        shown.line(f"  {follow} (--all shows them)", _folded, follow)
        return
    for consequence in group.consequences:
        lines = consequence.render(text).split("\n")
        style = _STYLE[consequence.severity]
        shown.line(f"  ↳ {lines[0]} (follows from the above)", _consequence, style, lines[0])
        for line in lines[1:]:
            shown.line("    " + line, _indented, line)


def print_diagnostic(out: object, diagnostic: Diagnostic, text: str | LineIndex) -> None:
    """The diagnostic's headline in its colour, its caret snippet and its hint: made once
    (:meth:`Diagnostic.render`) and written as it is wherever Rich would not change it."""
    shown = _lines(out)
    rendered = diagnostic.render(text)
    if not shown.written(rendered):
        _print_rendered(shown, rendered, _STYLE[diagnostic.severity])


def _print_rendered(shown: Lines, rendered: str, style: str) -> None:
    lines = rendered.split("\n")
    shown.line(lines[0], _styled, style, lines[0])
    snippet = snippet_text if shown.is_terminal else _escape
    for line in lines[1:]:
        shown.line(line, snippet, line)


def snippet_text(line: str) -> object:
    """A caret snippet's source line coloured as AFN (other lines as they are)."""
    gutter, bar, source = line.partition(" | ")
    if not bar or not gutter.strip().isdigit():
        return _escape(line)
    from rich.text import Text

    from ..writing.highlight import highlighted

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
