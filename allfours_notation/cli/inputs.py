"""Shared plumbing for subcommands: reading inputs, consoles, exit codes."""

from __future__ import annotations

import sys
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from rich.console import Console


class InputError(Exception):
    """An input that cannot be read at all: reported in one line, exit code 2."""


@dataclass(frozen=True, slots=True)
class Input:
    name: str
    data: bytes


def read_input(name: str) -> Input:
    """Bytes of a file, or of standard input for ``-``."""
    if name == "-":
        return Input("<stdin>", sys.stdin.buffer.read())
    path = Path(name)
    if not path.exists():
        raise InputError(f"{name}: no such file")
    if path.is_dir():
        raise InputError(f"{name}: is a directory, not an AFN file")
    try:
        return Input(name, path.read_bytes())
    except OSError as error:
        raise InputError(f"{name}: cannot read: {error.strerror or error}") from error


def console(*, stderr: bool = False) -> Console:
    """Rich console: colour on a terminal, plain text when piped."""
    return Console(stderr=stderr, highlight=False, soft_wrap=True)


def fail(message: str) -> int:
    """One clear line on stderr; the usage/unreadable exit code."""
    from rich.markup import escape

    # escaped: a message quoting a file name or an extra such as [plots] is not markup
    console(stderr=True).print(f"[bold red]allfours:[/] {escape(message)}", markup=True)
    return 2


# --- folders as inputs ------------------------------------------------------------------------

AFN_SUFFIX = ".afn"


@dataclass(frozen=True, slots=True)
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
        path = Path(name)
        if name == "-" or not path.is_dir():
            found.append(name)
            continue
        files = afn_files_under(path)
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
