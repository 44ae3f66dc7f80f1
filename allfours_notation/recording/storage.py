"""The recorder's file on disk: one writer at a time, every write whole or not at all.

A recorder holds an advisory lock (``fcntl.flock``) on a lock file beside the
record (``.NAME.lock``), so a second recorder on the same file is refused rather
than interleaving its writes.  Where there is no ``fcntl`` (Windows) this module
still imports; taking the lock raises :class:`LockingUnavailable`.  Every write goes
to a temporary file in the same folder, is flushed and fsynced, then renamed over the
record (and the folder fsynced), so that a kill at any instant leaves either the old
text or the new.
"""

from __future__ import annotations

import contextlib
import os
import stat
import tempfile
from collections.abc import Callable
from pathlib import Path

_flock: Callable[[int, int], None] | None
try:
    import fcntl
except ImportError:  # not POSIX
    _flock = None
    _EXCLUSIVE = _UNLOCK = 0
else:
    _flock = fcntl.flock
    _EXCLUSIVE, _UNLOCK = fcntl.LOCK_EX | fcntl.LOCK_NB, fcntl.LOCK_UN

__all__ = ["FileLocked", "LockingUnavailable", "RecordFile", "lock_path"]


class FileLocked(Exception):
    """Another recorder holds the file."""


class LockingUnavailable(FileLocked):
    """This platform cannot lock a file (no ``fcntl``): recording is refused as if
    the file were held, since a second recorder could not be kept out."""


def lock_path(path: Path) -> Path:
    """The lock file of ``path``: hidden, beside it, so one folder holds both."""
    return path.with_name(f".{path.name}.lock")


class RecordFile:
    """The record being written, locked for as long as this object is open."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self._lock: int | None = None

    def __enter__(self) -> RecordFile:
        self.acquire()
        return self

    def __exit__(self, *exc: object) -> None:
        self.release()

    def acquire(self) -> None:
        """Take the lock, or raise :class:`FileLocked` naming the file."""
        target = lock_path(self.path)
        if _flock is None:
            raise LockingUnavailable(f"{self.path}: this platform has no file locking "
                                     "(fcntl), which recording needs; record on Linux or "
                                     "macOS")
        while True:
            fd = os.open(target, os.O_RDWR | os.O_CREAT, 0o644)
            try:
                _flock(fd, _EXCLUSIVE)
            except BlockingIOError:
                os.close(fd)
                raise FileLocked(f"{self.path}: another recorder is writing this file "
                                 f"(lock {target.name}); close it first") from None
            # The holder before us may have removed the lock file as it let go: then
            # our lock is on a file nobody else can find, so take the new one.
            try:
                same = os.stat(target).st_ino == os.fstat(fd).st_ino
            except FileNotFoundError:
                same = False
            if same:
                os.ftruncate(fd, 0)
                os.write(fd, f"{os.getpid()}\n".encode())
                self._lock = fd
                return
            os.close(fd)

    def release(self) -> None:
        if self._lock is None:
            return
        with contextlib.suppress(FileNotFoundError):
            lock_path(self.path).unlink()
        assert _flock is not None  # the lock was taken
        _flock(self._lock, _UNLOCK)
        os.close(self._lock)
        self._lock = None

    def _mode(self) -> int:
        """The record's permissions: kept when it exists, else as the umask allows
        (a temporary file is made private, and the rename would keep that)."""
        try:
            return stat.S_IMODE(os.stat(self.path).st_mode)
        except FileNotFoundError:
            umask = os.umask(0)
            os.umask(umask)
            return 0o666 & ~umask

    @property
    def locked(self) -> bool:
        return self._lock is not None

    def write(self, text: str) -> None:
        """Replace the record with ``text``, atomically and durably."""
        if self._lock is None:
            raise RuntimeError("write without the lock")
        folder = self.path.parent
        fd, temp = tempfile.mkstemp(prefix=f".{self.path.name}.", suffix=".tmp", dir=folder)
        try:
            os.fchmod(fd, self._mode())
            with os.fdopen(fd, "w", encoding="utf-8", newline="\n") as handle:
                handle.write(text)
                handle.flush()
                os.fsync(handle.fileno())
            os.replace(temp, self.path)
        except BaseException:
            with contextlib.suppress(FileNotFoundError):
                os.unlink(temp)
            raise
        directory = os.open(folder, os.O_RDONLY)
        try:
            os.fsync(directory)
        finally:
            os.close(directory)
