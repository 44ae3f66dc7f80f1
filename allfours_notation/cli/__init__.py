"""The ``allfours`` command line: one module per subcommand.

Each subcommand module defines ``NAME``, ``HELP``, ``DESCRIPTION``,
``add_arguments(parser)`` and ``run(args) -> int``.  Exit codes are shared by
all of them: 0 clean, 1 problems found, 2 usage error or unreadable input.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from types import ModuleType

from . import check, export, find, fmt, html, listing, lsp, record, rules, score, stats, view

EXIT_OK = 0
EXIT_PROBLEMS = 1
EXIT_USAGE = 2

# The order here is the order of ``allfours --help``.
COMMANDS: tuple[ModuleType, ...] = (check, score, rules, fmt, export, view, html, record, lsp,
                                    listing, find, stats)


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="allfours",
        description="Read, check, score, format and replay All Fours games written in AFN "
        "(All Fours Notation).",
        epilog="Exit codes: 0 clean, 1 problems found, 2 usage error or unreadable input. "
        "Run 'allfours COMMAND --help' for the options of a command.",
    )
    from .. import __version__

    parser.add_argument("--version", action="version", version=f"allfours {__version__}")
    subparsers = parser.add_subparsers(dest="command", metavar="COMMAND", required=True)
    for module in COMMANDS:
        sub = subparsers.add_parser(
            module.NAME,
            help=module.HELP,
            description=module.DESCRIPTION,
            formatter_class=argparse.RawDescriptionHelpFormatter,
        )
        module.add_arguments(sub)
        sub.set_defaults(run=module.run)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        code: int = args.run(args)
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:
        sys.stderr.close()
        return EXIT_OK
    return code
