"""Shared plumbing for subcommands: reading inputs, consoles, exit codes.

Reads are bounded: only regular files (and standard input) are read, a FIFO, a
device or a socket is refused without opening it for a blocking read, and no
more than :data:`~allfours_notation.limits.MAX_FILE_BYTES` bytes are ever read.
"""

from __future__ import annotations

import hashlib
import os
import stat
import sys
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from rich.console import Console

from ..limits import MAX_FILE_BYTES
from ..safe_write import FileIdentity


class InputError(Exception):
    """An input that cannot be read at all: reported in one line, exit code 2."""


@dataclass(frozen=True, slots=True)
class Input:
    name: str
    data: bytes
    identity: FileIdentity | None = None  # None for standard input


def read_input(name: str, *, limit: int = MAX_FILE_BYTES) -> Input:
    """Bytes of a regular file, or of standard input for ``-``; at most ``limit``."""
    if name == "-":
        data = sys.stdin.buffer.read(limit + 1)
        if len(data) > limit:
            raise InputError(f"<stdin>: more than {_size(limit)}, the largest input read")
        return Input("<stdin>", data)
    handle = _open(name)
    try:
        return Input(name, *_read_regular(name, handle, limit))
    finally:
        os.close(handle)


def read_head(name: str, count: int) -> bytes:
    """The first ``count`` bytes of a regular file no larger than the limit (what the
    viewer sniffs before opening a file); :class:`InputError` otherwise."""
    handle = _open(name)
    try:
        _check_regular(name, os.fstat(handle), MAX_FILE_BYTES)
        os.set_blocking(handle, True)
        return os.read(handle, count)
    except OSError as error:
        raise InputError(f"{name}: cannot read: {error.strerror or error}") from error
    finally:
        os.close(handle)


def _open(name: str) -> int:
    try:
        # O_NONBLOCK: opening a FIFO that has no writer must not wait for one.
        return os.open(name, os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_CLOEXEC", 0))
    except FileNotFoundError:
        raise InputError(f"{name}: no such file") from None
    except IsADirectoryError:
        raise InputError(f"{name}: is a directory, not an AFN file") from None
    except OSError as error:
        raise InputError(f"{name}: cannot read: {error.strerror or error}") from error


def _check_regular(name: str, info: os.stat_result, limit: int) -> None:
    if stat.S_ISDIR(info.st_mode):
        raise InputError(f"{name}: is a directory, not an AFN file")
    if not stat.S_ISREG(info.st_mode):
        raise InputError(f"{name}: is {_kind(info.st_mode)}, not a regular file; "
                         "only files (or '-' for standard input) are read")
    if info.st_size > limit:
        raise InputError(f"{name}: {_size(info.st_size)} is larger than {_size(limit)}, "
                         "the largest file read")


def _read_regular(name: str, handle: int, limit: int) -> tuple[bytes, FileIdentity]:
    info = os.fstat(handle)
    _check_regular(name, info, limit)
    os.set_blocking(handle, True)
    chunks, total = [], 0
    try:
        while total <= limit:
            chunk = os.read(handle, min(1 << 20, limit + 1 - total))
            if not chunk:
                break
            chunks.append(chunk)
            total += len(chunk)
    except OSError as error:
        raise InputError(f"{name}: cannot read: {error.strerror or error}") from error
    if total > limit:  # the file grew while it was read
        raise InputError(f"{name}: larger than {_size(limit)}, the largest file read")
    data = b"".join(chunks)
    identity = FileIdentity(info.st_dev, info.st_ino, len(data), info.st_mtime_ns,
                            hashlib.sha256(data).hexdigest())
    return data, identity


def _kind(mode: int) -> str:
    if stat.S_ISFIFO(mode):
        return "a FIFO (named pipe)"
    if stat.S_ISCHR(mode) or stat.S_ISBLK(mode):
        return "a device"
    if stat.S_ISSOCK(mode):
        return "a socket"
    return "not a regular file"


def _size(count: int) -> str:
    return f"{count / (1024 * 1024):.0f} MiB" if count >= 1024 * 1024 else f"{count} bytes"


def console(*, stderr: bool = False) -> Console:
    """Rich console: colour on a terminal, plain text when piped."""
    return Console(stderr=stderr, highlight=False, soft_wrap=True)


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
