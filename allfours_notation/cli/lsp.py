"""``allfours lsp``: the AFN language server, over standard input and output."""

from __future__ import annotations

import argparse

NAME = "lsp"
HELP = "run the AFN language server (for editors) on stdin/stdout"
DESCRIPTION = """\
Run a Language Server Protocol server for AFN files on standard input and
output.  An editor starts it and talks to it; you do not type into it.  It
gives, as you type:

  diagnostics   the same codes, messages and positions as 'allfours check',
                recomputed only for the game you edit, after a short pause
  formatting    'allfours fmt' for the whole file or the games in a range,
                never applied unless the result reads back to the same records
  hover         on a card: who held it, when it was played, who won the trick;
                on a trick number: tricks and pips per side after it; on a deal
                header: the deal's points with reasons and the running score;
                on a claim item: computed against claimed
  completion    at any cursor, from the referee's table there: what is expected
                next, the legal cards, calls, claim items, totals, turn-ups
  highlighting  semantic tokens of the protocol's standard types
  settings      allfours.rules and allfours.rulesFile, as --rules and
                --rules-file (initializationOptions or didChangeConfiguration)
  outline       games, deals and tricks; folding per game and deal
  quick fixes   the version line, a missing 'end', the computed claim or total

docs/editors.md in the source shows how to attach it to VS Code, Neovim, Helix
and Emacs.
"""


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--debounce", type=int, default=150, metavar="MS",
        help="milliseconds to wait after a change before checking (default 150)",
    )
    parser.add_argument(
        "--stdio", action="store_true",
        help="accepted for editors that pass it; stdio is the only transport",
    )


def run(args: argparse.Namespace) -> int:
    if args.debounce < 0:
        from .inputs import fail

        return fail("--debounce must be 0 or more milliseconds")
    from ..lsp.server import serve  # pygls is imported here, by this command only

    serve(debounce=args.debounce / 1000)
    return 0
