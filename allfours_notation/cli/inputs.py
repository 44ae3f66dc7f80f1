"""Shared plumbing for subcommands: reading inputs, consoles, exit codes."""

from __future__ import annotations

import sys
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
    console(stderr=True).print(f"[bold red]allfours:[/] {message}", markup=True)
    return 2
