"""Shared plumbing for subcommands: reading inputs, consoles, exit codes.

Reads are bounded: only regular files (and standard input) are read, a FIFO, a
device or a socket is refused without opening it for a blocking read, and no
more than :data:`~allfours_notation.limits.MAX_FILE_BYTES` bytes are ever read.
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from typing import TYPE_CHECKING

from ..frozen import frozen

# The safe reading of files lives with the reading floor (:mod:`..files`); these names
# stay importable from here for the subcommands.
from ..reading.files import Input as Input
from ..reading.files import InputError as InputError
from ..reading.files import read_afn as read_afn
from ..reading.files import read_head as read_head
from ..reading.files import read_input as read_input

if TYPE_CHECKING:
    from pathlib import Path

    from rich.console import Console


def console(*, stderr: bool = False) -> Console:
    """Rich console: colour on a terminal, plain text when piped; no emoji codes (a
    position such as ``file.afn:100:5:`` would otherwise print as a picture)."""
    from rich.console import Console

    return Console(stderr=stderr, highlight=False, soft_wrap=True, emoji=False)


def fail(message: str) -> int:
    """One clear line on stderr; the usage/unreadable exit code."""
    from rich.markup import escape

    from ..visible import visible

    # escaped: a message quoting a file name or an extra such as [plots] is not markup,
    # and a control character in a name is shown, not obeyed
    console(stderr=True).print(f"[bold red]allfours:[/] {escape(visible(message))}",
                               markup=True)
    return 2


# --- folders as inputs ------------------------------------------------------------------------

AFN_SUFFIX = ".afn"


@frozen
class Expanded:
    """The files named on a command line, folders replaced by the AFN files under them.

    ``problems`` are folders with no ``.afn`` file in them: reported like an
    unreadable file (one line, exit 2), while the other inputs are still read.
    """

    names: tuple[str, ...]
    problems: tuple[str, ...] = ()


def expand_inputs(names: Sequence[str]) -> Expanded:
    """Each name as given, except that a folder stands for every ``.afn`` file under it.

    Recursive, in a stable order (path components compared as text, so a folder's
    own files and its subfolders interleave by name, the same on every machine);
    hidden files and folders (``.git``) are skipped.  ``-`` and names that do not
    exist are passed through, for :func:`read_input` to read or report.
    """
    found: list[str] = []
    problems: list[str] = []
    for name in names:
        if name == "-" or not os.path.isdir(name or "."):  # "" is the current folder
            found.append(name)
            continue
        from pathlib import Path  # for folders only: a file's check does without it

        files = afn_files_under(Path(name))
        if not files:
            problems.append(f"{name}: folder holds no {AFN_SUFFIX} file")
        found.extend(str(file) for file in files)
    return Expanded(tuple(found), tuple(problems))


def afn_files_under(folder: Path) -> list[Path]:
    """The ``.afn`` files under ``folder``, recursively, sorted by their path parts."""
    files = [
        path
        for path in folder.rglob(f"*{AFN_SUFFIX}")
        if path.is_file()
        and not any(part.startswith(".") for part in path.relative_to(folder).parts)
    ]
    return sorted(files, key=lambda path: path.relative_to(folder).parts)


def expanded_or_fail(names: Sequence[str]) -> tuple[tuple[str, ...], bool]:
    """Expand ``names``; report every empty folder on stderr.  Returns the files and
    whether something could not be read (so the command exits 2 at the end)."""
    expanded = expand_inputs(names)
    for problem in expanded.problems:
        fail(problem)
    return expanded.names, bool(expanded.problems)
