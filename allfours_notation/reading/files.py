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

__all__ = ["SNIFF_BYTES", "Input", "InputError", "not_afn_reason", "read_afn", "read_head",
           "read_input", "unreadable_reason"]


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


def read_afn(name: str, *, limit: int = MAX_FILE_BYTES) -> Input:
    """:func:`read_input`, and the bytes judged text AFN (:func:`not_afn_reason`): what
    every command that reads records calls, so that a binary file, a file that is not
    UTF-8 at all or an empty one is one line and exit status 2 from each of them."""
    source = read_input(name, limit=limit)
    reason = not_afn_reason(source.name, source.data)
    if reason is not None:
        raise InputError(reason)
    return source


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
# Past this share of a file's first characters that are NUL or other control characters
# (not TAB, LF, VT, FF, CR or ESC) or bytes that are not UTF-8, the file is not text.  A
# record saved in Latin-1 has an odd byte per name (well under 1%): it is still read, each
# such byte an AFN102 at its place.
_MOST_NOT_TEXT = 0.10
_WHITE = b" \t\r\n\f\v"
_BOM_BYTES = b"\xef\xbb\xbf"
_NOT_TEXT_CHARACTERS = frozenset([*range(0x00, 0x09), 0x0E, 0x0F, *range(0x10, 0x1B),
                                  *range(0x1C, 0x20), 0x7F, 0xFFFD])


def not_afn_reason(name: str, data: bytes, *, empty_ok: bool = False) -> str | None:
    """Why ``data`` (a file's bytes, or its first :data:`SNIFF_BYTES`) is not text AFN at
    all, in one line, or ``None`` when it may be read as AFN: the one judgement of every
    command (``view`` asks it too, before its own question: is there a game to show).

    Not AFN: nothing in it but white space (no games), or a tenth or more of its first
    64 KiB NUL, other control characters or bytes that are not UTF-8 (a picture, an
    archive, UTF-16 text, text in another encoding).  A few such characters in a text are
    not this: a NUL in a player's name is an AFN111 where it stands, a Latin-1 byte an
    AFN102.

    ``empty_ok``: an empty file is fine (the recorder starts a record in one)."""
    head = data[:SNIFF_BYTES]
    if not head.removeprefix(_BOM_BYTES).strip(_WHITE):
        if empty_ok:
            return None
        what = "empty" if not data else "only white space"
        return f"{name}: not an AFN file: it is {what} (no games)"
    if head.isascii() and not _has_controls(head):
        return None  # nearly every file: ASCII text
    # A character cut at the end of the head is not the file's fault.
    text = head.decode("utf-8", errors="replace")
    if len(head) == SNIFF_BYTES:
        text = text[:-3]
    bad = sum(1 for character in text if ord(character) in _NOT_TEXT_CHARACTERS)
    if bad < _MOST_NOT_TEXT * max(len(text), 1):
        return None
    if "\x00" in text:
        return f"{name}: not an AFN file (binary data)"
    return f"{name}: not an AFN file (binary data, or text that is not UTF-8)"


def _has_controls(head: bytes) -> bool:
    return bool(head.translate(None, _TEXT_BYTES))


# The bytes of ASCII text: the printable ones, TAB, LF, VT, FF, CR and ESC (a record may
# hold an odd escape sequence: an AFN111 warning, not a binary file).
_TEXT_BYTES = bytes([0x09, 0x0A, 0x0B, 0x0C, 0x0D, 0x1B, *range(0x20, 0x7F)])


def unreadable_reason(path: Path) -> str | None:
    """One sentence saying why ``path`` cannot be viewed, or ``None`` when it can.

    Only a regular file within the size limit is opened (a FIFO or a device is
    refused without waiting on it)."""
    try:
        head = read_head(str(path), SNIFF_BYTES)
    except InputError as error:
        return str(error)
    reason = not_afn_reason(str(path), head)
    if reason is not None:
        return reason
    text, _ = decode(head)
    from .headers import scan_headers  # the viewer's question only: not read by check

    if not any(header.tags or header.deals for header in scan_headers(text)):
        return f"{path}: not an AFN file (no '[Tag \"…\"]' or 'deal N dealer S' found)"
    return None
