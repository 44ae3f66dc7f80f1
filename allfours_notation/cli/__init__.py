"""The ``allfours`` command line: one module per subcommand.

Each subcommand module defines ``NAME``, ``HELP``, ``DESCRIPTION``,
``add_arguments(parser)`` and ``run(args) -> int``.  Exit codes are shared by
all of them: 0 clean, 1 problems found, 2 usage error or unreadable input.

``--help`` is drawn by rich-argparse (colour on a terminal, plain text otherwise); it
is imported only when help or a usage message is printed, so that a command that just
runs does not pay for it.  (argparse builds a formatter for every ``add_argument``, to
check the metavar, so the cheap plain formatter stays in place until help is asked for.)

Start-up is paid by every run (a pre-commit hook, an editor's format-on-save), so a
command line that starts with a command's name imports that command's module alone
(issue 27); ``--version`` imports none.  Help, completion and usage errors build the
whole command line, every module.
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Sequence
from functools import cache
from types import ModuleType
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    COMMANDS: tuple[ModuleType, ...]

EXIT_OK = 0
EXIT_PROBLEMS = 1
EXIT_USAGE = 2

# Each command's name and the module (in this package) that defines it.  The order here
# is the order of ``allfours --help``.
COMMAND_MODULES: dict[str, str] = {
    "check": "check", "score": "score", "rules": "rules", "fmt": "fmt", "export": "export",
    "view": "view", "html": "html", "record": "record", "serve": "serve", "lsp": "lsp",
    "list": "listing",
    "find": "find", "stats": "stats", "analyse": "analyse", "advise": "advise", "event": "event",
    "completion": "completion",
}


def command_module(name: str) -> ModuleType:
    """The module of the command ``name`` (imported now if it was not yet)."""
    import importlib

    return importlib.import_module(f"{__name__}.{COMMAND_MODULES[name]}")


def __getattr__(name: str) -> Any:
    """``COMMANDS``, every command's module in help order, imported on first use."""
    if name == "COMMANDS":
        return tuple(command_module(command) for command in COMMAND_MODULES)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


@cache
def _rich_formatter_class() -> type[argparse.HelpFormatter]:
    from rich_argparse import RawDescriptionRichHelpFormatter

    class Formatter(RawDescriptionRichHelpFormatter):
        """Descriptions keep their line breaks; help texts are shown as written, never
        read as Rich markup (they quote AFN, e.g. '[Rules "NAME"]')."""

        help_markup = False
        text_markup = False

    return Formatter


class _UnshownFormatter(argparse.RawDescriptionHelpFormatter):
    """The formatter argparse makes for every ``add_argument`` (to check its metavar) and
    never prints with: given a width, it does not import shutil to ask the terminal for
    one (about 2% of a one-game check's start: issue 27).  Help and usage messages are
    drawn by Rich's formatter, which measures the terminal itself."""

    def __init__(self, prog: str, indent_increment: int = 2, max_help_position: int = 24,
                 width: int | None = None) -> None:
        super().__init__(prog, indent_increment, max_help_position,
                         width=80 if width is None else width)


class Parser(argparse.ArgumentParser):
    """An argument parser whose help and usage messages are drawn by rich-argparse."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        kwargs.setdefault("formatter_class", _UnshownFormatter)
        super().__init__(*args, **kwargs)

    def format_help(self) -> str:
        self.formatter_class = _rich_formatter_class()
        return super().format_help()

    def format_usage(self) -> str:
        self.formatter_class = _rich_formatter_class()
        return super().format_usage()


def build_parser(only: str | None = None) -> argparse.ArgumentParser:
    """The whole command line, or with ``only`` the one command of that name (what a
    command line starting with it needs: the other commands' modules stay unread)."""
    parser = Parser(
        prog="allfours",
        description="Read, check, score, format and replay All Fours games written in AFN "
        "(All Fours Notation).",
        epilog="Exit codes: 0 clean, 1 problems found, 2 usage error or unreadable input, "
        "3 disputes recorded and no errors (check, score, list --check). "
        "Run 'allfours COMMAND --help' for the options of a command; "
        "'allfours completion --help' tells how to install tab completion.",
    )
    from .. import __version__

    parser.add_argument("--version", action="version", version=f"allfours {__version__}")
    parser.add_argument("--verbose", action="store_true",
                        help="with --version: also the Python, the platform and the version of "
                        "every library allfours uses, for a bug report")
    subparsers = parser.add_subparsers(dest="command", metavar="COMMAND", required=True)
    for name in COMMAND_MODULES if only is None else (only,):
        module = command_module(name)
        sub = subparsers.add_parser(
            module.NAME,
            help=module.HELP,
            description=module.DESCRIPTION,
        )
        module.add_arguments(sub)
        # the whole command line too: 'completion' writes a script from it (without
        # importing this package back: the module graph stays one-way)
        sub.set_defaults(run=module.run, command_line=parser)
    return parser


# What a bug report needs besides the record: the libraries allfours runs on.
REPORTED_LIBRARIES = ("lark", "textual", "rich", "rich-argparse", "shtab", "pygls", "pygments",
                      "openskill")


def version_report() -> str:
    """``allfours --version --verbose``: the version, the interpreter, the platform and the
    version of each library allfours uses (or that it is missing)."""
    import platform
    from importlib import metadata

    from .. import __version__

    lines = [f"allfours {__version__}",
             f"Python {platform.python_version()} ({platform.python_implementation()}, "
             f"{sys.executable})",
             f"platform {platform.platform()}"]
    for name in REPORTED_LIBRARIES:
        try:
            lines.append(f"{name} {metadata.version(name)}")
        except metadata.PackageNotFoundError:
            lines.append(f"{name} not installed")
    return "\n".join(lines) + "\n"


def _mistyped_command(word: str) -> str | None:
    """The command ``word`` was probably meant to be (``chek``: ``check``), or None when
    it is a command, an option, or like none of them (argparse's own error lists them)."""
    if word.startswith("-") or word in COMMAND_MODULES:
        return None
    import difflib

    close = difflib.get_close_matches(word.lower(), COMMAND_MODULES, n=1, cutoff=0.6)
    return close[0] if close else None


def visible_word(word: str) -> str:
    """A word of the command line as it may be printed: control characters escaped."""
    from ..visible import visible

    return visible(word)


def main(argv: Sequence[str] | None = None) -> int:
    words = list(sys.argv[1:] if argv is None else argv)
    if set(words) == {"--version", "--verbose"}:
        sys.stdout.write(version_report())
        return EXIT_OK
    if words == ["--version"]:  # argparse's version action, without building the parser
        from .. import __version__

        sys.stdout.write(f"allfours {__version__}\n")
        raise SystemExit(EXIT_OK)
    # A command named first needs its own module only; 'completion' writes a script of
    # the whole command line.
    first = words[0] if words else None
    if first is not None and (suggestion := _mistyped_command(first)) is not None:
        print(f"Usage: allfours [-h] [--version] [--verbose] COMMAND ...\n"
              f"allfours: error: no command '{visible_word(first)}': did you mean "
              f"'{suggestion}'? ('allfours --help' lists the commands)", file=sys.stderr)
        return EXIT_USAGE
    light = first in COMMAND_MODULES and first != "completion"
    from ..collector import frozen_when_done  # here: --version imports nothing but this

    with frozen_when_done():
        parser = build_parser(first if light else None)
    args = parser.parse_args(words)
    try:
        code: int = args.run(args)
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:
        sys.stderr.close()
        return EXIT_OK
    except Exception as error:  # the last resort: never a traceback (AFN_TRACEBACK=1 shows it)
        if os.environ.get("AFN_TRACEBACK"):
            raise
        from ..guard import BUG_TEXT, INTERNAL_ERROR

        print(f"allfours: {INTERNAL_ERROR} internal error ({type(error).__name__}: {error}); "
              f"{BUG_TEXT} (set AFN_TRACEBACK=1 to see where)", file=sys.stderr)
        return EXIT_PROBLEMS
    return code
