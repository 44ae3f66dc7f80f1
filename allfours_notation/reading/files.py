"""Reading files safely: only regular files (and standard input), never more than the
limit, a FIFO, a device or a socket refused without a blocking read.

Every tool that reads an AFN file from disk goes through :func:`read_input` (or
:func:`read_head` to sniff one): the command line, the viewer, the recorder.
Nothing here prints: a file that cannot be read is an :class:`InputError` whose text
is the one line to show.
"""

from __future__ import annotations

import os
import stat
import sys
from typing import TYPE_CHECKING

from ..frozen import frozen
from ..limits import MAX_FILE_BYTES
from .source import decode

if TYPE_CHECKING:
    from pathlib import Path

    from ..safe_write import FileIdentity

__all__ = ["SNIFF_BYTES", "Input", "InputError", "read_head", "read_input", "unreadable_reason"]


class InputError(Exception):
    """An input that cannot be read at all: reported in one line, exit code 2."""


@frozen
class Input:
    """The bytes of one input, its name as given and, for a file, how it stood when read
    (``os.fstat``'s answer; None for standard input)."""

    name: str
    data: bytes
    status: os.stat_result | None = None

    @property
    def identity(self) -> FileIdentity | None:
        """What the file was when read, which ``fmt`` checks before rewriting it.  Made
        when asked: its SHA-256 digest (and the import of ``hashlib``, about 3% of a
        one-game check's start) are of no use to a command that only reads."""
        if self.status is None:
            return None
        from ..safe_write import identity

        return identity(self.status, self.data)


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


def _read_regular(name: str, handle: int, limit: int) -> tuple[bytes, os.stat_result]:
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
    return b"".join(chunks), info


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


SNIFF_BYTES = 64 * 1024


def unreadable_reason(path: Path) -> str | None:
    """One sentence saying why ``path`` cannot be viewed, or ``None`` when it can.

    Only a regular file within the size limit is opened (a FIFO or a device is
    refused without waiting on it)."""
    try:
        head = read_head(str(path), SNIFF_BYTES)
    except InputError as error:
        return str(error)
    if b"\x00" in head:
        return f"{path}: not an AFN file (binary data)"
    text, _ = decode(head)
    from .headers import scan_headers  # the viewer's question only: not read by check

    if not any(header.tags or header.deals for header in scan_headers(text)):
        return f"{path}: not an AFN file (no '[Tag \"…\"]' or 'deal N dealer S' found)"
    return None
