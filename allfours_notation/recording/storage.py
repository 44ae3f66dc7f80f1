"""The recorder's file on disk: one writer at a time, every write whole or not at all.

Everything here goes through :mod:`allfours_notation.safe_write`.  A recorder
holds an advisory lock on the file the name resolves to (``.NAME.lock`` beside
the real file, so a second recorder through a symbolic link or another relative
path is refused too), removed when it lets go; a lock or temporary file left by a
recorder that was killed is cleaned up when the next one starts, with a line
saying so.  Every write is whole (old text or new, whatever happens); a symbolic
link is written through, hard links, owner, group and mode are kept.  And a
write never overwrites someone else's edit: the file must still be what the
recorder last read or wrote (size, mtime, inode and SHA-256), else
:class:`RecordChanged` and nothing is written.
"""

from __future__ import annotations

import os
from pathlib import Path

from ..file_lock import FileLock, Locked, LockingUnavailable
from ..safe_write import (
    ChangedOnDisk,
    FileIdentity,
    Notice,
    OutputRefused,
    identity,
    replace_file,
    resolved,
    say_on_stderr,
)

__all__ = ["FileLocked", "RecordChanged", "RecordFile", "lock_path"]


class FileLocked(Locked):
    """Another recorder holds the file."""


class RecordChanged(ChangedOnDisk):
    """The file changed on disk since the recorder read or wrote it: not written."""


def lock_path(path: Path) -> Path:
    """The lock file of ``path``: hidden, beside the file it resolves to."""
    return FileLock(path).path


class RecordFile:
    """The record being written, locked for as long as this object is open."""

    def __init__(self, path: Path, *, notice: Notice | None = say_on_stderr) -> None:
        self.path = path
        self.notice = notice
        self._lock = FileLock(path)
        # What the file was when last read or written (None: it did not exist then).
        self.identity: FileIdentity | None = None
        self.read_once = False

    def __enter__(self) -> RecordFile:
        self.acquire()
        return self

    def __exit__(self, *exc: object) -> None:
        self.release()

    def acquire(self) -> None:
        """Take the lock, or raise :class:`FileLocked` naming the file."""
        try:
            self._lock.acquire(notice=self.notice)
        except LockingUnavailable as error:  # no fcntl here: said as it is
            raise FileLocked(str(error)) from error
        except Locked as error:
            raise FileLocked(f"{self.path}: another recorder is writing this file "
                             f"(lock {self._lock.path.name}); close it first") from error

    def release(self) -> None:
        self._lock.release()

    @property
    def locked(self) -> bool:
        return self._lock.held

    def read(self) -> bytes | None:
        """The file's bytes (None if it does not exist), remembered as what was read."""
        target = resolved(self.path)
        try:
            with open(target, "rb") as handle:
                data = handle.read()
                info = os.fstat(handle.fileno())
        except FileNotFoundError:
            self.identity, self.read_once = None, True
            return None
        self.identity, self.read_once = identity(info, data), True
        return data

    def write(self, text: str) -> None:
        """Replace the record with ``text``, whole, unless it changed on disk meanwhile."""
        if not self.locked:
            raise RuntimeError("write without the lock")
        if not self.read_once:
            self.read()
        try:
            self.identity = replace_file(self.path, text.encode("utf-8"),
                                         expected=self.identity,
                                         create_only=self.identity is None,
                                         notice=self.notice)
        except OutputRefused as error:  # a file appeared where there was none
            raise RecordChanged(str(error)) from error
        except ChangedOnDisk as error:
            raise RecordChanged(str(error)) from error
