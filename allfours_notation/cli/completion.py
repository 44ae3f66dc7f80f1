"""``allfours completion SHELL``: a tab-completion script for bash, zsh or fish.

The script is generated from the command line's own parser (by shtab), so it always
offers exactly the subcommands, options and choices this version has; every argument
shown as FILE completes file names.  shtab is imported only here, when a script is
asked for.
"""

from __future__ import annotations

import argparse
import sys

NAME = "completion"
HELP = "print a shell completion script (bash, zsh or fish)"
DESCRIPTION = """\
Print a script that makes the shell complete allfours's subcommands, options, their
values and file names.  Install it once, in the place your shell reads completions from:

  bash:  allfours completion bash > ~/.local/share/bash-completion/completions/allfours
  zsh:   allfours completion zsh > ~/.zfunc/_allfours
         (with  fpath+=~/.zfunc; autoload -U compinit; compinit  in ~/.zshrc)
  fish:  allfours completion fish > ~/.config/fish/completions/allfours.fish

then open a new shell.  Run it again after upgrading allfours.
"""

SHELLS = ("bash", "zsh", "fish")
FILE_METAVARS = ("FILE", "FILES", "PATH", "DIR")


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("shell", choices=SHELLS, help="the shell to write the script for")


def mark_file_arguments(parser: argparse.ArgumentParser) -> None:
    """Let every argument that takes a file complete file names, in every subcommand."""
    import shtab

    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            for sub in action.choices.values():
                mark_file_arguments(sub)
        elif action.metavar in FILE_METAVARS or (action.metavar is None and action.dest
                                                 in ("file", "files")):
            action.complete = shtab.FILE  # type: ignore[attr-defined]


def run(args: argparse.Namespace) -> int:
    import shtab

    parser = args.command_line
    mark_file_arguments(parser)
    sys.stdout.write(shtab.complete(parser, shell=args.shell))
    sys.stdout.flush()
    return 0
