"""``allfours fmt``: print AFN files in canonical form, check them, or rewrite them."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from rich.markup import escape

from ..checking.parsing import parse
from ..diagnostics import Diagnostic
from ..guard import BUG_TEXT, guarded
from ..reading.parser import cyclic_gc_paused
from ..safe_write import ChangedOnDisk, OutputRefused, replace_file
from ..visible import visible
from ..writing.formatter import CheckedFormat, Refusal, format_checked
from .inputs import Input, InputError, console, expanded_or_fail, fail, read_afn

NAME = "fmt"
HELP = "write AFN files in canonical form (print, --check or --write)"
DESCRIPTION = """\
Format each FILE (or standard input for '-') in canonical AFN: the version line,
tags in roster order, one statement per line, every trick numbered, uppercase
cards with T for ten, a seat label on every card, 'end' after every game.
Comments stay beside what they were written beside.

By default the canonical text is printed on standard output; several FILEs
print as one AFN stream, with the version line '% AFN 1' once at the top.
  --check  write nothing; list the files that are not canonical
  --write  rewrite files in place, atomically (temporary file + rename), and
           only after the new text has been read back to the same records, tags
           and comments, the same diagnostics and the same computed scores.  A
           file with syntax errors, with a statement the formatter would have to
           drop or move, or whose problems formatting would hide, is never
           rewritten; nor is a file that changed on disk while it was formatted.
           The file keeps its owner, group and mode; a file with other hard links
           is written in place so every name sees the new text; a symbolic link
           is followed and its target rewritten.
On a terminal the text is coloured as AFN and any control character in it is
shown as an escape (\x1b); piped or redirected, the bytes are exactly the AFN.
  --renumber  number the tricks of every deal 1, 2, 3 … (without it, a trick
           numbered out of sequence, AFN207, stops --write: its numbers as
           written are part of the record)

exit status: 0 all canonical (or rewritten), 1 a file is not canonical (--check)
or cannot be formatted, 2 usage error or unreadable input.
"""


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("files", nargs="+", metavar="FILE",
                        help="AFN files or folders (every .afn file under them); '-' reads stdin")
    mode = parser.add_mutually_exclusive_group()
    mode.add_argument(
        "--check", action="store_true", help="exit 1 if a file is not canonical; list those files"
    )
    mode.add_argument(
        "--write", "-w", action="store_true", help="rewrite files in place, atomically"
    )
    parser.add_argument(
        "--quiet", "-q", action="store_true", help="with --check/--write: print only problems"
    )
    parser.add_argument(
        "--renumber", action="store_true",
        help="renumber tricks 1, 2, 3 … where the record numbers them out of sequence (AFN207)",
    )


def run(args: argparse.Namespace) -> int:
    if args.write and "-" in args.files:
        return fail("--write cannot rewrite standard input; leave out --write to print the result")
    report = _Report(quiet=args.quiet)
    names, report.unreadable = expanded_or_fail(args.files)
    for name in names:
        try:
            source = read_afn(name)
        except InputError as error:
            report.unreadable = True
            fail(str(error))
            continue
        formatted = _formatted(source, renumber=args.renumber)
        if args.check:
            _check(name, source.data, formatted, report)
        elif args.write:
            _write(name, source, formatted, report)
        else:
            _print(name, formatted, report)
    if args.check or args.write:
        report.summary(write=args.write)
    return report.exit_code()


class _Report:
    """Counts what happened to each file and says it: results on stdout, problems on stderr."""

    def __init__(self, *, quiet: bool) -> None:
        self.quiet = quiet
        self.out = console()
        self.err = console(stderr=True)
        self.canonical = 0
        self.changed = 0  # not canonical (--check) or rewritten (--write)
        self.refused = 0
        self.problems = False  # --check found a file that is not canonical
        self.unreadable = False
        self.printed = 0  # files printed on standard output so far

    def say(self, message: str) -> None:
        if not self.quiet:
            self.out.print(escape(visible(message)))

    def refuse(self, name: str, formatted: CheckedFormat, what: str) -> None:
        self.refused += 1
        self.err.print(f"[bold red]{escape(visible(name))}: {what}:[/]")
        for refusal in formatted.refusals:
            self.err.print("  " + escape(visible(str(refusal), lines=True)))

    def summary(self, *, write: bool) -> None:
        parts = []
        if self.changed:
            verb = "rewritten" if write else "would be reformatted"
            parts.append(f"{_files(self.changed)} {verb}")
        if self.canonical:
            parts.append(f"{_files(self.canonical)} already canonical")
        if self.refused:
            parts.append(f"{_files(self.refused)} cannot be formatted")
        if parts:
            self.say(", ".join(parts))

    def exit_code(self) -> int:
        if self.unreadable:
            return 2
        return 1 if self.refused or self.problems else 0


def _files(count: int) -> str:
    return f"{count} file{'s' if count != 1 else ''}"


def _check(name: str, data: bytes, formatted: CheckedFormat, report: _Report) -> None:
    if not formatted.safe:
        report.refuse(name, formatted, "cannot be formatted")
    elif formatted.text.encode("utf-8") != data:
        report.changed += 1
        report.problems = True
        report.out.print(f"would reformat {escape(visible(name))}")
    else:
        report.canonical += 1


def _formatted(source: Input, *, renumber: bool) -> CheckedFormat:
    """The checked format of one input; a fault in the formatter is a refusal (AFN901)."""

    def work() -> CheckedFormat:
        with cyclic_gc_paused():  # the old text's records stay alive through the proof
            return format_checked(parse(source.data, filename=source.name), renumber=renumber)

    def refused(problem: Diagnostic) -> CheckedFormat:
        return CheckedFormat(source.data.decode("utf-8", errors="replace"),
                             (Refusal(BUG_TEXT, problem),))

    return guarded(work, refused, doing="formatting this file", file=source.name)


def _write(name: str, source: Input, formatted: CheckedFormat, report: _Report) -> None:
    if not formatted.safe:
        report.refuse(name, formatted, "not rewritten")
        return
    new = formatted.text.encode("utf-8")
    if new == source.data:
        report.canonical += 1
        return
    try:
        replace_file(Path(name), new, expected=source.identity,
                     notice=lambda line: report.err.print(escape(visible(line))))
    except ChangedOnDisk:
        report.refused += 1
        report.err.print(f"[bold red]{escape(visible(name))}: not rewritten:[/] the file "
                         "changed on disk after it was read (an editor saved it?); run fmt "
                         "again")
        return
    except OutputRefused as error:
        report.refused += 1
        report.err.print(f"[bold red]{escape(visible(name))}: not rewritten:[/] "
                         f"{escape(visible(str(error)))}")
        return
    except OSError as error:
        report.unreadable = True
        fail(f"{name}: cannot write: {error.strerror or error}")
        return
    report.changed += 1
    report.say(f"reformatted {name}")


VERSION_LINE = "% AFN 1\n"


def _print(name: str, formatted: CheckedFormat, report: _Report) -> None:
    """Several files print as one AFN stream: one version line at the top, then each
    file's games after a blank line (a second '% AFN 1' would be an error there)."""
    text = formatted.text
    if report.printed and text.startswith(VERSION_LINE):
        text = "\n" + text[len(VERSION_LINE):].lstrip("\n")
    report.printed += 1
    if report.out.is_terminal:  # coloured as AFN; piped output stays the exact bytes
        from ..writing.highlight import highlighted

        report.out.print(highlighted(visible(text, lines=True)), end="")
    else:
        sys.stdout.flush()
        sys.stdout.buffer.write(text.encode("utf-8"))
        sys.stdout.buffer.flush()
    if not formatted.safe:
        report.refuse(name, formatted, "printed, but the output does not keep everything")
