"""``allfours find``: pick games out of an archive by their tags, players and content."""

from __future__ import annotations

import argparse
import contextlib
import sys
from pathlib import Path
from typing import IO

from ..archive.select import (
    FEATURES,
    Criteria,
    CriteriaError,
    date_key,
    deals_range,
    player_test,
    tag_test,
)
from .archive_inputs import Scanned, walk
from .inputs import fail

NAME = "find"
HELP = "select games by tag, player, rules, date, result, deals or content"
VERSION_LINE = b"% AFN 1\n"


def _features_help() -> str:
    width = max(len(name) for name in FEATURES)
    return "\n".join(f"  {name:<{width}}  {text}" for name, (text, _) in FEATURES.items())


DESCRIPTION = f"""\
Read every game of each FILE (a folder stands for every .afn file under it,
recursively, in sorted order; '-' reads stdin) and write the games that pass
every filter given, as their original text, byte for byte (comments and layout
kept), after one '% AFN 1' line: the output is an AFN file again.  --list prints
one line per game instead (as 'allfours list'); --split DIR writes each game to
its own file (an existing file there is replaced only with --force, and a
symbolic link there is never followed).  -o FILE is written whole when the
search ends (a temporary file beside it, then renamed).  On a terminal, control
characters in the games are shown as escapes (\x1b); piped, the bytes are as
written.

Filters on the header are quick (the play is not read); --has and --without
replay the game and cost what a check costs.  --dedupe drops a game whose
records equal those of a game already written (the same game, however it is
laid out), which also needs a parse.

content features (--has, --without):
{_features_help()}

examples:
  allfours find --player "Ann Baptiste" --from 2026.11.01 season/
  allfours find --tag Event~"club night" --has revoke --list season/
  allfours find --has gift-won --split disputes/ season/
  allfours find --dedupe old.afn new.afn -o merged.afn

exit status: 0 some game matched, 1 none did (or a file met an internal error,
AFN901: the files after it are still read), 2 unreadable input or a bad filter.
"""


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("files", nargs="+", metavar="FILE",
                        help="AFN files or folders of them; '-' reads stdin")
    pick = parser.add_argument_group("filters (a game must pass all of them)")
    pick.add_argument("--tag", action="append", default=[], metavar="NAME=VALUE|NAME~REGEX",
                      help="a tag equal to VALUE, or matching the regular expression")
    pick.add_argument("--player", action="append", default=[], metavar="NAME|~REGEX",
                      help="a player at any seat (full name, any case; ~REGEX searches)")
    pick.add_argument("--rules", action="append", default=[], metavar="PROFILE",
                      help="the Rules tag (no tag counts as hoffmann1909); repeat for any of "
                      "several")
    pick.add_argument("--from", dest="date_from", metavar="DATE",
                      help="played on or after DATE (2026.11.20, 2026-11-20 or 2026.11)")
    pick.add_argument("--to", dest="date_to", metavar="DATE", help="played on or before DATE")
    pick.add_argument("--result", action="append", default=[], metavar="VALUE",
                      help="the Result tag (N, NS, *, …); repeat for any of several")
    pick.add_argument("--deals", metavar="N|N-|-N|N-M", help="number of deals")
    pick.add_argument("--has", action="append", default=[], choices=sorted(FEATURES),
                      metavar="FEATURE", help="the game has this (see the list above)")
    pick.add_argument("--without", action="append", default=[], choices=sorted(FEATURES),
                      metavar="FEATURE", help="the game does not have this")
    pick.add_argument("--dedupe", action="store_true",
                      help="drop games whose records equal an earlier match's")
    out = parser.add_argument_group("output")
    where = out.add_mutually_exclusive_group()
    where.add_argument("-o", "--output", metavar="FILE", help="write the games to FILE")
    where.add_argument("--split", metavar="DIR",
                       help="write each game to its own file in DIR (created if needed)")
    where.add_argument("--list", action="store_true", help="one line per game, not its text")
    out.add_argument("--force", action="store_true",
                     help="with --split: replace files already in DIR")


def criteria(args: argparse.Namespace) -> Criteria:
    """The filters of the command line (``CriteriaError`` when one is malformed)."""
    def date(option: str, text: str | None) -> str | None:
        if text is None:
            return None
        key = date_key(text)
        if key is None:
            raise CriteriaError(f"{option} {text!r}: write a date as 2026.11.20")
        return key

    date_to = date("--to", args.date_to)
    if date_to is not None and date_to.endswith("00"):  # a whole month or year: its end
        date_to = date_to[:4] + ("99" if date_to[4:6] == "00" else date_to[4:6]) + "99"
    return Criteria(
        tags=tuple(tag_test(spec) for spec in args.tag),
        players=tuple(player_test(spec) for spec in args.player),
        rules=tuple(name.strip().lower() for name in args.rules),
        date_from=date("--from", args.date_from),
        date_to=date_to,
        results=tuple(args.result),
        deals=deals_range(args.deals) if args.deals else None,
        has=frozenset(args.has),
        without=frozenset(args.without),
    )


def run(args: argparse.Namespace) -> int:
    try:
        chosen = criteria(args)
    except CriteriaError as error:
        return fail(str(error))
    from ..safe_write import OutputRefused

    try:
        sink = _Sink(args)
    except (OSError, OutputRefused) as error:
        return fail(f"{args.split}: cannot write: {getattr(error, 'strerror', None) or error}")
    files = walk(args.files)
    seen: set[str] = set()
    try:
        for scanned in files.scans():
            with files.each(scanned, passing=(OutputRefused,)):
                _find_in(scanned, chosen, sink, seen if args.dedupe else None)
    except OutputRefused as error:
        sink.abort()
        return fail(str(error))
    except OSError as error:
        sink.abort()
        return fail(f"cannot write: {error.strerror or error}")
    except BaseException:
        sink.abort()
        raise
    try:
        sink.close()
    except (OSError, OutputRefused) as error:
        return fail(f"{args.output}: cannot write: {getattr(error, 'strerror', None) or error}")
    if files.unreadable:
        return 2
    return 0 if sink.matched and not files.faulty else 1


def _find_in(scanned: Scanned, chosen: Criteria, sink: _Sink, seen: set[str] | None) -> None:
    from ..archive.analysis import analyse
    from ..archive.catalog import entry_of
    from ..archive.identity import game_digest

    for header in scanned.headers:
        if not chosen.header_matches(header):
            continue
        if chosen.needs_content or seen is not None:
            game = scanned.game(header)
            if chosen.needs_content and not chosen.content_matches(analyse(game)):
                continue
            if seen is not None:
                digest = game_digest(game, scanned.text[header.start : header.end])
                if digest in seen:
                    continue
                seen.add(digest)
        if sink.listing:
            sink.add_line(entry_of(scanned.name, scanned.text, header))
            continue
        sink.add_game(scanned.original_bytes(header), Path(scanned.name).stem, header.index)


class _Sink:
    """Where matches go: standard output, one file, one file per game, or list lines."""

    def __init__(self, args: argparse.Namespace) -> None:
        from ..safe_write import OutputFolder

        self.listing = bool(args.list)
        self.matched = 0
        self.names: set[str] = set()
        self.handle: IO[bytes] | None = None
        self.output = args.output
        self.staged: contextlib.ExitStack | None = None
        self.at_line_start = True
        self.terminal = not self.output and sys.stdout.isatty()
        self.split = OutputFolder(args.split, force=args.force) if args.split else None
        if self.listing:
            from .listing import EntryPrinter

            self.printer = EntryPrinter()

    def add_line(self, entry: object) -> None:
        from ..archive.catalog import Entry

        assert isinstance(entry, Entry)
        self.printer.add(entry)
        self.matched += 1

    def add_game(self, data: bytes, stem: str, index: int) -> None:
        self.matched += 1
        if self.split is not None:
            name = f"{stem}-{index:03d}"
            while name in self.names:
                name += "+"
            self.names.add(name)
            self.split.write(f"{name}.afn",
                             VERSION_LINE + data + (b"" if data.endswith(b"\n") else b"\n"))
            return
        if self.handle is None:
            if self.output:
                from ..safe_write import stage

                self.staged = contextlib.ExitStack()
                self.handle = self.staged.enter_context(stage(self.output))
            else:
                self.handle = sys.stdout.buffer
            self.handle.write(VERSION_LINE)
        if not self.at_line_start and not data[:1].isspace():
            self.handle.write(b"\n")
        self.at_line_start = data.endswith(b"\n")
        if self.terminal:  # a terminal is shown the text, never driven by it
            from ..visible import visible

            data = visible(data.decode("utf-8", "replace"), lines=True).encode("utf-8")
        self.handle.write(data)

    def close(self) -> None:
        if self.listing:
            self.printer.close()
        if self.split is not None:
            self.split.close()
        if self.handle is not None:
            if not self.at_line_start:
                self.handle.write(b"\n")
            if self.staged is not None:
                self.staged.close()  # the whole file switched in
            else:
                self.handle.flush()

    def abort(self) -> None:
        """Nothing of an unfinished -o FILE is left (the file stays as it was)."""
        if self.split is not None:
            self.split.close()
        if self.staged is not None:
            with contextlib.suppress(Exception):
                self.staged.__exit__(RuntimeError, RuntimeError("aborted"), None)
            self.staged = None
